/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-export.h"

#include "atomic-raster.h"
#include "grid-extent.h"
#include "shepard-app-error.h"

/* Share of the progress bar taken by computing when the rasters still have to be copied into their format. */
#define COMPUTE_SHARE_BEFORE_COPY 0.9

typedef struct {
  GDALProgressFunc progress;
  void *progress_data;
  double start, span;
} ScaledProgress;

static int CPL_STDCALL
report_scaled_progress (double fraction, const char *message, void *data)
{
  const ScaledProgress *scaled = data;

  return scaled->progress (scaled->start + scaled->span * CLAMP (fraction, 0.0, 1.0), message,
                           scaled->progress_data);
}

static bool
report_engine_progress (double fraction, const char *message, void *data)
{
  return report_scaled_progress (fraction, message, data) != FALSE;
}

static gboolean
report_cancelled (GError **error)
{
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
  return FALSE;
}

typedef struct {
  ShepardAtomicRaster *values;
  ShepardAtomicRaster *alpha; /* NULL when no alpha raster is written */
} ExportRasters;

static void
export_rasters_free (ExportRasters *rasters)
{
  g_clear_pointer (&rasters->values, shepard_atomic_raster_free);
  g_clear_pointer (&rasters->alpha, shepard_atomic_raster_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportRasters, export_rasters_free)

static size_t
rows_per_band (const shepard_grid *grid, size_t band_bytes, size_t outputs)
{
  size_t row_bytes = grid->width * outputs * sizeof (double);
  size_t rows = band_bytes / row_bytes;

  return CLAMP (rows, (size_t) 1, grid->height);
}

static gboolean
compute_and_write (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                   ExportRasters *rasters, size_t band_bytes, const ScaledProgress *compute_progress,
                   GError **error)
{
  size_t band_rows = rows_per_band (grid, band_bytes, rasters->alpha != NULL ? 2 : 1);
  g_autofree double *values = g_try_malloc_n (band_rows * grid->width, sizeof (double));
  g_autofree double *alpha = rasters->alpha != NULL ? g_try_malloc_n (band_rows * grid->width, sizeof (double))
                                                    : NULL;
  if (values == NULL || (rasters->alpha != NULL && alpha == NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "not enough memory for a band of %zu x %zu cells", grid->width, band_rows);
      return FALSE;
    }

  for (size_t first_row = 0; first_row < grid->height; first_row += band_rows)
    {
      size_t rows = MIN (band_rows, grid->height - first_row);
      shepard_grid band = *grid;
      band.y_max = grid->y_max - (double) first_row * grid->dy;
      band.height = rows;
      ScaledProgress band_progress = *compute_progress;
      band_progress.start += compute_progress->span * (double) first_row / (double) grid->height;
      band_progress.span *= (double) rows / (double) grid->height;

      shepard_outputs outputs = { .values = values, .alpha = alpha, .r_obs = NULL };
      shepard_error engine_error = { 0 };
      if (shepard_engine_interpolate_grid (engine, params, &band, &outputs, report_engine_progress, &band_progress,
                                           &engine_error)
          != SHEPARD_OK)
        {
          shepard_app_error_set_from_engine (error, &engine_error);
          return FALSE;
        }
      if (!shepard_atomic_raster_write_rows (rasters->values, first_row, rows, values, error)
          || (alpha != NULL && !shepard_atomic_raster_write_rows (rasters->alpha, first_row, rows, alpha, error)))
        return FALSE;
      if (!report_scaled_progress (1.0, NULL, &band_progress))
        return report_cancelled (error);
    }
  return TRUE;
}

gboolean
shepard_grid_export (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                     const ShepardGridExport *request, GDALProgressFunc progress, void *progress_data,
                     GError **error)
{
  g_return_val_if_fail (engine != NULL && params != NULL && grid != NULL && request != NULL, FALSE);
  g_return_val_if_fail (request->value_path != NULL, FALSE);
  g_return_val_if_fail (request->alpha_path == NULL || params->method == SHEPARD_METHOD_AIDW, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  double geotransform[6];
  shepard_grid_geotransform (grid, geotransform);
  g_auto (ExportRasters) rasters = { 0 };
  rasters.values = shepard_atomic_raster_create (request->value_path, &request->format, grid->width, grid->height,
                                                 geotransform, error);
  if (rasters.values == NULL)
    return FALSE;
  if (request->alpha_path != NULL)
    {
      rasters.alpha = shepard_atomic_raster_create (request->alpha_path, &request->format, grid->width,
                                                    grid->height, geotransform, error);
      if (rasters.alpha == NULL)
        return FALSE;
    }

  gboolean needs_copy = shepard_atomic_raster_needs_copy (rasters.values);
  double compute_share = needs_copy ? COMPUTE_SHARE_BEFORE_COPY : 1.0;
  ScaledProgress compute_progress = {
    .progress = progress != NULL ? progress : GDALDummyProgress,
    .progress_data = progress_data,
    .start = 0.0,
    .span = compute_share,
  };
  if (!compute_and_write (engine, params, grid, &rasters, request->band_bytes > 0 ? request->band_bytes
                                                                                  : SHEPARD_GRID_EXPORT_BAND_BYTES,
                          &compute_progress, error))
    return FALSE;

  ShepardAtomicRaster *outputs[] = { rasters.values, rasters.alpha };
  size_t n_outputs = rasters.alpha != NULL ? 2 : 1;
  for (size_t i = 0; i < n_outputs; i++)
    {
      ScaledProgress finish_progress = compute_progress;
      finish_progress.span = (1.0 - compute_share) / (double) n_outputs;
      finish_progress.start = compute_share + finish_progress.span * (double) i;
      if (!shepard_atomic_raster_finish (outputs[i], report_scaled_progress, &finish_progress, error))
        return FALSE;
    }
  for (size_t i = 0; i < n_outputs; i++)
    if (!shepard_atomic_raster_commit (outputs[i], error))
      return FALSE;
  return TRUE;
}
