/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* Turns count computed cells (float64, NaN where a cell has no data) into a raster's data type: NaN becomes nodata in
 * values themselves, then every cell is converted into converted (count cells of type) as GDAL converts what
 * GDALRasterIO is given (GDALCopyWords: rounding and clamping included), on as many threads as the cells and cores
 * allow. An export's writer then hands GDAL rows of the raster's own type, which it only copies into its blocks,
 * instead of converting them on the one thread that feeds the driver. */
void shepard_band_convert (double *values, size_t count, double nodata, GDALDataType type, void *converted);

G_END_DECLS
