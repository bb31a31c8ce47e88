/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tile-points.h"

#include <math.h>

#include "point-layer.h"
#include "shepard-app-error.h"
#include "tile-plan.h"

/* Queries of one call to shepard_engine_nearest: bounded memory whatever the tile's size. */
#define NEAREST_BLOCK_QUERIES 65536
/* The cells checked through one query, a block's centre, where the block lies well inside the halo. */
#define CHECK_BLOCK_SIDE 16
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

/* Query points and their `needed` nearest, in batches of NEAREST_BLOCK_QUERIES. */
typedef struct {
  shepard_engine *engine;
  int needed;
  size_t count;
  double *x, *y, *squared;
  double *margin; /* per query: how much nearer than rect's edge its farthest neighbour must lie */
} NearestBatch;

static gboolean
nearest_batch_init (NearestBatch *batch, shepard_engine *engine, int needed, GError **error)
{
  *batch = (NearestBatch) {
    .engine = engine,
    .needed = needed,
    .x = g_new (double, NEAREST_BLOCK_QUERIES),
    .y = g_new (double, NEAREST_BLOCK_QUERIES),
    .margin = g_new (double, NEAREST_BLOCK_QUERIES),
    .squared = g_try_malloc_n (NEAREST_BLOCK_QUERIES, (size_t) needed * sizeof (double)),
  };
  if (batch->squared != NULL)
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
               "not enough memory for the %d nearest points of %d cells", needed, NEAREST_BLOCK_QUERIES);
  return FALSE;
}

static void
nearest_batch_clear (NearestBatch *batch)
{
  g_clear_pointer (&batch->x, g_free);
  g_clear_pointer (&batch->y, g_free);
  g_clear_pointer (&batch->margin, g_free);
  g_clear_pointer (&batch->squared, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NearestBatch, nearest_batch_clear)

/* Finds the nearest of the batch's queries; far is then TRUE for each whose farthest neighbour lies nearer than its
 * margin. The batch is empty afterwards. */
static gboolean
nearest_batch_run (NearestBatch *batch, gboolean *far, GError **error)
{
  shepard_error engine_error = { 0 };
  if (batch->count > 0
      && shepard_engine_nearest (batch->engine, batch->x, batch->y, batch->count, batch->needed, batch->squared, NULL,
                                 &engine_error)
           != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  for (size_t i = 0; i < batch->count; i++)
    far[i] = batch->margin[i] > 0.0
             && sqrt (batch->squared[i * (size_t) batch->needed + (size_t) batch->needed - 1]) < batch->margin[i];
  batch->count = 0;
  return TRUE;
}

/* How far inside rect's edge the points (x, y) lie, all of them, less the room for rounding. */
static double
edge_distance (const double rect[4], double x_min, double x_max, double y_min, double y_max)
{
  return MIN (MIN (x_min - rect[0], rect[2] - x_max), MIN (y_min - rect[1], rect[3] - y_max)) * EDGE_SAFETY;
}

/* Whether every cell of the window finds its `needed` nearest nearer than the edge of rect: then no point outside it
 * can be among them. Checked a block of cells at a time through the block's centre c: the `needed` nearest of c lie
 * within d + |q - c| of any cell q of the block (d: c's farthest of them), so q's own farthest lies no farther, and a
 * block whose d plus its half-diagonal lies inside every cell's edge distance holds for all its cells. Only the blocks
 * that do not (near rect's edge) are checked cell by cell. */
static gboolean
nearest_inside (shepard_engine *engine, const shepard_grid *window, const double rect[4], int needed,
                gboolean *inside, GError **error)
{
  size_t blocks_across = (window->width + CHECK_BLOCK_SIDE - 1) / CHECK_BLOCK_SIDE;
  size_t blocks_down = (window->height + CHECK_BLOCK_SIDE - 1) / CHECK_BLOCK_SIDE;
  size_t n_blocks = blocks_across * blocks_down;
  g_auto (NearestBatch) batch = { 0 };
  g_autofree gboolean *block_far = g_new (gboolean, n_blocks);
  g_autofree gboolean *far = g_new (gboolean, NEAREST_BLOCK_QUERIES);

  if (!nearest_batch_init (&batch, engine, needed, error))
    return FALSE;
  for (size_t first = 0; first < n_blocks; first += NEAREST_BLOCK_QUERIES)
    {
      for (size_t b = first; b < MIN (n_blocks, first + NEAREST_BLOCK_QUERIES); b++)
        {
          size_t col0 = b % blocks_across * CHECK_BLOCK_SIDE, row0 = b / blocks_across * CHECK_BLOCK_SIDE;
          size_t col1 = MIN (col0 + CHECK_BLOCK_SIDE, window->width) - 1;
          size_t row1 = MIN (row0 + CHECK_BLOCK_SIDE, window->height) - 1;
          double x0 = shepard_grid_cell_x (window, col0), x1 = shepard_grid_cell_x (window, col1);
          double y0 = shepard_grid_cell_y (window, row1), y1 = shepard_grid_cell_y (window, row0);
          batch.x[batch.count] = 0.5 * (x0 + x1);
          batch.y[batch.count] = 0.5 * (y0 + y1);
          batch.margin[batch.count++] = edge_distance (rect, x0, x1, y0, y1) - 0.5 * hypot (x1 - x0, y1 - y0);
        }
      if (!nearest_batch_run (&batch, block_far + first, error))
        return FALSE;
    }

  *inside = TRUE;
  for (size_t b = 0; b <= n_blocks && *inside; b++)
    {
      gboolean last = b == n_blocks, near_edge = !last && !block_far[b];
      /* The cells queued so far, when the batch is full or at the end. */
      if (last || (near_edge && batch.count + CHECK_BLOCK_SIDE * CHECK_BLOCK_SIDE > NEAREST_BLOCK_QUERIES))
        {
          size_t count = batch.count;
          if (!nearest_batch_run (&batch, far, error))
            return FALSE;
          for (size_t i = 0; i < count && *inside; i++)
            *inside = far[i];
        }
      if (!near_edge)
        continue;
      size_t col0 = b % blocks_across * CHECK_BLOCK_SIDE, row0 = b / blocks_across * CHECK_BLOCK_SIDE;
      for (size_t row = row0; row < MIN (row0 + CHECK_BLOCK_SIDE, window->height); row++)
        for (size_t col = col0; col < MIN (col0 + CHECK_BLOCK_SIDE, window->width); col++)
          {
            double x = shepard_grid_cell_x (window, col), y = shepard_grid_cell_y (window, row);
            batch.x[batch.count] = x;
            batch.y[batch.count] = y;
            batch.margin[batch.count++] = edge_distance (rect, x, x, y, y);
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
