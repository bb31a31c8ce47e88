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
void cli_points_free (CliPoints *points);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliPoints, cli_points_free)

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

G_END_DECLS
