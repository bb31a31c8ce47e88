/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <cpl_conv.h>
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <string.h>
#include <unistd.h>

#include "point-layer-writer.h"
#include "point-layer.h"
#include "scratch-directory.h"
#include "shepard-app-error.h"

enum { N_POINTS = 5 };

/* RD New coordinates with all their digits, a null value and a negative one. */
static const double sample_x[N_POINTS] = { 181072.125, 181025.0, 181165.33333333334, 181298.0, 179187.5 };
static const double sample_y[N_POINTS] = { 333611.0, 333558.75, 333537.1, 333484.0, 330812.25 };
static const double sample_value[N_POINTS] = { 1022.5, NAN, -3.0000000000000004, 0.1, 1e-300 };
static const double sample_rank[N_POINTS] = { 0, 1, 2, 3, 4 };

static const ShepardPointField sample_fields[] = {
  { "value", sample_value },
  { "rank", sample_rank },
};

typedef struct {
  char *directory;
  char *crs_wkt;
} Fixture;

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  fixture->directory = scratch_directory_new ("shepard-writer-XXXXXX");
  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (crs, 28992), ==, OGRERR_NONE);
  char *wkt = NULL;
  const char *const options[] = { "FORMAT=WKT2_2018", NULL };
  g_assert_cmpint (OSRExportToWktEx (crs, &wkt, options), ==, OGRERR_NONE);
  fixture->crs_wkt = g_strdup (wkt);
  CPLFree (wkt);
  OSRRelease (crs);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  scratch_directory_remove (fixture->directory);
  g_free (fixture->directory);
  g_free (fixture->crs_wkt);
}

static void
write_ok (const char *path, const char *crs_wkt, const ShepardPointField *fields, size_t n_fields)
{
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_point_layer_write (path, NULL, NULL, crs_wkt, sample_x, sample_y, N_POINTS, fields, n_fields,
                                            &error));
  g_assert_no_error (error);
}

static void
assert_same_crs (const char *actual_wkt, const char *expected_wkt)
{
  g_assert_nonnull (actual_wkt);
  OGRSpatialReferenceH actual = OSRNewSpatialReference (actual_wkt);
  OGRSpatialReferenceH expected = OSRNewSpatialReference (expected_wkt);
  const char *const criteria[] = { "IGNORE_DATA_AXIS_TO_SRS_AXIS_MAPPING=YES", NULL };

  g_assert_true (OSRIsSameEx (actual, expected, criteria));
  OSRRelease (actual);
  OSRRelease (expected);
}

/* Within tolerance of expected, relative to it or, near zero, absolute. */
static void
assert_close (double actual, double expected, double tolerance)
{
  if (tolerance == 0.0)
    g_assert_cmpfloat (actual, ==, expected);
  else
    g_assert_cmpfloat (fabs (actual - expected), <=, tolerance * MAX (1.0, fabs (expected)));
}

/* Reads the layer back with the point reader: the points with a value, in order, and every rank; numbers within
 * tolerance (0: exactly) where the format writes them as text. */
static void
assert_read_back_within (const char *path, const char *crs_wkt, double tolerance)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardPointLayer) values = shepard_point_layer_read (path, NULL, "value", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_autoptr (ShepardPointLayer) ranks = shepard_point_layer_read (path, NULL, "rank", NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  g_assert_cmpuint (ranks->count, ==, N_POINTS);
  for (size_t i = 0; i < N_POINTS; i++)
    {
      assert_close (ranks->x[i], sample_x[i], tolerance);
      assert_close (ranks->y[i], sample_y[i], tolerance);
      g_assert_cmpfloat (ranks->z[i], ==, sample_rank[i]);
    }
  g_assert_cmpuint (values->count, ==, N_POINTS - 1);
  g_assert_cmpuint (values->skipped_null_value, ==, 1);
  for (size_t i = 0, j = 0; i < N_POINTS; i++)
    {
      if (isnan (sample_value[i]))
        continue;
      assert_close (values->x[j], sample_x[i], tolerance);
      assert_close (values->y[j], sample_y[i], tolerance);
      assert_close (values->z[j], sample_value[i], tolerance);
      j++;
    }
  if (crs_wkt != NULL)
    assert_same_crs (values->crs_wkt, crs_wkt);
  else
    g_assert_null (values->crs_wkt);
}

static void
assert_read_back (const char *path, const char *crs_wkt)
{
  assert_read_back_within (path, crs_wkt, 0.0);
}

typedef struct {
  const char *file_name;
  const char *files; /* what the directory holds afterwards */
  double tolerance;  /* CSV and GML write 15 significant digits, a Shapefile's table 15 decimals */
} RoundTrip;

static const RoundTrip round_trips[] = {
  { "points.gpkg", "points.gpkg", 0.0 },
  { "points.csv", "points.csv points.prj", 1e-14 },
  { "points.shp", "points.dbf points.prj points.shp points.shx", 1e-14 },
  { "points.geojson", "points.geojson", 0.0 },
  { "points.fgb", "points.fgb", 0.0 },
  { "POINTS.SQLITE", "POINTS.SQLITE", 0.0 },
  { "points.gml", "points.gml points.xsd", 1e-14 },
  /* Outside the writer's own list: GDAL's driver for the extension. */
  { "points.jml", "points.jml", 1e-14 },
};

static void
test_round_trip (Fixture *fixture, gconstpointer data)
{
  const RoundTrip *round_trip = data;
  g_autofree char *path = g_build_filename (fixture->directory, round_trip->file_name, NULL);

  write_ok (path, fixture->crs_wkt, sample_fields, G_N_ELEMENTS (sample_fields));
  g_autofree char *files = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files, ==, round_trip->files);
  assert_read_back_within (path, fixture->crs_wkt, round_trip->tolerance);
}

/* Columns X and Y, which the point reader finds without open options. */
static void
test_csv_columns (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "columns.csv", NULL);
  g_autofree char *contents = NULL;

  write_ok (path, NULL, sample_fields, G_N_ELEMENTS (sample_fields));
  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_true (g_str_has_prefix (contents, "X,Y,value,rank\n"));
  g_autofree char *files = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files, ==, "columns.csv");
  assert_read_back_within (path, NULL, 1e-14);
}

static void
test_layer_name (Fixture *fixture, gconstpointer data)
{
  g_autofree char *named = g_build_filename (fixture->directory, "named.gpkg", NULL);
  g_autofree char *unnamed = g_build_filename (fixture->directory, "sandbox.points.gpkg", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_point_layer_write (named, NULL, "samples", NULL, sample_x, sample_y, N_POINTS, sample_fields,
                                            1, &error));
  g_assert_no_error (error);
  write_ok (unnamed, NULL, sample_fields, 1);
  g_autoptr (ShepardPointLayer) first = shepard_point_layer_read (named, NULL, "value", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (first->layer_name, ==, "samples");
  g_autoptr (ShepardPointLayer) second = shepard_point_layer_read (unnamed, NULL, "value", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (second->layer_name, ==, "sandbox.points");
}

/* The driver by name wins over the extension. */
static void
test_driver_by_name (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "points.dat", NULL);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_point_layer_write (path, "GPKG", NULL, fixture->crs_wkt, sample_x, sample_y, N_POINTS,
                                            sample_fields, G_N_ELEMENTS (sample_fields), &error));
  g_assert_no_error (error);
  assert_read_back (path, fixture->crs_wkt);

  g_autofree char *raster = g_build_filename (fixture->directory, "points.tif", NULL);
  g_assert_false (shepard_point_layer_write (raster, "GTiff", NULL, NULL, sample_x, sample_y, N_POINTS,
                                             sample_fields, 1, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT);
  g_assert_false (g_file_test (raster, G_FILE_TEST_EXISTS));
}

static void
assert_fails_leaving (const char *directory, const char *path, const char *const *expected_files, int code,
                      const char *message_part)
{
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_point_layer_write (path, NULL, NULL, NULL, sample_x, sample_y, N_POINTS, sample_fields,
                                             G_N_ELEMENTS (sample_fields), &error));
  g_assert_error (error, SHEPARD_APP_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, message_part));
  g_autofree char *files = scratch_directory_list (directory);
  g_autofree char *expected = g_strjoinv (" ", (char **) expected_files);
  g_assert_cmpstr (files, ==, expected);
}

static void
test_unknown_extension (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "points.xyz", NULL);
  g_autofree char *bare = g_build_filename (fixture->directory, "points", NULL);
  const char *const nothing[] = { NULL };

  assert_fails_leaving (fixture->directory, path, nothing, SHEPARD_APP_ERROR_FORMAT, "gpkg, .csv, .shp");
  assert_fails_leaving (fixture->directory, bare, nothing, SHEPARD_APP_ERROR_FORMAT, ".geojson");
}

/* A format of GDAL's that keeps no geometries (a spreadsheet) would lose the points: refused before anything is
 * written. */
static void
test_format_without_geometries (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "points.xlsx", NULL);
  const char *const nothing[] = { NULL };

  assert_fails_leaving (fixture->directory, path, nothing, SHEPARD_APP_ERROR_FORMAT, "XLSX format keeps no geometries");
}

/* KML keeps WGS 84 whatever the points' CRS: the driver transforms them, as OGR does. */
static void
test_format_with_its_own_crs (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "points.kml", NULL);
  g_autoptr (GError) error = NULL;

  write_ok (path, fixture->crs_wkt, sample_fields, G_N_ELEMENTS (sample_fields));
  g_autofree char *files = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files, ==, "points.kml");
  g_autoptr (ShepardPointLayer) ranks = shepard_point_layer_read (path, NULL, "rank", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (ranks->count, ==, N_POINTS);

  OGRSpatialReferenceH rd_new = OSRNewSpatialReference (fixture->crs_wkt);
  OGRSpatialReferenceH wgs84 = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (wgs84, 4326), ==, OGRERR_NONE);
  OSRSetAxisMappingStrategy (rd_new, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy (wgs84, OAMS_TRADITIONAL_GIS_ORDER);
  char *wgs84_wkt = NULL;
  g_assert_cmpint (OSRExportToWkt (wgs84, &wgs84_wkt), ==, OGRERR_NONE);
  assert_same_crs (ranks->crs_wkt, wgs84_wkt);
  CPLFree (wgs84_wkt);
  OGRCoordinateTransformationH to_wgs84 = OCTNewCoordinateTransformation (rd_new, wgs84);
  double longitude[N_POINTS], latitude[N_POINTS];
  memcpy (longitude, sample_x, sizeof longitude);
  memcpy (latitude, sample_y, sizeof latitude);
  g_assert_true (OCTTransform (to_wgs84, N_POINTS, longitude, latitude, NULL));
  /* 15 significant digits of a degree. */
  for (size_t i = 0; i < N_POINTS; i++)
    {
      g_assert_cmpfloat_with_epsilon (ranks->x[i], longitude[i], 1e-12);
      g_assert_cmpfloat_with_epsilon (ranks->y[i], latitude[i], 1e-12);
      g_assert_cmpfloat (ranks->z[i], ==, sample_rank[i]);
    }
  OCTDestroyCoordinateTransformation (to_wgs84);
  OSRRelease (wgs84);
  OSRRelease (rd_new);
}

static void
test_unwritable_directory (Fixture *fixture, gconstpointer data)
{
  g_autofree char *missing = g_build_filename (fixture->directory, "missing", "points.gpkg", NULL);
  g_autofree char *file = g_build_filename (fixture->directory, "file", NULL);
  g_autofree char *under_file = g_build_filename (file, "points.gpkg", NULL);
  g_autofree char *directory = g_build_filename (fixture->directory, "directory.gpkg", NULL);
  const char *const only_file[] = { "file", NULL };
  const char *const file_and_directory[] = { "directory.gpkg", "file", NULL };

  g_assert_true (g_file_set_contents (file, "not a directory", -1, NULL));
  assert_fails_leaving (fixture->directory, missing, only_file, SHEPARD_APP_ERROR_WRITE, "directory");
  assert_fails_leaving (fixture->directory, under_file, only_file, SHEPARD_APP_ERROR_WRITE, "directory");
  g_assert_cmpint (g_mkdir (directory, 0700), ==, 0);
  assert_fails_leaving (fixture->directory, directory, file_and_directory, SHEPARD_APP_ERROR_WRITE, "is a directory");

  /* Read-only, where the user is not root (root writes anyway). */
  g_autofree char *locked = g_build_filename (fixture->directory, "locked", NULL);
  g_autofree char *in_locked = g_build_filename (locked, "points.gpkg", NULL);
  g_assert_cmpint (g_mkdir (locked, 0500), ==, 0);
  if (g_access (locked, W_OK) != 0)
    {
      const char *const nothing[] = { NULL };
      assert_fails_leaving (locked, in_locked, nothing, SHEPARD_APP_ERROR_WRITE, "locked");
    }
  g_chmod (locked, 0700);
}

/* Every file of the directory, name and bytes, in name order. */
static GBytes *
directory_bytes (const char *directory)
{
  g_autofree char *listing = scratch_directory_list (directory);
  g_auto (GStrv) names = g_strsplit (listing, " ", -1);
  GByteArray *all = g_byte_array_new ();

  for (char **name = names; *name != NULL && **name != '\0'; name++)
    {
      g_autofree char *path = g_build_filename (directory, *name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_byte_array_append (all, (const guint8 *) *name, strlen (*name) + 1);
      g_byte_array_append (all, (const guint8 *) contents, length);
    }
  return g_byte_array_free_to_bytes (all);
}

static gboolean
refuse_half_way (double fraction, const char *message, void *data)
{
  return fraction < 0.5;
}

/* Failures after the dataset was created (a field the driver refuses, a cancel): the old file stays as it was. */
static void
test_failure_keeps_existing (Fixture *fixture, gconstpointer data)
{
  const char *file_name = data;
  g_autofree char *path = g_build_filename (fixture->directory, file_name, NULL);
  const ShepardPointField twice[] = { { "value", sample_value }, { "value", sample_rank } };
  g_autoptr (GError) error = NULL;

  write_ok (path, fixture->crs_wkt, sample_fields, G_N_ELEMENTS (sample_fields));
  g_autofree char *files_before = scratch_directory_list (fixture->directory);
  g_autoptr (GBytes) before = directory_bytes (fixture->directory);

  if (g_str_has_suffix (file_name, ".gpkg"))
    {
      g_assert_false (shepard_point_layer_write (path, NULL, NULL, NULL, sample_x, sample_y, N_POINTS, twice, 2,
                                                 &error));
      g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
      g_test_message ("%s", error->message);
      g_clear_error (&error);
    }
  /* Enough points for several progress calls, so that the cancel comes inside the writing. */
  enum { MANY = 50000 };
  g_autofree double *x = g_new (double, MANY);
  g_autofree double *y = g_new (double, MANY);
  for (size_t i = 0; i < MANY; i++)
    {
      x[i] = 180000.0 + (double) i;
      y[i] = 330000.0;
    }
  const ShepardPointField coordinates[] = { { "x", x } };
  g_assert_false (shepard_point_layer_write_full (path, NULL, NULL, NULL, x, y, MANY, coordinates, 1,
                                                  refuse_half_way, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);

  g_autofree char *files_after = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files_after, ==, files_before);
  g_autoptr (GBytes) after = directory_bytes (fixture->directory);
  g_assert_true (g_bytes_equal (before, after));
  assert_read_back_within (path, fixture->crs_wkt, 1e-14);
}

static void
test_overwrite (Fixture *fixture, gconstpointer data)
{
  const char *file_name = data;
  g_autofree char *path = g_build_filename (fixture->directory, file_name, NULL);
  const double other_x[2] = { 1.0, 2.0 }, other_y[2] = { 3.0, 4.0 }, other_value[2] = { 5.0, 6.0 };
  const ShepardPointField other_fields[] = { { "value", other_value } };
  g_autoptr (GError) error = NULL;

  write_ok (path, fixture->crs_wkt, sample_fields, G_N_ELEMENTS (sample_fields));
  g_autofree char *files_first = scratch_directory_list (fixture->directory);
  /* Without a CRS this time: a .prj of the old file must not describe the new one. */
  g_assert_true (shepard_point_layer_write (path, NULL, NULL, NULL, other_x, other_y, 2, other_fields, 1, &error));
  g_assert_no_error (error);

  g_autoptr (ShepardPointLayer) points = shepard_point_layer_read (path, NULL, "value", NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (points->count, ==, 2);
  g_assert_cmpfloat (points->x[1], ==, 2.0);
  g_assert_cmpfloat (points->z[1], ==, 6.0);
  /* A GeoPackage without a CRS says "undefined Cartesian": anything but the old one. */
  if (points->crs_wkt != NULL)
    {
      OGRSpatialReferenceH actual = OSRNewSpatialReference (points->crs_wkt);
      OGRSpatialReferenceH old = OSRNewSpatialReference (fixture->crs_wkt);
      g_assert_false (OSRIsSame (actual, old));
      OSRRelease (actual);
      OSRRelease (old);
    }
  g_autofree char *files = scratch_directory_list (fixture->directory);
  g_test_message ("before: %s; after: %s", files_first, files);
  g_assert_null (strstr (files, ".prj"));
  g_assert_null (strstr (files, ".shepard-"));
}

/* A new layer beside another dataset's files: a Shapefile's .prj is not the new CSV's to replace or remove, with a
 * CRS (the CSV would write its own .prj) or without (its stale side-cars would go). */
static void
test_side_cars_of_another_file (Fixture *fixture, gconstpointer data)
{
  g_autofree char *shapefile = g_build_filename (fixture->directory, "points.shp", NULL);
  g_autofree char *csv = g_build_filename (fixture->directory, "points.csv", NULL);
  g_autoptr (GError) error = NULL;

  write_ok (shapefile, fixture->crs_wkt, sample_fields, G_N_ELEMENTS (sample_fields));
  g_autofree char *files_before = scratch_directory_list (fixture->directory);
  g_autoptr (GBytes) before = directory_bytes (fixture->directory);

  g_assert_false (shepard_point_layer_write (csv, NULL, NULL, fixture->crs_wkt, sample_x, sample_y, N_POINTS,
                                             sample_fields, G_N_ELEMENTS (sample_fields), &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "points.prj"));
  g_clear_error (&error);
  g_autofree char *files_refused = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files_refused, ==, files_before);
  g_autoptr (GBytes) after_refusal = directory_bytes (fixture->directory);
  g_assert_true (g_bytes_equal (before, after_refusal));

  g_autofree char *prj = g_build_filename (fixture->directory, "points.prj", NULL);
  g_autofree char *prj_before = NULL, *prj_after = NULL;
  g_assert_true (g_file_get_contents (prj, &prj_before, NULL, NULL));
  write_ok (csv, NULL, sample_fields, G_N_ELEMENTS (sample_fields));
  g_assert_true (g_file_get_contents (prj, &prj_after, NULL, NULL));
  g_assert_cmpstr (prj_after, ==, prj_before);
}

static void
test_nonfinite_coordinates (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "points.gpkg", NULL);
  const double x[2] = { 1.0, NAN }, y[2] = { 3.0, 4.0 }, value[2] = { 5.0, 6.0 };
  const ShepardPointField fields[] = { { "value", value } };
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_point_layer_write (path, NULL, NULL, NULL, x, y, 2, fields, 1, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_nonnull (strstr (error->message, "point 1"));
  g_autofree char *files = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (files, ==, "");
}

#define ADD(path, data, function) \
  g_test_add (path, Fixture, data, fixture_set_up, function, fixture_tear_down)

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();

  for (size_t i = 0; i < G_N_ELEMENTS (round_trips); i++)
    {
      g_autofree char *path = g_strconcat ("/app/point-layer-writer/round-trip/", round_trips[i].file_name, NULL);
      ADD (path, &round_trips[i], test_round_trip);
    }
  ADD ("/app/point-layer-writer/csv-columns", NULL, test_csv_columns);
  ADD ("/app/point-layer-writer/layer-name", NULL, test_layer_name);
  ADD ("/app/point-layer-writer/side-cars-of-another-file", NULL, test_side_cars_of_another_file);
  ADD ("/app/point-layer-writer/driver-by-name", NULL, test_driver_by_name);
  ADD ("/app/point-layer-writer/unknown-extension", NULL, test_unknown_extension);
  ADD ("/app/point-layer-writer/format-without-geometries", NULL, test_format_without_geometries);
  ADD ("/app/point-layer-writer/format-with-its-own-crs", NULL, test_format_with_its_own_crs);
  ADD ("/app/point-layer-writer/unwritable-directory", NULL, test_unwritable_directory);
  ADD ("/app/point-layer-writer/failure-keeps-existing/gpkg", "points.gpkg", test_failure_keeps_existing);
  ADD ("/app/point-layer-writer/failure-keeps-existing/shp", "points.shp", test_failure_keeps_existing);
  ADD ("/app/point-layer-writer/overwrite/gpkg", "points.gpkg", test_overwrite);
  ADD ("/app/point-layer-writer/overwrite/shp", "points.shp", test_overwrite);
  ADD ("/app/point-layer-writer/overwrite/csv", "points.csv", test_overwrite);
  ADD ("/app/point-layer-writer/nonfinite-coordinates", NULL, test_nonfinite_coordinates);
  return g_test_run ();
}
