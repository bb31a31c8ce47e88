/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-gdal-grid.h"

#include "cli-harness.h"
#include "cli-points.h"

char *
cli_gdal_grid_find_or_skip (void)
{
  char *gdal_grid = g_find_program_in_path ("gdal_grid");

  if (gdal_grid == NULL)
    g_test_skip ("gdal_grid is not installed (Debian package gdal-bin)");
  return gdal_grid;
}

CliRaster *
cli_gdal_grid_meuse (const char *gdal_grid, const char *directory, const char *method, const char *const *grid_args)
{
  g_autofree char *csv = cli_source_path ("data/meuse.csv");
  g_autofree char *geopackage = g_build_filename (directory, "meuse.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "gdal_grid.tif", NULL);
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) environment = g_get_environ ();
  g_autofree char *standard_error = NULL;
  int wait_status = 0;

  /* gdal_grid 3.6 cannot take CSV open options: it gets a GeoPackage of the same points. */
  if (!g_file_test (geopackage, G_FILE_TEST_EXISTS))
    {
      g_autoptr (CliPoints) points = cli_points_read_csv (csv, "zinc");
      cli_points_write_gpkg_layer (points, geopackage, "meuse", "zinc", CLI_GEOMETRY_POINTS);
    }
  const char *leading_args[] = { gdal_grid, "-q", "-l", "meuse", "-zfield", "zinc", "-a", method,
                                 "-ot", "Float64", "-of", "GTiff" };
  for (gsize i = 0; i < G_N_ELEMENTS (leading_args); i++)
    g_ptr_array_add (argv, (gpointer) leading_args[i]);
  for (const char *const *arg = grid_args; *arg != NULL; arg++)
    g_ptr_array_add (argv, (gpointer) *arg);
  g_ptr_array_add (argv, geopackage);
  g_ptr_array_add (argv, output);
  g_ptr_array_add (argv, NULL);

  /* Its exact path: the AVX and SSE paths use approximate reciprocals. */
  environment = g_environ_setenv (environment, "GDAL_USE_AVX", "NO", TRUE);
  environment = g_environ_setenv (environment, "GDAL_USE_SSE", "NO", TRUE);
  g_spawn_sync (NULL, (char **) argv->pdata, environment, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL,
                &standard_error, &wait_status, &error);
  g_assert_no_error (error);
  g_spawn_check_wait_status (wait_status, &error);
  if (error != NULL)
    g_test_message ("gdal_grid failed: %s", standard_error);
  g_assert_no_error (error);
  return cli_raster_read (output);
}
