/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-mask.h"

#include <gdal_alg.h>
#include <math.h>
#include <ogr_api.h>
#include <stdlib.h>
#include <string.h>

#include "cutline-polygons.h"
#include "engine-autocleanups.h"
#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"

/* Queries per nearest search and cells per rasterised block: a band of any size is judged in bounded memory. */
#define DISTANCE_QUERIES_PER_CALL 65536
#define CUTLINE_CELLS_PER_BLOCK ((size_t) 1 << 22)

/* A centre this close to the hull's boundary, relative to the points' extent, is on it (and kept), so that rounding
 * does not decide about cells whose centre lies on an edge between data points. */
#define HULL_BOUNDARY_TOLERANCE 1e-9

typedef enum {
  PART_DISTANCE,
  PART_HULL,
  PART_CUTLINE,
} PartKind;

typedef struct {
  PartKind kind;
  /* distance: an engine of its own over the points, for the exact nearest search; NULL: no point near (every cell
   * masked) */
  shepard_engine *engine;
  double max_distance;
  gboolean near;     /* the points near each grid (add_distance_near), in the frame of bounds */
  double bounds[4];
  /* hull: its vertices counter-clockwise, relative to origin for precision at map-scale coordinates */
  double (*hull)[2];
  size_t n_hull;
  double origin[2];
  double hull_tolerance; /* map units */
  /* cutline: its polygons in the points' CRS */
  OGRGeometryH *polygons;
  size_t n_polygons;
  char *source;
  char *layer_name;
} MaskPart;

struct _ShepardGridMask {
  GPtrArray *parts;
  GMutex lock;
};

static void
mask_part_free (MaskPart *part)
{
  g_clear_pointer (&part->engine, shepard_engine_free);
  g_free (part->hull);
  for (size_t i = 0; i < part->n_polygons; i++)
    OGR_G_DestroyGeometry (part->polygons[i]);
  g_free (part->polygons);
  g_free (part->source);
  g_free (part->layer_name);
  g_free (part);
}

ShepardGridMask *
shepard_grid_mask_new (void)
{
  ShepardGridMask *mask = g_new0 (ShepardGridMask, 1);

  mask->parts = g_ptr_array_new_with_free_func ((GDestroyNotify) mask_part_free);
  g_mutex_init (&mask->lock);
  return mask;
}

void
shepard_grid_mask_free (ShepardGridMask *mask)
{
  if (mask == NULL)
    return;
  g_ptr_array_unref (mask->parts);
  g_mutex_clear (&mask->lock);
  g_free (mask);
}

gboolean
shepard_grid_mask_is_empty (const ShepardGridMask *mask)
{
  g_return_val_if_fail (mask != NULL, TRUE);

  return mask->parts->len == 0;
}

static gboolean
check_points (size_t n_points, const char *what, GError **error)
{
  if (n_points > 0)
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS, "There are no data points to %s.", what);
  return FALSE;
}

static gboolean
check_distance (double max_distance, GError **error)
{
  if (max_distance > 0.0 && isfinite (max_distance))
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "The mask distance must be a distance above zero in map units, not %g.", max_distance);
  return FALSE;
}

/* An engine over the points for the nearest search; bounds NULL: the frame of the points themselves, else that of the
 * whole set whose box it is, so that a part of the points gives the distances, to the bit, that the whole does. */
static shepard_engine *
distance_engine_new (const double *x, const double *y, size_t n_points, const double *bounds, GError **error)
{
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0,
                                                          &engine_error);
  /* The search reads coordinates only; the values are a placeholder. */
  g_autofree double *zeros = g_try_new0 (double, n_points);
  const double *const z[] = { zeros };
  shepard_layer_extent whole = {
    .n = n_points,
    .x_min = bounds != NULL ? bounds[0] : 0.0,
    .y_min = bounds != NULL ? bounds[1] : 0.0,
    .x_max = bounds != NULL ? bounds[2] : 0.0,
    .y_max = bounds != NULL ? bounds[3] : 0.0,
  };
  if (engine == NULL || zeros == NULL
      || (bounds == NULL ? shepard_engine_set_points (engine, x, y, zeros, n_points, &engine_error)
                         : shepard_engine_set_points_part (engine, x, y, z, 1, n_points, &whole, &engine_error))
           != SHEPARD_OK)
    {
      if (engine_error.code == SHEPARD_OK)
        engine_error = (shepard_error) { SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the distance mask." };
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  return g_steal_pointer (&engine);
}

gboolean
shepard_grid_mask_add_distance (ShepardGridMask *mask, const double *x, const double *y, size_t n_points,
                                double max_distance, GError **error)
{
  g_return_val_if_fail (mask != NULL && (n_points == 0 || (x != NULL && y != NULL)), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_distance (max_distance, error) || !check_points (n_points, "measure the mask distance from", error))
    return FALSE;
  shepard_engine *engine = distance_engine_new (x, y, n_points, NULL, error);
  if (engine == NULL)
    return FALSE;
  MaskPart *part = g_new0 (MaskPart, 1);
  part->kind = PART_DISTANCE;
  part->engine = engine;
  part->max_distance = max_distance;
  g_ptr_array_add (mask->parts, part);
  return TRUE;
}

gboolean
shepard_grid_mask_add_distance_near (ShepardGridMask *mask, double max_distance, const double bounds[4],
                                     GError **error)
{
  g_return_val_if_fail (mask != NULL && bounds != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_distance (max_distance, error))
    return FALSE;
  if (!(bounds[0] <= bounds[2] && bounds[1] <= bounds[3]) || !isfinite (bounds[0]) || !isfinite (bounds[1])
      || !isfinite (bounds[2]) || !isfinite (bounds[3]))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "The points' bounding box (%g, %g) to (%g, %g) is not a box of finite numbers.", bounds[0],
                   bounds[1], bounds[2], bounds[3]);
      return FALSE;
    }
  MaskPart *part = g_new0 (MaskPart, 1);
  part->kind = PART_DISTANCE;
  part->max_distance = max_distance;
  part->near = TRUE;
  memcpy (part->bounds, bounds, sizeof part->bounds);
  g_ptr_array_add (mask->parts, part);
  return TRUE;
}

gboolean
shepard_grid_mask_set_near_points (ShepardGridMask *mask, const double *x, const double *y, size_t n_points,
                                   GError **error)
{
  g_return_val_if_fail (mask != NULL && (n_points == 0 || (x != NULL && y != NULL)), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  MaskPart *part = NULL;
  for (guint i = 0; i < mask->parts->len && part == NULL; i++)
    {
      MaskPart *candidate = g_ptr_array_index (mask->parts, i);
      if (candidate->kind == PART_DISTANCE && candidate->near)
        part = candidate;
    }
  g_return_val_if_fail (part != NULL, FALSE);
  shepard_engine *engine = n_points > 0 ? distance_engine_new (x, y, n_points, part->bounds, error) : NULL;
  if (n_points > 0 && engine == NULL)
    return FALSE;
  g_mutex_lock (&mask->lock);
  g_clear_pointer (&part->engine, shepard_engine_free);
  part->engine = engine;
  g_mutex_unlock (&mask->lock);
  return TRUE;
}

static int
compare_points (const void *a, const void *b)
{
  const double *p = a, *q = b;

  if (p[0] != q[0])
    return p[0] < q[0] ? -1 : 1;
  return (p[1] > q[1]) - (p[1] < q[1]);
}

static double
cross (const double o[2], const double a[2], const double b[2])
{
  return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

gboolean
shepard_grid_mask_add_hull (ShepardGridMask *mask, const double *x, const double *y, size_t n_points, GError **error)
{
  g_return_val_if_fail (mask != NULL && (n_points == 0 || (x != NULL && y != NULL)), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_points (n_points, "take the convex hull of", error))
    return FALSE;
  double (*points)[2] = g_try_malloc_n (n_points, sizeof *points);
  double (*hull)[2] = g_try_malloc_n (2 * n_points + 1, sizeof *hull);
  if (points == NULL || hull == NULL)
    {
      g_free (points);
      g_free (hull);
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                           "Not enough memory for the convex hull of the points.");
      return FALSE;
    }
  double x_min = x[0], x_max = x[0], y_min = y[0], y_max = y[0];
  for (size_t i = 0; i < n_points; i++)
    {
      x_min = MIN (x_min, x[i]);
      x_max = MAX (x_max, x[i]);
      y_min = MIN (y_min, y[i]);
      y_max = MAX (y_max, y[i]);
    }
  double origin[2] = { 0.5 * (x_min + x_max), 0.5 * (y_min + y_max) };
  for (size_t i = 0; i < n_points; i++)
    {
      points[i][0] = x[i] - origin[0];
      points[i][1] = y[i] - origin[1];
    }

  /* Andrew's monotone chain, counter-clockwise, collinear points left out. */
  qsort (points, n_points, sizeof *points, compare_points);
  size_t count = 0;
  for (size_t i = 0; i < n_points; i++)
    {
      while (count >= 2 && cross (hull[count - 2], hull[count - 1], points[i]) <= 0.0)
        count--;
      memcpy (hull[count++], points[i], sizeof *hull);
    }
  for (size_t i = n_points - 1, lower = count + 1; i-- > 0;)
    {
      while (count >= lower && cross (hull[count - 2], hull[count - 1], points[i]) <= 0.0)
        count--;
      memcpy (hull[count++], points[i], sizeof *hull);
    }
  g_free (points);
  /* The chain ends on its first vertex again. */
  count = count > 0 ? count - 1 : 0;
  if (count < 3)
    {
      g_free (hull);
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA,
                           "The points lie on a line or on one spot, so they have no convex hull to mask with: mask "
                           "by distance or with a cutline instead.");
      return FALSE;
    }
  MaskPart *part = g_new0 (MaskPart, 1);
  part->kind = PART_HULL;
  part->hull = hull;
  part->n_hull = count;
  part->origin[0] = origin[0];
  part->origin[1] = origin[1];
  part->hull_tolerance = HULL_BOUNDARY_TOLERANCE * MAX (x_max - x_min, y_max - y_min);
  g_ptr_array_add (mask->parts, part);
  return TRUE;
}

gboolean
shepard_grid_mask_add_cutline (ShepardGridMask *mask, const char *source, const char *layer,
                               const char *target_crs_wkt, GError **error)
{
  g_return_val_if_fail (mask != NULL && source != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_autofree char *layer_name = NULL;
  g_autoptr (GPtrArray) polygons = shepard_cutline_polygons_read (source, layer, target_crs_wkt, &layer_name, error);
  if (polygons == NULL)
    return FALSE;

  MaskPart *part = g_new0 (MaskPart, 1);
  part->kind = PART_CUTLINE;
  /* Its options name the file wherever they are read (a raster's metadata travels). */
  part->source = g_file_test (source, G_FILE_TEST_EXISTS) ? g_canonicalize_filename (source, NULL) : g_strdup (source);
  part->layer_name = g_steal_pointer (&layer_name);
  part->n_polygons = polygons->len;
  g_ptr_array_set_free_func (polygons, NULL);
  part->polygons = (OGRGeometryH *) g_ptr_array_free (g_steal_pointer (&polygons), FALSE);
  g_ptr_array_add (mask->parts, part);
  return TRUE;
}

/* The word as a shell reads it: quoted only when it must be. */
static void
append_word (GString *text, const char *word)
{
  gboolean plain = *word != '\0';

  for (const char *c = word; *c != '\0'; c++)
    plain = plain && (g_ascii_isalnum (*c) || strchr ("-_./:,+=@%", *c) != NULL);
  g_autofree char *quoted = plain ? NULL : g_shell_quote (word);
  g_string_append_printf (text, "%s%s", text->len > 0 ? " " : "", plain ? word : quoted);
}

char *
shepard_grid_mask_describe (const ShepardGridMask *mask)
{
  g_return_val_if_fail (mask != NULL, NULL);

  GString *text = g_string_new (NULL);
  for (guint i = 0; i < mask->parts->len; i++)
    {
      const MaskPart *part = g_ptr_array_index (mask->parts, i);
      char number[G_ASCII_DTOSTR_BUF_SIZE];
      switch (part->kind)
        {
        case PART_DISTANCE:
          append_word (text, "--mask-distance");
          append_word (text, g_ascii_dtostr (number, sizeof number, part->max_distance));
          break;
        case PART_HULL:
          append_word (text, "--mask-hull");
          break;
        case PART_CUTLINE:
          append_word (text, "-cutline");
          append_word (text, part->source);
          append_word (text, "-cl");
          append_word (text, part->layer_name);
          break;
        }
    }
  return g_string_free (text, FALSE);
}

static gboolean
keep_near (const MaskPart *part, const shepard_grid *grid, size_t first_row, size_t n_rows, guint8 *keep,
           GError **error)
{
  size_t n_cells = n_rows * grid->width;
  if (part->engine == NULL)
    {
      memset (keep, 0, n_cells);
      return TRUE;
    }
  size_t chunk = MIN (n_cells, (size_t) DISTANCE_QUERIES_PER_CALL);
  g_autofree double *query_x = g_try_new (double, chunk);
  g_autofree double *query_y = g_try_new (double, chunk);
  g_autofree double *squared = g_try_new (double, chunk);
  double limit = part->max_distance * part->max_distance;

  if (query_x == NULL || query_y == NULL || squared == NULL)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                           "Not enough memory for the distance mask.");
      return FALSE;
    }
  for (size_t start = 0; start < n_cells; start += chunk)
    {
      size_t count = MIN (chunk, n_cells - start);
      for (size_t i = 0; i < count; i++)
        {
          size_t cell = start + i;
          query_x[i] = shepard_grid_cell_x (grid, cell % grid->width);
          query_y[i] = shepard_grid_cell_y (grid, first_row + cell / grid->width);
        }
      shepard_error engine_error = { 0 };
      if (shepard_engine_nearest (part->engine, query_x, query_y, count, 1, squared, NULL, &engine_error)
          != SHEPARD_OK)
        {
          shepard_app_error_set_from_engine (error, &engine_error);
          return FALSE;
        }
      for (size_t i = 0; i < count; i++)
        if (squared[i] > limit)
          keep[start + i] = 0;
    }
  return TRUE;
}

/* A row of centres crosses the convex hull in one interval of x: the intersection of the half-planes left of its
 * edges, each widened by the tolerance. */
static void
keep_in_hull (const MaskPart *part, const shepard_grid *grid, size_t first_row, size_t n_rows, guint8 *keep)
{
  for (size_t row = 0; row < n_rows; row++)
    {
      double y = shepard_grid_cell_y (grid, first_row + row) - part->origin[1];
      double low = -INFINITY, high = INFINITY;
      for (size_t i = 0; i < part->n_hull; i++)
        {
          const double *a = part->hull[i], *b = part->hull[(i + 1) % part->n_hull];
          double ex = b[0] - a[0], ey = b[1] - a[1];
          /* Inside: ex (y - ay) - ey (x - ax) >= -tolerance |e|, that is ey (x - ax) <= bound. */
          double bound = ex * (y - a[1]) + part->hull_tolerance * hypot (ex, ey);
          if (ey > 0.0)
            high = MIN (high, a[0] + bound / ey);
          else if (ey < 0.0)
            low = MAX (low, a[0] + bound / ey);
          else if (bound < 0.0)
            high = -INFINITY;
        }
      guint8 *keep_row = keep + row * grid->width;
      for (size_t col = 0; col < grid->width; col++)
        {
          double x = shepard_grid_cell_x (grid, col) - part->origin[0];
          if (!(x >= low && x <= high))
            keep_row[col] = 0;
        }
    }
}

static gboolean
rasterisation_failed (ShepardGdalErrorTrap *trap, GError **error)
{
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE, "Cannot rasterise the cutline: %s",
               shepard_gdal_error_trap_reason (trap, "GDAL gave no reason"));
  return FALSE;
}

/* Burns the polygons into an in-memory byte raster of a block of rows at a time (GDAL's default rule: a cell whose
 * centre is inside), so that a large grid never needs a byte raster of its own size. */
static gboolean
keep_in_cutline (const MaskPart *part, const shepard_grid *grid, size_t first_row, size_t n_rows, guint8 *keep,
                 GError **error)
{
  if (grid->width > (size_t) G_MAXINT)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "A grid %zu cells wide is too wide to rasterise a cutline on.", grid->width);
      return FALSE;
    }
  GDALDriverH memory_driver = GDALGetDriverByName ("MEM");
  size_t block_rows = CLAMP (CUTLINE_CELLS_PER_BLOCK / grid->width, (size_t) 1, n_rows);
  g_autofree double *burn_values = g_new (double, part->n_polygons);
  g_autofree guint8 *inside = g_try_malloc (block_rows * grid->width);
  const int bands[] = { 1 };

  if (inside == NULL)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                           "Not enough memory to rasterise the cutline.");
      return FALSE;
    }
  for (size_t i = 0; i < part->n_polygons; i++)
    burn_values[i] = 1.0;
  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  for (size_t start = 0; start < n_rows; start += block_rows)
    {
      size_t rows = MIN (block_rows, n_rows - start);
      g_auto (GDALDatasetH) block = memory_driver != NULL ? GDALCreate (memory_driver, "", (int) grid->width,
                                                                        (int) rows, 1, GDT_Byte, NULL)
                                                          : NULL;
      if (block == NULL)
        return rasterisation_failed (&trap, error);
      double geotransform[6] = {
        grid->x_min + (double) grid->first_column * grid->dx, grid->dx, 0.0,
        grid->y_max - (double) (grid->first_row + first_row + start) * grid->dy, 0.0, -grid->dy,
      };
      GDALSetGeoTransform (block, geotransform);
      if (GDALRasterizeGeometries (block, 1, bands, (int) part->n_polygons, part->polygons, NULL, NULL, burn_values,
                                   NULL, NULL, NULL)
            != CE_None
          || GDALRasterIO (GDALGetRasterBand (block, 1), GF_Read, 0, 0, (int) grid->width, (int) rows, inside,
                           (int) grid->width, (int) rows, GDT_Byte, 0, 0)
               != CE_None)
        return rasterisation_failed (&trap, error);
      guint8 *keep_block = keep + start * grid->width;
      for (size_t i = 0; i < rows * grid->width; i++)
        keep_block[i] &= inside[i] != 0;
    }
  return TRUE;
}

static gboolean
fill_keep_locked (ShepardGridMask *mask, const shepard_grid *grid, size_t first_row, size_t n_rows, guint8 *keep,
                  GError **error)
{
  memset (keep, 1, n_rows * grid->width);
  for (guint i = 0; i < mask->parts->len; i++)
    {
      const MaskPart *part = g_ptr_array_index (mask->parts, i);
      switch (part->kind)
        {
        case PART_DISTANCE:
          if (!keep_near (part, grid, first_row, n_rows, keep, error))
            return FALSE;
          break;
        case PART_HULL:
          keep_in_hull (part, grid, first_row, n_rows, keep);
          break;
        case PART_CUTLINE:
          if (!keep_in_cutline (part, grid, first_row, n_rows, keep, error))
            return FALSE;
          break;
        }
    }
  return TRUE;
}

gboolean
shepard_grid_mask_fill_keep (ShepardGridMask *mask, const shepard_grid *grid, size_t first_row, size_t n_rows,
                             guint8 *keep, GError **error)
{
  g_return_val_if_fail (mask != NULL && grid != NULL && (keep != NULL || n_rows == 0), FALSE);
  g_return_val_if_fail (first_row <= grid->height && n_rows <= grid->height - first_row, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_mutex_lock (&mask->lock);
  gboolean filled = fill_keep_locked (mask, grid, first_row, n_rows, keep, error);
  g_mutex_unlock (&mask->lock);
  return filled;
}

guint8 *
shepard_grid_mask_keep (ShepardGridMask *mask, const shepard_grid *grid, GError **error)
{
  g_return_val_if_fail (mask != NULL && grid != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autofree guint8 *keep = g_try_malloc_n (MAX (grid->height, 1), MAX (grid->width, 1));
  if (keep == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "Not enough memory for the mask of %zu x %zu cells.", grid->width, grid->height);
      return NULL;
    }
  if (!shepard_grid_mask_fill_keep (mask, grid, 0, grid->height, keep, error))
    return NULL;
  return g_steal_pointer (&keep);
}

gboolean
shepard_grid_mask_apply (ShepardGridMask *mask, const shepard_grid *grid, size_t first_row, size_t n_rows,
                         double *const *planes, size_t n_planes, GError **error)
{
  g_return_val_if_fail (mask != NULL && grid != NULL && (planes != NULL || n_planes == 0), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (mask->parts->len == 0)
    return TRUE;
  size_t n_cells = n_rows * grid->width;
  g_autofree guint8 *keep = g_try_malloc (MAX (n_cells, 1));
  if (keep == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "Not enough memory for the mask of a band of %zu x %zu cells.", grid->width, n_rows);
      return FALSE;
    }
  if (!shepard_grid_mask_fill_keep (mask, grid, first_row, n_rows, keep, error))
    return FALSE;
  for (size_t plane = 0; plane < n_planes; plane++)
    if (planes[plane] != NULL)
      for (size_t i = 0; i < n_cells; i++)
        if (!keep[i])
          planes[plane][i] = NAN;
  return TRUE;
}
