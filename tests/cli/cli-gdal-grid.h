/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdal_grid on the meuse zinc sample: the implementation the tool's surfaces are compared with, cell by cell. */
#pragma once

#include <glib.h>

#include "cli-raster.h"

G_BEGIN_DECLS

/* gdal_grid's path, or NULL after marking the test skipped when it is not installed. */
char *cli_gdal_grid_find_or_skip (void);

/* Runs gdal_grid with this -a method and grid arguments (NULL-terminated: -txe, -tye, -outsize…) on the meuse zinc
 * points, as Float64 on its exact path (no AVX or SSE approximate reciprocals), in directory, and reads its raster. */
CliRaster *cli_gdal_grid_meuse (const char *gdal_grid, const char *directory, const char *method,
                                const char *const *grid_args);

G_END_DECLS
