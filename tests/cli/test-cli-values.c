/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid's surfaces, every cell, against an independent float64 IDW/AIDW and against gdal_grid. */
#include "cli-gdal-grid.h"
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"
#include "cli-reference.h"

#include <math.h>

/* The float32 engine path stays within 1e-5 relative of float64 (docs/METHOD.md). */
#define RELATIVE_TOLERANCE 1e-5

#define MEUSE_GRID "-txe", "178600", "181600", "-tye", "329600", "333600", "-outsize", "60", "80"

static void
assert_relative (double actual, double expected, double tolerance)
{
  g_assert_cmpfloat_with_epsilon (actual, expected, tolerance * fabs (expected));
}

/* Runs the tool on the meuse zinc sample with this method on the 50 m grid. The output type picks the engine's
 * path: Float32 (the default) its fast float32 path, Float64 its float64 reference path. */
static CliRaster *
run_meuse_method (const char *directory, const char *method, const char *output_type, const char *alpha_output)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "surface.tif", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *fixed_args[] = { "-zfield", "zinc", "-a", method, MEUSE_GRID, "-ot", output_type, "-q" };

  for (gsize i = 0; i < G_N_ELEMENTS (fixed_args); i++)
    g_ptr_array_add (args, (gpointer) fixed_args[i]);
  if (alpha_output != NULL)
    {
      g_ptr_array_add (args, "--alpha-out");
      g_ptr_array_add (args, (gpointer) alpha_output);
    }
  g_ptr_array_add (args, source);
  g_ptr_array_add (args, output);
  g_ptr_array_add (args, NULL);

  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);
  cli_assert_success (run);
  return cli_raster_read (output);
}

static CliPoints *
meuse_zinc (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");

  return cli_points_read_csv (source, "zinc");
}

/* Every cell of the tool's surface against the reference (60 x 80 cells, 155 points: cheap). */
static void
assert_idw_cells (const char *method, double power, int neighbors, const char *output_type)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autoptr (CliPoints) points = meuse_zinc ();
  g_autoptr (CliRaster) raster = run_meuse_method (directory, method, output_type, NULL);
  double max_relative_difference = 0.0;

  cli_raster_assert_grid (raster, 178600, 181600, 329600, 333600, 60, 80);
  for (int row = 0; row < raster->height; row++)
    {
      for (int column = 0; column < raster->width; column++)
        {
          double x, y;
          cli_raster_cell_centre (raster, row, column, &x, &y);
          double expected = cli_reference_idw (points, x, y, power, neighbors);
          double value = cli_raster_value (raster, row, column);
          max_relative_difference = fmax (max_relative_difference, fabs (value - expected) / fabs (expected));
          assert_relative (value, expected, RELATIVE_TOLERANCE);
        }
    }
  g_test_message ("%s, %s: largest relative difference from the reference %.3g", method, output_type,
                  max_relative_difference);
  scratch_directory_remove (directory);
}

static void
test_idw_power_2 (void)
{
  assert_idw_cells ("idw:power=2", 2.0, CLI_ALL_NEIGHBORS, "Float32");
}

static void
test_idw_power_2_float64 (void)
{
  assert_idw_cells ("idw:power=2", 2.0, CLI_ALL_NEIGHBORS, "Float64");
}

static void
test_idw_power_3_nearest_16 (void)
{
  assert_idw_cells ("idw:power=3:neighbors=16", 3.0, 16, "Float32");
}

/* Every cell's value and adaptive power against the reference. */
static void
assert_aidw_cells (const char *method, const CliAidwParams *params, const char *output_type)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *alpha_output = g_build_filename (directory, "alpha.tif", NULL);
  g_autoptr (CliPoints) points = meuse_zinc ();
  g_autoptr (CliRaster) raster = run_meuse_method (directory, method, output_type, alpha_output);
  g_autoptr (CliRaster) alpha = cli_raster_read (alpha_output);
  double max_relative_difference = 0.0, max_alpha_difference = 0.0;
  int cells_between_alpha2_and_alpha3 = 0;

  cli_raster_assert_grid (alpha, 178600, 181600, 329600, 333600, 60, 80);
  for (int row = 0; row < raster->height; row++)
    {
      for (int column = 0; column < raster->width; column++)
        {
          double x, y, expected_alpha;
          cli_raster_cell_centre (raster, row, column, &x, &y);
          double expected = cli_reference_aidw (points, x, y, params, &expected_alpha);
          double value = cli_raster_value (raster, row, column);
          double cell_alpha = cli_raster_value (alpha, row, column);

          max_relative_difference = fmax (max_relative_difference, fabs (value - expected) / fabs (expected));
          max_alpha_difference = fmax (max_alpha_difference, fabs (cell_alpha - expected_alpha) / expected_alpha);
          assert_relative (value, expected, RELATIVE_TOLERANCE);
          assert_relative (cell_alpha, expected_alpha, RELATIVE_TOLERANCE);
          cells_between_alpha2_and_alpha3 += expected_alpha > params->alpha[1] && expected_alpha < params->alpha[2];
        }
    }
  g_test_message ("%s, %s: largest relative difference from the reference %.3g (alpha %.3g); %d cells with "
                  "alpha between alpha2 and alpha3", method, output_type, max_relative_difference, max_alpha_difference,
                  cells_between_alpha2_and_alpha3);
  /* The parameters put cells in the band where the paper and a widely copied implementation differ. */
  g_assert_cmpint (cells_between_alpha2_and_alpha3, >, 50);
  scratch_directory_remove (directory);
}

static void
test_aidw_parameters (void)
{
  CliAidwParams params;

  cli_aidw_params_init (&params);
  params.k = 10;
  params.alpha[0] = 1.0;
  params.alpha[1] = 1.5;
  params.alpha[2] = 2.0;
  params.alpha[3] = 2.75;
  params.alpha[4] = 3.0;
  params.r_min = 0.5;
  params.r_max = 4.0;
  assert_aidw_cells ("aidw:k=10:alpha=1,1.5,2,2.75,3:rmin=0.5:rmax=4", &params, "Float32");
}

static void
test_aidw_given_area_nearest_16 (void)
{
  CliAidwParams params;

  cli_aidw_params_init (&params);
  params.area = 4e7;
  params.neighbors = 16;
  assert_aidw_cells ("aidw:area=40000000:neighbors=16", &params, "Float64");
}

static void
test_aidw_within_data_range (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "aidw.tif", NULL);
  g_autofree char *alpha_output = g_build_filename (directory, "alpha.tif", NULL);
  g_autoptr (CliPoints) points = meuse_zinc ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", "--alpha-out", alpha_output, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  double z_min = INFINITY, z_max = -INFINITY;
  double alpha_min = INFINITY, alpha_max = -INFINITY;

  cli_assert_success (run);
  for (gsize i = 0; i < points->n; i++)
    {
      z_min = fmin (z_min, points->z[i]);
      z_max = fmax (z_max, points->z[i]);
    }

  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_autoptr (CliRaster) alpha = cli_raster_read (alpha_output);
  g_assert_cmpint (alpha->width, ==, raster->width);
  g_assert_cmpint (alpha->height, ==, raster->height);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (alpha->geotransform[i], ==, raster->geotransform[i]);

  for (gsize i = 0; i < (gsize) raster->width * raster->height; i++)
    {
      g_assert_true (isfinite (raster->values[i]));
      g_assert_cmpfloat (raster->values[i], >=, z_min * (1.0 - 1e-6));
      g_assert_cmpfloat (raster->values[i], <=, z_max * (1.0 + 1e-6));
      g_assert_cmpfloat (alpha->values[i], >=, 1.5 * (1.0 - 1e-6));
      g_assert_cmpfloat (alpha->values[i], <=, 3.5 * (1.0 + 1e-6));
      alpha_min = fmin (alpha_min, alpha->values[i]);
      alpha_max = fmax (alpha_max, alpha->values[i]);
    }
  g_test_message ("alpha over the meuse bounding box: %.4g to %.4g", alpha_min, alpha_max);
  /* Clustered samples along the river and empty corners: the power does adapt. */
  g_assert_cmpfloat (alpha_max - alpha_min, >, 0.5);
  scratch_directory_remove (directory);
}

/* IDW of a single point is that point's value everywhere. */
static void
test_idw_one_point_constant (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "one.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "one.tif", NULL);
  g_autoptr (CliPoints) point = cli_points_new (1);

  point->x[0] = 180033.0;
  point->y[0] = 331071.0;
  point->z[0] = 42.5;
  cli_points_write_gpkg_layer (point, source, "one", "zinc", CLI_GEOMETRY_POINTS);

  const char *args[] = { "-zfield", "zinc", "-a", "idw", MEUSE_GRID, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);

  g_autoptr (CliRaster) raster = cli_raster_read (output);
  for (gsize i = 0; i < (gsize) raster->width * raster->height; i++)
    assert_relative (raster->values[i], 42.5, 1e-6);
  scratch_directory_remove (directory);
}

/* Every cell, both engine paths (data: the output type), against gdal_grid's exact path. */
static void
test_idw_matches_gdal_grid (gconstpointer data)
{
  const char *output_type = data;
  g_autofree char *gdal_grid = cli_gdal_grid_find_or_skip ();
  if (gdal_grid == NULL)
    return;

  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "shepard.tif", NULL);
  const char *grid_args[] = { "-txe", "178500", "181500", "-tye", "329650", "333750", "-outsize", "150", "205",
                              NULL };
  const char *args[] = { "-zfield", "zinc", "-a", "idw:power=2:neighbors=all", "--backend", "cpu", grid_args[0],
                         grid_args[1], grid_args[2], grid_args[3], grid_args[4], grid_args[5], grid_args[6],
                         grid_args[7], grid_args[8], "-ot", output_type, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliRaster) expected = cli_gdal_grid_meuse (gdal_grid, directory, "invdist:power=2:smoothing=0",
                                                       grid_args);
  double max_relative_difference = 0.0;
  gsize nonzero_cells = 0;

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  cli_raster_assert_grid (raster, 178500, 181500, 329650, 333750, 150, 205);

  for (int row = 0; row < raster->height; row++)
    {
      for (int column = 0; column < raster->width; column++)
        {
          int expected_row, expected_column;
          double x, y;

          cli_raster_cell_centre (raster, row, column, &x, &y);
          g_assert_true (cli_raster_cell_at (expected, x, y, &expected_row, &expected_column));
          double expected_value = cli_raster_value (expected, expected_row, expected_column);
          double value = cli_raster_value (raster, row, column);
          nonzero_cells += expected_value != 0.0;
          max_relative_difference = fmax (max_relative_difference,
                                           fabs (value - expected_value) / fabs (expected_value));
          assert_relative (value, expected_value, RELATIVE_TOLERANCE);
        }
    }
  g_test_message ("%s: largest relative difference from gdal_grid invdist:power=2:smoothing=0: %.3g", output_type,
                  max_relative_difference);
  /* gdal_grid writes zeros when it finds no points: make sure it did read them. */
  g_assert_cmpuint (nonzero_cells, ==, (gsize) raster->width * raster->height);
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();

  g_test_add_func ("/cli/values/idw/power-2", test_idw_power_2);
  g_test_add_func ("/cli/values/idw/power-2-float64", test_idw_power_2_float64);
  g_test_add_func ("/cli/values/idw/power-3-nearest-16", test_idw_power_3_nearest_16);
  g_test_add_func ("/cli/values/idw/one-point-constant", test_idw_one_point_constant);
  g_test_add_data_func ("/cli/values/idw/matches-gdal-grid", "Float32", test_idw_matches_gdal_grid);
  g_test_add_data_func ("/cli/values/idw/matches-gdal-grid-float64", "Float64", test_idw_matches_gdal_grid);
  g_test_add_func ("/cli/values/aidw/parameters", test_aidw_parameters);
  g_test_add_func ("/cli/values/aidw/given-area-nearest-16", test_aidw_given_area_nearest_16);
  g_test_add_func ("/cli/values/aidw/within-data-range", test_aidw_within_data_range);

  return g_test_run ();
}
