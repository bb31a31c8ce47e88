/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend's weighting neighbourhood (shepard-engine.h's "The weighting neighbourhood"), several fields and
 * values near the float64 limits, against the CPU engine's float64 path (itself checked against the brute-force
 * reference in test-neighbourhood): circles and rotated ellipses, max and min points, quadrant caps and minimums,
 * smoothing, cells with no data, on rasters, point lists, device grids and in cross-validation. Queries where float32
 * rounding may decide the selection (a point on the ellipse's edge or a quadrant's axis, two candidates at the same
 * distance) are left out and counted. Without a CUDA device every case is skipped, saying why. */
#include <float.h>
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "engine-test-support.h"
#include "point-layouts.h"

/* float32 arithmetic with float64 sums: 1e-5 of the field's scale (issue 3). */
#define VALUE_TOLERANCE 1e-5
/* Selections float32 rounding could change: a point within this of the ellipse's edge (in u^2/r1^2 + v^2/r2^2), or of
 * a quadrant's axis (map units, on a 1000 x 700 layout), or two candidates this close in squared distance. */
#define EDGE_MARGIN 1e-4
#define AXIS_MARGIN 1e-3
#define TIE_MARGIN 1e-5
/* The nearest candidates checked for ties: more than any case selects. */
#define TIE_DEPTH 80

typedef struct {
  const char *name;
  shepard_method method;
  double power;
  int max_points;
  double radius1, radius2, angle;
  int min_points;
  int max_per_quadrant, min_per_quadrant;
  double smoothing;
  gboolean expect_no_data; /* some raster cells must get no data */
} hood_case;

/* On 2000 uniform points in 1000 x 700 (about one point per 350 square units). */
static const hood_case hood_cases[] = {
  { "circle-idw-p2", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL, 60, 60, 0, 0, 0, 0, 0, FALSE },
  { "circle-12-nearest-aidw", SHEPARD_METHOD_AIDW, 0, 12, 60, 60, 0, 0, 0, 0, 0, FALSE },
  { "ellipse-30deg-idw-p3", SHEPARD_METHOD_IDW, 3.0, SHEPARD_NEIGHBORS_ALL, 120, 40, 30, 0, 0, 0, 0, FALSE },
  { "ellipse-30deg-20-nearest-aidw", SHEPARD_METHOD_AIDW, 0, 20, 120, 40, 30, 0, 0, 0, 0, FALSE },
  { "ellipse-120deg-40-nearest-idw-p2", SHEPARD_METHOD_IDW, 2.0, 40, 150, 60, 120, 0, 0, 0, 0, FALSE },
  { "circle-min-points-no-data", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL, 25, 25, 0, 3, 0, 0, 0, TRUE },
  { "circle-16-nearest-min-points-no-data", SHEPARD_METHOD_AIDW, 0, 16, 30, 30, 0, 4, 0, 0, 0, TRUE },
  { "quadrants-3-of-10-circle", SHEPARD_METHOD_IDW, 2.0, 10, 80, 80, 0, 0, 3, 0, 0, FALSE },
  { "quadrants-2-all-min-1", SHEPARD_METHOD_AIDW, 0, SHEPARD_NEIGHBORS_ALL, 0, 0, 0, 0, 2, 1, 0, TRUE },
  { "quadrants-16-ellipse-min-2", SHEPARD_METHOD_IDW, 3.0, SHEPARD_NEIGHBORS_ALL, 100, 50, -20, 0, 16, 2, 0, TRUE },
  { "quadrants-5-of-64", SHEPARD_METHOD_IDW, 2.0, 64, 0, 0, 0, 0, 5, 0, 0, FALSE },
  { "min-per-quadrant-16-nearest", SHEPARD_METHOD_IDW, 2.0, 16, 0, 0, 0, 0, 0, 2, 0, TRUE },
  { "min-per-quadrant-all", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL, 0, 0, 0, 0, 0, 1, 0, TRUE },
  { "smoothing-all-idw-p2", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL, 0, 0, 0, 0, 0, 0, 5.0, FALSE },
  { "smoothing-all-aidw", SHEPARD_METHOD_AIDW, 0, SHEPARD_NEIGHBORS_ALL, 0, 0, 0, 0, 0, 0, 5.0, FALSE },
  { "smoothing-12-nearest-idw-p2", SHEPARD_METHOD_IDW, 2.0, 12, 0, 0, 0, 0, 0, 0, 5.0, FALSE },
  { "smoothing-circle-quadrants-4-of-12", SHEPARD_METHOD_IDW, 2.0, 12, 80, 80, 0, 0, 4, 0, 5.0, FALSE },
  { "smoothing-ellipse-idw-p3", SHEPARD_METHOD_IDW, 3.0, SHEPARD_NEIGHBORS_ALL, 90, 45, 60, 0, 0, 0, 20.0, FALSE },
};

static shepard_params
params_for (const hood_case *test_case)
{
  shepard_params params;
  if (test_case->method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    {
      shepard_params_init_idw (&params);
      params.power = test_case->power;
    }
  /* Rmax above the typical R of random points, so that alpha varies instead of sitting at alpha5. */
  params.r_max = 4.0;
  params.neighbors = test_case->max_points;
  params.radius1 = test_case->radius1;
  params.radius2 = test_case->radius2;
  params.angle = test_case->angle;
  params.min_points = test_case->min_points;
  params.max_points_per_quadrant = test_case->max_per_quadrant;
  params.min_points_per_quadrant = test_case->min_per_quadrant;
  params.smoothing = test_case->smoothing;
  return params;
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

/* Whether float32 rounding could change the selection at (qx, qy), by brute force over the points in float64 (those
 * of the query's fold left out when fold is not NULL). */
static gboolean
selection_is_ambiguous (const point_set *points, const shepard_params *params, double qx, double qy,
                        const size_t *fold, size_t own_fold)
{
  gboolean radius = params->radius1 > 0.0;
  gboolean quadrants = params->max_points_per_quadrant > 0 || params->min_points_per_quadrant > 0;
  gboolean cut = params->neighbors != SHEPARD_NEIGHBORS_ALL || params->max_points_per_quadrant > 0;
  double angle = params->angle * G_PI / 180.0, c = cos (angle), s = sin (angle);
  g_autofree double *candidates = g_new (double, points->count);
  size_t count = 0;
  for (size_t i = 0; i < points->count; i++)
    {
      if (fold && fold[i] == own_fold)
        continue;
      double dx = points->x[i] - qx, dy = points->y[i] - qy;
      if (radius)
        {
          double u = dx * c + dy * s, v = dy * c - dx * s;
          double m = u * u / (params->radius1 * params->radius1) + v * v / (params->radius2 * params->radius2);
          if (fabs (m - 1.0) < EDGE_MARGIN)
            return TRUE;
          if (m > 1.0)
            continue;
        }
      if (quadrants && (fabs (dx) < AXIS_MARGIN || fabs (dy) < AXIS_MARGIN))
        return TRUE;
      candidates[count++] = dx * dx + dy * dy;
    }
  if (!cut)
    return FALSE;
  qsort (candidates, count, sizeof *candidates, compare_doubles);
  for (size_t j = 1; j < count && j < TIE_DEPTH; j++)
    if (candidates[j] - candidates[j - 1] <= TIE_MARGIN * candidates[j])
      return TRUE;
  return FALSE;
}

typedef struct {
  size_t compared, no_data, ambiguous;
} comparison;

/* Values of one field: no data (NaN) in the same queries, within VALUE_TOLERANCE of scale elsewhere; ambiguous
 * queries (skip) left out. */
static comparison
compare_values (const char *what, const double *actual, const double *expected, const gboolean *skip, size_t count,
                double scale)
{
  comparison result = { 0 };
  deviation_tally tally;
  deviation_tally_init (&tally, what, VALUE_TOLERANCE);
  for (size_t i = 0; i < count; i++)
    {
      if (skip && skip[i])
        {
          result.ambiguous++;
          continue;
        }
      if (isnan (expected[i]) || isnan (actual[i]))
        {
          if (isnan (expected[i]) != isnan (actual[i]))
            g_test_message ("%s: query %zu has %g on the GPU, %g on the CPU", what, i, actual[i], expected[i]);
          g_assert_cmpint (isnan (actual[i]), ==, isnan (expected[i]));
          result.no_data++;
          continue;
        }
      g_assert_true (isfinite (actual[i]));
      deviation_tally_add (&tally, i, actual[i], expected[i], scale);
      result.compared++;
    }
  deviation_tally_check (&tally);
  g_test_message ("%s: %zu compared, %zu without data, %zu left out as ambiguous", what, result.compared,
                  result.no_data, result.ambiguous);
  /* The margins leave out a few percent of the queries: far more means the test no longer tests. */
  g_assert_cmpuint (result.ambiguous, <=, count / 5);
  return result;
}

static shepard_engine *
engine_with_fields (shepard_backend backend, shepard_precision precision, const point_set *points,
                    const double *const *fields, size_t n_fields)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, precision, 0, &error);
  if (engine == NULL)
    g_test_message ("engine said (%s): %s", shepard_status_name (error.code), error.message);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points_fields (engine, points->x, points->y, fields, n_fields,
                                                          points->count, &error),
                        &error, SHEPARD_OK);
  return engine;
}

static shepard_engine *
cuda_engine (const point_set *points, const double *const *fields, size_t n_fields)
{
  shepard_engine *engine = engine_with_fields (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, points, fields,
                                               n_fields);
  g_assert_cmpint (shepard_engine_backend (engine), ==, SHEPARD_BACKEND_CUDA);
  return engine;
}

static shepard_engine *
cpu_engine (const point_set *points, const double *const *fields, size_t n_fields)
{
  return engine_with_fields (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, points, fields, n_fields);
}

/* The raster of the tests: a little beyond the 1000 x 700 layouts on every side, so that edge cells see empty
 * quadrants. */
static const shepard_grid test_grid = { .x_min = -50.0, .y_max = 750.0, .dx = 1100.0 / 64, .dy = 800.0 / 45,
                                        .width = 64, .height = 45 };

/* Marks the cells of test_grid where float32 rounding could change the selection. */
static void
mark_ambiguous_cells (const point_set *points, const shepard_params *params, gboolean *skip)
{
  for (size_t i = 0; i < test_grid.width * test_grid.height; i++)
    {
      double x, y;
      grid_cell_centre (&test_grid, i, &x, &y);
      skip[i] = selection_is_ambiguous (points, params, x, y, NULL, 0);
    }
}

static void
interpolate_grid (shepard_engine *engine, const shepard_params *params, double *values, double *alpha)
{
  shepard_error error = { 0 };
  shepard_outputs outputs = { values, alpha, NULL };
  assert_engine_status (shepard_engine_interpolate_grid (engine, params, &test_grid, &outputs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
}

static void
interpolate_points (shepard_engine *engine, const shepard_params *params, const double *qx, const double *qy,
                    size_t count, double *values, double *alpha)
{
  shepard_error error = { 0 };
  shepard_outputs outputs = { values, alpha, NULL };
  assert_engine_status (shepard_engine_interpolate_points (engine, params, qx, qy, count, &outputs, NULL, NULL,
                                                           &error),
                        &error, SHEPARD_OK);
}

static void
compare_alpha (const double *actual, const double *expected, size_t count, const shepard_params *params)
{
  deviation_tally tally;
  deviation_tally_init (&tally, "alpha", VALUE_TOLERANCE);
  double scale = params->method == SHEPARD_METHOD_AIDW ? params->alpha[4] : params->power;
  for (size_t i = 0; i < count; i++)
    deviation_tally_add (&tally, i, actual[i], expected[i], scale);
  deviation_tally_check (&tally);
}

/* A raster and a list of random points (in and around the extent), the GPU engine against the CPU's float64. */
static void
test_neighbourhood (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const hood_case *test_case = data;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 4100);
  shepard_params params = params_for (test_case);
  double scale = point_set_value_scale (points);
  const double *const fields[] = { points->z };
  shepard_engine *gpu = cuda_engine (points, fields, 1), *cpu = cpu_engine (points, fields, 1);

  size_t cells = test_grid.width * test_grid.height;
  g_autofree double *expected = g_new (double, cells), *actual = g_new (double, cells);
  g_autofree double *expected_alpha = g_new (double, cells), *actual_alpha = g_new (double, cells);
  g_autofree gboolean *skip = g_new0 (gboolean, cells);
  mark_ambiguous_cells (points, &params, skip);
  interpolate_grid (cpu, &params, expected, expected_alpha);
  interpolate_grid (gpu, &params, actual, actual_alpha);
  comparison raster = compare_values ("raster", actual, expected, skip, cells, scale);
  compare_alpha (actual_alpha, expected_alpha, cells, &params);
  if (test_case->expect_no_data)
    g_assert_cmpuint (raster.no_data, >, 0);
  g_assert_cmpuint (raster.compared, >, cells / 2);

  enum { QUERIES = 1500 };
  g_autofree double *qx = g_new (double, QUERIES), *qy = g_new (double, QUERIES);
  g_autofree double *expected_points = g_new (double, QUERIES), *actual_points = g_new (double, QUERIES);
  g_autofree gboolean *skip_points = g_new0 (gboolean, QUERIES);
  GRand *random = g_rand_new_with_seed (4101);
  for (size_t i = 0; i < QUERIES; i++)
    {
      qx[i] = g_rand_double_range (random, -100.0, 1100.0);
      qy[i] = g_rand_double_range (random, -100.0, 800.0);
      skip_points[i] = selection_is_ambiguous (points, &params, qx[i], qy[i], NULL, 0);
    }
  g_rand_free (random);
  interpolate_points (cpu, &params, qx, qy, QUERIES, expected_points, NULL);
  interpolate_points (gpu, &params, qx, qy, QUERIES, actual_points, NULL);
  compare_values ("point list", actual_points, expected_points, skip_points, QUERIES, scale);

  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* Leave-one-out and k-fold on the GPU against the CPU's float64, with the neighbourhood's rules outside each fold. */
typedef struct {
  const char *name;
  size_t hood; /* index into hood_cases */
  size_t folds;
} cv_case;

static const cv_case cv_cases[] = {
  { "loo-circle-12-nearest-aidw", 1, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-ellipse-30deg-idw-p3", 2, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-circle-min-points-no-data", 5, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-quadrants-3-of-10-circle", 7, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-quadrants-2-all-min-1", 8, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-min-per-quadrant-16-nearest", 11, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-smoothing-all-idw-p2", 13, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-smoothing-12-nearest-idw-p2", 15, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "5-fold-ellipse-30deg-20-nearest-aidw", 3, 5 },
  { "5-fold-quadrants-16-ellipse-min-2", 9, 5 },
  { "5-fold-smoothing-all-aidw", 14, 5 },
};

static void
cross_validate (shepard_engine *engine, const shepard_params *params, size_t folds, double *prediction,
                double *alpha, size_t *fold)
{
  shepard_error error = { 0 };
  shepard_cv_outputs outputs = { prediction, NULL, alpha, fold };
  shepard_cv_summary summary;
  assert_engine_status (shepard_engine_cross_validate (engine, params, folds, 23, &outputs, &summary, NULL, NULL,
                                                       &error),
                        &error, SHEPARD_OK);
}

static void
test_cross_validation (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const cv_case *test_case = data;
  const hood_case *hood = &hood_cases[test_case->hood];
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 4200);
  size_t n = points->count;
  shepard_params params = params_for (hood);
  const double *const fields[] = { points->z };
  shepard_engine *gpu = cuda_engine (points, fields, 1), *cpu = cpu_engine (points, fields, 1);
  g_autofree double *expected = g_new (double, n), *actual = g_new (double, n);
  g_autofree double *expected_alpha = g_new (double, n), *actual_alpha = g_new (double, n);
  g_autofree size_t *expected_fold = g_new (size_t, n), *actual_fold = g_new (size_t, n);
  cross_validate (cpu, &params, test_case->folds, expected, expected_alpha, expected_fold);
  cross_validate (gpu, &params, test_case->folds, actual, actual_alpha, actual_fold);
  g_autofree gboolean *skip = g_new0 (gboolean, n);
  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpuint (actual_fold[i], ==, expected_fold[i]);
      skip[i] = selection_is_ambiguous (points, &params, points->x[i], points->y[i], expected_fold,
                                        expected_fold[i]);
    }
  comparison result = compare_values ("predictions", actual, expected, skip, n, point_set_value_scale (points));
  compare_alpha (actual_alpha, expected_alpha, n, &params);
  g_assert_cmpuint (result.compared, >, n / 2);
  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* Two fields share the search and alpha: each plane equals the CPU's float64 plane, and a one-field GPU run of that
 * field; the device grid shows field 0. */
static const size_t field_cases[] = { 0, 1, 5, 7, 13, 15 }; /* indices into hood_cases; 13: all points */

static void
test_two_fields (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 4300);
  g_autofree double *second = g_new (double, points->count);
  for (size_t i = 0; i < points->count; i++)
    second[i] = 1e6 + 250.0 * sin (points->x[i] / 90.0) * cos (points->y[i] / 70.0);
  const double *const both[] = { points->z, second };
  const double *const only_second[] = { second };
  double scales[] = { point_set_value_scale (points), 1e6 + 250.0 };
  shepard_engine *gpu = cuda_engine (points, both, 2), *cpu = cpu_engine (points, both, 2);
  shepard_engine *gpu_second = cuda_engine (points, only_second, 1);
  g_assert_cmpuint (shepard_engine_n_fields (gpu), ==, 2);

  size_t cells = test_grid.width * test_grid.height;
  g_autofree double *expected = g_new (double, 2 * cells), *actual = g_new (double, 2 * cells);
  g_autofree double *single = g_new (double, cells);
  g_autofree gboolean *skip = g_new0 (gboolean, cells);
  g_autofree float *device_values = g_new (float, cells);
  g_autofree double *device_as_double = g_new (double, cells);
  for (size_t c = 0; c < G_N_ELEMENTS (field_cases); c++)
    {
      const hood_case *hood = &hood_cases[field_cases[c]];
      g_test_message ("two fields, %s", hood->name);
      shepard_params params = params_for (hood);
      mark_ambiguous_cells (points, &params, skip);
      interpolate_grid (cpu, &params, expected, NULL);
      interpolate_grid (gpu, &params, actual, NULL);
      interpolate_grid (gpu_second, &params, single, NULL);
      compare_values ("field 1", actual, expected, skip, cells, scales[0]);
      compare_values ("field 2", actual + cells, expected + cells, skip, cells, scales[1]);
      compare_values ("field 2 against a one-field run", actual + cells, single, NULL, cells, scales[1]);

      shepard_error error = { 0 };
      shepard_device_grid *device_grid = NULL;
      assert_engine_status (shepard_device_grid_new (gpu, &device_grid, &error), &error, SHEPARD_OK);
      assert_engine_status (shepard_engine_interpolate_grid_to_device (gpu, &params, &test_grid, device_grid, NULL,
                                                                       NULL, &error),
                            &error, SHEPARD_OK);
      assert_engine_status (shepard_device_grid_read (device_grid, 0, cells, device_values, NULL, &error), &error,
                            SHEPARD_OK);
      for (size_t i = 0; i < cells; i++)
        device_as_double[i] = device_values[i];
      compare_values ("device grid (field 1)", device_as_double, expected, skip, cells, scales[0]);
      shepard_device_grid_free (device_grid);
    }
  shepard_engine_free (gpu);
  shepard_engine_free (gpu_second);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* Values reaching +-1e308 (and a field within 1e-3 of 1e308): every value finite, within 1e-5 of the largest |z| of
 * the CPU's float64 values, no data where the CPU has none. */
static void
test_extreme_values (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 3000, 4400);
  g_autofree double *spanning = g_new (double, points->count), *offset = g_new (double, points->count);
  for (size_t i = 0; i < points->count; i++)
    {
      double wave = sin (points->x[i] / 80.0) * cos (points->y[i] / 60.0);
      spanning[i] = 0.999 * DBL_MAX * wave;
      offset[i] = 1e308 * (1.0 + 1e-3 * wave);
    }
  const double *const fields[] = { spanning, offset };
  shepard_engine *gpu = cuda_engine (points, fields, 2), *cpu = cpu_engine (points, fields, 2);
  size_t cells = test_grid.width * test_grid.height;
  g_autofree double *expected = g_new (double, 2 * cells), *actual = g_new (double, 2 * cells);
  g_autofree gboolean *skip = g_new0 (gboolean, cells);
  static const size_t cases[] = { 0, 1, 5, 13, 14, 15 };
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      const hood_case *hood = &hood_cases[cases[c]];
      g_test_message ("values near 1e308, %s", hood->name);
      shepard_params params = params_for (hood);
      mark_ambiguous_cells (points, &params, skip);
      interpolate_grid (cpu, &params, expected, NULL);
      interpolate_grid (gpu, &params, actual, NULL);
      for (size_t i = 0; i < 2 * cells; i++)
        if (!isnan (actual[i]))
          g_assert_true (isfinite (actual[i]));
      compare_values ("field reaching +-DBL_MAX", actual, expected, skip, cells, DBL_MAX);
      /* Against the field's own spread: the origin shift keeps the 1e-3 variation to float32's precision. */
      compare_values ("field near 1e308", actual + cells, expected + cells, skip, cells, 1e308 * 1e-3);
    }
  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* max_points_per_quadrant above what the GPU keeps per quadrant runs on the CPU: the same values as the CPU engine. */
static void
test_cpu_fallback (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 4500);
  const double *const fields[] = { points->z };
  shepard_engine *gpu = cuda_engine (points, fields, 1), *cpu = cpu_engine (points, fields, 1);
  shepard_params params;
  shepard_params_init_idw (&params);
  params.max_points_per_quadrant = 20;
  params.radius1 = params.radius2 = 100.0;
  size_t cells = test_grid.width * test_grid.height;
  g_autofree double *expected = g_new (double, cells), *actual = g_new (double, cells);
  interpolate_grid (cpu, &params, expected, NULL);
  interpolate_grid (gpu, &params, actual, NULL);
  compare_values ("20 per quadrant", actual, expected, NULL, cells, point_set_value_scale (points));
  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (hood_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/cuda/neighbourhood/%s", hood_cases[i].name);
      g_test_add_data_func (path, &hood_cases[i], test_neighbourhood);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (cv_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/cuda/neighbourhood/cross-validation/%s", cv_cases[i].name);
      g_test_add_data_func (path, &cv_cases[i], test_cross_validation);
    }
  g_test_add_func ("/compute/cuda/neighbourhood/two-fields", test_two_fields);
  g_test_add_func ("/compute/cuda/neighbourhood/values-near-1e308", test_extreme_values);
  g_test_add_func ("/compute/cuda/neighbourhood/quadrant-caps-on-the-cpu", test_cpu_fallback);
  return g_test_run ();
}
