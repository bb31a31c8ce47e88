/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "point-set.h"

#include "engine-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *
aligned_floats (size_t count)
{
  size_t bytes = count * sizeof (float);
  bytes = (bytes + 63) / 64 * 64;
  return aligned_alloc (64, bytes);
}

/* Points on one line span no area even where their bounding rectangle does (a diagonal line), and AIDW's expected
 * nearest-neighbour distance means nothing for them. */
static bool
points_are_collinear (const shepard_point_set *set)
{
  size_t anchor = 0, far = 0;
  for (size_t i = 1; i < set->n; i++)
    if (set->x[i] < set->x[anchor] || (set->x[i] == set->x[anchor] && set->y[i] < set->y[anchor]))
      anchor = i;
  double far_d2 = 0.0;
  for (size_t i = 0; i < set->n; i++)
    {
      double dx = set->x[i] - set->x[anchor], dy = set->y[i] - set->y[anchor];
      if (dx * dx + dy * dy > far_d2)
        {
          far_d2 = dx * dx + dy * dy;
          far = i;
        }
    }
  if (far_d2 == 0.0)
    return true;
  double ux = set->x[far] - set->x[anchor], uy = set->y[far] - set->y[anchor];
  double tolerance = 1e-9 * far_d2; /* |cross| / |u| <= 1e-9 |u| */
  for (size_t i = 0; i < set->n; i++)
    {
      double cross = ux * (set->y[i] - set->y[anchor]) - uy * (set->x[i] - set->x[anchor]);
      if (fabs (cross) > tolerance)
        return false;
    }
  return true;
}

shepard_status
shepard_point_set_init (shepard_point_set *set, const double *x, const double *y, const double *z, size_t n,
                        shepard_error *error)
{
  memset (set, 0, sizeof *set);
  if (n == 0)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to interpolate.");

  double x_min = INFINITY, y_min = INFINITY, x_max = -INFINITY, y_max = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]) || !isfinite (y[i]) || !isfinite (z[i]))
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "Data point %zu has a coordinate or value that is not a finite number (%g, %g, %g); "
                             "leave such points out.", i, x[i], y[i], z[i]);
      x_min = fmin (x_min, x[i]);
      x_max = fmax (x_max, x[i]);
      y_min = fmin (y_min, y[i]);
      y_max = fmax (y_max, y[i]);
    }

  size_t padded = (n + SHEPARD_POINT_PADDING - 1) / SHEPARD_POINT_PADDING * SHEPARD_POINT_PADDING;
  size_t bytes;
  if (!shepard_size_mul (padded, 3 * sizeof (double), &bytes))
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW, "Too many data points (%zu).", n);

  set->n = n;
  set->n_padded = padded;
  set->x_min = x_min;
  set->y_min = y_min;
  set->x_max = x_max;
  set->y_max = y_max;
  /* A float-rounded origin has few significant bits, so (given - origin) is exact for typical projected data. */
  set->origin_x = (double) (float) (0.5 * (x_min + x_max));
  set->origin_y = (double) (float) (0.5 * (y_min + y_max));
  double extent = fmax (x_max - x_min, y_max - y_min);
  int exponent = 0;
  if (extent > 0.0)
    frexp (extent, &exponent);
  set->scale = ldexp (1.0, -exponent);

  set->x = malloc (padded * sizeof (double));
  set->y = malloc (padded * sizeof (double));
  set->z = malloc (padded * sizeof (double));
  set->x_hi = aligned_floats (padded);
  set->x_lo = aligned_floats (padded);
  set->y_hi = aligned_floats (padded);
  set->y_lo = aligned_floats (padded);
  set->z32 = aligned_floats (padded);
  if (!set->x || !set->y || !set->z || !set->x_hi || !set->x_lo || !set->y_hi || !set->y_lo || !set->z32)
    {
      shepard_point_set_clear (set);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for %zu data points.", n);
    }

  for (size_t i = 0; i < padded; i++)
    {
      bool real = i < n;
      double lx = real ? (x[i] - set->origin_x) * set->scale : 0.0;
      double ly = real ? (y[i] - set->origin_y) * set->scale : 0.0;
      set->x[i] = lx;
      set->y[i] = ly;
      set->z[i] = real ? z[i] : 0.0;
      set->x_hi[i] = (float) lx;
      set->x_lo[i] = (float) (lx - (double) set->x_hi[i]);
      set->y_hi[i] = (float) ly;
      set->y_lo[i] = (float) (ly - (double) set->y_hi[i]);
      set->z32[i] = (float) set->z[i];
    }
  set->collinear = points_are_collinear (set);
  return SHEPARD_OK;
}

void
shepard_point_set_clear (shepard_point_set *set)
{
  free (set->x);
  free (set->y);
  free (set->z);
  free (set->x_hi);
  free (set->x_lo);
  free (set->y_hi);
  free (set->y_lo);
  free (set->z32);
  memset (set, 0, sizeof *set);
}

static int
compare_points (const void *a, const void *b)
{
  const double *p = a, *q = b;
  if (p[0] != q[0])
    return p[0] < q[0] ? -1 : 1;
  if (p[1] != q[1])
    return p[1] < q[1] ? -1 : 1;
  return 0;
}

static double
cross (const double *o, const double *a, const double *b)
{
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

double
shepard_point_set_hull_area (const shepard_point_set *set)
{
  size_t n = set->n;
  if (n < 3)
    return 0.0;
  double (*points)[2] = malloc (n * sizeof *points);
  double (*hull)[2] = malloc ((2 * n + 1) * sizeof *hull);
  if (!points || !hull)
    {
      free (points);
      free (hull);
      return NAN;
    }
  for (size_t i = 0; i < n; i++)
    {
      points[i][0] = set->x[i];
      points[i][1] = set->y[i];
    }
  qsort (points, n, sizeof *points, compare_points);

  /* Andrew's monotone chain. */
  size_t count = 0;
  for (size_t i = 0; i < n; i++)
    {
      while (count >= 2 && cross (hull[count - 2], hull[count - 1], points[i]) <= 0.0)
        count--;
      hull[count][0] = points[i][0];
      hull[count][1] = points[i][1];
      count++;
    }
  for (size_t i = n - 1, lower = count + 1; i-- > 0;)
    {
      while (count >= lower && cross (hull[count - 2], hull[count - 1], points[i]) <= 0.0)
        count--;
      hull[count][0] = points[i][0];
      hull[count][1] = points[i][1];
      count++;
    }

  double twice_area = 0.0;
  for (size_t i = 0; i + 1 < count; i++)
    twice_area += hull[i][0] * hull[i + 1][1] - hull[i + 1][0] * hull[i][1];
  free (points);
  free (hull);
  return fabs (twice_area) * 0.5 / (set->scale * set->scale);
}

double
shepard_point_set_coincident_d2_local (const shepard_point_set *set)
{
  double extent = fmax (set->x_max - set->x_min, set->y_max - set->y_min) * set->scale;
  double coincident = SHEPARD_COINCIDENT_TOLERANCE * (extent > 0.0 ? extent : set->scale);
  return coincident * coincident;
}
