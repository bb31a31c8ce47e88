/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The preview scheduler without a display, on the CPU engine: the surfaces it delivers for bursts of parameter
 * changes, in which order, on which grids, that it stays silent once cancelled, and that it says when a request
 * gives up. */
#include <gio/gio.h>
#include <math.h>

#include "main-loop-wait.h"
#include "shepard-preview-private.h"
#include "shepard-preview.h"

#define LONG_SIDE 96

typedef struct {
  double alpha3;
  gboolean final;
  shepard_grid grid;
} Delivery;

typedef struct {
  ShepardPreview *preview;
  GArray *deliveries; /* of Delivery */
  guint failures;
  guint dropped;
  /* Set: every surface delivered must be of the latest request, whose alpha3 this is. */
  gboolean check_latest;
  double latest_alpha3;
} Fixture;

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(ShepardDocument **) user_data = shepard_document_load_finish (result, &error);
  g_assert_no_error (error);
}

static ShepardDocument *
load_meuse (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  ShepardDocument *document = NULL;

  shepard_document_load_async (path, "zinc", NULL, on_loaded, &document);
  g_assert_true (wait_until (is_set, &document));
  return document;
}

static void
on_surface_ready (ShepardPreview *preview, ShepardSurface *surface, gboolean final, Fixture *fixture)
{
  Delivery delivery = { .alpha3 = surface->params.alpha[2], .final = final, .grid = surface->grid };

  g_assert_true (shepard_preview_get_surface (preview) == surface);
  if (fixture->check_latest)
    g_assert_cmpfloat (surface->params.alpha[2], ==, fixture->latest_alpha3);
  g_array_append_val (fixture->deliveries, delivery);
}

static void
on_failed (ShepardPreview *preview, const char *message, Fixture *fixture)
{
  g_test_message ("failed: %s", message);
  fixture->failures++;
}

static void
on_dropped (ShepardPreview *preview, Fixture *fixture)
{
  fixture->dropped++;
}

static gboolean
is_idle (gpointer data)
{
  return !shepard_preview_get_busy (data);
}

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autoptr (ShepardDocument) document = load_meuse ();

  g_assert_cmpint (shepard_document_get_cuda_device (document), <, 0);
  fixture->preview = shepard_preview_new ();
  fixture->deliveries = g_array_new (FALSE, FALSE, sizeof (Delivery));
  shepard_preview_set_document (fixture->preview, document);
  g_signal_connect (fixture->preview, "surface-ready", G_CALLBACK (on_surface_ready), fixture);
  g_signal_connect (fixture->preview, "failed", G_CALLBACK (on_failed), fixture);
  g_signal_connect (fixture->preview, "dropped", G_CALLBACK (on_dropped), fixture);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  g_clear_object (&fixture->preview);
  g_array_unref (fixture->deliveries);
}

static void
aidw_params (shepard_params *params, double alpha3)
{
  shepard_params_init_aidw (params);
  params->alpha[2] = alpha3;
}

static const Delivery *
delivery (Fixture *fixture, guint index)
{
  return &g_array_index (fixture->deliveries, Delivery, index);
}

/* Requests come faster than grids, each of them a full grid on a worker (the grid is measured first, then the budgets
 * send every request there): every surface delivered is the latest request's when it arrives, what arrives last is
 * the last request's fine grid, and once a surface of a request has arrived, none of an earlier one follows. */
static void
test_burst (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  shepard_grid full;
  const int changes = 100;

  aidw_params (&params, 0.9);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_idle, fixture->preview));
  _shepard_preview_set_budgets (fixture->preview, 0.0, INFINITY);
  g_array_set_size (fixture->deliveries, 0);
  fixture->check_latest = TRUE;
  for (int i = 0; i < changes; i++)
    {
      aidw_params (&params, 1.0 + 0.02 * i);
      fixture->latest_alpha3 = params.alpha[2];
      shepard_preview_request (fixture->preview, &params, LONG_SIDE);
      /* As a dragged slider leaves the main loop a moment between two values, and now and then long enough for a
       * grid to come back. */
      if (i % 10 == 0)
        let_frames_pass (15);
      else if (i % 3 == 0)
        g_main_context_iteration (NULL, FALSE);
    }
  g_assert_true (wait_until (is_idle, fixture->preview));
  g_assert_cmpuint (fixture->failures, ==, 0);
  g_assert_cmpuint (fixture->deliveries->len, >, 0);
  g_test_message ("%u surfaces for %d requests", fixture->deliveries->len, changes);
  for (guint i = 0; i < fixture->deliveries->len; i++)
    g_assert_true (delivery (fixture, i)->final);

  const Delivery *last = delivery (fixture, fixture->deliveries->len - 1);
  g_assert_cmpfloat (last->alpha3, ==, params.alpha[2]);
  g_assert_true (last->final);
  shepard_preview_get_grid (fixture->preview, LONG_SIDE, FALSE, &full);
  g_assert_cmpuint (last->grid.width, ==, full.width);
  g_assert_cmpuint (last->grid.height, ==, full.height);
  for (guint i = 1; i < fixture->deliveries->len; i++)
    g_assert_cmpfloat (delivery (fixture, i)->alpha3, >=, delivery (fixture, i - 1)->alpha3);
  g_assert_true (shepard_preview_get_surface (fixture->preview)->params.alpha[2] == params.alpha[2]);
}

/* A slow grid: the coarse one first, then the fine one over the very same extent. */
static void
test_coarse_then_fine (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  aidw_params (&params, 2.5);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (shepard_preview_get_busy (fixture->preview));
  g_assert_true (wait_until (is_idle, fixture->preview));

  g_assert_cmpuint (fixture->deliveries->len, ==, 2);
  const Delivery *coarse = delivery (fixture, 0), *fine = delivery (fixture, 1);
  g_assert_false (coarse->final);
  g_assert_true (fine->final);
  g_assert_cmpuint (coarse->grid.width * coarse->grid.height, <, fine->grid.width * fine->grid.height);
  g_assert_cmpuint (MAX (fine->grid.width, fine->grid.height), ==, LONG_SIDE);
  g_assert_cmpfloat (coarse->grid.x_min, ==, fine->grid.x_min);
  g_assert_cmpfloat (coarse->grid.y_max, ==, fine->grid.y_max);
  g_assert_cmpfloat_with_epsilon (coarse->grid.dx * (double) coarse->grid.width,
                                  fine->grid.dx * (double) fine->grid.width, 1e-6);
  g_assert_cmpfloat_with_epsilon (coarse->grid.dy * (double) coarse->grid.height,
                                  fine->grid.dy * (double) fine->grid.height, 1e-6);
}

/* Once the last full grid is known to be fast, the next request is answered before request () returns: the next
 * frame shows it. */
static void
test_fast_grid_comes_at_once (Fixture *fixture, gconstpointer data)
{
  shepard_params params;
  const guint small = 32;

  aidw_params (&params, 2.5);
  params.neighbors = 8;
  shepard_preview_request (fixture->preview, &params, small);
  g_assert_cmpuint (fixture->deliveries->len, ==, 0); /* nothing measured yet: a worker computes it */
  g_assert_true (wait_until (is_idle, fixture->preview));
  guint before = fixture->deliveries->len;

  /* A grid of 32 x 32 cells over 8 nearest of 155 points takes well under a millisecond. */
  _shepard_preview_set_budgets (fixture->preview, 1.0, 1.0);
  aidw_params (&params, 2.75);
  params.neighbors = 8;
  shepard_preview_request (fixture->preview, &params, small);
  g_assert_cmpuint (fixture->deliveries->len, ==, before + 1);
  g_assert_true (delivery (fixture, before)->final);
  g_assert_cmpfloat (delivery (fixture, before)->alpha3, ==, 2.75);
  g_assert_false (shepard_preview_get_busy (fixture->preview));
}

/* Cancelled, or its document dropped, the preview emits nothing more, even past the refine delay. */
static void
test_cancel_emits_nothing (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  aidw_params (&params, 2.5);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  shepard_preview_cancel (fixture->preview);
  g_assert_false (shepard_preview_get_busy (fixture->preview));
  let_frames_pass (600);
  g_assert_cmpuint (fixture->deliveries->len, ==, 0);
  g_assert_cmpuint (fixture->failures, ==, 0);

  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  shepard_preview_set_document (fixture->preview, NULL);
  g_assert_false (shepard_preview_get_busy (fixture->preview));
  let_frames_pass (600);
  g_assert_cmpuint (fixture->deliveries->len, ==, 0);
  g_assert_null (shepard_preview_get_surface (fixture->preview));
  /* Without a document a request does nothing. */
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_false (shepard_preview_get_busy (fixture->preview));
}

/* "dropped" says when a request gives up before its full grid, unless a new request takes over at once. */
static void
test_dropped_requests_are_told (Fixture *fixture, gconstpointer data)
{
  shepard_params params, refused;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  aidw_params (&params, 2.5);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  aidw_params (&params, 2.6);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_cmpuint (fixture->dropped, ==, 0);
  refused = params;
  refused.r_min = 3.0;
  refused.r_max = 1.0;
  shepard_preview_request (fixture->preview, &refused, LONG_SIDE);
  g_assert_cmpuint (fixture->dropped, ==, 1);
  /* Nothing was pending any more. */
  shepard_preview_cancel (fixture->preview);
  g_assert_cmpuint (fixture->dropped, ==, 1);

  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  shepard_preview_cancel (fixture->preview);
  g_assert_cmpuint (fixture->dropped, ==, 2);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_idle, fixture->preview));
  /* Delivered in full: nothing to drop. */
  shepard_preview_cancel (fixture->preview);
  g_assert_cmpuint (fixture->dropped, ==, 2);
  g_assert_cmpuint (fixture->failures, ==, 0);
}

/* Parameters the engine refuses leave the last surface in place, marked stale through invalid-reason. */
static void
test_invalid_parameters (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  aidw_params (&params, 2.5);
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_true (wait_until (is_idle, fixture->preview));
  guint delivered = fixture->deliveries->len;
  ShepardSurface *shown = shepard_preview_get_surface (fixture->preview);
  g_assert_nonnull (shown);
  g_assert_null (shepard_preview_get_invalid_reason (fixture->preview));

  params.r_min = 3.0;
  params.r_max = 1.0;
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  const char *reason = shepard_preview_get_invalid_reason (fixture->preview);
  g_assert_nonnull (reason);
  g_test_message ("refused: %s", reason);
  g_assert_false (shepard_preview_get_busy (fixture->preview));
  let_frames_pass (300);
  g_assert_cmpuint (fixture->deliveries->len, ==, delivered);
  g_assert_true (shepard_preview_get_surface (fixture->preview) == shown);

  params.r_min = 0.0;
  params.r_max = 2.0;
  shepard_preview_request (fixture->preview, &params, LONG_SIDE);
  g_assert_null (shepard_preview_get_invalid_reason (fixture->preview));
  g_assert_true (wait_until (is_idle, fixture->preview));
  g_assert_cmpuint (fixture->deliveries->len, >, delivered);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
#define ADD(path, test) g_test_add (path, Fixture, NULL, fixture_set_up, test, fixture_tear_down)
  ADD ("/app/preview/burst-ends-with-the-last-request", test_burst);
  ADD ("/app/preview/coarse-then-fine", test_coarse_then_fine);
  ADD ("/app/preview/fast-grid-comes-at-once", test_fast_grid_comes_at_once);
  ADD ("/app/preview/cancel-emits-nothing", test_cancel_emits_nothing);
  ADD ("/app/preview/invalid-parameters", test_invalid_parameters);
  ADD ("/app/preview/dropped-requests-are-told", test_dropped_requests_are_told);
#undef ADD
  return g_test_run ();
}
