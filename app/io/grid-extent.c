/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-extent.h"

#include <math.h>

#include "shepard-app-error.h"

static gboolean
check_axis (const char *axis, double low, double high, size_t cells, GError **error)
{
  if (!isfinite (low) || !isfinite (high) || !(high > low))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the extent in %s, %.17g to %.17g, is empty: give a minimum below the maximum", axis, low, high);
      return FALSE;
    }
  if (cells < 1 || cells > SHEPARD_GRID_MAX_SIZE)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the grid needs 1 to %zu cells in %s, not %zu", SHEPARD_GRID_MAX_SIZE, axis, cells);
      return FALSE;
    }
  return TRUE;
}

gboolean
shepard_grid_from_extent (double x_min, double x_max, double y_min, double y_max, size_t width, size_t height,
                          shepard_grid *grid, GError **error)
{
  g_return_val_if_fail (grid != NULL, FALSE);

  if (!check_axis ("x", x_min, x_max, width, error) || !check_axis ("y", y_min, y_max, height, error))
    return FALSE;
  *grid = (shepard_grid) {
    .x_min = x_min,
    .y_max = y_max,
    .dx = (x_max - x_min) / (double) width,
    .dy = (y_max - y_min) / (double) height,
    .width = width,
    .height = height,
  };
  return TRUE;
}

gboolean
shepard_grid_cells_for_resolution (double extent, double resolution, const char *axis, size_t *cells,
                                   GError **error)
{
  g_return_val_if_fail (axis != NULL && cells != NULL, FALSE);

  if (!isfinite (resolution) || !(resolution > 0.0))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the cell size in %s must be a positive number, not %g", axis, resolution);
      return FALSE;
    }
  double rounded = floor (extent / resolution + 0.5);
  if (!(rounded >= 1.0))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the cell size in %s, %g, leaves no cell in an extent %g wide: give a smaller cell size", axis,
                   resolution, extent);
      return FALSE;
    }
  if (rounded > (double) SHEPARD_GRID_MAX_SIZE)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the cell size in %s, %g, makes more than %zu cells: give a larger cell size", axis, resolution,
                   SHEPARD_GRID_MAX_SIZE);
      return FALSE;
    }
  *cells = (size_t) rounded;
  return TRUE;
}

void
shepard_grid_geotransform (const shepard_grid *grid, double geotransform[6])
{
  g_return_if_fail (grid != NULL);

  geotransform[0] = grid->x_min;
  geotransform[1] = grid->dx;
  geotransform[2] = 0.0;
  geotransform[3] = grid->y_max;
  geotransform[4] = 0.0;
  geotransform[5] = -grid->dy;
}

void
shepard_extent_of_points (double x_min, double y_min, double x_max, double y_max, double extent[4])
{
  double width = x_max - x_min, height = y_max - y_min;
  double longer = MAX (width, height), filler = longer > 0.0 ? longer : 1.0;
  double half_width = width > 0.0 ? 0.0 : 0.5 * filler, half_height = height > 0.0 ? 0.0 : 0.5 * filler;

  extent[0] = x_min - half_width;
  extent[1] = y_min - half_height;
  extent[2] = x_max + half_width;
  extent[3] = y_max + half_height;
}

void
shepard_grid_for_preview (const double extent[4], size_t long_side, shepard_grid *grid)
{
  g_return_if_fail (extent != NULL && grid != NULL && long_side > 0);

  double width = extent[2] - extent[0], height = extent[3] - extent[1];
  double cell = MAX (width, height) / (double) long_side;
  size_t columns = MAX ((size_t) floor (width / cell + 0.5), 1);
  size_t rows = MAX ((size_t) floor (height / cell + 0.5), 1);

  *grid = (shepard_grid) {
    .x_min = extent[0],
    .y_max = extent[3],
    .dx = width / (double) columns,
    .dy = height / (double) rows,
    .width = columns,
    .height = rows,
  };
}
