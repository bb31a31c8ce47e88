/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "neighbourhood.h"

#include "circle-scan.h"
#include "neighbour-list.h"

#include <math.h>
#include <stdlib.h>


void
shepard_neighbourhood_init (shepard_neighbourhood *hood, const shepard_params *params,
                            const shepard_point_set *points)
{
  double scale = points->scale;
  *hood = (shepard_neighbourhood) {
    .ellipse = params->radius1 > 0.0,
    .bound2 = INFINITY,
    .max_points = params->neighbors == SHEPARD_NEIGHBORS_ALL ? SIZE_MAX : (size_t) params->neighbors,
    .min_points = params->min_points > 1 ? (size_t) params->min_points : 1,
    .min_quadrant = (size_t) params->min_points_per_quadrant,
    .smoothing2 = (params->smoothing * scale) * (params->smoothing * scale),
    .box_x = { shepard_point_set_local (points->x_min, points->origin_x, scale),
               shepard_point_set_local (points->x_max, points->origin_x, scale) },
    .box_y = { shepard_point_set_local (points->y_min, points->origin_y, scale),
               shepard_point_set_local (points->y_max, points->origin_y, scale) },
  };
  if (hood->ellipse)
    {
      double r1 = params->radius1 * scale, r2 = params->radius2 * scale;
      double radians = params->angle * (3.14159265358979323846 / 180.0);
      hood->circle = params->radius1 == params->radius2;
      hood->radius2 = r1 * r1;
      hood->cos_angle = cos (radians);
      hood->sin_angle = sin (radians);
      hood->inverse_r1_2 = 1.0 / (r1 * r1);
      hood->inverse_r2_2 = 1.0 / (r2 * r2);
      double bound = fmax (r1, r2);
      /* A hair wider, so that rounding in the ellipse test never leaves out a boundary point the search skipped. */
      hood->bound2 = bound * bound * (1.0 + 1e-12);
    }
  if (params->max_points_per_quadrant > 0)
    {
      hood->mode = SHEPARD_SELECT_QUADRANTS;
      size_t cap = (size_t) params->max_points_per_quadrant;
      hood->quadrant_cap = cap < hood->max_points ? cap : hood->max_points;
    }
  else if (hood->max_points != SIZE_MAX)
    hood->mode = SHEPARD_SELECT_NEAREST;
  else if (hood->ellipse)
    hood->mode = SHEPARD_SELECT_ELLIPSE;
  else
    hood->mode = SHEPARD_SELECT_ALL;
}

bool
shepard_selection_init (shepard_selection *selection, const shepard_neighbourhood *hood)
{
  *selection = (shepard_selection) { 0 };
  size_t capacity = 0, list_capacity = 0;
  switch (hood->mode)
    {
    case SHEPARD_SELECT_NEAREST:
      capacity = hood->max_points;
      break;
    case SHEPARD_SELECT_QUADRANTS:
      capacity = SHEPARD_QUADRANTS * hood->quadrant_cap;
      list_capacity = capacity;
      break;
    case SHEPARD_SELECT_ELLIPSE: /* grown by shepard_scan_reserve */
    case SHEPARD_SELECT_ALL:
      break;
    }
  /* The minimum per quadrant is checked with lists of that length where the selection keeps no quadrant lists. */
  if (hood->mode != SHEPARD_SELECT_QUADRANTS && SHEPARD_QUADRANTS * hood->min_quadrant > list_capacity)
    list_capacity = SHEPARD_QUADRANTS * hood->min_quadrant;
  selection->capacity = capacity;
  if (capacity > 0)
    {
      selection->d2 = malloc (capacity * sizeof *selection->d2);
      selection->index = malloc (capacity * sizeof *selection->index);
    }
  if (list_capacity > 0)
    {
      selection->list_d2 = malloc (list_capacity * sizeof *selection->list_d2);
      selection->list_index = malloc (list_capacity * sizeof *selection->list_index);
    }
  if ((capacity > 0 && (!selection->d2 || !selection->index))
      || (list_capacity > 0 && (!selection->list_d2 || !selection->list_index)))
    {
      shepard_selection_clear (selection);
      return false;
    }
  return true;
}

void
shepard_selection_clear (shepard_selection *selection)
{
  free (selection->d2);
  free (selection->index);
  free (selection->list_d2);
  free (selection->list_index);
  free (selection->scan_d2);
  free (selection->scan_index);
  free (selection->scan_quadrant);
  free (selection->run_first);
  free (selection->run_end);
  *selection = (shepard_selection) { 0 };
}

enum { SIDE_LEFT = 1, SIDE_RIGHT = 2, SIDE_BOTTOM = 4, SIDE_TOP = 8, SIDES_ALL = 15 };

/* The sides of the searched square that bound the unsearched part of a quadrant's half-planes. */
static int
quadrant_sides (int quadrant)
{
  return (quadrant & 1 ? SIDE_LEFT : SIDE_RIGHT) | (quadrant & 2 ? SIDE_BOTTOM : SIDE_TOP);
}

typedef struct {
  const shepard_even_grid *grid;
  double qx, qy;
  long nx, ny, cx, cy;
} ring_search;

/* The distance from the query to the nearest unsearched cell beyond the given sides of the square of radius r
 * (cells), or +inf when the square reaches the grid's edge on each of them: everything there is searched. */
static double
clear_distance (const ring_search *search, long r, int sides)
{
  const shepard_even_grid *grid = search->grid;
  double clear = INFINITY;
  long i_lo = search->cx - r, i_hi = search->cx + r, j_lo = search->cy - r, j_hi = search->cy + r;
  if ((sides & SIDE_LEFT) && i_lo > 0)
    clear = fmin (clear, search->qx - (grid->x0 + (double) i_lo * grid->cell_size));
  if ((sides & SIDE_RIGHT) && i_hi < search->nx - 1)
    clear = fmin (clear, grid->x0 + (double) (i_hi + 1) * grid->cell_size - search->qx);
  if ((sides & SIDE_BOTTOM) && j_lo > 0)
    clear = fmin (clear, search->qy - (grid->y0 + (double) j_lo * grid->cell_size));
  if ((sides & SIDE_TOP) && j_hi < search->ny - 1)
    clear = fmin (clear, grid->y0 + (double) (j_hi + 1) * grid->cell_size - search->qy);
  return clear;
}

/* Whether a list needs no further ring: its part of the grid is searched, or nothing beyond `clear` can enter it
 * (outside the ellipse's circle, or farther than its last entry when full). `filling`: any entry will do, so a full
 * list is done. */
static bool
list_done (const ring_search *search, const shepard_neighbourhood *hood, long r, int sides,
           const neighbour_heap *list, bool filling)
{
  double clear = clear_distance (search, r, sides);
  if (clear == INFINITY)
    return true;
  if (list->size == list->capacity && filling)
    return true;
  clear -= 1e-9 * search->grid->cell_size; /* cell edges are computed, not stored */
  if (!(clear > 0.0))
    return false;
  if (clear * clear > hood->bound2)
    return true;
  return list->size == list->capacity && neighbour_last_d2 (list) < clear * clear;
}

typedef struct {
  const shepard_neighbourhood *hood;
  const shepard_even_grid *grid;
  const uint32_t *sorted_label;
  uint32_t excluded;
  double qx, qy;
  bool limit_to_ellipse;
  neighbour_heap *lists;
  int n_lists;
  const bool *done;
} cell_visit;

/* The common case, one sorted list and no fold left out: a point farther than a full list's last entry is passed
 * over on its distance alone, before the ellipse test and the list's tie rule. */
static inline void
visit_cell_one_list (const cell_visit *visit, size_t cell)
{
  const shepard_even_grid *grid = visit->grid;
  neighbour_heap *list = &visit->lists[0];
  double last = list->size == list->capacity ? list->d2[list->size - 1] : INFINITY;
  for (size_t slot = grid->cell_start[cell]; slot < grid->cell_start[cell + 1]; slot++)
    {
      double dx = grid->sx[slot] - visit->qx, dy = grid->sy[slot] - visit->qy, d2 = dx * dx + dy * dy;
      if (d2 > last)
        continue;
      if (visit->limit_to_ellipse && !shepard_neighbourhood_holds (visit->hood, dx, dy, d2))
        continue;
      sorted_offer (list, d2, grid->order[slot]);
      if (list->size == list->capacity)
        last = list->d2[list->size - 1];
    }
}

static inline void
visit_cell (const cell_visit *visit, size_t cell)
{
  const shepard_even_grid *grid = visit->grid;
  if (visit->n_lists == 1 && !visit->sorted_label && visit->lists[0].capacity <= SORTED_LIST_MAX)
    {
      if (!visit->done[0])
        visit_cell_one_list (visit, cell);
      return;
    }
  /* Per list, the distance beyond which nothing enters: a full list's last entry, a done list's -inf. */
  double last[SHEPARD_QUADRANTS];
  for (int l = 0; l < visit->n_lists; l++)
    last[l] = visit->done[l] ? -INFINITY : neighbour_reject_above (&visit->lists[l]);
  for (size_t slot = grid->cell_start[cell]; slot < grid->cell_start[cell + 1]; slot++)
    {
      if (visit->sorted_label && visit->sorted_label[slot] == visit->excluded)
        continue;
      double dx = grid->sx[slot] - visit->qx, dy = grid->sy[slot] - visit->qy, d2 = dx * dx + dy * dy;
      int l = visit->n_lists == 1 ? 0 : shepard_quadrant_of (dx, dy);
      if (d2 > last[l])
        continue;
      if (visit->limit_to_ellipse && !shepard_neighbourhood_holds (visit->hood, dx, dy, d2))
        continue;
      neighbour_offer (&visit->lists[l], d2, grid->order[slot]);
      last[l] = neighbour_reject_above (&visit->lists[l]);
    }
}

/* Whether a cell can hold a point that some list still takes: nearer than the ellipse's bounding circle, and than the
 * last entry of a full list (or any list not full). Most cells of the outer ring fail this once the lists hold the
 * nearest, which saves their points' distances. */
static inline bool
cell_is_useful (const cell_visit *visit, long i, long j)
{
  const shepard_even_grid *grid = visit->grid;
  /* A point is filed in its cell by a rounded division: the box is widened by the slack list_done allows too. */
  double slack = 1e-9 * grid->cell_size;
  double x0 = grid->x0 + (double) i * grid->cell_size - slack, x1 = x0 + grid->cell_size + 2.0 * slack;
  double y0 = grid->y0 + (double) j * grid->cell_size - slack, y1 = y0 + grid->cell_size + 2.0 * slack;
  double dx = visit->qx < x0 ? x0 - visit->qx : (visit->qx > x1 ? visit->qx - x1 : 0.0);
  double dy = visit->qy < y0 ? y0 - visit->qy : (visit->qy > y1 ? visit->qy - y1 : 0.0);
  double min_d2 = dx * dx + dy * dy;
  if (visit->limit_to_ellipse && min_d2 > visit->hood->bound2)
    return false;
  for (int l = 0; l < visit->n_lists; l++)
    {
      /* A quadrant's list takes only points on its side of the query: a cell wholly on the other side feeds none. */
      if (visit->n_lists == SHEPARD_QUADRANTS
          && !((l & 1 ? x0 < visit->qx : x1 >= visit->qx) && (l & 2 ? y0 < visit->qy : y1 >= visit->qy)))
        continue;
      if (!visit->done[l]
          && (visit->lists[l].size < visit->lists[l].capacity || min_d2 <= neighbour_last_d2 (&visit->lists[l])))
        return true;
    }
  return false;
}

/* The nearest candidates (inside the ellipse when `limit_to_ellipse`) into one list (n_lists 1) or one list per
 * quadrant (n_lists 4), ring by ring until every list is done. */
static void
ring_select (const shepard_neighbourhood *hood, const shepard_even_grid *grid, const uint32_t *sorted_label,
             uint32_t excluded, double qx, double qy, bool limit_to_ellipse, bool filling, neighbour_heap *lists,
             int n_lists)
{
  double inverse = 1.0 / grid->cell_size;
  ring_search search = {
    grid, qx, qy, (long) grid->nx, (long) grid->ny,
    (long) shepard_even_grid_clamp_cell ((qx - grid->x0) * inverse, grid->nx),
    (long) shepard_even_grid_clamp_cell ((qy - grid->y0) * inverse, grid->ny),
  };
  bool done[SHEPARD_QUADRANTS] = { false, false, false, false };
  cell_visit visit = { hood, grid, sorted_label, excluded, qx, qy, limit_to_ellipse, lists, n_lists, done };
  long nx = search.nx, ny = search.ny;
  for (long r = 0;; r++)
    {
      long i_lo = search.cx - r, i_hi = search.cx + r, j_lo = search.cy - r, j_hi = search.cy + r;
      long j_first = j_lo < 0 ? 0 : j_lo, j_last = j_hi >= ny ? ny - 1 : j_hi;
      long i_first = i_lo < 0 ? 0 : i_lo, i_last = i_hi >= nx ? nx - 1 : i_hi;
      for (long j = j_first; j <= j_last; j++)
        {
          size_t row = (size_t) j * grid->nx;
          if (j == j_lo || j == j_hi)
            {
              for (long i = i_first; i <= i_last; i++)
                if (cell_is_useful (&visit, i, j))
                  visit_cell (&visit, row + (size_t) i);
            }
          else
            {
              if (i_lo >= 0 && cell_is_useful (&visit, i_lo, j))
                visit_cell (&visit, row + (size_t) i_lo);
              if (i_hi < nx && cell_is_useful (&visit, i_hi, j))
                visit_cell (&visit, row + (size_t) i_hi);
            }
        }
      bool all_done = true;
      for (int l = 0; l < n_lists; l++)
        {
          if (!done[l])
            done[l] = list_done (&search, hood, r, n_lists == 1 ? SIDES_ALL : quadrant_sides (l), &lists[l],
                                 filling);
          all_done = all_done && done[l];
        }
      if (all_done)
        break;
    }
  for (int l = 0; l < n_lists; l++)
    neighbour_sort (&lists[l]);
}

static void
make_lists (neighbour_heap lists[SHEPARD_QUADRANTS], double *d2, size_t *index, size_t capacity)
{
  for (int q = 0; q < SHEPARD_QUADRANTS; q++)
    lists[q] = (neighbour_heap) { d2 + (size_t) q * capacity, index + (size_t) q * capacity, 0, capacity };
}

/* QUADRANTS: the lists into the selection. */
static void
take_quadrant_lists (const neighbour_heap lists[SHEPARD_QUADRANTS], shepard_selection *selection)
{
  selection->count = 0;
  for (int q = 0; q < SHEPARD_QUADRANTS; q++)
    {
      for (size_t j = 0; j < lists[q].size; j++)
        {
          selection->d2[selection->count] = lists[q].d2[j];
          selection->index[selection->count] = lists[q].index[j];
          selection->count++;
        }
      selection->quadrant_count[q] = lists[q].size;
    }
}


/* The selected points per quadrant, for the minimum per quadrant. */
static void
count_quadrants (const shepard_neighbourhood *hood, shepard_selection *selection, const double *x, const double *y,
                 double qx, double qy)
{
  for (int q = 0; q < SHEPARD_QUADRANTS; q++)
    selection->quadrant_count[q] = 0;
  if (hood->min_quadrant == 0)
    return;
  for (size_t j = 0; j < selection->count; j++)
    {
      size_t i = selection->index[j];
      selection->quadrant_count[shepard_quadrant_of (x[i] - qx, y[i] - qy)]++;
    }
}

static bool
ellipse_holds_box (const shepard_neighbourhood *hood, double qx, double qy)
{
  for (int cx = 0; cx < 2; cx++)
    for (int cy = 0; cy < 2; cy++)
      {
        double dx = hood->box_x[cx] - qx, dy = hood->box_y[cy] - qy;
        if (!shepard_neighbourhood_holds (hood, dx, dy, dx * dx + dy * dy))
          return false;
      }
  return true;
}

bool
shepard_neighbourhood_select (const shepard_neighbourhood *hood, const shepard_even_grid *grid, const double *x,
                              const double *y, const uint32_t *sorted_label, uint32_t excluded, double qx, double qy,
                              shepard_selection *selection)
{
  selection->count = 0;
  selection->nearest_d2 = INFINITY;
  selection->every_point = false;
  for (int q = 0; q < SHEPARD_QUADRANTS; q++)
    selection->quadrant_count[q] = 0;
  neighbour_heap lists[SHEPARD_QUADRANTS];

  if (hood->mode == SHEPARD_SELECT_ELLIPSE && ellipse_holds_box (hood, qx, qy))
    selection->every_point = true;
  if (hood->mode == SHEPARD_SELECT_ALL || selection->every_point)
    {
      /* Every point weighs: only whether each quadrant holds min_quadrant of them is left to find. */
      if (hood->min_quadrant > 0)
        {
          make_lists (lists, selection->list_d2, selection->list_index, hood->min_quadrant);
          ring_select (hood, grid, sorted_label, excluded, qx, qy, false, true, lists, SHEPARD_QUADRANTS);
          for (int q = 0; q < SHEPARD_QUADRANTS; q++)
            selection->quadrant_count[q] = lists[q].size;
        }
      return true;
    }

  /* The candidates come from a scan of the search circle where that costs less (always in ELLIPSE mode, which
   * keeps them all), from the ring search otherwise. */
  bool scanned = false;
  size_t count = 0;
  if (hood->ellipse)
    {
      size_t planned = shepard_scan_plan (hood, grid, qx, qy, selection);
      if (planned == SIZE_MAX)
        return false;
      if (shepard_scan_pays (hood, planned))
        {
          if (!shepard_scan_reserve (hood, selection, planned))
            return false;
          count = shepard_scan_circle (hood, grid, sorted_label, excluded, qx, qy, selection);
          scanned = true;
        }
    }
  if (hood->mode == SHEPARD_SELECT_ELLIPSE)
    {
      shepard_scan_keep_all (selection, count);
      return true;
    }

  if (hood->mode == SHEPARD_SELECT_QUADRANTS)
    {
      make_lists (lists, selection->list_d2, selection->list_index, hood->quadrant_cap);
      if (scanned)
        shepard_scan_cut_by_quadrant (selection, count, lists);
      else
        ring_select (hood, grid, sorted_label, excluded, qx, qy, hood->ellipse, false, lists, SHEPARD_QUADRANTS);
      take_quadrant_lists (lists, selection);
      if (selection->count > hood->max_points)
        {
          /* max_points cuts the quadrants' picks: the nearest of them stay. */
          shepard_select_smallest (selection->d2, selection->index, selection->count, hood->max_points);
          selection->count = hood->max_points;
          count_quadrants (hood, selection, x, y, qx, qy);
        }
    }
  else
    {
      if (scanned)
        shepard_scan_cut_nearest (hood, selection, count);
      else
        {
          lists[0] = (neighbour_heap) { selection->d2, selection->index, 0, hood->max_points };
          ring_select (hood, grid, sorted_label, excluded, qx, qy, hood->ellipse, false, lists, 1);
          selection->count = lists[0].size;
        }
      count_quadrants (hood, selection, x, y, qx, qy);
    }
  for (size_t j = 0; j < selection->count; j++)
    if (selection->d2[j] < selection->nearest_d2)
      selection->nearest_d2 = selection->d2[j];
  return true;
}

void
shepard_selection_take_nearest (const shepard_neighbourhood *hood, shepard_selection *selection, const double *d2,
                                const size_t *index, size_t count, const double *x, const double *y, double qx,
                                double qy)
{
  selection->every_point = false;
  for (size_t j = 0; j < count; j++)
    {
      selection->d2[j] = d2[j];
      selection->index[j] = index[j];
    }
  selection->count = count;
  selection->nearest_d2 = count > 0 ? d2[0] : INFINITY;
  count_quadrants (hood, selection, x, y, qx, qy);
}

bool
shepard_selection_has_data (const shepard_neighbourhood *hood, const shepard_selection *selection, size_t available)
{
  bool every_point = hood->mode == SHEPARD_SELECT_ALL || selection->every_point;
  if ((every_point ? available : selection->count) < hood->min_points)
    return false;
  for (int q = 0; q < SHEPARD_QUADRANTS; q++)
    if (selection->quadrant_count[q] < hood->min_quadrant)
      return false;
  return true;
}

bool
shepard_selection_holds (const shepard_selection *selection, size_t index)
{
  for (size_t j = 0; j < selection->count; j++)
    if (selection->index[j] == index)
      return true;
  return false;
}
