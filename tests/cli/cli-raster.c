/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-raster.h"

#include <cpl_conv.h>
#include <math.h>
#include <ogr_srs_api.h>

CliRaster *
cli_raster_read (const char *path)
{
  GDALAllRegister ();

  GDALDatasetH dataset = GDALOpenEx (path, GDAL_OF_RASTER | GDAL_OF_READONLY, NULL, NULL, NULL);
  if (dataset == NULL)
    g_test_message ("GDAL cannot open %s as a raster", path);
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, 1);

  CliRaster *raster = g_new0 (CliRaster, 1);
  raster->driver = g_strdup (GDALGetDriverShortName (GDALGetDatasetDriver (dataset)));
  raster->width = GDALGetRasterXSize (dataset);
  raster->height = GDALGetRasterYSize (dataset);
  g_assert_cmpint (GDALGetGeoTransform (dataset, raster->geotransform), ==, CE_None);
  raster->compression = g_strdup (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"));

  OGRSpatialReferenceH srs = GDALGetSpatialRef (dataset);
  if (srs != NULL)
    {
      raster->authority_name = g_strdup (OSRGetAuthorityName (srs, NULL));
      raster->authority_code = g_strdup (OSRGetAuthorityCode (srs, NULL));
      const char *const wkt_options[] = { "FORMAT=WKT2", NULL };
      char *wkt = NULL;
      if (OSRExportToWktEx (srs, &wkt, wkt_options) == OGRERR_NONE)
        raster->srs_wkt = g_strdup (wkt);
      CPLFree (wkt);
    }

  GDALRasterBandH band = GDALGetRasterBand (dataset, 1);
  int has_nodata = FALSE;
  raster->data_type = GDALGetRasterDataType (band);
  raster->nodata = GDALGetRasterNoDataValue (band, &has_nodata);
  raster->has_nodata = has_nodata;

  raster->values = g_new (double, (gsize) raster->width * raster->height);
  g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, raster->width, raster->height, raster->values, raster->width,
                                 raster->height, GDT_Float64, 0, 0),
                   ==, CE_None);
  GDALClose (dataset);
  return raster;
}

void
cli_raster_free (CliRaster *raster)
{
  g_free (raster->driver);
  g_free (raster->authority_name);
  g_free (raster->authority_code);
  g_free (raster->srs_wkt);
  g_free (raster->compression);
  g_free (raster->values);
  g_free (raster);
}

double
cli_raster_value (const CliRaster *raster, int row, int column)
{
  g_assert_true (row >= 0 && row < raster->height && column >= 0 && column < raster->width);
  return raster->values[(gsize) row * raster->width + column];
}

void
cli_raster_cell_centre (const CliRaster *raster, int row, int column, double *x, double *y)
{
  const double *gt = raster->geotransform;

  *x = gt[0] + (column + 0.5) * gt[1] + (row + 0.5) * gt[2];
  *y = gt[3] + (column + 0.5) * gt[4] + (row + 0.5) * gt[5];
}

static void
assert_geotransform_term (double actual, double expected)
{
  g_assert_cmpfloat_with_epsilon (actual, expected, 1e-9 * fmax (1.0, fabs (expected)));
}

void
cli_raster_assert_grid (const CliRaster *raster, double x_min, double x_max, double y_min, double y_max,
                        int width, int height)
{
  const double *gt = raster->geotransform;

  g_assert_cmpint (raster->width, ==, width);
  g_assert_cmpint (raster->height, ==, height);
  assert_geotransform_term (gt[0], x_min);
  assert_geotransform_term (gt[1], (x_max - x_min) / width);
  g_assert_cmpfloat (gt[2], ==, 0.0);
  assert_geotransform_term (gt[3], y_max);
  g_assert_cmpfloat (gt[4], ==, 0.0);
  assert_geotransform_term (gt[5], -(y_max - y_min) / height);
}

gboolean
cli_raster_cell_at (const CliRaster *raster, double x, double y, int *row, int *column)
{
  const double *gt = raster->geotransform;
  double column_position = (x - gt[0]) / gt[1] - 0.5;
  double row_position = (y - gt[3]) / gt[5] - 0.5;

  *column = (int) lround (column_position);
  *row = (int) lround (row_position);
  return fabs (column_position - *column) < 1e-6 && fabs (row_position - *row) < 1e-6 && *column >= 0
         && *column < raster->width && *row >= 0 && *row < raster->height;
}
