/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "even-grid.h"

#include "engine-private.h"
#include "neighbour-list.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* About this many points per cell: rings 0 and 1 then usually hold the 15 nearest. */
#define POINTS_PER_CELL 3.0

void
shepard_even_grid_geometry (double x_min, double y_min, double x_max, double y_max, size_t n, double *cell_size,
                            size_t *nx, size_t *ny)
{
  double width = x_max - x_min, height = y_max - y_min;
  double cells = fmax (1.0, (double) n / POINTS_PER_CELL);
  /* The second term keeps long thin layouts from having more cells than points. */
  double size = fmax (sqrt (width * height / cells), fmax (width, height) / cells);
  if (!(size > 0.0))
    size = 1.0;
  *cell_size = size;
  *nx = (size_t) (width / size) + 1;
  *ny = (size_t) (height / size) + 1;
}

shepard_status
shepard_even_grid_build (shepard_even_grid *grid, const double *x, const double *y, size_t n, shepard_error *error)
{
  double box[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
  for (size_t i = 0; i < n; i++)
    {
      box[0] = fmin (box[0], x[i]);
      box[2] = fmax (box[2], x[i]);
      box[1] = fmin (box[1], y[i]);
      box[3] = fmax (box[3], y[i]);
    }
  return shepard_even_grid_build_in (grid, x, y, n, box, n, error);
}

shepard_status
shepard_even_grid_build_in (shepard_even_grid *grid, const double *x, const double *y, size_t n, const double box[4],
                            size_t n_layout, shepard_error *error)
{
  memset (grid, 0, sizeof *grid);
  grid->n = n;
  size_t layout_nx, layout_ny;
  shepard_even_grid_geometry (box[0], box[1], box[2], box[3], n_layout, &grid->cell_size, &layout_nx, &layout_ny);
  size_t room = n > 0 ? n : 1;
  size_t *cell_of = malloc (room * sizeof *cell_of);
  grid->order = malloc (room * sizeof *grid->order);
  grid->sx = malloc (room * sizeof *grid->sx);
  grid->sy = malloc (room * sizeof *grid->sy);
  if (!grid->order || !grid->sx || !grid->sy || !cell_of)
    {
      free (cell_of);
      shepard_even_grid_clear (grid);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the search grid of %zu points.",
                           n);
    }

  /* Each point in its cell of the layout's lattice, as the lattice places it. The grid keeps only the window of
   * cells that the points occupy: a part of a large layer (a tile and its halo) then holds cells for its own points,
   * not for the whole layer's, and the same points fall in the same cells, visited in the same order. */
  double inverse = 1.0 / grid->cell_size;
  size_t i_first = layout_nx - 1, i_last = 0, j_first = layout_ny - 1, j_last = 0;
  for (size_t i = 0; i < n; i++)
    {
      size_t cx = shepard_even_grid_clamp_cell ((x[i] - box[0]) * inverse, layout_nx);
      size_t cy = shepard_even_grid_clamp_cell ((y[i] - box[1]) * inverse, layout_ny);
      cell_of[i] = cy * layout_nx + cx;
      i_first = cx < i_first ? cx : i_first;
      i_last = cx > i_last ? cx : i_last;
      j_first = cy < j_first ? cy : j_first;
      j_last = cy > j_last ? cy : j_last;
    }
  if (n == 0)
    i_first = i_last = j_first = j_last = 0;
  grid->x0 = i_first == 0 ? box[0] : box[0] + (double) i_first * grid->cell_size;
  grid->y0 = j_first == 0 ? box[1] : box[1] + (double) j_first * grid->cell_size;
  grid->nx = i_last - i_first + 1;
  grid->ny = j_last - j_first + 1;
  size_t n_cells = grid->nx * grid->ny;
  grid->cell_start = calloc (n_cells + 1, sizeof *grid->cell_start);
  size_t *fill = malloc (n_cells * sizeof *fill);
  if (!grid->cell_start || !fill)
    {
      free (fill);
      free (cell_of);
      shepard_even_grid_clear (grid);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the search grid of %zu points.",
                           n);
    }

  /* Counting sort by cell: count, exclusive scan, scatter. */
  bool windowed = grid->nx != layout_nx || grid->ny != layout_ny;
  for (size_t i = 0; i < n; i++)
    {
      if (windowed)
        cell_of[i] = (cell_of[i] / layout_nx - j_first) * grid->nx + cell_of[i] % layout_nx - i_first;
      grid->cell_start[cell_of[i] + 1]++;
    }
  for (size_t c = 0; c < n_cells; c++)
    grid->cell_start[c + 1] += grid->cell_start[c];
  memcpy (fill, grid->cell_start, n_cells * sizeof *fill);
  for (size_t i = 0; i < n; i++)
    {
      size_t slot = fill[cell_of[i]]++;
      grid->order[slot] = i;
      grid->sx[slot] = x[i];
      grid->sy[slot] = y[i];
    }
  free (fill);
  free (cell_of);
  return SHEPARD_OK;
}

void
shepard_even_grid_clear (shepard_even_grid *grid)
{
  free (grid->cell_start);
  free (grid->order);
  free (grid->sx);
  free (grid->sy);
  memset (grid, 0, sizeof *grid);
}

/* sorted_label NULL: every point counts; else the points labelled `excluded` are passed over. The two searches
 * below each inline their own copy, so the plain one pays nothing for the labels. */
static inline void
visit_cell (const shepard_even_grid *grid, const uint32_t *sorted_label, uint32_t excluded, size_t cell, double qx,
            double qy, neighbour_heap *list)
{
  bool sorted = list->capacity <= SORTED_LIST_MAX;
  for (size_t slot = grid->cell_start[cell]; slot < grid->cell_start[cell + 1]; slot++)
    {
      if (sorted_label && sorted_label[slot] == excluded)
        continue;
      double dx = grid->sx[slot] - qx, dy = grid->sy[slot] - qy;
      if (sorted)
        sorted_offer (list, dx * dx + dy * dy, grid->order[slot]);
      else
        heap_offer (list, dx * dx + dy * dy, grid->order[slot]);
    }
}

static inline __attribute__ ((always_inline)) size_t
nearest_search (const shepard_even_grid *grid, const uint32_t *sorted_label, uint32_t excluded, double qx, double qy,
                size_t k, double *d2, size_t *index)
{
  if (k > grid->n)
    k = grid->n;
  neighbour_heap heap = { d2, index, 0, k };
  if (k == 0)
    return 0;

  double inverse = 1.0 / grid->cell_size;
  long nx = (long) grid->nx, ny = (long) grid->ny;
  long cx = (long) shepard_even_grid_clamp_cell ((qx - grid->x0) * inverse, grid->nx);
  long cy = (long) shepard_even_grid_clamp_cell ((qy - grid->y0) * inverse, grid->ny);
  /* Cell edges are computed, not stored: allow for their rounding when deciding that a ring is clear. */
  double edge_slack = 1e-9 * grid->cell_size;

  for (long r = 0;; r++)
    {
      long i_lo = cx - r, i_hi = cx + r, j_lo = cy - r, j_hi = cy + r;
      long j_first = j_lo < 0 ? 0 : j_lo, j_last = j_hi >= ny ? ny - 1 : j_hi;
      long i_first = i_lo < 0 ? 0 : i_lo, i_last = i_hi >= nx ? nx - 1 : i_hi;
      for (long j = j_first; j <= j_last; j++)
        {
          size_t row = (size_t) j * grid->nx;
          if (j == j_lo || j == j_hi)
            for (long i = i_first; i <= i_last; i++)
              visit_cell (grid, sorted_label, excluded, row + (size_t) i, qx, qy, &heap);
          else
            {
              if (i_lo >= 0)
                visit_cell (grid, sorted_label, excluded, row + (size_t) i_lo, qx, qy, &heap);
              if (i_hi < nx)
                visit_cell (grid, sorted_label, excluded, row + (size_t) i_hi, qx, qy, &heap);
            }
        }

      if (i_lo <= 0 && j_lo <= 0 && i_hi >= nx - 1 && j_hi >= ny - 1)
        break; /* every cell visited */
      if (heap.size < k)
        continue;
      /* The k-th nearest so far: the last of a sorted list, the top of a heap. */
      double kth = k <= SORTED_LIST_MAX ? heap.d2[k - 1] : heap.d2[0];
      /* Any point outside the visited square is at least `clear` away: once the k-th nearest is closer, stop. This
       * subsumes the paper's "one more ring" and stays exact for queries outside the grid. */
      double clear = INFINITY;
      if (i_lo > 0)
        clear = fmin (clear, qx - (grid->x0 + (double) i_lo * grid->cell_size));
      if (i_hi < nx - 1)
        clear = fmin (clear, grid->x0 + (double) (i_hi + 1) * grid->cell_size - qx);
      if (j_lo > 0)
        clear = fmin (clear, qy - (grid->y0 + (double) j_lo * grid->cell_size));
      if (j_hi < ny - 1)
        clear = fmin (clear, grid->y0 + (double) (j_hi + 1) * grid->cell_size - qy);
      clear -= edge_slack;
      if (clear > 0.0 && kth < clear * clear)
        break;
    }
  if (k > SORTED_LIST_MAX)
    heap_sort_ascending (&heap);
  /* Fewer than k only when labels left too few points. */
  return heap.size;
}

size_t
shepard_even_grid_nearest (const shepard_even_grid *grid, double qx, double qy, size_t k, double *d2, size_t *index)
{
  return nearest_search (grid, NULL, 0, qx, qy, k, d2, index);
}

size_t
shepard_even_grid_nearest_excluding (const shepard_even_grid *grid, const uint32_t *sorted_label, uint32_t excluded,
                                     double qx, double qy, size_t k, double *d2, size_t *index)
{
  return nearest_search (grid, sorted_label, excluded, qx, qy, k, d2, index);
}

static inline __attribute__ ((always_inline)) double
sum_within (const shepard_even_grid *grid, const uint32_t *sorted_label, uint32_t excluded, const double *z,
            double qx, double qy, double r2, size_t *count)
{
  shepard_cell_range cells = shepard_even_grid_cells_within (grid, qx, qy, r2);
  double sum = 0.0;
  size_t found = 0;
  for (size_t j = cells.j_first; j <= cells.j_last; j++)
    for (size_t i = cells.i_first; i <= cells.i_last; i++)
      {
        size_t cell = j * grid->nx + i;
        for (size_t slot = grid->cell_start[cell]; slot < grid->cell_start[cell + 1]; slot++)
          {
            if (sorted_label && sorted_label[slot] == excluded)
              continue;
            double dx = grid->sx[slot] - qx, dy = grid->sy[slot] - qy;
            if (dx * dx + dy * dy <= r2)
              {
                sum += z[grid->order[slot]];
                found++;
              }
          }
      }
  *count = found;
  return sum;
}

double
shepard_even_grid_sum_within (const shepard_even_grid *grid, const double *z, double qx, double qy, double r2,
                              size_t *count)
{
  return sum_within (grid, NULL, 0, z, qx, qy, r2, count);
}

double
shepard_even_grid_sum_within_excluding (const shepard_even_grid *grid, const uint32_t *sorted_label,
                                        uint32_t excluded, const double *z, double qx, double qy, double r2,
                                        size_t *count)
{
  return sum_within (grid, sorted_label, excluded, z, qx, qy, r2, count);
}
