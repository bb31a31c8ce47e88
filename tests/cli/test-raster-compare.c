/* SPDX-License-Identifier: GPL-3.0-or-later */
/* raster-compare (what tools/gpu-mpi-check.sh compares rasters with on the GPU machine) on GeoTIFFs written here with
 * known cells: equal ones, one cell off by a known amount, a cell off by the last bit only, a nodata cell against a
 * value, a different size and geotransform, a missing file. Argument: the raster-compare program. */
#include <gdal.h>
#include <glib.h>
#include <sys/wait.h>

#include "scratch-directory.h"

enum { WIDTH = 5, HEIGHT = 3 };
#define NODATA -9999.0

static const char *compare_tool;

/* Cells 0, 10, 20, ... 140 (a range of 140), row 0 first; cells[changed_cell] set to changed_value when it is >= 0. */
static void
write_raster (const char *path, int width, double x_min, int changed_cell, float changed_value)
{
  GDALDriverH driver = GDALGetDriverByName ("GTiff");
  GDALDatasetH dataset = GDALCreate (driver, path, width, HEIGHT, 1, GDT_Float32, NULL);
  g_assert_nonnull (dataset);
  double transform[6] = { x_min, 10, 0, 500, 0, -10 };
  GDALSetGeoTransform (dataset, transform);
  GDALRasterBandH band = GDALGetRasterBand (dataset, 1);
  GDALSetRasterNoDataValue (band, NODATA);
  g_autofree float *cells = g_new (float, width * HEIGHT);
  for (int i = 0; i < width * HEIGHT; i++)
    cells[i] = 10.0f * i;
  if (changed_cell >= 0)
    cells[changed_cell] = changed_value;
  g_assert_cmpint (GDALRasterIO (band, GF_Write, 0, 0, width, HEIGHT, cells, width, HEIGHT, GDT_Float32, 0, 0), ==,
                   CE_None);
  GDALClose (dataset);
}

/* Runs raster-compare on two files; returns its exit status, its standard output in *output. */
static int
compare (const char *expected, const char *actual, char **output)
{
  const char *argv[] = { compare_tool, expected, actual, NULL };
  int status = 0;
  g_autoptr (GError) error = NULL;
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, output, NULL, &status, &error);
  g_assert_no_error (error);
  g_test_message ("raster-compare %s %s: %s", expected, actual, *output);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

typedef struct {
  const char *name;
  int width;
  double x_min;
  int changed_cell;
  float changed_value;
  int status;
  const char *output;
} CompareCase;

static const CompareCase cases[] = {
  { "equal", WIDTH, 100, -1, 0, 0,
    "equal: 5 x 3 cells, 1 band(s); 0 differ, largest difference 0 (0 of the range 140)\n" },
  /* Cell 7 is 70: 70.5 differs by 0.5, 0.5 / 140 of the range. */
  { "one-cell", WIDTH, 100, 7, 70.5f, 1,
    "different: 5 x 3 cells, 1 band(s); 1 differ, largest difference 0.5 (0.00357 of the range 140)\n" },
  /* The next float after 70 (70 + 2^-17): a difference the last bit makes. */
  { "last-bit", WIDTH, 100, 7, 70.0000076293945f, 1,
    "different: 5 x 3 cells, 1 band(s); 1 differ, largest difference 7.63e-06 (5.45e-08 of the range 140)\n" },
  { "nodata", WIDTH, 100, 3, (float) NODATA, 1,
    "different: 5 x 3 cells, 1 band(s); 1 differ, largest difference 0 (0 of the range 140); 1 cells nodata or NaN in "
    "one raster only\n" },
  { "geotransform", WIDTH, 110, -1, 0, 1,
    "different: 5 x 3 cells, 1 band(s); 0 differ, largest difference 0 (0 of the range 140); the geotransforms "
    "differ\n" },
  { "size", WIDTH + 1, 100, -1, 0, 1, "different: 5 x 3 cells in 1 bands against 6 x 3 in 1\n" },
};

static void
test_case (gconstpointer data)
{
  const CompareCase *compare_case = data;
  g_autofree char *directory = scratch_directory_new ("shepard-raster-compare-XXXXXX");
  g_autofree char *expected = g_build_filename (directory, "expected.tif", NULL);
  g_autofree char *actual = g_build_filename (directory, "actual.tif", NULL);
  g_autofree char *output = NULL;

  write_raster (expected, WIDTH, 100, -1, 0);
  write_raster (actual, compare_case->width, compare_case->x_min, compare_case->changed_cell,
                compare_case->changed_value);
  g_assert_cmpint (compare (expected, actual, &output), ==, compare_case->status);
  g_assert_cmpstr (output, ==, compare_case->output);
  scratch_directory_remove (directory);
}

static void
test_missing_file (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-raster-compare-XXXXXX");
  g_autofree char *expected = g_build_filename (directory, "expected.tif", NULL);
  g_autofree char *missing = g_build_filename (directory, "missing.tif", NULL);
  g_autofree char *output = NULL;

  write_raster (expected, WIDTH, 100, -1, 0);
  g_assert_cmpint (compare (expected, missing, &output), ==, 2);
  g_assert_cmpstr (output, ==, "");
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_assert_cmpint (argc, ==, 2);
  compare_tool = argv[1];
  GDALAllRegister ();
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/raster-compare/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_case);
    }
  g_test_add_func ("/raster-compare/missing-file", test_missing_file);
  return g_test_run ();
}
