/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "point-layer.h"

#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"
#include "text-number.h"
#include "value-fields.h"
#include "vector-source.h"

#include <string.h>

/* Wildcards and case-insensitive matching are the CSV driver's (X_POSSIBLE_NAMES). AUTODETECT_SIZE_LIMIT=0 detects
 * the types over the whole file: a real value past the first 100 kB must not be cut to an integer. */
static const char *const csv_default_open_options[] = {
  "X_POSSIBLE_NAMES=x,lon*,long*,lng,easting*,east,x_coord*,xcoord*",
  "Y_POSSIBLE_NAMES=y,lat*,northing*,north,y_coord*,ycoord*",
  "AUTODETECT_TYPE=YES",
  "AUTODETECT_SIZE_LIMIT=0",
  NULL,
};

enum { FEATURES_BETWEEN_PROGRESS_CALLS = 4096 };

typedef struct {
  GArray *x, *y, *z;
  GArray *fid; /* gint64, each point's feature: only for a read through a spatial filter (NULL otherwise) */
} PointArrays;

static gboolean
is_csv_source (const char *source)
{
  GDALDriverH driver = GDALIdentifyDriverEx (source, GDAL_OF_VECTOR, NULL, NULL);

  return driver != NULL && g_strcmp0 (GDALGetDriverShortName (driver), "CSV") == 0;
}

static gboolean
build_open_options (const char *source, const char *const *user_options, char ***result, GError **error)
{
  g_auto (ShepardCslList) options = NULL;

  if (is_csv_source (source))
    options = CSLDuplicate ((CSLConstList) csv_default_open_options);

  for (const char *const *option = user_options; option != NULL && *option != NULL; option++)
    {
      char *name = NULL;
      const char *value = CPLParseNameValue (*option, &name);
      if (name == NULL || name[0] == '\0' || value == NULL)
        {
          CPLFree (name);
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "open option \"%s\" must be written NAME=VALUE", *option);
          return FALSE;
        }
      options = CSLSetNameValue (options, name, value);
      CPLFree (name);
    }
  *result = g_steal_pointer (&options);
  return TRUE;
}

static OGRLayerH
find_layer (GDALDatasetH dataset, const char *source, const char *wanted, GError **error)
{
  OGRLayerH layer = shepard_vector_source_find_layer (dataset, wanted);
  int layer_count = GDALDatasetGetLayerCount (dataset);

  if (layer != NULL)
    return layer;
  if (layer_count == 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                   "\"%s\" has no vector layer: give a file with a point layer", source);
      return NULL;
    }
  g_autofree char *names = shepard_vector_source_layer_names (dataset, "\"", "\"");
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
               "\"%s\" has no layer \"%s\": give one of %s, or an index from 0 to %d", source, wanted, names,
               layer_count - 1);
  return NULL;
}

static gboolean
check_layer_geometry_type (OGRLayerH layer, GError **error)
{
  OGRwkbGeometryType type = wkbFlatten (OGR_L_GetGeomType (layer));

  if (type == wkbNone)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "layer \"%s\" has no geometry; for a CSV file name its coordinate columns with the open options "
                   "X_POSSIBLE_NAMES=COLUMN and Y_POSSIBLE_NAMES=COLUMN",
                   OGR_L_GetName (layer));
      return FALSE;
    }
  if (type != wkbUnknown && type != wkbPoint && type != wkbMultiPoint)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "layer \"%s\" holds %s geometries: only Point and MultiPoint layers can be interpolated",
                   OGR_L_GetName (layer), OGRGeometryTypeToName (type));
      return FALSE;
    }
  return TRUE;
}

/* One value field being read: its points so far and what it skipped. */
typedef struct {
  ShepardPointLayer *points;
  PointArrays arrays;
  int index;
  gboolean text_values;
} FieldReader;

static void
add_point (FieldReader *reader, OGRGeometryH point, double value, gint64 fid)
{
  if (OGR_G_IsEmpty (point))
    {
      reader->points->skipped_empty_geometry++;
      return;
    }
  double x = OGR_G_GetX (point, 0);
  double y = OGR_G_GetY (point, 0);
  if (!isfinite (x) || !isfinite (y))
    {
      reader->points->skipped_nonfinite_coordinates++;
      return;
    }
  g_array_append_val (reader->arrays.x, x);
  g_array_append_val (reader->arrays.y, y);
  g_array_append_val (reader->arrays.z, value);
  if (reader->arrays.fid != NULL)
    g_array_append_val (reader->arrays.fid, fid);
}

/* A feature's value in one field, or FALSE with the reason counted. */
static gboolean
read_value (FieldReader *reader, OGRFeatureH feature, double *value)
{
  ShepardPointLayer *points = reader->points;

  if (!OGR_F_IsFieldSetAndNotNull (feature, reader->index))
    {
      points->skipped_null_value++;
      return FALSE;
    }
  if (reader->text_values)
    switch (shepard_text_number_parse (OGR_F_GetFieldAsString (feature, reader->index), value))
      {
      case SHEPARD_TEXT_NUMBER:
        break;
      case SHEPARD_TEXT_EMPTY:
        points->skipped_null_value++;
        return FALSE;
      case SHEPARD_TEXT_MISSING:
        points->skipped_missing_value++;
        return FALSE;
      case SHEPARD_TEXT_UNPARSABLE:
        points->skipped_unparsable_value++;
        return FALSE;
      }
  else
    *value = OGR_F_GetFieldAsDouble (feature, reader->index);
  if (!isfinite (*value))
    {
      points->skipped_nonfinite_value++;
      return FALSE;
    }
  return TRUE;
}

static gboolean
read_feature (GArray *readers, OGRLayerH layer, OGRFeatureH feature, GError **error)
{
  OGRGeometryH geometry = OGR_F_GetGeometryRef (feature);

  if (geometry == NULL || OGR_G_IsEmpty (geometry))
    {
      for (guint f = 0; f < readers->len; f++)
        g_array_index (readers, FieldReader, f).points->skipped_empty_geometry++;
      return TRUE;
    }
  OGRwkbGeometryType type = wkbFlatten (OGR_G_GetGeometryType (geometry));
  if (type != wkbPoint && type != wkbMultiPoint)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "feature %" G_GINT64_FORMAT " of layer \"%s\" is a %s: only Point and MultiPoint geometries can "
                   "be interpolated",
                   (gint64) OGR_F_GetFID (feature), OGR_L_GetName (layer), OGRGeometryTypeToName (type));
      return FALSE;
    }
  gint64 fid = OGR_F_GetFID (feature);
  for (guint f = 0; f < readers->len; f++)
    {
      FieldReader *reader = &g_array_index (readers, FieldReader, f);
      double value = NAN;
      if (!read_value (reader, feature, &value))
        continue;
      if (type == wkbPoint)
        add_point (reader, geometry, value, fid);
      else
        for (int part = 0; part < OGR_G_GetGeometryCount (geometry); part++)
          add_point (reader, OGR_G_GetGeometryRef (geometry, part), value, fid);
    }
  return TRUE;
}

static gboolean
read_features (GArray *readers, OGRLayerH layer, const char *source, const ShepardGdalErrorTrap *trap,
               GDALProgressFunc progress, void *progress_data, GError **error)
{
  GIntBig feature_count = OGR_L_GetFeatureCount (layer, FALSE);
  GIntBig features_read = 0;

  OGR_L_ResetReading (layer);
  for (;;)
    {
      if (features_read % FEATURES_BETWEEN_PROGRESS_CALLS == 0)
        {
          double fraction = feature_count > 0 ? MIN (1.0, (double) features_read / (double) feature_count) : 0.0;
          if (!progress (fraction, NULL, progress_data))
            {
              g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
              return FALSE;
            }
        }
      g_auto (OGRFeatureH) feature = OGR_L_GetNextFeature (layer);
      if (feature == NULL)
        break;
      features_read++;
      if (!read_feature (readers, layer, feature, error))
        return FALSE;
    }

  if (shepard_gdal_error_trap_has_failure (trap))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "cannot read layer \"%s\" of \"%s\": %s",
                   OGR_L_GetName (layer), source, shepard_gdal_error_trap_reason (trap, ""));
      return FALSE;
    }
  progress (1.0, NULL, progress_data);
  return TRUE;
}

static char *
export_crs_wkt (OGRLayerH layer)
{
  OGRSpatialReferenceH crs = OGR_L_GetSpatialRef (layer);
  const char *const options[] = { "FORMAT=WKT2_2018", NULL };
  char *gdal_wkt = NULL;

  if (crs == NULL || OSRExportToWktEx (crs, &gdal_wkt, options) != OGRERR_NONE)
    {
      CPLFree (gdal_wkt);
      return NULL;
    }
  char *wkt = g_strdup (gdal_wkt);
  CPLFree (gdal_wkt);
  return wkt;
}

/* A GArray holds room for a power of two of elements: cut to the points read, as the layer keeps them as long as it is
 * open (up to half of each array otherwise). */
static double *
take_array (GArray *array, size_t count)
{
  return g_renew (double, g_array_free (array, FALSE), MAX (count, 1));
}

static void
take_arrays (ShepardPointLayer *points, PointArrays *arrays)
{
  points->count = arrays->x->len;
  points->x = take_array (arrays->x, points->count);
  points->y = take_array (arrays->y, points->count);
  points->z = take_array (arrays->z, points->count);
  if (arrays->fid != NULL)
    g_array_free (arrays->fid, TRUE);
  *arrays = (PointArrays) { 0 };
}

static void
free_arrays (PointArrays *arrays)
{
  if (arrays->x != NULL)
    {
      g_array_free (arrays->x, TRUE);
      g_array_free (arrays->y, TRUE);
      g_array_free (arrays->z, TRUE);
    }
  if (arrays->fid != NULL)
    g_array_free (g_steal_pointer (&arrays->fid), TRUE);
}

static gint
compare_by_feature (gconstpointer a, gconstpointer b, gpointer fids)
{
  size_t i = *(const size_t *) a, j = *(const size_t *) b;
  gint64 fid_i = ((const gint64 *) fids)[i], fid_j = ((const gint64 *) fids)[j];

  /* A MultiPoint's parts share their feature's ID: they keep the order they were read in. */
  return fid_i != fid_j ? (fid_i < fid_j ? -1 : 1) : (i < j ? -1 : i > j);
}

static void
permute (GArray *array, const size_t *order)
{
  g_autofree double *copy = g_memdup2 (array->data, array->len * sizeof (double));
  for (guint i = 0; i < array->len; i++)
    g_array_index (array, double, i) = copy[order[i]];
}

/* A spatial filter's index may hand the features out in its own order (a GeoPackage's R-tree does), and the engine
 * breaks ties between equally distant points by their order: the points go back to the order of their feature IDs,
 * the order of a read of the whole layer (in every format read in sequence: GeoPackage, FlatGeobuf, Shapefile, CSV...),
 * so that a part of a layer weighs its points as the whole does. */
static void
order_by_feature (PointArrays *arrays)
{
  const gint64 *fids = (const gint64 *) arrays->fid->data;
  size_t n = arrays->fid->len;
  gboolean ordered = TRUE;

  for (size_t i = 1; i < n && ordered; i++)
    ordered = fids[i - 1] <= fids[i];
  if (ordered)
    return;
  g_autofree size_t *order = g_new (size_t, n);
  for (size_t i = 0; i < n; i++)
    order[i] = i;
  g_qsort_with_data (order, (gint) n, sizeof *order, compare_by_feature, (gpointer) fids);
  permute (arrays->x, order);
  permute (arrays->y, order);
  permute (arrays->z, order);
}

/* Whether the CSV driver would take this column as a coordinate under the default open options: the same patterns,
 * matched the way the driver matches them (case-insensitive, * as wildcard). */
static gboolean
is_default_coordinate_column (const char *name)
{
  g_autofree char *lower = g_ascii_strdown (name, -1);

  for (const char *const *option = csv_default_open_options; *option != NULL; option++)
    {
      if (!g_str_has_prefix (*option, "X_POSSIBLE_NAMES=") && !g_str_has_prefix (*option, "Y_POSSIBLE_NAMES="))
        continue;
      g_auto (GStrv) patterns = g_strsplit (strchr (*option, '=') + 1, ",", -1);
      for (char **pattern = patterns; *pattern != NULL; pattern++)
        if (g_pattern_match_simple (*pattern, lower))
          return TRUE;
    }
  return FALSE;
}

char **
shepard_point_layer_list_numeric_fields (const char *path, char **layer_name, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);

  gboolean is_csv = is_csv_source (path);
  g_auto (ShepardCslList) options = NULL;
  if (!build_open_options (path, NULL, &options, error))
    return NULL;
  g_autofree char *reason = NULL;
  g_auto (GDALDatasetH) dataset = shepard_vector_source_open (path, (const char *const *) options, &trap, &reason);
  if (dataset == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN,
                   "Cannot open “%s” as a point layer: %s. Choose a vector file GDAL reads (CSV, GeoPackage, "
                   "Shapefile, GeoJSON…).",
                   path, reason);
      return NULL;
    }
  if (GDALDatasetGetLayerCount (dataset) < 1)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                   "“%s” holds no vector layer. Choose a file with point features.", path);
      return NULL;
    }
  OGRLayerH layer = GDALDatasetGetLayer (dataset, 0);
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  guint count = 0;
  for (int i = 0; i < OGR_FD_GetFieldCount (definition); i++)
    {
      OGRFieldDefnH field = OGR_FD_GetFieldDefn (definition, i);
      if (!shepard_value_field_holds_numbers (layer, i))
        continue;
      if (is_csv && is_default_coordinate_column (OGR_Fld_GetNameRef (field)))
        continue;
      g_strv_builder_add (builder, OGR_Fld_GetNameRef (field));
      count++;
    }
  if (count == 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD,
                   "Layer “%s” of “%s” has no numeric field to interpolate. Add a column of numbers, or choose "
                   "another file.",
                   OGR_L_GetName (layer), path);
      return NULL;
    }
  if (layer_name != NULL)
    *layer_name = g_strdup (OGR_L_GetName (layer));
  return g_strv_builder_end (builder);
}


static void
clear_field_reader (FieldReader *reader)
{
  free_arrays (&reader->arrays);
  g_clear_pointer (&reader->points, shepard_point_layer_free);
}

/* The readers of the value fields, each field once and known to the layer as numbers. */
static GArray *
start_field_readers (OGRLayerH layer, const char *source, const char *const *value_fields, gboolean whole_layer,
                     GError **error)
{
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);
  g_autoptr (GArray) readers = g_array_new (FALSE, TRUE, sizeof (FieldReader));
  g_array_set_clear_func (readers, (GDestroyNotify) clear_field_reader);
  /* Room for every feature from the start, where the driver knows their number without a pass over them; a read of
   * part of the layer (a tile of shepard-grid-mpi) grows as it goes, or each rank would hold address space for the
   * whole layer three times over, which a job's address-space limit may refuse (10M points, 64 tiles: 985 MB of
   * address space at the peak, against 599 MB growing). */
  guint reserved = whole_layer ? (guint) CLAMP (OGR_L_GetFeatureCount (layer, FALSE), 0, G_MAXINT) : 0;

  for (const char *const *wanted = value_fields; *wanted != NULL; wanted++)
    {
      int index = shepard_value_field_find (layer, *wanted, error);
      if (index < 0)
        return NULL;
      for (guint f = 0; f < readers->len; f++)
        if (g_array_index (readers, FieldReader, f).index == index)
          {
            g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD,
                         "field \"%s\" is given twice: give each field once", *wanted);
            return NULL;
          }
      OGRFieldDefnH field = OGR_FD_GetFieldDefn (definition, index);
      ShepardPointLayer *points = g_new0 (ShepardPointLayer, 1);
      points->source = g_strdup (source);
      points->layer_name = g_strdup (OGR_L_GetName (layer));
      points->field_name = g_strdup (OGR_Fld_GetNameRef (field));
      FieldReader reader = {
        .points = points,
        .arrays = {
          .x = g_array_sized_new (FALSE, FALSE, sizeof (double), reserved),
          .y = g_array_sized_new (FALSE, FALSE, sizeof (double), reserved),
          .z = g_array_sized_new (FALSE, FALSE, sizeof (double), reserved),
        },
        .index = index,
        .text_values = OGR_Fld_GetType (field) == OFTString,
      };
      g_array_append_val (readers, reader);
    }
  return g_steal_pointer (&readers);
}

GPtrArray *
shepard_point_layer_read_fields (const char *source, const char *layer, const char *const *value_fields,
                                 const char *const *open_options, GDALProgressFunc progress, void *progress_data,
                                 GError **error)
{
  return shepard_point_layer_read_fields_in_rect (source, layer, value_fields, open_options, NULL, progress,
                                                  progress_data, error);
}

GPtrArray *
shepard_point_layer_read_fields_in_rect (const char *source, const char *layer, const char *const *value_fields,
                                         const char *const *open_options, const double rect[4],
                                         GDALProgressFunc progress, void *progress_data, GError **error)
{
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (value_fields != NULL && value_fields[0] != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);

  g_auto (ShepardCslList) options = NULL;
  if (!build_open_options (source, open_options, &options, error))
    return NULL;

  g_autofree char *reason = NULL;
  g_auto (GDALDatasetH) dataset = shepard_vector_source_open (source, (const char *const *) options, &trap, &reason);
  if (dataset == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "cannot open \"%s\" as a vector source: %s",
                   source, reason);
      return NULL;
    }
  OGRLayerH layer_handle = find_layer (dataset, source, layer, error);
  if (layer_handle == NULL || !check_layer_geometry_type (layer_handle, error))
    return NULL;
  g_autoptr (GArray) readers = start_field_readers (layer_handle, source, value_fields, rect == NULL, error);
  if (readers == NULL)
    return NULL;
  /* After the fields are known: whether a text column holds numbers is a question of the whole layer. */
  if (rect != NULL)
    {
      OGR_L_SetSpatialFilterRect (layer_handle, rect[0], rect[1], rect[2], rect[3]);
      for (guint f = 0; f < readers->len; f++)
        g_array_index (readers, FieldReader, f).arrays.fid = g_array_new (FALSE, FALSE, sizeof (gint64));
    }

  shepard_gdal_error_trap_clear (&trap);
  if (!read_features (readers, layer_handle, source, &trap, progress != NULL ? progress : GDALDummyProgress,
                      progress_data, error))
    return NULL;

  g_autofree char *crs_wkt = export_crs_wkt (layer_handle);
  g_autoptr (GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_point_layer_free);
  for (guint f = 0; f < readers->len; f++)
    {
      FieldReader *reader = &g_array_index (readers, FieldReader, f);
      ShepardPointLayer *points = reader->points;
      if (reader->arrays.fid != NULL)
        order_by_feature (&reader->arrays);
      take_arrays (points, &reader->arrays);
      if (points->count == 0 && rect == NULL)
        {
          g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS,
                       "layer \"%s\" of \"%s\" has no usable point%s%s%s: it needs Point features with a finite "
                       "\"%s\"",
                       points->layer_name, source, skipped != NULL ? " (skipped " : "",
                       skipped != NULL ? skipped : "", skipped != NULL ? ")" : "", points->field_name);
          return NULL;
        }
      points->crs_wkt = g_strdup (crs_wkt);
      g_ptr_array_add (fields, g_steal_pointer (&reader->points));
    }
  return g_steal_pointer (&fields);
}

gboolean
shepard_point_layer_get_extent (const char *source, const char *layer, const char *const *open_options,
                                double extent[4], gint64 *feature_count, GError **error)
{
  g_return_val_if_fail (source != NULL && extent != NULL, FALSE);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  g_auto (ShepardCslList) options = NULL;
  if (!build_open_options (source, open_options, &options, error))
    return FALSE;
  g_autofree char *reason = NULL;
  g_auto (GDALDatasetH) dataset = shepard_vector_source_open (source, (const char *const *) options, &trap, &reason);
  if (dataset == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "cannot open \"%s\" as a vector source: %s",
                   source, reason);
      return FALSE;
    }
  OGRLayerH layer_handle = find_layer (dataset, source, layer, error);
  if (layer_handle == NULL || !check_layer_geometry_type (layer_handle, error))
    return FALSE;
  OGREnvelope envelope;
  if (OGR_L_GetExtent (layer_handle, &envelope, TRUE) != OGRERR_NONE)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS,
                   "layer \"%s\" of \"%s\" has no extent: it needs Point features", OGR_L_GetName (layer_handle),
                   source);
      return FALSE;
    }
  extent[0] = envelope.MinX;
  extent[1] = envelope.MinY;
  extent[2] = envelope.MaxX;
  extent[3] = envelope.MaxY;
  if (feature_count != NULL)
    *feature_count = OGR_L_GetFeatureCount (layer_handle, TRUE);
  return TRUE;
}

ShepardPointLayer *
shepard_point_layer_read (const char *source, const char *layer, const char *value_field,
                          const char *const *open_options, GDALProgressFunc progress, void *progress_data,
                          GError **error)
{
  g_return_val_if_fail (value_field != NULL, NULL);

  const char *const value_fields[] = { value_field, NULL };
  g_autoptr (GPtrArray) fields = shepard_point_layer_read_fields (source, layer, value_fields, open_options, progress,
                                                                  progress_data, error);
  return fields != NULL ? g_ptr_array_steal_index (fields, 0) : NULL;
}

gboolean
shepard_point_layer_same_points (const ShepardPointLayer *a, const ShepardPointLayer *b)
{
  g_return_val_if_fail (a != NULL && b != NULL, FALSE);

  return a->count == b->count && memcmp (a->x, b->x, a->count * sizeof *a->x) == 0
         && memcmp (a->y, b->y, a->count * sizeof *a->y) == 0;
}

char *
shepard_point_layer_describe_skipped (const ShepardPointLayer *points)
{
  g_return_val_if_fail (points != NULL, NULL);

  const struct {
    size_t count;
    const char *reason;
  } reasons[] = {
    { points->skipped_null_value, "a null or empty value" },
    { points->skipped_missing_value, "a value marked missing (NA...)" },
    { points->skipped_unparsable_value, "a value that is not a number" },
    { points->skipped_nonfinite_value, "a NaN or infinite value" },
    { points->skipped_empty_geometry, "an empty geometry" },
    { points->skipped_nonfinite_coordinates, "NaN or infinite coordinates" },
  };
  GString *description = g_string_new (NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (reasons); i++)
    if (reasons[i].count > 0)
      g_string_append_printf (description, "%s%zu with %s", description->len > 0 ? ", " : "", reasons[i].count,
                              reasons[i].reason);
  if (description->len == 0)
    {
      g_string_free (description, TRUE);
      return NULL;
    }
  return g_string_free (description, FALSE);
}

void
shepard_point_layer_free (ShepardPointLayer *points)
{
  if (points == NULL)
    return;
  g_free (points->x);
  g_free (points->y);
  g_free (points->z);
  g_free (points->crs_wkt);
  g_free (points->source);
  g_free (points->layer_name);
  g_free (points->field_name);
  g_free (points);
}
