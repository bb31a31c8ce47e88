/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <cpl_conv.h>
#include <float.h>
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <ogr_srs_api.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "atomic-raster.h"
#include "engine-autocleanups.h"
#include "export-extent.h"
#include "grid-export.h"
#include "grid-extent.h"
#include "method-spec.h"
#include "raster-metadata.h"
#include "scratch-directory.h"
#include "shepard-app-error.h"

enum { N_POINTS = 97, WIDTH = 37, HEIGHT = 23 };

/* Points and grid chosen so that no node coincides with a point; UTM-like coordinates. */
#define X_MIN 500000.0
#define Y_MIN 5000000.0
#define SIDE 1000.0

typedef struct {
  char *directory;
  double x[N_POINTS], y[N_POINTS], z[N_POINTS];
  shepard_grid grid;
  char *crs_wkt;
} Fixture;

static void
fixture_set_up (Fixture *fixture, gconstpointer data)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GRand) random = g_rand_new_with_seed (20240611);

  fixture->directory = scratch_directory_new ("shepard-raster-XXXXXX");
  for (int i = 0; i < N_POINTS; i++)
    {
      fixture->x[i] = X_MIN + g_rand_double_range (random, 0.0, SIDE);
      fixture->y[i] = Y_MIN + g_rand_double_range (random, 0.0, SIDE);
      fixture->z[i] = g_rand_double_range (random, 10.0, 200.0);
    }
  g_assert_true (shepard_grid_from_extent (X_MIN, X_MIN + SIDE, Y_MIN, Y_MIN + SIDE, WIDTH, HEIGHT, &fixture->grid,
                                           &error));

  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (crs, 32631), ==, OGRERR_NONE);
  char *wkt = NULL;
  g_assert_cmpint (OSRExportToWkt (crs, &wkt), ==, OGRERR_NONE);
  fixture->crs_wkt = g_strdup (wkt);
  CPLFree (wkt);
  OSRDestroySpatialReference (crs);
}

static void
fixture_tear_down (Fixture *fixture, gconstpointer data)
{
  scratch_directory_remove (fixture->directory);
  g_free (fixture->directory);
  g_free (fixture->crs_wkt);
}

static char *
fixture_path (const Fixture *fixture, const char *name)
{
  return g_build_filename (fixture->directory, name, NULL);
}

static shepard_engine *
fixture_engine (const Fixture *fixture, shepard_precision precision)
{
  shepard_error engine_error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, precision, 0, &engine_error);

  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, fixture->x, fixture->y, fixture->z, N_POINTS, &engine_error),
                   ==, SHEPARD_OK);
  return engine;
}

/* Standard IDW, written out here independently of the engine. */
static double
brute_force_idw (const Fixture *fixture, double qx, double qy, double power)
{
  double weighted = 0.0, weights = 0.0;

  for (int i = 0; i < N_POINTS; i++)
    {
      double distance = hypot (qx - fixture->x[i], qy - fixture->y[i]);
      double weight = pow (distance, -power);
      weighted += weight * fixture->z[i];
      weights += weight;
    }
  return weighted / weights;
}

static double *
read_raster (const char *path, GDALDataType expected_type, double geotransform[6])
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterXSize (dataset), ==, WIDTH);
  g_assert_cmpint (GDALGetRasterYSize (dataset), ==, HEIGHT);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, 1);
  GDALRasterBandH band = GDALGetRasterBand (dataset, 1);
  g_assert_cmpint (GDALGetRasterDataType (band), ==, expected_type);
  g_assert_cmpint (GDALGetGeoTransform (dataset, geotransform), ==, CE_None);

  double *values = g_new (double, WIDTH * HEIGHT);
  g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, WIDTH, HEIGHT, values, WIDTH, HEIGHT, GDT_Float64, 0, 0), ==,
                   CE_None);
  GDALClose (dataset);
  return values;
}

static void
assert_idw_values (const Fixture *fixture, const double *values, double tolerance)
{
  double worst = 0.0;

  for (int row = 0; row < HEIGHT; row++)
    for (int col = 0; col < WIDTH; col++)
      {
        double qx = X_MIN + (col + 0.5) * SIDE / WIDTH;
        double qy = Y_MIN + SIDE - (row + 0.5) * SIDE / HEIGHT;
        double expected = brute_force_idw (fixture, qx, qy, 2.0);
        worst = MAX (worst, fabs (values[row * WIDTH + col] - expected) / fabs (expected));
      }
  g_test_message ("largest relative difference from brute-force IDW: %.3g", worst);
  g_assert_cmpfloat (worst, <=, tolerance);
}

static void
assert_geotransform (const double geotransform[6])
{
  const double expected[6] = { X_MIN, SIDE / WIDTH, 0.0, Y_MIN + SIDE, 0.0, -SIDE / HEIGHT };

  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat_with_epsilon (geotransform[i], expected[i], 1e-9);
}

static void
assert_crs_is_utm_31n (const char *path)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  OGRSpatialReferenceH crs = OSRNewSpatialReference (GDALGetProjectionRef (dataset));

  g_assert_cmpstr (OSRGetAuthorityCode (crs, NULL), ==, "32631");
  OSRDestroySpatialReference (crs);
  GDALClose (dataset);
}

static ShepardGridExport
fixture_request (const Fixture *fixture, const char *value_path, GDALDataType data_type)
{
  return (ShepardGridExport) {
    .value_path = value_path,
    .format = { .data_type = data_type, .crs_wkt = fixture->crs_wkt },
  };
}

static void
test_geotiff_float32 (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "idw.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT32);
  shepard_params params;
  shepard_params_init_idw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.format.has_nodata = TRUE;
  request.format.nodata = -9999.0;
  request.band_bytes = 5 * WIDTH * sizeof (double); /* bands of 8 rows, the fewest: 8, 8 and 7 */
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "idw.tif");

  double geotransform[6];
  g_autofree double *values = read_raster (path, GDT_Float32, geotransform);
  assert_geotransform (geotransform);
  assert_crs_is_utm_31n (path);
  assert_idw_values (fixture, values, 2e-5);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  int has_nodata = FALSE;
  double nodata = GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, 1), &has_nodata);
  g_assert_true (has_nodata);
  g_assert_cmpfloat (nodata, ==, -9999.0);
  GDALClose (dataset);
}

static void
test_geotiff_float64 (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "idw64.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float64);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);

  double geotransform[6];
  g_autofree double *values = read_raster (path, GDT_Float64, geotransform);
  assert_geotransform (geotransform);
  assert_idw_values (fixture, values, 1e-12);

  /* No nodata asked for: -9999 all the same, which IDW of values in [10, 200] cannot produce. */
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  int has_nodata = FALSE;
  g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, 1), &has_nodata), ==, -9999.0);
  g_assert_true (has_nodata);
  GDALClose (dataset);
}

/* A compressed raster's blocks go to the driver as each band of rows ends a row of them, while the next band is
 * computed: written once each, so the file is as large as one written whole at close (to a word), with the same
 * values. Bands of
 * 8 rows over blocks of 16 (two bands a row of blocks) and of 16 rows (one). */
static void
test_blocks_written_once (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  const char *const blocks[] = { "BLOCKXSIZE=16", "BLOCKYSIZE=16", NULL };
  g_autofree char *whole_path = fixture_path (fixture, "whole.tif");
  ShepardGridExport whole = fixture_request (fixture, whole_path, GDT_Float32);
  whole.format.creation_options = blocks;
  g_autoptr (GError) error = NULL;
  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &whole, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree double *whole_values = read_raster (whole_path, GDT_Float32, (double[6]) { 0 });
  GStatBuf whole_stat;
  g_assert_cmpint (g_stat (whole_path, &whole_stat), ==, 0);

  for (size_t rows = 8; rows <= 16; rows += 8)
    {
      g_autofree char *name = g_strdup_printf ("bands-of-%zu.tif", rows);
      g_autofree char *path = fixture_path (fixture, name);
      ShepardGridExport banded = whole;
      banded.value_path = path;
      banded.band_bytes = rows * WIDTH * sizeof (double);
      g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &banded, NULL, NULL, &error));
      g_assert_no_error (error);
      g_autofree double *values = read_raster (path, GDT_Float32, (double[6]) { 0 });
      g_assert_cmpmem (values, WIDTH * HEIGHT * sizeof (double), whole_values, WIDTH * HEIGHT * sizeof (double));
      GStatBuf banded_stat;
      g_assert_cmpint (g_stat (path, &banded_stat), ==, 0);
      /* The directory's place may differ by a word's alignment; a block written twice would add hundreds of bytes. */
      g_test_message ("bands of %zu rows: %jd bytes, whole: %jd", rows, (intmax_t) banded_stat.st_size,
                      (intmax_t) whole_stat.st_size);
      g_assert_cmpint (labs ((long) (banded_stat.st_size - whole_stat.st_size)), <=, 8);
    }
}

static int CPL_STDCALL
record_fraction (double complete, const char *message, void *data)
{
  *(double *) data = complete;
  return TRUE;
}

/* A write that fails in the writer thread, half-way through (here the file size limit, as a full disk would): the
 * export fails with the reason, leaves nothing of its own and the existing target as it was. In a subprocess, whose
 * limit the other cases do not share. */
static void
test_write_failure_mid_export (Fixture *fixture, gconstpointer data)
{
  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  shepard_grid grid;
  g_autoptr (GError) error = NULL;
  g_assert_true (shepard_grid_from_extent (X_MIN, X_MIN + SIDE, Y_MIN, Y_MIN + SIDE, 512, 512, &grid, &error));
  g_autofree char *path = fixture_path (fixture, "existing.tif");
  const char old_content[] = "an existing raster, to be left alone";
  g_assert_true (g_file_set_contents (path, old_content, sizeof old_content, &error));
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  /* 8 bands of 64 rows, each a row of blocks, written (compressed) as the next is computed */
  const char *const blocks[] = { "BLOCKXSIZE=64", "BLOCKYSIZE=64", NULL };
  request.format.creation_options = blocks;
  request.band_bytes = 64 * 512 * sizeof (double);

  /* The whole file takes about 1 MB; the limit stops it after a few bands. */
  signal (SIGXFSZ, SIG_IGN);
  struct rlimit limit = { 64 * 1024, 64 * 1024 };
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  double reached = 0.0;
  g_assert_false (shepard_grid_export (engine, &params, &grid, &request, record_fraction, &reached, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
  g_test_message ("after %.0f %% of the work: %s", 100.0 * reached, error->message);
  g_assert_cmpfloat (reached, <, 0.5);
  g_assert_nonnull (strstr (error->message, "existing.tif"));

  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "existing.tif");
  g_autofree char *content = NULL;
  gsize length = 0;
  g_assert_true (g_file_get_contents (path, &content, &length, NULL));
  g_assert_cmpmem (content, length, old_content, sizeof old_content);
}

/* Bands of one row give exactly what one band for the whole grid gives, and what the engine gives directly. */
static void
test_bands_match_whole_grid (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  g_autofree char *one_row_path = fixture_path (fixture, "one-row.tif");
  g_autofree char *whole_path = fixture_path (fixture, "whole.tif");
  ShepardGridExport one_row = fixture_request (fixture, one_row_path, GDT_Float64);
  one_row.band_bytes = 1;
  ShepardGridExport whole = fixture_request (fixture, whole_path, GDT_Float64);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &one_row, NULL, NULL, &error));
  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &whole, NULL, NULL, &error));
  g_assert_no_error (error);

  double geotransform[6];
  g_autofree double *banded = read_raster (one_row_path, GDT_Float64, geotransform);
  g_autofree double *unbanded = read_raster (whole_path, GDT_Float64, geotransform);
  g_autofree double *direct = g_new (double, WIDTH * HEIGHT);
  shepard_outputs outputs = { .values = direct };
  shepard_error engine_error = { 0 };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &fixture->grid, &outputs, NULL, NULL,
                                                    &engine_error),
                   ==, SHEPARD_OK);
  for (int i = 0; i < WIDTH * HEIGHT; i++)
    {
      g_assert_cmpfloat_with_epsilon (banded[i], direct[i], 1e-9 * fabs (direct[i]));
      g_assert_cmpfloat_with_epsilon (unbanded[i], direct[i], 1e-9 * fabs (direct[i]));
    }
}

static void
test_aidw_alpha_raster (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  /* With uniform random points and k = 15, R stays above the default Rmax and alpha at alpha5 everywhere. */
  params.r_max = 6.0;
  g_autofree char *value_path = fixture_path (fixture, "aidw.tif");
  g_autofree char *alpha_path = fixture_path (fixture, "alpha.tif");
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float64);
  request.alpha_path = alpha_path;
  request.band_bytes = 7 * WIDTH * 2 * sizeof (double);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "aidw.tif alpha.tif");

  double geotransform[6];
  g_autofree double *alpha = read_raster (alpha_path, GDT_Float64, geotransform);
  assert_geotransform (geotransform);
  assert_crs_is_utm_31n (alpha_path);
  g_autofree double *direct_values = g_new (double, WIDTH * HEIGHT);
  g_autofree double *direct_alpha = g_new (double, WIDTH * HEIGHT);
  shepard_outputs outputs = { .values = direct_values, .alpha = direct_alpha };
  shepard_error engine_error = { 0 };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &fixture->grid, &outputs, NULL, NULL,
                                                    &engine_error),
                   ==, SHEPARD_OK);
  double lowest = INFINITY, highest = -INFINITY;
  for (int i = 0; i < WIDTH * HEIGHT; i++)
    {
      g_assert_cmpfloat (alpha[i], >=, params.alpha[0]);
      g_assert_cmpfloat (alpha[i], <=, params.alpha[SHEPARD_AIDW_LEVELS - 1]);
      g_assert_cmpfloat_with_epsilon (alpha[i], direct_alpha[i], 1e-9);
      lowest = MIN (lowest, alpha[i]);
      highest = MAX (highest, alpha[i]);
    }
  g_test_message ("alpha from %.4f to %.4f", lowest, highest);
  g_assert_cmpfloat (highest, >, lowest);
}

static void
test_cog_through_copy (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "idw.cog.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  const char *const creation_options[] = { "COMPRESS=DEFLATE", NULL };
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.format.driver_name = "COG";
  request.format.creation_options = creation_options;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "idw.cog.tif");

  double geotransform[6];
  g_autofree double *values = read_raster (path, GDT_Float32, geotransform);
  assert_geotransform (geotransform);
  assert_crs_is_utm_31n (path);
  assert_idw_values (fixture, values, 1e-6);
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "LAYOUT", "IMAGE_STRUCTURE"), ==, "COG");
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, "DEFLATE");
  GDALClose (dataset);
}

/* ENVI writes a header beside the data, and the nodata value in GDAL's side-car: all arrive, nothing else is left. */
static void
test_multi_file_format (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "idw.bil");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  const char *const creation_options[] = { "INTERLEAVE=BIL", NULL };
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float64);
  request.format.driver_name = "ENVI";
  request.format.creation_options = creation_options;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_test_message ("files: %s", left);
  g_assert_cmpstr (left, ==, "idw.bil idw.bil.aux.xml idw.hdr");

  double geotransform[6];
  g_autofree double *values = read_raster (path, GDT_Float64, geotransform);
  assert_geotransform (geotransform);
  assert_crs_is_utm_31n (path);
  assert_idw_values (fixture, values, 1e-12);
}

/* Band 1 of a raster of the fixture's grid, whatever its band count. */
static double *
read_band_of (const Fixture *fixture, const char *name)
{
  g_autofree char *path = fixture_path (fixture, name);
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  double *values = g_new (double, WIDTH * HEIGHT);

  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, 1), GF_Read, 0, 0, WIDTH, HEIGHT, values, WIDTH, HEIGHT,
                                 GDT_Float64, 0, 0), ==, CE_None);
  GDALClose (dataset);
  return values;
}

/* Every raster of an export, the one of α beside it included, carries where it comes from; the method string in it
 * parses back to the very parameters. */
static void
test_metadata_round_trip (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "aidw.tif");
  g_autofree char *alpha_path = fixture_path (fixture, "aidw-alpha.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  params.k = 9;
  params.alpha[0] = 1.1;
  params.alpha[4] = 4.0000000000000009;
  params.r_min = 0.25;
  params.area_mode = SHEPARD_AREA_GIVEN;
  params.area = 1234567.0 / 3.0;
  params.neighbors = 21;
  params.rexp = SHEPARD_REXP_KNN;
  g_autofree char *method = shepard_method_spec_format (&params);
  const char *const open_options[] = { "X_POSSIBLE_NAMES=easting", "Y_POSSIBLE_NAMES=northing", NULL };
  ShepardRasterProvenance provenance = {
    .source = "PG:dbname=samples",
    .layer = "soil\nsamples",
    .field = "zinc",
    .open_options = open_options,
    .n_points = N_POINTS,
    .method = method,
    .engine = engine,
    .precision = SHEPARD_PRECISION_FLOAT64,
  };
  g_auto (GStrv) metadata = shepard_raster_metadata_new (&provenance);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.alpha_path = alpha_path;
  request.format.metadata = (const char *const *) metadata;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  const char *const paths[] = { path, alpha_path };
  for (size_t i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      GDALDatasetH dataset = GDALOpen (paths[i], GA_ReadOnly);
      g_assert_nonnull (dataset);
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_SOURCE", NULL), ==, "PG:dbname=samples");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_LAYER", NULL), ==, "soil samples");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_FIELD", NULL), ==, "zinc");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_OPEN_OPTIONS", NULL), ==,
                       "X_POSSIBLE_NAMES=easting Y_POSSIBLE_NAMES=northing");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_POINTS", NULL), ==, "97");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_ENGINE", NULL), ==, "cpu float64");
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_ENGINE_DESCRIPTION", NULL), ==,
                       shepard_engine_describe (engine));
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_VERSION", NULL), ==, SHEPARD_TEST_VERSION);

      shepard_params parsed;
      g_assert_true (shepard_method_spec_parse (GDALGetMetadataItem (dataset, "SHEPARD_METHOD", NULL), &parsed,
                                                &error));
      g_assert_no_error (error);
      g_assert_true (shepard_params_equal (&parsed, &params));
      GDALClose (dataset);
    }
}

/* GeoTIFF is tiled (256 x 256 blocks) and DEFLATE-compressed with the floating-point predictor by default, and every
 * band has nodata even when the request gives none; keys the request gives win. */
static void
test_geotiff_defaults (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  const char *const given[] = { "COMPRESS=ZSTD", "BLOCKXSIZE=16", "BLOCKYSIZE=16", NULL };
  const struct {
    const char *name;
    const char *const *creation_options;
    const char *compression, *predictor;
    int block;
  } cases[] = {
    { "defaults.tif", NULL, "DEFLATE", "3", 256 },
    { "given.tif", given, "ZSTD", NULL, 16 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = fixture_path (fixture, cases[i].name);
      ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
      request.format.creation_options = cases[i].creation_options;
      request.extra_bands = SHEPARD_GRID_EXPORT_ALL_PLANES;
      g_autoptr (GError) error = NULL;
      g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
      g_assert_no_error (error);

      GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, cases[i].compression);
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "PREDICTOR", "IMAGE_STRUCTURE"), ==, cases[i].predictor);
      /* GDAL's own default for several bands, which the export keeps. */
      g_assert_cmpstr (GDALGetMetadataItem (dataset, "INTERLEAVE", "IMAGE_STRUCTURE"), ==, "PIXEL");
      g_assert_cmpint (GDALGetRasterCount (dataset), ==, 4);
      for (int band = 1; band <= 4; band++)
        {
          int width = 0, height = 0, has_nodata = FALSE;
          GDALGetBlockSize (GDALGetRasterBand (dataset, band), &width, &height);
          g_assert_cmpint (width, ==, cases[i].block);
          g_assert_cmpint (height, ==, cases[i].block);
          g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, band), &has_nodata), ==, -9999.0);
          g_assert_true (has_nodata);
        }
      GDALClose (dataset);
    }
  g_autofree double *values = read_band_of (fixture, "defaults.tif");
  g_autofree double *given_values = read_band_of (fixture, "given.tif");
  g_assert_cmpmem (values, WIDTH * HEIGHT * sizeof (double), given_values, WIDTH * HEIGHT * sizeof (double));
}

static void
test_default_options_and_nodata (void)
{
  const struct {
    const char *driver;
    const char *const given[3];
    const char *expected;
  } cases[] = {
    { NULL, { NULL }, "TILED=YES COMPRESS=DEFLATE PREDICTOR=3 NUM_THREADS=ALL_CPUS" },
    { "GTiff", { "TILED=NO", NULL }, "TILED=NO COMPRESS=DEFLATE PREDICTOR=3 NUM_THREADS=ALL_CPUS" },
    { "GTiff", { "COMPRESS=LZW", NULL }, "COMPRESS=LZW TILED=YES NUM_THREADS=ALL_CPUS" },
    { "GTiff", { "PREDICTOR=1", NULL }, "PREDICTOR=1 TILED=YES COMPRESS=DEFLATE NUM_THREADS=ALL_CPUS" },
    { "GTiff", { "NUM_THREADS=1", NULL }, "NUM_THREADS=1 TILED=YES COMPRESS=DEFLATE PREDICTOR=3" },
    { "COG", { NULL }, "COMPRESS=DEFLATE PREDICTOR=YES NUM_THREADS=ALL_CPUS" },
    { "ENVI", { "INTERLEAVE=BIL", NULL }, "INTERLEAVE=BIL" },
    { "AAIGrid", { NULL }, "" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      ShepardRasterFormat format = { .driver_name = cases[i].driver, .creation_options = cases[i].given };
      g_auto (GStrv) options = shepard_raster_format_creation_options (&format);
      g_autofree char *joined = g_strjoinv (" ", options);
      g_assert_cmpstr (joined, ==, cases[i].expected);
    }

  g_assert_cmpfloat (shepard_raster_default_nodata (GDT_Float32, 113, 1839), ==, -9999.0);
  g_assert_cmpfloat (shepard_raster_default_nodata (GDT_Float32, -9998.5, 0), ==, -9999.0);
  g_assert_cmpfloat (shepard_raster_default_nodata (GDT_Float64, NAN, NAN), ==, -9999.0);
  g_assert_cmpfloat (shepard_raster_default_nodata (GDT_Float32, -12000, -20), ==, -FLT_MAX);
  g_assert_cmpfloat (shepard_raster_default_nodata (GDT_Float64, -9999, -9999), ==, -DBL_MAX);

  g_autoptr (GError) error = NULL;
  g_auto (GStrv) parsed = shepard_raster_creation_options_parse ("  TILED=NO \t COMPRESS=LZW  ", &error);
  g_assert_no_error (error);
  g_autofree char *joined = g_strjoinv ("|", parsed);
  g_assert_cmpstr (joined, ==, "TILED=NO|COMPRESS=LZW");
  g_auto (GStrv) empty = shepard_raster_creation_options_parse ("   ", &error);
  g_assert_no_error (error);
  g_assert_null (empty[0]);
  g_auto (GStrv) bad = shepard_raster_creation_options_parse ("TILED=NO DEFLATE", &error);
  g_assert_null (bad);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT);
  g_assert_nonnull (strstr (error->message, "\"DEFLATE\" must be written NAME=VALUE"));
}

/* The default extent is the points' bounding box; a margin grows it by its percentage of the longer side. */
static void
test_export_extent (void)
{
  const double bounds[4] = { 178605, 329714, 181390, 333611 };
  double extent[4];
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_export_extent (bounds, 0, extent, &error));
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat (extent[i], ==, bounds[i]);
  g_assert_true (shepard_export_extent (bounds, 5, extent, &error));
  const double grown[4] = { 178410.15, 329519.15, 181584.85, 333805.85 };
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat_with_epsilon (extent[i], grown[i], 1e-9);

  /* Points on a line get an area from a margin only; one spot never. */
  const double line[4] = { 0, 5, 100, 5 }, spot[4] = { 3, 3, 3, 3 };
  g_assert_false (shepard_export_extent (line, 0, extent, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_clear_error (&error);
  g_assert_true (shepard_export_extent (line, 10, extent, &error));
  g_assert_cmpfloat (extent[1], ==, -5);
  g_assert_cmpfloat (extent[3], ==, 15);
  g_assert_false (shepard_export_extent (spot, 10, extent, &error));
  g_clear_error (&error);
  g_assert_false (shepard_export_extent (bounds, -1, extent, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);

  /* Found by tests/fuzz: finite points 2e308 apart, and a margin that takes a finite box past the largest double. */
  const double vast[4] = { -1e308, 0, 1e308, 1 };
  g_assert_false (shepard_export_extent (vast, 0, extent, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_export_extent (bounds, 1e308, extent, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
}

static void
test_export_decimals (void)
{
  const struct {
    double coordinates[2];
    double cell;
    int decimals;
  } cases[] = {
    { { 178410.15, 181584.85 }, 40.0626, 2 },  /* as many as the coordinates have, the cell allowing 4 */
    { { 178410.15, 181584.85 }, 4, 0 },        /* no more than the cell size has */
    { { 178605, 181389 }, 2.5, 0 },
    { { 178605.25, 181389 }, 2.5, 1 },
    { { 0.125, 0.5 }, 0.005, 3 },
    { { 1.0 / 3.0, 2 }, 1.0 / 3.0, 6 },        /* six significant digits of the cell at most: 0.333333 */
    { { 178410.15000000001, 0 }, 0.05, 2 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpint (shepard_export_decimals (cases[i].coordinates, 2, cases[i].cell), ==, cases[i].decimals);
}

static char *
write_existing_target (const Fixture *fixture, const char *name)
{
  char *path = fixture_path (fixture, name);
  g_autoptr (GError) error = NULL;

  g_file_set_contents (path, "an existing file that must survive", -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
assert_existing_target_untouched (const Fixture *fixture, const char *path, const char *expected_listing)
{
  g_autofree char *contents = NULL;
  g_autofree char *left = scratch_directory_list (fixture->directory);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, "an existing file that must survive");
  g_assert_cmpstr (left, ==, expected_listing);
}

typedef struct {
  double stop_at;
  double furthest;
} Canceller;

static int CPL_STDCALL
cancel_past (double fraction, const char *message, void *data)
{
  Canceller *canceller = data;

  canceller->furthest = MAX (canceller->furthest, fraction);
  return fraction < canceller->stop_at;
}

static void
test_cancel_keeps_existing_target (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_existing_target (fixture, "idw.tif");
  g_autofree char *alpha_path = write_existing_target (fixture, "alpha.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.alpha_path = alpha_path;
  request.band_bytes = 2 * WIDTH * 2 * sizeof (double); /* bands of 8 rows: 8 / 23 done after the first */
  Canceller canceller = { .stop_at = 0.3 };
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, cancel_past, &canceller, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
  g_assert_cmpfloat (canceller.furthest, <, 0.6);
  assert_existing_target_untouched (fixture, path, "alpha.tif idw.tif");
  assert_existing_target_untouched (fixture, alpha_path, "alpha.tif idw.tif");
}

static void
test_cancel_during_copy (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_existing_target (fixture, "idw.cog.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.format.driver_name = "COG";
  Canceller canceller = { .stop_at = 0.95 };
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, cancel_past, &canceller, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
  g_assert_cmpfloat (canceller.furthest, >=, 0.9);
  assert_existing_target_untouched (fixture, path, "idw.cog.tif");
}

/* Collinear points make AIDW's study area zero: the engine fails after the rasters were created. */
static void
test_engine_failure_keeps_existing_target (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_existing_target (fixture, "idw.tif");
  const double x[] = { 0.0, 1.0, 2.0, 3.0 }, y[] = { 5.0, 5.0, 5.0, 5.0 }, z[] = { 1.0, 2.0, 3.0, 4.0 };
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0,
                                                          &engine_error);
  g_assert_cmpint (shepard_engine_set_points (engine, x, y, z, G_N_ELEMENTS (x), &engine_error), ==, SHEPARD_OK);
  shepard_params params;
  shepard_params_init_aidw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_test_message ("%s", error->message);
  assert_existing_target_untouched (fixture, path, "idw.tif");
}

static void
test_abandoned_raster_leaves_nothing (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_existing_target (fixture, "partial.tif");
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  const ShepardRasterFormat format = { .data_type = GDT_Float32 };
  g_autofree double *row = g_new0 (double, WIDTH);
  g_autoptr (GError) error = NULL;

  ShepardAtomicRaster *raster = shepard_atomic_raster_create (path, &format, WIDTH, HEIGHT, geotransform, &error);
  g_assert_no_error (error);
  g_assert_true (shepard_atomic_raster_write_rows (raster, 0, 1, row, &error));
  g_autofree char *while_writing = scratch_directory_list (fixture->directory);
  g_assert_true (g_str_has_prefix (while_writing, ".partial.tif.shepard-"));
  shepard_atomic_raster_free (raster);
  assert_existing_target_untouched (fixture, path, "partial.tif");
}

static void
test_replaces_target_and_stale_aux (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = write_existing_target (fixture, "idw.tif");
  g_autofree char *stale_aux = write_existing_target (fixture, "idw.tif.aux.xml");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float64);
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "idw.tif");
  double geotransform[6];
  g_autofree double *values = read_raster (path, GDT_Float64, geotransform);
  assert_idw_values (fixture, values, 1e-12);
}

typedef struct {
  const char *driver_name;
  GDALDataType data_type;
  const char *creation_option;
  const char *message_part;
} BadFormat;

static const BadFormat bad_formats[] = {
  { "NoSuchFormat", GDT_Float32, NULL, "unknown raster format \"NoSuchFormat\"" },
  { "ESRI Shapefile", GDT_Float32, NULL, "holds no rasters" },
  { "SENTINEL2", GDT_Float32, NULL, "cannot write" },
  { "PNG", GDT_Float32, NULL, "cannot store Float32" },
  { "GTiff", GDT_Float32, "NO_SUCH_OPTION=1", "NO_SUCH_OPTION" },
  { "GTiff", GDT_Float32, "COMPRESS=SQUEEZE", "SQUEEZE" },
  { "GTiff", GDT_Float32, "COMPRESS", "NAME=VALUE" },
};

static void
test_bad_format (Fixture *fixture, gconstpointer data)
{
  const BadFormat *bad = data;
  if (GDALGetDriverByName (bad->driver_name) == NULL && strcmp (bad->driver_name, "NoSuchFormat") != 0)
    {
      g_test_skip ("this GDAL lacks the driver");
      return;
    }
  g_autofree char *path = fixture_path (fixture, "out.tif");
  const char *const creation_options[] = { bad->creation_option, NULL };
  const ShepardRasterFormat format = {
    .driver_name = bad->driver_name,
    .data_type = bad->data_type,
    .creation_options = creation_options,
  };
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  g_autoptr (GError) error = NULL;

  ShepardAtomicRaster *raster = shepard_atomic_raster_create (path, &format, WIDTH, HEIGHT, geotransform, &error);
  g_assert_null (raster);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, bad->message_part));
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "");
}

static void
test_missing_directory (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = g_build_filename (fixture->directory, "no-such-directory", "out.tif", NULL);
  const ShepardRasterFormat format = { .data_type = GDT_Float32 };
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  g_autoptr (GError) error = NULL;

  g_assert_null (shepard_atomic_raster_create (path, &format, WIDTH, HEIGHT, geotransform, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, "no-such-directory"));
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "");
}

static void
test_unwritable_directory (Fixture *fixture, gconstpointer data)
{
  if (geteuid () == 0)
    {
      g_test_skip ("root writes in any directory: cannot test a refusal");
      return;
    }
  g_autofree char *locked = fixture_path (fixture, "locked");
  g_assert_cmpint (g_mkdir (locked, 0500), ==, 0);
  g_autofree char *path = g_build_filename (locked, "out.tif", NULL);
  const ShepardRasterFormat format = { .data_type = GDT_Float32 };
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  g_autoptr (GError) error = NULL;

  g_assert_null (shepard_atomic_raster_create (path, &format, WIDTH, HEIGHT, geotransform, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
  g_test_message ("%s", error->message);
  g_autofree char *left = scratch_directory_list (locked);
  g_assert_cmpstr (left, ==, "");
  g_chmod (locked, 0700);
}

static void
test_target_is_directory (Fixture *fixture, gconstpointer data)
{
  const ShepardRasterFormat format = { .data_type = GDT_Float32 };
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  g_autoptr (GError) error = NULL;

  g_assert_null (shepard_atomic_raster_create (fixture->directory, &format, WIDTH, HEIGHT, geotransform, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE);
  g_assert_nonnull (strstr (error->message, "is a directory"));
}

/* The planes behind AIDW's power, as extra bands of the value raster and as rasters of their own. */

static const char *const all_band_names[] = { "value", "alpha", "R", "r_obs" };

/* Every band of a raster of WIDTH x HEIGHT cells, band after band, with the description of each. */
static double *
read_bands (const char *path, int expected_bands, GDALDataType expected_type, char ***descriptions)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterXSize (dataset), ==, WIDTH);
  g_assert_cmpint (GDALGetRasterYSize (dataset), ==, HEIGHT);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, expected_bands);

  double *values = g_new (double, (size_t) expected_bands * WIDTH * HEIGHT);
  *descriptions = g_new0 (char *, expected_bands + 1);
  for (int i = 0; i < expected_bands; i++)
    {
      GDALRasterBandH band = GDALGetRasterBand (dataset, i + 1);
      g_assert_cmpint (GDALGetRasterDataType (band), ==, expected_type);
      (*descriptions)[i] = g_strdup (GDALGetDescription (band));
      g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, WIDTH, HEIGHT, values + (size_t) i * WIDTH * HEIGHT, WIDTH,
                                     HEIGHT, GDT_Float64, 0, 0),
                       ==, CE_None);
    }
  GDALClose (dataset);
  return values;
}

/* What the engine gives for the whole grid at once: values, alpha, R and r_obs, plane after plane. */
static double *
direct_planes (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid)
{
  size_t cells = (size_t) WIDTH * HEIGHT;
  double *planes = g_new (double, 4 * cells);
  shepard_outputs outputs = { .values = planes, .alpha = planes + cells, .r_obs = planes + 3 * cells };
  shepard_error engine_error = { 0 };

  g_assert_cmpint (shepard_engine_interpolate_grid (engine, params, grid, &outputs, NULL, NULL, &engine_error), ==,
                   SHEPARD_OK);
  if (params->method == SHEPARD_METHOD_AIDW)
    {
      double r_exp = 0.0;
      g_assert_cmpint (shepard_engine_expected_distance (engine, params, &r_exp, &engine_error), ==, SHEPARD_OK);
      g_assert_cmpfloat (r_exp, >, 0.0);
      for (size_t i = 0; i < cells; i++)
        planes[2 * cells + i] = planes[3 * cells + i] / r_exp;
    }
  return planes;
}

static void
assert_plane (const double *actual, const double *expected, double tolerance, const char *what)
{
  double worst = 0.0;

  for (int i = 0; i < WIDTH * HEIGHT; i++)
    worst = MAX (worst, fabs (actual[i] - expected[i]) / MAX (fabs (expected[i]), 1e-300));
  g_test_message ("%s: largest relative difference from the engine %.3g", what, worst);
  g_assert_cmpfloat (worst, <=, tolerance);
}

/* The four bands of path, band after band: each described by its plane's name and, within tolerance, the engine's. */
static double *
read_all_planes (const char *path, GDALDataType data_type, double tolerance, shepard_engine *engine,
                 const shepard_params *params, const shepard_grid *grid)
{
  size_t cells = (size_t) WIDTH * HEIGHT;
  g_auto (GStrv) descriptions = NULL;
  double *bands = read_bands (path, 4, data_type, &descriptions);
  g_autofree double *direct = direct_planes (engine, params, grid);

  for (int i = 0; i < 4; i++)
    {
      g_assert_cmpstr (descriptions[i], ==, all_band_names[i]);
      assert_plane (bands + i * cells, direct + i * cells, tolerance, all_band_names[i]);
    }
  return bands;
}

/* r_obs written out plainly: the mean distance from the cell centre to its k nearest points. */
static void
assert_r_obs_brute_force (const Fixture *fixture, const double *r_obs, int k)
{
  for (int row = 0; row < HEIGHT; row++)
    for (int col = 0; col < WIDTH; col++)
      {
        double qx = X_MIN + (col + 0.5) * SIDE / WIDTH;
        double qy = Y_MIN + SIDE - (row + 0.5) * SIDE / HEIGHT;
        double distances[N_POINTS];
        for (int i = 0; i < N_POINTS; i++)
          distances[i] = hypot (qx - fixture->x[i], qy - fixture->y[i]);
        double sum = 0.0;
        for (int j = 0; j < k; j++)
          {
            int nearest = j;
            for (int i = j + 1; i < N_POINTS; i++)
              if (distances[i] < distances[nearest])
                nearest = i;
            double swap = distances[j];
            distances[j] = distances[nearest];
            distances[nearest] = swap;
            sum += distances[j];
          }
        g_assert_cmpfloat_with_epsilon (r_obs[row * WIDTH + col], sum / k, 1e-9 * sum / k);
      }
}

static void
test_planes_as_bands_and_files (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  params.r_max = 6.0; /* so that alpha varies over the grid (see test_aidw_alpha_raster) */
  g_autofree char *value_path = fixture_path (fixture, "aidw.tif");
  g_autofree char *alpha_path = fixture_path (fixture, "alpha.tif");
  g_autofree char *r_path = fixture_path (fixture, "r.tif");
  g_autofree char *r_obs_path = fixture_path (fixture, "robs.tif");
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float64);
  request.extra_bands = SHEPARD_GRID_EXPORT_ALL_PLANES;
  request.alpha_path = alpha_path;
  request.r_path = r_path;
  request.r_obs_path = r_obs_path;
  request.format.has_nodata = TRUE;
  request.format.nodata = -9999.0;
  request.band_bytes = 4 * WIDTH * 4 * sizeof (double); /* bands of 8 rows, the fewest */
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "aidw.tif alpha.tif r.tif robs.tif");

  size_t cells = (size_t) WIDTH * HEIGHT;
  g_autofree double *bands = read_all_planes (value_path, GDT_Float64, 1e-9, engine, &params, &fixture->grid);
  assert_r_obs_brute_force (fixture, bands + 3 * cells, params.k);

  GDALDatasetH dataset = GDALOpen (value_path, GA_ReadOnly);
  double geotransform[6];
  g_assert_cmpint (GDALGetGeoTransform (dataset, geotransform), ==, CE_None);
  assert_geotransform (geotransform);
  for (int i = 1; i <= 4; i++)
    {
      int has_nodata = FALSE;
      g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, i), &has_nodata), ==, -9999.0);
      g_assert_true (has_nodata);
    }
  GDALClose (dataset);
  assert_crs_is_utm_31n (value_path);

  /* Each raster of its own holds exactly its band of the value raster. */
  const char *own_paths[] = { alpha_path, r_path, r_obs_path };
  for (int i = 0; i < 3; i++)
    {
      g_auto (GStrv) own_description = NULL;
      g_autofree double *own = read_bands (own_paths[i], 1, GDT_Float64, &own_description);
      g_assert_cmpstr (own_description[0], ==, "");
      g_assert_cmpmem (own, cells * sizeof (double), bands + (i + 1) * cells, cells * sizeof (double));
      assert_crs_is_utm_31n (own_paths[i]);
    }

  double r_min = INFINITY, r_max = -INFINITY;
  for (size_t i = 0; i < cells; i++)
    {
      r_min = MIN (r_min, bands[2 * cells + i]);
      r_max = MAX (r_max, bands[2 * cells + i]);
    }
  g_test_message ("R from %.4f to %.4f", r_min, r_max);
  g_assert_cmpfloat (r_max, >, r_min);
}

/* Band 1 takes the field's name; the planes keep their order whatever was asked first. */
static void
test_planes_value_name_and_order (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT32);
  shepard_params params;
  shepard_params_init_aidw (&params);
  g_autofree char *value_path = fixture_path (fixture, "zinc.tif");
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float32);
  request.extra_bands = SHEPARD_GRID_EXPORT_R_OBS | SHEPARD_GRID_EXPORT_ALPHA;
  request.value_name = "zinc";
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  size_t cells = (size_t) WIDTH * HEIGHT;
  g_auto (GStrv) descriptions = NULL;
  g_autofree double *bands = read_bands (value_path, 3, GDT_Float32, &descriptions);
  g_assert_cmpstr (descriptions[0], ==, "zinc");
  g_assert_cmpstr (descriptions[1], ==, "alpha");
  g_assert_cmpstr (descriptions[2], ==, "r_obs");
  g_autofree double *direct = direct_planes (engine, &params, &fixture->grid);
  assert_plane (bands, direct, 1e-6, "value");
  assert_plane (bands + cells, direct + cells, 1e-6, "alpha");
  assert_plane (bands + 2 * cells, direct + 3 * cells, 1e-6, "r_obs");
}

/* IDW's alpha is its power p in every cell, as a band and as a raster of its own. */
static void
test_planes_idw_alpha (Fixture *fixture, gconstpointer data)
{
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_idw (&params);
  params.power = 2.5;
  g_autofree char *value_path = fixture_path (fixture, "idw.tif");
  g_autofree char *alpha_path = fixture_path (fixture, "alpha.tif");
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float64);
  request.extra_bands = SHEPARD_GRID_EXPORT_ALPHA;
  request.alpha_path = alpha_path;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  size_t cells = (size_t) WIDTH * HEIGHT;
  g_auto (GStrv) descriptions = NULL;
  g_auto (GStrv) own_description = NULL;
  g_autofree double *bands = read_bands (value_path, 2, GDT_Float64, &descriptions);
  g_autofree double *alpha = read_bands (alpha_path, 1, GDT_Float64, &own_description);
  g_assert_cmpstr (descriptions[1], ==, "alpha");
  for (size_t i = 0; i < cells; i++)
    {
      g_assert_cmpfloat (bands[cells + i], ==, 2.5);
      g_assert_cmpfloat (alpha[i], ==, 2.5);
    }
}

static gboolean progress_called;

static int CPL_STDCALL
record_progress (double fraction, const char *message, void *data)
{
  progress_called = TRUE;
  return TRUE;
}

typedef struct {
  const char *name;
  const char *driver_name;
  ShepardGridExportPlanes extra_bands;
  gboolean r_file, r_obs_file; /* ask for R, r_obs in a raster of its own */
  gboolean same_file;          /* the R raster is the value raster */
  shepard_method method;
  int code; /* in SHEPARD_APP_ERROR */
  const char *message_part;
} RefusedPlanes;

static const RefusedPlanes refused_planes[] = {
  { "idw-r-band", NULL, SHEPARD_GRID_EXPORT_R, .method = SHEPARD_METHOD_IDW,
    .code = SHEPARD_APP_ERROR_INVALID_PARAMETER, .message_part = "R (AIDW's density ratio" },
  { "idw-r-obs-band", NULL, SHEPARD_GRID_EXPORT_ALPHA | SHEPARD_GRID_EXPORT_R_OBS, .method = SHEPARD_METHOD_IDW,
    .code = SHEPARD_APP_ERROR_INVALID_PARAMETER, .message_part = "only for AIDW" },
  { "idw-r-file", NULL, 0, .r_file = TRUE, .method = SHEPARD_METHOD_IDW,
    .code = SHEPARD_APP_ERROR_INVALID_PARAMETER, .message_part = "choose the aidw method" },
  { "idw-r-obs-file", NULL, 0, .r_obs_file = TRUE, .method = SHEPARD_METHOD_IDW,
    .code = SHEPARD_APP_ERROR_INVALID_PARAMETER, .message_part = "r_obs" },
  { "png-extra-bands", "PNG", SHEPARD_GRID_EXPORT_ALPHA, .method = SHEPARD_METHOD_AIDW,
    .code = SHEPARD_APP_ERROR_FORMAT, .message_part = "PNG" },
  { "one-band-format", "AAIGrid", SHEPARD_GRID_EXPORT_ALPHA | SHEPARD_GRID_EXPORT_R, .method = SHEPARD_METHOD_AIDW,
    .code = SHEPARD_APP_ERROR_FORMAT, .message_part = "cannot hold 3 bands of Float32" },
  { "same-file", NULL, 0, .r_file = TRUE, .same_file = TRUE, .method = SHEPARD_METHOD_AIDW,
    .code = SHEPARD_APP_ERROR_SAME_FILE, .message_part = "file of its own" },
};

/* Refused before any work: no progress, nothing written, the existing value raster untouched. */
static void
test_planes_refused (Fixture *fixture, gconstpointer data)
{
  const RefusedPlanes *refused = data;
  if (refused->driver_name != NULL && GDALGetDriverByName (refused->driver_name) == NULL)
    {
      g_test_skip ("this GDAL lacks the driver");
      return;
    }
  g_autofree char *value_path = write_existing_target (fixture, "out.tif");
  g_autofree char *r_path = fixture_path (fixture, refused->same_file ? "out.tif" : "r.tif");
  g_autofree char *r_obs_path = fixture_path (fixture, "robs.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT32);
  shepard_params params;
  if (refused->method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float32);
  request.format.driver_name = refused->driver_name;
  request.extra_bands = refused->extra_bands;
  request.r_path = refused->r_file ? r_path : NULL;
  request.r_obs_path = refused->r_obs_file ? r_obs_path : NULL;
  g_autoptr (GError) error = NULL;

  progress_called = FALSE;
  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, record_progress, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, refused->code);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, refused->message_part));
  g_assert_false (progress_called);
  assert_existing_target_untouched (fixture, value_path, "out.tif");

  g_clear_error (&error);
  g_assert_false (shepard_grid_export_check (&params, &request, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, refused->code);
}

/* R needs AIDW's study area: with none, the export fails before it creates anything. */
static void
test_planes_r_without_area (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "line.tif");
  const double x[] = { 0.0, 1.0, 2.0, 3.0 }, y[] = { 5.0, 5.0, 5.0, 5.0 }, z[] = { 1.0, 2.0, 3.0, 4.0 };
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0,
                                                          &engine_error);
  g_assert_cmpint (shepard_engine_set_points (engine, x, y, z, G_N_ELEMENTS (x), &engine_error), ==, SHEPARD_OK);
  shepard_params params;
  shepard_params_init_aidw (&params);
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.extra_bands = SHEPARD_GRID_EXPORT_R;
  g_autoptr (GError) error = NULL;

  progress_called = FALSE;
  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, record_progress, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_assert_false (progress_called);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "");
}

/* A cancel halfway leaves every target as it was, whichever raster holds which planes. */
static void
test_planes_cancel (Fixture *fixture, gconstpointer data)
{
  g_autofree char *value_path = write_existing_target (fixture, "aidw.tif");
  g_autofree char *alpha_path = write_existing_target (fixture, "alpha.tif");
  g_autofree char *r_path = write_existing_target (fixture, "r.tif");
  g_autofree char *r_obs_path = fixture_path (fixture, "robs.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  ShepardGridExport request = fixture_request (fixture, value_path, GDT_Float32);
  request.extra_bands = SHEPARD_GRID_EXPORT_ALL_PLANES;
  request.alpha_path = alpha_path;
  request.r_path = r_path;
  request.r_obs_path = r_obs_path;
  request.band_bytes = 2 * WIDTH * 4 * sizeof (double); /* bands of 8 rows: 8 / 23 done after the first */
  Canceller canceller = { .stop_at = 0.3 };
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, cancel_past, &canceller, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
  g_assert_cmpfloat (canceller.furthest, >=, 0.3);
  g_assert_cmpfloat (canceller.furthest, <, 0.6);
  assert_existing_target_untouched (fixture, value_path, "aidw.tif alpha.tif r.tif");
  assert_existing_target_untouched (fixture, alpha_path, "aidw.tif alpha.tif r.tif");
  assert_existing_target_untouched (fixture, r_path, "aidw.tif alpha.tif r.tif");
}

/* COG copies the bands, their descriptions and nodata from the scratch GeoTIFF; a cancel while the rasters are
 * copied into the format leaves none of them. */
static void
test_planes_cog (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "aidw.cog.tif");
  g_autofree char *r_obs_path = fixture_path (fixture, "robs.cog.tif");
  g_autoptr (shepard_engine) engine = fixture_engine (fixture, SHEPARD_PRECISION_FLOAT64);
  shepard_params params;
  shepard_params_init_aidw (&params);
  const char *const creation_options[] = { "COMPRESS=DEFLATE", NULL };
  ShepardGridExport request = fixture_request (fixture, path, GDT_Float32);
  request.format.driver_name = "COG";
  request.format.creation_options = creation_options;
  request.format.has_nodata = TRUE;
  request.format.nodata = -1.0;
  request.extra_bands = SHEPARD_GRID_EXPORT_ALL_PLANES;
  request.r_obs_path = r_obs_path;
  g_autoptr (GError) error = NULL;

  Canceller canceller = { .stop_at = 0.97 };
  g_assert_false (shepard_grid_export (engine, &params, &fixture->grid, &request, cancel_past, &canceller, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
  g_autofree char *left_after_cancel = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left_after_cancel, ==, "");
  g_clear_error (&error);

  g_assert_true (shepard_grid_export (engine, &params, &fixture->grid, &request, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree char *left = scratch_directory_list (fixture->directory);
  g_assert_cmpstr (left, ==, "aidw.cog.tif robs.cog.tif");

  size_t cells = (size_t) WIDTH * HEIGHT;
  g_autofree double *bands = read_all_planes (path, GDT_Float32, 1e-6, engine, &params, &fixture->grid);
  g_auto (GStrv) own_description = NULL;
  g_autofree double *r_obs = read_bands (r_obs_path, 1, GDT_Float32, &own_description);
  g_assert_cmpmem (r_obs, cells * sizeof (double), bands + 3 * cells, cells * sizeof (double));

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "LAYOUT", "IMAGE_STRUCTURE"), ==, "COG");
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, "DEFLATE");
  int has_nodata = FALSE;
  g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, 4), &has_nodata), ==, -1.0);
  g_assert_true (has_nodata);
  GDALClose (dataset);
}

/* The atomic raster on its own: bands written in any order, each with its description. */
static void
test_atomic_bands (Fixture *fixture, gconstpointer data)
{
  g_autofree char *path = fixture_path (fixture, "bands.tif");
  double geotransform[6];
  shepard_grid_geotransform (&fixture->grid, geotransform);
  const ShepardRasterFormat format = { .data_type = GDT_Float64 };
  const char *const descriptions[] = { "first", NULL, "third" };
  g_autofree double *rows = g_new (double, WIDTH * HEIGHT);
  g_autoptr (GError) error = NULL;

  g_autoptr (ShepardAtomicRaster) raster = shepard_atomic_raster_create_bands (path, &format, WIDTH, HEIGHT, 3,
                                                                               descriptions, geotransform, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (shepard_atomic_raster_get_n_bands (raster), ==, 3);
  for (size_t band = 3; band >= 1; band--)
    {
      for (int i = 0; i < WIDTH * HEIGHT; i++)
        rows[i] = 1000.0 * (double) band + i;
      g_assert_true (shepard_atomic_raster_write_band_rows (raster, band, 0, 10, rows, &error));
      g_assert_true (shepard_atomic_raster_write_band_rows (raster, band, 10, HEIGHT - 10, rows + 10 * WIDTH,
                                                            &error));
    }
  g_assert_true (shepard_atomic_raster_finish (raster, NULL, NULL, &error));
  g_assert_true (shepard_atomic_raster_commit (raster, &error));
  g_assert_no_error (error);

  g_auto (GStrv) read_descriptions = NULL;
  g_autofree double *bands = read_bands (path, 3, GDT_Float64, &read_descriptions);
  g_assert_cmpstr (read_descriptions[0], ==, "first");
  g_assert_cmpstr (read_descriptions[1], ==, "");
  g_assert_cmpstr (read_descriptions[2], ==, "third");
  for (int band = 0; band < 3; band++)
    for (int i = 0; i < WIDTH * HEIGHT; i++)
      g_assert_cmpfloat (bands[band * WIDTH * HEIGHT + i], ==, 1000.0 * (band + 1) + i);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();
  CPLSetErrorHandler (CPLQuietErrorHandler);

#define ADD_TEST(path, function) \
  g_test_add ("/app/raster-writer/" path, Fixture, NULL, fixture_set_up, function, fixture_tear_down)
  ADD_TEST ("geotiff/float32-nodata-crs", test_geotiff_float32);
  ADD_TEST ("geotiff/float64", test_geotiff_float64);
  ADD_TEST ("bands-match-whole-grid", test_bands_match_whole_grid);
  ADD_TEST ("blocks-written-once", test_blocks_written_once);
  ADD_TEST ("write-failure-mid-export", test_write_failure_mid_export);
  ADD_TEST ("aidw-alpha-raster", test_aidw_alpha_raster);
  ADD_TEST ("cog-through-copy", test_cog_through_copy);
  ADD_TEST ("multi-file-format", test_multi_file_format);
  ADD_TEST ("metadata/round-trip", test_metadata_round_trip);
  ADD_TEST ("geotiff/defaults", test_geotiff_defaults);
  g_test_add_func ("/app/raster-writer/format/default-options-and-nodata", test_default_options_and_nodata);
  g_test_add_func ("/app/raster-writer/export-extent", test_export_extent);
  g_test_add_func ("/app/raster-writer/export-decimals", test_export_decimals);
  ADD_TEST ("atomic/cancel-keeps-existing-target", test_cancel_keeps_existing_target);
  ADD_TEST ("atomic/cancel-during-copy", test_cancel_during_copy);
  ADD_TEST ("atomic/engine-failure-keeps-existing-target", test_engine_failure_keeps_existing_target);
  ADD_TEST ("atomic/abandoned-raster-leaves-nothing", test_abandoned_raster_leaves_nothing);
  ADD_TEST ("atomic/replaces-target-and-stale-aux", test_replaces_target_and_stale_aux);
  ADD_TEST ("planes/as-bands-and-files", test_planes_as_bands_and_files);
  ADD_TEST ("planes/value-name-and-order", test_planes_value_name_and_order);
  ADD_TEST ("planes/idw-alpha", test_planes_idw_alpha);
  ADD_TEST ("planes/r-without-area", test_planes_r_without_area);
  ADD_TEST ("planes/cancel-keeps-existing-targets", test_planes_cancel);
  ADD_TEST ("planes/cog", test_planes_cog);
  ADD_TEST ("atomic/bands", test_atomic_bands);
  ADD_TEST ("bad-output/missing-directory", test_missing_directory);
  ADD_TEST ("bad-output/unwritable-directory", test_unwritable_directory);
  ADD_TEST ("bad-output/target-is-directory", test_target_is_directory);
  for (size_t i = 0; i < G_N_ELEMENTS (bad_formats); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/raster-writer/bad-output/format/%zu", i);
      g_test_add (path, Fixture, &bad_formats[i], fixture_set_up, test_bad_format, fixture_tear_down);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (refused_planes); i++)
    {
      g_autofree char *path = g_strconcat ("/app/raster-writer/planes/refused/", refused_planes[i].name, NULL);
      g_test_add (path, Fixture, &refused_planes[i], fixture_set_up, test_planes_refused, fixture_tear_down);
    }
#undef ADD_TEST
  return g_test_run ();
}
