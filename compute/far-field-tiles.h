/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How the CPU backend cuts a grid into tiles of cells for the far field (cpu-backend.c): their shape, and whether
 * AIDW's k nearest of a tile are worth one search of the tree. Functions of the grid and the points' spread alone, so that
 * every window of a raster cut alike gets the same tiles. */
#ifndef SHEPARD_FAR_FIELD_TILES_H
#define SHEPARD_FAR_FIELD_TILES_H

#include "far-field.h"
#include "point-set.h"
#include "shepard-engine.h"

#include <stdbool.h>
#include <stddef.h>

/* With the far field, a grid is worked through in tiles of this many cells a side, one walk of the tree each; half
 * as many rows where the grid is coarse beside the points (shepard_far_field_tile_rows). */
#define FAR_FIELD_TILE_SIDE 8
_Static_assert (FAR_FIELD_TILE_SIDE * FAR_FIELD_TILE_SIDE == SHEPARD_FAR_FIELD_TILE_MAX, "a tile per batch");

/* The rows of the far field's tiles over grid (FAR_FIELD_TILE_SIDE columns): 8, or 4 where an 8 x 8 tile's box is
 * expected to hold many points. Both divide SHEPARD_FAR_FIELD_TILE_MAX. */
size_t shepard_far_field_tile_rows (const shepard_grid *grid, const shepard_point_set *points);

/* Whether one search of the tree (shepard_far_field_nearest) may be expected to answer for a tile of tile_rows rows:
 * where it would not, the even grid searches each cell. */
bool shepard_far_field_tile_search_pays (const shepard_grid *grid, size_t tile_rows, const shepard_point_set *points,
                                         size_t k);

#endif
