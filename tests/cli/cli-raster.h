/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A single-band raster written by shepard-grid (or gdal_grid), read whole through the GDAL C API. */
#pragma once

#include <glib.h>
#include <gdal.h>

G_BEGIN_DECLS

typedef struct {
  char *driver;
  int width;
  int height;
  double geotransform[6];
  GDALDataType data_type;
  gboolean has_nodata;
  double nodata;
  char *authority_name; /* of the CRS, NULL when there is no CRS or it has no authority */
  char *authority_code;
  char *srs_wkt;        /* WKT2 of the CRS, NULL when there is none */
  char *compression;    /* IMAGE_STRUCTURE COMPRESSION, NULL when uncompressed */
  double *values;       /* row-major, row 0 first */
} CliRaster;

/* Fails the test when the file cannot be opened as a raster. */
CliRaster *cli_raster_read (const char *path);
void cli_raster_free (CliRaster *raster);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliRaster, cli_raster_free)

double cli_raster_value (const CliRaster *raster, int row, int column);
void cli_raster_cell_centre (const CliRaster *raster, int row, int column, double *x, double *y);

/* Asserts a north-up geotransform of this extent and size. */
void cli_raster_assert_grid (const CliRaster *raster, double x_min, double x_max, double y_min, double y_max,
                             int width, int height);

/* The cell of another raster whose centre is this point, or FALSE when none is (within 1e-6 of a cell). */
gboolean cli_raster_cell_at (const CliRaster *raster, double x, double y, int *row, int *column);

G_END_DECLS
