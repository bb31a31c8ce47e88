/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <string.h>

#include "point-layer.h"
#include "shepard-app-error.h"
#include "text-number.h"

typedef struct {
  char *directory;
} Fixture;

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  fixture->directory = g_dir_make_tmp ("shepard-points-XXXXXX", &error);
  g_assert_no_error (error);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GDir) listing = g_dir_open (fixture->directory, 0, NULL);

  for (const char *name = g_dir_read_name (listing); name != NULL; name = g_dir_read_name (listing))
    {
      g_autofree char *path = g_build_filename (fixture->directory, name, NULL);
      g_unlink (path);
    }
  g_rmdir (fixture->directory);
  g_free (fixture->directory);
}

static char *
write_file (const Fixture *fixture, const char *name, const char *contents)
{
  char *path = g_build_filename (fixture->directory, name, NULL);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  return path;
}

static ShepardPointLayer *
read_ok (const char *path, const char *layer, const char *field, const char *const *open_options)
{
  g_autoptr (GError) error = NULL;
  ShepardPointLayer *points = shepard_point_layer_read (path, layer, field, open_options, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (points);
  return points;
}

static GError *
read_fails (const char *path, const char *layer, const char *field, const char *const *open_options, int code)
{
  GError *error = NULL;
  ShepardPointLayer *points = shepard_point_layer_read (path, layer, field, open_options, NULL, NULL, &error);

  g_assert_null (points);
  g_assert_error (error, SHEPARD_APP_ERROR, code);
  g_test_message ("%s", error->message);
  return error;
}

static void
assert_point (const ShepardPointLayer *points, size_t i, double x, double y, double z)
{
  g_assert_cmpuint (i, <, points->count);
  g_assert_cmpfloat (points->x[i], ==, x);
  g_assert_cmpfloat (points->y[i], ==, y);
  g_assert_cmpfloat (points->z[i], ==, z);
}

static void
test_csv_xy_names (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "samples.csv", "id,X,y,value\n1,10.5,20,1.5\n2,11,21.25,7\n"
                                                              "3,-12,22,-3\n");
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "VALUE", NULL);

  g_assert_cmpuint (points->count, ==, 3);
  assert_point (points, 0, 10.5, 20.0, 1.5);
  assert_point (points, 1, 11.0, 21.25, 7.0);
  assert_point (points, 2, -12.0, 22.0, -3.0);
  g_assert_cmpstr (points->layer_name, ==, "samples");
  g_assert_cmpstr (points->field_name, ==, "value");
  g_assert_null (points->crs_wkt);
  g_assert_null (shepard_point_layer_describe_skipped (points));
}

static void
test_csv_lon_lat_names (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "stations.csv",
                                      "name,Longitude,LAT,temp\nA,5.5,52.25,11\nB,6,53,12.5\n");
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "temp", NULL);

  g_assert_cmpuint (points->count, ==, 2);
  assert_point (points, 0, 5.5, 52.25, 11.0);
  assert_point (points, 1, 6.0, 53.0, 12.5);
}

static void
test_csv_open_options (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "survey.csv", "e,n,depth\n100,200,3.5\n110,190,4\n");

  g_autoptr (GError) no_geometry = read_fails (path, NULL, "depth", NULL, SHEPARD_APP_ERROR_GEOMETRY);
  g_assert_nonnull (strstr (no_geometry->message, "X_POSSIBLE_NAMES"));

  const char *const coordinates[] = { "X_POSSIBLE_NAMES=e", "Y_POSSIBLE_NAMES=n", NULL };
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "depth", coordinates);
  g_assert_cmpuint (points->count, ==, 2);
  assert_point (points, 1, 110.0, 190.0, 4.0);

  /* The user's options override the defaults: without type detection every column is text, and a text column of
   * numbers is still read as numbers. */
  const char *const as_text[] = { "X_POSSIBLE_NAMES=e", "Y_POSSIBLE_NAMES=n", "AUTODETECT_TYPE=NO", NULL };
  g_autoptr (ShepardPointLayer) from_text = read_ok (path, NULL, "depth", as_text);
  g_assert_cmpuint (from_text->count, ==, 2);
  assert_point (from_text, 0, 100.0, 200.0, 3.5);
  assert_point (from_text, 1, 110.0, 190.0, 4.0);

  const char *const malformed[] = { "AUTODETECT_TYPE", NULL };
  g_autoptr (GError) bad_option = read_fails (path, NULL, "depth", malformed, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_nonnull (strstr (bad_option->message, "NAME=VALUE"));
}

static void
test_csv_null_values_skipped (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "gaps.csv", "x,y,v\n0,0,1\n1,0,\n2,0,3\n3,0,\n,,5\n");
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "v", NULL);

  g_assert_cmpuint (points->count, ==, 2);
  assert_point (points, 0, 0.0, 0.0, 1.0);
  assert_point (points, 1, 2.0, 0.0, 3.0);
  g_assert_cmpuint (points->skipped_null_value, ==, 2);
  g_assert_cmpuint (points->skipped_empty_geometry, ==, 1);
  g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
  g_assert_cmpstr (skipped, ==, "2 with a null or empty value, 1 with an empty geometry");
}

/* A column of numbers with gaps marked as R and spreadsheets mark them, and one cell that is not a number, is a value
 * column: those rows are skipped and counted by reason. A column of words is not. */
static void
test_csv_missing_and_unparsable_values (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "marked.csv", "x,y,v,name\n0,0,1,a\n1,0,NA,b\n2,0,abc,c\n3,0,4.5,d\n"
                                                             "4,0,n/a,e\n5,0,,f\n6,0,-2e1,g\n");
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "v", NULL);

  g_assert_cmpuint (points->count, ==, 3);
  assert_point (points, 0, 0.0, 0.0, 1.0);
  assert_point (points, 1, 3.0, 0.0, 4.5);
  assert_point (points, 2, 6.0, 0.0, -20.0);
  g_assert_cmpuint (points->skipped_missing_value, ==, 2);
  g_assert_cmpuint (points->skipped_unparsable_value, ==, 1);
  g_assert_cmpuint (points->skipped_null_value, ==, 1);
  g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
  g_assert_cmpstr (skipped, ==, "1 with a null or empty value, 2 with a value marked missing (NA...), 1 with a value "
                                "that is not a number");

  g_autoptr (GError) words = read_fails (path, NULL, "name", NULL, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (words->message, "holds text"));
  g_assert_nonnull (strstr (words->message, "\"v\""));
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) fields = shepard_point_layer_list_numeric_fields (path, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (fields), ==, 1);
  g_assert_cmpstr (fields[0], ==, "v");
}

/* The bundled meuse layer: its organic matter column has two "NA" cells, which R wrote; it is offered, and read
 * without them. */
static void
test_meuse_organic_matter (void)
{
  const char *source_root = g_getenv ("SHEPARD_SOURCE_ROOT");
  if (source_root == NULL)
    {
      g_test_skip ("SHEPARD_SOURCE_ROOT is not set: run through meson test");
      return;
    }
  g_autofree char *meuse = g_build_filename (source_root, "data", "meuse.csv", NULL);
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) fields = shepard_point_layer_list_numeric_fields (meuse, NULL, &error);

  g_assert_no_error (error);
  g_assert_true (g_strv_contains ((const char *const *) fields, "om"));
  g_assert_false (g_strv_contains ((const char *const *) fields, "landuse"));
  g_autoptr (ShepardPointLayer) points = read_ok (meuse, NULL, "om", NULL);
  g_assert_cmpuint (points->count, ==, 153);
  g_assert_cmpuint (points->skipped_missing_value, ==, 2);
}

static void
test_text_numbers (void)
{
  const struct {
    const char *text;
    ShepardTextNumber kind;
    double value;
  } cases[] = {
    { " 12.5 ", SHEPARD_TEXT_NUMBER, 12.5 }, { "-3e2", SHEPARD_TEXT_NUMBER, -300.0 },
    { "+7", SHEPARD_TEXT_NUMBER, 7.0 },      { "", SHEPARD_TEXT_EMPTY, 0 },
    { "  ", SHEPARD_TEXT_EMPTY, 0 },         { "NA", SHEPARD_TEXT_MISSING, 0 },
    { "#N/A", SHEPARD_TEXT_MISSING, 0 },     { "NaN", SHEPARD_TEXT_MISSING, 0 },
    { "null", SHEPARD_TEXT_MISSING, 0 },     { "-", SHEPARD_TEXT_MISSING, 0 },
    { "abc", SHEPARD_TEXT_UNPARSABLE, 0 },   { "12 m", SHEPARD_TEXT_UNPARSABLE, 0 },
    { "1,5", SHEPARD_TEXT_UNPARSABLE, 0 },   { "inf", SHEPARD_TEXT_UNPARSABLE, 0 },
    { "0x10", SHEPARD_TEXT_UNPARSABLE, 0 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double value = NAN;
      g_assert_cmpint (shepard_text_number_parse (cases[i].text, &value), ==, cases[i].kind);
      if (cases[i].kind == SHEPARD_TEXT_NUMBER)
        g_assert_cmpfloat (value, ==, cases[i].value);
    }
}

static void
test_csv_with_prj_keeps_crs (void)
{
  const char *source_root = g_getenv ("SHEPARD_SOURCE_ROOT");
  if (source_root == NULL)
    {
      g_test_skip ("SHEPARD_SOURCE_ROOT is not set: run through meson test");
      return;
    }
  g_autofree char *path = g_build_filename (source_root, "data", "meuse.csv", NULL);
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "zinc", NULL);

  g_assert_cmpuint (points->count, ==, 155);
  assert_point (points, 0, 181072.0, 333611.0, 1022.0);
  g_assert_nonnull (points->crs_wkt);
  OGRSpatialReferenceH crs = OSRNewSpatialReference (points->crs_wkt);
  g_assert_nonnull (crs);
  g_assert_cmpstr (OSRGetAuthorityName (crs, NULL), ==, "EPSG");
  g_assert_cmpstr (OSRGetAuthorityCode (crs, NULL), ==, "28992");
  OSRDestroySpatialReference (crs);
}

static void
add_feature (OGRLayerH layer, OGRGeometryH geometry, const double *value, const char *label)
{
  OGRFeatureH feature = OGR_F_Create (OGR_L_GetLayerDefn (layer));

  if (value != NULL)
    {
      OGR_F_SetFieldDouble (feature, OGR_F_GetFieldIndex (feature, "value"), *value);
      OGR_F_SetFieldInteger64 (feature, OGR_F_GetFieldIndex (feature, "count"), (GIntBig) (*value * 10.0));
    }
  OGR_F_SetFieldString (feature, OGR_F_GetFieldIndex (feature, "label"), label);
  if (geometry != NULL)
    OGR_F_SetGeometryDirectly (feature, geometry);
  g_assert_cmpint (OGR_L_CreateFeature (layer, feature), ==, OGRERR_NONE);
  OGR_F_Destroy (feature);
}

static OGRGeometryH
make_point (double x, double y, double z)
{
  OGRGeometryH point = OGR_G_CreateGeometry (wkbPoint25D);

  OGR_G_SetPoint (point, 0, x, y, z);
  return point;
}

static OGRLayerH
create_layer (GDALDatasetH dataset, const char *name, OGRSpatialReferenceH crs, OGRwkbGeometryType type)
{
  OGRLayerH layer = GDALDatasetCreateLayer (dataset, name, crs, type, NULL);
  const struct {
    const char *name;
    OGRFieldType type;
  } fields[] = { { "value", OFTReal }, { "count", OFTInteger64 }, { "label", OFTString } };

  g_assert_nonnull (layer);
  for (size_t i = 0; i < G_N_ELEMENTS (fields); i++)
    {
      OGRFieldDefnH field = OGR_Fld_Create (fields[i].name, fields[i].type);
      g_assert_cmpint (OGR_L_CreateField (layer, field, TRUE), ==, OGRERR_NONE);
      OGR_Fld_Destroy (field);
    }
  return layer;
}

/* Layers: "empty" (points, none stored), "samples" (2.5D points, one with a null value, one with an empty
 * geometry, one without geometry), "all_null" (points whose values are all null). */
static char *
write_geopackage (const Fixture *fixture)
{
  char *path = g_build_filename (fixture->directory, "samples.gpkg", NULL);
  GDALDatasetH dataset = GDALCreate (GDALGetDriverByName ("GPKG"), path, 0, 0, 0, GDT_Unknown, NULL);
  g_assert_nonnull (dataset);
  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (crs, 32631), ==, OGRERR_NONE);

  create_layer (dataset, "empty", crs, wkbPoint);
  OGRLayerH samples = create_layer (dataset, "samples", crs, wkbPoint25D);
  const double values[] = { 4.5, 5.5, 6.5 };
  add_feature (samples, make_point (500000.0, 5000000.0, 99.0), &values[0], "a");
  add_feature (samples, make_point (500010.0, 5000020.0, 99.0), NULL, "b");
  add_feature (samples, make_point (500030.0, 5000040.0, 99.0), &values[1], "c");
  add_feature (samples, OGR_G_CreateGeometry (wkbPoint), &values[2], "d");
  add_feature (samples, NULL, &values[2], "e");
  OGRLayerH all_null = create_layer (dataset, "all_null", crs, wkbPoint);
  for (int i = 0; i < 3; i++)
    add_feature (all_null, make_point (i, i, 0.0), NULL, "n");

  OSRDestroySpatialReference (crs);
  GDALClose (dataset);
  return path;
}

static void
test_geopackage (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_geopackage (fixture);

  g_autoptr (ShepardPointLayer) by_name = read_ok (path, "samples", "value", NULL);
  g_assert_cmpuint (by_name->count, ==, 2);
  assert_point (by_name, 0, 500000.0, 5000000.0, 4.5);
  assert_point (by_name, 1, 500030.0, 5000040.0, 5.5);
  g_assert_cmpuint (by_name->skipped_null_value, ==, 1);
  g_assert_cmpuint (by_name->skipped_empty_geometry, ==, 2);
  g_assert_cmpstr (by_name->layer_name, ==, "samples");

  OGRSpatialReferenceH crs = OSRNewSpatialReference (by_name->crs_wkt);
  g_assert_cmpstr (OSRGetAuthorityCode (crs, NULL), ==, "32631");
  OSRDestroySpatialReference (crs);

  /* GeoPackage orders layers by when their tables were made, which the driver defers: ask it for the index. */
  GDALDatasetH dataset = GDALOpenEx (path, GDAL_OF_VECTOR, NULL, NULL, NULL);
  int samples_index = -1;
  for (int i = 0; i < GDALDatasetGetLayerCount (dataset); i++)
    if (g_strcmp0 (OGR_L_GetName (GDALDatasetGetLayer (dataset, i)), "samples") == 0)
      samples_index = i;
  GDALClose (dataset);
  g_assert_cmpint (samples_index, >=, 0);
  g_autofree char *index = g_strdup_printf ("%d", samples_index);
  g_autoptr (ShepardPointLayer) by_index = read_ok (path, index, "count", NULL);
  g_assert_cmpuint (by_index->count, ==, 2);
  assert_point (by_index, 1, 500030.0, 5000040.0, 55.0);
  g_assert_cmpstr (by_index->layer_name, ==, "samples");
}

static void
test_geopackage_errors (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_geopackage (fixture);

  g_autoptr (GError) empty = read_fails (path, "empty", "value", NULL, SHEPARD_APP_ERROR_NO_POINTS);
  g_assert_nonnull (strstr (empty->message, "\"empty\""));

  g_autoptr (GError) all_null = read_fails (path, "all_null", "value", NULL, SHEPARD_APP_ERROR_NO_POINTS);
  g_assert_nonnull (strstr (all_null->message, "3 with a null or empty value"));

  g_autoptr (GError) text = read_fails (path, "samples", "label", NULL, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (text->message, "holds text"));
  g_assert_nonnull (strstr (text->message, "\"value\", \"count\""));

  g_autoptr (GError) missing = read_fails (path, "samples", "zinc", NULL, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (missing->message, "\"zinc\""));
  g_assert_nonnull (strstr (missing->message, "\"value\", \"count\""));

  g_autoptr (GError) no_layer = read_fails (path, "nope", "value", NULL, SHEPARD_APP_ERROR_NO_LAYER);
  g_assert_nonnull (strstr (no_layer->message, "\"empty\""));
  g_assert_nonnull (strstr (no_layer->message, "\"samples\""));
  g_assert_nonnull (strstr (no_layer->message, "\"all_null\""));

  g_autoptr (GError) bad_index = read_fails (path, "3", "value", NULL, SHEPARD_APP_ERROR_NO_LAYER);
  g_assert_nonnull (strstr (bad_index->message, "from 0 to 2"));
}

static void
test_multipoint_and_nonfinite_values (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (
    fixture, "wells.geojson",
    "{\"type\":\"FeatureCollection\",\"features\":["
    "{\"type\":\"Feature\",\"properties\":{\"v\":2.5},"
    "\"geometry\":{\"type\":\"MultiPoint\",\"coordinates\":[[1,2],[3,4,100],[5,6]]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":7},\"geometry\":{\"type\":\"Point\",\"coordinates\":[7,8]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":NaN},\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,9]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":Infinity},\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,9]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":-Infinity},\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,9]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":null},\"geometry\":{\"type\":\"Point\",\"coordinates\":[9,9]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":1},\"geometry\":null}"
    "]}");
  g_autoptr (ShepardPointLayer) points = read_ok (path, NULL, "v", NULL);

  g_assert_cmpuint (points->count, ==, 4);
  assert_point (points, 0, 1.0, 2.0, 2.5);
  assert_point (points, 1, 3.0, 4.0, 2.5);
  assert_point (points, 2, 5.0, 6.0, 2.5);
  assert_point (points, 3, 7.0, 8.0, 7.0);
  g_assert_cmpuint (points->skipped_nonfinite_value, ==, 3);
  g_assert_cmpuint (points->skipped_null_value, ==, 1);
  g_assert_cmpuint (points->skipped_empty_geometry, ==, 1);
  /* GeoJSON without a "crs" member is WGS 84 (RFC 7946). */
  g_assert_nonnull (points->crs_wkt);
  OGRSpatialReferenceH crs = OSRNewSpatialReference (points->crs_wkt);
  g_assert_true (OSRIsGeographic (crs));
  OSRDestroySpatialReference (crs);
}

static void
test_line_layer (Fixture *fixture, gconstpointer data)
{
  g_autofree char *lines = write_file (
    fixture, "lines.geojson",
    "{\"type\":\"FeatureCollection\",\"features\":["
    "{\"type\":\"Feature\",\"properties\":{\"v\":1},"
    "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[0,0],[1,1]]}}]}");
  g_autoptr (GError) line_layer = read_fails (lines, NULL, "v", NULL, SHEPARD_APP_ERROR_GEOMETRY);
  g_assert_nonnull (strstr (line_layer->message, "Line String"));

  g_autofree char *mixed = write_file (
    fixture, "mixed.geojson",
    "{\"type\":\"FeatureCollection\",\"features\":["
    "{\"type\":\"Feature\",\"properties\":{\"v\":1},\"geometry\":{\"type\":\"Point\",\"coordinates\":[0,0]}},"
    "{\"type\":\"Feature\",\"properties\":{\"v\":2},"
    "\"geometry\":{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}}]}");
  g_autoptr (GError) mixed_layer = read_fails (mixed, NULL, "v", NULL, SHEPARD_APP_ERROR_GEOMETRY);
  g_assert_nonnull (strstr (mixed_layer->message, "Polygon"));
}

static void
test_missing_file (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "absent.csv", NULL);
  g_autoptr (GError) error = read_fails (path, NULL, "v", NULL, SHEPARD_APP_ERROR_OPEN);

  g_assert_nonnull (strstr (error->message, path));
}

static void
test_not_a_vector_source (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "noise.bin", "\x01\x02\x03 not a vector format");
  GError *error = read_fails (path, NULL, "v", NULL, SHEPARD_APP_ERROR_OPEN);

  g_assert_nonnull (strstr (error->message, "as a vector source"));
  g_error_free (error);
}

/* Listing the fields of a file GDAL cannot open gives GDAL's reason, written into the sentence with one full stop. */
static void
test_list_fields_unreadable (Fixture *fixture, gconstpointer data)
{
  g_autofree char *noise = write_file (fixture, "noise.bin", "\x01\x02\x03 not a vector format");
  g_autofree char *absent = g_build_filename (fixture->directory, "absent.csv", NULL);
  const struct {
    const char *path, *reason;
  } cases[] = {
    { noise, "not recognized as a supported file format. Choose a vector file" },
    { absent, "No such file or directory. Choose a vector file" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr (GError) error = NULL;
      g_autofree char *start = g_strdup_printf ("Cannot open “%s” as a point layer: ", cases[i].path);
      g_assert_null (shepard_point_layer_list_numeric_fields (cases[i].path, NULL, &error));
      g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN);
      g_test_message ("%s", error->message);
      g_assert_true (g_str_has_prefix (error->message, start));
      g_assert_nonnull (strstr (error->message, cases[i].reason));
      g_assert_null (strstr (error->message, ".."));
    }
}

/* Several fields in one pass: each skips its own rows, by reason; fields over the same rows have the same points. */
static void
test_several_fields (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "fields.csv",
                                      "x,y,a,b,c,d\n"
                                      "0,0,1,10,100,7\n"
                                      "1,0,,20,200,\n"
                                      "2,0,3,NA,300,9\n"
                                      "3,0,4,40,abc,1\n"
                                      "4,0,5,50,500,2\n");
  const char *const fields[] = { "b", "a", "c", "d", NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (GPtrArray) read = shepard_point_layer_read_fields (path, NULL, fields, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (read->len, ==, 4);
  const ShepardPointLayer *b = g_ptr_array_index (read, 0), *a = g_ptr_array_index (read, 1);
  const ShepardPointLayer *c = g_ptr_array_index (read, 2), *d = g_ptr_array_index (read, 3);
  g_assert_cmpstr (b->field_name, ==, "b");
  g_assert_cmpstr (a->field_name, ==, "a");
  g_assert_cmpuint (b->count, ==, 4);
  g_assert_cmpuint (b->skipped_missing_value, ==, 1);
  g_assert_cmpuint (b->skipped_null_value, ==, 0);
  assert_point (b, 2, 3.0, 0.0, 40.0);
  g_assert_cmpuint (a->count, ==, 4);
  g_assert_cmpuint (a->skipped_null_value, ==, 1);
  g_assert_cmpuint (a->skipped_missing_value, ==, 0);
  assert_point (a, 1, 2.0, 0.0, 3.0);
  g_assert_cmpuint (c->count, ==, 4);
  g_assert_cmpuint (c->skipped_unparsable_value, ==, 1);
  assert_point (c, 3, 4.0, 0.0, 500.0);
  g_assert_cmpuint (d->count, ==, 4);
  assert_point (d, 0, 0.0, 0.0, 7.0);
  g_autofree char *skipped = shepard_point_layer_describe_skipped (c);
  g_assert_cmpstr (skipped, ==, "1 with a value that is not a number");

  /* a and d skip the same row: one engine can hold both; the others skip other rows. */
  g_assert_true (shepard_point_layer_same_points (a, d));
  g_assert_false (shepard_point_layer_same_points (a, b));
  g_assert_false (shepard_point_layer_same_points (b, c));
}

static void
test_several_fields_refused (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "fields.csv", "x,y,a,b,name\n0,0,1,2,p\n1,1,2,3,q\n");
  const char *const unknown[] = { "a", "nickel", "b", NULL };
  const char *const twice[] = { "a", "b", "A", NULL };
  const char *const text[] = { "a", "name", NULL };
  g_autoptr (GError) error = NULL;

  g_assert_null (shepard_point_layer_read_fields (path, NULL, unknown, NULL, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (error->message, "no field \"nickel\": its numeric fields are"));
  g_assert_nonnull (strstr (error->message, "\"a\", \"b\""));
  g_clear_error (&error);
  g_assert_null (shepard_point_layer_read_fields (path, NULL, twice, NULL, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (error->message, "\"A\" is given twice"));
  g_clear_error (&error);
  g_assert_null (shepard_point_layer_read_fields (path, NULL, text, NULL, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD);
  g_assert_nonnull (strstr (error->message, "\"name\""));
}

static int CPL_STDCALL
refuse_to_go_on (double fraction, const char *message, void *data)
{
  return FALSE;
}

static void
test_cancel (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_file (fixture, "few.csv", "x,y,v\n0,0,1\n1,1,2\n");
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardPointLayer) points = shepard_point_layer_read (path, NULL, "v", NULL, refuse_to_go_on, NULL,
                                                                   &error);

  g_assert_null (points);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();

#define ADD_TEST(path, function) \
  g_test_add ("/app/point-layer/" path, Fixture, NULL, fixture_set_up, function, fixture_tear_down)
  ADD_TEST ("csv/xy-names", test_csv_xy_names);
  ADD_TEST ("csv/lon-lat-names", test_csv_lon_lat_names);
  ADD_TEST ("csv/open-options", test_csv_open_options);
  ADD_TEST ("csv/null-values-skipped", test_csv_null_values_skipped);
  ADD_TEST ("csv/missing-and-unparsable-values", test_csv_missing_and_unparsable_values);
  ADD_TEST ("list-fields/unreadable", test_list_fields_unreadable);
  g_test_add_func ("/app/point-layer/csv/prj-keeps-crs", test_csv_with_prj_keeps_crs);
  g_test_add_func ("/app/point-layer/csv/meuse-organic-matter", test_meuse_organic_matter);
  g_test_add_func ("/app/point-layer/text-numbers", test_text_numbers);
  ADD_TEST ("geopackage/layers-fields-skips", test_geopackage);
  ADD_TEST ("geopackage/errors", test_geopackage_errors);
  ADD_TEST ("geojson/multipoint-and-nonfinite-values", test_multipoint_and_nonfinite_values);
  ADD_TEST ("bad-input/line-layer", test_line_layer);
  ADD_TEST ("bad-input/missing-file", test_missing_file);
  ADD_TEST ("fields/several", test_several_fields);
  ADD_TEST ("fields/refused", test_several_fields_refused);
  ADD_TEST ("bad-input/not-a-vector-source", test_not_a_vector_source);
  ADD_TEST ("cancel", test_cancel);
#undef ADD_TEST
  return g_test_run ();
}
