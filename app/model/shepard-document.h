/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "duplicate-points.h"
#include "grid-export.h"
#include "point-layer.h"
#include "progress-relay.h"
#include "shepard-cross-validation.h"
#include "shepard-engine.h"
#include "shepard-explanation.h"
#include "shepard-optimiser.h"
#include "shepard-surface.h"
#include "writable-formats.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_DOCUMENT (shepard_document_get_type ())
G_DECLARE_FINAL_TYPE (ShepardDocument, shepard_document, SHEPARD, DOCUMENT, GObject)

/* A layer of points read from a file, or (the classroom sandbox) edited by hand; its engine computes surfaces,
 * cross-validations and explanations in worker threads, one at a time. "points-changed" follows every edit of a
 * sandbox's points. */

/* Reads the points of path (field NULL: the first numeric field) and gives them to a new engine, in a worker
 * thread. */
void shepard_document_load_async (const char *path, const char *field, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
/* The same with the engine on the GPUs gpus names, as shepard-grid --gpus takes them ("all" or "0,1"; NULL: all):
 * where they are not there the engine runs on the CPU and says why (shepard_document_get_engine_fallback_reason);
 * text that names no GPUs fails with SHEPARD_APP_ERROR_INVALID_PARAMETER. Finished by shepard_document_load_finish. */
void shepard_document_load_on_gpus_async (const char *path, const char *field, const char *gpus,
                                          GCancellable *cancellable, GAsyncReadyCallback callback,
                                          gpointer user_data);
ShepardDocument *shepard_document_load_finish (GAsyncResult *result, GError **error);

const ShepardPointLayer *shepard_document_get_points (ShepardDocument *self);
const char *const *shepard_document_get_numeric_fields (ShepardDocument *self);
/* The engine in full: "CPU, 2 threads, float32 AVX2 (no CUDA: …)"; the same without the reason in parentheses, for a
 * status bar; and that reason alone (NULL when the engine runs where asked). */
const char *shepard_document_get_backend (ShepardDocument *self);
const char *shepard_document_get_engine_name (ShepardDocument *self);
const char *shepard_document_get_engine_fallback_reason (ShepardDocument *self);
/* "Amersfoort / RD New (EPSG:28992)", or "none". */
const char *shepard_document_get_crs_name (ShepardDocument *self);
/* The CRS as GDAL takes it back (shepard_document_new_sandbox's crs): "EPSG:28992" when an authority's code names
 * it, else its WKT; NULL without a CRS. */
const char *shepard_document_get_crs_definition (ShepardDocument *self);
void shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max);
/* {x_min, y_min, x_max, y_max}: the area previewed and exported by default: the points' bounding box
 * (shepard_extent_of_points), or a sandbox's extent. */
void shepard_document_get_extent (ShepardDocument *self, double extent[4]);
double shepard_document_get_value_min (ShepardDocument *self);
/* Points at one location with different values (duplicate-points.h), whose mean the surface takes there: FALSE when
 * there are none; report is filled either way. */
gboolean shepard_document_get_duplicates (ShepardDocument *self, ShepardDuplicateReport *report);
double shepard_document_get_value_max (ShepardDocument *self);

/* The CUDA device the engine computes on (the first of its GPUs, which keeps the grids left on the GPU), or -1 when it
 * runs on the CPU. */
int shepard_document_get_cuda_device (ShepardDocument *self);

/* The GPUs the engine was asked to run on, as shepard-grid --gpus takes them: "all" or "0,1". */
char *shepard_document_get_gpus (ShepardDocument *self);
/* Makes the engine again on the GPUs gpus names (as shepard_document_load_on_gpus_async takes them) with the points it
 * holds, in a worker thread once the engine is free: surfaces, cross-validations and exports asked for meanwhile wait
 * and then run on the new engine; the backend names and the CUDA device follow it when it is done, on the main
 * thread. A grid requested on the GPU before the change that would run on another device (or on the CPU) is
 * cancelled: ask for it again. A cancel before the new engine is made keeps the old one (G_IO_ERROR_CANCELLED); the
 * new engine falls back to the CPU, saying why, as at load. */
void shepard_document_set_gpus_async (ShepardDocument *self, const char *gpus, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data);
gboolean shepard_document_set_gpus_finish (ShepardDocument *self, GAsyncResult *result, GError **error);
/* How the engine would make the all-points sums of an interpolation of n_queries with params
 * (shepard_engine_summation): SHEPARD_SUMMATION_FAR_FIELD or _EXACT. The answer may change once the far field's tree
 * is built (an interpolation builds it where the layer's load did not). */
shepard_summation shepard_document_get_summation (ShepardDocument *self, const shepard_params *params,
                                                  size_t n_queries);
/* Whether interpolations can leave their grids on the GPU (SHEPARD_SURFACE_ON_GPU): only on a CUDA engine. */
gboolean shepard_document_can_keep_on_gpu (ShepardDocument *self);

/* Interpolates grid in a worker thread. Calls run one at a time on the engine: cancel the older request before
 * making a newer one, and it gives the engine up at the engine's next cancel check (every ~50 ms of work). */
void shepard_document_interpolate_async (ShepardDocument *self, const shepard_params *params,
                                         const shepard_grid *grid, ShepardSurfaceMemory memory,
                                         GCancellable *cancellable, GAsyncReadyCallback callback,
                                         gpointer user_data);
ShepardSurface *shepard_document_interpolate_finish (ShepardDocument *self, GAsyncResult *result, GError **error);
/* The same, on the calling thread and at once, when the engine is free or its holder has been cancelled and gives it
 * up within patience seconds (it goes before any worker waiting); otherwise NULL with G_IO_ERROR_BUSY (the caller
 * goes asynchronous instead of waiting longer). For grids known to take a few milliseconds: the frame that follows
 * then shows them. The surface's seconds count the whole call but the wait. */
ShepardSurface *shepard_document_interpolate_if_idle (ShepardDocument *self, const shepard_params *params,
                                                      const shepard_grid *grid, ShepardSurfaceMemory memory,
                                                      double patience, GError **error);

/* Cross-validates the layer with params (folds: SHEPARD_FOLDS_LEAVE_ONE_OUT or a count, dealt by seed) in a worker
 * thread; a cancel gives the engine up at its next cancel check (G_IO_ERROR_CANCELLED). The result holds the points
 * it was computed on and their generation. */
void shepard_document_cross_validate_async (ShepardDocument *self, const shepard_params *params, size_t folds,
                                            guint64 seed, GCancellable *cancellable, GAsyncReadyCallback callback,
                                            gpointer user_data);
ShepardCrossValidation *shepard_document_cross_validate_finish (ShepardDocument *self, GAsyncResult *result,
                                                                GError **error);

/* Explains the value at (x, y) under params, listing shepard_explanation_capacity_for (params) nearest points. */
void shepard_document_explain_async (ShepardDocument *self, const shepard_params *params, double x, double y,
                                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
ShepardExplanation *shepard_document_explain_finish (ShepardDocument *self, GAsyncResult *result, GError **error);

/* Tunes params for the smallest cross-validation error (app/analysis/shepard-optimiser) in a worker thread. The
 * engine is the optimiser's until it is done or cancelled (G_IO_ERROR_CANCELLED, within ~100 ms): interpolations
 * wait meanwhile, and a sandbox refuses edits of its points until the result is delivered. */
void shepard_document_optimise_async (ShepardDocument *self, const shepard_params *params,
                                      const ShepardOptimiseOptions *options, ShepardProgressCallback progress,
                                      GObject *progress_target, GCancellable *cancellable,
                                      GAsyncReadyCallback callback, gpointer user_data);
gboolean shepard_document_optimise_finish (ShepardDocument *self, GAsyncResult *result,
                                           ShepardOptimiseResult *optimised, GError **error);

/* The classroom sandbox: a layer of hand-placed points (one field, "value") over a chosen extent {x_min, y_min,
 * x_max, y_max}, which is what it shows, previews and exports by default, and its study area: AIDW's r_exp uses the
 * extent's area whatever the parameters' area mode (results keep the parameters as asked). crs: any definition GDAL
 * takes ("EPSG:28992", WKT, PROJ), or NULL / "" for none. */
ShepardDocument *shepard_document_new_sandbox (const double extent[4], const char *crs, GError **error);
gboolean shepard_document_is_sandbox (ShepardDocument *self);
/* Bumped by every edit of the points. */
guint shepard_document_get_points_generation (ShepardDocument *self);
/* Edits of a sandbox's points, on the main thread: each waits for the engine (cancel the previews first), gives it
 * the new points and emits "points-changed". The arrays of shepard_document_get_points are replaced by each edit
 * (jobs in flight keep reading a consistent set). While an optimisation of the document runs, edits are refused
 * with G_IO_ERROR_BUSY and a message to show. Values and coordinates must be finite; indices refer to
 * shepard_document_get_points. add returns the new point's index. */
gssize shepard_document_add_point (ShepardDocument *self, double x, double y, double value, GError **error);
gboolean shepard_document_move_point (ShepardDocument *self, size_t index, double x, double y, GError **error);
gboolean shepard_document_set_point_value (ShepardDocument *self, size_t index, double value, GError **error);
gboolean shepard_document_remove_point (ShepardDocument *self, size_t index, GError **error);
/* Writes the points (with their CRS, field "value") as a point layer in path's format (GeoPackage for .gpkg), which
 * then opens again like any layer; atomically. */
gboolean shepard_document_save_points (ShepardDocument *self, const char *path, GError **error);

/* The mask (grid-mask.h) of every surface interpolated and every raster exported from now on, taken (NULL or an
 * empty mask: none): masked cells are NaN in surfaces (shepard_surface_take_mask) and nodata in rasters. A surface
 * or an export under way keeps the mask it started with. */
void shepard_document_set_mask (ShepardDocument *self, ShepardGridMask *mask);
gboolean shepard_document_has_mask (ShepardDocument *self);

/* What an export writes (app/io/grid-export): the values, and any of alpha, R and r_obs as extra bands of the value
 * raster or as rasters of their own at the paths given (NULL: none), in one driver (NULL: GeoTIFF). */
typedef struct {
  const char *value_path;
  ShepardGridExportPlanes extra_bands;
  const char *alpha_path, *r_path, *r_obs_path;
  const char *driver_name;
  ShepardSampleType sample_type;
  const char *const *creation_options; /* NAME=VALUE; NULL: none beyond the driver's defaults */
  gboolean has_nodata;                 /* FALSE: a nodata value the layer's values cannot reach */
  double nodata;
  const char *method;                  /* SHEPARD_METHOD of the metadata: params as shepard-grid -a takes them */
  /* Several numeric fields of the layer, one value band each in this order, described with their names (the extra
   * bands follow them); each field's points are read again, rows without a value in it skipped for it alone. NULL,
   * or the layer's field alone: the layer's field, as before. */
  const char *const *fields;
} ShepardExportTarget;

/* The parameters the engine computes with for params: a sandbox's study area is its extent. */
void shepard_document_get_engine_params (ShepardDocument *self, const shepard_params *params,
                                         shepard_params *engine_params);

/* Whether target can be written with params (R and r_obs need AIDW, distinct files, a format that holds the bands),
 * before anything is computed: for a dialog to refuse at once. */
gboolean shepard_document_check_export (ShepardDocument *self, const shepard_params *params,
                                        const ShepardExportTarget *target, GError **error);

/* Writes target atomically through app/io/grid-export, in a worker thread, with the layer's CRS and where it comes
 * from in the metadata (app/io/raster-metadata); band 1 of a multi-band raster is described with the field's name. A cancel ends it with SHEPARD_APP_ERROR_CANCELLED. */
void shepard_document_export_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                    const ShepardExportTarget *target, ShepardProgressCallback progress,
                                    GObject *progress_target, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data);
gboolean shepard_document_export_finish (ShepardDocument *self, GAsyncResult *result, GError **error);

G_END_DECLS
