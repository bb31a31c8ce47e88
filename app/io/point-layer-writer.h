/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "vector-format.h"

G_BEGIN_DECLS

/* One attribute of every point written, a Real field. */
typedef struct {
  const char *name;
  const double *values; /* one per point; NaN: null */
} ShepardPointField;

/* Writes count points (x[i], y[i]) with the fields as a Point layer to path, in the driver that
 * shepard_vector_format_find_driver finds (driver_name, else the one the file's extension names), with the CRS crs_wkt
 * (any definition OGR reads; NULL: none; a format that keeps a CRS of its own, such as KML's WGS 84, gets the points
 * as GDAL transforms them), as layer_name (NULL: the file's name without its extension). A CSV gets its coordinates
 * as columns X and Y, which the point reader finds by default, and its CRS in a .prj beside it, as GDAL reads it.
 * Every coordinate must be finite.
 * Atomically: everything is written into a hidden temporary directory beside path and moved into place (side-car
 * files first, such as a Shapefile's .shx, .dbf and .prj, then the file itself) only when complete, replacing an
 * existing file and those side-cars of its format (ShepardVectorFormat lists them) that the new one lacks. A failure
 * or cancel leaves nothing, and an existing file is never touched before the new one is whole.
 * Errors are SHEPARD_APP_ERROR_FORMAT, _INVALID_PARAMETER (coordinates, CRS) and _WRITE. */
gboolean shepard_point_layer_write (const char *path, const char *driver_name, const char *layer_name,
                                    const char *crs_wkt, const double *x, const double *y, size_t count,
                                    const ShepardPointField *fields, size_t n_fields, GError **error);

/* The same, with progress: GDAL's contract, may be NULL; returning FALSE cancels (SHEPARD_APP_ERROR_CANCELLED), and
 * then too nothing is left. */
gboolean shepard_point_layer_write_full (const char *path, const char *driver_name, const char *layer_name,
                                         const char *crs_wkt, const double *x, const double *y, size_t count,
                                         const ShepardPointField *fields, size_t n_fields, GDALProgressFunc progress,
                                         void *progress_data, GError **error);

G_END_DECLS
