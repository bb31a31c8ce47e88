/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard_engine_nearest against brute force (all distances, sorted) on the layouts that break grid searches; the
 * search grid of part of a large layer, which holds only the cells its points occupy. */
#include <float.h>
#include <glib.h>
#include <math.h>

#include "engine-test-support.h"
#include "even-grid.h"
#include "reference-interpolation.h"
#include "seeded-random.h"

typedef struct {
  point_layout layout;
  size_t count;
  uint64_t seed;
} nearest_case;

static const nearest_case nearest_cases[] = {
  { POINT_LAYOUT_UNIFORM, 1, 101 },
  { POINT_LAYOUT_UNIFORM, 2, 102 },
  { POINT_LAYOUT_UNIFORM, 15, 103 },
  { POINT_LAYOUT_UNIFORM, 16, 104 },
  { POINT_LAYOUT_UNIFORM, 17, 105 },
  { POINT_LAYOUT_UNIFORM, 1000, 106 },
  { POINT_LAYOUT_UNIFORM, 4097, 107 },
  { POINT_LAYOUT_UNIFORM, 12345, 108 },
  { POINT_LAYOUT_CLUSTERS, 3001, 109 },
  { POINT_LAYOUT_CLUSTERS, 12345, 110 },
  { POINT_LAYOUT_DUPLICATES, 1501, 111 },
  { POINT_LAYOUT_UTM, 1234, 112 },
  { POINT_LAYOUT_UTM, 12345, 113 },
  { POINT_LAYOUT_CLUSTER_OUTLIERS, 2999, 114 },
};

static const int k_values[] = { 1, 2, 8, 15, 16, 33, SHEPARD_MAX_NEIGHBORS };

enum {
  QUERIES_INSIDE = 150,
  QUERIES_FAR_OUTSIDE = 20,
  QUERIES_AT_POINTS = 30,
  QUERY_COUNT = QUERIES_INSIDE + QUERIES_FAR_OUTSIDE + QUERIES_AT_POINTS,
};

/* The engine measures in coordinates shifted to the data centre: each shifted coordinate is rounded by up to half an
 * ulp of the extent, which moves a squared distance d^2 by up to about 2 d (2 eps extent). On top, 1e-12 relative
 * for the order of operations. Both are far below the gap between distinct neighbours in these layouts. */
static double
squared_distance_tolerance (double squared_distance, double extent)
{
  /* The GPU measures in float32 (each coordinate as hi + lo): a few float ulps of the squared distance. */
  if (test_backend () == SHEPARD_BACKEND_CUDA)
    return 2e-6 * squared_distance + 4.0 * FLT_EPSILON * FLT_EPSILON * extent * extent;
  return 1e-12 * squared_distance + 4.0 * DBL_EPSILON * extent * sqrt (squared_distance);
}

static void
make_queries (const point_set *points, const reference_data *reference, uint64_t seed, double *query_x,
              double *query_y)
{
  seeded_random random;
  seeded_random_init (&random, seed);
  double width = reference->x_max - reference->x_min;
  double height = reference->y_max - reference->y_min;
  double extent = fmax (fmax (width, height), 1.0);
  size_t q = 0;
  for (size_t i = 0; i < QUERIES_INSIDE; i++, q++)
    {
      query_x[q] = seeded_random_range (&random, reference->x_min, reference->x_max);
      query_y[q] = seeded_random_range (&random, reference->y_min, reference->y_max);
    }
  /* 30 to 100 extents away in every direction: the search has to walk far beyond the grid. */
  for (size_t i = 0; i < QUERIES_FAR_OUTSIDE; i++, q++)
    {
      double angle = 2.0 * G_PI * (double) i / QUERIES_FAR_OUTSIDE;
      double distance = extent * seeded_random_range (&random, 30.0, 100.0);
      query_x[q] = reference->x_min + distance * cos (angle);
      query_y[q] = reference->y_min + distance * sin (angle);
    }
  for (size_t i = 0; i < QUERIES_AT_POINTS; i++, q++)
    {
      size_t point = seeded_random_below (&random, (uint32_t) points->count);
      query_x[q] = points->x[point];
      query_y[q] = points->y[point];
    }
}

typedef struct {
  double worst_relative; /* of the sorted distances against brute force, in units of their tolerance */
  size_t rows;
} nearest_check;

static void
check_nearest_row (const reference_data *reference, double extent, double query_x, double query_y, int k,
                   const double *engine_distances, const size_t *engine_indices, const double *brute_distances,
                   size_t brute_filled, nearest_check *check)
{
  /* A query far outside the data is shifted too, and rounded on the scale of its own offset. */
  double centre_x = 0.5 * (reference->x_min + reference->x_max);
  double centre_y = 0.5 * (reference->y_min + reference->y_max);
  double span = fmax (extent, 2.0 * fmax (fabs (query_x - centre_x), fabs (query_y - centre_y)));
  size_t real = (size_t) k < reference->count ? (size_t) k : reference->count;
  g_assert_cmpuint (real, <=, brute_filled);
  for (size_t j = 0; j < real; j++)
    {
      double tolerance = squared_distance_tolerance (brute_distances[j], span);
      double deviation = fabs (engine_distances[j] - brute_distances[j]);
      if (!(deviation <= tolerance))
        g_test_message ("query (%.17g, %.17g), k %d, rank %zu: engine %.17g, brute force %.17g", query_x, query_y, k,
                        j, engine_distances[j], brute_distances[j]);
      g_assert_cmpfloat (deviation, <=, tolerance);
      if (tolerance > 0.0)
        check->worst_relative = fmax (check->worst_relative, deviation / tolerance);
      if (j > 0)
        g_assert_cmpfloat (engine_distances[j], >=, engine_distances[j - 1]);
      if (engine_indices == NULL)
        continue;

      /* Where distances tie any of the tied points may come first; what must hold is that the engine names distinct
       * points whose own distances are the ones it reports. With the sorted distances equal to brute force, that
       * makes the set of indices equal wherever the distances are not tied. */
      size_t index = engine_indices[j];
      g_assert_cmpuint (index, <, reference->count);
      double dx = reference->x[index] - query_x;
      double dy = reference->y[index] - query_y;
      double own_distance = dx * dx + dy * dy;
      g_assert_cmpfloat (fabs (own_distance - engine_distances[j]), <=,
                         squared_distance_tolerance (own_distance, span));
      for (size_t previous = 0; previous < j; previous++)
        g_assert_cmpuint (engine_indices[previous], !=, index);
    }
  for (size_t j = real; j < (size_t) k; j++)
    g_assert_cmpfloat (engine_distances[j], ==, INFINITY);
  check->rows++;
}

static void
run_nearest_case (const nearest_case *test_case, shepard_precision precision)
{
  g_test_message ("%s, %zu points, seed %" G_GUINT64_FORMAT ", %s engine", point_layout_name (test_case->layout),
                  test_case->count, (guint64) test_case->seed, precision_name (precision));
  point_set *points = point_set_new (test_case->layout, test_case->count, test_case->seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double extent = fmax (reference.x_max - reference.x_min, reference.y_max - reference.y_min);

  g_autofree double *query_x = g_new (double, QUERY_COUNT);
  g_autofree double *query_y = g_new (double, QUERY_COUNT);
  make_queries (points, &reference, test_case->seed + 1, query_x, query_y);

  const size_t widest = SHEPARD_MAX_NEIGHBORS;
  g_autofree double *brute_distances = g_new (double, QUERY_COUNT * widest);
  g_autofree size_t *brute_indices = g_new (size_t, QUERY_COUNT * widest);
  size_t brute_filled = 0;
  for (size_t q = 0; q < QUERY_COUNT; q++)
    brute_filled = reference_nearest (&reference, query_x[q], query_y[q], widest, brute_distances + q * widest,
                                      brute_indices + q * widest);

  shepard_engine *engine = engine_new_with_points (precision, 0, points);
  g_autofree double *engine_distances = g_new (double, QUERY_COUNT * widest);
  g_autofree size_t *engine_indices = g_new (size_t, QUERY_COUNT * widest);
  nearest_check check = { 0 };
  for (size_t i = 0; i < G_N_ELEMENTS (k_values); i++)
    {
      int k = k_values[i];
      shepard_error error = { 0 };
      /* Without indices the engine still owes the distances. */
      size_t *indices = i == 1 ? NULL : engine_indices;
      assert_engine_status (shepard_engine_nearest (engine, query_x, query_y, QUERY_COUNT, k, engine_distances,
                                                    indices, &error),
                            &error, SHEPARD_OK);
      for (size_t q = 0; q < QUERY_COUNT; q++)
        check_nearest_row (&reference, extent, query_x[q], query_y[q], k, engine_distances + q * (size_t) k,
                           indices == NULL ? NULL : indices + q * (size_t) k, brute_distances + q * widest,
                           brute_filled, &check);
    }
  g_test_message ("%zu rows checked, worst deviation %.3g of its tolerance", check.rows, check.worst_relative);
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_nearest (gconstpointer data)
{
  run_nearest_case (data, SHEPARD_PRECISION_FLOAT64);
  run_nearest_case (data, SHEPARD_PRECISION_FLOAT32);
}

/* Many points on exactly the same spot: each copy is a neighbour of its own, all at distance 0. */
static void
test_nearest_stacked_duplicates (void)
{
  point_set *points = point_set_new_empty (40);
  for (size_t i = 0; i < points->count; i++)
    {
      gboolean stacked = i % 2 == 0;
      points->x[i] = stacked ? 12.5 : 12.5 + (double) i;
      points->y[i] = stacked ? -3.25 : -3.25 - 0.5 * (double) i;
      points->z[i] = (double) i;
    }
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  const double query_x = 12.5, query_y = -3.25;
  double distances[25];
  size_t indices[25];
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_nearest (engine, &query_x, &query_y, 1, 25, distances, indices, &error),
                        &error, SHEPARD_OK);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);
  for (size_t j = 0; j < 20; j++)
    {
      g_assert_cmpfloat (distances[j], ==, 0.0);
      g_assert_cmpuint (indices[j] % 2, ==, 0);
      g_assert_true (g_hash_table_add (seen, GSIZE_TO_POINTER (indices[j])));
    }
  /* Next comes point 1, at (13.5, -3.75). */
  g_assert_cmpfloat_with_epsilon (distances[20], 1.25, 1e-12);
  g_assert_cmpuint (indices[20], ==, 1);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* 400 points in a square of 100 m, part of a layer of 10M points over 1000 km: the grid takes the layer's lattice (3.3M
 * cells of 548 m) but holds only the window its points occupy, and its searches still find, against brute force, the
 * 16 nearest (ties by index) and the sum within a radius, for queries among the points, around them and far away. */
static void
test_nearest_part_of_large_layer (void)
{
  enum { N = 400, K = 16, LAYOUT = 10000000 };
  const double box[4] = { 0.0, 0.0, 1e6, 1e6 };
  double x[N], y[N], z[N];
  seeded_random random;
  seeded_random_init (&random, 41);
  for (size_t i = 0; i < N; i++)
    {
      x[i] = seeded_random_range (&random, 1000.0, 1100.0);
      y[i] = seeded_random_range (&random, 2000.0, 2100.0);
      z[i] = seeded_random_range (&random, -5.0, 5.0);
    }
  double cell_size;
  size_t layout_nx, layout_ny;
  shepard_even_grid_geometry (box[0], box[1], box[2], box[3], LAYOUT, &cell_size, &layout_nx, &layout_ny);
  g_assert_cmpuint (layout_nx * layout_ny, >, 3000000);
  shepard_even_grid grid;
  shepard_error error = { 0 };
  assert_engine_status (shepard_even_grid_build_in (&grid, x, y, N, box, LAYOUT, &error), &error, SHEPARD_OK);
  g_assert_cmpfloat (grid.cell_size, ==, cell_size);
  g_assert_cmpuint (grid.nx * grid.ny, <=, 4);

  for (int q = 0; q < 60; q++)
    {
      double qx = q < 40 ? seeded_random_range (&random, 950.0, 1150.0) : seeded_random_range (&random, 0.0, 1e6);
      double qy = q < 40 ? seeded_random_range (&random, 1950.0, 2150.0) : seeded_random_range (&random, 0.0, 1e6);
      double all_d2[N], d2[K];
      size_t order[N], index[K];
      for (size_t i = 0; i < N; i++)
        {
          all_d2[i] = (x[i] - qx) * (x[i] - qx) + (y[i] - qy) * (y[i] - qy);
          order[i] = i;
        }
      /* Insertion sort by distance, then index. */
      for (size_t i = 1; i < N; i++)
        for (size_t j = i; j > 0 && (all_d2[order[j]] < all_d2[order[j - 1]]
                                     || (all_d2[order[j]] == all_d2[order[j - 1]] && order[j] < order[j - 1]));
             j--)
          {
            size_t swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
          }
      g_assert_cmpuint (shepard_even_grid_nearest (&grid, qx, qy, K, d2, index), ==, K);
      for (size_t j = 0; j < K; j++)
        {
          g_assert_cmpuint (index[j], ==, order[j]);
          g_assert_cmpfloat_with_epsilon (d2[j], all_d2[order[j]], 1e-12 * all_d2[order[j]] + 1e-9);
        }
      double r2 = all_d2[order[K]] * 1.0000001, expected = 0.0;
      size_t expected_count = 0, count = 0;
      for (size_t i = 0; i < N; i++)
        if (all_d2[i] <= r2)
          expected += z[i], expected_count++;
      double sum = shepard_even_grid_sum_within (&grid, z, qx, qy, r2, &count);
      g_assert_cmpuint (count, ==, expected_count);
      g_assert_cmpfloat_with_epsilon (sum, expected, 1e-12 * (double) N * 5.0);
    }
  shepard_even_grid_clear (&grid);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (nearest_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/nearest/%s-%zu", point_layout_name (nearest_cases[i].layout),
                                               nearest_cases[i].count);
      g_test_add_data_func (path, &nearest_cases[i], test_nearest);
    }
  g_test_add_func ("/compute/nearest/stacked-duplicates", test_nearest_stacked_duplicates);
  g_test_add_func ("/compute/nearest/part-of-large-layer", test_nearest_part_of_large_layer);
  return g_test_run ();
}
