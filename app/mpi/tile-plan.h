/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* A raster cut into square tiles of tile_size cells (the last row and column of tiles shorter), numbered row by row
 * from the top left. Each tile is a window of the raster (shepard_grid.first_row, .first_column) starting at a
 * multiple of SHEPARD_GRID_WINDOW_ALIGN, so that its cells get, to the bit, the values the whole raster gives them. */
typedef struct {
  shepard_grid raster;
  size_t tile_size;
  size_t columns, rows; /* tiles across and down */
  size_t count;
} ShepardTilePlan;

/* The side of a tile when the command line names none, for ranks_on_node ranks on the busiest node: lone_size for a
 * rank alone, and for ranks sharing a node the largest multiple of 256 (a GeoTIFF block) whose tile, once for each of
 * those ranks, holds no more cells than one lone_size tile; 256 at least. The ranks of a node share its memory as
 * they share its cores: a tile's points, halo and cells are most of what a rank holds, so a rank's memory falls as
 * ranks are added to a node. The size never changes a cell's value, only how the work is cut. lone_size: a multiple
 * of 256. */
size_t shepard_tile_plan_shared_size (size_t lone_size, int ranks_on_node);

/* tile_size: a multiple of SHEPARD_GRID_WINDOW_ALIGN. */
void shepard_tile_plan_init (ShepardTilePlan *plan, const shepard_grid *raster, size_t tile_size);

/* Tile index's window of the raster. */
void shepard_tile_plan_window (const ShepardTilePlan *plan, size_t index, shepard_grid *window);

/* The box {x_min, y_min, x_max, y_max} of a window's cell centres, in map units. */
void shepard_tile_plan_centre_box (const shepard_grid *window, double box[4]);

/* The file name of tile index's GeoTIFF ("tile-ROW-COLUMN.tif", zero-padded so that names sort by place). */
char *shepard_tile_plan_file_name (const ShepardTilePlan *plan, size_t index);

G_END_DECLS
