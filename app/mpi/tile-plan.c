/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tile-plan.h"

/* GeoTIFF's default block: a tile of whole blocks. */
#define TILE_STEP 256

size_t
shepard_tile_plan_shared_size (size_t lone_size, int ranks_on_node)
{
  g_return_val_if_fail (lone_size >= TILE_STEP && lone_size % TILE_STEP == 0, lone_size);

  size_t ranks = (size_t) MAX (ranks_on_node, 1), size = lone_size;
  while (size > TILE_STEP && size * size * ranks > lone_size * lone_size)
    size -= TILE_STEP;
  return size;
}

void
shepard_tile_plan_init (ShepardTilePlan *plan, const shepard_grid *raster, size_t tile_size)
{
  g_return_if_fail (plan != NULL && raster != NULL);
  g_return_if_fail (tile_size > 0 && tile_size % SHEPARD_GRID_WINDOW_ALIGN == 0);

  plan->raster = *raster;
  plan->tile_size = tile_size;
  plan->columns = (raster->width + tile_size - 1) / tile_size;
  plan->rows = (raster->height + tile_size - 1) / tile_size;
  plan->count = plan->columns * plan->rows;
}

void
shepard_tile_plan_window (const ShepardTilePlan *plan, size_t index, shepard_grid *window)
{
  g_return_if_fail (plan != NULL && index < plan->count && window != NULL);

  size_t first_row = plan->raster.first_row + index / plan->columns * plan->tile_size;
  size_t first_column = plan->raster.first_column + index % plan->columns * plan->tile_size;
  *window = plan->raster;
  window->first_row = first_row;
  window->first_column = first_column;
  window->height = MIN (plan->tile_size, plan->raster.first_row + plan->raster.height - first_row);
  window->width = MIN (plan->tile_size, plan->raster.first_column + plan->raster.width - first_column);
}

void
shepard_tile_plan_centre_box (const shepard_grid *window, double box[4])
{
  box[0] = window->x_min + ((double) window->first_column + 0.5) * window->dx;
  box[2] = window->x_min + ((double) (window->first_column + window->width) - 0.5) * window->dx;
  box[3] = window->y_max - ((double) window->first_row + 0.5) * window->dy;
  box[1] = window->y_max - ((double) (window->first_row + window->height) - 0.5) * window->dy;
}

char *
shepard_tile_plan_file_name (const ShepardTilePlan *plan, size_t index)
{
  g_return_val_if_fail (plan != NULL && index < plan->count, NULL);

  int row_digits = MAX (3, (int) g_snprintf (NULL, 0, "%zu", plan->rows - 1));
  int column_digits = MAX (3, (int) g_snprintf (NULL, 0, "%zu", plan->columns - 1));
  return g_strdup_printf ("tile-%0*zu-%0*zu.tif", row_digits, index / plan->columns, column_digits,
                          index % plan->columns);
}
