/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "far-field-tiles.h"

#include <math.h>

/* Points an 8 x 8 tile's box may be expected to hold before 8 x 4 tiles pay: 4 leaves' worth (far-field-tree.h).
 * Each cell of a tile weighs the points near its box one by one, so a box over many points costs every cell, while
 * each tile pays for one walk of the tree. In shepard-bench-far-field --engine on 2 cores, 8 x 4 took 4 to 26 % less
 * time at about 240 points and more per 8 x 8 box, 1 to 8 % more at 61 and fewer. Tiles under 32 cells were slower
 * everywhere: far-field.c sums a tile's queries in whole blocks of 32. */
#define FAR_FIELD_TILE_POINTS 128.0

/* How many points a box w x h (given units) holds where they spread evenly over their bounding box (along it, where
 * they lie on a line). */
static double
points_in_box (const shepard_point_set *points, double w, double h)
{
  double x_extent = points->x_max - points->x_min, y_extent = points->y_max - points->y_min;
  double share = (w < x_extent ? w / x_extent : 1.0) * (h < y_extent ? h / y_extent : 1.0);
  return (double) points->n * share;
}

/* 8 rows, or 4 where an 8 x 8 tile's box is expected to hold more than FAR_FIELD_TILE_POINTS points. */
size_t
shepard_far_field_tile_rows (const shepard_grid *grid, const shepard_point_set *points)
{
  double side = FAR_FIELD_TILE_SIDE;
  return points_in_box (points, side * grid->dx, side * grid->dy) > FAR_FIELD_TILE_POINTS ? FAR_FIELD_TILE_SIDE / 2
                                                                                          : FAR_FIELD_TILE_SIDE;
}

/* Whether AIDW's k nearest of a tile's cells are worth one search of the tree (shepard_far_field_nearest). It gives up
 * where more than SHEPARD_FAR_FIELD_NEAREST_MAX points lie within its reach of the tile's box (about the box's half
 * diagonal and the k-th nearest distance), and the even grid then searches each cell: over a grid coarse beside the
 * points that search was paid for nothing (1M points over 256^2: 4052 tiles of 4096 gave up, 4 % of the engine's time).
 * Points spread evenly over their box are expected, and the tree is searched unless half as many again as one search
 * holds are. */
bool
shepard_far_field_tile_search_pays (const shepard_grid *grid, size_t tile_rows, const shepard_point_set *points,
                                    size_t k)
{
  double x_extent = points->x_max - points->x_min, y_extent = points->y_max - points->y_min;
  double width = FAR_FIELD_TILE_SIDE * grid->dx, height = (double) tile_rows * grid->dy;
  /* the radius of a disc that holds k points; along the line where they lie on one */
  double kth_nearest = x_extent > 0.0 && y_extent > 0.0
                           ? sqrt ((double) k * x_extent * y_extent / (3.14159265358979324 * (double) points->n))
                           : (double) k * fmax (x_extent, y_extent) / (2.0 * (double) points->n);
  double reach = 0.5 * hypot (width, height) + kth_nearest;
  return points_in_box (points, width + 2.0 * reach, height + 2.0 * reach) <= 1.5 * SHEPARD_FAR_FIELD_NEAREST_MAX;
}
