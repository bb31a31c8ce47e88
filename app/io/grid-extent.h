/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* The largest width or height GDAL takes (its raster sizes are int). */
#define SHEPARD_GRID_MAX_SIZE ((size_t) G_MAXINT)

/* A width x height grid of cells covering [x_min, x_max] x [y_min, y_max], nodes at the cell centres (as gdal_grid).
 * Fails (SHEPARD_APP_ERROR_INVALID_PARAMETER) on an empty or non-finite extent, a size outside 1..G_MAXINT, or cells
 * that would be wider than the largest double or of no size. */
gboolean shepard_grid_from_extent (double x_min, double x_max, double y_min, double y_max, size_t width,
                                   size_t height, shepard_grid *grid, GError **error);

/* Cells along one axis for a cell size, rounded to the nearest as gdal_grid does; axis ("x" or "y") names it in
 * the message when the resolution is not positive or leaves no cell. */
gboolean shepard_grid_cells_for_resolution (double extent, double resolution, const char *axis, size_t *cells,
                                            GError **error);

/* -tap, as gdalwarp aligns: extent {x_min, y_min, x_max, y_max} grown outwards to multiples of the cell sizes
 * (floor (x_min / x_res) * x_res, ceil (x_max / x_res) * x_res, the same in y) into aligned. Fails
 * (SHEPARD_APP_ERROR_INVALID_PARAMETER) when a multiple lies beyond the largest double. */
gboolean shepard_grid_align_extent (const double extent[4], double x_resolution, double y_resolution,
                                    double aligned[4], GError **error);

/* GDAL's geotransform of the grid's cells: of the window alone where the grid is a window of a larger raster. */
void shepard_grid_geotransform (const shepard_grid *grid, double geotransform[6]);

/* The area previewed by default, as exported by default (export-extent.h with no margin): the points' bounding box.
 * A side of no length (one point, points on a line) gets the other side's length, or 1 map unit when both have
 * none, centred on the points, so that there is an area to show. */
void shepard_extent_of_points (double x_min, double y_min, double x_max, double y_max, double extent[4]);

/* A preview grid over exactly extent {x_min, y_min, x_max, y_max}, long_side cells along its longer side and the
 * other side in proportion. Grids of any resolution over one extent cover the same area, so that a coarse frame and
 * the fine one after it have the same edges; the cells are as square as whole cell counts allow. */
void shepard_grid_for_preview (const double extent[4], size_t long_side, shepard_grid *grid);

G_END_DECLS
