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

static void
forget (shepard_nearest_entry *entry)
{
  free (entry->nearest_d2);
  free (entry->r_obs);
  *entry = (shepard_nearest_entry) { 0 };
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
      bool noted = entry->last_used > 0;
      if (noted && same_grid (&entry->grid, grid) && entry->k_search == k_search && entry->has_r_obs == has_r_obs)
        {
          entry->last_used = cache->uses;
          if (entry->came_back)
            return entry; /* whole, or to be written again */
          entry->nearest_d2 = malloc (cells * sizeof *entry->nearest_d2);
          entry->r_obs = malloc (cells * sizeof *entry->r_obs);
          if (!entry->nearest_d2 || !entry->r_obs)
            {
              forget (entry);
              return NULL;
            }
          entry->came_back = true;
          return entry;
        }
      if (entry->last_used < oldest->last_used)
        oldest = entry;
    }
  forget (oldest);
  oldest->grid = *grid;
  oldest->k_search = k_search;
  oldest->has_r_obs = has_r_obs;
  oldest->last_used = cache->uses;
  return NULL;
}

void
shepard_nearest_cache_finish (shepard_nearest_entry *entry, bool whole)
{
  entry->whole = whole;
}
