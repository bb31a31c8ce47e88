/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The search circle scanned row by row (circle-scan.h). */
#include "circle-scan.h"

#include <math.h>
#include <stdlib.h>

/* A scan of the search circle may weigh this many candidates per point wanted before the ring search costs less
 * (measured on uniform points: the scan wins by a third at 4, the ring search by a tenth at 8). */
#define SCAN_CANDIDATES_PER_WANTED 6

/* The slots of grid row j whose cells the circle of squared radius bound2 around (qx, qy) touches, as
 * [*first, *end) (a row's cells are contiguous in the sorted arrays); false when it touches none. Cells are widened
 * by the slack of the rounded division that files a point in its cell, as in cell_is_useful. */
static bool
row_slots (const shepard_even_grid *grid, long j, double qx, double qy, double bound2, size_t *first, size_t *end)
{
  double slack = 1e-9 * grid->cell_size;
  double y0 = grid->y0 + (double) j * grid->cell_size - slack, y1 = y0 + grid->cell_size + 2.0 * slack;
  double dy = qy < y0 ? y0 - qy : (qy > y1 ? qy - y1 : 0.0);
  double rest = bound2 - dy * dy;
  if (rest < 0.0)
    return false;
  double half_width = sqrt (rest) + slack, inverse = 1.0 / grid->cell_size;
  size_t i_first = shepard_even_grid_clamp_cell ((qx - half_width - grid->x0) * inverse, grid->nx);
  size_t i_last = shepard_even_grid_clamp_cell ((qx + half_width - grid->x0) * inverse, grid->nx);
  size_t row = (size_t) j * grid->nx;
  *first = grid->cell_start[row + i_first];
  *end = grid->cell_start[row + i_last + 1];
  return true;
}

static bool
grow (void **array, size_t count, size_t size)
{
  void *grown = realloc (*array, count * size);
  if (!grown)
    return false;
  *array = grown;
  return true;
}

/* The runs of slots a scan of the search circle covers, into selection->run_*; returns how many points they hold, or
 * SIZE_MAX when out of memory. */
size_t
shepard_scan_plan (const shepard_neighbourhood *hood, const shepard_even_grid *grid, double qx, double qy,
           shepard_selection *selection)
{
  shepard_cell_range cells = shepard_even_grid_cells_within (grid, qx, qy, hood->bound2);
  size_t rows = cells.j_last - cells.j_first + 1;
  if (rows > selection->run_capacity)
    {
      if (!grow ((void **) &selection->run_first, rows, sizeof *selection->run_first)
          || !grow ((void **) &selection->run_end, rows, sizeof *selection->run_end))
        return SIZE_MAX;
      selection->run_capacity = rows;
    }
  size_t size = 0, runs = 0;
  for (size_t j = cells.j_first; j <= cells.j_last; j++)
    if (row_slots (grid, (long) j, qx, qy, hood->bound2, &selection->run_first[runs], &selection->run_end[runs]))
      {
        size += selection->run_end[runs] - selection->run_first[runs];
        runs++;
      }
  selection->run_count = runs;
  return size;
}

/* Room for `count` scanned candidates, and (ELLIPSE, which keeps them all) as many selected points. */
bool
shepard_scan_reserve (const shepard_neighbourhood *hood, shepard_selection *selection, size_t count)
{
  if (count > selection->scan_capacity)
    {
      size_t capacity = count > 2 * selection->scan_capacity ? count : 2 * selection->scan_capacity;
      if (!grow ((void **) &selection->scan_d2, capacity, sizeof *selection->scan_d2)
          || !grow ((void **) &selection->scan_index, capacity, sizeof *selection->scan_index)
          || !grow ((void **) &selection->scan_quadrant, capacity, sizeof *selection->scan_quadrant))
        return false;
      selection->scan_capacity = capacity;
    }
  if (hood->mode == SHEPARD_SELECT_ELLIPSE && count > selection->capacity)
    {
      if (!grow ((void **) &selection->d2, selection->scan_capacity, sizeof *selection->d2)
          || !grow ((void **) &selection->index, selection->scan_capacity, sizeof *selection->index))
        return false;
      selection->capacity = selection->scan_capacity;
    }
  return true;
}

/* One run of slots into the scan: every point is written, and the count moves on only for those inside the ellipse
 * (and not left out), so the loop has no branch to mispredict. */
static inline size_t
scan_run (const shepard_neighbourhood *hood, const shepard_even_grid *grid, const uint32_t *sorted_label,
          uint32_t excluded, double qx, double qy, size_t first, size_t end, size_t count, double *d2_out,
          size_t *index_out, unsigned char *quadrant_out)
{
  for (size_t slot = first; slot < end; slot++)
    {
      double dx = grid->sx[slot] - qx, dy = grid->sy[slot] - qy, d2 = dx * dx + dy * dy;
      bool kept = hood->circle ? d2 <= hood->radius2 : shepard_neighbourhood_holds (hood, dx, dy, d2);
      if (sorted_label)
        kept = kept && sorted_label[slot] != excluded;
      d2_out[count] = d2;
      index_out[count] = grid->order[slot];
      quadrant_out[count] = (unsigned char) shepard_quadrant_of (dx, dy);
      count += kept;
    }
  return count;
}

/* Every candidate inside the ellipse, in grid order, through the runs shepard_scan_plan found: into the selection itself
 * (ELLIPSE) or the scan arrays, for the cut. Returns how many. */
size_t
shepard_scan_circle (const shepard_neighbourhood *hood, const shepard_even_grid *grid, const uint32_t *sorted_label,
             uint32_t excluded, double qx, double qy, shepard_selection *selection)
{
  bool keep_all = hood->mode == SHEPARD_SELECT_ELLIPSE;
  double *d2 = keep_all ? selection->d2 : selection->scan_d2;
  size_t *index = keep_all ? selection->index : selection->scan_index;
  size_t count = 0;
  for (size_t run = 0; run < selection->run_count; run++)
    count = scan_run (hood, grid, sorted_label, excluded, qx, qy, selection->run_first[run], selection->run_end[run],
                      count, d2, index, selection->scan_quadrant);
  return count;
}

/* ELLIPSE: the scanned candidates are the selection. */
void
shepard_scan_keep_all (shepard_selection *selection, size_t count)
{
  selection->count = count;
  for (size_t j = 0; j < count; j++)
    {
      if (selection->d2[j] < selection->nearest_d2)
        selection->nearest_d2 = selection->d2[j];
      selection->quadrant_count[selection->scan_quadrant[j]]++;
    }
}

static inline void
swap_candidates (double *d2, size_t *index, size_t a, size_t b)
{
  double d = d2[a];
  size_t i = index[a];
  d2[a] = d2[b];
  index[a] = index[b];
  d2[b] = d;
  index[b] = i;
}

/* Moves the k smallest of the m candidates (by squared distance, ties by index) to the front, in no order: Hoare's
 * selection with a median-of-three pivot and a partition that does not branch on the data. (An insertion into a
 * sorted list of k branches on every shift, and mispredicts: it took twice as long for 24 of 48.) */
void
shepard_select_smallest (double *d2, size_t *index, size_t m, size_t k)
{
  size_t lo = 0, hi = m;
  while (k > lo && k < hi)
    {
      size_t a = lo, b = lo + (hi - lo) / 2, c = hi - 1;
      if (heap_before (d2[b], index[b], d2[a], index[a]))
        swap_candidates (d2, index, a, b);
      if (heap_before (d2[c], index[c], d2[b], index[b]))
        {
          swap_candidates (d2, index, b, c);
          if (heap_before (d2[b], index[b], d2[a], index[a]))
            swap_candidates (d2, index, a, b);
        }
      swap_candidates (d2, index, b, c); /* the median, the pivot, waits at the end */
      double pivot_d2 = d2[c];
      size_t pivot_index = index[c], store = lo;
      for (size_t i = lo; i < c; i++)
        {
          /* Every element is swapped with the store position, which moves on past the smaller ones only. */
          double di = d2[i];
          size_t ii = index[i];
          bool before = (di < pivot_d2) | ((di == pivot_d2) & (ii < pivot_index));
          d2[i] = d2[store];
          index[i] = index[store];
          d2[store] = di;
          index[store] = ii;
          store += before;
        }
      swap_candidates (d2, index, store, c);
      /* [lo, store) is below the pivot, now at store, and (store, hi) above it. */
      if (store == k || store + 1 == k)
        return;
      if (store > k)
        hi = store;
      else
        lo = store + 1;
    }
}

/* QUADRANTS: the quadrant_cap nearest scanned candidates of each quadrant into its list. The lists are short, so
 * insertion into them costs less than partitioning the candidates by quadrant (measured). */
void
shepard_scan_cut_by_quadrant (const shepard_selection *selection, size_t count, neighbour_heap lists[SHEPARD_QUADRANTS])
{
  for (size_t j = 0; j < count; j++)
    {
      neighbour_heap *list = &lists[selection->scan_quadrant[j]];
      double d2 = selection->scan_d2[j];
      if (d2 <= neighbour_reject_above (list))
        neighbour_offer (list, d2, selection->scan_index[j]);
    }
}

/* NEAREST: the max_points nearest scanned candidates are the selection, in no order. */
void
shepard_scan_cut_nearest (const shepard_neighbourhood *hood, shepard_selection *selection, size_t count)
{
  size_t kept = count < hood->max_points ? count : hood->max_points;
  shepard_select_smallest (selection->scan_d2, selection->scan_index, count, kept);
  for (size_t j = 0; j < kept; j++)
    {
      selection->d2[j] = selection->scan_d2[j];
      selection->index[j] = selection->scan_index[j];
    }
  selection->count = kept;
}

/* Whether scanning the search circle costs less than the ring search: it weighs every point in the circle's cells,
 * the ring search stops at the nearest wanted but pays for its rings. */
bool
shepard_scan_pays (const shepard_neighbourhood *hood, size_t scanned)
{
  if (hood->mode == SHEPARD_SELECT_ELLIPSE)
    return true;
  size_t wanted = hood->mode == SHEPARD_SELECT_QUADRANTS ? SHEPARD_QUADRANTS * hood->quadrant_cap : hood->max_points;
  return scanned <= SCAN_CANDIDATES_PER_WANTED * wanted;
}
