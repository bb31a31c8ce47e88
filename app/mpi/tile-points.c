/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tile-points.h"

#include <math.h>

#include "point-layer.h"
#include "shepard-app-error.h"
#include "tile-plan.h"

/* Queries of one call to shepard_engine_nearest: bounded memory whatever the tile's size. */
#define NEAREST_BLOCK_QUERIES 65536
/* The farthest neighbour must lie this much nearer than the halo's edge: room for the engine's rounding of
 * distances, so that no point beyond the edge can tie with it. */
#define EDGE_SAFETY (1.0 - 1e-6)

gboolean
shepard_tile_points_apply (const shepard_params *params)
{
  if (params->radius1 > 0.0)
    return TRUE;
  return params->neighbors != SHEPARD_NEIGHBORS_ALL && params->max_points_per_quadrant == 0;
}

/* The neighbours a cell's value depends on beyond its radius: max_points without a radius, and AIDW's k for r_obs
 * in every case; 0 when none. */
static int
nearest_needed (const shepard_params *params)
{
  int needed = params->radius1 > 0.0 ? 0 : params->neighbors;

  if (params->method == SHEPARD_METHOD_AIDW)
    needed = MAX (needed, params->k);
  return needed;
}

/* Whether every cell of the window finds its `needed` nearest nearer than the edge of rect: then no point outside it
 * can be among them. */
static gboolean
nearest_inside (shepard_engine *engine, const shepard_grid *window, const double rect[4], int needed,
                gboolean *inside, GError **error)
{
  size_t rows_per_block = MAX ((size_t) 1, NEAREST_BLOCK_QUERIES / window->width);
  size_t block_queries = rows_per_block * window->width;
  g_autofree double *query_x = g_new (double, block_queries);
  g_autofree double *query_y = g_new (double, block_queries);
  g_autofree double *squared = g_try_malloc_n (block_queries, (size_t) needed * sizeof (double));

  if (squared == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "not enough memory for the %d nearest points of %zu cells", needed, block_queries);
      return FALSE;
    }
  *inside = TRUE;
  for (size_t first = 0; first < window->height && *inside; first += rows_per_block)
    {
      size_t rows = MIN (rows_per_block, window->height - first), n = rows * window->width;
      for (size_t i = 0; i < n; i++)
        {
          query_x[i] = window->x_min + ((double) (window->first_column + i % window->width) + 0.5) * window->dx;
          query_y[i] = window->y_max - ((double) (window->first_row + first + i / window->width) + 0.5) * window->dy;
        }
      shepard_error engine_error = { 0 };
      if (shepard_engine_nearest (engine, query_x, query_y, n, needed, squared, NULL, &engine_error) != SHEPARD_OK)
        {
          shepard_app_error_set_from_engine (error, &engine_error);
          return FALSE;
        }
      for (size_t i = 0; i < n && *inside; i++)
        {
          double edge = MIN (MIN (query_x[i] - rect[0], rect[2] - query_x[i]),
                             MIN (query_y[i] - rect[1], rect[3] - query_y[i]))
                        * EDGE_SAFETY;
          double farthest = squared[i * (size_t) needed + (size_t) needed - 1];
          *inside = edge > 0.0 && farthest < edge * edge;
        }
    }
  return TRUE;
}

static gboolean
rect_covers (const double rect[4], const double box[4])
{
  return rect[0] <= box[0] && rect[1] <= box[1] && rect[2] >= box[2] && rect[3] >= box[3];
}

/* A first halo: the radius, and where nearest points decide, twice the distance that holds `needed` points of the
 * layer's mean density; doubled as long as it is too small. */
static double
first_halo (const shepard_params *params, const ShepardLayerScan *scan, int needed)
{
  double radius = MAX (params->radius1, params->radius2);
  double bounds[4];

  shepard_layer_scan_bounds (scan, bounds);
  double width = bounds[2] - bounds[0], height = bounds[3] - bounds[1];
  double area = width * height > 0.0 ? width * height : MAX (width, height) * MAX (width, height);
  double density_halo = area > 0.0 ? 2.0 * sqrt ((double) needed * area / (G_PI * (double) scan->fields[0].n))
                                   : 1.0;
  return needed > 0 ? MAX (radius, density_halo) : radius;
}

gboolean
shepard_tile_points_read (const ShepardLayerSource *source, const ShepardLayerScan *scan,
                          const shepard_params *params, const shepard_grid *window, double min_halo,
                          const ShepardEngineChoice *choice, ShepardFieldEngines *engines, GPtrArray **points,
                          double *halo, GDALProgressFunc progress, void *progress_data, GError **error)
{
  g_return_val_if_fail (shepard_tile_points_apply (params), FALSE);

  int needed = nearest_needed (params);
  double box[4], bounds[4];
  shepard_tile_plan_centre_box (window, box);
  shepard_layer_scan_bounds (scan, bounds);
  *halo = MAX (first_halo (params, scan, needed), min_halo);
  for (;;)
    {
      const double rect[4] = { box[0] - *halo, box[1] - *halo, box[2] + *halo, box[3] + *halo };
      gboolean whole_layer = rect_covers (rect, bounds);
      g_autoptr (GPtrArray) read = shepard_point_layer_read_fields_in_rect (source->source, source->layer,
                                                                            source->value_fields,
                                                                            source->open_options, rect, progress,
                                                                            progress_data, error);
      if (read == NULL)
        return FALSE;
      gboolean every_field_has_points = TRUE;
      for (guint f = 0; f < read->len; f++)
        every_field_has_points &= ((const ShepardPointLayer *) g_ptr_array_index (read, f))->count > 0;
      if (every_field_has_points)
        {
          if (!shepard_rank_engines_init (engines, read, scan, choice, error))
            return FALSE;
          gboolean inside = TRUE;
          for (guint e = 0; needed > 0 && !whole_layer && inside && e < engines->engines->len; e++)
            if (!nearest_inside (g_ptr_array_index (engines->engines, e), window, rect, needed, &inside, error))
              {
                shepard_field_engines_clear (engines);
                return FALSE;
              }
          if (inside || whole_layer)
            {
              *points = g_steal_pointer (&read);
              return TRUE;
            }
          shepard_field_engines_clear (engines);
        }
      else if (whole_layer)
        {
          g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS,
                               "a field has no usable point in the whole layer");
          return FALSE;
        }
      *halo *= 2.0;
    }
}
