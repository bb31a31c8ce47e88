/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What shepard-grid writes besides the values: the default extent and --margin, nodata on every band, the metadata
 * that says where a raster comes from (read back with the real gdalinfo), and refused creation options. */
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"

#include <float.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static void
meuse_bounds (double *x_min, double *x_max, double *y_min, double *y_max)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");

  cli_points_bounds (points, x_min, x_max, y_min, y_max);
}

/* --margin 5 grows the points' bounding box by 5 % of its longer side (y: 3897 m on meuse) on every side. */
static void
test_margin (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "margin.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "--margin", "5", "-outsize", "50", "60", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  double x_min, x_max, y_min, y_max;

  cli_assert_success (run);
  meuse_bounds (&x_min, &x_max, &y_min, &y_max);
  g_assert_cmpfloat (y_max - y_min, ==, 333611 - 329714);
  double margin = 0.05 * (y_max - y_min);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  cli_raster_assert_grid (raster, x_min - margin, x_max + margin, y_min - margin, y_max + margin, 50, 60);
  /* The report shows the extent to the decimals it has: 194.85 m of margin. */
  g_test_message ("%s", run->standard_error);
  g_assert_nonnull (strstr (run->standard_error, "x 178410.15 to 181584.85, y 329519.15 to 333805.85\n"));
  scratch_directory_remove (directory);
}

static void
test_margin_refused (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  const struct {
    const char *margin;
    gboolean with_extent;
    const char *message;
  } cases[] = {
    { "-1", FALSE, "--margin PERCENT needs a percentage of 0 or more, not \"-1\"" },
    { "five", FALSE, "--margin PERCENT needs a percentage of 0 or more, not \"five\"" },
    { "5", TRUE, "--margin grows the points' bounding box, -txe and -tye replace it" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *with[] = { "-zfield", "zinc", "--margin", cases[i].margin, "-txe", "0", "1", "-tye", "0", "1",
                             source, "/nonexistent/out.tif", NULL };
      const char *without[] = { "-zfield", "zinc", "--margin", cases[i].margin, source, "/nonexistent/out.tif",
                                NULL };
      g_autoptr (CliRun) run = cli_run (cases[i].with_extent ? with : without);
      g_assert_true (run->exited);
      g_assert_cmpint (run->exit_code, ==, 2);
      g_assert_nonnull (strstr (run->standard_error, cases[i].message));
    }
}

static void
assert_nodata_on_every_band (const char *path, int n_bands, double nodata)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);

  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, n_bands);
  for (int i = 1; i <= n_bands; i++)
    {
      GDALRasterBandH band = GDALGetRasterBand (dataset, i);
      int has_nodata = FALSE, width = GDALGetRasterXSize (dataset), height = GDALGetRasterYSize (dataset);
      g_assert_cmpfloat (GDALGetRasterNoDataValue (band, &has_nodata), ==, nodata);
      g_assert_true (has_nodata);
      g_autofree double *values = g_new (double, (gsize) width * height);
      g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, width, height, values, width, height, GDT_Float64, 0, 0),
                       ==, CE_None);
      for (gsize cell = 0; cell < (gsize) width * height; cell++)
        g_assert_cmpfloat (values[cell], !=, nodata);
    }
  GDALClose (dataset);
}

/* Without -a_nodata every band still gets one: -9999, which zinc's values (113 to 1839 ppm), α, R and r_obs never
 * reach. */
static void
test_nodata_on_every_band (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "planes.tif", NULL);
  g_autofree char *alpha = g_build_filename (directory, "alpha.tif", NULL);
  const char *args[] = { "-zfield", "zinc", "-a", "aidw:neighbors=16", "-outsize", "40", "50", "--extra-bands",
                         "alpha,r,robs", "--alpha-out", alpha, "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  assert_nodata_on_every_band (output, 4, -9999.0);
  assert_nodata_on_every_band (alpha, 1, -9999.0);
  scratch_directory_remove (directory);
}

/* A field whose values reach -9999 gets the data type's lowest value instead, which no interpolation reaches. */
static void
test_nodata_beyond_the_values (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "depths.csv", NULL);
  static const char csv[] = "x,y,depth\n0,0,-12000\n100,0,-9999\n0,100,-5000\n100,100,-20\n50,40,-700\n";
  g_assert_true (g_file_set_contents (source, csv, -1, NULL));

  const struct {
    const char *type;
    double nodata;
  } types[] = { { "Float32", -FLT_MAX }, { "Float64", -DBL_MAX } };
  for (gsize i = 0; i < G_N_ELEMENTS (types); i++)
    {
      g_autofree char *name = g_strdup_printf ("depth-%s.tif", types[i].type);
      g_autofree char *output = g_build_filename (directory, name, NULL);
      const char *args[] = { "-zfield", "depth", "-ot", types[i].type, "-outsize", "20", "20", "-q", source, output,
                             NULL };
      g_autoptr (CliRun) run = cli_run (args);
      cli_assert_success (run);
      assert_nodata_on_every_band (output, 1, types[i].nodata);
    }
  scratch_directory_remove (directory);
}

/* gdalinfo's "  NAME=VALUE" line of the default metadata domain, or NULL. */
static char *
metadata_item (const char *gdalinfo_output, const char *name)
{
  g_autofree char *prefix = g_strdup_printf ("\n  %s=", name);
  const char *start = strstr (gdalinfo_output, prefix);

  if (start == NULL)
    return NULL;
  start += strlen (prefix);
  return g_strndup (start, strcspn (start, "\n"));
}

static char *
run_gdalinfo (const char *path)
{
  g_autofree char *gdalinfo = g_find_program_in_path ("gdalinfo");
  g_autofree char *out = NULL;
  g_autoptr (GError) error = NULL;
  int status;

  if (gdalinfo == NULL)
    return NULL;
  const char *argv[] = { gdalinfo, path, NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&out);
}

/* The metadata as gdalinfo shows it, and its method string given back to -a computes the very same raster. */
static void
test_metadata_reproduces (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *first = g_build_filename (directory, "first.tif", NULL);
  g_autofree char *again = g_build_filename (directory, "again.tif", NULL);
  const char *args[] = { "-zfield", "lead", "-oo", "AUTODETECT_TYPE=YES", "-a",
                         "aidw:k=10:alpha=1,1.75,2.5,3.25,4.125:rmax=2.5:neighbors=24:rexp=knn", "--backend", "cpu",
                         "-ot", "Float64", "-outsize", "30", "40", "-q", source, first, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);

  g_autofree char *info = run_gdalinfo (first);
  if (info == NULL)
    {
      g_test_skip ("gdalinfo is not installed");
      return;
    }
  g_autofree char *method = metadata_item (info, "SHEPARD_METHOD");
  g_autofree char *absolute_source = g_canonicalize_filename (source, NULL);
  g_autofree char *source_item = metadata_item (info, "SHEPARD_SOURCE");
  g_autofree char *layer = metadata_item (info, "SHEPARD_LAYER");
  g_autofree char *field = metadata_item (info, "SHEPARD_FIELD");
  g_autofree char *open_options = metadata_item (info, "SHEPARD_OPEN_OPTIONS");
  g_autofree char *points = metadata_item (info, "SHEPARD_POINTS");
  g_autofree char *engine = metadata_item (info, "SHEPARD_ENGINE");
  g_autofree char *description = metadata_item (info, "SHEPARD_ENGINE_DESCRIPTION");
  g_autofree char *version = metadata_item (info, "SHEPARD_VERSION");
  g_test_message ("%s", info);
  g_assert_cmpstr (method, ==, "aidw:k=10:alpha=1,1.75,2.5,3.25,4.125:rmax=2.5:rexp=knn:max_points=24");
  g_assert_cmpstr (source_item, ==, absolute_source);
  g_assert_cmpstr (layer, ==, "meuse");
  g_assert_cmpstr (field, ==, "lead");
  g_assert_cmpstr (open_options, ==, "AUTODETECT_TYPE=YES");
  g_assert_cmpstr (points, ==, "155");
  g_assert_cmpstr (engine, ==, "cpu float64");
  g_assert_true (g_str_has_prefix (description, "CPU, "));
  g_assert_true (g_regex_match_simple ("^[0-9]+\\.[0-9]+\\.[0-9]+$", version, 0, 0));

  /* The metadata's method, its source and field, the geotransform's extent and size: the same raster again. */
  g_autoptr (CliRaster) written = cli_raster_read (first);
  double x_min = written->geotransform[0], y_max = written->geotransform[3];
  g_autofree char *txe_min = g_strdup_printf ("%.17g", x_min);
  g_autofree char *txe_max = g_strdup_printf ("%.17g", x_min + written->geotransform[1] * written->width);
  g_autofree char *tye_min = g_strdup_printf ("%.17g", y_max + written->geotransform[5] * written->height);
  g_autofree char *tye_max = g_strdup_printf ("%.17g", y_max);
  const char *again_args[] = { "-zfield", field, "-oo", open_options, "-a", method, "--backend", "cpu", "-ot",
                               "Float64", "-txe", txe_min, txe_max, "-tye", tye_min, tye_max, "-outsize", "30", "40",
                               "-q", source_item, again, NULL };
  g_autoptr (CliRun) again_run = cli_run (again_args);
  cli_assert_success (again_run);
  g_autoptr (CliRaster) reproduced = cli_raster_read (again);
  g_assert_cmpint (reproduced->width, ==, written->width);
  for (gsize i = 0; i < (gsize) written->width * written->height; i++)
    g_assert_cmpfloat (reproduced->values[i], ==, written->values[i]);
  g_autofree char *info_again = run_gdalinfo (again);
  g_autofree char *method_again = metadata_item (info_again, "SHEPARD_METHOD");
  g_assert_cmpstr (method_again, ==, method);
  scratch_directory_remove (directory);
}

/* Creation options GDAL refuses stop the run before any work, naming the option and where to look. */
static void
test_bad_creation_options (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "refused.tif", NULL);
  const struct {
    const char *format, *option, *message;
  } cases[] = {
    { "GTiff", "TILED=maybe", "'maybe' is an unexpected value for TILED" },
    { "GTiff", "NO_SUCH_OPTION=1", "does not support creation option NO_SUCH_OPTION" },
    /* COG tiles always and has no TILED: the GeoTIFF default is not forced on it. */
    { "COG", "TILED=YES", "driver COG does not support creation option TILED" },
  };

  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *args[] = { "-zfield", "zinc", "-of", cases[i].format, "-co", cases[i].option, "-q", source, output,
                             NULL };
      g_autoptr (CliRun) run = cli_run (args);
      g_test_message ("%s", run->standard_error);
      g_assert_true (run->exited);
      g_assert_cmpint (run->exit_code, ==, 1);
      g_assert_nonnull (strstr (run->standard_error, cases[i].message));
      g_assert_nonnull (strstr (run->standard_error, "gdalinfo --format"));
      g_autofree char *left = scratch_directory_list (directory);
      g_assert_cmpstr (left, ==, "");
    }
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();
  g_test_add_func ("/cli/export/margin", test_margin);
  g_test_add_func ("/cli/export/margin-refused", test_margin_refused);
  g_test_add_func ("/cli/export/nodata/every-band", test_nodata_on_every_band);
  g_test_add_func ("/cli/export/nodata/beyond-the-values", test_nodata_beyond_the_values);
  g_test_add_func ("/cli/export/metadata-reproduces", test_metadata_reproduces);
  g_test_add_func ("/cli/export/bad-creation-options", test_bad_creation_options);
  return g_test_run ();
}
