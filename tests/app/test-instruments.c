/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The instruments behind the window, without a display, on meuse: the cross-validation, the explanation, the
 * distributions and the comparison they deliver equal what the engine computes directly; work for parameters the
 * hand has moved past is dropped; and the saturation of the papers' defaults shows (96 % of a 120 x 120 grid at
 * alpha5, as measured with a float64 reference). */
#include <gio/gio.h>
#include <math.h>
#include <string.h>

#include "main-loop-wait.h"
#include "shepard-instruments.h"

#define LONG_SIDE 64

typedef struct {
  ShepardPreview *preview;
  ShepardInstruments *instruments;
  ShepardDocument *document;
  GPtrArray *validations;  /* of ShepardCrossValidation, in the order delivered */
  GPtrArray *explanations; /* of ShepardExplanation */
  guint distributions;
  guint comparisons;
  guint failures;
} Fixture;

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(ShepardDocument **) user_data = shepard_document_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
on_cross_validated (ShepardInstruments *instruments, ShepardCrossValidation *validation, Fixture *fixture)
{
  g_ptr_array_add (fixture->validations, shepard_cross_validation_ref (validation));
}

static void
on_explained (ShepardInstruments *instruments, ShepardExplanation *explanation, Fixture *fixture)
{
  g_ptr_array_add (fixture->explanations, shepard_explanation_ref (explanation));
}

static void
on_distributions (ShepardInstruments *instruments, Fixture *fixture)
{
  fixture->distributions++;
}

static void
on_comparison (ShepardInstruments *instruments, ShepardSurface *difference, Fixture *fixture)
{
  fixture->comparisons++;
}

static void
on_failed (ShepardInstruments *instruments, const char *what, const char *message, Fixture *fixture)
{
  g_test_message ("%s failed: %s", what, message);
  fixture->failures++;
}

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);

  shepard_document_load_async (path, "zinc", NULL, on_loaded, &fixture->document);
  g_assert_true (wait_until (is_set, &fixture->document));
  fixture->preview = shepard_preview_new ();
  shepard_preview_set_document (fixture->preview, fixture->document);
  fixture->instruments = shepard_instruments_new (fixture->preview);
  fixture->validations = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_cross_validation_unref);
  fixture->explanations = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_explanation_unref);
  g_signal_connect (fixture->instruments, "cross-validated", G_CALLBACK (on_cross_validated), fixture);
  g_signal_connect (fixture->instruments, "explained", G_CALLBACK (on_explained), fixture);
  g_signal_connect (fixture->instruments, "distributions", G_CALLBACK (on_distributions), fixture);
  g_signal_connect (fixture->instruments, "comparison-ready", G_CALLBACK (on_comparison), fixture);
  g_signal_connect (fixture->instruments, "failed", G_CALLBACK (on_failed), fixture);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  g_clear_object (&fixture->instruments);
  g_clear_object (&fixture->preview);
  g_clear_object (&fixture->document);
  g_ptr_array_unref (fixture->validations);
  g_ptr_array_unref (fixture->explanations);
}

static gboolean
is_quiet (gpointer data)
{
  Fixture *fixture = data;
  return !shepard_preview_get_busy (fixture->preview) && !shepard_instruments_get_busy (fixture->instruments);
}

static gboolean
has_explanation (gpointer data)
{
  return ((Fixture *) data)->explanations->len > 0;
}

static gboolean
has_validation (gpointer data)
{
  return ((Fixture *) data)->validations->len > 0;
}

static gboolean
has_distributions (gpointer data)
{
  return ((Fixture *) data)->distributions > 0;
}

static gboolean
has_comparison (gpointer data)
{
  return ((Fixture *) data)->comparisons > 0;
}

/* An engine of the document's kind over the document's points, for the figures computed directly. */
static shepard_engine *
direct_engine (Fixture *fixture)
{
  const ShepardPointLayer *points = shepard_document_get_points (fixture->document);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &error);

  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error), ==,
                   SHEPARD_OK);
  return engine;
}

static void
test_cross_validation_equals_engine (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->failures, ==, 0);
  g_assert_cmpuint (fixture->validations->len, ==, 1);
  ShepardCrossValidation *validation = g_ptr_array_index (fixture->validations, 0);
  g_assert_true (shepard_instruments_get_cross_validation (fixture->instruments) == validation);

  shepard_engine *engine = direct_engine (fixture);
  size_t n = validation->n;
  g_autofree double *prediction = g_new (double, n), *alpha = g_new (double, n);
  shepard_cv_outputs outputs = { .prediction = prediction, .alpha = alpha };
  shepard_cv_summary summary;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, &outputs, &summary,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  g_assert_cmpuint (n, ==, 155);
  for (size_t i = 0; i < n; i++)
    {
      g_assert_cmpfloat (validation->prediction[i], ==, prediction[i]);
      g_assert_cmpfloat (validation->residual[i], ==, prediction[i] - validation->observed[i]);
      g_assert_cmpfloat (validation->alpha[i], ==, alpha[i]);
    }
  g_assert_cmpfloat (validation->summary.rmse, ==, summary.rmse);
  g_assert_cmpfloat (validation->summary.r2, ==, summary.r2);
  g_test_message ("leave-one-out RMSE of zinc, AIDW defaults: %.6g in %.3g ms", summary.rmse,
                  validation->seconds * 1e3);

  /* The same parameters again (a surface re-drawn, say) ask for no second cross-validation. */
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->validations->len, ==, 1);
  shepard_engine_free (engine);
}

/* A burst of changes: the figures that arrive last are those of the last parameters, and none of an older change
 * comes after a newer one. */
static void
test_overtaken_work_is_dropped (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  for (int i = 0; i < 40; i++)
    {
      shepard_params_init_aidw (&params);
      params.alpha[4] = 3.0 + 0.05 * i;
      shepard_preview_request (fixture->preview, &params, LONG_SIDE);
      if (i % 4 == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->failures, ==, 0);
  g_assert_cmpuint (fixture->validations->len, >=, 1);
  g_test_message ("%u cross-validations delivered for 40 changes", fixture->validations->len);
  for (guint i = 1; i < fixture->validations->len; i++)
    {
      ShepardCrossValidation *before = g_ptr_array_index (fixture->validations, i - 1);
      ShepardCrossValidation *after = g_ptr_array_index (fixture->validations, i);
      g_assert_cmpfloat (after->params.alpha[4], >, before->params.alpha[4]);
    }
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_cmpfloat (last->params.alpha[4], ==, params.alpha[4]);
}

static void
test_explanation_follows_pin_and_parameters (Fixture *fixture, gconstpointer data)
{
  const double x = 180200.0, y = 331800.0;
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->explanations->len, ==, 0);

  shepard_instruments_set_pin (fixture->instruments, x, y);
  g_assert_true (wait_until (has_explanation, fixture));
  ShepardExplanation *pinned = g_ptr_array_index (fixture->explanations, 0);
  shepard_engine *engine = direct_engine (fixture);
  shepard_contribution listed[64];
  shepard_explanation expected;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_explain (engine, &params, x, y, listed, shepard_explanation_capacity_for (&params),
                                           &expected, &error),
                   ==, SHEPARD_OK);
  g_assert_cmpfloat (pinned->explanation.value, ==, expected.value);
  g_assert_cmpfloat (pinned->explanation.alpha, ==, expected.alpha);
  g_assert_cmpuint (pinned->explanation.n_listed, ==, 15);
  for (size_t j = 0; j < expected.n_listed; j++)
    g_assert_cmpfloat (pinned->listed[j].share, ==, listed[j].share);

  /* The pin follows a parameter change. */
  params.rexp = SHEPARD_REXP_KNN;
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->explanations->len, ==, 2);
  ShepardExplanation *followed = g_ptr_array_index (fixture->explanations, 1);
  g_assert_cmpint (followed->params.rexp, ==, SHEPARD_REXP_KNN);
  g_assert_cmpfloat (followed->explanation.r_exp, >, 2.5 * pinned->explanation.r_exp);
  g_assert_cmpfloat (followed->explanation.alpha, <, pinned->explanation.alpha);

  shepard_instruments_set_pin (fixture->instruments, NAN, NAN);
  g_assert_null (shepard_instruments_get_explanation (fixture->instruments));
  shepard_engine_free (engine);
}

/* The papers' defaults saturate: nearly every cell of meuse at alpha5 (96 % of a 120 x 120 grid over the points'
 * bounding box, by the float64 reference; a little more over the preview's extent with its margin). rexp=knn
 * spreads the cells over the levels. */
static void
test_saturation (Fixture *fixture, gconstpointer data)
{
  shepard_engine *engine = direct_engine (fixture);
  shepard_error error = { 0 };
  double x_min, y_min, x_max, y_max;
  shepard_engine_bounds (engine, &x_min, &y_min, &x_max, &y_max);
  shepard_grid grid = { x_min, y_max, (x_max - x_min) / 120, (y_max - y_min) / 120, 120, 120 };
  g_autofree double *values = g_new (double, 120 * 120), *alpha = g_new (double, 120 * 120);
  g_autofree double *r_obs = g_new (double, 120 * 120);
  g_autofree float *alpha32 = g_new (float, 120 * 120), *r_obs32 = g_new (float, 120 * 120);
  shepard_outputs outputs = { values, alpha, r_obs };

  for (int mode = SHEPARD_REXP_NEAREST; mode <= SHEPARD_REXP_KNN; mode++)
    {
      shepard_params params;
      shepard_params_init_aidw (&params);
      params.rexp = (shepard_rexp_mode) mode;
      double r_exp;
      g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &error), ==,
                       SHEPARD_OK);
      g_assert_cmpint (shepard_engine_expected_distance (engine, &params, &r_exp, &error), ==, SHEPARD_OK);
      for (size_t i = 0; i < 120 * 120; i++)
        {
          alpha32[i] = (float) alpha[i];
          r_obs32[i] = (float) r_obs[i];
        }
      ShepardDistributions distributions;
      g_assert_true (shepard_distributions_compute (&params, alpha32, r_obs32, r_exp, 120 * 120, &distributions));
      g_test_message ("rexp %s: %.1f %% of the cells at alpha5, %.1f %% at alpha1, median R %.2f",
                      mode == SHEPARD_REXP_KNN ? "knn" : "nearest", 100 * distributions.share_at_alpha5,
                      100 * distributions.share_at_alpha1, distributions.r_median);
      double counted = (double) distributions.r_beyond;
      for (int b = 0; b < SHEPARD_DISTRIBUTION_BINS; b++)
        counted += distributions.r_counts[b];
      g_assert_cmpfloat (counted, ==, 120 * 120);
      if (mode == SHEPARD_REXP_NEAREST)
        {
          g_assert_cmpfloat_with_epsilon (distributions.share_at_alpha5, 0.96, 0.005);
          g_assert_cmpint (shepard_distributions_saturated_level (&distributions), ==, 5);
          /* The expected mean distance to the 15 nearest is 2.99 r_exp: R sits near 3, beyond Rmax = 2. */
          g_assert_cmpfloat (distributions.r_median, >, 2.0);
        }
      else
        {
          g_assert_cmpfloat (distributions.share_at_alpha5, <, 0.5);
          g_assert_cmpint (shepard_distributions_saturated_level (&distributions), ==, 0);
          g_assert_cmpfloat (distributions.r_median, >, 0.6);
          g_assert_cmpfloat (distributions.r_median, <, 1.6);
        }
    }

  /* The preview's surfaces carry the same story to the window. */
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_true (wait_until (has_distributions, fixture));
  ShepardDistributions shown;
  g_assert_true (shepard_instruments_get_distributions (fixture->instruments, &shown));
  g_assert_cmpint (shepard_distributions_saturated_level (&shown), ==, 5);

  shepard_params_init_idw (&params);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  let_frames_pass (100);
  g_assert_false (shepard_instruments_get_distributions (fixture->instruments, NULL));
  shepard_engine_free (engine);
}

/* The difference surface is the full surface minus the same grid with the other parameters. */
static void
test_comparison (Fixture *fixture, gconstpointer data)
{
  shepard_params aidw, idw;
  shepard_params_init_aidw (&aidw);
  shepard_params_init_idw (&idw);
  shepard_instruments_set_comparison (fixture->instruments, &idw);
  shepard_preview_request (fixture->preview, &aidw, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_true (wait_until (has_comparison, fixture));
  ShepardSurface *difference = shepard_instruments_get_comparison (fixture->instruments);
  ShepardSurface *surface = shepard_preview_get_surface (fixture->preview);
  g_assert_nonnull (difference);
  g_assert_cmpuint (difference->grid.width, ==, surface->grid.width);

  shepard_engine *engine = direct_engine (fixture);
  size_t cells = surface->grid.width * surface->grid.height;
  g_autofree double *with_idw = g_new (double, cells);
  shepard_outputs outputs = { .values = with_idw };
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &idw, &surface->grid, &outputs, NULL, NULL, &error), ==,
                   SHEPARD_OK);
  double largest = 0.0;
  for (size_t i = 0; i < cells; i++)
    {
      g_assert_cmpfloat_with_epsilon (difference->values[i], (double) surface->values[i] - (float) with_idw[i],
                                      1e-3);
      largest = fmax (largest, fabs (difference->values[i]));
    }
  g_test_message ("AIDW - IDW on meuse zinc: up to %.4g ppm", largest);
  g_assert_cmpfloat (largest, >, 1.0);

  shepard_instruments_set_comparison (fixture->instruments, NULL);
  g_assert_null (shepard_instruments_get_comparison (fixture->instruments));
  shepard_engine_free (engine);
}

static void
test_cross_validation_can_be_off (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  shepard_params_init_idw (&params);
  shepard_instruments_set_cross_validation_enabled (fixture->instruments, FALSE);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  let_frames_pass (100);
  g_assert_cmpuint (fixture->validations->len, ==, 0);
  /* Switched on, it catches up with the surface shown. */
  shepard_instruments_set_cross_validation_enabled (fixture->instruments, TRUE);
  g_assert_true (wait_until (has_validation, fixture));
  ShepardCrossValidation *validation = g_ptr_array_index (fixture->validations, 0);
  g_assert_cmpint (validation->params.method, ==, SHEPARD_METHOD_IDW);
  /* Meuse zinc, IDW p2: what shepard-cv prints (n 155 ME -1.159 MAE 204.4 RMSE 278.3 R2 0.4216). */
  g_assert_cmpfloat_with_epsilon (validation->summary.rmse, 278.3, 0.05);
  g_assert_cmpfloat_with_epsilon (validation->summary.r2, 0.4216, 0.00005);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, test) g_test_add (path, Fixture, NULL, fixture_set_up, test, fixture_tear_down)
  ADD ("/app/instruments/cross-validation-equals-engine", test_cross_validation_equals_engine);
  ADD ("/app/instruments/overtaken-work-is-dropped", test_overtaken_work_is_dropped);
  ADD ("/app/instruments/explanation-follows-pin-and-parameters", test_explanation_follows_pin_and_parameters);
  ADD ("/app/instruments/saturation", test_saturation);
  ADD ("/app/instruments/comparison", test_comparison);
  ADD ("/app/instruments/cross-validation-can-be-off", test_cross_validation_can_be_off);
#undef ADD
  return g_test_run ();
}
