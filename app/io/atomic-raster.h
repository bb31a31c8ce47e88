/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "raster-format.h"

G_BEGIN_DECLS

/* A one-band raster written row band by row band into a hidden directory beside its target and moved onto the
 * target only once it is whole: until commit an existing target is never touched, and freeing an uncommitted
 * raster (failure, cancel) removes every file it wrote.
 * Drivers without Create (COG, PNG...) get the rows in a scratch GeoTIFF that finish copies into the format. */
typedef struct _ShepardAtomicRaster ShepardAtomicRaster;

ShepardAtomicRaster *shepard_atomic_raster_create (const char *target_path, const ShepardRasterFormat *format,
                                                   size_t width, size_t height, const double geotransform[6],
                                                   GError **error);

/* values: n_rows * width doubles, row-major; rows count from the top. */
gboolean shepard_atomic_raster_write_rows (ShepardAtomicRaster *raster, size_t first_row, size_t n_rows,
                                           const double *values, GError **error);

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
