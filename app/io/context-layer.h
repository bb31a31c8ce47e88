/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A backdrop for the map (a river, a boundary): the lines of one OGR line or polygon layer as vertex strips, in the
 * point layer's CRS. It takes no part in the interpolation. */
typedef struct {
  double *x, *y;       /* every vertex, strip after strip */
  size_t *strip_start; /* strip i holds vertices strip_start[i] .. strip_start[i + 1] - 1; n_strips + 1 entries */
  size_t n_strips;
  size_t n_vertices;
  char *source;
  char *layer_name;
  gboolean reprojected; /* its CRS differed from the target's and the vertices were transformed */
} ShepardContextLayer;

/* Reads every line and polygon of a layer of any vector source OGR opens: a LineString is one strip, a Polygon one
 * closed strip per ring, multi-part and collection geometries one strip per part, curves approximated by lines.
 * layer: name, or 0-based index; NULL reads the first layer.
 * target_crs_wkt: the CRS of the map (the point layer's), or NULL to take the coordinates as they are; the vertices
 * are transformed into it when the layer has a CRS of its own that is another one. A layer without a CRS is taken
 * to be in the map's already.
 * Point layers are refused, and so is a layer with no line or polygon at all. */
ShepardContextLayer *shepard_context_layer_read (const char *source, const char *layer, const char *target_crs_wkt,
                                                 GError **error);

void shepard_context_layer_free (ShepardContextLayer *context);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardContextLayer, shepard_context_layer_free)

G_END_DECLS
