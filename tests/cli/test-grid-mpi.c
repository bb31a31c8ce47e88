/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid-mpi under mpirun -np 3 --oversubscribe against shepard-grid on the CPU: the same raster bit for bit
 * (every band's cells, geotransform, CRS, nodata), for methods over all points and local ones, a tile edge through a
 * dense cluster, the masks across tile edges, the rasters of --alpha-out, --r-out and --robs-out, fields whose engines
 * sum differently, outputs refused before any work, and a rank that fails leaving nothing. Arguments:
 * shepard-grid-mpi, then shepard-grid. */
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
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

/* shepard-grid with options into reference, then shepard-grid-mpi with mpi_options and options into output; both must
 * succeed. mpi_standard_error (may be NULL): shepard-grid-mpi's stderr. */
static void
run_both (const char *const *options, const char *const *mpi_options, const char *reference, const char *output,
          char **mpi_standard_error)
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
  if (mpi_standard_error != NULL)
    *mpi_standard_error = g_steal_pointer (&mpi_errors);
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
  if (expected_crs == NULL)
    g_assert_null (actual_crs);
  else
    {
      g_assert_nonnull (actual_crs);
      g_assert_true (OSRIsSame (expected_crs, actual_crs));
    }
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

static char *
source_path (const char *name)
{
  return g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT") != NULL ? g_getenv ("SHEPARD_SOURCE_ROOT") : SOURCE_ROOT,
                           "data", name, NULL);
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

  run_both (options, mpi_options, reference, output, NULL);
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
      run_both (options, mpi_options, reference, output, NULL);
      assert_same_raster (reference, output);
    }
  scratch_directory_remove (directory);
}

/* Points on a lattice, written in a shuffled order to a GeoPackage, whose R-tree hands a tile's points out in an order
 * of its own: a cell centred between four points ties with every ring of neighbours, and ties go by the points'
 * order, so a tile must read its points in the order of a whole read (their feature IDs) to weigh the same ones. */
static void
test_ties_in_geopackage (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-ties-XXXXXX");
  g_autofree char *layer = g_build_filename (directory, "lattice.gpkg", NULL);
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *output = g_build_filename (directory, "lattice.vrt", NULL);
  g_autoptr (GRand) random = g_rand_new_with_seed (40);
  g_autoptr (CliPoints) points = cli_points_new (40 * 40);

  for (gsize i = 0; i < points->n; i++)
    {
      points->x[i] = 10.0 * (double) (i % 40);
      points->y[i] = 10.0 * (double) (i / 40);
      points->z[i] = g_rand_double_range (random, 0.0, 100.0);
    }
  for (gsize i = points->n - 1; i > 0; i--)
    {
      gsize j = (gsize) g_rand_int_range (random, 0, (gint32) i + 1);
      double x = points->x[i], y = points->y[i], z = points->z[i];
      points->x[i] = points->x[j], points->y[i] = points->y[j], points->z[i] = points->z[j];
      points->x[j] = x, points->y[j] = y, points->z[j] = z;
    }
  cli_points_write_gpkg_layer (points, layer, "lattice", "value", CLI_GEOMETRY_POINTS);
  for (int method = 0; method < 2; method++)
    {
      /* Cells of 10 m centred between the lattice's points: 6 nearest take 2 of a ring of 8 at one distance. */
      const char *const options[] = {
        "-q", "--backend", "cpu", "-zfield", "value", "-a", method == 0 ? "idw:max_points=6" : "aidw:max_points=6",
        "-txe", "0", "390", "-tye", "0", "390", "-outsize", "39", "39", layer, NULL,
      };
      const char *const mpi_options[] = { "--tile-size", "8", NULL };
      run_both (options, mpi_options, reference, output, NULL);
      assert_same_raster (reference, output);
    }
  scratch_directory_remove (directory);
}

/* Without --tile-size the ranks of a node share its memory where a tile's points are most of what a rank holds: with
 * a local method the 3 ranks on this machine cut 1100 x 1100 cells into tiles of 1024 (a rank alone takes 2048); over
 * all points, where every rank holds every point, the tile stays 2048. Either raster is shepard-grid's bit for bit. */
static void
test_default_tiles_shared_by_node (void)
{
  static const struct {
    const char *method;
    const char *plan;
  } cases[] = {
    { "aidw:max_points=8", "in 4 tiles of 1024 over " RANKS " ranks" },
    { "idw", "in 1 tiles of 2048 over " RANKS " ranks" },
  };
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-default-tiles-XXXXXX");
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *output = g_build_filename (directory, "shared.vrt", NULL);
  g_autofree char *source = source_path ("meuse.csv");
  const char *const mpi_options[] = { NULL };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const char *const options[] = {
        "--backend", "cpu", "-zfield", "zinc", "-a", cases[i].method, "-outsize", "1100", "1100", source, NULL,
      };
      g_autofree char *said = NULL;
      run_both (options, mpi_options, reference, output, &said);
      g_test_message ("shepard-grid-mpi said: %s", said);
      g_assert_nonnull (strstr (said, cases[i].plan));
      assert_same_raster (reference, output);
    }
  scratch_directory_remove (directory);
}

/* Whether band 1 of the raster, read in tiles of tile_size cells, has a tile edge along which some cells are nodata
 * and some are not: a mask's boundary crossing it. */
static gboolean
mask_crosses_tile_edge (const char *path, int tile_size)
{
  GDALDatasetH raster = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (raster);
  GDALRasterBandH band = GDALGetRasterBand (raster, 1);
  int width = GDALGetRasterXSize (raster), height = GDALGetRasterYSize (raster), has_nodata = 0;
  double nodata = GDALGetRasterNoDataValue (band, &has_nodata);
  g_assert_true (has_nodata);
  g_autofree double *cells = g_new (double, (gsize) width * height);
  g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, width, height, cells, width, height, GDT_Float64, 0, 0), ==,
                   CE_None);
  GDALClose (raster);
  gboolean crosses = FALSE;
  for (int edge = tile_size; edge < width && !crosses; edge += tile_size)
    {
      gsize masked = 0;
      for (int row = 0; row < height; row++)
        masked += cells[(gsize) row * width + edge] == nodata;
      crosses = masked > 0 && masked < (gsize) height;
    }
  for (int edge = tile_size; edge < height && !crosses; edge += tile_size)
    {
      gsize masked = 0;
      for (int col = 0; col < width; col++)
        masked += cells[(gsize) edge * width + col] == nodata;
      crosses = masked > 0 && masked < (gsize) width;
    }
  return crosses;
}

typedef enum {
  MASK_DISTANCE,
  MASK_HULL,
  MASK_CUTLINE,
} MaskKind;

typedef struct {
  MaskKind kind;
  const char *method;
  const char *schedule;
  const char *name;
} MaskCase;

/* Each mask, over all points and with a local method, across the edges of tiles of 64 cells (--tile-size 60):
 * bit for bit shepard-grid's, alpha included. With idw:radius=100 and --mask-distance 300, alpha (the power, in every
 * cell) is masked only by the distance, beyond the reach of the tile's radius: the tile's points must reach D. */
static void
test_mask (gconstpointer data)
{
  const MaskCase *mask = data;
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-mask-XXXXXX");
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *output = g_build_filename (directory, "masked.vrt", NULL);
  g_autofree char *source = source_path ("meuse.csv");
  g_autofree char *river = source_path ("meuse-river.geojson");
  const char *const mask_options[][3] = {
    [MASK_DISTANCE] = { "--mask-distance", mask->kind == MASK_DISTANCE && strstr (mask->method, "radius") ? "300"
                                                                                                        : "150", NULL },
    [MASK_HULL] = { "--mask-hull", NULL, NULL },
    [MASK_CUTLINE] = { "-cutline", river, NULL },
  };
  g_autoptr (GPtrArray) options = g_ptr_array_new ();
  const char *const common[] = {
    "-q", "--backend", "cpu", "-zfield", "zinc", "--extra-bands", "alpha", "-a", mask->method, "-outsize", "300",
    "200", "--margin", "5",
  };
  for (size_t i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (options, (gpointer) common[i]);
  for (const char *const *option = mask_options[mask->kind]; *option != NULL; option++)
    g_ptr_array_add (options, (gpointer) *option);
  g_ptr_array_add (options, source);
  g_ptr_array_add (options, NULL);
  const char *const mpi_options[] = { "--tile-size", "60", "--schedule", mask->schedule, NULL };

  run_both ((const char *const *) options->pdata, mpi_options, reference, output, NULL);
  assert_same_raster (reference, output);
  g_assert_true (mask_crosses_tile_edge (output, 64));
  scratch_directory_remove (directory);
}

typedef struct {
  const char *method;
  const char *output_extension; /* every output's: VRTs, or GeoTIFFs made from the tiles */
} PlaneCase;

/* --alpha-out, --r-out and --robs-out: each a tiled output of its own, bit for bit shepard-grid's raster. */
static void
test_plane_outputs (gconstpointer data)
{
  const PlaneCase *plane = data;
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-planes-XXXXXX");
  const char *const names[] = { "values", "alpha", "r", "robs" };
  char *reference[G_N_ELEMENTS (names)], *output[G_N_ELEMENTS (names)];
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *reference_name = g_strdup_printf ("reference-%s.tif", names[i]);
      g_autofree char *output_name = g_strdup_printf ("%s.%s", names[i], plane->output_extension);
      reference[i] = g_build_filename (directory, reference_name, NULL);
      output[i] = g_build_filename (directory, output_name, NULL);
    }
  g_autofree char *source = source_path ("meuse.csv");
  const char *const planes_of_grid[] = {
    "-q", "--backend", "cpu", "-zfield", "zinc,copper", "-a", plane->method, "-outsize", "300", "200",
    "--alpha-out", reference[1], "--r-out", reference[2], "--robs-out", reference[3], source, NULL,
  };
  const char *const planes_of_mpi[] = {
    "--tile-size", "60", "-q", "--backend", "cpu", "-zfield", "zinc,copper", "-a", plane->method, "-outsize", "300",
    "200", "--alpha-out", output[1], "--r-out", output[2], "--robs-out", output[3], source, output[0], NULL,
  };
  g_autoptr (GPtrArray) grid_argv = g_ptr_array_new ();
  g_ptr_array_add (grid_argv, (gpointer) grid_tool);
  for (const char *const *option = planes_of_grid; *option != NULL; option++)
    g_ptr_array_add (grid_argv, (gpointer) *option);
  g_ptr_array_add (grid_argv, reference[0]);
  g_autofree char *grid_errors = NULL, *mpi_errors = NULL;
  g_assert_cmpint (run (grid_argv, &grid_errors), ==, 0);
  g_autoptr (GPtrArray) argv = mpi_argv (planes_of_mpi);
  int status = run (argv, &mpi_errors);
  if (status != 0)
    g_test_message ("stderr: %s", mpi_errors);
  g_assert_cmpint (status, ==, 0);
  for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_test_message ("%s", names[i]);
      assert_same_raster (reference[i], output[i]);
      g_free (reference[i]);
      g_free (output[i]);
    }
  g_autofree char *left = scratch_directory_list (directory);
  g_assert_cmpstr (left, ==,
                   g_str_equal (plane->output_extension, "vrt")
                     ? "alpha.tiles alpha.vrt r.tiles r.vrt reference-alpha.tif reference-r.tif reference-robs.tif "
                       "reference-values.tif robs.tiles robs.vrt values.tiles values.vrt"
                     : "alpha.tif r.tif reference-alpha.tif reference-r.tif reference-robs.tif reference-values.tif "
                       "robs.tif values.tif");
  scratch_directory_remove (directory);
}

/* Two fields with their values in different rows, so two engines: 3000 points of "many", 1000 of them with "few".
 * On 300 x 200 cells summation=auto takes the far field for 3000 points and the exact sums for 1000 (float32 CPU
 * costs), as shepard-grid's engines choose for the whole raster: each engine of each tile chooses alike. */
static void
test_fields_sum_each_their_way (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-summation-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "points.csv", NULL);
  g_autofree char *reference = g_build_filename (directory, "reference.tif", NULL);
  g_autofree char *exact = g_build_filename (directory, "exact.tif", NULL);
  g_autofree char *output = g_build_filename (directory, "output.vrt", NULL);
  g_autoptr (GRand) random = g_rand_new_with_seed (27);
  g_autoptr (GString) csv = g_string_new ("x,y,many,few\n");
  for (int i = 0; i < 3000; i++)
    {
      double x = g_rand_double_range (random, 0.0, 10000.0), y = g_rand_double_range (random, 0.0, 10000.0);
      char few[G_ASCII_DTOSTR_BUF_SIZE] = "";
      if (i % 3 == 0)
        g_ascii_dtostr (few, sizeof few, 50.0 + y / 100.0);
      g_string_append_printf (csv, "%.3f,%.3f,%.3f,%s\n", x, y, 100.0 + x / 50.0 + 30.0 * sin (y / 700.0), few);
    }
  g_assert_true (g_file_set_contents (source, csv->str, -1, NULL));
  const char *const options[] = {
    "-q", "--backend", "cpu", "-zfield", "many,few", "-a", "idw", "-outsize", "300", "200", source, NULL,
  };
  const char *const exact_options[] = {
    "-q", "--backend", "cpu", "-zfield", "many,few", "-a", "idw:summation=exact", "-outsize", "300", "200", source,
    exact, NULL,
  };
  const char *const mpi_options[] = { "--tile-size", "60", NULL };

  run_both (options, mpi_options, reference, output, NULL);
  assert_same_raster (reference, output);
  g_autoptr (GPtrArray) exact_argv = g_ptr_array_new ();
  g_ptr_array_add (exact_argv, (gpointer) grid_tool);
  for (const char *const *option = exact_options; *option != NULL; option++)
    g_ptr_array_add (exact_argv, (gpointer) *option);
  g_autofree char *errors = NULL;
  g_assert_cmpint (run (exact_argv, &errors), ==, 0);
  /* The engines chose differently: "many" is not the exact sums (far field), "few" is them to the bit. */
  GDALDatasetH tiled = GDALOpen (output, GA_ReadOnly), exact_raster = GDALOpen (exact, GA_ReadOnly);
  g_assert_nonnull (tiled);
  g_assert_nonnull (exact_raster);
  gsize n_cells = 300 * 200;
  g_autofree float *tiled_cells = g_new (float, n_cells), *exact_cells = g_new (float, n_cells);
  for (int band = 1; band <= 2; band++)
    {
      g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (tiled, band), GF_Read, 0, 0, 300, 200, tiled_cells, 300, 200,
                                     GDT_Float32, 0, 0), ==, CE_None);
      g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (exact_raster, band), GF_Read, 0, 0, 300, 200, exact_cells,
                                     300, 200, GDT_Float32, 0, 0), ==, CE_None);
      gsize differing = 0;
      for (gsize i = 0; i < n_cells; i++)
        differing += memcmp (&tiled_cells[i], &exact_cells[i], sizeof (float)) != 0;
      g_test_message ("band %d: %" G_GSIZE_FORMAT " cells differ from the exact sums", band, differing);
      if (band == 1)
        g_assert_cmpuint (differing, >, n_cells / 20);
      else
        g_assert_cmpuint (differing, ==, 0);
    }
  GDALClose (tiled);
  GDALClose (exact_raster);
  scratch_directory_remove (directory);
}

typedef struct {
  const char *name;
  const char *const *outputs; /* options naming the outputs (DST last), relative to the scratch directory */
  const char *message_part;
} RefusedCase;

/* Outputs that cannot be written together are refused before the input is read (it does not exist here), leaving
 * nothing and the existing file untouched. */
static void
test_outputs_refused (gconstpointer data)
{
  const RefusedCase *refused = data;
  g_autofree char *directory = scratch_directory_new ("shepard-grid-mpi-refused-XXXXXX");
  g_autofree char *existing = g_build_filename (directory, "out.vrt", NULL);
  g_autofree char *missing_source = g_build_filename (directory, "missing.csv", NULL);
  g_assert_true (g_file_set_contents (existing, "the old output", -1, NULL));
  g_autoptr (GPtrArray) options = g_ptr_array_new_with_free_func (g_free);
  const char *const common[] = { "-q", "--backend", "cpu", "-zfield", "zinc", "-a", "aidw" };
  for (size_t i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (options, g_strdup (common[i]));
  g_ptr_array_add (options, g_strdup (missing_source));
  for (const char *const *output = refused->outputs; *output != NULL; output++)
    g_ptr_array_add (options, (*output)[0] == '-' ? g_strdup (*output) : g_build_filename (directory, *output, NULL));
  g_ptr_array_add (options, NULL);

  g_autoptr (GPtrArray) argv = mpi_argv ((const char *const *) options->pdata);
  g_autofree char *errors = NULL;
  int status = run (argv, &errors);
  g_test_message ("stderr: %s", errors);
  g_assert_cmpint (status, !=, 0);
  if (strstr (errors, refused->message_part) == NULL)
    g_error ("\"%s\" does not say \"%s\"", errors, refused->message_part);
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (existing, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "the old output");
  g_autofree char *left = scratch_directory_list (directory);
  g_assert_cmpstr (left, ==, "out.vrt");
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
  g_test_add_func ("/grid-mpi/ties-in-geopackage", test_ties_in_geopackage);
  g_test_add_func ("/grid-mpi/default-tiles-shared-by-node", test_default_tiles_shared_by_node);
  static const MaskCase masks[] = {
    { MASK_DISTANCE, "idw", "static", "distance/idw" },
    { MASK_DISTANCE, "aidw:max_points=8", "dynamic", "distance/aidw-nearest" },
    { MASK_DISTANCE, "idw:radius=100", "static", "distance/idw-radius" },
    { MASK_HULL, "aidw", "dynamic", "hull/aidw" },
    { MASK_HULL, "idw:max_points=8", "static", "hull/idw-nearest" },
    { MASK_CUTLINE, "idw", "dynamic", "cutline/idw" },
    { MASK_CUTLINE, "aidw:max_points=8", "static", "cutline/aidw-nearest" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (masks); i++)
    {
      g_autofree char *path = g_strdup_printf ("/grid-mpi/mask/%s", masks[i].name);
      g_test_add_data_func (path, &masks[i], test_mask);
    }
  static const PlaneCase planes[] = {
    { "aidw", "vrt" },
    { "aidw:max_points=8", "tif" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (planes); i++)
    {
      g_autofree char *path = g_strdup_printf ("/grid-mpi/plane-outputs/%s/%s", planes[i].method,
                                               planes[i].output_extension);
      g_test_add_data_func (path, &planes[i], test_plane_outputs);
    }
  g_test_add_func ("/grid-mpi/fields-sum-each-their-way", test_fields_sum_each_their_way);
  static const char *const same_file[] = { "--alpha-out", "./out.vrt", "out.vrt", NULL };
  static const char *const same_planes[] = { "--r-out", "r.vrt", "--robs-out", "r.vrt", "out.vrt", NULL };
  static const char *const same_tiles[] = { "--alpha-out", "out.VRT", "out.vrt", NULL };
  static const char *const mixed_kinds[] = { "--alpha-out", "alpha.tif", "out.vrt", NULL };
  static const char *const in_tiles[] = { "--alpha-out", "out.tiles/alpha.vrt", "out.vrt", NULL };
  static const RefusedCase refusals[] = {
    { "same-file", same_file, "the alpha raster" },
    { "same-plane-files", same_planes, "is also the R raster" },
    { "same-tiles-directory", same_tiles, "would go into" },
    { "vrt-and-not", mixed_kinds, "all VRTs or none" },
    { "output-in-tiles-directory", in_tiles, "which is or holds the output" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      g_autofree char *path = g_strdup_printf ("/grid-mpi/outputs-refused/%s", refusals[i].name);
      g_test_add_data_func (path, &refusals[i], test_outputs_refused);
    }
  g_test_add_data_func ("/grid-mpi/failed-rank-leaves-nothing/static", "static", test_failed_rank_leaves_nothing);
  g_test_add_data_func ("/grid-mpi/failed-rank-leaves-nothing/dynamic", "dynamic", test_failed_rank_leaves_nothing);
  return g_test_run ();
}
