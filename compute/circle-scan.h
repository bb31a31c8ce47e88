/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The selection's other way to its candidates (neighbourhood.c): with a search ellipse, the cells its bounding circle
 * covers are one run of slots per row of the even grid (a row's cells are contiguous in the sorted points), scanned
 * without a branch on the data; then a cut keeps the nearest. Chosen per query where it costs less than the ring
 * search. */
#ifndef SHEPARD_CIRCLE_SCAN_H
#define SHEPARD_CIRCLE_SCAN_H

#include "neighbour-list.h"
#include "neighbourhood.h"

/* The runs of slots a scan of the query's search circle covers, into selection->run_*; returns how many points they
 * hold, or SIZE_MAX when out of memory. */
size_t shepard_scan_plan (const shepard_neighbourhood *hood, const shepard_even_grid *grid, double qx, double qy,
                          shepard_selection *selection);

/* Whether scanning `planned` candidates costs less than the ring search (always in ELLIPSE mode). */
bool shepard_scan_pays (const shepard_neighbourhood *hood, size_t planned);

/* Room for `count` scanned candidates, and (ELLIPSE, which keeps them all) as many selected points; false when out
 * of memory. */
bool shepard_scan_reserve (const shepard_neighbourhood *hood, shepard_selection *selection, size_t count);

/* Every candidate inside the ellipse (and not labelled `excluded` when sorted_label is set), through the planned runs:
 * into the selection itself (ELLIPSE) or its scan arrays. Returns how many. */
size_t shepard_scan_circle (const shepard_neighbourhood *hood, const shepard_even_grid *grid,
                            const uint32_t *sorted_label, uint32_t excluded, double qx, double qy,
                            shepard_selection *selection);

/* ELLIPSE: the scanned candidates are the selection (nearest_d2 and the quadrant counts set). */
void shepard_scan_keep_all (shepard_selection *selection, size_t count);

/* QUADRANTS: the quadrant_cap nearest scanned candidates of each quadrant into its list. */
void shepard_scan_cut_by_quadrant (const shepard_selection *selection, size_t count,
                                   neighbour_heap lists[SHEPARD_QUADRANTS]);

/* NEAREST: the max_points nearest scanned candidates are the selection, in no order. */
void shepard_scan_cut_nearest (const shepard_neighbourhood *hood, shepard_selection *selection, size_t count);

/* Moves the k smallest of the m candidates (by squared distance, ties by index) to the front, in no order. */
void shepard_select_smallest (double *d2, size_t *index, size_t m, size_t k);

#endif
