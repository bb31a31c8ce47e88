/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* The usable points of one vector layer: coordinates and the value to interpolate, in the layer's CRS. */
typedef struct {
  double *x, *y, *z;
  size_t count;
  /* Skipped features, by reason (an empty part of a MultiPoint counts as one empty geometry). */
  size_t skipped_null_value;             /* value field unset, null or (a text column) empty */
  size_t skipped_missing_value;          /* a text column's missing-value mark: NA, N/A, null... (text-number.h) */
  size_t skipped_unparsable_value;       /* a text column's cell that is not a number ("abc") */
  size_t skipped_nonfinite_value;        /* value NaN or infinite */
  size_t skipped_empty_geometry;         /* geometry null or empty (also empty MultiPoint parts) */
  size_t skipped_nonfinite_coordinates;  /* x or y NaN or infinite */
  char *crs_wkt;                         /* WKT2 of the layer's CRS; NULL when the layer has none */
  char *source;
  char *layer_name;
  char *field_name;                      /* as the layer spells it */
} ShepardPointLayer;

/* Reads the Point/MultiPoint features of a layer of any vector source OGR opens.
 * layer: name, or 0-based index; NULL reads the first layer.
 * open_options: NAME=VALUE strings (NULL-terminated, may be NULL). For the CSV driver they override the defaults that
 * find the coordinate columns by common names (x, lon*, easting... / y, lat*, northing...) and detect numeric types.
 * progress: GDAL contract, may be NULL; returning FALSE cancels (SHEPARD_APP_ERROR_CANCELLED). */
ShepardPointLayer *shepard_point_layer_read (const char *source, const char *layer, const char *value_field,
                                             const char *const *open_options, GDALProgressFunc progress,
                                             void *progress_data, GError **error);

/* As shepard_point_layer_read for several value fields in one pass over the layer: a GPtrArray (owning) of one
 * ShepardPointLayer per field, in the order of value_fields (NULL-terminated, at least one), each holding the points
 * whose value in that field is usable and that field's skip counts: a row whose value is null, missing or not a
 * number in one field is skipped for that field only. A field the layer lacks, one that holds no numbers, or one
 * given twice fails (SHEPARD_APP_ERROR_NO_FIELD) naming it and the layer's numeric fields; a field with no usable
 * point fails as shepard_point_layer_read does. */
GPtrArray *shepard_point_layer_read_fields (const char *source, const char *layer, const char *const *value_fields,
                                            const char *const *open_options, GDALProgressFunc progress,
                                            void *progress_data, GError **error);

/* As shepard_point_layer_read_fields, for the points inside rect {x_min, y_min, x_max, y_max} only (OGR's spatial
 * filter, edges inside; the driver's spatial index where it has one), in the order of their feature IDs, which is the
 * order a whole read gives them in every format read in sequence (whatever order the index finds them in); NULL
 * reads every point. A field without a usable point in rect gets no points (count 0) rather than an error. */
GPtrArray *shepard_point_layer_read_fields_in_rect (const char *source, const char *layer,
                                                    const char *const *value_fields, const char *const *open_options,
                                                    const double rect[4], GDALProgressFunc progress,
                                                    void *progress_data, GError **error);

/* The layer's extent {x_min, y_min, x_max, y_max} and, when feature_count is not NULL, its number of features, as its
 * driver knows them (from its header or index where it has one, else from a pass over the features), opened as
 * shepard_point_layer_read opens it. */
gboolean shepard_point_layer_get_extent (const char *source, const char *layer, const char *const *open_options,
                                         double extent[4], gint64 *feature_count, GError **error);

/* Whether two fields' points are the same points in the same order (equal coordinates, bit for bit), so that one
 * engine can interpolate both (shepard_engine_set_points_fields) and share its neighbour search. */
gboolean shepard_point_layer_same_points (const ShepardPointLayer *a, const ShepardPointLayer *b);

/* "3 with a null or empty value, 1 with an empty geometry", or NULL when nothing was skipped. */
char *shepard_point_layer_describe_skipped (const ShepardPointLayer *points);

/* The numeric fields of the source's first layer, NULL-terminated (g_strfreev), without the columns a CSV source's
 * default open options take as coordinates; the layer's name into layer_name when not NULL. */
char **shepard_point_layer_list_numeric_fields (const char *path, char **layer_name, GError **error);

void shepard_point_layer_free (ShepardPointLayer *points);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardPointLayer, shepard_point_layer_free)

G_END_DECLS
