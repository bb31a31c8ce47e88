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
  gboolean has_nodata;
  double nodata;
  const char *const *creation_options; /* NAME=VALUE, NULL-terminated; may be NULL */
} ShepardRasterFormat;

#define SHEPARD_RASTER_DEFAULT_DRIVER "GTiff"

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
