/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "atomic-raster.h"

#include <errno.h>
#include <string.h>
#include <glib/gstdio.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"
#include "staging-directory.h"
#include "watched-progress.h"

#define SCRATCH_SUFFIX ".scratch.tif"

struct _ShepardAtomicRaster {
  char *target_path;
  ShepardStagingDirectory *staging; /* everything written lives here until commit */
  const char *work_path;            /* where the staging directory wants the raster */
  char *scratch_path;               /* the GeoTIFF the rows go to when the driver cannot Create; NULL otherwise */
  GDALDriverH driver;
  char **creation_options;
  GDALDatasetH dataset; /* open while rows are written */
  size_t n_bands;
  gboolean finished;
};

static void
set_gdal_error (GError **error, ShepardAppError code, const ShepardGdalErrorTrap *trap, const char *what,
                const char *path)
{
  g_set_error (error, SHEPARD_APP_ERROR, code, "%s \"%s\" failed: %s", what, path,
               shepard_gdal_error_trap_reason (trap, "GDAL gave no reason"));
}

static GDALDatasetH
create_dataset (ShepardAtomicRaster *raster, const ShepardRasterFormat *format, size_t width, size_t height,
                size_t n_bands, const ShepardGdalErrorTrap *trap, GError **error)
{
  GDALDriverH driver = raster->driver;
  const char *path = raster->work_path;
  g_auto (ShepardCslList) options = CSLDuplicate ((CSLConstList) format->creation_options);

  if (!shepard_raster_driver_can_create (driver))
    {
      driver = GDALGetDriverByName ("GTiff");
      raster->scratch_path = g_strconcat (raster->work_path, SCRATCH_SUFFIX, NULL);
      path = raster->scratch_path;
      g_clear_pointer (&options, CSLDestroy);
      options = CSLSetNameValue (options, "BIGTIFF", "IF_NEEDED");
    }
  GDALDatasetH dataset = GDALCreate (driver, path, (int) width, (int) height, (int) n_bands, format->data_type,
                                     options);
  if (dataset == NULL)
    set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "creating the raster", raster->target_path);
  return dataset;
}

static gboolean
describe_dataset (GDALDatasetH dataset, const ShepardRasterFormat *format, const double geotransform[6],
                  const char *const *band_descriptions, const char *target_path, const ShepardGdalErrorTrap *trap,
                  GError **error)
{
  double transform[6];

  memcpy (transform, geotransform, sizeof transform);
  if (GDALSetGeoTransform (dataset, transform) != CE_None)
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "storing the georeferencing of", target_path);
      return FALSE;
    }
  if (format->crs_wkt != NULL && GDALSetProjection (dataset, format->crs_wkt) != CE_None)
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "storing the CRS of", target_path);
      return FALSE;
    }
  if (format->metadata != NULL && GDALSetMetadata (dataset, (CSLConstList) format->metadata, NULL) != CE_None)
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "storing the metadata of", target_path);
      return FALSE;
    }
  for (int i = 0; i < GDALGetRasterCount (dataset); i++)
    {
      GDALRasterBandH band = GDALGetRasterBand (dataset, i + 1);
      if (format->has_nodata && GDALSetRasterNoDataValue (band, format->nodata) != CE_None)
        {
          set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "storing the nodata value of", target_path);
          return FALSE;
        }
      if (band_descriptions != NULL && band_descriptions[i] != NULL)
        GDALSetDescription (band, band_descriptions[i]);
    }
  return TRUE;
}

ShepardAtomicRaster *
shepard_atomic_raster_create (const char *target_path, const ShepardRasterFormat *format, size_t width,
                              size_t height, const double geotransform[6], GError **error)
{
  return shepard_atomic_raster_create_bands (target_path, format, width, height, 1, NULL, geotransform, error);
}

ShepardAtomicRaster *
shepard_atomic_raster_create_bands (const char *target_path, const ShepardRasterFormat *format, size_t width,
                                    size_t height, size_t n_bands, const char *const *band_descriptions,
                                    const double geotransform[6], GError **error)
{
  g_return_val_if_fail (target_path != NULL && format != NULL && geotransform != NULL, NULL);
  g_return_val_if_fail (n_bands >= 1, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (width < 1 || height < 1 || width > (size_t) G_MAXINT || height > (size_t) G_MAXINT)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "a raster of %zu x %zu cells cannot be written: GDAL takes 1 to %d cells a side", width, height,
                   G_MAXINT);
      return NULL;
    }
  if (g_file_test (target_path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "\"%s\" is a directory: give the file name of the raster to write", target_path);
      return NULL;
    }
  GDALDriverH driver = shepard_raster_format_find_driver_for_bands (format, n_bands, error);
  if (driver == NULL)
    return NULL;

  g_autoptr (ShepardAtomicRaster) raster = g_new0 (ShepardAtomicRaster, 1);
  raster->target_path = g_strdup (target_path);
  raster->driver = driver;
  raster->creation_options = CSLDuplicate ((CSLConstList) format->creation_options);
  raster->staging = shepard_staging_directory_new (target_path, "the raster", error);
  if (raster->staging == NULL)
    return NULL;
  raster->work_path = shepard_staging_directory_get_path (raster->staging);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  raster->dataset = create_dataset (raster, format, width, height, n_bands, &trap, error);
  if (raster->dataset == NULL
      || !describe_dataset (raster->dataset, format, geotransform, band_descriptions, target_path, &trap, error))
    return NULL;
  raster->n_bands = n_bands;
  return g_steal_pointer (&raster);
}

size_t
shepard_atomic_raster_get_n_bands (const ShepardAtomicRaster *raster)
{
  g_return_val_if_fail (raster != NULL, 0);

  return raster->n_bands;
}

gboolean
shepard_atomic_raster_write_rows (ShepardAtomicRaster *raster, size_t first_row, size_t n_rows,
                                  const double *values, GError **error)
{
  return shepard_atomic_raster_write_band_rows (raster, 1, first_row, n_rows, values, error);
}

static gboolean
write_band_rows_as (ShepardAtomicRaster *raster, size_t band, size_t first_row, size_t n_rows, const void *rows,
                    GDALDataType type, GError **error)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL && rows != NULL, FALSE);
  g_return_val_if_fail (band >= 1 && band <= raster->n_bands, FALSE);

  int width = GDALGetRasterXSize (raster->dataset);
  g_return_val_if_fail (first_row + n_rows <= (size_t) GDALGetRasterYSize (raster->dataset), FALSE);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  CPLErr result = GDALRasterIO (GDALGetRasterBand (raster->dataset, (int) band), GF_Write, 0, (int) first_row,
                                width, (int) n_rows, (void *) rows, width, (int) n_rows, type, 0, 0);
  if (result != CE_None)
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, &trap, "writing the raster", raster->target_path);
      return FALSE;
    }
  return TRUE;
}

gboolean
shepard_atomic_raster_write_band_rows (ShepardAtomicRaster *raster, size_t band, size_t first_row, size_t n_rows,
                                       const double *values, GError **error)
{
  return write_band_rows_as (raster, band, first_row, n_rows, values, GDT_Float64, error);
}

gboolean
shepard_atomic_raster_write_band_rows_converted (ShepardAtomicRaster *raster, size_t band, size_t first_row,
                                                 size_t n_rows, const void *rows, GError **error)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL, FALSE);

  return write_band_rows_as (raster, band, first_row, n_rows, rows, shepard_atomic_raster_get_data_type (raster),
                             error);
}

GDALDataType
shepard_atomic_raster_get_data_type (const ShepardAtomicRaster *raster)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL, GDT_Unknown);

  return GDALGetRasterDataType (GDALGetRasterBand (raster->dataset, 1));
}

size_t
shepard_atomic_raster_get_block_height (const ShepardAtomicRaster *raster)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL, 1);

  int block_width = 0, block_height = 0;
  GDALGetBlockSize (GDALGetRasterBand (raster->dataset, 1), &block_width, &block_height);
  return block_height > 0 ? (size_t) block_height : 1;
}

gboolean
shepard_atomic_raster_rows_written (ShepardAtomicRaster *raster, size_t rows_written, GError **error)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL, FALSE);

  if (rows_written % shepard_atomic_raster_get_block_height (raster) != 0
      && rows_written != (size_t) GDALGetRasterYSize (raster->dataset))
    return TRUE;
  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  GDALFlushCache (raster->dataset);
  if (shepard_gdal_error_trap_has_failure (&trap))
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, &trap, "writing the raster", raster->target_path);
      return FALSE;
    }
  return TRUE;
}

gboolean
shepard_atomic_raster_needs_copy (const ShepardAtomicRaster *raster)
{
  g_return_val_if_fail (raster != NULL, FALSE);

  return raster->scratch_path != NULL;
}

/* GDALClose reports write failures (disk full...) only through CPLError. */
static gboolean
close_dataset (GDALDatasetH dataset, const char *target_path, ShepardGdalErrorTrap *trap, GError **error)
{
  shepard_gdal_error_trap_clear (trap);
  GDALClose (dataset);
  if (shepard_gdal_error_trap_has_failure (trap))
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "writing the raster", target_path);
      return FALSE;
    }
  return TRUE;
}

static gboolean
copy_scratch_into_format (ShepardAtomicRaster *raster, GDALProgressFunc progress, void *progress_data,
                          ShepardGdalErrorTrap *trap, GError **error)
{
  g_auto (GDALDatasetH) scratch = GDALOpen (raster->scratch_path, GA_ReadOnly);
  if (scratch == NULL)
    {
      set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "reading back the temporary copy of",
                      raster->target_path);
      return FALSE;
    }
  ShepardWatchedProgress watched = { .progress = progress, .progress_data = progress_data };
  shepard_gdal_error_trap_clear (trap);
  GDALDatasetH copy = GDALCreateCopy (raster->driver, raster->work_path, scratch, TRUE, raster->creation_options,
                                      shepard_watched_progress, &watched);
  if (copy == NULL)
    {
      if (watched.refused)
        g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
      else
        set_gdal_error (error, SHEPARD_APP_ERROR_WRITE, trap, "writing the raster", raster->target_path);
      return FALSE;
    }
  if (!close_dataset (copy, raster->target_path, trap, error))
    return FALSE;
  g_clear_pointer (&scratch, GDALClose);
  if (g_unlink (raster->scratch_path) != 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot remove the temporary file \"%s\": %s",
                   raster->scratch_path, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

gboolean
shepard_atomic_raster_finish (ShepardAtomicRaster *raster, GDALProgressFunc progress, void *progress_data,
                              GError **error)
{
  g_return_val_if_fail (raster != NULL && raster->dataset != NULL && !raster->finished, FALSE);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  GDALDatasetH dataset = g_steal_pointer (&raster->dataset);
  if (!close_dataset (dataset, raster->target_path, &trap, error))
    return FALSE;
  if (raster->scratch_path != NULL
      && !copy_scratch_into_format (raster, progress != NULL ? progress : GDALDummyProgress, progress_data, &trap,
                                    error))
    return FALSE;
  raster->finished = TRUE;
  return TRUE;
}

gboolean
shepard_atomic_raster_commit (ShepardAtomicRaster *raster, GError **error)
{
  g_return_val_if_fail (raster != NULL && raster->finished, FALSE);

  /* An old raster's statistics in a PAM side-car would otherwise describe the new raster. */
  g_autofree char *target_name = g_path_get_basename (raster->target_path);
  g_autofree char *aux_name = g_strconcat (target_name, ".aux.xml", NULL);
  const char *const stale_side_cars[] = { aux_name, NULL };

  return shepard_staging_directory_commit (raster->staging, stale_side_cars, error);
}

void
shepard_atomic_raster_free (ShepardAtomicRaster *raster)
{
  if (raster == NULL)
    return;

  if (raster->dataset != NULL)
    {
      g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
      shepard_gdal_error_trap_push (&trap);
      GDALClose (raster->dataset);
    }
  g_clear_pointer (&raster->staging, shepard_staging_directory_free);
  CSLDestroy (raster->creation_options);
  g_free (raster->target_path);
  g_free (raster->scratch_path);
  g_free (raster);
}
