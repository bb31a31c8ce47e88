/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Several GPUs (shepard-engine.h, "Several GPUs"): the slices of an interpolation or a cross-validation handed out to
 * two backends or more give, bit for bit, what they give whatever their number, and what one GPU gives in its own
 * slices (or, cross-validating, in one go). On one GPU the sets {0, 0} and {0, 0, 0} put two and three backends,
 * each with its own stream and its own thread, on that GPU: the hand-out, the per-GPU copies of the points and the
 * tree, progress and cancel all run as they do on several GPUs.
 * With two GPUs or more, every GPU too. Every case skips, saying why, where there is no CUDA device, but the slices'
 * sizes, which need none: whole rows, and no GPU busier by a granule than the best size would leave it. */
#include "cuda-backend.h"
#include "engine-test-support.h"
#include "point-layouts.h"
#include "reference-interpolation.h"

#include <glib.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* Enough points and cells that every kind of work takes several slices, the last one short. Under compute-sanitizer
 * (SHEPARD_TEST_CUDA_MAX_POINTS) fewer points over fewer rows: the far field's and the neighbourhoods' work still
 * takes two slices. */
#define POINT_COUNT 600000
#define GRID_WIDTH 1024
#define GRID_HEIGHT 1500
#define SANITIZED_GRID_HEIGHT 300

typedef struct {
  const char *name;
  shepard_method method;
  shepard_summation summation;
  int neighbors;
  double radius;
} multi_case;

static const multi_case cases[] = {
  { "aidw-all-exact", SHEPARD_METHOD_AIDW, SHEPARD_SUMMATION_EXACT, 0, 0.0 },
  { "idw-all-exact", SHEPARD_METHOD_IDW, SHEPARD_SUMMATION_EXACT, 0, 0.0 },
  { "aidw-far-field", SHEPARD_METHOD_AIDW, SHEPARD_SUMMATION_FAR_FIELD, 0, 0.0 },
  { "idw-far-field", SHEPARD_METHOD_IDW, SHEPARD_SUMMATION_FAR_FIELD, 0, 0.0 },
  { "aidw-nearest-16", SHEPARD_METHOD_AIDW, SHEPARD_SUMMATION_AUTO, 16, 0.0 },
  { "idw-radius", SHEPARD_METHOD_IDW, SHEPARD_SUMMATION_AUTO, 0, 5.0 },
};

static point_set *shared_points;

static shepard_params
params_of (const multi_case *test)
{
  shepard_params params = params_with_neighbourhood (test->method, test->neighbors, test->radius);
  params.summation = test->summation;
  return params;
}

static shepard_engine *
engine_holding (const shepard_gpu_set *gpus, const point_set *points)
{
  shepard_error error = { SHEPARD_OK, "" };
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 2, gpus,
                                                       &error);
  if (!engine)
    g_error ("no engine: %s", error.message);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  return engine;
}

static shepard_engine *
engine_on (const shepard_gpu_set *gpus)
{
  return engine_holding (gpus, shared_points);
}

typedef struct {
  double *values, *alpha, *r_obs;
} planes;

static planes
planes_new (size_t count)
{
  return (planes) { g_new (double, count), g_new (double, count), g_new (double, count) };
}

static void
planes_free (planes *p)
{
  g_free (p->values);
  g_free (p->alpha);
  g_free (p->r_obs);
}

static void
assert_planes_equal (const planes *actual, const planes *expected, size_t count, const char *what)
{
  size_t differing = 0;
  for (size_t i = 0; i < count; i++)
    differing += memcmp (&actual->values[i], &expected->values[i], sizeof (double)) != 0
                 || memcmp (&actual->alpha[i], &expected->alpha[i], sizeof (double)) != 0
                 || memcmp (&actual->r_obs[i], &expected->r_obs[i], sizeof (double)) != 0;
  g_test_message ("%s: %zu of %zu queries differ", what, differing, count);
  g_assert_cmpuint (differing, ==, 0);
}

static shepard_grid grid = { .x_min = -10.0, .y_max = 710.0, .dx = 1020.0 / GRID_WIDTH, .dy = 720.0 / GRID_HEIGHT,
                             .width = GRID_WIDTH, .height = GRID_HEIGHT };

static void
interpolate_or_fail (shepard_engine *engine, const shepard_params *params, const planes *out)
{
  shepard_error error = { SHEPARD_OK, "" };
  shepard_outputs outputs = { out->values, out->alpha, out->r_obs };
  size_t cells = grid.width * grid.height;
  for (size_t i = 0; i < cells; i++)
    out->r_obs[i] = 0.0; /* IDW leaves r_obs untouched */
  assert_engine_status (shepard_engine_interpolate_grid (engine, params, &grid, &outputs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
}

static void
test_equal_to_one_gpu (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const multi_case *test = data;
  shepard_params params = params_of (test);
  size_t cells = grid.width * grid.height;
  shepard_gpu_set one = { 1, { 0 } }, two_on_one = { 2, { 0, 0 } }, three_on_one = { 3, { 0, 0, 0 } };
  shepard_engine *single = engine_on (&one), *pair = engine_on (&two_on_one), *triple = engine_on (&three_on_one);
  shepard_engine *every = engine_on (NULL);
  g_test_message ("%s: %s; %s", test->name, shepard_engine_describe (triple), shepard_engine_describe (every));
  planes expected = planes_new (cells), actual = planes_new (cells), alone = planes_new (cells);
  interpolate_or_fail (pair, &params, &expected);
  interpolate_or_fail (triple, &params, &actual);
  assert_planes_equal (&actual, &expected, cells, "three backends on GPU 0 against two");
  interpolate_or_fail (single, &params, &alone);
  assert_planes_equal (&alone, &expected, cells, "one GPU against two backends");
  interpolate_or_fail (every, &params, &actual);
  assert_planes_equal (&actual, &expected, cells, "every GPU against two backends on GPU 0");

  /* Explicit query points: the grid's cell centres, a list, in slices of their own. */
  double *x = g_new (double, cells), *y = g_new (double, cells);
  for (size_t i = 0; i < cells; i++)
    grid_cell_centre (&grid, i, &x[i], &y[i]);
  shepard_error error = { SHEPARD_OK, "" };
  memset (expected.r_obs, 0, cells * sizeof (double));
  memset (actual.r_obs, 0, cells * sizeof (double));
  memset (alone.r_obs, 0, cells * sizeof (double));
  shepard_outputs pair_outputs = { expected.values, expected.alpha, expected.r_obs };
  shepard_outputs triple_outputs = { actual.values, actual.alpha, actual.r_obs };
  shepard_outputs single_outputs = { alone.values, alone.alpha, alone.r_obs };
  assert_engine_status (shepard_engine_interpolate_points (pair, &params, x, y, cells, &pair_outputs, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_interpolate_points (triple, &params, x, y, cells, &triple_outputs, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  assert_planes_equal (&actual, &expected, cells, "query points, three backends against two");
  assert_engine_status (shepard_engine_interpolate_points (single, &params, x, y, cells, &single_outputs, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  assert_planes_equal (&alone, &expected, cells, "query points, one GPU against two backends");

  g_free (x);
  g_free (y);
  planes_free (&expected);
  planes_free (&actual);
  planes_free (&alone);
  shepard_engine_free (single);
  shepard_engine_free (pair);
  shepard_engine_free (triple);
  shepard_engine_free (every);
}

typedef struct {
  GThread *caller;
  unsigned calls;
  double last;
  unsigned cancel_at; /* 0: never */
} progress_record;

static bool
record_progress (double fraction, const char *message, void *data)
{
  (void) message;
  progress_record *record = data;
  g_assert_true (g_thread_self () == record->caller);
  g_assert_cmpfloat (fraction, >=, record->last);
  g_assert_cmpfloat (fraction, <=, 1.0);
  record->last = fraction;
  record->calls++;
  return record->cancel_at == 0 || record->calls < record->cancel_at;
}

/* Progress comes on the calling thread only, rising to 1; a cancel stops every GPU, and the engine works on. The
 * brute force's slices go in runs, the far field's are claimed by the GPUs from a shared queue. */
static void
test_progress_and_cancel (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  shepard_params params = params_of (data);
  size_t cells = grid.width * grid.height;
  shepard_gpu_set two_on_one = { 2, { 0, 0 } };
  shepard_engine *pair = engine_on (&two_on_one);
  planes first = planes_new (cells), again = planes_new (cells);
  shepard_outputs outputs = { first.values, first.alpha, first.r_obs };
  shepard_error error = { SHEPARD_OK, "" };

  progress_record record = { g_thread_self (), 0, 0.0, 0 };
  assert_engine_status (shepard_engine_interpolate_grid (pair, &params, &grid, &outputs, record_progress, &record,
                                                         &error), &error, SHEPARD_OK);
  g_assert_cmpfloat (record.last, ==, 1.0);
  g_assert_cmpuint (record.calls, >=, 2);

  progress_record cancelling = { g_thread_self (), 0, 0.0, 2 };
  assert_engine_status (shepard_engine_interpolate_grid (pair, &params, &grid, &outputs, record_progress,
                                                         &cancelling, &error), &error, SHEPARD_ERROR_CANCELLED);

  interpolate_or_fail (pair, &params, &first);
  interpolate_or_fail (pair, &params, &again);
  assert_planes_equal (&again, &first, cells, "after a cancel");
  planes_free (&first);
  planes_free (&again);
  shepard_engine_free (pair);
}

/* --- Cross-validation: the GPUs share the points' sorted slots in slices (an eighth of the points each), and one GPU
 * runs them all in one go; every prediction, alpha and residual and the summary are equal bit for bit. */

/* Enough points that the all-points stage takes several bands of slots and two launches per band (pieces of each
 * group of points, whose running sums a launch continues), on one GPU and in a slice. */
#define CV_POINT_COUNT 1000000
#define CV_SEED 29
/* Predictions checked against the float64 reference, per case (each sorts the distances to every point). */
#define CV_SAMPLES 6
/* GPU predictions against float64: as test-cuda's cross-validation. */
#define CV_TOLERANCE 1e-5

typedef struct {
  const char *name;
  shepard_method method;
  int neighbors;
  double radius;
  size_t folds;
} cv_case;

static const cv_case cv_cases[] = {
  { "loo-aidw-all", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, 0.0, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-idw-p2-all", SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL, 0.0, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "5-fold-aidw-all", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, 0.0, 5 },
  { "loo-aidw-nearest-16", SHEPARD_METHOD_AIDW, 16, 0.0, SHEPARD_FOLDS_LEAVE_ONE_OUT },
  { "loo-idw-radius", SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL, 5.0, SHEPARD_FOLDS_LEAVE_ONE_OUT },
};

static point_set *cv_points;

static shepard_params
cv_params_of (const cv_case *test)
{
  return params_with_neighbourhood (test->method, test->neighbors, test->radius);
}

typedef struct {
  double *prediction, *residual, *alpha;
  size_t *fold;
  shepard_cv_summary summary;
} cv_run;

static cv_run
cv_run_new (size_t n)
{
  return (cv_run) { g_new (double, n), g_new (double, n), g_new (double, n), g_new (size_t, n), { 0 } };
}

static void
cv_run_free (cv_run *run)
{
  g_free (run->prediction);
  g_free (run->residual);
  g_free (run->alpha);
  g_free (run->fold);
}

static shepard_status
cross_validate (shepard_engine *engine, const shepard_params *params, size_t folds, cv_run *run,
                shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  shepard_cv_outputs outputs = { run->prediction, run->residual, run->alpha, run->fold };
  return shepard_engine_cross_validate (engine, params, folds, CV_SEED, &outputs, &run->summary, progress,
                                        progress_data, error);
}

static void
cross_validate_or_fail (shepard_engine *engine, const shepard_params *params, size_t folds, cv_run *run)
{
  shepard_error error = { SHEPARD_OK, "" };
  assert_engine_status (cross_validate (engine, params, folds, run, NULL, NULL, &error), &error, SHEPARD_OK);
}

static void
assert_runs_equal (const cv_run *actual, const cv_run *expected, size_t n, const char *what)
{
  size_t differing = 0;
  for (size_t i = 0; i < n; i++)
    differing += memcmp (&actual->prediction[i], &expected->prediction[i], sizeof (double)) != 0
                 || memcmp (&actual->residual[i], &expected->residual[i], sizeof (double)) != 0
                 || memcmp (&actual->alpha[i], &expected->alpha[i], sizeof (double)) != 0
                 || actual->fold[i] != expected->fold[i];
  g_test_message ("%s: %zu of %zu points differ; RMSE %.9g against %.9g", what, differing, n, actual->summary.rmse,
                  expected->summary.rmse);
  g_assert_cmpuint (differing, ==, 0);
  g_assert_cmpuint (actual->summary.n, ==, expected->summary.n);
  g_assert_cmpmem (&actual->summary.me, sizeof (double), &expected->summary.me, sizeof (double));
  g_assert_cmpmem (&actual->summary.mae, sizeof (double), &expected->summary.mae, sizeof (double));
  g_assert_cmpmem (&actual->summary.rmse, sizeof (double), &expected->summary.rmse, sizeof (double));
  g_assert_cmpmem (&actual->summary.r2, sizeof (double), &expected->summary.r2, sizeof (double));
}

/* A few predictions against the float64 reference over the points outside each one's fold: points whose training set
 * spans the whole layer's box (so that its study area and coincident tolerance are the layer's, as cross-validation
 * keeps them) and whose neighbourhood is not ambiguous. */
static void
assert_samples_match_reference (const cv_run *run, const shepard_params *params)
{
  const point_set *points = cv_points;
  size_t n = points->count;
  double *x = g_new (double, n), *y = g_new (double, n), *z = g_new (double, n);
  reference_data layer;
  reference_data_init (&layer, points->x, points->y, points->z, n);
  deviation_tally values, alphas;
  deviation_tally_init (&values, "sampled predictions against float64", CV_TOLERANCE);
  deviation_tally_init (&alphas, "sampled alphas against float64", CV_TOLERANCE);
  double scale = point_set_value_scale (points);
  size_t compared = 0;
  for (size_t s = 0; s < CV_SAMPLES; s++)
    {
      size_t i = (2 * s + 1) * n / (2 * CV_SAMPLES), count = 0;
      for (size_t j = 0; j < n; j++)
        if (run->fold[j] != run->fold[i])
          {
            x[count] = points->x[j];
            y[count] = points->y[j];
            z[count] = points->z[j];
            count++;
          }
      reference_data training;
      reference_data_init (&training, x, y, z, count);
      if (training.x_min != layer.x_min || training.x_max != layer.x_max || training.y_min != layer.y_min
          || training.y_max != layer.y_max)
        continue;
      reference_result expected;
      reference_interpolate (&training, params, points->x[i], points->y[i], &expected);
      if (expected.neighbourhood_ambiguous)
        continue;
      compared++;
      if (isnan (expected.value))
        {
          g_assert_true (isnan (run->prediction[i]));
          continue;
        }
      deviation_tally_add (&values, i, run->prediction[i], expected.value, scale);
      double alpha = params->method == SHEPARD_METHOD_AIDW ? expected.alpha : params->power;
      deviation_tally_add (&alphas, i, run->alpha[i], alpha, alpha);
    }
  g_test_message ("%zu of %d sampled points compared with the float64 reference", compared, CV_SAMPLES);
  g_assert_cmpuint (compared, >, 0);
  deviation_tally_check (&values);
  deviation_tally_check (&alphas);
  g_free (x);
  g_free (y);
  g_free (z);
}

static void
test_cv_equal_to_one_gpu (gconstpointer data)
{
  if (!cuda_device_or_skip ())
    return;
  const cv_case *test = data;
  shepard_params params = cv_params_of (test);
  size_t n = cv_points->count;
  shepard_gpu_set one = { 1, { 0 } }, two_on_one = { 2, { 0, 0 } }, three_on_one = { 3, { 0, 0, 0 } };
  shepard_engine *single = engine_holding (&one, cv_points), *pair = engine_holding (&two_on_one, cv_points);
  shepard_engine *triple = engine_holding (&three_on_one, cv_points), *every = engine_holding (NULL, cv_points);
  g_test_message ("%s: %s; %s", test->name, shepard_engine_describe (triple), shepard_engine_describe (every));
  cv_run alone = cv_run_new (n), actual = cv_run_new (n);
  cross_validate_or_fail (single, &params, test->folds, &alone);
  assert_samples_match_reference (&alone, &params);
  cross_validate_or_fail (pair, &params, test->folds, &actual);
  assert_runs_equal (&actual, &alone, n, "two backends on GPU 0 against one GPU");
  cross_validate_or_fail (triple, &params, test->folds, &actual);
  assert_runs_equal (&actual, &alone, n, "three backends on GPU 0 against one GPU");
  cross_validate_or_fail (every, &params, test->folds, &actual);
  assert_runs_equal (&actual, &alone, n, "every GPU against one GPU");
  cv_run_free (&alone);
  cv_run_free (&actual);
  shepard_engine_free (single);
  shepard_engine_free (pair);
  shepard_engine_free (triple);
  shepard_engine_free (every);
}

/* As for an interpolation: progress on the calling thread only, rising to 1; a cancel stops every GPU, and the engine
 * then gives what it gave before. */
static void
test_cv_progress_and_cancel (void)
{
  if (!cuda_device_or_skip ())
    return;
  shepard_params params = cv_params_of (&cv_cases[0]);
  size_t n = cv_points->count;
  shepard_gpu_set two_on_one = { 2, { 0, 0 } };
  shepard_engine *pair = engine_holding (&two_on_one, cv_points);
  cv_run first = cv_run_new (n), again = cv_run_new (n);
  shepard_error error = { SHEPARD_OK, "" };

  progress_record record = { g_thread_self (), 0, 0.0, 0 };
  assert_engine_status (cross_validate (pair, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, &first, record_progress, &record,
                                        &error), &error, SHEPARD_OK);
  g_assert_cmpfloat (record.last, ==, 1.0);
  g_assert_cmpuint (record.calls, >=, 2);

  progress_record cancelling = { g_thread_self (), 0, 0.0, 2 };
  assert_engine_status (cross_validate (pair, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, &again, record_progress,
                                        &cancelling, &error), &error, SHEPARD_ERROR_CANCELLED);

  cross_validate_or_fail (pair, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, &again);
  assert_runs_equal (&again, &first, n, "after a cancel");
  cv_run_free (&first);
  cv_run_free (&again);
  shepard_engine_free (pair);
}

/* Rows of the busiest of `gpus` GPUs taking slices of slice_rows of a raster in turn, counted slice by slice. */
static size_t
busiest_rows (size_t rows, size_t slice_rows, size_t gpus)
{
  size_t load[8] = { 0 }, busiest = 0;

  g_assert_cmpuint (gpus, <=, G_N_ELEMENTS (load));
  for (size_t first = 0, slice = 0; first < rows; first += slice_rows, slice++)
    {
      load[slice % gpus] += MIN (slice_rows, rows - first);
      busiest = MAX (busiest, load[slice % gpus]);
    }
  return busiest;
}

typedef struct {
  const char *name;
  shepard_summation summation;
  size_t points, width, height;
  size_t granule_rows, most_queries; /* the brute force's patch rows and largest slice, or the far field's tile rows
                                        and about the queries of its slices */
} slice_case;

static const slice_case slice_cases[] = {
  { "exact-2048", SHEPARD_SUMMATION_EXACT, 1 << 20, 2048, 2048, 64, 1 << 20 },
  { "exact-1024", SHEPARD_SUMMATION_EXACT, 1 << 20, 1024, 1024, 64, 1 << 20 },
  { "exact-export-band", SHEPARD_SUMMATION_EXACT, 1 << 20, 16384, 512, 64, 1 << 20 },
  { "exact-odd", SHEPARD_SUMMATION_EXACT, 300000, 1500, 2111, 64, 1 << 20 },
  { "far-field-1024", SHEPARD_SUMMATION_FAR_FIELD, 1 << 20, 1024, 1024, 8, 1 << 16 },
  { "far-field-export-band", SHEPARD_SUMMATION_FAR_FIELD, 1 << 20, 16384, 512, 8, 1 << 16 },
  { "far-field-odd", SHEPARD_SUMMATION_FAR_FIELD, 1 << 20, 1000, 4099, 8, 1 << 16 },
  { "far-field-256", SHEPARD_SUMMATION_FAR_FIELD, 1 << 20, 256, 256, 8, 1 << 16 },
};

/* Rows of the largest slice of at most `queries` queries: whole granules, one at least. */
static size_t
rows_within (const slice_case *test, double queries)
{
  size_t granules = (size_t) (queries / (double) (test->width * test->granule_rows));
  return MAX (granules, 1) * test->granule_rows;
}

/* The brute force's slices for 1 to 4 GPUs, each slice a run of its own: whole granules of rows (or the whole
 * raster). One GPU takes the largest slice. Several take slices of at most about 1e12 pairs, so that an uneven
 * machine can share them, and no other size within those caps spares the busiest GPU a granule of rows: 2048^2 went
 * to two GPUs as 1152 and 896 rows. */
static void
check_brute_force_slices (const slice_case *test, size_t gpus, const shepard_cuda_slices *plan, size_t rows)
{
  size_t largest_rows = rows_within (test, (double) test->most_queries);
  size_t shared_rows = MIN (largest_rows, rows_within (test, 1e12 / (double) test->points));
  size_t busiest = busiest_rows (test->height, rows, gpus);

  g_assert_false (plan->shared);
  g_assert_cmpuint (plan->runs, ==, plan->count);
  g_test_message ("%zu GPU(s): slices of %zu rows, the busiest GPU %zu of %zu rows", gpus, rows, busiest,
                  test->height);
  if (gpus == 1)
    {
      g_assert_cmpuint (rows, ==, MIN (largest_rows, test->height));
      return;
    }
  g_assert_cmpuint (rows, <=, shared_rows);
  for (size_t other = test->granule_rows; other <= shared_rows; other += test->granule_rows)
    g_assert_cmpuint (busiest, <, busiest_rows (test->height, other, gpus) + test->granule_rows);
}

/* The far field's: shared slices (each GPU claims the next as it can start one) of whole granules, of at most about
 * most_queries (one granule at least), several GPUs' no larger than one GPU's, and two a GPU at least where the raster
 * has the granules; as many GPUs claim them as there are slices, up to every GPU. */
static void
check_far_field_slices (const slice_case *test, size_t gpus, const shepard_cuda_slices *plan, size_t rows,
                        size_t one_gpu_rows)
{
  size_t granules = (test->height + test->granule_rows - 1) / test->granule_rows;
  size_t slices_per_gpu = 2;

  g_assert_true (plan->shared);
  g_assert_cmpuint (rows, <=, rows_within (test, (double) test->most_queries));
  g_assert_cmpuint (rows, <=, one_gpu_rows);
  if (granules >= slices_per_gpu * gpus)
    g_assert_cmpuint (plan->count, >=, slices_per_gpu * gpus);
  g_assert_cmpuint (plan->runs, ==, MIN (gpus, plan->count));
  g_test_message ("%zu GPU(s): %zu shared slices of %zu rows", gpus, plan->count, rows);
}

static void
test_slices_even (gconstpointer data)
{
  const slice_case *test = data;
  shepard_point_set points = { .n = test->points, .n_fields = 1 };
  shepard_grid raster = { .dx = 1.0, .dy = 1.0, .width = test->width, .height = test->height };
  shepard_query_set queries = { .grid = &raster, .count = test->width * test->height };
  shepard_params params = params_with_neighbourhood (SHEPARD_METHOD_AIDW, 0, 0.0);
  params.summation = test->summation;

  size_t one_gpu_rows = 0;
  for (size_t gpus = 1; gpus <= 4; gpus++)
    {
      shepard_cuda_slices plan = shepard_cuda_plan_slices (&points, &params, &queries, gpus);
      g_assert_cmpuint (plan.size % test->width, ==, 0);
      size_t rows = plan.size / test->width;
      g_assert_true (rows % test->granule_rows == 0 || rows == test->height);
      g_assert_cmpuint (plan.count, ==, (test->height + rows - 1) / rows);
      one_gpu_rows = gpus == 1 ? rows : one_gpu_rows;
      if (test->summation == SHEPARD_SUMMATION_EXACT)
        check_brute_force_slices (test, gpus, &plan, rows);
      else
        check_far_field_slices (test, gpus, &plan, rows, one_gpu_rows);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  size_t point_count = POINT_COUNT;
  const char *max_points = g_getenv ("SHEPARD_TEST_CUDA_MAX_POINTS");
  if (max_points && g_ascii_strtoull (max_points, NULL, 10) < point_count)
    {
      point_count = g_ascii_strtoull (max_points, NULL, 10);
      grid.height = SANITIZED_GRID_HEIGHT;
      grid.dy = 720.0 / SANITIZED_GRID_HEIGHT;
    }
  shared_points = point_set_new (POINT_LAYOUT_CLUSTERS, point_count, 1616);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/multi-gpu/equal-to-one/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_equal_to_one_gpu);
    }
  g_test_add_data_func ("/multi-gpu/progress-and-cancel/aidw-all-exact", &cases[0], test_progress_and_cancel);
  g_test_add_data_func ("/multi-gpu/progress-and-cancel/aidw-far-field", &cases[2], test_progress_and_cancel);
  for (size_t i = 0; i < G_N_ELEMENTS (slice_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/multi-gpu/slices-even/%s", slice_cases[i].name);
      g_test_add_data_func (path, &slice_cases[i], test_slices_even);
    }
  size_t cv_count = max_points ? MIN (g_ascii_strtoull (max_points, NULL, 10), CV_POINT_COUNT) : CV_POINT_COUNT;
  cv_points = point_set_new (POINT_LAYOUT_CLUSTERS, cv_count, 1717);
  for (size_t i = 0; i < G_N_ELEMENTS (cv_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/multi-gpu/cross-validation/equal-to-one/%s", cv_cases[i].name);
      g_test_add_data_func (path, &cv_cases[i], test_cv_equal_to_one_gpu);
    }
  g_test_add_func ("/multi-gpu/cross-validation/progress-and-cancel", test_cv_progress_and_cancel);
  int status = g_test_run ();
  point_set_free (shared_points);
  point_set_free (cv_points);
  return status;
}
