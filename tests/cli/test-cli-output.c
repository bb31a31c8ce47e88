/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid end to end: what it reads (CSV, GeoPackage, layers, open options) and what it writes (GeoTIFF with
 * CRS, geotransform, data type, nodata, creation options; other drivers; progress; AIDW's planes as extra bands and
 * rasters of their own). */
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"
#include "cli-reference.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

/* A grid of 50 m square cells over the meuse sample. */
#define MEUSE_EXTENT "-txe", "178600", "181600", "-tye", "329600", "333600"
#define MEUSE_SIZE "-outsize", "60", "80"

static void
assert_same_values (const CliRaster *actual, const CliRaster *expected, double relative_tolerance)
{
  g_assert_cmpint (actual->width, ==, expected->width);
  g_assert_cmpint (actual->height, ==, expected->height);
  for (gsize i = 0; i < (gsize) actual->width * actual->height; i++)
    g_assert_cmpfloat (fabs (actual->values[i] - expected->values[i]), <=,
                       relative_tolerance * fabs (expected->values[i]));
}

static void
assert_epsg_28992 (const CliRaster *raster)
{
  g_assert_cmpstr (raster->authority_name, ==, "EPSG");
  g_assert_cmpstr (raster->authority_code, ==, "28992");
}

static void
assert_all_finite (const CliRaster *raster)
{
  for (gsize i = 0; i < (gsize) raster->width * raster->height; i++)
    g_assert_true (isfinite (raster->values[i]));
}

/* The meuse zinc surface on the 50 m grid, written by the tool as GeoTIFF Float32 into directory. */
static CliRaster *
meuse_zinc_reference_run (const char *directory)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "reference.tif", NULL);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  return cli_raster_read (output);
}

static void
test_geotiff_crs_and_geotransform (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autoptr (CliRaster) raster = meuse_zinc_reference_run (directory);

  g_assert_cmpstr (raster->driver, ==, "GTiff");
  assert_epsg_28992 (raster);
  cli_raster_assert_grid (raster, 178600, 181600, 329600, 333600, 60, 80);
  g_assert_cmpint (raster->data_type, ==, GDT_Float32);
  assert_all_finite (raster);
  scratch_directory_remove (directory);
}

static void
test_geotiff_default_extent_and_size (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "default.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  double x_min, x_max, y_min, y_max;

  cli_assert_success (run);
  cli_points_bounds (points, &x_min, &x_max, &y_min, &y_max);
  g_assert_cmpuint (points->n, ==, 155);

  g_autoptr (CliRaster) raster = cli_raster_read (output);
  cli_raster_assert_grid (raster, x_min, x_max, y_min, y_max, 256, 256);
  assert_epsg_28992 (raster);
  assert_all_finite (raster);
  scratch_directory_remove (directory);
}

static void
test_geotiff_resolution (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "resolution.tif", NULL);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, "-tr", "40", "50", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  cli_raster_assert_grid (raster, 178600, 181600, 329600, 333600, 75, 80);
  scratch_directory_remove (directory);
}

static void
test_geotiff_float64 (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "float64.tif", NULL);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-ot", "Float64", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliRaster) float32 = meuse_zinc_reference_run (directory);

  cli_assert_success (run);
  g_autoptr (CliRaster) float64 = cli_raster_read (output);
  g_assert_cmpint (float64->data_type, ==, GDT_Float64);
  /* The same surface: -ot Float64 takes the engine's float64 path, which the float32 path follows within 1e-5. */
  assert_same_values (float64, float32, 1e-5);
  scratch_directory_remove (directory);
}

static void
test_geotiff_explicit_float32 (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "float32.tif", NULL);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-ot", "Float32", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_assert_cmpint (raster->data_type, ==, GDT_Float32);
  assert_same_values (raster, reference, 0.0);
  scratch_directory_remove (directory);
}

static void
test_geotiff_nodata (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "nodata.tif", NULL);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-a_nodata", "-9999", "-q", source, output,
                         NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_assert_true (raster->has_nodata);
  g_assert_cmpfloat (raster->nodata, ==, -9999.0);
  /* IDW is defined everywhere: no cell is nodata. */
  for (gsize i = 0; i < (gsize) raster->width * raster->height; i++)
    g_assert_cmpfloat (raster->values[i], !=, -9999.0);
  scratch_directory_remove (directory);
}

static void
assert_geotiff_layout (const char *path, const char *compression, const char *predictor, gboolean tiled)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  int block_width = 0, block_height = 0;

  g_assert_nonnull (dataset);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, compression);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "PREDICTOR", "IMAGE_STRUCTURE"), ==, predictor);
  GDALGetBlockSize (GDALGetRasterBand (dataset, 1), &block_width, &block_height);
  if (tiled)
    {
      /* GTiff's default tile: 256 x 256, wider than the 60-cell raster. */
      g_assert_cmpint (block_width, ==, 256);
      g_assert_cmpint (block_height, ==, 256);
    }
  else
    g_assert_cmpint (block_width, ==, GDALGetRasterXSize (dataset));
  GDALClose (dataset);
}

/* GeoTIFF is tiled and DEFLATE-compressed with the floating-point predictor unless -co says otherwise, key by key. */
static void
test_geotiff_creation_options (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *lzw = g_build_filename (directory, "lzw.tif", NULL);
  g_autofree char *strips = g_build_filename (directory, "strips.tif", NULL);
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);
  g_autofree char *reference_path = g_build_filename (directory, "reference.tif", NULL);

  g_assert_cmpstr (reference->compression, ==, "DEFLATE");
  assert_geotiff_layout (reference_path, "DEFLATE", "3", TRUE);

  const char *lzw_args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-co", "COMPRESS=LZW", "-q", source, lzw,
                             NULL };
  g_autoptr (CliRun) lzw_run = cli_run (lzw_args);
  cli_assert_success (lzw_run);
  /* A compression of the user's own drops the default predictor; tiling stays. */
  assert_geotiff_layout (lzw, "LZW", NULL, TRUE);

  const char *strip_args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-co", "TILED=NO", "-co", "COMPRESS=NONE",
                               "-q", source, strips, NULL };
  g_autoptr (CliRun) strip_run = cli_run (strip_args);
  cli_assert_success (strip_run);
  assert_geotiff_layout (strips, NULL, NULL, FALSE);

  g_autoptr (CliRaster) lzw_raster = cli_raster_read (lzw);
  g_autoptr (CliRaster) strip_raster = cli_raster_read (strips);
  assert_same_values (lzw_raster, reference, 0.0);
  assert_same_values (strip_raster, reference, 0.0);
  scratch_directory_remove (directory);
}

/* A driver with CreateCopy only: the tool writes through it and leaves the same files gdal_translate would. */
static void
test_create_copy_driver (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output_directory = g_build_filename (directory, "tool", NULL);
  g_autofree char *expected_directory = g_build_filename (directory, "expected", NULL);
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (output_directory, "surface.asc", NULL);
  g_autofree char *expected_output = g_build_filename (expected_directory, "surface.asc", NULL);
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);

  g_assert_cmpint (g_mkdir (output_directory, 0755), ==, 0);
  g_assert_cmpint (g_mkdir (expected_directory, 0755), ==, 0);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-of", "AAIGrid", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);

  g_autofree char *reference_path = g_build_filename (directory, "reference.tif", NULL);
  GDALDatasetH reference_dataset = GDALOpen (reference_path, GA_ReadOnly);
  GDALDatasetH copy = GDALCreateCopy (GDALGetDriverByName ("AAIGrid"), expected_output, reference_dataset, FALSE,
                                      NULL, NULL, NULL);
  g_assert_nonnull (copy);
  GDALClose (copy);
  GDALClose (reference_dataset);

  g_autofree char *files = scratch_directory_list (output_directory);
  g_autofree char *expected_files = scratch_directory_list (expected_directory);
  g_assert_cmpstr (files, ==, expected_files);

  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_autoptr (CliRaster) expected = cli_raster_read (expected_output);
  g_assert_cmpstr (raster->driver, ==, "AAIGrid");
  cli_raster_assert_grid (raster, 178600, 181600, 329600, 333600, 60, 80);
  /* The .prj of AAIGrid is ESRI WKT without authority codes: the CRS must read back as GDAL's own copy does. */
  g_assert_nonnull (raster->srs_wkt);
  g_assert_cmpstr (raster->srs_wkt, ==, expected->srs_wkt);
  assert_same_values (raster, reference, 1e-6);
  scratch_directory_remove (directory);
}

static void
test_overwrite_existing (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "reference.tif", NULL);
  g_autoptr (CliRaster) zinc = meuse_zinc_reference_run (directory);
  const char *args[] = { "-zfield", "copper", MEUSE_EXTENT, MEUSE_SIZE, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) copper = cli_raster_read (output);
  g_autoptr (CliPoints) copper_points = cli_points_read_csv (source, "copper");
  double copper_max = 0.0, zinc_surface_max = 0.0;
  for (gsize i = 0; i < copper_points->n; i++)
    copper_max = fmax (copper_max, copper_points->z[i]);
  /* Both surfaces stay within their data; zinc goes far above the copper maximum, so the file was replaced. */
  for (gsize i = 0; i < (gsize) copper->width * copper->height; i++)
    {
      g_assert_cmpfloat (copper->values[i], <=, copper_max * (1.0 + 1e-6));
      zinc_surface_max = fmax (zinc_surface_max, zinc->values[i]);
    }
  g_assert_cmpfloat (zinc_surface_max, >, 2.0 * copper_max);
  g_autofree char *files = scratch_directory_list (directory);
  g_assert_cmpstr (files, ==, "reference.tif");
  scratch_directory_remove (directory);
}

static void
test_progress (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "progress.tif", NULL);
  const char *loud_args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, source, output, NULL };
  const char *quiet_args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-q", source, output, NULL };
  g_autoptr (CliRun) loud = cli_run (loud_args);
  g_autoptr (CliRun) quiet = cli_run (quiet_args);

  cli_assert_success (loud);
  cli_assert_success (quiet);
  g_assert_nonnull (strstr (loud->standard_error, "0...10...20...30...40...50...60...70...80...90...100"));
  g_assert_cmpstr (quiet->standard_error, ==, "");
  scratch_directory_remove (directory);
}

static void
test_input_geopackage (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *csv = cli_source_path ("data/meuse.csv");
  g_autofree char *geopackage = g_build_filename (directory, "meuse.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "from-gpkg.tif", NULL);
  g_autoptr (CliPoints) points = cli_points_read_csv (csv, "zinc");
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);

  cli_points_write_gpkg_layer (points, geopackage, "meuse", "zinc", CLI_GEOMETRY_POINTS);
  const char *args[] = { "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-q", geopackage, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  assert_epsg_28992 (raster);
  assert_same_values (raster, reference, 0.0);
  scratch_directory_remove (directory);
}

static void
test_input_layer_by_name (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *csv = cli_source_path ("data/meuse.csv");
  g_autofree char *geopackage = g_build_filename (directory, "two-layers.gpkg", NULL);
  g_autofree char *meuse_output = g_build_filename (directory, "meuse.tif", NULL);
  g_autofree char *decoy_output = g_build_filename (directory, "decoy.tif", NULL);
  g_autoptr (CliPoints) points = cli_points_read_csv (csv, "zinc");
  g_autoptr (CliPoints) decoy = cli_points_new (3);
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);

  for (gsize i = 0; i < decoy->n; i++)
    {
      decoy->x[i] = 179000.0 + 500.0 * i;
      decoy->y[i] = 330000.0 + 1000.0 * (i % 2);
      decoy->z[i] = 7.0;
    }
  /* The decoy comes first, where a tool that ignored -l would look. */
  cli_points_write_gpkg_layer (decoy, geopackage, "decoy", "zinc", CLI_GEOMETRY_POINTS);
  cli_points_write_gpkg_layer (points, geopackage, "meuse", "zinc", CLI_GEOMETRY_POINTS);

  const char *meuse_args[] = { "-l", "meuse", "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-q", geopackage,
                               meuse_output, NULL };
  const char *decoy_args[] = { "-l", "decoy", "-zfield", "zinc", MEUSE_EXTENT, MEUSE_SIZE, "-q", geopackage,
                               decoy_output, NULL };
  g_autoptr (CliRun) meuse_run = cli_run (meuse_args);
  g_autoptr (CliRun) decoy_run = cli_run (decoy_args);
  cli_assert_success (meuse_run);
  cli_assert_success (decoy_run);

  g_autoptr (CliRaster) meuse_raster = cli_raster_read (meuse_output);
  g_autoptr (CliRaster) decoy_raster = cli_raster_read (decoy_output);
  assert_same_values (meuse_raster, reference, 0.0);
  for (gsize i = 0; i < (gsize) decoy_raster->width * decoy_raster->height; i++)
    g_assert_cmpfloat_with_epsilon (decoy_raster->values[i], 7.0, 1e-5);
  scratch_directory_remove (directory);
}

/* Columns no default name list knows, found through -oo. */
static void
test_input_csv_open_options (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *csv = cli_source_path ("data/meuse.csv");
  g_autofree char *renamed = g_build_filename (directory, "renamed.csv", NULL);
  g_autofree char *output = g_build_filename (directory, "renamed.tif", NULL);
  g_autoptr (CliPoints) points = cli_points_read_csv (csv, "zinc");
  g_autoptr (CliRaster) reference = meuse_zinc_reference_run (directory);
  g_autoptr (GString) text = g_string_new ("station,east,north,zinc\n");
  g_autoptr (GError) error = NULL;

  for (gsize i = 0; i < points->n; i++)
    g_string_append_printf (text, "s%zu,%.17g,%.17g,%.17g\n", i, points->x[i], points->y[i], points->z[i]);
  g_file_set_contents (renamed, text->str, -1, &error);
  g_assert_no_error (error);

  const char *args[] = { "-zfield", "zinc", "-oo", "X_POSSIBLE_NAMES=east", "-oo", "Y_POSSIBLE_NAMES=north",
                         MEUSE_EXTENT, MEUSE_SIZE, "-q", renamed, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  assert_same_values (raster, reference, 0.0);
  scratch_directory_remove (directory);
}

/* One band (from 1) of a raster that must have n_bands bands, with its description. */
static double *
read_band (const char *path, int n_bands, int band, char **description)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);

  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, n_bands);
  int width = GDALGetRasterXSize (dataset), height = GDALGetRasterYSize (dataset);
  GDALRasterBandH raster_band = GDALGetRasterBand (dataset, band);
  double *values = g_new (double, (gsize) width * height);
  g_assert_cmpint (GDALRasterIO (raster_band, GF_Read, 0, 0, width, height, values, width, height, GDT_Float64, 0,
                                 0),
                   ==, CE_None);
  *description = g_strdup (GDALGetDescription (raster_band));
  GDALClose (dataset);
  return values;
}

/* Every plane as a band of DST (asked for out of order) and as a raster of its own: the same numbers, R and r_obs
 * as written out plainly, band 1 exactly what a run without them writes. */
static void
test_extra_bands_and_plane_files (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "aidw.tif", NULL);
  g_autofree char *plain_output = g_build_filename (directory, "plain.tif", NULL);
  g_autofree char *alpha_output = g_build_filename (directory, "alpha.tif", NULL);
  g_autofree char *r_output = g_build_filename (directory, "r.tif", NULL);
  g_autofree char *r_obs_output = g_build_filename (directory, "robs.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", MEUSE_EXTENT, MEUSE_SIZE, "-ot", "Float64",
                         "--extra-bands", "robs,alpha,R", "--alpha-out", alpha_output, "--r-out", r_output,
                         "--robs-out", r_obs_output, "-q", source, output, NULL };
  const char *plain_args[] = { "-zfield", "zinc", "-a", "aidw", MEUSE_EXTENT, MEUSE_SIZE, "-ot", "Float64", "-q",
                               source, plain_output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliRun) plain_run = cli_run (plain_args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");

  cli_assert_success (run);
  cli_assert_success (plain_run);
  g_autofree char *files = scratch_directory_list (directory);
  g_assert_cmpstr (files, ==, "aidw.tif alpha.tif plain.tif r.tif robs.tif");

  const char *names[] = { "zinc", "alpha", "R", "r_obs" };
  const char *own_outputs[] = { plain_output, alpha_output, r_output, r_obs_output };
  g_autoptr (CliRaster) plain = cli_raster_read (plain_output);
  gsize cells = (gsize) plain->width * plain->height;
  double *bands[4];
  for (int band = 0; band < 4; band++)
    {
      g_autofree char *description = NULL;
      g_autofree char *own_description = NULL;
      bands[band] = read_band (output, 4, band + 1, &description);
      g_autofree double *own = read_band (own_outputs[band], 1, 1, &own_description);
      g_assert_cmpstr (description, ==, names[band]);
      g_assert_cmpmem (bands[band], cells * sizeof (double), own, cells * sizeof (double));
    }

  double r_exp = cli_reference_r_exp (points, 0.0);
  CliAidwParams aidw;
  cli_aidw_params_init (&aidw);
  double largest_alpha_difference = 0.0;
  for (int row = 0; row < plain->height; row++)
    for (int column = 0; column < plain->width; column++)
      {
        gsize cell = (gsize) row * plain->width + column;
        double x, y, alpha;
        cli_raster_cell_centre (plain, row, column, &x, &y);
        double r_obs = cli_reference_r_obs (points, x, y, 15);
        cli_reference_aidw (points, x, y, &aidw, &alpha);
        largest_alpha_difference = fmax (largest_alpha_difference, fabs (bands[1][cell] - alpha));
        g_assert_cmpfloat_with_epsilon (bands[3][cell], r_obs, 1e-9 * r_obs);
        g_assert_cmpfloat_with_epsilon (bands[2][cell], r_obs / r_exp, 1e-9 * r_obs / r_exp);
        /* Float64 throughout: alpha follows R, itself within 1e-9 of the reference. */
        g_assert_cmpfloat_with_epsilon (bands[1][cell], alpha, 1e-9 * alpha);
        g_assert_cmpfloat (bands[1][cell], >=, 1.5);
        g_assert_cmpfloat (bands[1][cell], <=, 3.5);
      }
  g_test_message ("largest difference of alpha from the reference: %.3g", largest_alpha_difference);
  for (int band = 0; band < 4; band++)
    g_free (bands[band]);
  scratch_directory_remove (directory);
}

/* A driver with CreateCopy only takes the extra bands through its scratch GeoTIFF. */
static void
test_extra_bands_cog (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "aidw.cog.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "-a", "aidw:k=10", MEUSE_EXTENT, MEUSE_SIZE, "-of", "COG",
                         "--extra-bands", "alpha,r,robs", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autofree char *files = scratch_directory_list (directory);
  g_assert_cmpstr (files, ==, "aidw.cog.tif");
  GDALDatasetH dataset = GDALOpen (output, GA_ReadOnly);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "LAYOUT", "IMAGE_STRUCTURE"), ==, "COG");
  g_assert_cmpint (GDALGetRasterDataType (GDALGetRasterBand (dataset, 4)), ==, GDT_Float32);
  GDALClose (dataset);
  const char *names[] = { "zinc", "alpha", "R", "r_obs" };
  for (int band = 0; band < 4; band++)
    {
      g_autofree char *description = NULL;
      g_autofree double *values = read_band (output, 4, band + 1, &description);
      g_assert_cmpstr (description, ==, names[band]);
      g_assert_true (isfinite (values[0]) && values[0] > 0.0);
    }
  scratch_directory_remove (directory);
}

/* IDW's alpha is its power in every cell. */
static void
test_idw_alpha (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "idw.tif", NULL);
  g_autofree char *alpha_output = g_build_filename (directory, "alpha.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "-a", "idw:power=3", MEUSE_EXTENT, MEUSE_SIZE, "--extra-bands", "alpha",
                         "--alpha-out", alpha_output, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_autoptr (CliRaster) alpha = cli_raster_read (alpha_output);
  g_autofree char *description = NULL;
  g_autofree double *band = read_band (output, 2, 2, &description);
  g_assert_cmpstr (description, ==, "alpha");
  for (gsize i = 0; i < (gsize) alpha->width * alpha->height; i++)
    {
      g_assert_cmpfloat (alpha->values[i], ==, 3.0);
      g_assert_cmpfloat (band[i], ==, 3.0);
    }
  scratch_directory_remove (directory);
}

static void
test_help_names_plane_options (void)
{
  const char *args[] = { "--help", NULL };
  g_autoptr (CliRun) run = cli_run (args);

  const char *options[] = { "--extra-bands LIST", "--alpha-out FILE", "--r-out FILE", "--robs-out FILE" };

  cli_assert_success (run);
  for (gsize i = 0; i < G_N_ELEMENTS (options); i++)
    g_assert_nonnull (strstr (run->standard_output, options[i]));
}

/* A usage that cannot be written (a full disk: /dev/full) is a failure. */
static void
test_help_to_full_stdout (void)
{
  const char *args[] = { "--help", NULL };

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full here");
      return;
    }
  g_autoptr (CliRun) run = cli_run_with_stdout (args, "/dev/full");
  g_test_message ("stderr: %s", run->standard_error);
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 1);
  g_assert_cmpstr (run->standard_error, ==,
                   "shepard-grid: cannot write the usage to standard output: No space left on device\n");
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();

  g_test_add_func ("/cli/output/geotiff/crs-and-geotransform", test_geotiff_crs_and_geotransform);
  g_test_add_func ("/cli/output/geotiff/default-extent-and-size", test_geotiff_default_extent_and_size);
  g_test_add_func ("/cli/output/geotiff/resolution", test_geotiff_resolution);
  g_test_add_func ("/cli/output/geotiff/float64", test_geotiff_float64);
  g_test_add_func ("/cli/output/geotiff/explicit-float32", test_geotiff_explicit_float32);
  g_test_add_func ("/cli/output/geotiff/nodata", test_geotiff_nodata);
  g_test_add_func ("/cli/output/geotiff/creation-options", test_geotiff_creation_options);
  g_test_add_func ("/cli/output/create-copy-driver", test_create_copy_driver);
  g_test_add_func ("/cli/output/overwrite-existing", test_overwrite_existing);
  g_test_add_func ("/cli/output/progress", test_progress);
  g_test_add_func ("/cli/output/planes/extra-bands-and-files", test_extra_bands_and_plane_files);
  g_test_add_func ("/cli/output/planes/extra-bands-cog", test_extra_bands_cog);
  g_test_add_func ("/cli/output/planes/idw-alpha", test_idw_alpha);
  g_test_add_func ("/cli/output/planes/help", test_help_names_plane_options);
  g_test_add_func ("/cli/output/help-to-full-stdout", test_help_to_full_stdout);
  g_test_add_func ("/cli/input/geopackage", test_input_geopackage);
  g_test_add_func ("/cli/input/layer-by-name", test_input_layer_by_name);
  g_test_add_func ("/cli/input/csv-open-options", test_input_csv_open_options);

  return g_test_run ();
}
