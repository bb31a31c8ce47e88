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

/* The deliveries of one request with budgets (0, 0) at a cost of fixed_seconds + seconds_per_cell a cell: a coarse
 * grid, the largest one expected within budget beyond the fixed cost that every grid pays (one cell more along the
 * longer side would not fit), then the full one of long_side. Returns the coarse grid's longer side. */
static size_t
assert_coarse_is_largest_within (Fixture *fixture, double fixed_seconds, double seconds_per_cell, double budget,
                                 guint long_side)
{
  budget += fixed_seconds;
  g_assert_cmpuint (fixture->deliveries->len, ==, 2);
  const shepard_grid *coarse = &delivery (fixture, 0)->grid;
  double cells = (double) coarse->width * (double) coarse->height;
  size_t coarse_side = MAX (coarse->width, coarse->height);
  g_test_message ("coarse %zu x %zu: %.3f s expected, %.3f s allowed", coarse->width, coarse->height,
                  fixed_seconds + cells * seconds_per_cell, budget);
  g_assert_false (delivery (fixture, 0)->final);
  g_assert_cmpfloat (fixed_seconds + cells * seconds_per_cell, <=, budget);
  g_assert_cmpuint (coarse_side, <, long_side / 4);
  double extent_width = coarse->dx * (double) coarse->width, extent_height = coarse->dy * (double) coarse->height;
  double larger_cell = MAX (extent_width, extent_height) / (double) (coarse_side + 1);
  double larger_cells = floor (extent_width / larger_cell + 0.5) * floor (extent_height / larger_cell + 0.5);
  g_assert_cmpfloat (fixed_seconds + larger_cells * seconds_per_cell, >, budget);
  g_assert_true (delivery (fixture, 1)->final);
  g_assert_cmpuint (MAX (delivery (fixture, 1)->grid.width, delivery (fixture, 1)->grid.height), ==, long_side);
  return coarse_side;
}

/* With a measured rate, the coarse grid is the largest one expected within the frame budget. The budget is the test's
 * own, the rate a slow machine's. */
static void
test_coarse_grid_fits_the_budget (Fixture *fixture, gconstpointer data)
{
  const double budget = 0.1, pairs_per_second = 2e6, n_points = 155;
  const guint long_side = 384;
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  _shepard_preview_set_frame_budget (fixture->preview, budget);
  _shepard_preview_set_pairs_per_second (fixture->preview, TRUE, pairs_per_second);
  shepard_params_init_idw (&params);
  shepard_preview_request (fixture->preview, &params, long_side);
  g_assert_null (shepard_preview_get_slow_advice (fixture->preview));
  g_assert_true (wait_until (is_idle, fixture->preview));

  /* 2e5 pairs in 0.1 s over 155 points: about 1290 cells, some 40 x 32 on meuse's extent. */
  g_assert_cmpuint (assert_coarse_is_largest_within (fixture, 0.0, n_points / pairs_per_second, budget, long_side),
                    >=, 32);
}

/* Which summation the engine takes: the brute force for meuse's 155 points by default (its far field would cost
 * more), the far field when asked for. */
static void
test_document_tells_the_summation (Fixture *fixture, gconstpointer data)
{
  ShepardDocument *document = shepard_preview_get_document (fixture->preview);
  shepard_params params;

  shepard_params_init_aidw (&params);
  g_assert_cmpint (shepard_document_get_summation (document, &params, 384 * 384), ==, SHEPARD_SUMMATION_EXACT);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  g_assert_cmpint (shepard_document_get_summation (document, &params, 384 * 384), ==, SHEPARD_SUMMATION_FAR_FIELD);
  params.neighbors = 32;
  g_assert_cmpint (shepard_document_get_summation (document, &params, 384 * 384), ==, SHEPARD_SUMMATION_EXACT);
}

/* Where the engine sums through the far field, a grid costs cells x (log2 (points) + 15) + 0.25 x points steps at the
 * far field's own rate, not cells x points at the brute force's: a brute-force rate that would leave only the 8-cell
 * floor does not shrink the coarse grid. */
static void
test_far_field_coarse_grid_fits_the_budget (Fixture *fixture, gconstpointer data)
{
  const double budget = 0.1, steps_per_second = 5e5, n_points = 155;
  const guint long_side = 384;
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  _shepard_preview_set_frame_budget (fixture->preview, budget);
  _shepard_preview_set_pairs_per_second (fixture->preview, TRUE, 1e3);
  _shepard_preview_set_far_field_rate (fixture->preview, steps_per_second);
  shepard_params_init_aidw (&params);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  shepard_preview_request (fixture->preview, &params, long_side);
  g_assert_null (shepard_preview_get_slow_advice (fixture->preview));
  g_assert_true (wait_until (is_idle, fixture->preview));

  /* 5e4 steps in 0.1 s, 39 of them for the points and 22.28 a cell: about 2240 cells, some 54 x 42 on meuse's
   * extent. */
  g_assert_cmpuint (assert_coarse_is_largest_within (fixture, 0.25 * n_points / steps_per_second,
                                                     (log2 (n_points) + 15.0) / steps_per_second, budget, long_side),
                    >=, 50);
}

/* The far field's measured rate stands for the far field alone: a slow brute force stays slow (told at the request)
 * after fast far-field grids, and a slow far field does not make the brute force's advice go away. */
static void
test_far_field_rate_is_its_own (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  _shepard_preview_set_pairs_per_second (fixture->preview, TRUE, 1e3);
  shepard_params_init_aidw (&params);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  shepard_preview_request (fixture->preview, &params, 96);
  g_assert_null (shepard_preview_get_slow_advice (fixture->preview));
  g_assert_true (wait_until (is_idle, fixture->preview));
  g_assert_cmpuint (fixture->deliveries->len, ==, 2);

  params.summation = SHEPARD_SUMMATION_EXACT;
  shepard_preview_request (fixture->preview, &params, 96);
  g_assert_cmpstr (shepard_preview_get_slow_advice (fixture->preview), ==,
                   "All-points weighting of 155 points is slow on the CPU: use the 32 nearest neighbourhood");
  shepard_preview_cancel (fixture->preview);

  /* A far field so slow that not even 8 x 8 cells fit: it says so too. */
  _shepard_preview_set_far_field_rate (fixture->preview, 1.0);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  shepard_preview_request (fixture->preview, &params, 96);
  g_assert_nonnull (shepard_preview_get_slow_advice (fixture->preview));
  shepard_preview_cancel (fixture->preview);
}

/* All-points weighting so slow that not even a 32-cell grid fits the budget is told at the request, before any grid,
 * and the first grid is still a small one; the N nearest neighbourhood it advises is not slow. */
static void
test_slow_layer_is_told_at_once (Fixture *fixture, gconstpointer data)
{
  shepard_params params;

  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  /* Some 23 x 32 cells x 155 points = 114,080 pairs: 11 s at this rate, and even 8 cells along the longer side
   * (6 x 8 x 155 = 7,440 pairs) take 0.74 s. */
  _shepard_preview_set_pairs_per_second (fixture->preview, TRUE, 1e4);
  _shepard_preview_set_pairs_per_second (fixture->preview, FALSE, 1e4);
  shepard_params_init_aidw (&params);
  shepard_preview_request (fixture->preview, &params, 384);
  g_assert_cmpuint (fixture->deliveries->len, ==, 0);
  g_assert_cmpstr (shepard_preview_get_slow_advice (fixture->preview), ==,
                   "All-points weighting of 155 points is slow on the CPU: use the 32 nearest neighbourhood");
  g_assert_cmpuint (shepard_preview_get_advised_neighbors (), ==, 32);
  g_assert_true (wait_until (is_idle, fixture->preview));
  g_assert_cmpuint (MAX (delivery (fixture, 0)->grid.width, delivery (fixture, 0)->grid.height), ==, 8);

  /* The advice is about all-points weighting: the neighbourhood it advises gets none. */
  params.neighbors = 32;
  shepard_preview_request (fixture->preview, &params, 384);
  g_assert_null (shepard_preview_get_slow_advice (fixture->preview));
  shepard_preview_cancel (fixture->preview);
}

/* A zoomed view's request: a grid over exactly the extent asked for, its edges those of the extent. */
static void
test_extent_request_covers_the_extent (Fixture *fixture, gconstpointer data)
{
  const double extent[4] = { 179500.25, 331000.5, 180100.75, 331450.125 };
  shepard_params params;

  aidw_params (&params, 2.5);
  _shepard_preview_set_budgets (fixture->preview, 0, 0);
  shepard_preview_request_extent (fixture->preview, &params, extent, 200);
  g_assert_true (wait_until (is_idle, fixture->preview));
  g_assert_cmpuint (fixture->deliveries->len, ==, 2);
  for (guint i = 0; i < 2; i++)
    {
      const shepard_grid *grid = &delivery (fixture, i)->grid;
      g_assert_cmpfloat (grid->x_min, ==, extent[0]);
      g_assert_cmpfloat (grid->y_max, ==, extent[3]);
      g_assert_cmpfloat_with_epsilon (grid->x_min + grid->dx * (double) grid->width, extent[2], 1e-6);
      g_assert_cmpfloat_with_epsilon (grid->y_max - grid->dy * (double) grid->height, extent[1], 1e-6);
    }
  /* 600.5 x 449.625 map units, 200 cells along the longer side. */
  g_assert_cmpuint (delivery (fixture, 1)->grid.width, ==, 200);
  g_assert_cmpuint (delivery (fixture, 1)->grid.height, ==, 150);
  g_assert_true (delivery (fixture, 1)->final);
}

/* What a view asks for: the whole extent while all points are in view or none of the extent is; zoomed in, the part
 * of the extent in view, at one cell per device pixel but never coarser than the whole extent's cells. */
static void
test_extent_for_view (Fixture *fixture, gconstpointer data)
{
  ShepardDocument *document = shepard_preview_get_document (fixture->preview);
  double whole[4], bounds[4], extent[4];
  guint cells;

  shepard_document_get_extent (document, whole);
  shepard_document_get_bounds (document, &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
  double whole_width = whole[2] - whole[0], whole_height = whole[3] - whole[1];
  g_assert_cmpfloat (whole_height, >, whole_width);

  /* A fitted view, a little larger than the points. */
  double fitted[4] = { bounds[0] - 10, bounds[1] - 10, bounds[2] + 10, bounds[3] + 10 };
  shepard_preview_extent_for_view (fixture->preview, fitted, 5.0, 384, extent, &cells);
  g_assert_cmpmem (extent, sizeof extent, whole, sizeof whole);
  g_assert_cmpuint (cells, ==, 384);

  /* Panned away from the layer. */
  double away[4] = { whole[2] + 100, whole[1], whole[2] + 200, whole[1] + 100 };
  shepard_preview_extent_for_view (fixture->preview, away, 0.1, 384, extent, &cells);
  g_assert_cmpmem (extent, sizeof extent, whole, sizeof whole);
  g_assert_cmpuint (cells, ==, 384);

  /* Zoomed 16 times into the middle at 1 map unit per device pixel: the view is inside the extent. */
  double middle_x = (whole[0] + whole[2]) / 2, middle_y = (whole[1] + whole[3]) / 2;
  double inside[4] = { middle_x - whole_width / 32, middle_y - whole_height / 32, middle_x + whole_width / 32,
                       middle_y + whole_height / 32 };
  shepard_preview_extent_for_view (fixture->preview, inside, 1.0, 384, extent, &cells);
  g_assert_cmpmem (extent, sizeof extent, inside, sizeof inside);
  /* The part's longer side is whole_height / 16: about 250 map units, so 250 pixels. */
  g_assert_cmpuint (cells, ==, (guint) ceil (whole_height / 16));
  /* At a tenth of a map unit per pixel there would be 2,500 pixels: the long side caps it. */
  shepard_preview_extent_for_view (fixture->preview, inside, 0.1, 384, extent, &cells);
  g_assert_cmpuint (cells, ==, 384);
  /* With large pixels, cells as fine as the whole extent's: a sixteenth of 384 along a sixteenth of the extent. */
  shepard_preview_extent_for_view (fixture->preview, inside, 1000.0, 384, extent, &cells);
  g_assert_cmpuint (cells, ==, 24);

  /* Over the north-east corner: the view is cut to the extent. */
  double corner[4] = { whole[2] - 300, whole[3] - 200, whole[2] + 300, whole[3] + 200 };
  shepard_preview_extent_for_view (fixture->preview, corner, 1.0, 384, extent, &cells);
  g_assert_cmpfloat (extent[0], ==, whole[2] - 300);
  g_assert_cmpfloat (extent[1], ==, whole[3] - 200);
  g_assert_cmpfloat (extent[2], ==, whole[2]);
  g_assert_cmpfloat (extent[3], ==, whole[3]);
  g_assert_cmpuint (cells, ==, 300);
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
  ADD ("/app/preview/coarse-grid-fits-the-budget", test_coarse_grid_fits_the_budget);
  ADD ("/app/preview/slow-layer-is-told-at-once", test_slow_layer_is_told_at_once);
  ADD ("/app/preview/document-tells-the-summation", test_document_tells_the_summation);
  ADD ("/app/preview/far-field-coarse-grid-fits-the-budget", test_far_field_coarse_grid_fits_the_budget);
  ADD ("/app/preview/far-field-rate-is-its-own", test_far_field_rate_is_its_own);
  ADD ("/app/preview/extent-request-covers-the-extent", test_extent_request_covers_the_extent);
  ADD ("/app/preview/extent-for-view", test_extent_for_view);
#undef ADD
  return g_test_run ();
}
