/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A layer's CRS as a person reads coordinates in it: its name, its linear unit, and the way to latitude and longitude
 * on WGS 84 (EPSG:4326) through OGR, longitude as x and latitude as y whatever the CRS's axis order says. */
typedef struct _ShepardCoordinateTransform ShepardCoordinateTransform;

/* crs_wkt: any definition OSRSetFromUserInput takes (WKT, "EPSG:28992", PROJ strings). Fails with
 * SHEPARD_APP_ERROR_INVALID_PARAMETER when the CRS cannot be read or has no way to WGS 84. */
ShepardCoordinateTransform *shepard_coordinate_transform_new (const char *crs_wkt, GError **error);
void shepard_coordinate_transform_free (ShepardCoordinateTransform *transform);

/* "EPSG:28992" when the CRS has an authority code, else its name ("Amersfoort / RD New"). */
const char *shepard_coordinate_transform_get_crs_name (const ShepardCoordinateTransform *transform);
/* Whether coordinates are angles (a geographic CRS), in which case they are degrees and there is no linear unit. */
gboolean shepard_coordinate_transform_is_geographic (const ShepardCoordinateTransform *transform);
/* How many metres a map unit is (1 for metres, 0.3048 for feet); 0 for a geographic CRS. */
double shepard_coordinate_transform_get_metres_per_unit (const ShepardCoordinateTransform *transform);

/* Map (x, y) in the layer's CRS to WGS 84 latitude and longitude in degrees; FALSE where the transformation has no
 * answer (outside the projection's domain). */
gboolean shepard_coordinate_transform_to_lat_lon (const ShepardCoordinateTransform *transform, double x, double y,
                                                  double *latitude, double *longitude);

/* "50.97°N 5.74°E", with the given decimals. */
char *shepard_coordinate_transform_format_lat_lon (double latitude, double longitude, int decimals);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardCoordinateTransform, shepard_coordinate_transform_free)

G_END_DECLS
