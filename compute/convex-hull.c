/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "convex-hull.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>

/* Shewchuk's bound (ccwerrboundA, "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric
 * Predicates") on the rounding error of a turn's determinant computed in doubles, per unit of its two products'
 * magnitudes: beyond it the computed sign is the exact one. */
#define TURN_ERROR_BOUND ((3.0 + 8.0 * DBL_EPSILON) * DBL_EPSILON / 2.0)

/* The determinant of the turn o -> a -> b (positive counter-clockwise) in doubles, and the bound on its rounding
 * error in *error_bound. */
static double
turn_estimate (const shepard_hull_point *o, const shepard_hull_point *a, const shepard_hull_point *b,
               double *error_bound)
{
  double left = (a->x - o->x) * (b->y - o->y), right = (a->y - o->y) * (b->x - o->x);

  *error_bound = TURN_ERROR_BOUND * (fabs (left) + fabs (right));
  return left - right;
}

/* Adds value to an expansion (terms that do not overlap, of growing magnitude, zeros left out; room for one more),
 * exactly: Shewchuk's Grow-Expansion. Returns its new number of terms. */
static size_t
grow_expansion (double *terms, size_t n, double value)
{
  size_t kept = 0;

  for (size_t i = 0; i < n; i++)
    {
      double sum = value + terms[i];
      double term_part = sum - value;
      double error = (value - (sum - term_part)) + (terms[i] - term_part);
      if (error != 0.0)
        terms[kept++] = error;
      value = sum;
    }
  if (value != 0.0)
    terms[kept++] = value;
  return kept;
}

/* The sign of the turn's determinant summed exactly: it expands to six products of coordinates, each of which fma
 * splits into its rounded value and the rounding's error; the sum's sign is that of its largest term. */
static int
exact_turn (const shepard_hull_point *o, const shepard_hull_point *a, const shepard_hull_point *b)
{
  const double factors[6][2] = {
    { a->x, b->y }, { -a->y, b->x }, { o->x, a->y }, { -o->y, a->x }, { b->x, o->y }, { -b->y, o->x },
  };
  double terms[2 * sizeof factors / sizeof factors[0] + 1];
  size_t n = 0;

  for (size_t i = 0; i < sizeof factors / sizeof factors[0]; i++)
    {
      double product = factors[i][0] * factors[i][1];
      n = grow_expansion (terms, n, product);
      n = grow_expansion (terms, n, fma (factors[i][0], factors[i][1], -product));
    }
  return n == 0 ? 0 : terms[n - 1] > 0.0 ? 1 : -1;
}

/* 1 when o -> a -> b turns counter-clockwise, -1 clockwise, 0 when the three lie on one line: exactly, the doubles'
 * estimate where it is sure. */
static int
turn (const shepard_hull_point *o, const shepard_hull_point *a, const shepard_hull_point *b)
{
  double error_bound, determinant = turn_estimate (o, a, b, &error_bound);

  if (determinant > error_bound)
    return 1;
  if (determinant < -error_bound)
    return -1;
  return exact_turn (o, a, b);
}

static int
compare_points (const void *a, const void *b)
{
  const shepard_hull_point *p = a, *q = b;

  if (p->x != q->x)
    return p->x < q->x ? -1 : 1;
  return p->y < q->y ? -1 : p->y > q->y;
}

/* The corners of the hull of points (n > 0, sorted by compare_points) into hull (room for 2 n + 1), counter-clockwise
 * from the first point; returns how many. */
static size_t
monotone_chain (const shepard_hull_point *points, size_t n, shepard_hull_point *hull)
{
  size_t count = 0;

  for (size_t i = 0; i < n; i++)
    {
      while (count >= 2 && turn (&hull[count - 2], &hull[count - 1], &points[i]) <= 0)
        count--;
      hull[count++] = points[i];
    }
  for (size_t i = n - 1, lower = count + 1; i-- > 0;)
    {
      while (count >= lower && turn (&hull[count - 2], &hull[count - 1], &points[i]) <= 0)
        count--;
      hull[count++] = points[i];
    }
  return n > 1 ? count - 1 : n;
}

size_t
shepard_convex_hull (shepard_hull_point *points, size_t n, shepard_hull_point *hull)
{
  if (n == 0)
    return 0;
  qsort (points, n, sizeof *points, compare_points);
  return monotone_chain (points, n, hull);
}

double
shepard_convex_hull_area (const shepard_hull_point *hull, size_t count)
{
  double twice_area = 0.0;
  for (size_t i = 0; i < count; i++)
    {
      const shepard_hull_point *a = &hull[i], *b = &hull[i + 1 < count ? i + 1 : 0];
      twice_area += a->x * b->y - b->x * a->y;
    }
  return fabs (twice_area) * 0.5;
}

/* How far p lies in eight directions, counter-clockwise from down (-y, x - y, x, x + y...). */
static void
distances (const shepard_hull_point *p, double along[8])
{
  along[0] = -p->y;
  along[1] = p->x - p->y;
  along[2] = p->x;
  along[3] = p->x + p->y;
  along[4] = p->y;
  along[5] = p->y - p->x;
  along[6] = -p->x;
  along[7] = -p->x - p->y;
}

/* The points farthest in the eight directions without repeats, counter-clockwise, and the first again after them:
 * the corners of a polygon inside the hull; returns how many. Which of several equally far points is taken, and
 * rounding in x + y and x - y, may make it smaller, never let it reach outside the hull. */
static size_t
extreme_polygon (const shepard_hull_point *points, size_t n, shepard_hull_point polygon[9])
{
  size_t farthest[8] = { 0 }, count = 0;
  double distance[8];

  distances (&points[0], distance);
  for (size_t i = 1; i < n; i++)
    {
      double along[8];
      distances (&points[i], along);
      for (size_t d = 0; d < 8; d++)
        if (along[d] > distance[d])
          {
            distance[d] = along[d];
            farthest[d] = i;
          }
    }
  for (size_t d = 0; d < 8; d++)
    {
      shepard_hull_point corner = points[farthest[d]];
      if (count == 0 || corner.x != polygon[count - 1].x || corner.y != polygon[count - 1].y)
        polygon[count++] = corner;
    }
  while (count > 1 && polygon[count - 1].x == polygon[0].x && polygon[count - 1].y == polygon[0].y)
    count--;
  polygon[count] = polygon[0];
  return count;
}

/* Whether p lies on the left of every edge of the polygon by more than rounding could reverse: then the polygon's
 * edges wind around it, so that it lies strictly inside the polygon's hull, and so inside the points' hull, never on
 * its boundary (whatever the polygon's shape). */
static bool
strictly_inside (const shepard_hull_point *polygon, size_t corners, const shepard_hull_point *p)
{
  for (size_t c = 0; c < corners; c++)
    {
      double error_bound;
      if (turn_estimate (&polygon[c], &polygon[c + 1], p, &error_bound) <= error_bound)
        return false;
    }
  return true;
}

size_t
shepard_convex_hull_drop_interior (shepard_hull_point *points, size_t n)
{
  shepard_hull_point polygon[9];
  size_t corners = n > 0 ? extreme_polygon (points, n, polygon) : 0;
  if (corners < 3)
    return n;
  size_t kept = 0;

  for (size_t i = 0; i < n; i++)
    if (!strictly_inside (polygon, corners, &points[i]))
      points[kept++] = points[i];
  return kept;
}
