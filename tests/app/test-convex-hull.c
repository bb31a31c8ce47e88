/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The convex hull of the engine's area=hull and of shepard-grid-mpi's layer scan (compute/convex-hull.h, merged by
 * app/mpi/hull-merge.h): known hulls; dropping the points inside
 * the polygon of the extreme points leaves the hull as it was, bit for bit; any grouping of the points (strips merged
 * one by one as a scan reads them, the hulls of parts merged as the ranks merge theirs) gives the same vertices in the
 * same order; and near-degenerate sets get their exact hull, checked in 128-bit integers. */
#include <glib.h>
#include <math.h>
#include <stdint.h>

#include "hull-merge.h"

#define STRIP_POINTS 1000
#define N_PARTS 3

typedef struct {
  GArray *x, *y; /* doubles */
} Points;

static Points
points_new (void)
{
  return (Points) { g_array_new (FALSE, FALSE, sizeof (double)), g_array_new (FALSE, FALSE, sizeof (double)) };
}

static void
points_clear (Points *points)
{
  g_clear_pointer (&points->x, g_array_unref);
  g_clear_pointer (&points->y, g_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Points, points_clear)

static void
points_add (Points *points, double x, double y)
{
  g_array_append_val (points->x, x);
  g_array_append_val (points->y, y);
}

static double
x_at (const Points *points, guint i)
{
  return g_array_index (points->x, double, i);
}

static double
y_at (const Points *points, guint i)
{
  return g_array_index (points->y, double, i);
}

/* n points (x[i], y[i]) as the hull's points, in a new array. */
static shepard_hull_point *
hull_points (const double *x, const double *y, size_t n)
{
  shepard_hull_point *points = g_new (shepard_hull_point, MAX (n, 1));

  for (size_t i = 0; i < n; i++)
    points[i] = (shepard_hull_point) { x[i], y[i] };
  return points;
}

/* Merges n points into hull, all of them. */
static void
merge (Points *hull, const double *x, const double *y, size_t n)
{
  g_autofree shepard_hull_point *points = hull_points (x, y, n);

  shepard_hull_merge (hull->x, hull->y, points, n);
}

/* Adds points [first, first + n) to hull as a scan adds a strip's: those that may be corners, then merged. */
static void
add_strip (Points *hull, const Points *points, guint first, guint n)
{
  g_autofree shepard_hull_point *strip = hull_points (&g_array_index (points->x, double, first),
                                                      &g_array_index (points->y, double, first), n);

  shepard_hull_merge (hull->x, hull->y, strip, shepard_convex_hull_drop_interior (strip, n));
}

/* The hull of every point merged at once, nothing dropped before. */
static Points
hull_unfiltered (const Points *points)
{
  Points hull = points_new ();

  merge (&hull, (const double *) points->x->data, (const double *) points->y->data, points->x->len);
  return hull;
}

/* The hull of the points read in strips of STRIP_POINTS, as a scan reads them. */
static Points
hull_by_strips (const Points *points)
{
  Points hull = points_new ();

  for (guint first = 0; first < points->x->len; first += STRIP_POINTS)
    add_strip (&hull, points, first, MIN (STRIP_POINTS, points->x->len - first));
  return hull;
}

/* The points dealt at random among N_PARTS parts, each part's hull by strips, then the hull of the parts' vertices
 * in the order of the parts, as the ranks merge theirs. */
static Points
hull_by_parts (const Points *points, GRand *random)
{
  g_auto (Points) gathered = points_new ();
  Points parts[N_PARTS];

  for (int p = 0; p < N_PARTS; p++)
    parts[p] = points_new ();
  for (guint i = 0; i < points->x->len; i++)
    points_add (&parts[g_rand_int_range (random, 0, N_PARTS)], x_at (points, i), y_at (points, i));
  for (int p = 0; p < N_PARTS; p++)
    {
      g_auto (Points) part_hull = hull_by_strips (&parts[p]);
      g_array_append_vals (gathered.x, part_hull.x->data, part_hull.x->len);
      g_array_append_vals (gathered.y, part_hull.y->data, part_hull.y->len);
      points_clear (&parts[p]);
    }
  return hull_unfiltered (&gathered);
}

static void
assert_same_hull (const Points *expected, const Points *actual)
{
  g_assert_cmpuint (actual->x->len, ==, expected->x->len);
  g_assert_cmpmem (actual->x->data, actual->x->len * sizeof (double), expected->x->data,
                   expected->x->len * sizeof (double));
  g_assert_cmpmem (actual->y->data, actual->y->len * sizeof (double), expected->y->data,
                   expected->y->len * sizeof (double));
}

static double
gaussian (GRand *random)
{
  return sqrt (-2.0 * log (1.0 - g_rand_double (random))) * cos (2.0 * G_PI * g_rand_double (random));
}

static void
make_uniform (GRand *random, Points *points)
{
  for (int i = 0; i < 20000; i++)
    points_add (points, g_rand_double_range (random, 0, 1e5), g_rand_double_range (random, 0, 1e5));
}

/* Five tight clusters far apart. */
static void
make_clustered (GRand *random, Points *points)
{
  for (int cluster = 0; cluster < 5; cluster++)
    {
      double centre_x = g_rand_double_range (random, 0, 1e5), centre_y = g_rand_double_range (random, 0, 1e5);
      for (int i = 0; i < 3000; i++)
        points_add (points, centre_x + 50.0 * gaussian (random), centre_y + 50.0 * gaussian (random));
    }
}

/* Points on one line whose y is rounded (so some lie a hair off it) and on one exactly, each point several times. */
static void
make_collinear_duplicates (GRand *random, Points *points)
{
  for (int i = 0; i < 3000; i++)
    {
      double x = g_rand_double_range (random, 0, 1e4);
      for (int copy = 0; copy < 3; copy++)
        points_add (points, x, 0.1 * x + 3.0);
    }
  for (int i = 0; i < 3000; i++)
    {
      double x = g_rand_int_range (random, -500, 500);
      points_add (points, x, 2.0 * x);
      points_add (points, x, 2.0 * x);
    }
}

/* Points rounded onto a small circle far from the origin, in random order: the rounding is about as large as the
 * circle's bulge between neighbours, so that most turns are near-degenerate and some points fall a hair inside. */
static void
make_circle (GRand *random, Points *points)
{
  for (int i = 0; i < 20000; i++)
    {
      double angle = g_rand_double_range (random, 0, 2.0 * G_PI);
      points_add (points, 5e4 + 1e-3 * cos (angle), 5e4 + 1e-3 * sin (angle));
    }
}

/* A lattice, shuffled: many points on the edges of its hull, none of them a corner. */
static void
make_lattice (GRand *random, Points *points)
{
  g_auto (Points) ordered = points_new ();

  for (int i = 0; i < 100; i++)
    for (int j = 0; j < 100; j++)
      points_add (&ordered, i, j);
  for (guint left = ordered.x->len; left > 0; left--)
    {
      guint pick = (guint) g_rand_int_range (random, 0, (gint32) left);
      points_add (points, x_at (&ordered, pick), y_at (&ordered, pick));
      g_array_remove_index_fast (ordered.x, pick);
      g_array_remove_index_fast (ordered.y, pick);
    }
}

/* Shewchuk's example: a grid of points a unit in the last place apart near (0.5, 0.5) and two points far along the
 * diagonal through it, so that turns computed in doubles take the wrong side. */
static void
make_near_degenerate (GRand *random, Points *points)
{
  for (int i = 0; i < 64; i++)
    for (int j = 0; j < 64; j++)
      points_add (points, 0.5 + ldexp (i, -53), 0.5 + ldexp (j, -53));
  points_add (points, 12.0, 12.0);
  points_add (points, 24.0, 24.0);
  for (guint i = points->x->len - 1; i > 0; i--)
    {
      guint j = (guint) g_rand_int_range (random, 0, (gint32) i + 1);
      double x = x_at (points, i), y = y_at (points, i);
      g_array_index (points->x, double, i) = x_at (points, j);
      g_array_index (points->y, double, i) = y_at (points, j);
      g_array_index (points->x, double, j) = x;
      g_array_index (points->y, double, j) = y;
    }
}

typedef struct {
  const char *name;
  void (*make) (GRand *random, Points *points);
} PointSet;

static const PointSet point_sets[] = {
  { "uniform", make_uniform },
  { "clustered", make_clustered },
  { "collinear-duplicates", make_collinear_duplicates },
  { "circle", make_circle },
  { "lattice", make_lattice },
  { "near-degenerate", make_near_degenerate },
};

static void
test_known (void)
{
  const double x[] = { 0.5, 1, 0, 0.25, 1, 0, 0.5, 1 }, y[] = { 0.5, 0, 0, 0.75, 1, 1, 0, 0.5 };
  const double square_x[] = { 0, 1, 1, 0 }, square_y[] = { 0, 0, 1, 1 };
  g_auto (Points) square = points_new ();
  g_auto (Points) hull = points_new ();

  g_array_append_vals (square.x, square_x, G_N_ELEMENTS (square_x));
  g_array_append_vals (square.y, square_y, G_N_ELEMENTS (square_y));
  merge (&hull, x, y, G_N_ELEMENTS (x));
  assert_same_hull (&square, &hull);
  g_autofree shepard_hull_point *corners = hull_points ((const double *) hull.x->data, (const double *) hull.y->data,
                                                       hull.x->len);
  g_assert_cmpfloat (shepard_convex_hull_area (corners, hull.x->len), ==, 1.0);

  /* Merging nothing more keeps it. */
  merge (&hull, NULL, NULL, 0);
  assert_same_hull (&square, &hull);
}

static void
test_degenerate (void)
{
  const double one[] = { 3 }, line_x[] = { 2, 0, 1, 4, 3 }, line_y[] = { 4, 0, 2, 8, 6 };
  g_auto (Points) hull = points_new ();

  merge (&hull, NULL, NULL, 0);
  g_assert_cmpuint (hull.x->len, ==, 0);

  merge (&hull, one, one, 1);
  g_assert_cmpuint (hull.x->len, ==, 1);
  merge (&hull, one, one, 1);
  g_assert_cmpuint (hull.x->len, ==, 2);
  g_assert_cmpfloat (x_at (&hull, 0), ==, 3);
  g_assert_cmpfloat (x_at (&hull, 1), ==, 3);

  g_array_set_size (hull.x, 0);
  g_array_set_size (hull.y, 0);
  merge (&hull, line_x, line_y, G_N_ELEMENTS (line_x));
  g_assert_cmpuint (hull.x->len, ==, 2);
  g_assert_cmpfloat (x_at (&hull, 0), ==, 0);
  g_assert_cmpfloat (y_at (&hull, 0), ==, 0);
  g_assert_cmpfloat (x_at (&hull, 1), ==, 4);
  g_assert_cmpfloat (y_at (&hull, 1), ==, 8);
}

/* The set's points (drawn from seed) into points; returns their hull, found without the filter. */
static Points
make_set (const PointSet *set, guint32 seed, Points *points)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (seed);

  set->make (random, points);
  return hull_unfiltered (points);
}

/* Dropping the interior keeps the hull bit for bit, and drops most points where most lie inside. */
static void
test_drop_interior (gconstpointer data)
{
  const PointSet *set = data;
  g_auto (Points) points = points_new ();
  g_auto (Points) expected = make_set (set, 20261127, &points);
  g_auto (Points) filtered = points_new ();
  add_strip (&filtered, &points, 0, points.x->len);
  assert_same_hull (&expected, &filtered);

  g_autofree shepard_hull_point *all = hull_points ((const double *) points.x->data, (const double *) points.y->data,
                                                   points.x->len);
  size_t kept = shepard_convex_hull_drop_interior (all, points.x->len);
  g_test_message ("%s: %zu of %u points kept, %u corners", set->name, kept, points.x->len, expected.x->len);
  if (g_str_equal (set->name, "uniform") || g_str_equal (set->name, "clustered"))
    g_assert_cmpuint (kept, <, points.x->len / 10);
}

/* Strips merged one by one, and the parts' hulls merged, give the hull of every point at once. */
static void
test_grouping (gconstpointer data)
{
  const PointSet *set = data;
  g_auto (Points) points = points_new ();
  g_auto (Points) expected = make_set (set, 20261128, &points);
  g_auto (Points) by_strips = hull_by_strips (&points);
  g_autoptr (GRand) dealer = g_rand_new_with_seed (20261129);

  assert_same_hull (&expected, &by_strips);
  for (int deal = 0; deal < 5; deal++)
    {
      g_auto (Points) by_parts = hull_by_parts (&points, dealer);
      assert_same_hull (&expected, &by_parts);
    }
}

/* A coordinate of the near-degenerate set in units of 2^-53, exactly. */
static int64_t
in_units (double value)
{
  return (int64_t) ldexp (value, 53);
}

/* The turn a -> b -> c (positive counter-clockwise) of the near-degenerate set, exactly. */
static __int128
exact_turn (const Points *points, guint a, const Points *hull, guint b, guint c)
{
  __int128 ax = in_units (x_at (points, a)), ay = in_units (y_at (points, a));
  __int128 bx = in_units (x_at (hull, b)), by = in_units (y_at (hull, b));
  __int128 cx = in_units (x_at (hull, c)), cy = in_units (y_at (hull, c));

  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* Every point on or inside each edge, and each corner a strict turn: the exact hull, of the points' own corners. */
static void
test_exact (void)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (20261129);
  g_auto (Points) points = points_new ();

  make_near_degenerate (random, &points);
  g_auto (Points) hull = hull_by_strips (&points);
  guint corners = hull.x->len;
  g_assert_cmpuint (corners, >=, 3);
  for (guint c = 0; c < corners; c++)
    {
      guint next = (c + 1) % corners, after = (c + 2) % corners;
      g_assert_true (exact_turn (&hull, c, &hull, next, after) > 0);
      for (guint i = 0; i < points.x->len; i++)
        g_assert_true (exact_turn (&points, i, &hull, c, next) >= 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/convex-hull/known", test_known);
  g_test_add_func ("/app/convex-hull/degenerate", test_degenerate);
  for (size_t s = 0; s < G_N_ELEMENTS (point_sets); s++)
    {
      g_autofree char *drop_path = g_strdup_printf ("/app/convex-hull/drop-interior/%s", point_sets[s].name);
      g_autofree char *grouping_path = g_strdup_printf ("/app/convex-hull/grouping/%s", point_sets[s].name);
      g_test_add_data_func (drop_path, &point_sets[s], test_drop_interior);
      g_test_add_data_func (grouping_path, &point_sets[s], test_grouping);
    }
  g_test_add_func ("/app/convex-hull/exact", test_exact);
  return g_test_run ();
}
