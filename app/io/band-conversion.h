/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* Turns an export's computed bands (float64, NaN where a cell has no data) into a raster's data type on several
 * threads, so that the writer hands GDAL rows of the raster's own type, which it only copies into its blocks, instead
 * of converting them on the one thread that feeds the driver. The threads live as long as the converter: threads
 * started and ended for every band would each take one of glibc's malloc arenas in turn, and the writer thread of the
 * next band another, so that GDAL's freed blocks stayed resident in each of them (about 240 MB more at the peak of a
 * 16384^2 export on a 32-core machine; tests/bench/results/stop36-export-writer-2026-11-28.txt). */
typedef struct _ShepardBandConverter ShepardBandConverter;

/* A converter with as many threads as the cores allow, started by the first band large enough to share (none where no
 * thread can start: it converts on the caller's thread then). */
ShepardBandConverter *shepard_band_converter_new (void);

void shepard_band_converter_free (ShepardBandConverter *converter);

/* NaN becomes nodata in values themselves, then every cell is converted into converted (count cells of type) as GDAL
 * converts what GDALRasterIO is given (GDALCopyWords: rounding and clamping included). Returns when all are. One call
 * at a time. */
void shepard_band_converter_run (ShepardBandConverter *converter, double *values, size_t count, double nodata,
                                 GDALDataType type, void *converted);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardBandConverter, shepard_band_converter_free)

G_END_DECLS
