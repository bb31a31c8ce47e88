/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-plan.h"

#include "export-extent.h"
#include "grid-extent.h"

gboolean
shepard_grid_plan (const ShepardGridOptions *options, const double bounds[4], double extent[4], shepard_grid *grid,
                   GError **error)
{
  g_return_val_if_fail (options != NULL && bounds != NULL && extent != NULL && grid != NULL, FALSE);

  if (options->has_extent)
    {
      extent[0] = options->x_min;
      extent[1] = options->y_min;
      extent[2] = options->x_max;
      extent[3] = options->y_max;
    }
  else if (!shepard_export_extent (bounds, options->margin_percent, extent, error))
    {
      g_prefix_error (error, "-txe XMIN XMAX -tye YMIN YMAX or --margin PERCENT: ");
      return FALSE;
    }
  if (options->target_aligned
      && !shepard_grid_align_extent (extent, options->x_resolution, options->y_resolution, extent, error))
    return FALSE;
  size_t width = options->width, height = options->height;
  if (options->has_resolution
      && (!shepard_grid_cells_for_resolution (extent[2] - extent[0], options->x_resolution, "x", &width, error)
          || !shepard_grid_cells_for_resolution (extent[3] - extent[1], options->y_resolution, "y", &height, error)))
    return FALSE;
  return shepard_grid_from_extent (extent[0], extent[2], extent[1], extent[3], width, height, grid, error);
}
