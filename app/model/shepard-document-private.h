/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "device-grid-pool.h"
#include "shepard-document.h"

G_BEGIN_DECLS

typedef struct _ShepardDocumentMask ShepardDocumentMask;

/* The document's parts live in several files (shepard-document.c: the type and its getters; shepard-document-load.c:
 * a layer read and an engine started for its points; shepard-document-jobs.c: who holds the engine, and the worker
 * threads that run on it; shepard-document-interpolate.c: surfaces; shepard-document-export.c: rasters, with
 * shepard-document-fields.c for several fields; shepard-document-analysis.c: cross-validation, explanations and the
 * optimiser; shepard-document-sandbox.c: the classroom sandbox's editable points and study area;
 * shepard-document-mask.c: the mask; shepard-document-gpus.c: the engine made again on other GPUs); they share
 * this. */
struct _ShepardDocument
{
  GObject parent_instance;

  /* Written on the main thread only, and then copy on write: an edit builds new arrays and swaps them in while it
   * holds the engine, so that a job holding the engine reads one consistent set. */
  ShepardPointLayer *points;
  guint points_generation; /* bumped by every edit of the points, with the engine held */
  char **numeric_fields;
  char *crs_name;
  char *crs_definition;
  double value_min, value_max;
  ShepardDuplicateReport duplicates; /* of self->points, found with the value range */
  gboolean has_duplicates;

  /* The engine keeps search structures between calls and is not reentrant: one holder at a time
   * (shepard-document-jobs.c). engine_state guards the four fields that follow it and is never held while the
   * engine works. */
  GMutex engine_state;
  GCond engine_released;
  gboolean engine_held;
  GCancellable *engine_holder; /* the holding job's cancellable; NULL when the holder cannot be cancelled */
  guint inline_waiters;        /* in-line interpolations waiting for a cancelled holder: they go before workers */
  shepard_engine *engine;
  shepard_gpu_set gpus; /* those the engine was asked for (count 0: every visible GPU) */
  char *backend;
  char *engine_name; /* the backend without the reason it fell back to the CPU */

  ShepardDeviceGridPool *device_grids; /* NULL on a CPU engine */

  gboolean sandbox;
  double sandbox_extent[4]; /* x_min, y_min, x_max, y_max: what a sandbox shows, interpolates and studies */
  gint optimisations;       /* optimisations not yet delivered (atomic): the points are theirs meanwhile */

  /* The mask of previews and exports (shepard-document-mask.c), reference counted so that a job keeps the mask it
   * started with; mask_lock guards the pointer only. NULL: none. */
  GMutex mask_lock;
  ShepardDocumentMask *mask;
};

/* A reference to the mask for a job's run (NULL: none), its release (NULL allowed), and the mask it holds. */
ShepardDocumentMask *_shepard_document_ref_mask (ShepardDocument *self);
void _shepard_document_unref_mask (ShepardDocumentMask *box);
ShepardGridMask *_shepard_document_mask_get (ShepardDocumentMask *box);
/* Gives a new surface the mask's keep bytes for its grid (nothing without a mask). */
gboolean _shepard_document_mask_surface (ShepardDocument *self, ShepardSurface *surface, GError **error);

/* shepard-document-fields.c: an export of several fields, read again from the layer (a sandbox has one field). */
typedef struct {
  GPtrArray *layers;  /* ShepardPointLayer of each field, in the order asked */
  GPtrArray *engines; /* one per set of points, owned */
  ShepardGridExportField *fields; /* n_fields, for ShepardGridExport.fields */
  size_t n_fields;
  double value_min, value_max; /* over every field */
} ShepardFieldEngines;
gboolean _shepard_field_engines_init (ShepardDocument *self, const char *const *names, ShepardFieldEngines *engines,
                                      GError **error);
void _shepard_field_engines_clear (ShepardFieldEngines *engines);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardFieldEngines, _shepard_field_engines_clear)

/* shepard-document-load.c: a new engine on self->gpus for self->points (which may be empty): backend names, the GPU
 * grid pool, the value range. */
gboolean _shepard_document_start_engine (ShepardDocument *self, GCancellable *cancellable, GError **error);
/* Its parts: a new engine on gpus (NULL: every visible GPU) holding self->points, with the far field's tree where
 * previews take it (read self->points with the engine held or before anyone else may; cancellable, which may be NULL,
 * stops the tree's build, leaving it to the first interpolation that needs it); and engine made the document's in
 * place of the one before, with its names and the GPU grid pool, gpus recorded as asked (on the main thread, with the
 * engine held). */
shepard_engine *_shepard_document_new_engine (ShepardDocument *self, const shepard_gpu_set *gpus,
                                              GCancellable *cancellable, GError **error);
void _shepard_document_take_engine (ShepardDocument *self, shepard_engine *engine, const shepard_gpu_set *gpus);
/* shepard-document-gpus.c: gpus as shepard-grid --gpus takes them (NULL: "all"), or SHEPARD_APP_ERROR_INVALID_PARAMETER
 * with the engine's message. */
gboolean _shepard_document_parse_gpus (const char *gpus, shepard_gpu_set *set, GError **error);
/* The value range and the duplicates report of self->points, after they changed. */
void _shepard_document_update_value_range (ShepardDocument *self);
/* "Amersfoort / RD New (EPSG:28992)", "none" without a CRS; into definition: "EPSG:28992" when an authority's code
 * names the CRS, else the WKT itself, NULL without a CRS. */
char *_shepard_document_describe_crs (const char *wkt, char **definition);

/* shepard-document.c: emits "points-changed". */
void _shepard_document_emit_points_changed (ShepardDocument *self);

/* The parameters the engine computes with for params: a sandbox's study area is its extent, whatever params say
 * (the few points placed so far do not span the region studied). Results keep the parameters asked for. */
void _shepard_document_engine_params (ShepardDocument *self, const shepard_params *params,
                                      shepard_params *engine_params);

/* Holding the engine. hold waits for the holder before (and for in-line interpolations waiting) and returns FALSE,
 * without the engine, once cancellable (may be NULL) is cancelled. hold_until takes the engine if it is free, or
 * waits until deadline (g_get_monotonic_time) for a holder that has been cancelled to give it up; FALSE when it stays
 * busy. */
gboolean _shepard_document_hold_engine (ShepardDocument *self, GCancellable *cancellable);
gboolean _shepard_document_hold_engine_until (ShepardDocument *self, gint64 deadline);
void _shepard_document_release_engine (ShepardDocument *self);

/* A job's work, called in a worker thread with the engine held: fills request with its result, or returns FALSE
 * with error. */
typedef gboolean (*ShepardEngineWork) (ShepardDocument *self, gpointer request, GCancellable *cancellable,
                                       GError **error);
/* Runs work on the engine in a worker thread; request is freed with the task. A cancelled job gives the engine up at
 * the engine's next cancel check (or does not take it at all) and ends with G_IO_ERROR_CANCELLED, delivered only
 * once its work has stopped, so that it never pre-empts the newer result it made way for. */
void _shepard_document_start_job (ShepardDocument *self, gpointer source_tag, ShepardEngineWork work,
                                  gpointer request, GDestroyNotify request_free, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
/* The request of a job that succeeded (the task's: valid while result is), or NULL with the job's error. */
gpointer _shepard_document_finish_job (ShepardDocument *self, GAsyncResult *result, gpointer source_tag,
                                       GError **error);

/* A cancellable (or NULL: never cancelled) as an engine progress callback's data: returns false once it is
 * cancelled. */
bool _shepard_document_cancel_check (double fraction, const char *message, void *cancellable);
/* An engine status as a GError: G_IO_ERROR_CANCELLED for a cancel, else the engine's message. */
void _shepard_document_set_engine_failure (GError **error, shepard_status status, const shepard_error *engine_error);

G_END_DECLS
