/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "nearest-cache.h"

#include <stdlib.h>

void
shepard_nearest_cache_init (shepard_nearest_cache *cache)
{
  *cache = (shepard_nearest_cache) { 0 };
}

void
shepard_nearest_cache_clear (shepard_nearest_cache *cache)
{
  for (size_t e = 0; e < SHEPARD_NEAREST_CACHE_GRIDS; e++)
    {
      free (cache->entry[e].nearest_d2);
      free (cache->entry[e].r_obs);
    }
  shepard_nearest_cache_init (cache);
}

/* Field by field: a struct's padding may differ where its fields do not. */
static bool
same_grid (const shepard_grid *a, const shepard_grid *b)
{
  return a->x_min == b->x_min && a->y_max == b->y_max && a->dx == b->dx && a->dy == b->dy && a->width == b->width
         && a->height == b->height && a->first_row == b->first_row && a->first_column == b->first_column;
}

shepard_nearest_entry *
shepard_nearest_cache_lookup (shepard_nearest_cache *cache, const shepard_grid *grid, size_t k_search,
                              bool has_r_obs)
{
  size_t cells = grid->width * grid->height;
  if (grid->height == 0 || cells / grid->height != grid->width || cells > SHEPARD_NEAREST_CACHE_MAX_CELLS)
    return NULL;
  cache->uses++;
  shepard_nearest_entry *oldest = &cache->entry[0];
  for (size_t e = 0; e < SHEPARD_NEAREST_CACHE_GRIDS; e++)
    {
      shepard_nearest_entry *entry = &cache->entry[e];
      if (entry->capacity > 0 && same_grid (&entry->grid, grid) && entry->k_search == k_search
          && entry->has_r_obs == has_r_obs)
        {
          entry->last_used = cache->uses;
          return entry; /* whole, or to be written again */
        }
      if (entry->last_used < oldest->last_used)
        oldest = entry;
    }
  if (oldest->capacity < cells)
    {
      free (oldest->nearest_d2);
      free (oldest->r_obs);
      oldest->nearest_d2 = malloc (cells * sizeof *oldest->nearest_d2);
      oldest->r_obs = malloc (cells * sizeof *oldest->r_obs);
      oldest->capacity = oldest->nearest_d2 && oldest->r_obs ? cells : 0;
      if (oldest->capacity == 0)
        {
          free (oldest->nearest_d2);
          free (oldest->r_obs);
          *oldest = (shepard_nearest_entry) { 0 };
          return NULL;
        }
    }
  oldest->grid = *grid;
  oldest->k_search = k_search;
  oldest->has_r_obs = has_r_obs;
  oldest->whole = false;
  oldest->last_used = cache->uses;
  return oldest;
}

void
shepard_nearest_cache_finish (shepard_nearest_entry *entry, bool whole)
{
  entry->whole = whole;
}
