/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cross-validation through the engine (leave-one-out and k-fold, IDW and AIDW, all points and the N nearest, float64
 * and float32, on the backend SHEPARD_TEST_BACKEND names) against a brute-force float64 reference that predicts each
 * point from an explicit copy of the points outside its fold; hand-computed cases; the folds; bad requests. */
#include <glib.h>
#include <math.h>

#include "engine-test-support.h"
#include "reference-interpolation.h"

/* As test-interpolation: float64 engine and reference differ by a few ulps per term; float32 is the engine's
 * documented promise, relative to the largest |z|. */
#define FLOAT64_TOLERANCE 1e-11
#define FLOAT32_TOLERANCE 1e-5
#define POINT_COUNT 300

static const shepard_precision precisions[] = { SHEPARD_PRECISION_FLOAT64, SHEPARD_PRECISION_FLOAT32 };

typedef enum {
  METHOD_IDW_P2,
  METHOD_IDW_P3_LOCAL,
  METHOD_AIDW_DEFAULT,
  METHOD_AIDW_LOCAL,
  METHOD_AIDW_KNN_REXP, /* rexp=knn, convex hull area, Rmin above 0: every step that differs from the defaults */
} method_choice;

static const char *const method_names[] = { "idw-p2", "idw-p3-local", "aidw-default", "aidw-local",
                                            "aidw-knn-rexp" };

static shepard_params
method_params (method_choice method)
{
  shepard_params params;
  switch (method)
    {
    case METHOD_IDW_P2:
      shepard_params_init_idw (&params);
      break;
    case METHOD_IDW_P3_LOCAL:
      shepard_params_init_idw (&params);
      params.power = 3.0;
      params.neighbors = 12;
      break;
    case METHOD_AIDW_DEFAULT:
      shepard_params_init_aidw (&params);
      break;
    case METHOD_AIDW_LOCAL:
      shepard_params_init_aidw (&params);
      params.k = 10;
      params.neighbors = 16;
      break;
    case METHOD_AIDW_KNN_REXP:
      shepard_params_init_aidw (&params);
      params.rexp = SHEPARD_REXP_KNN;
      params.area_mode = SHEPARD_AREA_CONVEX_HULL;
      params.r_min = 0.3;
      params.r_max = 1.8;
      params.alpha[0] = 1.0;
      params.alpha[4] = 5.0;
      break;
    }
  return params;
}

typedef struct {
  point_layout layout;
  method_choice method;
  size_t folds;
} cv_case;

/* Every point predicted the slow way: a reference over a copy of the points outside its fold, with AIDW's r_exp over
 * that many points and the study area (and coincident tolerance) of all of them. */
static void
reference_cross_validate (const point_set *points, const shepard_params *params, const size_t *fold_of,
                          reference_result *expected)
{
  reference_data all;
  reference_data_init (&all, points->x, points->y, points->z, points->count);
  point_set *training = point_set_new_empty (points->count);
  shepard_params training_params = *params;
  training_params.area_mode = SHEPARD_AREA_GIVEN;
  training_params.area = reference_study_area (&all, params->area_mode, params->area);
  for (size_t i = 0; i < points->count; i++)
    {
      size_t kept = 0;
      for (size_t j = 0; j < points->count; j++)
        if (fold_of[j] != fold_of[i])
          {
            training->x[kept] = points->x[j];
            training->y[kept] = points->y[j];
            training->z[kept] = points->z[j];
            kept++;
          }
      reference_data data;
      reference_data_init (&data, training->x, training->y, training->z, kept);
      data.coincident_distance = all.coincident_distance;
      reference_interpolate (&data, &training_params, points->x[i], points->y[i], &expected[i]);
    }
  point_set_free (training);
}

static void
test_against_reference (gconstpointer data)
{
  const cv_case *test_case = data;
  shepard_params params = method_params (test_case->method);
  point_set *points = point_set_new (test_case->layout, POINT_COUNT, 7000 + test_case->layout);
  double scale = point_set_value_scale (points);
  size_t n = points->count;

  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
      g_test_message ("%s on %s", precision_name (precisions[p]), shepard_engine_describe (engine));
      double *prediction = g_new (double, n), *residual = g_new (double, n), *alpha = g_new (double, n);
      size_t *fold = g_new (size_t, n);
      shepard_cv_outputs outputs = { prediction, residual, alpha, fold };
      shepard_cv_summary summary;
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_cross_validate (engine, &params, test_case->folds, 42, &outputs, &summary,
                                                           NULL, NULL, &error),
                            &error, SHEPARD_OK);

      if (test_case->folds == SHEPARD_FOLDS_LEAVE_ONE_OUT)
        for (size_t i = 0; i < n; i++)
          g_assert_cmpuint (fold[i], ==, i);
      reference_result *expected = g_new (reference_result, n);
      reference_cross_validate (points, &params, fold, expected);

      double tolerance = precisions[p] == SHEPARD_PRECISION_FLOAT64 ? FLOAT64_TOLERANCE : FLOAT32_TOLERANCE;
      deviation_tally values, alphas;
      deviation_tally_init (&values, "prediction", tolerance);
      deviation_tally_init (&alphas, "alpha", params.method == SHEPARD_METHOD_AIDW ? 1e-9 : 0.0);
      for (size_t i = 0; i < n; i++)
        {
          g_assert_cmpfloat (residual[i], ==, prediction[i] - points->z[i]);
          if (expected[i].neighbourhood_ambiguous)
            continue;
          /* Per prediction, relative to it (the values are all of order 10 to 90): the promise. */
          deviation_tally_add (&values, i, prediction[i], expected[i].value, fabs (expected[i].value));
          if (params.method == SHEPARD_METHOD_AIDW)
            deviation_tally_add (&alphas, i, alpha[i], expected[i].alpha, 1.0);
          else
            g_assert_cmpfloat (alpha[i], ==, params.power);
        }
      deviation_tally_check (&values);
      if (params.method == SHEPARD_METHOD_AIDW)
        deviation_tally_check (&alphas);

      /* The summary, recomputed here from the engine's own predictions. */
      double sum = 0.0, sum_abs = 0.0, sum_sq = 0.0, mean_z = 0.0, total = 0.0;
      for (size_t i = 0; i < n; i++)
        {
          double r = prediction[i] - points->z[i];
          sum += r;
          sum_abs += fabs (r);
          sum_sq += r * r;
          mean_z += points->z[i] / (double) n;
        }
      for (size_t i = 0; i < n; i++)
        total += (points->z[i] - mean_z) * (points->z[i] - mean_z);
      g_assert_cmpuint (summary.n, ==, n);
      g_assert_cmpfloat_with_epsilon (summary.me, sum / (double) n, 1e-12 * scale);
      g_assert_cmpfloat_with_epsilon (summary.mae, sum_abs / (double) n, 1e-12 * scale);
      g_assert_cmpfloat_with_epsilon (summary.rmse, sqrt (sum_sq / (double) n), 1e-12 * scale);
      g_assert_cmpfloat_with_epsilon (summary.r2, 1.0 - sum_sq / total, 1e-9);
      g_test_message ("RMSE %.9g, R2 %.6f", summary.rmse, summary.r2);

      /* The summary alone, with no per-point outputs, is the same. */
      shepard_cv_summary alone;
      assert_engine_status (shepard_engine_cross_validate (engine, &params, test_case->folds, 42, NULL, &alone, NULL,
                                                           NULL, &error),
                            &error, SHEPARD_OK);
      g_assert_cmpmem (&alone, sizeof alone, &summary, sizeof summary);

      g_free (expected);
      g_free (prediction);
      g_free (residual);
      g_free (alpha);
      g_free (fold);
      shepard_engine_free (engine);
    }
  point_set_free (points);
}

/* Two samples at one spot are two measurements: leaving one out, the other is still there and the prediction at that
 * spot is its value. The third point is predicted by hand: IDW p = 2 from distances 1, 1 and sqrt 2. */
static void
test_duplicates_stay_in (void)
{
  point_set *points = point_set_new_empty (4);
  const double x[] = { 0, 0, 1, 0 }, y[] = { 0, 0, 0, 1 }, z[] = { 1, 3, 10, 20 };
  memcpy (points->x, x, sizeof x);
  memcpy (points->y, y, sizeof y);
  memcpy (points->z, z, sizeof z);
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
      shepard_params params;
      shepard_params_init_idw (&params);
      double prediction[4];
      shepard_cv_outputs outputs = { .prediction = prediction };
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, &outputs,
                                                           NULL, NULL, NULL, &error),
                            &error, SHEPARD_OK);
      g_assert_cmpfloat_with_epsilon (prediction[0], 3.0, 1e-6);
      g_assert_cmpfloat_with_epsilon (prediction[1], 1.0, 1e-6);
      /* weights 1, 1 and 1/2: (1 + 3 + 20 / 2) / 2.5 */
      g_assert_cmpfloat_with_epsilon (prediction[2], 14.0 / 2.5, 1e-5);
      /* weights 1, 1 (the pair at the origin) and 1/2 (the point at (1, 0)): (1 + 3 + 5) / 2.5 */
      g_assert_cmpfloat_with_epsilon (prediction[3], 9.0 / 2.5, 1e-5);
      shepard_engine_free (engine);
    }
  point_set_free (points);
}

/* r_exp of a held-out prediction: n - 1 points over the area of all n. On a lattice of 5 x 5 points one apart, the
 * corner point is predicted with k = 3 from its three nearest neighbours at 1, 1 and sqrt 2; the bounding box of all
 * 25 points is 4 x 4 (without the corner it is still 4 x 4, so the area cannot tell; the count can). */
static void
test_expected_distance_convention (void)
{
  point_set *points = point_set_new_empty (25);
  for (size_t i = 0; i < 25; i++)
    {
      points->x[i] = (double) (i % 5);
      points->y[i] = (double) (i / 5);
      points->z[i] = (double) (i * i % 7);
    }
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 1, points);
  shepard_params params;
  shepard_params_init_aidw (&params);
  params.k = 3;
  params.r_max = 6.0; /* R is about 2.8: mid-way, where alpha moves with it */
  double alpha[25];
  shepard_cv_outputs outputs = { .alpha = alpha };
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, &outputs,
                                                       NULL, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  double r_obs = (1.0 + 1.0 + sqrt (2.0)) / 3.0;
  double r_exp = 1.0 / (2.0 * sqrt (24.0 / 16.0));
  double mu = 0.5 - 0.5 * cos (G_PI * (r_obs / r_exp) / 6.0);
  g_assert_cmpfloat_with_epsilon (alpha[0], shepard_aidw_alpha (mu, params.alpha), 1e-12);
  /* With n = 25 (the point not held out of the count) alpha would differ: the test can tell. */
  double wrong_mu = 0.5 - 0.5 * cos (G_PI * (r_obs / (1.0 / (2.0 * sqrt (25.0 / 16.0)))) / 6.0);
  g_assert_cmpfloat (fabs (shepard_aidw_alpha (wrong_mu, params.alpha) - alpha[0]), >, 1e-3);
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_folds (void)
{
  enum { N = 103, FOLDS = 10 };
  uint32_t first[N], again[N], other[N];
  shepard_cv_assign_folds (N, FOLDS, 5, first);
  shepard_cv_assign_folds (N, FOLDS, 5, again);
  shepard_cv_assign_folds (N, FOLDS, 6, other);
  size_t sizes[FOLDS] = { 0 };
  gboolean differs = FALSE, shuffled = FALSE;
  for (size_t i = 0; i < N; i++)
    {
      g_assert_cmpuint (first[i], <, FOLDS);
      g_assert_cmpuint (first[i], ==, again[i]);
      differs |= first[i] != other[i];
      shuffled |= first[i] != i % FOLDS;
      sizes[first[i]]++;
    }
  g_assert_true (differs);
  g_assert_true (shuffled);
  /* 103 = 10 * 10 + 3: folds 0, 1 and 2 hold one point more. */
  for (size_t f = 0; f < FOLDS; f++)
    g_assert_cmpuint (sizes[f], ==, f < 3 ? 11 : 10);

  /* The same folds on every machine: these come from a separate implementation of the documented deal (SplitMix64
   * from the seed, draws below 2^64 mod i redrawn, Fisher-Yates from the last label down), in Python. */
  static const uint32_t pinned_10_3_seed_1[] = { 1, 2, 2, 1, 0, 0, 0, 0, 1, 2 };
  static const uint32_t pinned_12_4_seed_2026[] = { 3, 3, 1, 1, 2, 0, 2, 1, 0, 0, 2, 3 };
  uint32_t dealt[12];
  shepard_cv_assign_folds (10, 3, 1, dealt);
  for (size_t i = 0; i < 10; i++)
    g_assert_cmpuint (dealt[i], ==, pinned_10_3_seed_1[i]);
  shepard_cv_assign_folds (12, 4, 2026, dealt);
  for (size_t i = 0; i < 12; i++)
    g_assert_cmpuint (dealt[i], ==, pinned_12_4_seed_2026[i]);

  /* The engine deals the same folds for the same seed, and says which. */
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, N, 11);
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  shepard_params params;
  shepard_params_init_idw (&params);
  size_t fold[N];
  shepard_cv_outputs outputs = { .fold = fold };
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, FOLDS, 5, &outputs, NULL, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  for (size_t i = 0; i < N; i++)
    g_assert_cmpuint (fold[i], ==, first[i]);
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_bad_requests (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 20, 3);
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT32, 0, points);
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_error error = { 0 };
  shepard_cv_summary summary;

  params.k = 19; /* n - 1 */
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_test_message ("k = n - 1: %s", error.message);
  params.k = 18;
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  /* 4 folds of 5: 15 points left for each fold, so k = 15 is too many and 14 is fine. */
  params.k = 15;
  assert_engine_status (shepard_engine_cross_validate (engine, &params, 4, 1, NULL, &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_test_message ("k too large for 4 folds: %s", error.message);
  params.k = 14;
  assert_engine_status (shepard_engine_cross_validate (engine, &params, 4, 1, NULL, &summary, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_cross_validate (engine, &params, 1, 1, NULL, &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_test_message ("1 fold: %s", error.message);
  assert_engine_status (shepard_engine_cross_validate (engine, &params, 21, 1, NULL, &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_test_message ("21 folds of 20 points: %s", error.message);
  /* As many folds as points: one point each, leave-one-out in another order. */
  assert_engine_status (shepard_engine_cross_validate (engine, &params, 20, 1, NULL, &summary, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  shepard_engine_free (engine);

  point_set *two = point_set_new (POINT_LAYOUT_UNIFORM, 2, 4);
  engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT32, 0, two);
  shepard_params_init_idw (&params);
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_test_message ("2 points: %s", error.message);
  shepard_engine_free (engine);
  point_set_free (two);

  engine = shepard_engine_new (test_backend (), SHEPARD_PRECISION_FLOAT32, 0, &error);
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_NO_POINTS);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* All observed values equal: R^2 has no meaning, and says so with NaN; the errors are still exact (0). */
static void
test_constant_field (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 50, 8);
  for (size_t i = 0; i < points->count; i++)
    points->z[i] = 7.0;
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT32, 0, points);
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_cv_summary summary;
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  g_assert_true (isnan (summary.r2));
  g_assert_cmpfloat (summary.rmse, <, 1e-5);
  shepard_engine_free (engine);
  point_set_free (points);
}

static bool
cancel_at_once (double fraction, const char *message, void *data)
{
  return false;
}

static void
test_cancel (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 9);
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT32, 0, points);
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_cv_summary summary = { .n = 12345 };
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                                       &summary, cancel_at_once, NULL, &error),
                        &error, SHEPARD_ERROR_CANCELLED);
  g_assert_cmpuint (summary.n, ==, 12345);
  shepard_engine_free (engine);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  static const point_layout layouts[] = { POINT_LAYOUT_UNIFORM, POINT_LAYOUT_CLUSTERS, POINT_LAYOUT_DUPLICATES,
                                          POINT_LAYOUT_UTM, POINT_LAYOUT_CLUSTER_OUTLIERS };
  static const size_t fold_choices[] = { SHEPARD_FOLDS_LEAVE_ONE_OUT, 7 };
  for (size_t l = 0; l < G_N_ELEMENTS (layouts); l++)
    for (size_t m = 0; m < G_N_ELEMENTS (method_names); m++)
      for (size_t f = 0; f < G_N_ELEMENTS (fold_choices); f++)
        {
          cv_case *test_case = g_new (cv_case, 1);
          *test_case = (cv_case) { layouts[l], (method_choice) m, fold_choices[f] };
          g_autofree char *folds = fold_choices[f] == SHEPARD_FOLDS_LEAVE_ONE_OUT
                                     ? g_strdup ("loo")
                                     : g_strdup_printf ("%zu-fold", fold_choices[f]);
          g_autofree char *path = g_strdup_printf ("/compute/cross-validation/%s/%s/%s",
                                                   point_layout_name (layouts[l]), method_names[m], folds);
          g_test_add_data_func_full (path, test_case, test_against_reference, g_free);
        }
  g_test_add_func ("/compute/cross-validation/duplicates-stay-in", test_duplicates_stay_in);
  g_test_add_func ("/compute/cross-validation/expected-distance-convention", test_expected_distance_convention);
  g_test_add_func ("/compute/cross-validation/folds", test_folds);
  g_test_add_func ("/compute/cross-validation/bad-requests", test_bad_requests);
  g_test_add_func ("/compute/cross-validation/constant-field", test_constant_field);
  g_test_add_func ("/compute/cross-validation/cancel", test_cancel);
  return g_test_run ();
}
