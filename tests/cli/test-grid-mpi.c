/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid-mpi under mpirun -np 3 --oversubscribe against shepard-grid on the CPU: the same raster bit for bit
 * (every band's cells, geotransform, CRS, nodata), for methods over all points and local ones, a tile edge through a
 * dense cluster, and a rank that fails leaving nothing. Arguments: shepard-grid-mpi, then shepard-grid. */
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <ogr_srs_api.h>
#include <string.h>

#include "cli-points.h"
#include "scratch-directory.h"

#define RANKS "3"

static const char *mpi_tool, *grid_tool;
static char *mpirun;

/* Runs a command line; returns its exit status (-1 when a signal ended it), its stderr in *standard_error. */
static int
run (GPtrArray *argv, char **standard_error)
{
  int status = 0;
  g_autoptr (GError) error = NULL;

  g_ptr_array_add (argv, NULL);
  g_autofree char *line = g_strjoinv (" ", (char **) argv->pdata);
  g_test_message ("run: %s", line);
  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, standard_error, &status,
                &error);
  g_assert_no_error (error);
  return WIFEXITED (status) ? WEXITSTATUS (status) : -1;
}

static GPtrArray *
mpi_argv (const char *const *options)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, mpirun);
  g_ptr_array_add (argv, "--oversubscribe");
  if (geteuid () == 0)
    g_ptr_array_add (argv, "--allow-run-as-root");
  g_ptr_array_add (argv, "-x");
  g_ptr_array_add (argv, "SHEPARD_GRID_MPI_TEST_FAIL_RANK");
  g_ptr_array_add (argv, "-np");
  g_ptr_array_add (argv, RANKS);
  g_ptr_array_add (argv, (gpointer) mpi_tool);
  for (const char *const *option = options; *option != NULL; option++)
    g_ptr_array_add (argv, (gpointer) *option);
  return argv;
}

static void
run_both (const char *const *options, const char *const *mpi_options, const char *reference, const char *output)
{
  g_autoptr (GPtrArray) grid_argv = g_ptr_array_new ();
  g_autofree char *grid_errors = NULL, *mpi_errors = NULL;

  g_ptr_array_add (grid_argv, (gpointer) grid_tool);
  for (const char *const *option = options; *option != NULL; option++)
    g_ptr_array_add (grid_argv, (gpointer) *option);
  g_ptr_array_add (grid_argv, (gpointer) reference);
  int grid_status = run (grid_argv, &grid_errors);
  g_assert_cmpint (grid_status, ==, 0);

  g_autoptr (GPtrArray) both = g_ptr_array_new ();
  for (const char *const *option = mpi_options; *option != NULL; option++)
    g_ptr_array_add (both, (gpointer) *option);
  for (const char *const *option = options; *option != NULL; option++)
    g_ptr_array_add (both, (gpointer) *option);
  g_ptr_array_add (both, (gpointer) output);
  g_ptr_array_add (both, NULL);
  g_autoptr (GPtrArray) argv = mpi_argv ((const char *const *) both->pdata);
  int mpi_status = run (argv, &mpi_errors);
  if (mpi_status != 0)
    g_test_message ("stderr: %s", mpi_errors);
  g_assert_cmpint (mpi_status, ==, 0);
}

/* Every band's cells bit for bit, the geotransform, CRS, nodata and data type. */
static void
assert_same_raster (const char *expected_path, const char *actual_path)
{
  GDALDatasetH expected = GDALOpen (expected_path, GA_ReadOnly), actual = GDALOpen (actual_path, GA_ReadOnly);
  g_assert_nonnull (expected);
  g_assert_nonnull (actual);
  int width = GDALGetRasterXSize (expected), height = GDALGetRasterYSize (expected);
  g_assert_cmpint (GDALGetRasterXSize (actual), ==, width);
  g_assert_cmpint (GDALGetRasterYSize (actual), ==, height);
  g_assert_cmpint (GDALGetRasterCount (actual), ==, GDALGetRasterCount (expected));
  double expected_transform[6], actual_transform[6];
  GDALGetGeoTransform (expected, expected_transform);
  GDALGetGeoTransform (actual, actual_transform);
  g_assert_cmpmem (actual_transform, sizeof actual_transform, expected_transform, sizeof expected_transform);
  OGRSpatialReferenceH expected_crs = GDALGetSpatialRef (expected), actual_crs = GDALGetSpatialRef (actual);
  g_assert_nonnull (actual_crs);
  g_assert_true (OSRIsSame (expected_crs, actual_crs));
  g_autofree double *expected_cells = g_new (double, (gsize) width * height);
  g_autofree double *actual_cells = g_new (double, (gsize) width * height);
  for (int band = 1; band <= GDALGetRasterCount (expected); band++)
    {
      GDALRasterBandH expected_band = GDALGetRasterBand (expected, band), actual_band = GDALGetRasterBand (actual, band);
      int expected_has = 0, actual_has = 0;
      g_assert_cmpint (GDALGetRasterDataType (actual_band), ==, GDALGetRasterDataType (expected_band));
      g_assert_cmpfloat (GDALGetRasterNoDataValue (actual_band, &actual_has), ==,
                         GDALGetRasterNoDataValue (expected_band, &expected_has));
      g_assert_cmpint (actual_has, ==, expected_has);
      g_assert_cmpstr (GDALGetDescription (actual_band), ==, GDALGetDescription (expected_band));
      g_assert_cmpint (GDALRasterIO (expected_band, GF_Read, 0, 0, width, height, expected_cells, width, height,
                                     GDT_Float64, 0, 0), ==, CE_None);
      g_assert_cmpint (GDALRasterIO (actual_band, GF_Read, 0, 0, width, height, actual_cells, width, height,
                                     GDT_Float64, 0, 0), ==, CE_None);
      gsize differing = 0;
      for (gsize i = 0; i < (gsize) width * height; i++)
        differing += memcmp (&expected_cells[i], &actual_cells[i], sizeof (double)) != 0;
      if (differing > 0)
        g_test_message ("band %d: %" G_GSIZE_FORMAT " of %d cells differ", band, differing, width * height);
      g_assert_cmpuint (differing, ==, 0);
    }
  GDALClose (expected);
  GDALClose (actual);
}

typedef struct {
  const char *method;
  const char *schedule;
  const char *output_name;
} MethodCase;

static void
test_method (gconstpointer data)
{
  const MethodCase *method = data;
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-XXXXXX");
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *output = g_build_filename (directory, method->output_name, NULL);
  g_autofree char *source = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT") != NULL
                                                ? g_getenv ("SHEPARD_SOURCE_ROOT")
                                                : SOURCE_ROOT,
                                              "data", "meuse.csv", NULL);
  const char *const options[] = {
    "-q", "--backend", "cpu", "-zfield", "zinc,copper,om", "--extra-bands", "alpha", "-a", method->method,
    "-outsize", "300", "200", source, NULL,
  };
  const char *const mpi_options[] = { "--tile-size", "60", "--schedule", method->schedule, NULL };

  run_both (options, mpi_options, reference, output);
  assert_same_raster (reference, output);
  scratch_directory_remove (directory);
}

/* A cluster of 3000 points within 40 m of a corner where four tiles meet, among 400 spread over 10 km: the halo of
 * the tiles around it must grow until every cell's 16 nearest lie inside it. */
static void
test_dense_cluster_at_tile_edge (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-cluster-XXXXXX");
  g_autofree char *layer = g_build_filename (directory, "cluster.gpkg", NULL);
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *output = g_build_filename (directory, "cluster.vrt", NULL);
  g_autoptr (GRand) random = g_rand_new_with_seed (16);
  g_autoptr (CliPoints) points = cli_points_new (3400);

  for (gsize i = 0; i < points->n; i++)
    {
      gboolean clustered = i < 3000;
      double angle = g_rand_double_range (random, 0.0, 2.0 * G_PI), distance = 40.0 * g_rand_double (random);
      /* Cells of 78.125 m: the tiles of 32 cells meet at x = 2500 and y = 5000. */
      points->x[i] = clustered ? 2500.0 + distance * cos (angle) : g_rand_double_range (random, 0.0, 10000.0);
      points->y[i] = clustered ? 5000.0 + distance * sin (angle) : g_rand_double_range (random, 0.0, 10000.0);
      points->z[i] = clustered ? 500.0 + points->x[i] - 2500.0 : g_rand_double_range (random, 0.0, 100.0);
    }
  cli_points_write_gpkg_layer (points, layer, "cluster", "value", CLI_GEOMETRY_POINTS);
  for (int method = 0; method < 2; method++)
    {
      const char *const options[] = {
        "-q", "--backend", "cpu", "-zfield", "value", "-a", method == 0 ? "aidw:max_points=16" : "idw:max_points=16",
        "-txe", "0", "10000", "-tye", "0", "10000", "-outsize", "128", "128", layer, NULL,
      };
      const char *const mpi_options[] = { "--tile-size", "32", NULL };
      run_both (options, mpi_options, reference, output);
      assert_same_raster (reference, output);
    }
  scratch_directory_remove (directory);
}

/* Rank 1 fails after its first tile: no output, the existing one untouched, nothing left beside it. */
static void
test_failed_rank_leaves_nothing (gconstpointer data)
{
  const char *schedule = data;
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-fail-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "out.vrt", NULL);
  g_autofree char *old_tiles = g_build_filename (directory, "out.tiles", NULL);
  g_autofree char *old_tile = g_build_filename (old_tiles, "tile-000-000.tif", NULL);
  g_autofree char *source = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT") != NULL
                                                ? g_getenv ("SHEPARD_SOURCE_ROOT")
                                                : SOURCE_ROOT,
                                              "data", "meuse.csv", NULL);
  g_assert_true (g_file_set_contents (output, "the old output", -1, NULL));
  g_assert_cmpint (g_mkdir (old_tiles, 0755), ==, 0);
  g_assert_true (g_file_set_contents (old_tile, "an old tile", -1, NULL));
  const char *const options[] = {
    "--tile-size", "16", "--schedule", schedule, "--backend", "cpu", "-zfield", "zinc", "-a", "aidw",
    "-outsize", "300", "200", source, output, NULL,
  };

  g_setenv ("SHEPARD_GRID_MPI_TEST_FAIL_RANK", "1", TRUE);
  g_autoptr (GPtrArray) argv = mpi_argv (options);
  g_autofree char *errors = NULL;
  int status = run (argv, &errors);
  g_unsetenv ("SHEPARD_GRID_MPI_TEST_FAIL_RANK");
  g_test_message ("stderr: %s", errors);
  g_assert_cmpint (status, !=, 0);
  g_assert_nonnull (strstr (errors, "rank 1: failed after tile"));
  g_autofree char *contents = NULL, *tile_contents = NULL;
  g_assert_true (g_file_get_contents (output, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "the old output");
  g_assert_true (g_file_get_contents (old_tile, &tile_contents, NULL, NULL));
  g_assert_cmpstr (tile_contents, ==, "an old tile");
  g_autofree char *left = scratch_directory_list (directory);
  g_assert_cmpstr (left, ==, "out.tiles out.vrt");
  g_autofree char *left_tiles = scratch_directory_list (old_tiles);
  g_assert_cmpstr (left_tiles, ==, "tile-000-000.tif");
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();
  mpi_tool = argc > 1 ? argv[1] : NULL;
  grid_tool = argc > 2 ? argv[2] : NULL;
  mpirun = g_find_program_in_path ("mpirun");
  if (mpi_tool == NULL || grid_tool == NULL || mpirun == NULL)
    {
      g_test_skip (mpirun == NULL ? "mpirun is not installed (apt-get install openmpi-bin)"
                                  : "give shepard-grid-mpi and shepard-grid as arguments");
      g_print ("1..0 # SKIP %s\n", mpirun == NULL ? "mpirun is not installed" : "no tools given");
      return 0;
    }
  g_setenv ("OMPI_ALLOW_RUN_AS_ROOT", "1", TRUE);
  g_setenv ("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1", TRUE);
  g_unsetenv ("SHEPARD_GRID_MPI_TEST_FAIL_RANK");

  static const MethodCase cases[] = {
    { "idw", "static", "idw.vrt" },
    { "aidw", "dynamic", "aidw.vrt" },
    { "aidw:summation=exact", "static", "aidw-exact.tif" },
    { "idw:summation=exact", "dynamic", "idw-exact.vrt" },
    { "idw:max_points=8", "static", "idw-nearest.vrt" },
    { "aidw:max_points=8", "dynamic", "aidw-nearest.vrt" },
    { "aidw:area=hull:max_points=8", "static", "aidw-hull.vrt" },
    { "idw:radius=300", "dynamic", "idw-radius.vrt" },
    { "aidw:radius=400:min_points=2", "static", "aidw-radius.vrt" },
    { "idw:max_points=5:max_points_per_quadrant=2", "dynamic", "idw-quadrants.vrt" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/grid-mpi/bit-equal/%s/%s", cases[i].method, cases[i].schedule);
      g_test_add_data_func (path, &cases[i], test_method);
    }
  g_test_add_func ("/grid-mpi/dense-cluster-at-tile-edge", test_dense_cluster_at_tile_edge);
  g_test_add_data_func ("/grid-mpi/failed-rank-leaves-nothing/static", "static", test_failed_rank_leaves_nothing);
  g_test_add_data_func ("/grid-mpi/failed-rank-leaves-nothing/dynamic", "dynamic", test_failed_rank_leaves_nothing);
  return g_test_run ();
}
