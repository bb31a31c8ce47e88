/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-extent.h"

#include <float.h>
#include <math.h>
#include <string.h>

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
  /* Two finite ends can be more than the largest double apart, and a tiny extent over many cells gives cells of no
   * size: either grid has no cell centres to compute. */
  double cell = (high - low) / (double) cells;
  if (!isfinite (cell) || !(cell > 0.0))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the extent in %s, %.17g to %.17g, cannot be cut into %zu cells (%s): give a %s extent", axis, low,
                   high, cells, isfinite (cell) ? "they would have no size" : "it is too wide to compute with",
                   isfinite (cell) ? "wider" : "narrower");
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

gboolean
shepard_grid_align_extent (const double extent[4], double x_resolution, double y_resolution, double aligned[4],
                           GError **error)
{
  g_return_val_if_fail (extent != NULL && aligned != NULL, FALSE);
  g_return_val_if_fail (x_resolution > 0.0 && y_resolution > 0.0, FALSE);

  const double resolution[4] = { x_resolution, y_resolution, x_resolution, y_resolution };
  double result[4];
  for (int i = 0; i < 4; i++)
    {
      double multiples = extent[i] / resolution[i];
      result[i] = (i < 2 ? floor (multiples) : ceil (multiples)) * resolution[i];
      /* The product rounds: a multiple can land just inside the extent (329714.0000000001 for 329714.x over 0.56),
       * and the extent must stay covered, so such an edge moves out by one cell. */
      if (i < 2 && result[i] > extent[i])
        result[i] = (floor (multiples) - 1.0) * resolution[i];
      else if (i >= 2 && result[i] < extent[i])
        result[i] = (ceil (multiples) + 1.0) * resolution[i];
      /* A cell smaller than the coordinates' own precision moves nothing: alignment means nothing there, and the
       * edge stays where it was. */
      if ((i < 2 && result[i] > extent[i]) || (i >= 2 && result[i] < extent[i]))
        result[i] = extent[i];
      if (!isfinite (result[i]))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "-tap cannot align %s %.17g to a multiple of the cell size %g: give a larger cell size or an "
                       "extent nearer to 0",
                       i % 2 == 0 ? "x" : "y", extent[i], resolution[i]);
          return FALSE;
        }
    }
  memcpy (aligned, result, sizeof result);
  return TRUE;
}

void
shepard_grid_geotransform (const shepard_grid *grid, double geotransform[6])
{
  g_return_if_fail (grid != NULL);

  geotransform[0] = grid->x_min + (double) grid->first_column * grid->dx;
  geotransform[1] = grid->dx;
  geotransform[2] = 0.0;
  geotransform[3] = grid->y_max - (double) grid->first_row * grid->dy;
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

  /* In halves: a box from -1e308 to 1e308 is wider than the largest double, while its cells are not. */
  double half_width = extent[2] * 0.5 - extent[0] * 0.5, half_height = extent[3] * 0.5 - extent[1] * 0.5;
  double half_cell = MAX (half_width, half_height) / (double) long_side;
  size_t columns = 1, rows = 1;
  /* A box too small for normal numbers per cell (or of no size) gets one cell. */
  if (half_cell >= DBL_MIN)
    {
      columns = MAX ((size_t) floor (half_width / half_cell + 0.5), 1);
      rows = MAX ((size_t) floor (half_height / half_cell + 0.5), 1);
    }

  double dx = half_width / (double) columns * 2.0, dy = half_height / (double) rows * 2.0;
  /* A side can vanish against its coordinates (1e-307 wide at y = 5): its cells take the other side's size, or the
   * smallest step there is at the box's coordinates, so that every cell has a size. */
  double step = fmax (fmax (fabs (extent[0]), fabs (extent[3])) * DBL_EPSILON, DBL_MIN);
  if (!(dx > 0.0))
    dx = dy > 0.0 ? dy : step;
  if (!(dy > 0.0))
    dy = dx;

  *grid = (shepard_grid) {
    .x_min = extent[0],
    .y_max = extent[3],
    .dx = dx,
    .dy = dy,
    .width = columns,
    .height = rows,
  };
}
