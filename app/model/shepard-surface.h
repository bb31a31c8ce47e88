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
  float *alpha;           /* the power used at each cell (p for IDW); NULL on the GPU or for a derived surface */
  float *r_obs;           /* AIDW: mean distance to the k nearest, map units; NULL on the GPU, for IDW or derived */
  shepard_device_grid *device_grid; /* the values, alphas and r_obs on the GPU, or NULL */
  ShepardDeviceGridPool *pool;      /* where device_grid goes back to */
  double r_exp;           /* AIDW's r_exp for params over the layer, so that R = r_obs / r_exp; NaN for IDW */
  guint8 *keep;           /* width x height, 0 where a mask takes the cell away; NULL: no mask */
  double value_min, value_max;      /* NaN when the grid is on the GPU */
  double seconds;         /* wall time of its computation: the engine call and the copy into this surface */
  shepard_summation summation; /* how the engine made the sums (shepard_engine_summation): EXACT or FAR_FIELD at
                                * params.tolerance; AUTO for a derived surface, which was not summed */
  GMutex device_lock;     /* private: device grids serve one call at a time (shepard_surface_lock_device) */
} ShepardSurface;

#define SHEPARD_TYPE_SURFACE (shepard_surface_get_type ())
GType shepard_surface_get_type (void) G_GNUC_CONST;

/* A surface in host memory, copied from float64 outputs; alpha and r_obs may be NULL (a derived surface such as a
 * difference has values only). */
ShepardSurface *shepard_surface_new_from_host (const shepard_grid *grid, const shepard_params *params,
                                               const double *values, const double *alpha, const double *r_obs,
                                               double r_exp, double seconds);
/* A surface whose grid stays on the GPU; device_grid goes back to pool when the last reference goes. */
ShepardSurface *shepard_surface_new_on_gpu (const shepard_grid *grid, const shepard_params *params,
                                            shepard_device_grid *device_grid, ShepardDeviceGridPool *pool,
                                            double r_exp, double seconds);
/* A derived surface (a difference, say) of values only, in host memory: takes values (width x height floats, from
 * g_malloc). */
ShepardSurface *shepard_surface_new_derived (const shepard_grid *grid, const shepard_params *params, float *values,
                                             double seconds);

/* Takes cells away (a mask: beyond a distance of the points, outside their hull or a cutline): keep holds width x
 * height bytes from g_malloc, row 0 at the top, 0 where the cell is not part of the surface; the surface takes them.
 * Host planes get NaN there (the value range follows), as the engine's own no-data cells; a grid on the GPU keeps its
 * cells, lookup and copy_plane give NaN there, and the map draws through keep (shepard_renderer_set_grid_mask), so
 * that both paths show the same. Call it before the surface is shared: surfaces are immutable once delivered. */
void shepard_surface_take_mask (ShepardSurface *surface, guint8 *keep);

ShepardSurface *shepard_surface_ref (ShepardSurface *surface);
void shepard_surface_unref (ShepardSurface *surface);
/* The cell holding (x, y); FALSE outside the grid (or when a cell on the GPU cannot be read). */
gboolean shepard_surface_lookup (const ShepardSurface *surface, double x, double y, double *value, double *alpha);
/* Whether the surface holds a plane: values always; alpha unless derived; r_obs for AIDW (not derived). */
gboolean shepard_surface_has_plane (const ShepardSurface *surface, shepard_plane plane);
/* The cells of one plane in host memory, copied from the GPU when the grid lives there: width x height floats to
 * g_free; NULL with an error when the surface lacks the plane or the GPU cannot be read. For drawing where
 * CUDA-OpenGL interop is not possible, and for statistics. Safe from any thread. */
float *shepard_surface_copy_plane (const ShepardSurface *surface, shepard_plane plane, GError **error);
/* A device grid serves one call at a time (shepard-engine.h), and a surface's may be read from the main thread and
 * from workers at once: whoever uses device_grid directly (the renderer's interop copy) holds this around the call.
 * lookup and copy_plane take it themselves. Nothing to do for a surface in host memory. */
void shepard_surface_lock_device (const ShepardSurface *surface);
void shepard_surface_unlock_device (const ShepardSurface *surface);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardSurface, shepard_surface_unref)

G_END_DECLS
