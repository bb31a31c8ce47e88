/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tile-mask.h"

#include <math.h>

#include "point-layer.h"

/* The halo of a distance mask over D, relative to the larger of D and the coordinates' magnitude: room for rounding in
 * the spatial filter and in the distances, so that no point that the whole layer's search finds within D is left
 * out. */
#define HALO_ROUNDING_ROOM 1e-9

/* The x and y of every point of every field, one after another (the union shepard-grid masks with). */
static void
gather_points (GPtrArray *fields, GArray *x, GArray *y)
{
  for (guint f = 0; f < fields->len; f++)
    {
      const ShepardPointLayer *points = g_ptr_array_index (fields, f);
      g_array_append_vals (x, points->x, (guint) points->count);
      g_array_append_vals (y, points->y, (guint) points->count);
    }
}

/* The vertices of every field's hull: their hull is that of every point of every field. */
static void
gather_hulls (const ShepardLayerScan *scan, GArray *x, GArray *y)
{
  for (size_t f = 0; f < scan->n_fields; f++)
    {
      g_array_append_vals (x, scan->fields[f].hull_x->data, scan->fields[f].hull_x->len);
      g_array_append_vals (y, scan->fields[f].hull_y->data, scan->fields[f].hull_y->len);
    }
}

static double
halo_for (double distance, const ShepardLayerScan *scan)
{
  double bounds[4], magnitude = distance;

  shepard_layer_scan_bounds (scan, bounds);
  for (int i = 0; i < 4; i++)
    magnitude = MAX (magnitude, fabs (bounds[i]));
  return distance + HALO_ROUNDING_ROOM * magnitude;
}

gboolean
shepard_tile_mask_init (ShepardTileMask *self, const ShepardGridOptions *options, GPtrArray *fields,
                        const ShepardLayerScan *scan, const char *crs_wkt, GError **error)
{
  g_return_val_if_fail (self != NULL && options != NULL && (fields != NULL || scan != NULL), FALSE);

  *self = (ShepardTileMask) { 0 };
  if (options->mask_distance <= 0.0 && !options->mask_hull && options->cutline == NULL)
    return TRUE;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  if (fields != NULL)
    gather_points (fields, x, y);
  if (options->mask_distance > 0.0)
    {
      double bounds[4];
      if (fields == NULL)
        shepard_layer_scan_bounds (scan, bounds);
      if (fields != NULL ? !shepard_grid_mask_add_distance (mask, (const double *) x->data, (const double *) y->data,
                                                            x->len, options->mask_distance, error)
                         : !shepard_grid_mask_add_distance_near (mask, options->mask_distance, bounds, error))
        return FALSE;
      if (fields == NULL)
        self->halo = halo_for (options->mask_distance, scan);
    }
  if (fields == NULL)
    gather_hulls (scan, x, y);
  if (options->mask_hull && !shepard_grid_mask_add_hull (mask, (const double *) x->data, (const double *) y->data,
                                                         x->len, error))
    {
      g_prefix_error (error, "--mask-hull: ");
      return FALSE;
    }
  if (options->cutline != NULL
      && !shepard_grid_mask_add_cutline (mask, options->cutline, options->cutline_layer, crs_wkt, error))
    return FALSE;
  self->description = shepard_grid_mask_describe (mask);
  self->mask = g_steal_pointer (&mask);
  return TRUE;
}

gboolean
shepard_tile_mask_set_tile_points (ShepardTileMask *self, GPtrArray *tile_points, GError **error)
{
  g_return_val_if_fail (self != NULL && tile_points != NULL, FALSE);

  if (self->halo == 0.0)
    return TRUE;
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  gather_points (tile_points, x, y);
  return shepard_grid_mask_set_near_points (self->mask, (const double *) x->data, (const double *) y->data, x->len,
                                            error);
}

void
shepard_tile_mask_clear (ShepardTileMask *self)
{
  g_clear_pointer (&self->mask, shepard_grid_mask_free);
  g_clear_pointer (&self->description, g_free);
}
