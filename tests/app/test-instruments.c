/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The instruments behind the window, without a display, on meuse and on a large random layer: the cross-validation,
 * the explanation, the distributions and the comparison they deliver equal what the engine computes directly; work
 * for parameters the hand has moved past is dropped, and never holds the preview's in-line grid back; the difference
 * comes first; a request that gives up leaves nothing waiting; and the saturation of the papers' defaults shows (96 %
 * of a 120 x 120 grid at alpha5, as measured with a float64 reference). */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "main-loop-wait.h"
#include "scratch-directory.h"
#include "shepard-distributions-feed.h"
#include "shepard-instruments.h"
#include "shepard-preview-private.h"
#include "shepard-work-pacing.h"

#define LONG_SIDE 64
/* Points of the large layer: its leave-one-out (a few hundred milliseconds on two cores) spans several requests,
 * while a preview grid over its 15 nearest takes a few milliseconds. */
#define LARGE_LAYER_POINTS 200000
#define LARGE_LAYER_WIDTH 10000.0
#define LARGE_LAYER_HEIGHT 8000.0

static char *large_layer_path;

typedef struct {
  ShepardPreview *preview;
  ShepardInstruments *instruments;
  ShepardDocument *document;
  GPtrArray *validations;  /* of ShepardCrossValidation, in the order delivered */
  GPtrArray *explanations; /* of ShepardExplanation */
  guint distributions;
  guint comparisons;
  guint failures;
  guint surfaces;
  GString *events;         /* S(urface), C(omparison), E(xplained), V(alidated), in the order emitted */
  /* Set: every figure and surface emitted must belong to these, the latest parameters requested. */
  gboolean check_latest;
  shepard_params latest;
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
  if (fixture->check_latest)
    g_assert_true (shepard_params_equal (&validation->params, &fixture->latest));
  g_ptr_array_add (fixture->validations, shepard_cross_validation_ref (validation));
  g_string_append_c (fixture->events, 'V');
}

static void
on_explained (ShepardInstruments *instruments, ShepardExplanation *explanation, Fixture *fixture)
{
  if (fixture->check_latest)
    g_assert_true (shepard_params_equal (&explanation->params, &fixture->latest));
  g_ptr_array_add (fixture->explanations, shepard_explanation_ref (explanation));
  g_string_append_c (fixture->events, 'E');
}

static void
on_surface_ready (ShepardPreview *preview, ShepardSurface *surface, gboolean final, Fixture *fixture)
{
  if (fixture->check_latest)
    g_assert_true (shepard_params_equal (&surface->params, &fixture->latest));
  fixture->surfaces++;
  g_string_append_c (fixture->events, 'S');
}

static void
on_distributions (ShepardInstruments *instruments, Fixture *fixture)
{
  fixture->distributions++;
}

static void
on_comparison (ShepardInstruments *instruments, ShepardSurface *difference, Fixture *fixture)
{
  if (fixture->check_latest)
    g_assert_true (shepard_params_equal (&difference->params, &fixture->latest));
  fixture->comparisons++;
  g_string_append_c (fixture->events, 'C');
}

static void
on_failed (ShepardInstruments *instruments, const char *what, const char *message, Fixture *fixture)
{
  g_test_message ("%s failed: %s", what, message);
  fixture->failures++;
}

/* data: the path of a layer with a field "z", or NULL for meuse's zinc. */
static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autofree char *meuse = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);

  shepard_document_load_async (data != NULL ? data : meuse, data != NULL ? "z" : "zinc", NULL, on_loaded,
                               &fixture->document);
  g_assert_true (wait_until (is_set, &fixture->document));
  fixture->events = g_string_new (NULL);
  fixture->preview = shepard_preview_new ();
  shepard_preview_set_document (fixture->preview, fixture->document);
  /* Before the instruments' handler: a surface is logged before what the instruments make of it. */
  g_signal_connect (fixture->preview, "surface-ready", G_CALLBACK (on_surface_ready), fixture);
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
  g_string_free (fixture->events, TRUE);
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

/* The large layer's parameters: AIDW over the 15 nearest, alpha5 as given. */
static void
local_aidw (shepard_params *params, double alpha5)
{
  shepard_params_init_aidw (params);
  params->neighbors = 15;
  params->alpha[4] = alpha5;
}

/* A request the test follows: its figures, and only its, may come from now on. */
static void
request (Fixture *fixture, const shepard_params *params)
{
  fixture->latest = *params;
  shepard_preview_request (fixture->preview, params, LONG_SIDE);
}

/* The first request measures the grid; from then on every request goes to a worker as a full grid at once, so that
 * each one's figures are due and a newer request really overtakes them. */
static void
measure_then_go_final (Fixture *fixture, const shepard_params *params)
{
  request (fixture, params);
  g_assert_true (wait_until (is_quiet, fixture));
  _shepard_preview_set_budgets (fixture->preview, 0.0, INFINITY);
}

/* A burst of changes on a layer whose leave-one-out spans several of them: every figure that arrives belongs to the
 * latest change at the time it arrives (the handlers check), the figures that arrive last are those of the last
 * parameters, and none of an older change comes after a newer one. */
static void
test_overtaken_work_is_dropped (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  local_aidw (&params, 3.0);
  shepard_instruments_set_pin (fixture->instruments, 0.4 * LARGE_LAYER_WIDTH, 0.6 * LARGE_LAYER_HEIGHT);
  measure_then_go_final (fixture, &params);
  g_assert_cmpuint (fixture->validations->len, ==, 1);
  g_test_message ("leave-one-out of %u points: %.3g ms", LARGE_LAYER_POINTS,
                  ((ShepardCrossValidation *) g_ptr_array_index (fixture->validations, 0))->seconds * 1e3);
  g_ptr_array_set_size (fixture->validations, 0);
  g_ptr_array_set_size (fixture->explanations, 0);
  fixture->surfaces = 0;

  fixture->check_latest = TRUE;
  for (int i = 1; i <= 40; i++)
    {
      local_aidw (&params, 3.0 + 0.05 * i);
      request (fixture, &params);
      /* As a dragged slider leaves the main loop a moment between two values: the surface comes, and its figures
       * start. */
      let_frames_pass (i % 4 == 0 ? 25 : 2);
    }
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->failures, ==, 0);
  g_assert_cmpuint (fixture->validations->len, >=, 1);
  g_test_message ("%u surfaces, %u explanations and %u cross-validations delivered for 40 changes",
                  fixture->surfaces, fixture->explanations->len, fixture->validations->len);
  for (guint i = 1; i < fixture->validations->len; i++)
    {
      ShepardCrossValidation *before = g_ptr_array_index (fixture->validations, i - 1);
      ShepardCrossValidation *after = g_ptr_array_index (fixture->validations, i);
      g_assert_cmpfloat (after->params.alpha[4], >, before->params.alpha[4]);
    }
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_cmpfloat (last->params.alpha[4], ==, params.alpha[4]);
  ShepardExplanation *explained = g_ptr_array_index (fixture->explanations, fixture->explanations->len - 1);
  g_assert_cmpfloat (explained->params.alpha[4], ==, params.alpha[4]);
}

static gboolean
is_cross_validating (gpointer data)
{
  return shepard_instruments_get_cross_validating (((Fixture *) data)->instruments);
}

/* Whether a job holds the document's engine now: an in-line grid that may not wait is refused. */
static gboolean
engine_is_held (Fixture *fixture)
{
  shepard_params params;
  shepard_grid grid;
  g_autoptr (GError) error = NULL;

  local_aidw (&params, 3.5);
  shepard_preview_get_grid (fixture->preview, 8, FALSE, &grid);
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_if_idle (fixture->document, &params, &grid,
                                                                             SHEPARD_SURFACE_IN_HOST_MEMORY, 0.0,
                                                                             &error);
  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY);
}

/* A change made while a leave-one-out holds the engine is still answered before request () returns when its grid
 * fits the in-line budget: the cross-validation is cancelled and gives the engine up, and the grid goes first. */
static void
test_cross_validation_never_holds_the_preview_back (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  local_aidw (&params, 3.0);
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));
  /* Every grid of this layer is well within a second: all of them are computed in line from now on. */
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);

  local_aidw (&params, 3.2);
  guint surfaces = fixture->surfaces;
  request (fixture, &params);
  g_assert_cmpuint (fixture->surfaces, ==, surfaces + 1);
  g_assert_true (wait_until (is_cross_validating, fixture));
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;
  while (!engine_is_held (fixture))
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_usleep (1000);
    }
  g_assert_true (shepard_instruments_get_cross_validating (fixture->instruments));

  fixture->check_latest = TRUE;
  local_aidw (&params, 3.4);
  gint64 start = g_get_monotonic_time ();
  request (fixture, &params);
  g_test_message ("answered in line %.3g ms after cancelling a leave-one-out that held the engine",
                  (double) (g_get_monotonic_time () - start) / 1e3);
  g_assert_cmpuint (fixture->surfaces, ==, surfaces + 2);
  ShepardSurface *shown = shepard_preview_get_surface (fixture->preview);
  g_assert_true (shepard_params_equal (&shown->params, &params));
  g_assert_false (shepard_preview_get_busy (fixture->preview));

  /* The overtaken leave-one-out never arrives; the new one does. */
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->failures, ==, 0);
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_true (shepard_params_equal (&last->params, &params));
  for (guint i = 0; i < fixture->validations->len; i++)
    g_assert_cmpfloat (((ShepardCrossValidation *) g_ptr_array_index (fixture->validations, i))->params.alpha[4], !=,
                       3.2);
}

static void
count_cross_validation_starts (ShepardInstruments *instruments, GParamSpec *pspec, guint *starts)
{
  if (shepard_instruments_get_cross_validating (instruments))
    (*starts)++;
}

/* A request that only follows the view (same parameters, another extent) leaves a running leave-one-out alone: it
 * would only start again once the surface came, and a user who pans would never see it finish. */
static void
test_view_request_keeps_cross_validation (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  guint starts = 0;

  local_aidw (&params, 3.0);
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));
  local_aidw (&params, 3.2);
  request (fixture, &params);
  g_assert_true (wait_until (is_cross_validating, fixture));
  g_signal_connect (fixture->instruments, "notify::cross-validating", G_CALLBACK (count_cross_validation_starts),
                    &starts);
  guint validations = fixture->validations->len;

  double extent[4];
  shepard_document_get_extent (fixture->document, extent);
  double half[4] = { extent[0], extent[1], 0.5 * (extent[0] + extent[2]), 0.5 * (extent[1] + extent[3]) };
  fixture->check_latest = TRUE;
  shepard_preview_request_extent (fixture->preview, &params, half, LONG_SIDE);
  g_assert_true (wait_until (is_quiet, fixture));
  g_signal_handlers_disconnect_by_func (fixture->instruments, count_cross_validation_starts, &starts);

  g_assert_cmpuint (fixture->failures, ==, 0);
  g_assert_cmpuint (starts, ==, 0);
  g_assert_cmpuint (fixture->validations->len, ==, validations + 1);
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_true (shepard_params_equal (&last->params, &params));
  ShepardSurface *shown = shepard_preview_get_surface (fixture->preview);
  g_assert_cmpfloat (shown->grid.x_min, ==, half[0]);
  g_assert_cmpfloat (shown->grid.y_max, ==, half[3]);
}

/* A leave-one-out slower than a frame waits while the hand moves: changes 40 ms apart each get their surface with
 * no leave-one-out started behind it, and the one of the last change starts once no request has come for the rest. */
static void
test_slow_cross_validation_waits_for_rest (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  guint starts = 0;

  local_aidw (&params, 3.0);
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpuint (fixture->validations->len, ==, 1);
  double seconds = ((ShepardCrossValidation *) g_ptr_array_index (fixture->validations, 0))->seconds;
  g_test_message ("leave-one-out of %u points: %.3g ms", LARGE_LAYER_POINTS, seconds * 1e3);
  if (seconds <= SHEPARD_WORK_PACING_LIVE_SECONDS)
    {
      g_test_skip ("the large layer's leave-one-out took no more than 30 ms here: it follows the hand");
      return;
    }
  /* Every grid in line: a request's surface has come when request () returns. */
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);
  g_signal_connect (fixture->instruments, "notify::cross-validating", G_CALLBACK (count_cross_validation_starts),
                    &starts);
  fixture->check_latest = TRUE;
  guint surfaces = fixture->surfaces;
  gint64 requested = 0;
  for (int i = 1; i <= 5; i++)
    {
      local_aidw (&params, 3.0 + 0.1 * i);
      requested = g_get_monotonic_time ();
      request (fixture, &params);
      g_assert_cmpuint (fixture->surfaces, ==, surfaces + (guint) i);
      g_assert_false (shepard_instruments_get_cross_validating (fixture->instruments));
      /* The figure is still to come. */
      g_assert_true (shepard_instruments_get_busy (fixture->instruments));
      if (i < 5)
        let_frames_pass (40);
    }
  g_assert_true (wait_until (is_cross_validating, fixture));
  double rested_ms = (double) (g_get_monotonic_time () - requested) / 1e3;
  g_test_message ("the last change's leave-one-out started %.3g ms after it", rested_ms);
  g_assert_cmpfloat (rested_ms, >=, SHEPARD_PREVIEW_REST_MS);
  g_assert_true (wait_until (is_quiet, fixture));
  g_signal_handlers_disconnect_by_func (fixture->instruments, count_cross_validation_starts, &starts);

  g_assert_cmpuint (fixture->failures, ==, 0);
  /* One for the first change; on a machine that stalled for a whole leave-one-out between two changes, more. */
  g_assert_cmpuint (fixture->validations->len, >=, 2);
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_true (shepard_params_equal (&last->params, &params));
  /* More than the last one only where the machine left more than the rest between two changes. */
  g_test_message ("%u leave-one-out(s) started for 5 changes 40 ms apart", starts);
}

/* A leave-one-out within a frame follows the hand: it starts as its change's surface comes. */
static void
test_quick_cross_validation_follows_the_hand (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  shepard_params_init_aidw (&params);
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);
  for (guint i = 1; i <= 3; i++)
    {
      g_assert_cmpuint (fixture->validations->len, ==, i);
      double seconds = ((ShepardCrossValidation *) g_ptr_array_index (fixture->validations, i - 1))->seconds;
      /* meuse's takes well under a millisecond; a machine that stalls the job past a frame sees it wait instead. */
      if (seconds > SHEPARD_WORK_PACING_LIVE_SECONDS)
        {
          g_test_skip ("a leave-one-out of meuse took over 30 ms here: the next one waits for the hand to rest");
          return;
        }
      params.alpha[4] = 3.5 + 0.1 * i;
      request (fixture, &params);
      g_assert_true (shepard_instruments_get_cross_validating (fixture->instruments));
      g_assert_true (wait_until (is_quiet, fixture));
    }
  g_assert_cmpuint (fixture->failures, ==, 0);
  ShepardCrossValidation *last = g_ptr_array_index (fixture->validations, fixture->validations->len - 1);
  g_assert_true (shepard_params_equal (&last->params, &params));
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

/* The difference is what the map shows in difference mode: it comes before the explanation and the
 * cross-validation, and once the other surface of a grid is known, with the surface itself. */
static void
test_comparison_comes_first (Fixture *fixture, gconstpointer data)
{
  shepard_params aidw, idw;
  shepard_params_init_aidw (&aidw);
  shepard_params_init_idw (&idw);
  measure_then_go_final (fixture, &aidw);

  /* Asked for at rest: the other surface is computed, then the pin is explained. */
  g_string_truncate (fixture->events, 0);
  shepard_instruments_set_comparison (fixture->instruments, &idw);
  shepard_instruments_set_pin (fixture->instruments, 180200.0, 331800.0);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpstr (fixture->events->str, ==, "CE");

  /* A change: its surface, at once its difference (no engine work for the other surface), then the explanation and
   * the cross-validation. */
  g_string_truncate (fixture->events, 0);
  fixture->check_latest = TRUE;
  aidw.alpha[4] = 4.0;
  request (fixture, &aidw);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpstr (fixture->events->str, ==, "SCEV");

  /* Computed in line, the surface comes with its difference before request () returns. */
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);
  g_string_truncate (fixture->events, 0);
  aidw.alpha[4] = 4.5;
  request (fixture, &aidw);
  g_assert_cmpstr (fixture->events->str, ==, "SC");
  ShepardSurface *surface = shepard_preview_get_surface (fixture->preview);
  ShepardSurface *difference = shepard_instruments_get_comparison (fixture->instruments);
  g_assert_true (shepard_params_equal (&difference->params, &aidw));
  shepard_engine *engine = direct_engine (fixture);
  size_t cells = surface->grid.width * surface->grid.height;
  g_autofree double *with_idw = g_new (double, cells);
  shepard_outputs outputs = { .values = with_idw };
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &idw, &surface->grid, &outputs, NULL, NULL, &error), ==,
                   SHEPARD_OK);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat_with_epsilon (difference->values[i], (double) surface->values[i] - (float) with_idw[i], 1e-3);
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpstr (fixture->events->str, ==, "SCEV");

  /* Other parameters for the other surface: a new difference, from the new other surface. */
  fixture->check_latest = FALSE;
  g_string_truncate (fixture->events, 0);
  idw.power = 3.0;
  shepard_instruments_set_comparison (fixture->instruments, &idw);
  g_assert_null (shepard_instruments_get_comparison (fixture->instruments));
  g_assert_true (wait_until (is_quiet, fixture));
  g_assert_cmpstr (fixture->events->str, ==, "C");
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &idw, &surface->grid, &outputs, NULL, NULL, &error), ==,
                   SHEPARD_OK);
  difference = shepard_instruments_get_comparison (fixture->instruments);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat_with_epsilon (difference->values[i], (double) surface->values[i] - (float) with_idw[i], 1e-3);
  g_assert_cmpuint (fixture->failures, ==, 0);
  shepard_engine_free (engine);
}

/* On a slow grid the coarse surface comes first: the pin is explained from it, before the hand stops, and not again
 * for the full grid of the same parameters. */
static void
test_explanation_follows_coarse_surfaces (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_instruments_set_pin (fixture->instruments, 180200.0, 331800.0);
  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  fixture->check_latest = TRUE;
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));
  g_test_message ("events: %s", fixture->events->str);
  /* Coarse surface, its explanation; full surface, the cross-validation. */
  g_assert_cmpstr (fixture->events->str, ==, "SESV");
  g_assert_cmpuint (fixture->failures, ==, 0);
}

static gboolean
is_quiet_instruments (gpointer data)
{
  return !shepard_instruments_get_busy (((Fixture *) data)->instruments);
}

/* A request that gives up before its full grid (parameters refused next, or a cancel) leaves nothing waiting: the
 * instruments settle on the surface shown, and the pin and the comparison still work. */
static void
test_request_that_gives_up_leaves_nothing_waiting (Fixture *fixture, gconstpointer data)
{
  shepard_params params, refused, idw;
  shepard_params_init_aidw (&params);
  shepard_params_init_idw (&idw);
  request (fixture, &params);
  g_assert_true (wait_until (is_quiet, fixture));

  /* Slow grids from now on: a request stays out until its full grid, 150 ms after it. */
  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  params.alpha[4] = 4.0;
  request (fixture, &params);
  g_assert_true (shepard_instruments_get_busy (fixture->instruments));
  refused = params;
  refused.r_min = 3.0;
  refused.r_max = 1.0;
  request (fixture, &refused);
  g_assert_nonnull (shepard_preview_get_invalid_reason (fixture->preview));
  g_assert_true (wait_until (is_quiet_instruments, fixture));
  shepard_instruments_set_pin (fixture->instruments, 180200.0, 331800.0);
  g_assert_true (wait_until (has_explanation, fixture));
  ShepardExplanation *explanation = shepard_instruments_get_explanation (fixture->instruments);
  g_assert_true (shepard_params_equal (&explanation->params, &shepard_preview_get_surface (fixture->preview)->params));

  params.alpha[4] = 4.5;
  request (fixture, &params);
  shepard_preview_cancel (fixture->preview);
  g_assert_true (wait_until (is_quiet_instruments, fixture));
  shepard_instruments_set_comparison (fixture->instruments, &idw);
  g_assert_true (wait_until (has_comparison, fixture));
  g_assert_true (wait_until (is_quiet_instruments, fixture));
  g_assert_cmpuint (fixture->failures, ==, 0);
}

static gboolean
has_two_explanations (gpointer data)
{
  return ((Fixture *) data)->explanations->len >= 2;
}

/* Turning the cross-validation on catches it up without dropping the explanation under way. */
static void
test_cross_validation_on_keeps_the_explanation (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  shepard_params_init_aidw (&params);
  shepard_instruments_set_cross_validation_enabled (fixture->instruments, FALSE);
  shepard_instruments_set_pin (fixture->instruments, 180200.0, 331800.0);
  request (fixture, &params);
  g_assert_true (wait_until (has_explanation, fixture));
  g_assert_true (wait_until (is_quiet, fixture));

  /* A new change: its explanation is under way when the cross-validation is turned on. */
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);
  params.alpha[4] = 4.0;
  request (fixture, &params);
  g_assert_cmpuint (fixture->explanations->len, ==, 1);
  shepard_instruments_set_cross_validation_enabled (fixture->instruments, TRUE);
  g_assert_true (wait_until (has_two_explanations, fixture));
  g_assert_true (wait_until (is_quiet, fixture));
  ShepardExplanation *explanation = shepard_instruments_get_explanation (fixture->instruments);
  g_assert_nonnull (explanation);
  g_assert_cmpfloat (explanation->params.alpha[4], ==, 4.0);
  g_assert_cmpuint (fixture->validations->len, ==, 1);
  g_assert_cmpfloat (((ShepardCrossValidation *) g_ptr_array_index (fixture->validations, 0))->params.alpha[4], ==,
                     4.0);
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

typedef struct {
  guint changes;
} FeedLog;

static void
on_feed_changed (ShepardDistributionsFeed *feed, FeedLog *log)
{
  log->changes++;
}

static gboolean
feed_is_idle (gpointer data)
{
  return !shepard_distributions_feed_get_busy (data);
}

/* An AIDW surface in host memory whose cells all have R = ratio and alpha = alpha (r_exp 1). */
static ShepardSurface *
uniform_surface (size_t side, double ratio, double alpha)
{
  shepard_grid grid = { 0.0, (double) side, 1.0, 1.0, side, side };
  shepard_params params;
  g_autofree double *values = g_new (double, side * side), *alphas = g_new (double, side * side);
  g_autofree double *r_obs = g_new (double, side * side);

  shepard_params_init_aidw (&params);
  for (size_t i = 0; i < side * side; i++)
    {
      values[i] = 1.0;
      alphas[i] = alpha;
      r_obs[i] = ratio;
    }
  return shepard_surface_new_from_host (&grid, &params, values, alphas, r_obs, 1.0, 0.0);
}

/* The distributions follow at a bounded cost: surfaces that come while one is computed wait, the latest replacing
 * the older; a coarse one that had to wait is skipped for its full grid, or computed once the request gives up on
 * it; a new request drops what was under way. */
static void
test_distributions_are_coalesced (void)
{
  g_autoptr (ShepardDistributionsFeed) feed = shepard_distributions_feed_new ();
  FeedLog log = { 0 };
  ShepardDistributions shown;

  g_signal_connect (feed, "changed", G_CALLBACK (on_feed_changed), &log);
  /* Twenty full surfaces at once: the first, then the last. */
  for (int i = 0; i < 20; i++)
    {
      g_autoptr (ShepardSurface) surface = uniform_surface (64, 0.1 + 0.1 * i, 2.0);
      shepard_distributions_feed_push (feed, surface, TRUE);
    }
  g_assert_true (shepard_distributions_feed_get_busy (feed));
  g_assert_true (wait_until (feed_is_idle, feed));
  g_assert_cmpuint (log.changes, ==, 2);
  g_assert_true (shepard_distributions_feed_get (feed, &shown));
  g_assert_cmpfloat_with_epsilon (shown.r_median, 0.1 + 0.1 * 19, 0.01);

  /* A coarse surface that comes while a full one is computed waits for its own full grid, and is skipped for it. */
  log.changes = 0;
  shepard_distributions_feed_drop (feed);
  g_autoptr (ShepardSurface) first = uniform_surface (64, 0.5, 2.0);
  g_autoptr (ShepardSurface) coarse = uniform_surface (16, 0.7, 2.0);
  g_autoptr (ShepardSurface) full = uniform_surface (64, 0.9, 2.0);
  shepard_distributions_feed_push (feed, first, TRUE);
  shepard_distributions_feed_push (feed, coarse, FALSE);
  let_frames_pass (100);
  g_assert_cmpuint (log.changes, ==, 1);
  g_assert_true (shepard_distributions_feed_get_busy (feed));
  shepard_distributions_feed_push (feed, full, TRUE);
  g_assert_true (wait_until (feed_is_idle, feed));
  g_assert_cmpuint (log.changes, ==, 2);
  g_assert_true (shepard_distributions_feed_get (feed, &shown));
  g_assert_cmpuint (shown.cells, ==, 64 * 64);
  g_assert_cmpfloat_with_epsilon (shown.r_median, 0.9, 0.01);

  /* ... or computed after all when its request gives up on the full grid. */
  log.changes = 0;
  shepard_distributions_feed_drop (feed);
  shepard_distributions_feed_push (feed, first, TRUE);
  shepard_distributions_feed_push (feed, coarse, FALSE);
  let_frames_pass (100);
  shepard_distributions_feed_settle (feed);
  g_assert_true (wait_until (feed_is_idle, feed));
  g_assert_cmpuint (log.changes, ==, 2);
  g_assert_true (shepard_distributions_feed_get (feed, &shown));
  g_assert_cmpuint (shown.cells, ==, 16 * 16);

  /* A new request drops the computation under way and what waits: only the new request's figures come. */
  log.changes = 0;
  shepard_distributions_feed_push (feed, first, TRUE);
  shepard_distributions_feed_push (feed, full, TRUE);
  shepard_distributions_feed_drop (feed);
  g_assert_true (wait_until (feed_is_idle, feed));
  g_assert_cmpuint (log.changes, ==, 0);
  shepard_distributions_feed_push (feed, first, TRUE);
  g_assert_true (wait_until (feed_is_idle, feed));
  g_assert_cmpuint (log.changes, ==, 1);
  g_assert_true (shepard_distributions_feed_get (feed, &shown));
  g_assert_cmpfloat_with_epsilon (shown.r_median, 0.5, 0.01);
}

/* Random points over a LARGE_LAYER_WIDTH x LARGE_LAYER_HEIGHT region with a smooth field "z", as CSV. */
static void
write_large_layer (const char *path)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (20261123);
  g_autoptr (GString) text = g_string_new ("x,y,z\n");
  g_autoptr (GError) error = NULL;

  for (int i = 0; i < LARGE_LAYER_POINTS; i++)
    {
      double x = g_rand_double_range (rand, 0.0, LARGE_LAYER_WIDTH);
      double y = g_rand_double_range (rand, 0.0, LARGE_LAYER_HEIGHT);
      double z = 100.0 + 30.0 * sin (x / 900.0) + 20.0 * cos (y / 700.0) + g_rand_double (rand);
      g_string_append_printf (text, "%.3f,%.3f,%.4f\n", x, y, z);
    }
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, &error));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_autofree char *folder = scratch_directory_new ("shepard-instruments-XXXXXX");
  large_layer_path = g_build_filename (folder, "large.csv", NULL);
  write_large_layer (large_layer_path);
#define ADD(path, layer, test) g_test_add (path, Fixture, layer, fixture_set_up, test, fixture_tear_down)
  ADD ("/app/instruments/cross-validation-equals-engine", NULL, test_cross_validation_equals_engine);
  ADD ("/app/instruments/overtaken-work-is-dropped", large_layer_path, test_overtaken_work_is_dropped);
  ADD ("/app/instruments/cross-validation-never-holds-the-preview-back", large_layer_path,
       test_cross_validation_never_holds_the_preview_back);
  ADD ("/app/instruments/view-request-keeps-cross-validation", large_layer_path,
       test_view_request_keeps_cross_validation);
  ADD ("/app/instruments/slow-cross-validation-waits-for-rest", large_layer_path,
       test_slow_cross_validation_waits_for_rest);
  ADD ("/app/instruments/quick-cross-validation-follows-the-hand", NULL, test_quick_cross_validation_follows_the_hand);
  ADD ("/app/instruments/explanation-follows-pin-and-parameters", NULL, test_explanation_follows_pin_and_parameters);
  ADD ("/app/instruments/explanation-follows-coarse-surfaces", NULL, test_explanation_follows_coarse_surfaces);
  ADD ("/app/instruments/saturation", NULL, test_saturation);
  g_test_add_func ("/app/instruments/distributions-are-coalesced", test_distributions_are_coalesced);
  ADD ("/app/instruments/comparison", NULL, test_comparison);
  ADD ("/app/instruments/comparison-comes-first", NULL, test_comparison_comes_first);
  ADD ("/app/instruments/request-that-gives-up-leaves-nothing-waiting", NULL,
       test_request_that_gives_up_leaves_nothing_waiting);
  ADD ("/app/instruments/cross-validation-can-be-off", NULL, test_cross_validation_can_be_off);
  ADD ("/app/instruments/cross-validation-on-keeps-the-explanation", NULL,
       test_cross_validation_on_keeps_the_explanation);
#undef ADD
  int status = g_test_run ();
  scratch_directory_remove (folder);
  g_free (large_layer_path);
  return status;
}
