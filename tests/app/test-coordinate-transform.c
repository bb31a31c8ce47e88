/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Layer coordinates to latitude and longitude through OGR, against published positions. */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "coordinate-transform.h"

static char *
meuse_prj (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.prj", NULL);
  char *wkt = NULL;

  g_assert_true (g_file_get_contents (path, &wkt, NULL, NULL));
  return wkt;
}

static void
test_rd_new (void)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *wkt = meuse_prj ();
  g_autoptr (ShepardCoordinateTransform) transform = shepard_coordinate_transform_new (wkt, &error);
  double latitude, longitude;

  g_assert_no_error (error);
  g_assert_cmpstr (shepard_coordinate_transform_get_crs_name (transform), ==, "EPSG:28992");
  g_assert_false (shepard_coordinate_transform_is_geographic (transform));
  g_assert_cmpfloat (shepard_coordinate_transform_get_metres_per_unit (transform), ==, 1.0);

  /* RD New's origin, the tower of Onze Lieve Vrouw in Amersfoort (155000, 463000), lies at 52.15517440°N
   * 5.38720621°E in ETRS89/WGS 84 (RDNAPTRANS). Without the RDNAPTRANS grid, PROJ goes through the EPSG Helmert
   * transformation, good to about a metre; here it lands 0.2 m away, so the test allows 5e-6° (0.35 m north-south,
   * 0.55 m east-west at this latitude). Latitude is y and longitude x whatever EPSG:4326's axis order. */
  g_assert_true (shepard_coordinate_transform_to_lat_lon (transform, 155000, 463000, &latitude, &longitude));
  g_assert_cmpfloat_with_epsilon (latitude, 52.15517440, 5e-6);
  g_assert_cmpfloat_with_epsilon (longitude, 5.38720621, 5e-6);

  /* The meuse samples, along the river near Stein: about 50.97°N 5.74°E. */
  g_assert_true (shepard_coordinate_transform_to_lat_lon (transform, 179800, 330100, &latitude, &longitude));
  g_autofree char *text = shepard_coordinate_transform_format_lat_lon (latitude, longitude, 2);
  g_assert_cmpstr (text, ==, "50.96°N 5.74°E");
}

static void
test_geographic (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardCoordinateTransform) transform = shepard_coordinate_transform_new ("EPSG:4326", &error);
  double latitude, longitude;

  g_assert_no_error (error);
  g_assert_true (shepard_coordinate_transform_is_geographic (transform));
  g_assert_cmpfloat (shepard_coordinate_transform_get_metres_per_unit (transform), ==, 0.0);
  /* x is longitude even though EPSG:4326 lists latitude first. */
  g_assert_true (shepard_coordinate_transform_to_lat_lon (transform, -70.25, 43.5, &latitude, &longitude));
  g_assert_cmpfloat_with_epsilon (latitude, 43.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (longitude, -70.25, 1e-12);
  g_autofree char *text = shepard_coordinate_transform_format_lat_lon (latitude, longitude, 2);
  g_assert_cmpstr (text, ==, "43.50°N 70.25°W");
}

static void
test_unreadable (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardCoordinateTransform) transform = shepard_coordinate_transform_new ("not a CRS", &error);

  g_assert_null (transform);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, ".prj"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/coordinate-transform/rd-new", test_rd_new);
  g_test_add_func ("/coordinate-transform/geographic", test_geographic);
  g_test_add_func ("/coordinate-transform/unreadable", test_unreadable);
  return g_test_run ();
}
