/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the nearest search found for each cell of a few recent grids, kept between interpolations: the squared
 * distance to the nearest point and AIDW's r_obs (the mean distance to the k nearest). Both depend only on the points,
 * the grid and k, so a change of any other parameter (AIDW's alphas and its membership bounds, the IDW power, the
 * tolerance) finds them here instead of searching again: in a window whose slider changes alpha, the same grids come
 * back at every frame. Served to the far field's sums, which need nothing else of the search. */
#ifndef SHEPARD_NEAREST_CACHE_H
#define SHEPARD_NEAREST_CACHE_H

#include "shepard-engine.h"

#include <stdbool.h>
#include <stddef.h>

/* Grids of more cells are not kept (16 bytes a cell). Nor is a grid the first time it comes: an export's blocks come
 * once each, and take no memory here. */
#define SHEPARD_NEAREST_CACHE_MAX_CELLS ((size_t) 1 << 20)
/* Grids kept at once: the coarse and the full grid of a preview, and those of a view before it zoomed. */
#define SHEPARD_NEAREST_CACHE_GRIDS 4

typedef struct {
  shepard_grid grid;
  size_t k_search; /* the nearest searched for each cell */
  bool has_r_obs;  /* r_obs kept (AIDW), over the k_search nearest */
  bool came_back;  /* asked for again after its first time: its values are kept */
  bool whole;      /* every cell's values written by an interpolation that ran to its end */
  unsigned long last_used; /* 0: an entry never used */
  double *nearest_d2; /* per cell (row-major), local frame */
  double *r_obs;      /* per cell, local frame; written where has_r_obs */
} shepard_nearest_entry;

typedef struct {
  shepard_nearest_entry entry[SHEPARD_NEAREST_CACHE_GRIDS];
  unsigned long uses;
} shepard_nearest_cache;

void shepard_nearest_cache_init (shepard_nearest_cache *cache);
/* Forgets every grid and frees their memory: the points changed. */
void shepard_nearest_cache_clear (shepard_nearest_cache *cache);

/* The entry for grid, k_search and has_r_obs. Where it is whole, its values are the search's: read them. Where the
 * grid comes back (it was asked for before, and has not given way since), the entry is made ready to be written, whole
 * cleared until shepard_nearest_cache_finish. NULL the first time (the grid is noted in the least recently used
 * entry, which frees what it held), where the grid is too large to keep or where memory is short: search as before. */
shepard_nearest_entry *shepard_nearest_cache_lookup (shepard_nearest_cache *cache, const shepard_grid *grid,
                                                     size_t k_search, bool has_r_obs);
/* After writing entry's cells: whole where every cell was written (the interpolation ran to its end). */
void shepard_nearest_cache_finish (shepard_nearest_entry *entry, bool whole);

#endif
