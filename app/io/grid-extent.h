/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* The largest width or height GDAL takes (its raster sizes are int). */
#define SHEPARD_GRID_MAX_SIZE ((size_t) G_MAXINT)

/* A width x height grid of cells covering [x_min, x_max] x [y_min, y_max], nodes at the cell centres (as gdal_grid).
 * Fails (SHEPARD_APP_ERROR_INVALID_PARAMETER) on an empty or non-finite extent or a size outside 1..G_MAXINT. */
gboolean shepard_grid_from_extent (double x_min, double x_max, double y_min, double y_max, size_t width,
                                   size_t height, shepard_grid *grid, GError **error);

/* Cells along one axis for a cell size, rounded to the nearest as gdal_grid does; axis ("x" or "y") names it in
 * the message when the resolution is not positive or leaves no cell. */
gboolean shepard_grid_cells_for_resolution (double extent, double resolution, const char *axis, size_t *cells,
                                            GError **error);

void shepard_grid_geotransform (const shepard_grid *grid, double geotransform[6]);

G_END_DECLS
