/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Context layers: lines and polygon rings read as strips, reprojected into the map's CRS, point layers refused. */
#include <cpl_conv.h>
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <ogr_srs_api.h>

#include "context-layer.h"
#include "scratch-directory.h"
#include "shepard-app-error.h"

static char *directory;

static char *
crs_wkt (int epsg)
{
  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);
  char *wkt = NULL;

  g_assert_cmpint (OSRImportFromEPSG (crs, epsg), ==, OGRERR_NONE);
  g_assert_cmpint (OSRExportToWkt (crs, &wkt), ==, OGRERR_NONE);
  OSRDestroySpatialReference (crs);
  char *copy = g_strdup (wkt);
  CPLFree (wkt);
  return copy;
}

/* A GeoJSON file of the features given (a comma-separated list), in EPSG:epsg, or in WGS 84 (GeoJSON's default)
 * for 0. */
static char *
write_geojson (const char *name, int epsg, const char *features)
{
  g_autofree char *crs = epsg > 0 ? g_strdup_printf ("\"crs\":{\"type\":\"name\",\"properties\":{\"name\":"
                                                     "\"urn:ogc:def:crs:EPSG::%d\"}},",
                                                     epsg)
                                  : g_strdup ("");
  g_autofree char *text = g_strdup_printf ("{\"type\":\"FeatureCollection\",%s\"features\":[%s]}", crs, features);
  char *path = g_build_filename (directory, name, NULL);

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  return path;
}

#define FEATURE(geometry) "{\"type\":\"Feature\",\"properties\":{},\"geometry\":" geometry "}"

static void
assert_vertex (const ShepardContextLayer *context, size_t i, double x, double y, double tolerance)
{
  g_assert_cmpuint (i, <, context->n_vertices);
  if (fabs (context->x[i] - x) > tolerance || fabs (context->y[i] - y) > tolerance)
    g_error ("vertex %zu is (%.6f, %.6f), not (%.6f, %.6f) within %g", i, context->x[i], context->y[i], x, y,
             tolerance);
}

static void
test_lines_and_rings (void)
{
  g_autofree char *path = write_geojson (
    "shapes.geojson", 0,
    FEATURE ("{\"type\":\"LineString\",\"coordinates\":[[0,0],[10,0],[10,5]]}") ","
    FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[4,0],[4,4],[0,0]],[[1,1],[2,1],[2,2],[1,1]]]}") ","
    FEATURE ("{\"type\":\"MultiLineString\",\"coordinates\":[[[7,7],[8,8]],[[9,9],[9,10],[9,11]]]}") ","
    FEATURE ("null"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardContextLayer) context = shepard_context_layer_read (path, NULL, NULL, &error);

  g_assert_no_error (error);
  /* The line, the polygon's outer ring and its hole, the two parts of the multi-line. */
  g_assert_cmpuint (context->n_strips, ==, 5);
  const size_t starts[] = { 0, 3, 7, 11, 13, 16 };
  for (size_t i = 0; i <= context->n_strips; i++)
    g_assert_cmpuint (context->strip_start[i], ==, starts[i]);
  g_assert_cmpuint (context->n_vertices, ==, 16);
  assert_vertex (context, 2, 10, 5, 0);
  /* A ring comes closed, as drawn. */
  assert_vertex (context, 3, 0, 0, 0);
  assert_vertex (context, 6, 0, 0, 0);
  assert_vertex (context, 8, 2, 1, 0);
  assert_vertex (context, 15, 9, 11, 0);
  g_assert_false (context->reprojected);
}

/* The meuse river outline beside the meuse samples: the same CRS, nothing to transform. */
static void
test_meuse_river (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse-river.geojson", NULL);
  g_autofree char *rd_new = crs_wkt (28992);
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardContextLayer) context = shepard_context_layer_read (path, NULL, rd_new, &error);

  g_assert_no_error (error);
  g_assert_false (context->reprojected);
  /* sp's meuse.riv: 176 vertices, the first repeated at the end. */
  g_assert_cmpuint (context->n_strips, ==, 1);
  g_assert_cmpuint (context->n_vertices, ==, 176);
  assert_vertex (context, 175, context->x[0], context->y[0], 0);
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  for (size_t i = 0; i < context->n_vertices; i++)
    {
      x_min = MIN (x_min, context->x[i]);
      x_max = MAX (x_max, context->x[i]);
      y_min = MIN (y_min, context->y[i]);
      y_max = MAX (y_max, context->y[i]);
    }
  /* The extent ogrinfo reports for the file; the samples (178605-181390, 329714-333611) lie inside it. */
  g_assert_cmpfloat_with_epsilon (x_min, 178304.0, 1e-6);
  g_assert_cmpfloat_with_epsilon (x_max, 182331.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (y_min, 325698.5, 1e-6);
  g_assert_cmpfloat_with_epsilon (y_max, 337684.8, 1e-6);
}

/* Points whose projected coordinates the projections' definitions give: RD New's natural origin (52°09'22.178" N,
 * 5°23'15.500" E on the Amersfoort datum) is at its false easting and northing (155000, 463000); on UTM zone 31N
 * the central meridian 3° E at the equator is at (500000, 0), and 3° E stays at easting 500000 northwards. */
static void
test_reprojected (void)
{
  double lat0 = 52 + 9 / 60.0 + 22.178 / 3600, lon0 = 5 + 23 / 60.0 + 15.5 / 3600;
  g_autofree char *feature = g_strdup_printf (
    FEATURE ("{\"type\":\"LineString\",\"coordinates\":[[%.12f,%.12f],[%.12f,%.12f]]}"), lon0, lat0, lon0, lat0 + 0.01);
  g_autofree char *amersfoort = write_geojson ("amersfoort.geojson", 4289, feature);
  g_autofree char *rd_new = crs_wkt (28992);
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardContextLayer) rd = shepard_context_layer_read (amersfoort, NULL, rd_new, &error);

  g_assert_no_error (error);
  g_assert_true (rd->reprojected);
  assert_vertex (rd, 0, 155000, 463000, 1e-3);
  /* 0.01° of latitude northwards along the central meridian: about 1.11 km north, no easting. */
  g_assert_cmpfloat_with_epsilon (rd->x[1], 155000, 1e-3);
  g_assert_cmpfloat (rd->y[1] - 463000, >, 1100);
  g_assert_cmpfloat (rd->y[1] - 463000, <, 1120);

  g_autofree char *wgs84 = write_geojson (
    "wgs84.geojson", 4326, FEATURE ("{\"type\":\"LineString\",\"coordinates\":[[3,0],[3,45]]}"));
  g_autofree char *utm31 = crs_wkt (32631);
  g_autoptr (ShepardContextLayer) utm = shepard_context_layer_read (wgs84, NULL, utm31, &error);
  g_assert_no_error (error);
  g_assert_true (utm->reprojected);
  assert_vertex (utm, 0, 500000, 0, 1e-3);
  g_assert_cmpfloat_with_epsilon (utm->x[1], 500000, 1e-3);

  /* Taken as it is: a layer without a CRS, and a map without one. */
  /* GeoJSON always has a CRS (WGS 84 by default); a CSV with a WKT column has none. */
  g_autofree char *plain = g_build_filename (directory, "plain.csv", NULL);
  g_assert_true (g_file_set_contents (plain, "id,WKT\n1,\"LINESTRING (3 0,3 45)\"\n", -1, NULL));
  g_autoptr (ShepardContextLayer) as_is = shepard_context_layer_read (plain, NULL, utm31, &error);
  g_assert_no_error (error);
  g_assert_false (as_is->reprojected);
  assert_vertex (as_is, 1, 3, 45, 0);
  g_autoptr (ShepardContextLayer) no_map_crs = shepard_context_layer_read (wgs84, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (no_map_crs->reprojected);
  assert_vertex (no_map_crs, 1, 3, 45, 0);
}

static void
test_points_refused (void)
{
  g_autofree char *points = write_geojson (
    "points.geojson", 4326,
    FEATURE ("{\"type\":\"Point\",\"coordinates\":[3,0]}") "," FEATURE ("{\"type\":\"Point\",\"coordinates\":[4,1]}"));
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardContextLayer) context = shepard_context_layer_read (points, NULL, NULL, &error);

  g_assert_null (context);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "holds points"));
  g_assert_nonnull (strstr (error->message, "not lines or polygons"));

  /* The sample's point layer itself. */
  g_clear_error (&error);
  g_autofree char *meuse = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  g_assert_null (shepard_context_layer_read (meuse, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY);
  g_test_message ("%s", error->message);

  g_clear_error (&error);
  g_autofree char *missing = g_build_filename (directory, "missing.gpkg", NULL);
  g_assert_null (shepard_context_layer_read (missing, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();
  directory = scratch_directory_new ("shepard-context-XXXXXX");

  g_test_add_func ("/app/context-layer/lines-and-rings", test_lines_and_rings);
  g_test_add_func ("/app/context-layer/meuse-river", test_meuse_river);
  g_test_add_func ("/app/context-layer/reprojected", test_reprojected);
  g_test_add_func ("/app/context-layer/points-refused", test_points_refused);
  int status = g_test_run ();
  scratch_directory_remove (directory);
  g_free (directory);
  return status;
}
