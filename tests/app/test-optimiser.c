/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The optimiser against what is known of its layers: a power found by an exhaustive scan of a float64 leave-one-out
 * written here, improvements on meuse, cancel, the MAE objective and bad input. GLib and the engine only (the
 * meuse sample is read without GDAL), so that it runs on the GPU machine too (SHEPARD_TEST_BACKEND=cuda). */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "engine-autocleanups.h"
#include "shepard-app-error.h"
#include "shepard-optimiser.h"

typedef struct {
  size_t n;
  double *x, *y, *z;
} Points;

static Points *
points_new (size_t n)
{
  Points *points = g_new0 (Points, 1);

  points->n = n;
  points->x = g_new0 (double, n);
  points->y = g_new0 (double, n);
  points->z = g_new0 (double, n);
  return points;
}

static void
points_free (Points *points)
{
  g_free (points->x);
  g_free (points->y);
  g_free (points->z);
  g_free (points);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Points, points_free)

static shepard_backend
test_backend (void)
{
  return g_strcmp0 (g_getenv ("SHEPARD_TEST_BACKEND"), "cuda") == 0 ? SHEPARD_BACKEND_CUDA : SHEPARD_BACKEND_CPU;
}

static shepard_engine *
engine_with (const Points *points, shepard_backend backend, shepard_precision precision)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, precision, 0, &error);

  if (engine == NULL)
    g_error ("no engine: %s", error.message);
  if (points->n > 0 && shepard_engine_set_points (engine, points->x, points->y, points->z, points->n, &error)
                         != SHEPARD_OK)
    g_error ("set_points: %s", error.message);
  return engine;
}

static int
column_of (char **names, const char *wanted)
{
  for (int i = 0; names[i] != NULL; i++)
    {
      g_autofree char *name = g_strdup (names[i]);
      if (strcmp (g_strstrip (g_strdelimit (name, "\"", ' ')), wanted) == 0)
        return i;
    }
  g_error ("no column %s", wanted);
}

/* log(zinc) of data/meuse.csv: plain comma-separated numbers in the columns read. */
static Points *
read_meuse_log_zinc (void)
{
  const char *root = g_getenv ("SHEPARD_SOURCE_ROOT");
  g_autofree char *path = g_build_filename (root != NULL ? root : ".", "data", "meuse.csv", NULL);
  g_autofree char *contents = NULL;
  g_autoptr (GError) error = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  g_auto (GStrv) lines = g_strsplit (contents, "\n", -1);
  g_auto (GStrv) header = g_strsplit (lines[0], ",", -1);
  int x = column_of (header, "x"), y = column_of (header, "y"), zinc = column_of (header, "zinc");
  g_autoptr (Points) points = points_new (g_strv_length (lines));
  size_t n = 0;
  for (size_t i = 1; lines[i] != NULL; i++)
    {
      if (lines[i][0] == '\0')
        continue;
      g_auto (GStrv) cells = g_strsplit (lines[i], ",", -1);
      points->x[n] = g_ascii_strtod (cells[x], NULL);
      points->y[n] = g_ascii_strtod (cells[y], NULL);
      points->z[n] = log (g_ascii_strtod (cells[zinc], NULL));
      n++;
    }
  points->n = n;
  g_assert_cmpuint (points->n, ==, 155);
  return g_steal_pointer (&points);
}

/* Leave-one-out RMSE of IDW with power p over all points, plainly in float64 (docs/METHOD.md, Eq. 1). */
static double
brute_force_loo_rmse (const Points *points, double power)
{
  double sum_squares = 0.0;

  for (size_t i = 0; i < points->n; i++)
    {
      double weights = 0.0, weighted = 0.0;
      for (size_t j = 0; j < points->n; j++)
        {
          if (j == i)
            continue;
          double dx = points->x[j] - points->x[i], dy = points->y[j] - points->y[i];
          double w = pow (dx * dx + dy * dy, -0.5 * power);
          weights += w;
          weighted += w * points->z[j];
        }
      double residual = weighted / weights - points->z[i];
      sum_squares += residual * residual;
    }
  return sqrt (sum_squares / (double) points->n);
}

/* A smooth surface sampled with noise: too low a power blurs the surface, too high a power follows the noise of the
 * nearest point, so the leave-one-out RMSE has its minimum inside the bounds. */
static Points *
noisy_surface (guint32 seed, size_t n)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (seed);
  Points *points = points_new (n);

  for (size_t i = 0; i < n; i++)
    {
      points->x[i] = g_rand_double_range (random, 0.0, 1000.0);
      points->y[i] = g_rand_double_range (random, 0.0, 1000.0);
      points->z[i] = 50.0 * sin (points->x[i] / 170.0) * cos (points->y[i] / 130.0) + 0.01 * points->x[i]
                     + g_rand_double_range (random, -20.0, 20.0);
    }
  return points;
}

typedef struct {
  double power;
  double rmse;
} ScanMinimum;

static ScanMinimum
scan (const Points *points, double from, double to, double step)
{
  ScanMinimum best = { .rmse = INFINITY };

  for (double power = from; power <= to + 0.5 * step; power += step)
    {
      double rmse = brute_force_loo_rmse (points, power);
      if (rmse < best.rmse)
        best = (ScanMinimum) { power, rmse };
    }
  return best;
}

static ShepardOptimiseResult
optimise_ok (shepard_engine *engine, const shepard_params *start, const ShepardOptimiseOptions *options)
{
  ShepardOptimiseResult result;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_optimise (engine, start, options, &result, NULL, NULL, &error));
  g_assert_no_error (error);
  g_test_message ("score %.6g -> %.6g in %u evaluations", result.start_score, result.best_score, result.evaluations);
  return result;
}

/* Field by field: the padding of a struct copy is anyone's. */
static void
assert_same_params (const shepard_params *actual, const shepard_params *expected)
{
  g_assert_cmpint (actual->method, ==, expected->method);
  g_assert_cmpfloat (actual->power, ==, expected->power);
  g_assert_cmpint (actual->k, ==, expected->k);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (actual->alpha[level], ==, expected->alpha[level]);
  g_assert_cmpfloat (actual->r_min, ==, expected->r_min);
  g_assert_cmpfloat (actual->r_max, ==, expected->r_max);
  g_assert_cmpint (actual->area_mode, ==, expected->area_mode);
  g_assert_cmpfloat (actual->area, ==, expected->area);
  g_assert_cmpint (actual->neighbors, ==, expected->neighbors);
  g_assert_cmpint (actual->rexp, ==, expected->rexp);
}

static void
assert_same_summary (const shepard_cv_summary *actual, const shepard_cv_summary *expected)
{
  g_assert_cmpuint (actual->n, ==, expected->n);
  g_assert_cmpfloat (actual->me, ==, expected->me);
  g_assert_cmpfloat (actual->mae, ==, expected->mae);
  g_assert_cmpfloat (actual->rmse, ==, expected->rmse);
  g_assert_cmpfloat (actual->r2, ==, expected->r2);
}

static void
assert_consistent (shepard_engine *engine, const ShepardOptimiseResult *result, const ShepardOptimiseOptions *options,
                   const shepard_params *start)
{
  guint budget = options->max_evaluations > 0 ? options->max_evaluations : SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS;

  assert_same_params (&result->start, start);
  g_assert_cmpuint (result->evaluations, >=, 1);
  g_assert_cmpuint (result->evaluations, <=, budget);
  g_assert_cmpfloat (result->best_score, <=, result->start_score);
  g_assert_cmpfloat (result->start_score, ==, shepard_objective_score (options->objective, &result->start_summary));
  g_assert_cmpfloat (result->best_score, ==, shepard_objective_score (options->objective, &result->best_summary));

  /* The best summary is what the engine gives the best parameters. */
  shepard_cv_summary again;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_cross_validate (engine, &result->best, options->folds, options->seed, NULL, &again,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  g_assert_cmpfloat (again.rmse, ==, result->best_summary.rmse);
  g_assert_cmpfloat (again.mae, ==, result->best_summary.mae);

  shepard_error invalid = { 0 };
  g_assert_cmpint (shepard_params_validate (&result->best, &invalid), ==, SHEPARD_OK);
  g_assert_cmpint (result->best.method, ==, start->method);
  g_assert_cmpint (result->best.neighbors, ==, start->neighbors);
  g_assert_cmpint (result->best.area_mode, ==, start->area_mode);
  g_assert_cmpint (result->best.rexp, ==, start->rexp);
}

static void
test_known_power (void)
{
  g_autoptr (Points) points = noisy_surface (20261124, 150);
  g_autoptr (shepard_engine) engine = engine_with (points, SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64);

  /* The engine's objective is the one written here. */
  shepard_params start;
  shepard_params_init_idw (&start);
  shepard_cv_summary summary;
  shepard_error engine_error = { 0 };
  g_assert_cmpint (shepard_engine_cross_validate (engine, &start, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, &summary, NULL,
                                                  NULL, &engine_error),
                   ==, SHEPARD_OK);
  double reference = brute_force_loo_rmse (points, 2.0);
  g_assert_cmpfloat (fabs (summary.rmse - reference), <=, 1e-12 * reference);

  ScanMinimum coarse = scan (points, 0.25, 8.0, 0.01);
  ScanMinimum fine = scan (points, coarse.power - 0.01, coarse.power + 0.01, 1e-5);
  g_test_message ("scan: minimum RMSE %.12g at p = %.5f (coarse %.2f; %.12g at p = 0.25, %.12g at p = 8)", fine.rmse,
                  fine.power, coarse.power, brute_force_loo_rmse (points, 0.25), brute_force_loo_rmse (points, 8.0));
  /* Clearly inside: the ends are well above the minimum. */
  g_assert_cmpfloat (fine.power, >, 1.0);
  g_assert_cmpfloat (fine.power, <, 6.0);
  g_assert_cmpfloat (brute_force_loo_rmse (points, 0.25), >, 1.05 * fine.rmse);
  g_assert_cmpfloat (brute_force_loo_rmse (points, 8.0), >, 1.05 * fine.rmse);

  ShepardOptimiseOptions options;
  shepard_optimise_options_init (&options);
  ShepardOptimiseResult result = optimise_ok (engine, &start, &options);
  g_test_message ("optimiser: RMSE %.12g at p = %.7f", result.best_score, result.best.power);
  assert_consistent (engine, &result, &options, &start);
  g_assert_cmpfloat (fabs (result.best.power - fine.power), <, 2e-3);
  g_assert_cmpfloat (result.best_score, <=, fine.rmse * (1.0 + 1e-10));
}

static void
assert_rising (const shepard_params *params)
{
  for (int level = 1; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (params->alpha[level], >=, params->alpha[level - 1]);
}

static void
test_meuse (gconstpointer data)
{
  shepard_method method = GPOINTER_TO_INT (data);
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  if (method == SHEPARD_METHOD_IDW)
    shepard_params_init_idw (&start);
  else
    shepard_params_init_aidw (&start);
  shepard_optimise_options_init (&options);
  ShepardOptimiseResult result = optimise_ok (engine, &start, &options);
  g_autofree char *alphas = g_strdup_printf ("%g %g %g %g %g", result.best.alpha[0], result.best.alpha[1],
                                             result.best.alpha[2], result.best.alpha[3], result.best.alpha[4]);
  g_test_message ("best: power %g, k %d, alpha %s, R %g to %g", result.best.power, result.best.k, alphas,
                  result.best.r_min, result.best.r_max);

  assert_consistent (engine, &result, &options, &start);
  /* docs/METHOD.md's float64 reference figures, which float32 keeps to 1e-5 of the values' scale. */
  g_assert_cmpfloat (fabs (result.start_score - (method == SHEPARD_METHOD_IDW ? 0.5138 : 0.4538)), <, 1e-4);
  g_assert_cmpfloat (result.best_score, <, 0.99 * result.start_score);
  if (method == SHEPARD_METHOD_AIDW)
    {
      assert_rising (&result.best);
      g_assert_cmpfloat (result.best.r_min, >=, 0.0);
      g_assert_cmpfloat (result.best.r_max, >, result.best.r_min);
      g_assert_cmpint (result.best.k, <, 154);
    }
}

static void
test_meuse_free_alphas (void)
{
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  shepard_params_init_aidw (&start);
  shepard_optimise_options_init (&options);
  options.free_alphas = TRUE;
  options.max_evaluations = 120;
  ShepardOptimiseResult result = optimise_ok (engine, &start, &options);
  assert_consistent (engine, &result, &options, &start);
  g_assert_cmpfloat (result.best_score, <, result.start_score);
}

static void
test_mae (void)
{
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  shepard_params_init_idw (&start);
  shepard_optimise_options_init (&options);
  options.objective = SHEPARD_OBJECTIVE_MAE;
  ShepardOptimiseResult result = optimise_ok (engine, &start, &options);

  assert_consistent (engine, &result, &options, &start);
  g_assert_cmpfloat (result.start_score, ==, result.start_summary.mae);
  g_assert_cmpfloat (result.best_score, <, 0.99 * result.start_score);
  g_assert_cmpstr (shepard_objective_name (SHEPARD_OBJECTIVE_MAE), ==, "mae");
}

/* k-fold with a seed: the same folds every evaluation, the same result every run. */
static void
test_k_fold_reproducible (void)
{
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  shepard_params_init_aidw (&start);
  start.k = 10;
  shepard_optimise_options_init (&options);
  options.folds = 5;
  options.seed = 42;
  options.max_evaluations = 80;
  ShepardOptimiseResult first = optimise_ok (engine, &start, &options);
  ShepardOptimiseResult second = optimise_ok (engine, &start, &options);

  assert_consistent (engine, &first, &options, &start);
  assert_same_params (&first.best, &second.best);
  assert_same_summary (&first.best_summary, &second.best_summary);
  assert_same_summary (&first.start_summary, &second.start_summary);
  g_assert_cmpuint (first.evaluations, ==, second.evaluations);
  g_assert_cmpfloat (first.best_score, <, first.start_score);
}

/* Points on a square lattice of unit spacing with random values, each predicted from its 2 nearest: both lie at
 * distance 1, where every power gives the weight 1, so no parameter changes any prediction, and every evaluation
 * scores the same as the start. */
static Points *
lattice (guint32 seed, size_t side)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (seed);
  Points *points = points_new (side * side);

  for (size_t i = 0; i < points->n; i++)
    {
      points->x[i] = (double) (i % side);
      points->y[i] = (double) (i / side);
      points->z[i] = g_rand_double_range (random, 0.0, 100.0);
    }
  return points;
}

/* The result is never worse than the start, and where nothing is strictly better the start itself comes back, bit
 * for bit, however many parameters were tried: with a budget of one evaluation, and on a layer where no parameter
 * changes the score. */
static void
test_never_worse (gconstpointer data)
{
  shepard_method method = GPOINTER_TO_INT (data);
  g_autoptr (Points) meuse = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) meuse_engine = engine_with (meuse, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  if (method == SHEPARD_METHOD_IDW)
    shepard_params_init_idw (&start);
  else
    shepard_params_init_aidw (&start);
  shepard_optimise_options_init (&options);
  options.max_evaluations = 1;
  ShepardOptimiseResult result = optimise_ok (meuse_engine, &start, &options);
  g_assert_cmpuint (result.evaluations, ==, 1);
  assert_same_params (&result.best, &start);
  assert_same_summary (&result.best_summary, &result.start_summary);
  g_assert_cmpfloat (result.best_score, ==, result.start_score);

  g_autoptr (Points) points = lattice (31, 8);
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  start.neighbors = 2;
  options.max_evaluations = 60;
  result = optimise_ok (engine, &start, &options);
  assert_consistent (engine, &result, &options, &start);
  g_assert_cmpuint (result.evaluations, >, 1);
  assert_same_params (&result.best, &start);
  assert_same_summary (&result.best_summary, &result.start_summary);
  g_assert_cmpfloat (result.best_score, ==, result.start_score);
  /* The layer does what it is meant to: another power, and for AIDW other alphas and k, score the same. */
  shepard_params other = start;
  other.power = 5.0;
  other.k = 7;
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    other.alpha[level] = 0.5 + level;
  shepard_cv_summary other_summary;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_cross_validate (engine, &other, options.folds, options.seed, NULL, &other_summary,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  assert_same_summary (&other_summary, &result.start_summary);
}

/* A start outside the optimiser's constraints (alphas not rising) is searched from the nearest rising set. */
static void
test_start_not_rising (void)
{
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;

  shepard_params_init_aidw (&start);
  start.alpha[2] = 1.0;
  shepard_optimise_options_init (&options);
  options.max_evaluations = 40;
  ShepardOptimiseResult result = optimise_ok (engine, &start, &options);
  assert_consistent (engine, &result, &options, &start);
  g_assert_cmpfloat (result.best_score, <, result.start_score);
  assert_rising (&result.best);
}

typedef struct {
  double cancel_after; /* the callback refuses once the fraction passes this */
  gint64 refused_at;
  guint calls_after_refusal;
  double last_fraction;
  gboolean decreased;
} CancelWatch;

static bool
cancel_progress (double fraction, const char *message, void *data)
{
  CancelWatch *watch = data;

  g_assert_true (fraction >= 0.0 && fraction <= 1.0);
  watch->decreased = watch->decreased || fraction < watch->last_fraction;
  watch->last_fraction = fraction;
  if (watch->refused_at != 0)
    {
      watch->calls_after_refusal++;
      return false;
    }
  if (fraction < watch->cancel_after)
    return true;
  watch->refused_at = g_get_monotonic_time ();
  return false;
}

/* Random points, many enough that one leave-one-out over all of them takes a good part of a second: the cancel
 * comes inside a cross-validation and must be answered there. */
static void
test_cancel (void)
{
  g_autoptr (Points) points = noisy_surface (7, 20000);
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;
  ShepardOptimiseResult result, untouched;
  g_autoptr (GError) error = NULL;

  shepard_params_init_idw (&start);
  shepard_optimise_options_init (&options);
  options.max_evaluations = 20;
  memset (&result, 0xa5, sizeof result);
  untouched = result;
  /* Half-way through the second cross-validation. */
  CancelWatch watch = { .cancel_after = 1.5 / options.max_evaluations };
  gboolean optimised = shepard_optimise (engine, &start, &options, &result, cancel_progress, &watch, &error);
  double seconds = (g_get_monotonic_time () - watch.refused_at) / (double) G_TIME_SPAN_SECOND;

  g_test_message ("returned %.3f s after the cancel; %u calls after it", seconds, watch.calls_after_refusal);
  g_assert_false (optimised);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
  g_assert_cmpint (watch.refused_at, !=, 0);
  /* The refusal is final: neither the engine nor the optimiser asks again, let alone goes on with the search. */
  g_assert_cmpuint (watch.calls_after_refusal, ==, 0);
  g_assert_false (watch.decreased);
  g_assert_cmpmem (&result, sizeof result, &untouched, sizeof untouched);
  /* The engine answers within ~100 ms; a loaded test machine gets some slack. */
  g_assert_cmpfloat (seconds, <, 0.5);
}

static void
test_progress_reaches_end (void)
{
  g_autoptr (Points) points = read_meuse_log_zinc ();
  g_autoptr (shepard_engine) engine = engine_with (points, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;
  ShepardOptimiseResult result;
  g_autoptr (GError) error = NULL;

  shepard_params_init_aidw (&start);
  shepard_optimise_options_init (&options);
  options.max_evaluations = 50;
  CancelWatch watch = { .cancel_after = 2.0 };
  g_assert_true (shepard_optimise (engine, &start, &options, &result, cancel_progress, &watch, &error));
  g_assert_no_error (error);
  g_assert_false (watch.decreased);
  g_assert_cmpfloat (watch.last_fraction, ==, 1.0);
}

typedef struct {
  const char *name;
  size_t n_points;          /* of meuse, from the first */
  shepard_method method;
  int k;
  double power;
  size_t folds;
  ShepardAppError code;
  const char *message_part; /* the message must name what is wrong */
} BadCase;

static const BadCase bad_cases[] = {
  { "two-points", 2, SHEPARD_METHOD_IDW, 15, 2.0, SHEPARD_FOLDS_LEAVE_ONE_OUT, SHEPARD_APP_ERROR_INVALID_PARAMETER,
    "at least 3" },
  { "no-points", 0, SHEPARD_METHOD_IDW, 15, 2.0, SHEPARD_FOLDS_LEAVE_ONE_OUT, SHEPARD_APP_ERROR_NO_POINTS, "3" },
  { "k-too-large", 155, SHEPARD_METHOD_AIDW, 154, 2.0, SHEPARD_FOLDS_LEAVE_ONE_OUT,
    SHEPARD_APP_ERROR_INVALID_PARAMETER, "below 154" },
  { "negative-power", 155, SHEPARD_METHOD_IDW, 15, -1.0, SHEPARD_FOLDS_LEAVE_ONE_OUT,
    SHEPARD_APP_ERROR_INVALID_PARAMETER, "power" },
  { "folds-above-n", 155, SHEPARD_METHOD_IDW, 15, 2.0, 156, SHEPARD_APP_ERROR_INVALID_PARAMETER, "folds" },
  { "one-fold", 155, SHEPARD_METHOD_IDW, 15, 2.0, 1, SHEPARD_APP_ERROR_INVALID_PARAMETER, "folds" },
};

static void
test_bad_input (gconstpointer data)
{
  const BadCase *bad = data;
  g_autoptr (Points) meuse = read_meuse_log_zinc ();
  meuse->n = bad->n_points;
  g_autoptr (shepard_engine) engine = engine_with (meuse, test_backend (), SHEPARD_PRECISION_FLOAT32);
  shepard_params start;
  ShepardOptimiseOptions options;
  ShepardOptimiseResult result, untouched;
  g_autoptr (GError) error = NULL;

  if (bad->method == SHEPARD_METHOD_IDW)
    shepard_params_init_idw (&start);
  else
    shepard_params_init_aidw (&start);
  start.k = bad->k;
  start.power = bad->power;
  shepard_optimise_options_init (&options);
  options.folds = bad->folds;
  memset (&result, 0x5a, sizeof result);
  untouched = result;

  g_assert_false (shepard_optimise (engine, &start, &options, &result, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, (gint) bad->code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, bad->message_part));
  g_assert_cmpmem (&result, sizeof result, &untouched, sizeof untouched);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/analysis/optimiser/known-power", test_known_power);
  g_test_add_data_func ("/analysis/optimiser/meuse/idw", GINT_TO_POINTER (SHEPARD_METHOD_IDW), test_meuse);
  g_test_add_data_func ("/analysis/optimiser/meuse/aidw", GINT_TO_POINTER (SHEPARD_METHOD_AIDW), test_meuse);
  g_test_add_func ("/analysis/optimiser/meuse/free-alphas", test_meuse_free_alphas);
  g_test_add_func ("/analysis/optimiser/mae", test_mae);
  g_test_add_func ("/analysis/optimiser/k-fold-reproducible", test_k_fold_reproducible);
  g_test_add_data_func ("/analysis/optimiser/never-worse/idw", GINT_TO_POINTER (SHEPARD_METHOD_IDW), test_never_worse);
  g_test_add_data_func ("/analysis/optimiser/never-worse/aidw", GINT_TO_POINTER (SHEPARD_METHOD_AIDW),
                        test_never_worse);
  g_test_add_func ("/analysis/optimiser/start-not-rising", test_start_not_rising);
  g_test_add_func ("/analysis/optimiser/progress", test_progress_reaches_end);
  g_test_add_func ("/analysis/optimiser/cancel", test_cancel);
  for (size_t i = 0; i < G_N_ELEMENTS (bad_cases); i++)
    {
      g_autofree char *path = g_strconcat ("/analysis/optimiser/bad-input/", bad_cases[i].name, NULL);
      g_test_add_data_func (path, &bad_cases[i], test_bad_input);
    }
  return g_test_run ();
}
