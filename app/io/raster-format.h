/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* How an interpolated raster is stored. */
typedef struct {
  const char *driver_name;             /* GDAL short name; NULL: GTiff */
  GDALDataType data_type;              /* GDT_Float32 or GDT_Float64 */
  const char *crs_wkt;                 /* NULL: no CRS */
  gboolean has_nodata;                 /* FALSE: grid-export writes shepard_raster_default_nodata's -9999 */
  double nodata;
  const char *const *creation_options; /* NAME=VALUE, NULL-terminated; may be NULL */
  const char *const *metadata;         /* NAME=VALUE dataset metadata (default domain); may be NULL */
} ShepardRasterFormat;

#define SHEPARD_RASTER_DEFAULT_DRIVER "GTiff"

/* The nodata value where the user gives none: -9999, unless interpolated values can reach it (they lie within the
 * data's values [value_min, value_max]; NaN bounds: unknown, taken as not reaching it), then the lowest finite value
 * of data_type, which no interpolation of finite data below it can produce. */
double shepard_raster_default_nodata (GDALDataType data_type, double value_min, double value_max);

/* The creation options a raster is written with: the format's own, then the driver's defaults for each key not
 * given: GTiff TILED=YES, COMPRESS=DEFLATE and, when COMPRESS is not given, PREDICTOR=3 (floating point); COG
 * COMPRESS=DEFLATE and, when COMPRESS is not given, PREDICTOR=YES. Free with g_strfreev. */
char **shepard_raster_format_creation_options (const ShepardRasterFormat *format);

/* Splits "NAME=VALUE NAME=VALUE" (as a dialog's entry holds them, separated by spaces) into a list; each word must
 * have a name and '=' (SHEPARD_APP_ERROR_FORMAT otherwise). An empty text gives an empty list. g_strfreev. */
char **shepard_raster_creation_options_parse (const char *text, GError **error);

/* The format's driver, once it is known to write this raster: it exists, writes rasters (with Create, or with
 * CreateCopy from a temporary GeoTIFF), can store the data type and knows every creation option.
 * Fails with SHEPARD_APP_ERROR_FORMAT saying which of these is wrong. */
GDALDriverH shepard_raster_format_find_driver (const ShepardRasterFormat *format, GError **error);

/* TRUE when the driver writes band by band itself; FALSE when it only copies a whole dataset (COG, PNG...). */
gboolean shepard_raster_driver_can_create (GDALDriverH driver);

/* The format's driver, once it is also known to hold n_bands bands of the format's data type: beyond
 * shepard_raster_format_find_driver, a raster of several bands is first written as one cell in memory (/vsimem/),
 * so that a format of one band (AAIGrid...) is refused before any work. That probe runs once per process for each
 * driver, data type, band count and set of creation options; later calls reuse its answer. Drivers that cannot write
 * to memory are not tried: they fail, if they do, when the raster is written. Fails with SHEPARD_APP_ERROR_FORMAT. */
GDALDriverH shepard_raster_format_find_driver_for_bands (const ShepardRasterFormat *format, size_t n_bands,
                                                         GError **error);

G_END_DECLS
