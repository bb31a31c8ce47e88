/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exact k-nearest-neighbour search over an even grid (Mei et al. 2016): points sorted by cell, cell start offsets, and
 * an expanding-ring search that stops only when no unvisited cell can hold a nearer point. The CUDA backend builds the
 * same structure on the device. */
#ifndef SHEPARD_EVEN_GRID_H
#define SHEPARD_EVEN_GRID_H

#include "shepard-engine.h"

#include <math.h>
#include <stdint.h>

typedef struct {
  double x0, y0;        /* lower-left corner of cell (0, 0) */
  double cell_size;
  size_t nx, ny;
  size_t *cell_start;   /* nx * ny + 1 offsets into the sorted arrays; cell c holds [cell_start[c], cell_start[c+1]) */
  size_t *order;        /* sorted slot -> index of the point as given */
  double *sx, *sy;      /* coordinates in sorted order, so that a cell's points are contiguous */
  size_t n;
} shepard_even_grid;

/* The cell (along one axis of `cells`) that holds a position in cell units; outside positions go to the edge cell. */
static inline size_t
shepard_even_grid_clamp_cell (double position, size_t cells)
{
  if (!(position > 0.0))
    return 0;
  if (position >= (double) (cells - 1))
    return cells - 1;
  return (size_t) position;
}

/* The cells, inclusive ranges along x (i) and y (j), that a disc of squared radius r2 around (qx, qy) touches. Its
 * radius is widened by 1e-9 of a cell, so that rounding loses no point on the circle. */
typedef struct {
  size_t i_first, i_last, j_first, j_last;
} shepard_cell_range;

static inline shepard_cell_range
shepard_even_grid_cells_within (const shepard_even_grid *grid, double qx, double qy, double r2)
{
  double radius = sqrt (r2) + 1e-9 * grid->cell_size;
  double inverse = 1.0 / grid->cell_size;
  /* Member by member: the CUDA backend includes this header as C++. */
  shepard_cell_range cells;
  cells.i_first = shepard_even_grid_clamp_cell ((qx - radius - grid->x0) * inverse, grid->nx);
  cells.i_last = shepard_even_grid_clamp_cell ((qx + radius - grid->x0) * inverse, grid->nx);
  cells.j_first = shepard_even_grid_clamp_cell ((qy - radius - grid->y0) * inverse, grid->ny);
  cells.j_last = shepard_even_grid_clamp_cell ((qy + radius - grid->y0) * inverse, grid->ny);
  return cells;
}

/* Cell size and counts for n points in the box [x_min, x_max] x [y_min, y_max]: about three points per cell. The
 * CUDA backend builds its grid with the same geometry. */
void shepard_even_grid_geometry (double x_min, double y_min, double x_max, double y_max, size_t n, double *cell_size,
                                 size_t *nx, size_t *ny);

shepard_status shepard_even_grid_build (shepard_even_grid *grid, const double *x, const double *y, size_t n,
                                        shepard_error *error);
/* The same on the lattice of n_layout points over box {x_min, y_min, x_max, y_max}, which holds the n points: an engine
 * holding part of a layer takes the whole layer's lattice, so that its searches visit points in the same order and
 * their sums round alike. The grid holds only the window of that lattice's cells that its points occupy, so that its
 * memory goes with n, not with n_layout. */
shepard_status shepard_even_grid_build_in (shepard_even_grid *grid, const double *x, const double *y, size_t n,
                                           const double box[4], size_t n_layout, shepard_error *error);
void shepard_even_grid_clear (shepard_even_grid *grid);

/* The min(k, n) nearest points to (qx, qy): squared distances ascending into d2 and their indices into index (both
 * of room k). Ties are ordered by index. Returns min(k, n). */
size_t shepard_even_grid_nearest (const shepard_even_grid *grid, double qx, double qy, size_t k, double *d2,
                                  size_t *index);

/* Sum of z over the points within squared distance r2 of (qx, qy), and their count. */
double shepard_even_grid_sum_within (const shepard_even_grid *grid, const double *z, double qx, double qy, double r2,
                                     size_t *count);

/* Cross-validation's searches: as above over the points whose label differs from `excluded`, where sorted_label
 * holds each point's label in the grid's sorted order (sorted_label[slot] = label of order[slot]). nearest returns
 * how many it found: min (k, points left), the rest of d2 and index untouched. */
size_t shepard_even_grid_nearest_excluding (const shepard_even_grid *grid, const uint32_t *sorted_label,
                                            uint32_t excluded, double qx, double qy, size_t k, double *d2,
                                            size_t *index);
double shepard_even_grid_sum_within_excluding (const shepard_even_grid *grid, const uint32_t *sorted_label,
                                               uint32_t excluded, const double *z, double qx, double qy, double r2,
                                               size_t *count);

#endif
