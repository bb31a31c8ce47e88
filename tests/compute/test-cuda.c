/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend against the engine's float64 CPU path (itself checked against the independent reference in
 * test-interpolation): every kernel variant, point counts that are not multiples of any block size, clusters,
 * duplicates, UTM-scale offsets, grids of 1 x 1 and 1 x 4096, raster and point-list queries, cross-validation
 * (leave-one-out and k-fold) and its cancel. Without a CUDA device every case is skipped, saying why. */
#include <glib.h>
#include <math.h>

#include "cuda-backend.h"
#include "engine-test-support.h"
#include "point-layouts.h"

/* float32 arithmetic with float64 sums of float32 tiles: 1e-5 of the field's scale (issue 3). */
#define VALUE_TOLERANCE 1e-5

typedef struct {
  const char *name;
  shepard_method method;
  double power;
  int neighbors;
} method_case;

static const method_case methods[] = {
  { "idw-p2", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL },
  { "idw-p3", SHEPARD_METHOD_IDW, 3.0, SHEPARD_NEIGHBORS_ALL },
  { "aidw", SHEPARD_METHOD_AIDW, 0.0, SHEPARD_NEIGHBORS_ALL },
  { "idw-p2-8-nearest", SHEPARD_METHOD_IDW, 2.0, 8 },
  { "aidw-15-nearest", SHEPARD_METHOD_AIDW, 0.0, 15 },
};

static const shepard_cuda_variant variants[] = {
  { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_GRID },
  { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_SOA, SHEPARD_CUDA_KNN_GRID },
  { SHEPARD_CUDA_WEIGHTING_NAIVE, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_GRID },
  { SHEPARD_CUDA_WEIGHTING_NAIVE, SHEPARD_CUDA_LAYOUT_SOA, SHEPARD_CUDA_KNN_BRUTE },
};

static void
params_for (const method_case *method, size_t n_points, shepard_params *params)
{
  if (method->method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (params);
  else
    shepard_params_init_idw (params);
  params->power = method->method == SHEPARD_METHOD_IDW ? method->power : params->power;
  params->neighbors = method->neighbors;
  /* One or two points span no area: give AIDW one so that it runs. */
  if (n_points < 3)
    {
      params->area_mode = SHEPARD_AREA_GIVEN;
      params->area = 1e5;
    }
  /* Rmax above the typical R of random points, so that alpha varies instead of sitting at alpha5. */
  params->r_max = 4.0;
}

typedef struct {
  point_layout layout;
  size_t count;
  size_t width, height;
} grid_case;

static const grid_case grid_cases[] = {
  { POINT_LAYOUT_UNIFORM, 1, 17, 13 },      { POINT_LAYOUT_UNIFORM, 2, 16, 16 },
  { POINT_LAYOUT_UNIFORM, 15, 37, 53 },     { POINT_LAYOUT_UNIFORM, 16, 1, 1 },
  { POINT_LAYOUT_UNIFORM, 17, 4096, 1 },    { POINT_LAYOUT_CLUSTERS, 1000, 1, 4096 },
  { POINT_LAYOUT_DUPLICATES, 1000, 64, 48 },{ POINT_LAYOUT_UTM, 4097, 61, 67 },
  { POINT_LAYOUT_CLUSTER_OUTLIERS, 4097, 50, 50 }, { POINT_LAYOUT_UNIFORM, 100003, 97, 89 },
  /* Large enough for 8 queries per thread and the polynomial 2^y, with a partly filled last tile of points. */
  { POINT_LAYOUT_CLUSTERS, 1001, 1024, 600 },
};

/* The reference: the CPU engine in float64 on the same grid or points. */
static void
cpu_reference (const point_set *points, const shepard_params *params, const shepard_grid *grid, const double *qx,
               const double *qy, size_t n_queries, double *values, double *alpha, double *r_obs)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  shepard_outputs outputs = { values, alpha, r_obs };
  if (grid)
    assert_engine_status (shepard_engine_interpolate_grid (engine, params, grid, &outputs, NULL, NULL, &error), &error,
                          SHEPARD_OK);
  else
    assert_engine_status (shepard_engine_interpolate_points (engine, params, qx, qy, n_queries, &outputs, NULL, NULL,
                                                             &error),
                          &error, SHEPARD_OK);
  shepard_engine_free (engine);
}

static double
r_exp_of (const shepard_point_set *set, const shepard_params *params)
{
  double area = params->area_mode == SHEPARD_AREA_GIVEN ? params->area
                                                         : (set->x_max - set->x_min) * (set->y_max - set->y_min);
  return shepard_aidw_expected_distance (set->n, area);
}

/* skip[i] marks queries whose N-th and (N+1)-th nearest points are tied within float32 precision: which of them
 * the float32 search keeps is a coin toss there, and the N-nearest value differs accordingly. */
static void
compare (const char *what, const double *actual, const double *expected, const gboolean *skip, size_t count,
         double scale)
{
  deviation_tally tally;
  deviation_tally_init (&tally, what, VALUE_TOLERANCE);
  size_t skipped = 0;
  for (size_t i = 0; i < count; i++)
    if (skip && skip[i])
      skipped++;
    else
      deviation_tally_add (&tally, i, actual[i], expected[i], scale);
  if (skipped > 0)
    g_test_message ("%zu queries left out: their N-th and (N+1)-th nearest points are tied", skipped);
  deviation_tally_check (&tally);
}

static gboolean *
tied_neighbourhoods (const point_set *points, const shepard_grid *grid, int neighbors)
{
  size_t cells = grid->width * grid->height;
  gboolean *tied = g_new0 (gboolean, cells);
  if (neighbors == SHEPARD_NEIGHBORS_ALL || (size_t) neighbors >= points->count)
    return tied;
  g_autofree double *qx = g_new (double, cells), *qy = g_new (double, cells);
  for (size_t i = 0; i < cells; i++)
    {
      qx[i] = grid->x_min + ((double) (i % grid->width) + 0.5) * grid->dx;
      qy[i] = grid->y_max - ((double) (i / grid->width) + 0.5) * grid->dy;
    }
  size_t k = (size_t) neighbors + 1;
  g_autofree double *d2 = g_new (double, cells * k);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_nearest (engine, qx, qy, cells, (int) k, d2, NULL, &error), &error,
                        SHEPARD_OK);
  for (size_t i = 0; i < cells; i++)
    tied[i] = d2[i * k + k - 1] - d2[i * k + k - 2] <= 1e-6 * d2[i * k + k - 1];
  shepard_engine_free (engine);
  return tied;
}

static void
test_grid (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const grid_case *test_case = data;
  /* Under compute-sanitizer the largest cases take minutes: SHEPARD_TEST_CUDA_MAX_POINTS leaves them out, saying so. */
  const char *max_points = g_getenv ("SHEPARD_TEST_CUDA_MAX_POINTS");
  if (max_points && (test_case->count > g_ascii_strtoull (max_points, NULL, 10)
                     || test_case->width * test_case->height > 100000))
    {
      g_test_skip ("more points than SHEPARD_TEST_CUDA_MAX_POINTS, or more than 100000 cells");
      return;
    }
  point_set *points = point_set_new (test_case->layout, test_case->count, 7000 + test_case->count);
  shepard_error error = { 0 };
  shepard_point_set set;
  const double *const fields[] = { points->z };
  assert_engine_status (shepard_point_set_init (&set, points->x, points->y, fields, 1, points->count, &error), &error,
                        SHEPARD_OK);
  shepard_cuda_backend *backend = NULL;
  assert_engine_status (shepard_cuda_backend_new (0, &backend, &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_cuda_backend_set_points (backend, &set, &error), &error, SHEPARD_OK);

  /* The raster reaches a little beyond the points on every side. */
  double width = fmax (set.x_max - set.x_min, 1.0), height = fmax (set.y_max - set.y_min, 1.0);
  shepard_grid grid = {
    .x_min = set.x_min - 0.05 * width, .y_max = set.y_max + 0.05 * height,
    .dx = 1.1 * width / (double) test_case->width, .dy = 1.1 * height / (double) test_case->height,
    .width = test_case->width, .height = test_case->height,
  };
  size_t cells = grid.width * grid.height;
  g_autofree double *expected = g_new (double, cells), *expected_alpha = g_new (double, cells);
  g_autofree double *expected_r_obs = g_new (double, cells);
  g_autofree double *actual = g_new (double, cells), *actual_alpha = g_new (double, cells);
  g_autofree double *actual_r_obs = g_new (double, cells);
  double scale = point_set_value_scale (points);
  shepard_query_set queries = { .grid = &grid, .count = cells };

  for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      shepard_params params;
      params_for (&methods[m], points->count, &params);
      cpu_reference (points, &params, &grid, NULL, NULL, 0, expected, expected_alpha, expected_r_obs);
      g_autofree gboolean *tied = tied_neighbourhoods (points, &grid, params.neighbors);
      for (size_t v = 0; v < G_N_ELEMENTS (variants); v++)
        {
          if (variants[v].knn == SHEPARD_CUDA_KNN_BRUTE && points->count > 5000)
            continue;
          g_test_message ("%s, %zu points, %zu x %zu grid, %s, variant %zu", point_layout_name (test_case->layout),
                          points->count, grid.width, grid.height, methods[m].name, v);
          for (size_t i = 0; i < cells; i++)
            actual[i] = actual_alpha[i] = actual_r_obs[i] = NAN;
          shepard_cuda_backend_set_variant (backend, &variants[v]);
          shepard_outputs outputs = { actual, actual_alpha, actual_r_obs };
          assert_engine_status (shepard_cuda_interpolate (backend, &set, &params, r_exp_of (&set, &params), &queries,
                                                          &outputs, NULL, NULL, &error),
                                &error, SHEPARD_OK);
          compare ("values", actual, expected, tied, cells, scale);
          if (params.method == SHEPARD_METHOD_AIDW)
            {
              compare ("alpha", actual_alpha, expected_alpha, NULL, cells, params.alpha[4]);
              double r_scale = 0.0;
              for (size_t i = 0; i < cells; i++)
                r_scale = fmax (r_scale, expected_r_obs[i]);
              compare ("r_obs", actual_r_obs, expected_r_obs, NULL, cells, r_scale);
            }
        }
    }
  shepard_cuda_backend_free (backend);
  shepard_point_set_clear (&set);
  point_set_free (points);
}

/* Point-list queries (cross-validation's kind): at the data points themselves, where the surface must be exact, and
 * at random places in and around the extent. */
static void
test_point_queries (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_DUPLICATES, 3001, 91);
  size_t n_queries = 2 * points->count;
  g_autofree double *qx = g_new (double, n_queries), *qy = g_new (double, n_queries);
  GRand *random = g_rand_new_with_seed (92);
  for (size_t i = 0; i < points->count; i++)
    {
      qx[i] = points->x[i];
      qy[i] = points->y[i];
      qx[points->count + i] = g_rand_double_range (random, -100.0, 1100.0);
      qy[points->count + i] = g_rand_double_range (random, -100.0, 800.0);
    }
  g_rand_free (random);
  g_autofree double *expected = g_new (double, n_queries), *actual = g_new (double, n_queries);
  double scale = point_set_value_scale (points);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      shepard_params params;
      params_for (&methods[m], points->count, &params);
      g_test_message ("point queries, %s", methods[m].name);
      cpu_reference (points, &params, NULL, qx, qy, n_queries, expected, NULL, NULL);
      shepard_outputs outputs = { actual, NULL, NULL };
      assert_engine_status (shepard_engine_interpolate_points (engine, &params, qx, qy, n_queries, &outputs, NULL,
                                                               NULL, &error),
                            &error, SHEPARD_OK);
      compare ("values", actual, expected, NULL, n_queries, scale);
    }
  shepard_engine_free (engine);
  point_set_free (points);
}

/* kNN through the engine's API: the same distances as the CPU's exact search, to float precision. */
static void
test_nearest (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, 100003, 93);
  enum { QUERIES = 5000, K = 15 };
  g_autofree double *qx = g_new (double, QUERIES), *qy = g_new (double, QUERIES);
  GRand *random = g_rand_new_with_seed (94);
  for (size_t i = 0; i < QUERIES; i++)
    {
      qx[i] = g_rand_double_range (random, -100.0, 1100.0);
      qy[i] = g_rand_double_range (random, -100.0, 800.0);
    }
  g_rand_free (random);
  g_autofree double *cpu_d2 = g_new (double, QUERIES * K), *gpu_d2 = g_new (double, QUERIES * K);
  g_autofree size_t *gpu_index = g_new (size_t, QUERIES * K);
  shepard_error error = { 0 };
  shepard_engine *cpu = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  shepard_engine *gpu = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
  g_assert_nonnull (cpu);
  g_assert_nonnull (gpu);
  assert_engine_status (shepard_engine_set_points (cpu, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_set_points (gpu, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_nearest (cpu, qx, qy, QUERIES, K, cpu_d2, NULL, &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_nearest (gpu, qx, qy, QUERIES, K, gpu_d2, gpu_index, &error), &error,
                        SHEPARD_OK);
  double worst = 0.0;
  for (size_t e = 0; e < (size_t) QUERIES * K; e++)
    {
      /* float32 squared distances from hi + lo coordinates: a few ulps, relative */
      double deviation = fabs (gpu_d2[e] - cpu_d2[e]) / fmax (cpu_d2[e], 1e-12);
      worst = fmax (worst, deviation);
      g_assert_cmpfloat (deviation, <=, 2e-6);
      size_t i = gpu_index[e], q = e / K;
      double dx = points->x[i] - qx[q], dy = points->y[i] - qy[q];
      g_assert_cmpfloat (fabs (dx * dx + dy * dy - gpu_d2[e]) / fmax (gpu_d2[e], 1e-12), <=, 2e-6);
    }
  g_test_message ("worst relative deviation of the squared distances: %.3g", worst);
  shepard_engine_free (cpu);
  shepard_engine_free (gpu);
  point_set_free (points);
}

/* Cross-validation on the GPU against the CPU engine's float64 cross-validation: leave-one-out and k-fold, the N
 * nearest and all points, at sizes that split the points over blocks and launches. */
typedef struct {
  const char *name;
  point_layout layout;
  size_t count;
  shepard_method method;
  int neighbors;
  size_t folds;
} cv_case;

static const cv_case cv_cases[] = {
  { "loo-aidw-15-nearest-200k", POINT_LAYOUT_UNIFORM, 200000, SHEPARD_METHOD_AIDW, 15, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-aidw-all-30k", POINT_LAYOUT_CLUSTERS, 30000, SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL,
    SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-idw-p2-all-30k", POINT_LAYOUT_UTM, 30000, SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL,
    SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "10-fold-aidw-15-nearest-100k", POINT_LAYOUT_UNIFORM, 100000, SHEPARD_METHOD_AIDW, 15, 10 },
  { "10-fold-aidw-all-20k", POINT_LAYOUT_CLUSTERS, 20000, SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, 10 },
  /* Small enough for compute-sanitizer: duplicates (the coincident rule), the fold tests of both stages. */
  { "loo-aidw-all-duplicates-3k", POINT_LAYOUT_DUPLICATES, 3001, SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL,
    SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "7-fold-idw-p3-12-nearest-duplicates-3k", POINT_LAYOUT_DUPLICATES, 3001, SHEPARD_METHOD_IDW, 12, 7 },
  { "7-fold-aidw-all-duplicates-3k", POINT_LAYOUT_DUPLICATES, 3001, SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, 7 },
};

static gboolean
too_large_for_sanitizer (size_t count)
{
  const char *max_points = g_getenv ("SHEPARD_TEST_CUDA_MAX_POINTS");
  if (max_points && count > g_ascii_strtoull (max_points, NULL, 10))
    {
      g_test_skip ("more points than SHEPARD_TEST_CUDA_MAX_POINTS");
      return TRUE;
    }
  return FALSE;
}

static shepard_params
cv_params (const cv_case *test_case)
{
  shepard_params params;
  if (test_case->method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  if (test_case->method == SHEPARD_METHOD_IDW && test_case->neighbors != SHEPARD_NEIGHBORS_ALL)
    params.power = 3.0;
  params.neighbors = test_case->neighbors;
  /* As the grid cases: alpha varies instead of sitting at alpha5. */
  params.r_max = 4.0;
  return params;
}

/* As tied_neighbourhoods, outside each point's fold: from the CPU's 32 nearest of each point, those of its own fold
 * left out. A point whose nearest outside its fold lies on it takes their mean, whichever neighbours they are. */
static gboolean *
tied_cv_neighbourhoods (const point_set *points, const size_t *fold, int neighbors)
{
  size_t n = points->count;
  gboolean *tied = g_new0 (gboolean, n);
  if (neighbors == SHEPARD_NEIGHBORS_ALL)
    return tied;
  enum { K = 32, BLOCK = 8192 };
  g_autofree double *d2 = g_new (double, (size_t) BLOCK * K);
  g_autofree size_t *index = g_new (size_t, (size_t) BLOCK * K);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, n, &error), &error,
                        SHEPARD_OK);
  size_t wanted = (size_t) neighbors + 1;
  for (size_t first = 0; first < n; first += BLOCK)
    {
      size_t count = MIN ((size_t) BLOCK, n - first);
      assert_engine_status (shepard_engine_nearest (engine, points->x + first, points->y + first, count, K, d2, index,
                                                    &error),
                            &error, SHEPARD_OK);
      for (size_t q = 0; q < count; q++)
        {
          size_t i = first + q;
          double kept[K];
          size_t found = 0;
          for (size_t j = 0; j < K && found < wanted; j++)
            if (index[q * K + j] != SIZE_MAX && fold[index[q * K + j]] != fold[i])
              kept[found++] = d2[q * K + j];
          if (found < wanted)
            tied[i] = TRUE;
          else
            tied[i] = kept[0] > 0.0 && kept[wanted - 1] - kept[wanted - 2] <= 1e-6 * kept[wanted - 1];
        }
    }
  shepard_engine_free (engine);
  return tied;
}

typedef struct {
  double *prediction, *residual, *alpha;
  size_t *fold;
  shepard_cv_summary summary;
} cv_result;

static void
cv_result_init (cv_result *result, size_t n)
{
  *result = (cv_result) {
    .prediction = g_new (double, n), .residual = g_new (double, n), .alpha = g_new (double, n),
    .fold = g_new (size_t, n),
  };
  for (size_t i = 0; i < n; i++)
    result->prediction[i] = result->residual[i] = result->alpha[i] = NAN;
}

static void
cv_result_clear (cv_result *result)
{
  g_free (result->prediction);
  g_free (result->residual);
  g_free (result->alpha);
  g_free (result->fold);
}

static void
cross_validate_on (shepard_backend backend, shepard_precision precision, const point_set *points,
                   const shepard_params *params, size_t folds, cv_result *result)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, precision, 0, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  g_test_message ("%s", shepard_engine_describe (engine));
  shepard_cv_outputs outputs = { result->prediction, result->residual, result->alpha, result->fold };
  gint64 start = g_get_monotonic_time ();
  assert_engine_status (shepard_engine_cross_validate (engine, params, folds, 17, &outputs, &result->summary, NULL,
                                                       NULL, &error),
                        &error, SHEPARD_OK);
  g_test_message ("cross-validated in %.1f ms: RMSE %.9g", 1e-3 * (double) (g_get_monotonic_time () - start),
                  result->summary.rmse);
  shepard_engine_free (engine);
}

static void
test_cross_validation (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const cv_case *test_case = data;
  if (too_large_for_sanitizer (test_case->count))
    return;
  point_set *points = point_set_new (test_case->layout, test_case->count, 8000 + test_case->count);
  size_t n = points->count;
  shepard_params params = cv_params (test_case);
  cv_result expected, actual;
  cv_result_init (&expected, n);
  cv_result_init (&actual, n);
  cross_validate_on (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, points, &params, test_case->folds, &expected);
  cross_validate_on (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, points, &params, test_case->folds, &actual);

  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpuint (actual.fold[i], ==, expected.fold[i]);
      g_assert_cmpfloat (actual.residual[i], ==, actual.prediction[i] - points->z[i]);
    }
  double scale = point_set_value_scale (points);
  g_autofree gboolean *tied = tied_cv_neighbourhoods (points, expected.fold, params.neighbors);
  compare ("predictions", actual.prediction, expected.prediction, tied, n, scale);
  compare ("alpha", actual.alpha, expected.alpha, NULL, n, params.method == SHEPARD_METHOD_AIDW ? params.alpha[4]
                                                                                                : params.power);
  g_assert_cmpuint (actual.summary.n, ==, n);
  g_assert_cmpfloat (fabs (actual.summary.rmse - expected.summary.rmse), <=, VALUE_TOLERANCE * scale);
  g_assert_cmpfloat (fabs (actual.summary.mae - expected.summary.mae), <=, VALUE_TOLERANCE * scale);
  cv_result_clear (&expected);
  cv_result_clear (&actual);
  point_set_free (points);
}

typedef struct {
  int calls;
  int cancel_at; /* the call that answers false; 0: none */
  gboolean cancel_once_begun; /* answer false at the first call past 0 */
  double last_fraction;
  gboolean monotonic;
} progress_record;

static bool
record_progress (double fraction, const char *message, void *data)
{
  progress_record *record = data;
  record->calls++;
  record->monotonic &= fraction >= record->last_fraction && fraction <= 1.0;
  record->last_fraction = fraction;
  g_assert_nonnull (message);
  return record->calls != record->cancel_at && !(record->cancel_once_begun && fraction > 0.0);
}

/* Cancel through the progress callback: at once, and between two launches of the all-points stage (400K points make
 * more than one; several GPUs may report 0 more than once before their first slices end); the engine answers again
 * afterwards. */
static void
test_cross_validation_cancel (void)
{
  if (!cuda_device_or_skip ())
    return;
  if (too_large_for_sanitizer (400000))
    return;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 400000, 95);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  shepard_params params;
  shepard_params_init_idw (&params);
  shepard_cv_summary summary = { .n = 12345 };

  progress_record at_once = { .cancel_at = 1, .monotonic = TRUE };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, record_progress, &at_once, &error),
                        &error, SHEPARD_ERROR_CANCELLED);
  g_assert_cmpint (at_once.calls, ==, 1);
  g_assert_cmpuint (summary.n, ==, 12345);

  progress_record midway = { .cancel_once_begun = TRUE, .monotonic = TRUE };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, record_progress, &midway, &error),
                        &error, SHEPARD_ERROR_CANCELLED);
  g_assert_cmpint (midway.calls, >=, 2);
  g_assert_cmpfloat (midway.last_fraction, >, 0.0);
  g_assert_cmpfloat (midway.last_fraction, <, 1.0);
  g_assert_cmpuint (summary.n, ==, 12345);

  progress_record whole = { .monotonic = TRUE };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, record_progress, &whole, &error),
                        &error, SHEPARD_OK);
  g_test_message ("%d progress calls; RMSE %.6g", whole.calls, summary.rmse);
  g_assert_cmpint (whole.calls, >=, 3);
  g_assert_true (whole.monotonic);
  g_assert_cmpfloat (whole.last_fraction, ==, 1.0);
  g_assert_cmpuint (summary.n, ==, points->count);
  g_assert_true (isfinite (summary.rmse));
  shepard_engine_free (engine);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (grid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/cuda/grid/%s-%zu-%zux%zu",
                                               point_layout_name (grid_cases[i].layout), grid_cases[i].count,
                                               grid_cases[i].width, grid_cases[i].height);
      g_test_add_data_func (path, &grid_cases[i], test_grid);
    }
  g_test_add_func ("/compute/cuda/point-queries", test_point_queries);
  g_test_add_func ("/compute/cuda/nearest", test_nearest);
  for (size_t i = 0; i < G_N_ELEMENTS (cv_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/cuda/cross-validation/%s", cv_cases[i].name);
      g_test_add_data_func (path, &cv_cases[i], test_cross_validation);
    }
  g_test_add_func ("/compute/cuda/cross-validation/cancel", test_cross_validation_cancel);
  return g_test_run ();
}
