/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "point-layer.h"
#include "raster-format.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

typedef struct _ShepardDeviceGridPool ShepardDeviceGridPool;

/* One interpolated grid, in float32 as it is drawn: in host memory, or (when the document keeps previews on the GPU)
 * in GPU memory only. Immutable once delivered; reference counted. */
typedef struct {
  shepard_grid grid;
  shepard_params params;
  float *values;          /* width x height, row 0 at the top; NULL when the grid is on the GPU */
  float *alpha;           /* the power used at each cell (p for IDW); NULL when the grid is on the GPU */
  shepard_device_grid *device_grid; /* the values and alphas on the GPU, or NULL */
  ShepardDeviceGridPool *pool;      /* where device_grid goes back to */
  double value_min, value_max;      /* NaN when the grid is on the GPU */
  double seconds;         /* wall time of the engine call */
} ShepardSurface;

ShepardSurface *shepard_surface_ref (ShepardSurface *surface);
void shepard_surface_unref (ShepardSurface *surface);
/* The cell holding (x, y); FALSE outside the grid (or when a cell on the GPU cannot be read). */
gboolean shepard_surface_lookup (const ShepardSurface *surface, double x, double y, double *value, double *alpha);
/* The values of a surface on the GPU copied to the host (width x height floats, g_free them), for drawing where
 * CUDA-OpenGL interop is not possible; NULL with an error when the GPU cannot be read. */
float *shepard_surface_download_values (const ShepardSurface *surface, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardSurface, shepard_surface_unref)

#define SHEPARD_TYPE_DOCUMENT (shepard_document_get_type ())
G_DECLARE_FINAL_TYPE (ShepardDocument, shepard_document, SHEPARD, DOCUMENT, GObject)

/* Reads the points of path (field NULL: the first numeric field) and gives them to a new engine, in a worker
 * thread. */
void shepard_document_load_async (const char *path, const char *field, GCancellable *cancellable,
                                  GAsyncReadyCallback callback, gpointer user_data);
ShepardDocument *shepard_document_load_finish (GAsyncResult *result, GError **error);

const ShepardPointLayer *shepard_document_get_points (ShepardDocument *self);
const char *const *shepard_document_get_numeric_fields (ShepardDocument *self);
const char *shepard_document_get_backend (ShepardDocument *self);
/* "Amersfoort / RD New (EPSG:28992)", or "none". */
const char *shepard_document_get_crs_name (ShepardDocument *self);
void shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max);
double shepard_document_get_value_min (ShepardDocument *self);
double shepard_document_get_value_max (ShepardDocument *self);

/* The CUDA device the engine computes on, or -1 when it runs on the CPU. */
int shepard_document_get_cuda_device (ShepardDocument *self);
/* Whether later interpolations leave their grids on the GPU (for a view drawing them through CUDA-OpenGL interop)
 * instead of copying them to host memory. Only possible on a CUDA engine; off by default. */
void shepard_document_set_keep_on_gpu (ShepardDocument *self, gboolean keep_on_gpu);
gboolean shepard_document_get_keep_on_gpu (ShepardDocument *self);

/* Interpolates grid in a worker thread. Calls run one at a time on the engine: cancel the older request before
 * making a newer one, and it gives the engine up within ~100 ms. */
void shepard_document_interpolate_async (ShepardDocument *self, const shepard_params *params,
                                         const shepard_grid *grid, GCancellable *cancellable,
                                         GAsyncReadyCallback callback, gpointer user_data);
ShepardSurface *shepard_document_interpolate_finish (ShepardDocument *self, GAsyncResult *result, GError **error);

/* Called on the thread that started the export, with a reference on target held meanwhile. */
typedef void (*ShepardExportProgress) (GObject *target, double fraction);

/* Writes the value raster (and the alpha raster when alpha_path is set) atomically through app/grid-export, in a
 * worker thread, with the layer's CRS. */
void shepard_document_export_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                    const char *value_path, const char *alpha_path, const char *driver_name,
                                    GDALDataType data_type, ShepardExportProgress progress, GObject *progress_target,
                                    GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data);
gboolean shepard_document_export_finish (ShepardDocument *self, GAsyncResult *result, GError **error);

G_END_DECLS
