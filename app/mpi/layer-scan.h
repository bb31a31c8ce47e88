/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* What an engine holding part of a layer must know of the whole (shepard_layer_extent), for one value field: its
 * usable points' number, bounding box, value range and the vertices of their convex hull. */
typedef struct {
  size_t n;
  double x_min, y_min, x_max, y_max;
  double z_min, z_max;
  GArray *hull_x, *hull_y; /* doubles: the convex hull's vertices, counter-clockwise */
} ShepardFieldExtent;

/* The whole layer as local methods see it, found without holding every point at once. */
typedef struct {
  size_t n_fields;
  ShepardFieldExtent *fields;
  gboolean *same;   /* same[f * n_fields + g], g < f: fields f and g have values in the same rows of every strip read */
  guint *leader_of; /* per field: the first field whose points are the same points (itself when none before is) */
  char *crs_wkt;    /* NULL: the layer has none */
  char *layer_name;
  GStrv field_names; /* as the layer spells them */
} ShepardLayerScan;

/* Where the layer is read from. */
typedef struct {
  const char *source;
  const char *layer;
  const char *const *value_fields;
  const char *const *open_options;
} ShepardLayerSource;

/* Reads part of the layer in strips of about points_per_strip points (through OGR's spatial filter, by the layer's
 * extent), so that at most a strip's points are held at a time: of at least n_parts strips, those numbered part,
 * part + n_parts, part + 2 n_parts... A part may hold no point. The parts' scans combined (rank-scan.h; one part
 * is the whole layer), shepard_layer_scan_finish ends the layer's. progress: GDAL's contract over the part; FALSE
 * cancels. Fails as shepard_point_layer_read_fields does. */
ShepardLayerScan *shepard_layer_scan_part (const ShepardLayerSource *source, size_t points_per_strip, size_t part,
                                           size_t n_parts, GDALProgressFunc progress, void *progress_data,
                                           GError **error);

/* Ends the scan of the whole layer: leader_of from same. Fails for a field with no usable point at all. */
gboolean shepard_layer_scan_finish (ShepardLayerScan *scan, const char *source, GError **error);

/* The points' bounding box over every field {x_min, y_min, x_max, y_max}, as shepard-grid plans its raster. */
void shepard_layer_scan_bounds (const ShepardLayerScan *scan, double bounds[4]);

/* The extent of the group of fields led by field leader (leader_of), for shepard_engine_set_points_part: the
 * members' value ranges in the order of the fields. It borrows the hull from scan. */
void shepard_layer_scan_group_extent (const ShepardLayerScan *scan, guint leader, shepard_layer_extent *whole);

void shepard_layer_scan_free (ShepardLayerScan *scan);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardLayerScan, shepard_layer_scan_free)

G_END_DECLS
