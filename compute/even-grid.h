/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Exact k-nearest-neighbour search over an even grid (Mei et al. 2016): points sorted by cell, cell start offsets, and
 * an expanding-ring search that stops only when no unvisited cell can hold a nearer point. The CUDA backend builds the
 * same structure on the device. */
#ifndef SHEPARD_EVEN_GRID_H
#define SHEPARD_EVEN_GRID_H

#include "shepard-engine.h"

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

/* Cell size and counts for n points in the box [x_min, x_max] x [y_min, y_max]: about three points per cell. The
 * CUDA backend builds its grid with the same geometry. */
void shepard_even_grid_geometry (double x_min, double y_min, double x_max, double y_max, size_t n, double *cell_size,
                                 size_t *nx, size_t *ny);

shepard_status shepard_even_grid_build (shepard_even_grid *grid, const double *x, const double *y, size_t n,
                                        shepard_error *error);
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
