/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdal_grid and ogr2ogr (GDAL's command-line tools), run as child processes: the benchmark's yardstick. */
#ifndef SHEPARD_BENCH_GDAL_H
#define SHEPARD_BENCH_GDAL_H

#include "shepard-engine.h"

#include <stdbool.h>

/* Whether gdal_grid and ogr2ogr can be run. */
bool bench_gdal_available (void);

/* gdal_grid 3.6 cannot take CSV open options and grids a CSV it cannot read as zeros: it gets a GeoPackage with the
 * points in layer "points" and the value in field "z". */
bool bench_gdal_make_geopackage (const char *csv_path, const char *geopackage_path);

/* Runs gdal_grid -a algorithm over grid with GDAL_NUM_THREADS=threads (and GDAL_USE_AVX=NO GDAL_USE_SSE=NO when
 * exact_path) into output_path (ENVI Float64). Returns the wall-clock seconds, start-up, reading and writing
 * included, or a negative number when it failed. values, when not NULL, receives the grid, row 0 at the top. */
double bench_gdal_grid (const char *geopackage_path, const char *algorithm, bool exact_path, int threads,
                        const shepard_grid *grid, const char *output_path, double *values);

#endif /* SHEPARD_BENCH_GDAL_H */
