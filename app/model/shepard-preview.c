/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-preview.h"

#include <math.h>
#include <string.h>

#include "grid-extent.h"
#include "shepard-app-error.h"
#include "shepard-preview-cost.h"
#include "shepard-preview-private.h"

#define COARSE_DIVISOR 4
/* The smallest coarse grid that still shows the surface's shape: all-points weighting that cannot give one within the
 * frame budget is too slow for the live preview, and the preview says so. */
#define COARSE_MIN_CELLS 32
/* What a layer too slow even for that shows first, so that something comes at once. */
#define COARSE_FLOOR_CELLS 8
/* A coarse grid is chosen to come within this: soon enough for the hand to see what it did. */
#define DEFAULT_FRAME_BUDGET_SECONDS 0.1
/* The neighbourhood the advice for a slow layer offers. */
#define ADVISED_NEIGHBORS 32
/* A full grid expected within this is computed on the calling thread: the frame after the change then shows it, where
 * a worker's result would land a frame later. Kept well under a 60 Hz frame so that the hand never waits. */
#define DEFAULT_SYNC_SECONDS 0.008
/* A full grid expected within this comes at once, without a coarse one first. */
#define DEFAULT_FAST_SECONDS 0.03

struct _ShepardPreview
{
  GObject parent_instance;

  /* Owned */
  ShepardDocument *document;
  ShepardSurface *surface;
  GCancellable *cancellable;
  char *invalid_reason;
  guint generation;
  size_t shown_cells;
  guint refine_source;
  guint computes_in_flight; /* of the current generation: older ones deliver nothing */
  gboolean final_awaited;   /* the latest request's full grid has not come yet */
  shepard_params refine_params;
  shepard_grid refine_grid;
  shepard_params requested_params; /* of the latest valid request */
  ShepardGridCost cost; /* of the document's grids, measured on the last of each kind */
  double sync_seconds, fast_seconds, frame_budget;
  char *slow_advice;
  gboolean display_interop;
  gboolean busy;
};

G_DEFINE_FINAL_TYPE (ShepardPreview, shepard_preview, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_DOCUMENT,
  PROP_DISPLAY_INTEROP,
  PROP_BUSY,
  PROP_INVALID_REASON,
  PROP_SLOW_ADVICE,
  N_PROPS
};

enum {
  SIGNAL_REQUESTED,
  SIGNAL_SURFACE_READY,
  SIGNAL_FAILED,
  SIGNAL_DROPPED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct {
  ShepardPreview *preview;
  guint generation;
  gboolean full;
} Computation;

ShepardPreview *
shepard_preview_new (void)
{
  return g_object_new (SHEPARD_TYPE_PREVIEW, NULL);
}

static void
update_busy (ShepardPreview *self)
{
  gboolean busy = self->computes_in_flight > 0 || self->refine_source != 0;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_invalid_reason (ShepardPreview *self, const char *reason)
{
  if (g_strcmp0 (reason, self->invalid_reason) == 0)
    return;
  g_free (self->invalid_reason);
  self->invalid_reason = g_strdup (reason);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INVALID_REASON]);
}

/* Whatever is pending is dropped: results of older generations are ignored when they come back. Returns whether a
 * request was still to deliver its full grid. */
static gboolean
drop_pending (ShepardPreview *self)
{
  gboolean dropped = self->final_awaited;

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->refine_source, g_source_remove);
  self->generation++;
  self->shown_cells = 0;
  self->computes_in_flight = 0;
  self->final_awaited = FALSE;
  return dropped;
}

/* Nothing more comes for the latest request, and no request follows at once. */
static void
drop_pending_and_tell (ShepardPreview *self)
{
  if (drop_pending (self))
    g_signal_emit (self, signals[SIGNAL_DROPPED], 0);
}

void
shepard_preview_cancel (ShepardPreview *self)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));

  drop_pending_and_tell (self);
  update_busy (self);
}

static size_t
cells_of (const shepard_grid *grid)
{
  return grid->width * grid->height;
}

/* The largest coarse grid, up to 1 / COARSE_DIVISOR of the full one along each side, expected within the frame
 * budget beyond what every grid costs (the far field's near field weighs every point whatever the grid: a larger grid
 * that adds little to that comes as soon); *fits: whether one of COARSE_MIN_CELLS (or the full size, when smaller) is
 * expected within the budget itself. */
static void
choose_coarse_grid (ShepardPreview *self, const shepard_params *params, const double extent[4], guint long_side,
                    shepard_grid *coarse, gboolean *fits)
{
  guint largest = MAX (long_side / COARSE_DIVISOR, MIN (COARSE_MIN_CELLS, long_side));
  guint smallest = MIN (COARSE_FLOOR_CELLS, largest);

  shepard_grid_for_preview (extent, MIN (COARSE_MIN_CELLS, long_side), coarse);
  *fits = shepard_grid_cost_seconds (&self->cost, self->document, params, coarse) <= self->frame_budget;
  shepard_grid_for_preview (extent, smallest, coarse);
  double budget = self->frame_budget + shepard_grid_cost_fixed_seconds (&self->cost, self->document, params, coarse);
  for (guint side = largest; side > smallest; side--)
    {
      shepard_grid_for_preview (extent, side, coarse);
      if (shepard_grid_cost_seconds (&self->cost, self->document, params, coarse) <= budget)
        return;
    }
  shepard_grid_for_preview (extent, smallest, coarse);
}

/* 1234567 as "1,234,567". */
static char *
format_count (size_t count)
{
  g_autofree char *digits = g_strdup_printf ("%zu", count);
  GString *text = g_string_new (NULL);
  size_t length = strlen (digits);

  for (size_t i = 0; i < length; i++)
    {
      if (i > 0 && (length - i) % 3 == 0)
        g_string_append_c (text, ',');
      g_string_append_c (text, digits[i]);
    }
  return g_string_free (text, FALSE);
}

static void
set_slow_advice (ShepardPreview *self, const char *advice)
{
  if (g_strcmp0 (advice, self->slow_advice) == 0)
    return;
  g_free (self->slow_advice);
  self->slow_advice = g_strdup (advice);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SLOW_ADVICE]);
}

static void
update_slow_advice (ShepardPreview *self, const shepard_params *params, gboolean coarse_fits)
{
  if (coarse_fits || params->neighbors != SHEPARD_NEIGHBORS_ALL)
    {
      set_slow_advice (self, NULL);
      return;
    }
  g_autofree char *count = format_count (shepard_document_get_points (self->document)->count);
  g_autofree char *advice = g_strdup_printf ("All-points weighting of %s points is slow on the %s: use the %d "
                                             "nearest neighbourhood",
                                             count,
                                             shepard_document_get_cuda_device (self->document) >= 0 ? "GPU" : "CPU",
                                             ADVISED_NEIGHBORS);
  set_slow_advice (self, advice);
}

static ShepardSurfaceMemory
surface_memory (ShepardPreview *self)
{
  return shepard_preview_get_keeps_on_gpu (self) ? SHEPARD_SURFACE_ON_GPU : SHEPARD_SURFACE_IN_HOST_MEMORY;
}

static void
deliver (ShepardPreview *self, ShepardSurface *surface, gboolean full)
{
  size_t cells = cells_of (&surface->grid);

  /* A coarse grid that comes back after the fine one of the same request would be a step back. */
  if (cells < self->shown_cells)
    return;
  self->shown_cells = cells;
  shepard_grid_cost_measure (&self->cost, self->document, surface);
  if (full)
    self->final_awaited = FALSE;
  g_clear_pointer (&self->surface, shepard_surface_unref);
  self->surface = shepard_surface_ref (surface);
  g_signal_emit (self, signals[SIGNAL_SURFACE_READY], 0, surface, full);
}

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Computation *computation = user_data;
  ShepardPreview *self = computation->preview;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result,
                                                                            &error);
  gboolean current = computation->generation == self->generation && SHEPARD_DOCUMENT (source) == self->document;

  if (current)
    self->computes_in_flight--;
  if (current && surface != NULL)
    deliver (self, surface, computation->full);
  else if (current && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (computation->full)
        self->final_awaited = FALSE;
      g_signal_emit (self, signals[SIGNAL_FAILED], 0, error->message);
    }
  update_busy (self);
  g_object_unref (self);
  g_free (computation);
}

void
shepard_preview_get_grid (ShepardPreview *self, guint long_side, gboolean coarse, shepard_grid *grid)
{
  double extent[4];

  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (self->document != NULL);
  g_return_if_fail (long_side > 0 && grid != NULL);

  shepard_document_get_extent (self->document, extent);
  shepard_grid_for_preview (extent,
                            coarse ? MAX (long_side / COARSE_DIVISOR, MIN (COARSE_MIN_CELLS, long_side)) : long_side,
                            grid);
}

void
shepard_preview_extent_for_view (ShepardPreview *self, const double visible[4], double pixel_size, guint long_side,
                                 double extent[4], guint *cells)
{
  double bounds[4], whole[4];

  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (self->document != NULL);
  g_return_if_fail (visible != NULL && extent != NULL && cells != NULL && long_side > 0);

  shepard_document_get_extent (self->document, whole);
  shepard_document_get_bounds (self->document, &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
  double part[4] = { MAX (visible[0], whole[0]), MAX (visible[1], whole[1]), MIN (visible[2], whole[2]),
                     MIN (visible[3], whole[3]) };
  gboolean shows_all_points = visible[0] <= bounds[0] && visible[1] <= bounds[1] && visible[2] >= bounds[2]
                              && visible[3] >= bounds[3];
  gboolean shows_some = part[2] > part[0] && part[3] > part[1];
  if (shows_all_points || !shows_some || !(pixel_size > 0))
    {
      memcpy (extent, whole, sizeof whole);
      *cells = long_side;
      return;
    }
  double part_side = MAX (part[2] - part[0], part[3] - part[1]);
  /* Never coarser than the whole extent's cells, and finer down to one cell per device pixel. */
  double as_fine_as_whole = ceil (part_side / (MAX (whole[2] - whole[0], whole[3] - whole[1]) / long_side));
  double one_per_pixel = ceil (part_side / pixel_size);
  memcpy (extent, part, sizeof part);
  *cells = (guint) CLAMP (MAX (as_fine_as_whole, one_per_pixel), 1.0, (double) long_side);
}

static void
start_computation (ShepardPreview *self, const shepard_params *params, const shepard_grid *grid, gboolean full)
{
  Computation *computation = g_new0 (Computation, 1);

  computation->preview = g_object_ref (self);
  computation->generation = self->generation;
  computation->full = full;
  self->computes_in_flight++;
  shepard_document_interpolate_async (self->document, params, grid, surface_memory (self), self->cancellable,
                                      on_computed, computation);
}

static gboolean
refine (gpointer data)
{
  ShepardPreview *self = data;

  self->refine_source = 0;
  start_computation (self, &self->refine_params, &self->refine_grid, TRUE);
  update_busy (self);
  return G_SOURCE_REMOVE;
}

/* TRUE when the grid was computed and delivered here (waiting up to patience seconds for a cancelled job to give
 * the engine up: the instruments' work, or an overtaken grid); FALSE when the engine stayed busy, and a worker must
 * do it. */
static gboolean
compute_now (ShepardPreview *self, const shepard_params *params, const shepard_grid *grid, double patience)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_if_idle (self->document, params, grid,
                                                                             surface_memory (self), patience,
                                                                             &error);

  if (surface != NULL)
    deliver (self, surface, TRUE);
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BUSY))
    return FALSE;
  else
    {
      self->final_awaited = FALSE;
      g_signal_emit (self, signals[SIGNAL_FAILED], 0, error->message);
    }
  return TRUE;
}

void
shepard_preview_request (ShepardPreview *self, const shepard_params *params, guint long_side)
{
  double extent[4];

  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (params != NULL && long_side > 0);

  if (self->document == NULL)
    return;
  shepard_document_get_extent (self->document, extent);
  shepard_preview_request_extent (self, params, extent, long_side);
}

void
shepard_preview_request_extent (ShepardPreview *self, const shepard_params *params, const double extent[4],
                                guint long_side)
{
  shepard_error engine_error = { 0 };
  shepard_grid grid, coarse;
  gboolean coarse_fits;

  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (params != NULL && long_side > 0);
  g_return_if_fail (extent != NULL && extent[2] > extent[0] && extent[3] > extent[1]);

  if (self->document == NULL)
    return;
  if (shepard_params_validate (params, &engine_error) != SHEPARD_OK)
    {
      drop_pending_and_tell (self);
      set_invalid_reason (self, engine_error.message);
      update_busy (self);
      return;
    }
  drop_pending (self);
  set_invalid_reason (self, NULL);
  self->requested_params = *params;
  g_signal_emit (self, signals[SIGNAL_REQUESTED], 0);
  self->cancellable = g_cancellable_new ();
  self->final_awaited = TRUE;

  shepard_grid_for_preview (extent, long_side, &grid);
  choose_coarse_grid (self, params, extent, long_side, &coarse, &coarse_fits);
  /* Before any work: a layer too slow for the live preview is told at once, not after a wait. */
  update_slow_advice (self, params, coarse_fits);
  double expected = shepard_grid_cost_seconds (&self->cost, self->document, params, &grid);
  gboolean measured = shepard_grid_cost_measured (&self->cost, self->document, params, &grid);
  if (measured && expected <= self->sync_seconds && compute_now (self, params, &grid, self->sync_seconds - expected))
    {
      update_busy (self);
      return;
    }
  if (measured && expected <= self->fast_seconds)
    start_computation (self, params, &grid, TRUE);
  else
    {
      start_computation (self, params, &coarse, FALSE);
      self->refine_params = *params;
      self->refine_grid = grid;
      self->refine_source = g_timeout_add (SHEPARD_PREVIEW_REST_MS, refine, self);
    }
  update_busy (self);
}

void
shepard_preview_set_document (ShepardPreview *self, ShepardDocument *document)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (document == NULL || SHEPARD_IS_DOCUMENT (document));

  /* "notify::document" says it all. */
  drop_pending (self);
  g_set_object (&self->document, document);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  shepard_grid_cost_forget (&self->cost);
  set_invalid_reason (self, NULL);
  set_slow_advice (self, NULL);
  update_busy (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

ShepardDocument *
shepard_preview_get_document (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return self->document;
}

void
shepard_preview_set_display_interop (ShepardPreview *self, gboolean display_interop)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));

  display_interop = !!display_interop;
  if (display_interop == self->display_interop)
    return;
  self->display_interop = display_interop;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DISPLAY_INTEROP]);
}

gboolean
shepard_preview_get_display_interop (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), FALSE);
  return self->display_interop;
}

gboolean
shepard_preview_get_keeps_on_gpu (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), FALSE);
  return self->display_interop && self->document != NULL && shepard_document_can_keep_on_gpu (self->document);
}

ShepardSurface *
shepard_preview_get_surface (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return self->surface;
}

gboolean
shepard_preview_get_busy (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), FALSE);
  return self->busy;
}

const shepard_params *
shepard_preview_get_requested_params (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return &self->requested_params;
}

const char *
shepard_preview_get_invalid_reason (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return self->invalid_reason;
}

const char *
shepard_preview_get_slow_advice (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return self->slow_advice;
}

guint
shepard_preview_get_advised_neighbors (void)
{
  return ADVISED_NEIGHBORS;
}

void
_shepard_preview_set_budgets (ShepardPreview *self, double sync_seconds, double fast_seconds)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  self->sync_seconds = sync_seconds;
  self->fast_seconds = fast_seconds;
}

void
_shepard_preview_set_frame_budget (ShepardPreview *self, double seconds)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  self->frame_budget = seconds;
}

void
_shepard_preview_set_pairs_per_second (ShepardPreview *self, gboolean all_points, double pairs_per_second)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  self->cost.work_per_second[all_points ? SHEPARD_GRID_COST_ALL_POINTS : SHEPARD_GRID_COST_LOCAL] = pairs_per_second;
}

void
_shepard_preview_set_far_field_rate (ShepardPreview *self, double steps_per_second)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  self->cost.work_per_second[SHEPARD_GRID_COST_FAR_FIELD] = steps_per_second;
}


static void
shepard_preview_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardPreview *self = SHEPARD_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, self->document);
      break;
    case PROP_DISPLAY_INTEROP:
      g_value_set_boolean (value, self->display_interop);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    case PROP_INVALID_REASON:
      g_value_set_string (value, self->invalid_reason);
      break;
    case PROP_SLOW_ADVICE:
      g_value_set_string (value, self->slow_advice);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_preview_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ShepardPreview *self = SHEPARD_PREVIEW (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      shepard_preview_set_document (self, g_value_get_object (value));
      break;
    case PROP_DISPLAY_INTEROP:
      shepard_preview_set_display_interop (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_preview_dispose (GObject *object)
{
  ShepardPreview *self = SHEPARD_PREVIEW (object);

  drop_pending (self);
  g_clear_object (&self->document);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  G_OBJECT_CLASS (shepard_preview_parent_class)->dispose (object);
}

static void
shepard_preview_finalize (GObject *object)
{
  ShepardPreview *self = SHEPARD_PREVIEW (object);

  g_free (self->invalid_reason);
  g_free (self->slow_advice);
  G_OBJECT_CLASS (shepard_preview_parent_class)->finalize (object);
}

static void
shepard_preview_class_init (ShepardPreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = shepard_preview_get_property;
  object_class->set_property = shepard_preview_set_property;
  object_class->dispose = shepard_preview_dispose;
  object_class->finalize = shepard_preview_finalize;

  properties[PROP_DOCUMENT] = g_param_spec_object ("document", NULL, NULL, SHEPARD_TYPE_DOCUMENT,
                                                   G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  properties[PROP_DISPLAY_INTEROP] = g_param_spec_boolean ("display-interop", NULL, NULL, FALSE,
                                                           G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                             | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                                                G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_INVALID_REASON] = g_param_spec_string ("invalid-reason", NULL, NULL, NULL,
                                                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_SLOW_ADVICE] = g_param_spec_string ("slow-advice", NULL, NULL, NULL,
                                                      G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_REQUESTED] = g_signal_new ("requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                            NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_SURFACE_READY] = g_signal_new ("surface-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 2,
                                                SHEPARD_TYPE_SURFACE | G_SIGNAL_TYPE_STATIC_SCOPE, G_TYPE_BOOLEAN);
  signals[SIGNAL_FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
  signals[SIGNAL_DROPPED] = g_signal_new ("dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                          G_TYPE_NONE, 0);
}

static void
shepard_preview_init (ShepardPreview *self)
{
  self->sync_seconds = DEFAULT_SYNC_SECONDS;
  self->frame_budget = DEFAULT_FRAME_BUDGET_SECONDS;
  self->fast_seconds = DEFAULT_FAST_SECONDS;
}
