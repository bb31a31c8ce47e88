/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Reads a cutline: every polygon of a layer of a vector source OGR opens (layer: name or 0-based index, NULL the
 * first), curves made lines, placed in the CRS of target_crs_wkt (NULL: as they are) when theirs differs. A GPtrArray
 * of OGRGeometryH that destroys them, and the layer's name in layer_name; NULL with an error that tells the user what
 * to give (SHEPARD_APP_ERROR_OPEN, _NO_LAYER, _GEOMETRY) for a source that does not open, a layer that is not there,
 * a geometry that is not a polygon, a layer without polygons, or a polygon that cannot be reprojected. */
GPtrArray *shepard_cutline_polygons_read (const char *source, const char *layer, const char *target_crs_wkt,
                                          char **layer_name, GError **error);

G_END_DECLS
