/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid with gdal_grid's options (issue 14): the neighbourhood and nodata against a hand case and against
 * gdal_grid invdistnn, -tap, several fields in one raster, duplicate points and values near the largest double. */
#include "cli-gdal-grid.h"
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"

#include <float.h>
#include <gdal.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define MEUSE_GRID "-txe", "178500", "181500", "-tye", "329650", "333750", "-outsize", "75", "103"

static CliPoints *
meuse (const char *field)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");

  return cli_points_read_csv (source, field);
}

/* -tap: the extent of -tr 40 40 and -tr 50 30 grown outwards to multiples of the cell size, as gdalwarp does. The
 * meuse box, 178605 to 181390 and 329714 to 333611, lies on no multiple of these sizes; the aligned corners and sizes
 * are worked out by hand. */
static void
test_tap (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "tap.tif", NULL);
  g_autoptr (CliPoints) points = meuse ("zinc");
  double x_min, x_max, y_min, y_max;
  const struct {
    double x_res, y_res, x_min, y_max, x_max, y_min;
    int width, height;
  } cases[] = {
    { 40.0, 40.0, 178600.0, 333640.0, 181400.0, 329680.0, 70, 99 },
    { 50.0, 30.0, 178600.0, 333630.0, 181400.0, 329700.0, 56, 131 },
  };

  cli_points_bounds (points, &x_min, &x_max, &y_min, &y_max);
  g_assert_cmpfloat (x_min, ==, 178605.0);
  g_assert_cmpfloat (x_max, ==, 181390.0);
  g_assert_cmpfloat (y_min, ==, 329714.0);
  g_assert_cmpfloat (y_max, ==, 333611.0);
  for (gsize i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *x_text = g_strdup_printf ("%g", cases[i].x_res);
      g_autofree char *y_text = g_strdup_printf ("%g", cases[i].y_res);
      const char *args[] = { "-zfield", "zinc", "-tr", x_text, y_text, "-tap", "-q", source, output, NULL };
      g_autoptr (CliRun) run = cli_run (args);
      cli_assert_success (run);

      g_autoptr (CliRaster) raster = cli_raster_read (output);
      g_test_message ("-tr %g %g -tap: geotransform %.17g %.17g %.17g %.17g %.17g %.17g, %d x %d", cases[i].x_res,
                      cases[i].y_res, raster->geotransform[0], raster->geotransform[1], raster->geotransform[2],
                      raster->geotransform[3], raster->geotransform[4], raster->geotransform[5], raster->width,
                      raster->height);
      g_assert_cmpfloat (raster->geotransform[0], ==, cases[i].x_min);
      g_assert_cmpfloat (raster->geotransform[3], ==, cases[i].y_max);
      g_assert_cmpfloat_with_epsilon (raster->geotransform[1], cases[i].x_res, 1e-9);
      g_assert_cmpfloat_with_epsilon (raster->geotransform[5], -cases[i].y_res, 1e-9);
      g_assert_cmpint (raster->width, ==, cases[i].width);
      g_assert_cmpint (raster->height, ==, cases[i].height);
      /* The far corner on a multiple of the cell size too. */
      double x_end = raster->geotransform[0] + raster->width * raster->geotransform[1];
      double y_end = raster->geotransform[3] + raster->height * raster->geotransform[5];
      g_assert_cmpfloat_with_epsilon (x_end, cases[i].x_max, 1e-6);
      g_assert_cmpfloat_with_epsilon (y_end, cases[i].y_min, 1e-6);
    }
  scratch_directory_remove (directory);
}

typedef struct {
  int width, height;
  int n_bands;
  double geotransform[6];
  char **descriptions; /* one per band */
  double *nodata;      /* one per band */
  double *values;      /* band after band, row-major */
} MultiBandRaster;

static void
multi_band_raster_free (MultiBandRaster *raster)
{
  g_strfreev (raster->descriptions);
  g_free (raster->nodata);
  g_free (raster->values);
  g_free (raster);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MultiBandRaster, multi_band_raster_free)

static MultiBandRaster *
multi_band_raster_read (const char *path)
{
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  MultiBandRaster *raster = g_new0 (MultiBandRaster, 1);
  raster->width = GDALGetRasterXSize (dataset);
  raster->height = GDALGetRasterYSize (dataset);
  raster->n_bands = GDALGetRasterCount (dataset);
  g_assert_cmpint (GDALGetGeoTransform (dataset, raster->geotransform), ==, CE_None);
  raster->descriptions = g_new0 (char *, raster->n_bands + 1);
  raster->nodata = g_new (double, raster->n_bands);
  size_t cells = (size_t) raster->width * raster->height;
  raster->values = g_new (double, cells * raster->n_bands);
  for (int band = 0; band < raster->n_bands; band++)
    {
      GDALRasterBandH handle = GDALGetRasterBand (dataset, band + 1);
      int has_nodata = FALSE;
      raster->descriptions[band] = g_strdup (GDALGetDescription (handle));
      raster->nodata[band] = GDALGetRasterNoDataValue (handle, &has_nodata);
      g_assert_true (has_nodata);
      g_assert_cmpint (GDALRasterIO (handle, GF_Read, 0, 0, raster->width, raster->height,
                                     raster->values + band * cells, raster->width, raster->height, GDT_Float64, 0, 0),
                       ==, CE_None);
    }
  GDALClose (dataset);
  return raster;
}

static MultiBandRaster *
run_meuse_fields (const char *directory, const char *name, const char *fields, const char *method,
                  const char *output_type)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, name, NULL);
  const char *args[] = { "-zfield", fields, "-a", method, MEUSE_GRID, "-ot", output_type, "--backend", "cpu",
                         source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_test_message ("-zfield %s: %s", fields, run->standard_error);
  return multi_band_raster_read (output);
}

/* -zfield zinc,om,cadmium: one band per field, described by its name, each equal to a run of that field alone. om
 * has two NA rows, so it goes through an engine of its own; zinc and cadmium share one. */
static void
assert_fields_equal_single_runs (const char *output_type, double tolerance)
{
  static const char *const fields[] = { "zinc", "om", "cadmium" };
  const char *method = "idw:power=2:radius=400:max_points=20:min_points=3:nodata=-32768";
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autoptr (MultiBandRaster) together = run_meuse_fields (directory, "fields.tif", "zinc,om,cadmium", method,
                                                           output_type);
  size_t cells = (size_t) together->width * together->height;
  size_t nodata_cells = 0;

  g_assert_cmpint (together->n_bands, ==, G_N_ELEMENTS (fields));
  for (int band = 0; band < together->n_bands; band++)
    {
      g_autofree char *name = g_strdup_printf ("%s.tif", fields[band]);
      g_autoptr (MultiBandRaster) alone = run_meuse_fields (directory, name, fields[band], method, output_type);
      g_assert_cmpstr (together->descriptions[band], ==, fields[band]);
      g_assert_cmpfloat (together->nodata[band], ==, -32768.0);
      g_assert_cmpfloat (alone->nodata[0], ==, -32768.0);
      g_assert_cmpmem (together->geotransform, sizeof together->geotransform, alone->geotransform,
                       sizeof alone->geotransform);
      for (size_t i = 0; i < cells; i++)
        {
          double value = together->values[band * cells + i], expected = alone->values[i];
          if (expected == -32768.0)
            {
              g_assert_cmpfloat (value, ==, -32768.0);
              nodata_cells++;
            }
          else
            g_assert_cmpfloat_with_epsilon (value, expected, tolerance * fabs (expected));
        }
    }
  /* The radius leaves the corners of the grid without data: the comparison covered nodata cells too. */
  g_assert_cmpuint (nodata_cells, >, 0);
  g_assert_cmpuint (nodata_cells, <, G_N_ELEMENTS (fields) * cells);
  scratch_directory_remove (directory);
}

static void
test_fields_float64 (void)
{
  assert_fields_equal_single_runs ("Float64", 1e-12);
}

static void
test_fields_float32 (void)
{
  assert_fields_equal_single_runs ("Float32", 1e-6);
}

/* The report per field: om skips its two NA rows, the others skip nothing. */
static void
test_fields_report (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "fields.tif", NULL);
  const char *args[] = { "-zfield", "zinc,om", "-outsize", "10", "10", "--backend", "cpu", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_assert_nonnull (strstr (run->standard_error, "Input: 155 points of layer \"meuse\", field \"zinc\"\n"));
  g_assert_nonnull (strstr (run->standard_error, "Input: 153 points of layer \"meuse\", field \"om\" (skipped 2 with "
                                                 "a value marked missing (NA...))\n"));
  scratch_directory_remove (directory);
}

/* The weighting neighbourhood written out plainly: the points within radius (inclusive), nearest first, up to
 * max_points; fewer than min_points: NAN. Independent of the engine and of gdal_grid. */
static double
reference_idw_within (const CliPoints *points, double x, double y, double power, double radius, int max_points,
                      int min_points)
{
  g_autofree double *distances = g_new (double, points->n);
  g_autofree gsize *order = g_new (gsize, points->n);
  gsize n_within = 0;

  for (gsize i = 0; i < points->n; i++)
    {
      double d = hypot (points->x[i] - x, points->y[i] - y);
      if (d > radius)
        continue;
      /* Insertion by distance, ties by index. */
      gsize at = n_within++;
      while (at > 0 && distances[at - 1] > d)
        {
          distances[at] = distances[at - 1];
          order[at] = order[at - 1];
          at--;
        }
      distances[at] = d;
      order[at] = i;
    }
  gsize n_used = max_points > 0 ? MIN (n_within, (gsize) max_points) : n_within;
  if (n_used < (gsize) MAX (min_points, 1))
    return NAN;
  if (distances[0] == 0.0)
    return points->z[order[0]];
  double sum_w = 0.0, sum_wz = 0.0;
  for (gsize j = 0; j < n_used; j++)
    {
      double w = pow (distances[j], -power);
      sum_w += w;
      sum_wz += w * points->z[order[j]];
    }
  return sum_wz / sum_w;
}

/* Three points; radius 3 and min_points 2 leave most cells without data. By hand, with p = 2 on the 2-unit grid:
 * on A (0, 0) the value is A's, 1 (B is within the radius, so two points); at (0, 2) A and B at 2 and sqrt (8) give
 * (1/4 + 3/8) / (3/8) = 5/3; at (4, 0) only B is within 3: nodata; C (10, 10) is alone: nodata on it too. */
static void
test_min_points_nodata (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "three.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "three.tif", NULL);
  const double x[] = { 0.0, 2.0, 10.0 }, y[] = { 0.0, 0.0, 10.0 }, z[] = { 1.0, 3.0, 5.0 };
  g_autoptr (CliPoints) points = cli_points_new_from (x, y, z, G_N_ELEMENTS (x));

  cli_points_write_gpkg_layer (points, source, "three", "value", CLI_GEOMETRY_POINTS);
  const char *args[] = { "-zfield", "value", "-a", "idw:power=2:radius=3:min_points=2:nodata=-32768", "-txe", "-1",
                         "11", "-tye", "-1", "11", "-outsize", "6", "6", "-ot", "Float64", "-q", source, output,
                         NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);

  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_assert_true (raster->has_nodata);
  g_assert_cmpfloat (raster->nodata, ==, -32768.0);
  /* Row 0 is the top, y = 10; column 0 is x = 0. */
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 5, 0), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 5, 1), 3.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 4, 0), 5.0 / 3.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 4, 1), 7.0 / 3.0, 1e-12);
  g_assert_cmpfloat (cli_raster_value (raster, 5, 2), ==, -32768.0);
  g_assert_cmpfloat (cli_raster_value (raster, 0, 5), ==, -32768.0);
  g_assert_cmpfloat (cli_raster_value (raster, 1, 4), ==, -32768.0);
  size_t nodata_cells = 0;
  for (int row = 0; row < raster->height; row++)
    for (int column = 0; column < raster->width; column++)
      {
        double cx, cy;
        cli_raster_cell_centre (raster, row, column, &cx, &cy);
        double expected = reference_idw_within (points, cx, cy, 2.0, 3.0, 0, 2);
        double value = cli_raster_value (raster, row, column);
        if (isnan (expected))
          {
            g_assert_cmpfloat (value, ==, -32768.0);
            nodata_cells++;
          }
        else
          g_assert_cmpfloat_with_epsilon (value, expected, 1e-12 * fabs (expected));
      }
  g_assert_cmpuint (nodata_cells, ==, 36 - 4);
  scratch_directory_remove (directory);
}

/* Whether a cell's selection could go either way: two candidates within the radius at the same distance (to 1e-9
 * relative), or one on the radius. gdal_grid and we may then pick different points; elsewhere both pick the same. */
static gboolean
has_ties_at_the_cut (const CliPoints *points, double x, double y, double radius)
{
  g_autofree double *distances = g_new (double, points->n);
  gsize n = 0;

  for (gsize i = 0; i < points->n; i++)
    {
      double d = hypot (points->x[i] - x, points->y[i] - y);
      if (fabs (d - radius) <= 1e-9 * radius)
        return TRUE;
      if (d < radius)
        distances[n++] = d;
    }
  for (gsize i = 0; i < n; i++)
    for (gsize j = i + 1; j < n; j++)
      if (fabs (distances[i] - distances[j]) <= 1e-9 * MAX (distances[i], distances[j]))
        return TRUE;
  return FALSE;
}

typedef struct {
  const char *gdal_method;
  const char *shepard_method;
  double radius;
} GdalGridCase;

static const GdalGridCase gdal_grid_cases[] = {
  { "invdistnn:power=2:radius=500:max_points=12:min_points=3:nodata=-9999",
    "idw:power=2:radius=500:max_points=12:min_points=3:nodata=-9999", 500.0 },
  { "invdistnn:power=2:radius=700:max_points=16:min_points=4:max_points_per_quadrant=4:min_points_per_quadrant=1"
    ":nodata=-9999",
    "idw:power=2:radius=700:max_points=16:min_points=4:max_points_per_quadrant=4:min_points_per_quadrant=1"
    ":nodata=-9999",
    700.0 },
};

/* Every cell against gdal_grid invdistnn on meuse: equal within 1e-5 relative where no tie decides the selection,
 * nodata in exactly the same cells. */
static void
test_matches_gdal_grid_invdistnn (gconstpointer data)
{
  const GdalGridCase *grid_case = data;
  g_autofree char *gdal_grid = cli_gdal_grid_find_or_skip ();
  if (gdal_grid == NULL)
    return;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "shepard.tif", NULL);
  const char *grid_args[] = { MEUSE_GRID, NULL };
  const char *args[] = { "-zfield", "zinc", "-a", grid_case->shepard_method, MEUSE_GRID, "-ot", "Float64",
                         "--backend", "cpu", "-q", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);
  g_autoptr (CliRaster) expected = cli_gdal_grid_meuse (gdal_grid, directory, grid_case->gdal_method, grid_args);
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  g_autoptr (CliPoints) points = meuse ("zinc");
  gsize compared = 0, tied = 0, nodata_cells = 0;
  double largest_difference = 0.0;

  g_assert_cmpfloat (raster->nodata, ==, -9999.0);
  g_assert_cmpfloat (expected->nodata, ==, -9999.0);
  for (int row = 0; row < raster->height; row++)
    for (int column = 0; column < raster->width; column++)
      {
        int expected_row, expected_column;
        double x, y;
        cli_raster_cell_centre (raster, row, column, &x, &y);
        g_assert_true (cli_raster_cell_at (expected, x, y, &expected_row, &expected_column));
        double expected_value = cli_raster_value (expected, expected_row, expected_column);
        double value = cli_raster_value (raster, row, column);
        if (has_ties_at_the_cut (points, x, y, grid_case->radius))
          {
            tied++;
            continue;
          }
        compared++;
        if (expected_value == -9999.0 || value == -9999.0)
          {
            g_assert_cmpfloat (value, ==, expected_value);
            nodata_cells++;
            continue;
          }
        largest_difference = fmax (largest_difference, fabs (value - expected_value) / fabs (expected_value));
        g_assert_cmpfloat_with_epsilon (value, expected_value, 1e-5 * fabs (expected_value));
      }
  g_test_message ("%s: %zu cells compared (%zu nodata), %zu with ties left out; largest relative difference %.3g",
                  grid_case->gdal_method, compared, nodata_cells, tied, largest_difference);
  g_assert_cmpuint (compared, >, 9 * (gsize) raster->width * raster->height / 10);
  g_assert_cmpuint (nodata_cells, >, 0);
  /* Meuse is a strip along the river: most of its box lies beyond the radius, yet thousands of cells have data. */
  g_assert_cmpuint (compared - nodata_cells, >, 1500);
  scratch_directory_remove (directory);
}

/* gdal_grid samples at the cell centres, x_min + (col + 0.5) dx, as we do: its one cell over a 2 km square holds the
 * value at the centre, not at a corner. */
static void
test_gdal_grid_cell_centre (void)
{
  g_autofree char *gdal_grid = cli_gdal_grid_find_or_skip ();
  if (gdal_grid == NULL)
    return;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  const char *grid_args[] = { "-txe", "179000", "181000", "-tye", "330000", "332000", "-outsize", "1", "1", NULL };
  g_autoptr (CliRaster) raster = cli_gdal_grid_meuse (gdal_grid, directory,
                                                      "invdistnn:power=2:radius=100000:max_points=155:nodata=-9999",
                                                      grid_args);
  g_autoptr (CliPoints) points = meuse ("zinc");
  double centre = reference_idw_within (points, 180000.0, 331000.0, 2.0, 1e5, 0, 0);
  double corner = reference_idw_within (points, 179000.0, 330000.0, 2.0, 1e5, 0, 0);

  g_assert_cmpfloat (fabs (centre - corner), >, 1.0);
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 0, 0), centre, 1e-9 * centre);
  scratch_directory_remove (directory);
}

/* Points at one location with different values are reported, with the surface's mean there. */
static void
test_duplicates_reported (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "duplicates.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "duplicates.tif", NULL);
  const double x[] = { 0, 0, 0, 5, 5, 10, 10 }, y[] = { 0, 0, 0, 5, 5, 0, 0 }, z[] = { 1, 5, 3, 2, 2, 7, 7.5 };
  g_autoptr (CliPoints) points = cli_points_new_from (x, y, z, G_N_ELEMENTS (x));

  cli_points_write_gpkg_layer (points, source, "duplicates", "value", CLI_GEOMETRY_POINTS);
  const char *args[] = { "-zfield", "value", "-txe", "-1", "11", "-tye", "-1", "11", "-outsize", "6", "6", "-ot",
                         "Float64", source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);
  g_test_message ("%s", run->standard_error);
  /* (5, 5) holds two points of one value: nothing to report there. */
  g_assert_nonnull (strstr (run->standard_error,
                            "Duplicates in field \"value\": 2 locations hold 5 points with different values (the "
                            "widest spread, 4, at x 0, y 0: 3 points); the surface takes their mean there (3 at "
                            "the widest)\n"));
  g_autoptr (CliRaster) raster = cli_raster_read (output);
  /* The cell centred on (0, 0) takes the mean of 1, 5 and 3. */
  g_assert_cmpfloat_with_epsilon (cli_raster_value (raster, 5, 0), 3.0, 1e-12);
  scratch_directory_remove (directory);
}

static void
write_points (const char *path, const double *x, const double *y, const double *z, gsize n)
{
  g_autoptr (CliPoints) points = cli_points_new_from (x, y, z, n);

  cli_points_write_gpkg_layer (points, path, "huge", "value", CLI_GEOMETRY_POINTS);
}

/* Values up to +-1e308 give finite cells within them in Float64 (and a clear refusal in Float32, which cannot hold
 * them); points spread over more than the largest double are refused; points near 1e308 close together are
 * interpolated. Never a NaN cell, never an output after a refusal. */
static void
test_huge_values (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *values_source = g_build_filename (directory, "values.gpkg", NULL);
  g_autofree char *far_source = g_build_filename (directory, "far.gpkg", NULL);
  g_autofree char *near_source = g_build_filename (directory, "near.gpkg", NULL);
  g_autofree char *output = g_build_filename (directory, "huge.tif", NULL);
  const double x[] = { 0, 100, 0, 100, 50 }, y[] = { 0, 0, 100, 100, 50 };
  const double z[] = { 1e308, -1e308, DBL_MAX, -DBL_MAX, 5e307 };
  const double far_x[] = { -1e308, 1e308, 0, 0, 5e307 }, far_y[] = { 0, 0, -1e308, 1e308, 1 };
  const double near_x[] = { 1e308, 1e308 + 4e292, 1e308, 1e308 + 4e292, 1e308 + 2e292 };
  const double near_y[] = { -1e308, -1e308, -1e308 + 4e292, -1e308 + 4e292, -1e308 + 2e292 };
  const double near_z[] = { 1, 2, 3, 4, 5 };

  write_points (values_source, x, y, z, G_N_ELEMENTS (x));
  write_points (far_source, far_x, far_y, z, G_N_ELEMENTS (far_x));
  write_points (near_source, near_x, near_y, near_z, G_N_ELEMENTS (near_x));
  const char *methods[] = { "idw", "idw:power=3:smoothing=5", "idw:radius=60:max_points=3:nodata=-1", "aidw:k=3" };
  for (gsize m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      const char *args[] = { "-zfield", "value", "-a", methods[m], "-outsize", "21", "21", "-ot", "Float64", "-q",
                             values_source, output, NULL };
      g_autoptr (CliRun) run = cli_run (args);
      cli_assert_success (run);
      g_autoptr (CliRaster) raster = cli_raster_read (output);
      for (int i = 0; i < raster->width * raster->height; i++)
        {
          g_assert_true (isfinite (raster->values[i]));
          g_assert_true (raster->values[i] == raster->nodata
                         || (raster->values[i] >= -DBL_MAX && raster->values[i] <= DBL_MAX));
        }
      g_assert_true (g_remove (output) == 0);
    }

  const char *float32_args[] = { "-zfield", "value", "-outsize", "5", "5", "-q", values_source, output, NULL };
  g_autoptr (CliRun) float32_run = cli_run (float32_args);
  g_assert_cmpint (float32_run->exit_code, ==, 2);
  g_assert_nonnull (strstr (float32_run->standard_error, "give -ot Float64"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  const char *far_args[] = { "-zfield", "value", "-outsize", "5", "5", "-ot", "Float64", "-q", far_source, output,
                             NULL };
  g_autoptr (CliRun) far_run = cli_run (far_args);
  g_test_message ("far: %s", far_run->standard_error);
  g_assert_cmpint (far_run->exit_code, ==, 2);
  g_assert_nonnull (strstr (far_run->standard_error, "too large to compute with: give the raster's extent"));
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));

  const char *near_args[] = { "-zfield", "value", "-outsize", "9", "9", "-ot", "Float64", "-q", near_source, output,
                              NULL };
  g_autoptr (CliRun) near_run = cli_run (near_args);
  cli_assert_success (near_run);
  g_autoptr (CliRaster) near = cli_raster_read (output);
  for (int i = 0; i < near->width * near->height; i++)
    {
      g_assert_true (isfinite (near->values[i]));
      g_assert_cmpfloat (near->values[i], >=, 1.0);
      g_assert_cmpfloat (near->values[i], <=, 5.0);
    }
  /* The centre cell lies on the fifth point. */
  g_assert_cmpfloat_with_epsilon (cli_raster_value (near, 4, 4), 5.0, 1e-9);
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();

  g_test_add_func ("/cli/neighbourhood/tap", test_tap);
  g_test_add_func ("/cli/neighbourhood/fields/float64", test_fields_float64);
  g_test_add_func ("/cli/neighbourhood/fields/float32", test_fields_float32);
  g_test_add_func ("/cli/neighbourhood/fields/report", test_fields_report);
  g_test_add_func ("/cli/neighbourhood/min-points-nodata", test_min_points_nodata);
  for (gsize i = 0; i < G_N_ELEMENTS (gdal_grid_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/cli/neighbourhood/gdal-grid-invdistnn/%zu", i);
      g_test_add_data_func (path, &gdal_grid_cases[i], test_matches_gdal_grid_invdistnn);
    }
  g_test_add_func ("/cli/neighbourhood/gdal-grid-cell-centre", test_gdal_grid_cell_centre);
  g_test_add_func ("/cli/neighbourhood/duplicates", test_duplicates_reported);
  g_test_add_func ("/cli/neighbourhood/huge-values", test_huge_values);

  return g_test_run ();
}
