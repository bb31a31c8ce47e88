/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

typedef struct _ShepardDeviceGridPool ShepardDeviceGridPool;

/* Where a surface's grid lives: host memory, or GPU memory only (for a view that draws it through CUDA-OpenGL
 * interop, so that no frame crosses the bus twice). */
typedef enum {
  SHEPARD_SURFACE_IN_HOST_MEMORY,
  SHEPARD_SURFACE_ON_GPU,
} ShepardSurfaceMemory;

/* One interpolated grid, in float32 as it is drawn. Immutable once delivered; reference counted. */
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

#define SHEPARD_TYPE_SURFACE (shepard_surface_get_type ())
GType shepard_surface_get_type (void) G_GNUC_CONST;

/* A surface in host memory, its values and alphas copied from float64 outputs. */
ShepardSurface *shepard_surface_new_from_host (const shepard_grid *grid, const shepard_params *params,
                                               const double *values, const double *alpha, double seconds);
/* A surface whose grid stays on the GPU; device_grid goes back to pool when the last reference goes. */
ShepardSurface *shepard_surface_new_on_gpu (const shepard_grid *grid, const shepard_params *params,
                                            shepard_device_grid *device_grid, ShepardDeviceGridPool *pool,
                                            double seconds);

ShepardSurface *shepard_surface_ref (ShepardSurface *surface);
void shepard_surface_unref (ShepardSurface *surface);
/* The cell holding (x, y); FALSE outside the grid (or when a cell on the GPU cannot be read). */
gboolean shepard_surface_lookup (const ShepardSurface *surface, double x, double y, double *value, double *alpha);
/* The values of a surface on the GPU copied to the host (width x height floats, g_free them), for drawing where
 * CUDA-OpenGL interop is not possible; NULL with an error when the GPU cannot be read. */
float *shepard_surface_download_values (const ShepardSurface *surface, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardSurface, shepard_surface_unref)

G_END_DECLS
