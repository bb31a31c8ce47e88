/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Point sets for the CLI tests: read from the sample CSV without GDAL, written as GeoPackage layers with GDAL. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct {
  gsize n;
  double *x;
  double *y;
  double *z; /* NaN: a null value */
} CliPoints;

CliPoints *cli_points_new (gsize n);
/* n points, copied from the three arrays. */
CliPoints *cli_points_new_from (const double *x, const double *y, const double *z, gsize n);
void cli_points_free (CliPoints *points);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliPoints, cli_points_free)

/* The bounding box of the points. */
void cli_points_bounds (const CliPoints *points, double *x_min, double *x_max, double *y_min, double *y_max);

/* The largest value less the smallest (null values left out). */
double cli_points_value_range (const CliPoints *points);

/* The columns "x", "y" and value_column of a plain comma-separated file with a header row. */
CliPoints *cli_points_read_csv (const char *path, const char *value_column);

typedef enum {
  CLI_GEOMETRY_POINTS,
  CLI_GEOMETRY_LINES, /* one two-vertex line from each point to the next */
} CliGeometry;

/* Adds a layer in EPSG:28992 with one Real field (NaN values written as null) to a GeoPackage, creating the file
 * when it does not exist yet. */
void cli_points_write_gpkg_layer (const CliPoints *points, const char *path, const char *layer_name,
                                  const char *field_name, CliGeometry geometry);

/* Adds, as cli_points_write_gpkg_layer, the layer "large" of n points drawn from seed: spread evenly over 20 km x
 * 20 km, with values of the field "zinc" from 100 to 2000. */
void cli_points_write_random_gpkg (const char *path, gsize n, guint32 seed);

G_END_DECLS
