/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The nearest cache (compute/nearest-cache.h): a grid is kept from its second time on; an entry is read only once an
 * interpolation wrote it whole, under the grid, k and kind it was written for; the least recently used grid gives
 * way; grids too large are not kept. The engine's side (a change of parameters that keeps the grid gives, to the bit,
 * what a fresh engine gives) is in test-summation. */
#include "nearest-cache.h"

#include <glib.h>

static shepard_grid
grid_of (size_t width, size_t height, double x_min)
{
  return (shepard_grid) { .x_min = x_min, .y_max = 100.0, .dx = 1.0, .dy = 1.0, .width = width, .height = height };
}

/* Writes the entry as an interpolation would, every cell from seed. */
static void
write_entry (shepard_nearest_entry *entry, double seed, bool whole)
{
  size_t cells = entry->grid.width * entry->grid.height;
  for (size_t i = 0; i < cells; i++)
    {
      entry->nearest_d2[i] = seed + (double) i;
      entry->r_obs[i] = seed - (double) i;
    }
  shepard_nearest_cache_finish (entry, whole);
}

/* The entry an interpolation of grid would get: NULL the first time, then one to write, then (written whole) one to
 * read. */
static shepard_nearest_entry *
kept_entry (shepard_nearest_cache *cache, const shepard_grid *grid, size_t k_search, bool has_r_obs, double seed)
{
  if (!shepard_nearest_cache_lookup (cache, grid, k_search, has_r_obs))
    {
      shepard_nearest_entry *entry = shepard_nearest_cache_lookup (cache, grid, k_search, has_r_obs);
      g_assert_nonnull (entry);
      g_assert_false (entry->whole);
      write_entry (entry, seed, true);
    }
  shepard_nearest_entry *entry = shepard_nearest_cache_lookup (cache, grid, k_search, has_r_obs);
  g_assert_nonnull (entry);
  g_assert_true (entry->whole);
  return entry;
}

static void
test_whole_entries_only (void)
{
  shepard_nearest_cache cache;
  shepard_nearest_cache_init (&cache);
  shepard_grid grid = grid_of (13, 7, 0.0);
  /* Its first time: noted, nothing kept (an export's block comes once). */
  g_assert_null (shepard_nearest_cache_lookup (&cache, &grid, 15, true));
  shepard_nearest_entry *entry = shepard_nearest_cache_lookup (&cache, &grid, 15, true);
  g_assert_nonnull (entry);
  g_assert_false (entry->whole);
  /* Cancelled: written in part, never read. */
  write_entry (entry, 5.0, false);
  entry = shepard_nearest_cache_lookup (&cache, &grid, 15, true);
  g_assert_false (entry->whole);
  write_entry (entry, 7.0, true);
  shepard_nearest_entry *again = shepard_nearest_cache_lookup (&cache, &grid, 15, true);
  g_assert_true (again == entry);
  g_assert_true (again->whole);
  g_assert_cmpfloat (again->nearest_d2[90], ==, 97.0);
  g_assert_cmpfloat (again->r_obs[90], ==, -83.0);

  /* Another k, kind, window or position: another grid, noted the first time. */
  shepard_grid window = grid;
  window.first_row = 8;
  shepard_grid moved = grid_of (13, 7, 1e-9);
  shepard_grid other_shape = grid_of (7, 13, 0.0);
  g_assert_null (shepard_nearest_cache_lookup (&cache, &grid, 16, true));
  g_assert_null (shepard_nearest_cache_lookup (&cache, &grid, 15, false));
  g_assert_null (shepard_nearest_cache_lookup (&cache, &window, 15, true));
  /* Four grids kept: the first (k 15, AIDW) was used before the three above and gives way to a fourth. */
  g_assert_null (shepard_nearest_cache_lookup (&cache, &moved, 15, true));
  g_assert_null (shepard_nearest_cache_lookup (&cache, &grid, 15, true));
  /* That took the place of the one used least recently (k 16), and so on. */
  g_assert_null (shepard_nearest_cache_lookup (&cache, &grid, 16, true));
  g_assert_nonnull (shepard_nearest_cache_lookup (&cache, &moved, 15, true));
  g_assert_null (shepard_nearest_cache_lookup (&cache, &other_shape, 15, true));

  shepard_nearest_cache_clear (&cache);
  g_assert_null (shepard_nearest_cache_lookup (&cache, &moved, 15, true));
  shepard_nearest_cache_clear (&cache);
}

/* The most recently read grid stays while others come and go, each noted once and given way. */
static void
test_least_recently_used_gives_way (void)
{
  shepard_nearest_cache cache;
  shepard_nearest_cache_init (&cache);
  shepard_grid coarse = grid_of (16, 16, 0.0);
  kept_entry (&cache, &coarse, 15, true, 1.0);
  for (int g = 1; g <= 3 * SHEPARD_NEAREST_CACHE_GRIDS; g++)
    {
      shepard_grid other = grid_of (64, 64, (double) g);
      kept_entry (&cache, &other, 15, true, 2.0);
      shepard_nearest_entry *kept = kept_entry (&cache, &coarse, 15, true, 3.0);
      g_assert_cmpfloat (kept->nearest_d2[255], ==, 256.0);
    }
  /* Grids that come once (an export's blocks) hold no memory, and never push a kept one out. */
  for (int g = 1; g <= 3 * SHEPARD_NEAREST_CACHE_GRIDS; g++)
    {
      shepard_grid band = grid_of (64, 8, (double) -g);
      g_assert_null (shepard_nearest_cache_lookup (&cache, &band, 15, true));
      g_assert_true (shepard_nearest_cache_lookup (&cache, &coarse, 15, true)->whole);
    }
  shepard_nearest_cache_clear (&cache);
}

static void
test_large_grids_not_kept (void)
{
  shepard_nearest_cache cache;
  shepard_nearest_cache_init (&cache);
  shepard_grid largest = grid_of (1024, SHEPARD_NEAREST_CACHE_MAX_CELLS / 1024, 0.0);
  shepard_grid larger = grid_of (1024, SHEPARD_NEAREST_CACHE_MAX_CELLS / 1024 + 1, 0.0);
  shepard_grid overflowing = grid_of (SIZE_MAX / 2, 3, 0.0);
  g_assert_null (shepard_nearest_cache_lookup (&cache, &largest, 15, true));
  g_assert_nonnull (shepard_nearest_cache_lookup (&cache, &largest, 15, true));
  for (int time = 0; time < 2; time++)
    {
      g_assert_null (shepard_nearest_cache_lookup (&cache, &larger, 15, true));
      g_assert_null (shepard_nearest_cache_lookup (&cache, &overflowing, 15, true));
    }
  shepard_nearest_cache_clear (&cache);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compute/nearest-cache/whole-entries-only", test_whole_entries_only);
  g_test_add_func ("/compute/nearest-cache/least-recently-used-gives-way", test_least_recently_used_gives_way);
  g_test_add_func ("/compute/nearest-cache/large-grids-not-kept", test_large_grids_not_kept);
  return g_test_run ();
}
