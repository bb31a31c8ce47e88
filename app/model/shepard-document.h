/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "point-layer.h"
#include "shepard-engine.h"
#include "shepard-surface.h"
#include "writable-formats.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_DOCUMENT (shepard_document_get_type ())
G_DECLARE_FINAL_TYPE (ShepardDocument, shepard_document, SHEPARD, DOCUMENT, GObject)

/* Reads the points of path (field NULL: the first numeric field) and gives them to a new engine, in a worker
 * thread. */
void shepard_document_load_async (const char *path, const char *field, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
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
void shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max);
/* {x_min, y_min, x_max, y_max}: the area previewed and exported by default, the bounds with a margin
 * (shepard_extent_around_points). */
void shepard_document_get_extent (ShepardDocument *self, double extent[4]);
double shepard_document_get_value_min (ShepardDocument *self);
double shepard_document_get_value_max (ShepardDocument *self);

/* The CUDA device the engine computes on, or -1 when it runs on the CPU. */
int shepard_document_get_cuda_device (ShepardDocument *self);
/* Whether interpolations can leave their grids on the GPU (SHEPARD_SURFACE_ON_GPU): only on a CUDA engine. */
gboolean shepard_document_can_keep_on_gpu (ShepardDocument *self);

/* Interpolates grid in a worker thread. Calls run one at a time on the engine: cancel the older request before
 * making a newer one, and it gives the engine up within ~100 ms. */
void shepard_document_interpolate_async (ShepardDocument *self, const shepard_params *params,
                                         const shepard_grid *grid, ShepardSurfaceMemory memory,
                                         GCancellable *cancellable, GAsyncReadyCallback callback,
                                         gpointer user_data);
ShepardSurface *shepard_document_interpolate_finish (ShepardDocument *self, GAsyncResult *result, GError **error);
/* The same, on the calling thread and at once, when the engine is free; when a worker holds it, NULL with
 * G_IO_ERROR_BUSY (the caller goes asynchronous instead of waiting). For grids known to take a few milliseconds:
 * the frame that follows then shows them. */
ShepardSurface *shepard_document_interpolate_if_idle (ShepardDocument *self, const shepard_params *params,
                                                      const shepard_grid *grid, ShepardSurfaceMemory memory,
                                                      GError **error);

/* Called on the thread that started the export, with a reference on target held meanwhile. */
typedef void (*ShepardExportProgress) (GObject *target, double fraction);

/* Writes the value raster (and the alpha raster when alpha_path is set) atomically through app/grid-export, in a
 * worker thread, with the layer's CRS. */
void shepard_document_export_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                    const char *value_path, const char *alpha_path, const char *driver_name,
                                    ShepardSampleType sample_type, ShepardExportProgress progress,
                                    GObject *progress_target, GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean shepard_document_export_finish (ShepardDocument *self, GAsyncResult *result, GError **error);

G_END_DECLS
