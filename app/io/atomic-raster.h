/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "raster-format.h"

G_BEGIN_DECLS

/* A raster written row band by row band into a hidden directory beside its target and moved onto the target only
 * once it is whole: until commit an existing target is never touched, and freeing an uncommitted raster (failure,
 * cancel) removes every file it wrote.
 * Drivers without Create (COG, PNG...) get the rows in a scratch GeoTIFF that finish copies into the format. */
typedef struct _ShepardAtomicRaster ShepardAtomicRaster;

/* A raster of one band, without a description. */
ShepardAtomicRaster *shepard_atomic_raster_create (const char *target_path, const ShepardRasterFormat *format,
                                                   size_t width, size_t height, const double geotransform[6],
                                                   GError **error);

/* A raster of n_bands (>= 1) bands of the format's data type, each with the format's nodata value.
 * band_descriptions: NULL, or n_bands descriptions of the bands in order (GDALSetDescription; a NULL entry leaves
 * its band undescribed). A format that cannot hold that many bands is refused here, before anything is written. */
ShepardAtomicRaster *shepard_atomic_raster_create_bands (const char *target_path, const ShepardRasterFormat *format,
                                                         size_t width, size_t height, size_t n_bands,
                                                         const char *const *band_descriptions,
                                                         const double geotransform[6], GError **error);

size_t shepard_atomic_raster_get_n_bands (const ShepardAtomicRaster *raster);

/* values: n_rows * width doubles, row-major; rows count from the top. Writes band 1. */
gboolean shepard_atomic_raster_write_rows (ShepardAtomicRaster *raster, size_t first_row, size_t n_rows,
                                           const double *values, GError **error);

/* The same for band (1 to n_bands, as GDAL counts them). Writing every band of a row band before the next row band
 * keeps the blocks of a pixel-interleaved file in GDAL's cache until they are whole. */
gboolean shepard_atomic_raster_write_band_rows (ShepardAtomicRaster *raster, size_t band, size_t first_row,
                                                size_t n_rows, const double *values, GError **error);

/* The same with rows already in the raster's data type (shepard_atomic_raster_get_data_type), which GDAL copies into
 * its blocks as they are. */
gboolean shepard_atomic_raster_write_band_rows_converted (ShepardAtomicRaster *raster, size_t band, size_t first_row,
                                                          size_t n_rows, const void *rows, GError **error);

/* The data type of every band. */
GDALDataType shepard_atomic_raster_get_data_type (const ShepardAtomicRaster *raster);

/* The rows of a block: a band of rows that is a multiple of it fills whole blocks. */
size_t shepard_atomic_raster_get_block_height (const ShepardAtomicRaster *raster);

/* Says that every band of rows 0 to rows_written - 1 is written. When they end a row of blocks (or the raster), GDAL's
 * cached blocks go to the driver now, which compresses them (on its threads with NUM_THREADS) while the caller
 * computes the next rows, instead of all of them at finish. A block flushed before it is whole would be written
 * twice, so other counts do nothing. */
gboolean shepard_atomic_raster_rows_written (ShepardAtomicRaster *raster, size_t rows_written, GError **error);

/* TRUE when finish copies the whole raster into the target format (the slow part of finishing). */
gboolean shepard_atomic_raster_needs_copy (const ShepardAtomicRaster *raster);

/* Closes the raster (and copies it into the target format when needed): the file is whole but not yet in place.
 * progress follows GDAL's contract and may be NULL; returning FALSE cancels (SHEPARD_APP_ERROR_CANCELLED). */
gboolean shepard_atomic_raster_finish (ShepardAtomicRaster *raster, GDALProgressFunc progress, void *progress_data,
                                       GError **error);

/* Moves the finished raster (and its side-car files) onto the target, replacing an existing one and its stale
 * side-car files. */
gboolean shepard_atomic_raster_commit (ShepardAtomicRaster *raster, GError **error);

/* Removes everything written unless committed. */
void shepard_atomic_raster_free (ShepardAtomicRaster *raster);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardAtomicRaster, shepard_atomic_raster_free)

G_END_DECLS
