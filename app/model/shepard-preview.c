/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-preview.h"

#include "grid-extent.h"
#include "shepard-app-error.h"
#include "shepard-preview-private.h"

#define COARSE_DIVISOR 4
#define COARSE_MIN_CELLS 32
#define REFINE_DELAY_MS 150
/* A full grid expected within this is computed on the calling thread: the frame after the change then shows it, where
 * a worker's result would land a frame later. Kept well under a 60 Hz frame so that the hand never waits. */
#define DEFAULT_SYNC_SECONDS 0.008
/* A full grid expected within this comes at once, without a coarse one first. */
#define DEFAULT_FAST_SECONDS 0.03

/* Local (N nearest) and all-points weighting cost very differently: one estimate each. */
enum {
  KIND_LOCAL,
  KIND_ALL_POINTS,
  N_KINDS
};

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
  /* Seconds per cell of the last full grid of each kind; < 0: not measured yet. */
  double seconds_per_cell[N_KINDS];
  double sync_seconds, fast_seconds;
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

static int
kind_of (const shepard_params *params)
{
  return params->neighbors == SHEPARD_NEIGHBORS_ALL ? KIND_ALL_POINTS : KIND_LOCAL;
}

static ShepardSurfaceMemory
surface_memory (ShepardPreview *self)
{
  return shepard_preview_get_keeps_on_gpu (self) ? SHEPARD_SURFACE_ON_GPU : SHEPARD_SURFACE_IN_HOST_MEMORY;
}

static void
deliver (ShepardPreview *self, ShepardSurface *surface, gboolean full)
{
  size_t cells = surface->grid.width * surface->grid.height;

  /* A coarse grid that comes back after the fine one of the same request would be a step back. */
  if (cells < self->shown_cells)
    return;
  self->shown_cells = cells;
  if (full)
    {
      self->seconds_per_cell[kind_of (&surface->params)] = surface->seconds / (double) cells;
      self->final_awaited = FALSE;
    }
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
  shepard_grid_for_preview (extent, coarse ? MAX (long_side / COARSE_DIVISOR, COARSE_MIN_CELLS) : long_side, grid);
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
  shepard_error engine_error = { 0 };
  shepard_grid grid;

  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  g_return_if_fail (params != NULL && long_side > 0);

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
  g_signal_emit (self, signals[SIGNAL_REQUESTED], 0);
  self->cancellable = g_cancellable_new ();
  self->final_awaited = TRUE;

  shepard_preview_get_grid (self, long_side, FALSE, &grid);
  double per_cell = self->seconds_per_cell[kind_of (params)];
  double expected = per_cell * (double) (grid.width * grid.height);
  gboolean measured = per_cell >= 0;
  if (measured && expected <= self->sync_seconds && compute_now (self, params, &grid, self->sync_seconds - expected))
    {
      update_busy (self);
      return;
    }
  if (measured && expected <= self->fast_seconds)
    start_computation (self, params, &grid, TRUE);
  else
    {
      shepard_grid coarse;
      shepard_preview_get_grid (self, long_side, TRUE, &coarse);
      start_computation (self, params, &coarse, FALSE);
      self->refine_params = *params;
      self->refine_grid = grid;
      self->refine_source = g_timeout_add (REFINE_DELAY_MS, refine, self);
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
  for (int kind = 0; kind < N_KINDS; kind++)
    self->seconds_per_cell[kind] = -1.0;
  set_invalid_reason (self, NULL);
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

const char *
shepard_preview_get_invalid_reason (ShepardPreview *self)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (self), NULL);
  return self->invalid_reason;
}

void
_shepard_preview_set_budgets (ShepardPreview *self, double sync_seconds, double fast_seconds)
{
  g_return_if_fail (SHEPARD_IS_PREVIEW (self));
  self->sync_seconds = sync_seconds;
  self->fast_seconds = fast_seconds;
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
  for (int kind = 0; kind < N_KINDS; kind++)
    self->seconds_per_cell[kind] = -1.0;
  self->sync_seconds = DEFAULT_SYNC_SECONDS;
  self->fast_seconds = DEFAULT_FAST_SECONDS;
}
