/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid-mpi's tiles when the command line names no size (app/mpi/tile-plan.h): the ranks of a node share the
 * cells of one lone rank's tile, in whole GeoTIFF blocks of 256, and the tiles of such a size cover a raster exactly
 * once, each window aligned as the engine needs. */
#include <glib.h>

#include "tile-plan.h"

enum { LONE = 2048, BLOCK = 256 };

/* Worked by hand: 2048^2 = 4194304 cells; two ranks: 1280^2 * 2 = 3276800 fits, 1536^2 * 2 = 4718592 does not. */
static void
test_sizes_by_hand (void)
{
  static const struct {
    int ranks;
    size_t size;
  } cases[] = {
    { 0, 2048 },  { 1, 2048 },  { 2, 1280 }, { 3, 1024 }, { 4, 1024 },   { 5, 768 },
    { 7, 768 },   { 8, 512 },   { 16, 512 }, { 17, 256 }, { 64, 256 },   { 100000, 256 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("%d ranks on the busiest node", cases[i].ranks);
      g_assert_cmpuint (shepard_tile_plan_shared_size (LONE, cases[i].ranks), ==, cases[i].size);
    }
  g_assert_cmpuint (shepard_tile_plan_shared_size (BLOCK, 1), ==, BLOCK);
  g_assert_cmpuint (shepard_tile_plan_shared_size (BLOCK, 9), ==, BLOCK);
  g_assert_cmpuint (shepard_tile_plan_shared_size (4096, 4), ==, 2048);
}

/* For every count of ranks: whole blocks, the node's tiles together within one lone tile (unless a single block), the
 * largest such, and never larger with more ranks. */
static void
test_node_shares_one_lone_tile (void)
{
  size_t previous = LONE;

  for (int ranks = 1; ranks <= 300; ranks++)
    {
      size_t size = shepard_tile_plan_shared_size (LONE, ranks), cells = (size_t) LONE * LONE;
      g_assert_cmpuint (size % BLOCK, ==, 0);
      g_assert_cmpuint (size, >=, BLOCK);
      if (size > BLOCK)
        g_assert_cmpuint (size * size * (size_t) ranks, <=, cells);
      if (size < LONE)
        g_assert_cmpuint ((size + BLOCK) * (size + BLOCK) * (size_t) ranks, >, cells);
      g_assert_cmpuint (size, <=, previous);
      previous = size;
    }
}

/* A raster of 5000 x 3001 cells, starting at a window's offset, in the tiles two ranks a node take: every cell in
 * exactly one tile, each tile starting at a multiple of SHEPARD_GRID_WINDOW_ALIGN. */
static void
test_shared_tiles_cover_raster (void)
{
  const shepard_grid raster = {
    .width = 5000, .height = 3001, .first_row = 16, .first_column = 8,
    .x_min = 100.0, .y_max = 900.0, .dx = 0.5, .dy = 0.25,
  };
  ShepardTilePlan plan;

  shepard_tile_plan_init (&plan, &raster, shepard_tile_plan_shared_size (LONE, 2));
  g_assert_cmpuint (plan.tile_size, ==, 1280);
  g_assert_cmpuint (plan.columns, ==, 4);
  g_assert_cmpuint (plan.rows, ==, 3);
  g_autofree guint8 *covered = g_new0 (guint8, raster.width * raster.height);
  for (size_t t = 0; t < plan.count; t++)
    {
      shepard_grid window;
      shepard_tile_plan_window (&plan, t, &window);
      g_assert_cmpuint (window.first_row % SHEPARD_GRID_WINDOW_ALIGN, ==, 0);
      g_assert_cmpuint (window.first_column % SHEPARD_GRID_WINDOW_ALIGN, ==, 0);
      g_assert_cmpuint (window.width, <=, plan.tile_size);
      g_assert_cmpuint (window.height, <=, plan.tile_size);
      for (size_t row = window.first_row; row < window.first_row + window.height; row++)
        for (size_t column = window.first_column; column < window.first_column + window.width; column++)
          covered[(row - raster.first_row) * raster.width + column - raster.first_column]++;
    }
  for (size_t i = 0; i < raster.width * raster.height; i++)
    g_assert_cmpuint (covered[i], ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/tile-plan/shared-size/by-hand", test_sizes_by_hand);
  g_test_add_func ("/tile-plan/shared-size/node-shares-one-lone-tile", test_node_shares_one_lone_tile);
  g_test_add_func ("/tile-plan/shared-size/tiles-cover-raster", test_shared_tiles_cover_raster);
  return g_test_run ();
}
