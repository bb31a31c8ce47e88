/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-export.h"

#include <math.h>

#include "atomic-raster.h"
#include "file-identity.h"
#include "grid-extent.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"

/* Share of the progress bar taken by computing when the rasters still have to be copied into their format. */
#define COMPUTE_SHARE_BEFORE_COPY 0.9

static gboolean
report_cancelled (GError **error)
{
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
  return FALSE;
}

/* The format as every raster is written in it: the driver's default creation options added to the request's, and a
 * nodata value on every band even where the request gives none. */
typedef struct {
  ShepardRasterFormat format;
  char **creation_options;
} WrittenFormat;

static void
written_format_init (WrittenFormat *written, const ShepardRasterFormat *requested)
{
  written->format = *requested;
  written->creation_options = shepard_raster_format_creation_options (requested);
  written->format.creation_options = (const char *const *) written->creation_options;
  if (!requested->has_nodata)
    {
      written->format.has_nodata = TRUE;
      written->format.nodata = shepard_raster_default_nodata (requested->data_type, NAN, NAN);
    }
}

static void
written_format_clear (WrittenFormat *written)
{
  g_clear_pointer (&written->creation_options, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WrittenFormat, written_format_clear)

/* The surfaces of an export, in the order of the bands of the value raster. */
typedef enum {
  PLANE_VALUES,
  PLANE_ALPHA,
  PLANE_R,
  PLANE_R_OBS,
  N_PLANES,
} Plane;

static const struct {
  ShepardGridExportPlanes flag;
  const char *name;
  const char *meaning; /* for a message that refuses it */
} planes[N_PLANES] = {
  [PLANE_VALUES] = { 0, "value", "the interpolated values" },
  [PLANE_ALPHA] = { SHEPARD_GRID_EXPORT_ALPHA, "alpha", "the power used at each cell" },
  [PLANE_R] = { SHEPARD_GRID_EXPORT_R, "R", "AIDW's density ratio r_obs / r_exp" },
  [PLANE_R_OBS] = { SHEPARD_GRID_EXPORT_R_OBS, "r_obs", "AIDW's mean distance to the k nearest data points" },
};

const char *
shepard_grid_export_plane_name (ShepardGridExportPlanes plane)
{
  for (int i = PLANE_ALPHA; i < N_PLANES; i++)
    if (planes[i].flag == plane)
      return planes[i].name;
  g_return_val_if_reached (NULL);
}

/* The raster of its own that the request asks for a plane, or NULL; the value raster for PLANE_VALUES. */
static const char *
plane_path (const ShepardGridExport *request, Plane plane)
{
  const char *paths[N_PLANES] = { request->value_path, request->alpha_path, request->r_path, request->r_obs_path };

  return paths[plane];
}

static gboolean
asks_for (const ShepardGridExport *request, Plane plane)
{
  return (request->extra_bands & planes[plane].flag) != 0 || plane_path (request, plane) != NULL;
}

gboolean
shepard_grid_export_check (const shepard_params *params, const ShepardGridExport *request, GError **error)
{
  g_return_val_if_fail (params != NULL && request != NULL && request->value_path != NULL, FALSE);
  g_return_val_if_fail ((request->extra_bands & ~SHEPARD_GRID_EXPORT_ALL_PLANES) == 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* IDW measures no density around a cell; its alpha is the power p of every cell, which the engine writes. */
  if (params->method != SHEPARD_METHOD_AIDW)
    for (Plane plane = PLANE_R; plane <= PLANE_R_OBS; plane++)
      if (asks_for (request, plane))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "%s (%s) exists only for AIDW: choose the aidw method, or write %s neither as a band nor as "
                       "a raster of its own",
                       planes[plane].name, planes[plane].meaning, planes[plane].name);
          return FALSE;
        }
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    for (Plane other = PLANE_VALUES; other < plane; other++)
      if (plane_path (request, plane) != NULL && plane_path (request, other) != NULL
          && shepard_paths_name_same_file (plane_path (request, plane), plane_path (request, other)))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                       "the %s raster \"%s\" is also the %s raster: give each raster a file of its own",
                       planes[plane].name, plane_path (request, plane), planes[other].name);
          return FALSE;
        }
  size_t value_bands = 1;
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    value_bands += (request->extra_bands & planes[plane].flag) != 0;
  g_auto (WrittenFormat) written = { 0 };
  written_format_init (&written, &request->format);
  return shepard_raster_format_find_driver_for_bands (&written.format, value_bands, error) != NULL;
}

/* One raster to write and the plane each of its bands holds. */
typedef struct {
  ShepardAtomicRaster *raster;
  size_t n_bands;
  Plane bands[N_PLANES];
} ExportRaster;

typedef struct {
  ExportRaster rasters[N_PLANES]; /* the value raster first, then each plane asked for in a raster of its own */
  size_t n_rasters;
  gboolean computed[N_PLANES];    /* the planes written anywhere, and r_obs for R */
} ExportPlan;

static void
export_plan_clear (ExportPlan *plan)
{
  for (size_t i = 0; i < plan->n_rasters; i++)
    g_clear_pointer (&plan->rasters[i].raster, shepard_atomic_raster_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportPlan, export_plan_clear)

static void
plan_export (const ShepardGridExport *request, ExportPlan *plan)
{
  ExportRaster *value_raster = &plan->rasters[plan->n_rasters++];

  value_raster->bands[value_raster->n_bands++] = PLANE_VALUES;
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if ((request->extra_bands & planes[plane].flag) != 0)
      value_raster->bands[value_raster->n_bands++] = plane;
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if (plane_path (request, plane) != NULL)
      {
        ExportRaster *own = &plan->rasters[plan->n_rasters++];
        own->bands[own->n_bands++] = plane;
      }
  for (size_t i = 0; i < plan->n_rasters; i++)
    for (size_t band = 0; band < plan->rasters[i].n_bands; band++)
      plan->computed[plan->rasters[i].bands[band]] = TRUE;
  plan->computed[PLANE_R_OBS] |= plan->computed[PLANE_R];
}

/* Creates every raster of the plan, so that whatever the format refuses is refused before any work. */
static gboolean
create_rasters (const ShepardGridExport *request, const shepard_grid *grid, ExportPlan *plan, GError **error)
{
  double geotransform[6];
  g_auto (WrittenFormat) written = { 0 };

  shepard_grid_geotransform (grid, geotransform);
  written_format_init (&written, &request->format);
  for (size_t i = 0; i < plan->n_rasters; i++)
    {
      ExportRaster *output = &plan->rasters[i];
      const char *descriptions[N_PLANES];
      for (size_t band = 0; band < output->n_bands; band++)
        descriptions[band] = output->bands[band] == PLANE_VALUES && request->value_name != NULL
                               ? request->value_name
                               : planes[output->bands[band]].name;
      /* One band needs no name; left undescribed, it is written as before (no PAM side-car where a format cannot
       * store descriptions). */
      output->raster = shepard_atomic_raster_create_bands (plane_path (request, output->bands[0]), &written.format,
                                                           grid->width, grid->height, output->n_bands,
                                                           output->n_bands > 1 ? descriptions : NULL, geotransform,
                                                           error);
      if (output->raster == NULL)
        return FALSE;
    }
  return TRUE;
}

static size_t
rows_per_band (const shepard_grid *grid, size_t band_bytes, size_t outputs)
{
  size_t row_bytes = grid->width * outputs * sizeof (double);
  size_t rows = band_bytes / row_bytes;

  return CLAMP (rows, (size_t) 1, grid->height);
}

static gboolean
compute_and_write (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                   const ExportPlan *plan, double r_exp, size_t band_bytes,
                   const ShepardScaledProgress *compute_progress, GError **error)
{
  size_t n_computed = 0;
  for (Plane plane = PLANE_VALUES; plane < N_PLANES; plane++)
    n_computed += plan->computed[plane];

  size_t band_rows = rows_per_band (grid, band_bytes, n_computed);
  size_t band_cells = band_rows * grid->width;
  g_autofree double *memory = g_try_malloc_n (band_cells, n_computed * sizeof (double));
  if (memory == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "not enough memory for a band of %zu x %zu cells", grid->width, band_rows);
      return FALSE;
    }
  double *rows_of[N_PLANES] = { NULL };
  double *next = memory;
  for (Plane plane = PLANE_VALUES; plane < N_PLANES; plane++)
    if (plan->computed[plane])
      {
        rows_of[plane] = next;
        next += band_cells;
      }

  for (size_t first_row = 0; first_row < grid->height; first_row += band_rows)
    {
      size_t rows = MIN (band_rows, grid->height - first_row);
      shepard_grid band = *grid;
      band.y_max = grid->y_max - (double) first_row * grid->dy;
      band.height = rows;
      ShepardScaledProgress band_progress = *compute_progress;
      band_progress.start += compute_progress->span * (double) first_row / (double) grid->height;
      band_progress.span *= (double) rows / (double) grid->height;

      shepard_outputs outputs = {
        .values = rows_of[PLANE_VALUES],
        .alpha = rows_of[PLANE_ALPHA],
        .r_obs = rows_of[PLANE_R_OBS],
      };
      shepard_error engine_error = { 0 };
      if (shepard_engine_interpolate_grid (engine, params, &band, &outputs, shepard_scaled_progress_report_engine,
                                           &band_progress, &engine_error)
          != SHEPARD_OK)
        {
          shepard_app_error_set_from_engine (error, &engine_error);
          return FALSE;
        }
      if (rows_of[PLANE_R] != NULL)
        for (size_t i = 0; i < rows * grid->width; i++)
          rows_of[PLANE_R][i] = rows_of[PLANE_R_OBS][i] / r_exp;
      for (size_t i = 0; i < plan->n_rasters; i++)
        for (size_t b = 0; b < plan->rasters[i].n_bands; b++)
          if (!shepard_atomic_raster_write_band_rows (plan->rasters[i].raster, b + 1, first_row, rows,
                                                      rows_of[plan->rasters[i].bands[b]], error))
            return FALSE;
      if (!shepard_scaled_progress_report (1.0, NULL, &band_progress))
        return report_cancelled (error);
    }
  return TRUE;
}

/* A commit that failed after the first: the rasters before it are already in place, which the user must know. */
static void
prefix_rasters_in_place (const ShepardGridExport *request, const ExportPlan *plan, size_t committed, GError **error)
{
  g_autoptr (GString) in_place = g_string_new (NULL);

  for (size_t i = 0; i < committed; i++)
    {
      Plane plane = plan->rasters[i].bands[0];
      g_string_append_printf (in_place, "%sthe %s raster \"%s\"", i > 0 ? ", " : "", planes[plane].name,
                              plane_path (request, plane));
    }
  g_prefix_error (error, "%s replaced, the other rasters not written: ", in_place->str);
}

gboolean
shepard_grid_export (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                     const ShepardGridExport *request, GDALProgressFunc progress, void *progress_data,
                     GError **error)
{
  g_return_val_if_fail (engine != NULL && params != NULL && grid != NULL && request != NULL, FALSE);
  g_return_val_if_fail (request->value_path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!shepard_grid_export_check (params, request, error))
    return FALSE;
  g_auto (ExportPlan) plan = { 0 };
  plan_export (request, &plan);
  double r_exp = NAN;
  shepard_error engine_error = { 0 };
  if (plan.computed[PLANE_R] && shepard_engine_expected_distance (engine, params, &r_exp, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  if (!create_rasters (request, grid, &plan, error))
    return FALSE;

  /* Every raster has the format, so either all of them are copied into it when finished or none is. */
  gboolean needs_copy = shepard_atomic_raster_needs_copy (plan.rasters[0].raster);
  double compute_share = needs_copy ? COMPUTE_SHARE_BEFORE_COPY : 1.0;
  ShepardScaledProgress compute_progress = {
    .progress = progress != NULL ? progress : GDALDummyProgress,
    .progress_data = progress_data,
    .start = 0.0,
    .span = compute_share,
  };
  if (!compute_and_write (engine, params, grid, &plan, r_exp,
                          request->band_bytes > 0 ? request->band_bytes : SHEPARD_GRID_EXPORT_BAND_BYTES,
                          &compute_progress, error))
    return FALSE;

  /* Copying takes about as long per band: share the rest of the bar by bands. */
  size_t n_bands = 0, bands_before = 0;
  for (size_t i = 0; i < plan.n_rasters; i++)
    n_bands += plan.rasters[i].n_bands;
  for (size_t i = 0; i < plan.n_rasters; i++)
    {
      ShepardScaledProgress finish_progress = compute_progress;
      finish_progress.start = compute_share + (1.0 - compute_share) * (double) bands_before / (double) n_bands;
      finish_progress.span = (1.0 - compute_share) * (double) plan.rasters[i].n_bands / (double) n_bands;
      bands_before += plan.rasters[i].n_bands;
      if (!shepard_atomic_raster_finish (plan.rasters[i].raster, shepard_scaled_progress_report, &finish_progress,
                                         error))
        return FALSE;
    }
  for (size_t i = 0; i < plan.n_rasters; i++)
    if (!shepard_atomic_raster_commit (plan.rasters[i].raster, error))
      {
        if (i > 0)
          prefix_rasters_in_place (request, &plan, i, error);
        return FALSE;
      }
  return TRUE;
}
