/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid's masks (--mask-distance, --mask-hull, -cutline/-cl): every cell the mask keeps has the value of an
 * unmasked run, every other cell is nodata, as hand layouts and independent tests of the cell centres say; bad masks
 * end with a clear message and no output. */
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"

#include <cpl_conv.h>
#include <gdal.h>
#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <string.h>

static char *directory;

static char *
scratch_path (const char *name)
{
  return g_build_filename (directory, name, NULL);
}

static char *
write_file (const char *name, const char *contents)
{
  char *path = scratch_path (name);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* Runs shepard-grid on source with the arguments given (NULL-terminated), writing a Float64 raster read back. */
static CliRaster *
grid (const char *source, const char *name, const char *const *extra)
{
  g_autofree char *output = scratch_path (name);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *const common[] = { "-q", "-zfield", "zinc", "-ot", "Float64" };

  for (size_t i = 0; i < G_N_ELEMENTS (common); i++)
    g_ptr_array_add (args, (gpointer) common[i]);
  for (const char *const *arg = extra; *arg != NULL; arg++)
    g_ptr_array_add (args, (gpointer) *arg);
  g_ptr_array_add (args, (gpointer) source);
  g_ptr_array_add (args, output);
  g_ptr_array_add (args, NULL);
  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);
  cli_assert_success (run);
  return cli_raster_read (output);
}

typedef enum {
  CELL_OUT,
  CELL_IN,
  CELL_UNDECIDED, /* on the mask's boundary, to rounding: not judged */
} CellExpectation;

typedef CellExpectation (*CellJudge) (double x, double y, gpointer data);

/* Every cell the judge puts inside has the unmasked value, every cell outside is nodata; returns how many are
 * inside. */
static size_t
assert_masked (const CliRaster *masked, const CliRaster *unmasked, CellJudge judge, gpointer data)
{
  size_t inside = 0, outside = 0, undecided = 0;

  g_assert_cmpint (masked->width, ==, unmasked->width);
  g_assert_cmpint (masked->height, ==, unmasked->height);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (masked->geotransform[i], ==, unmasked->geotransform[i]);
  g_assert_true (masked->has_nodata);
  for (int row = 0; row < masked->height; row++)
    for (int col = 0; col < masked->width; col++)
      {
        double x, y;
        cli_raster_cell_centre (masked, row, col, &x, &y);
        double value = cli_raster_value (masked, row, col);
        switch (judge (x, y, data))
          {
          case CELL_IN:
            inside++;
            if (value != cli_raster_value (unmasked, row, col))
              g_error ("cell (%d, %d) at (%.3f, %.3f) inside the mask is %.17g, not %.17g", row, col, x, y, value,
                       cli_raster_value (unmasked, row, col));
            break;
          case CELL_OUT:
            outside++;
            if (value != masked->nodata)
              g_error ("cell (%d, %d) at (%.3f, %.3f) outside the mask is %.17g, not nodata", row, col, x, y,
                       value);
            break;
          case CELL_UNDECIDED:
            undecided++;
            break;
          }
      }
  g_test_message ("%zu cells inside, %zu outside, %zu on the boundary", inside, outside, undecided);
  g_assert_cmpuint (undecided, <=, (inside + outside) / 100);
  g_assert_cmpuint (inside, >, 0);
  g_assert_cmpuint (outside, >, 0);
  return inside;
}

/* The triangle (0, 0), (100, 0), (0, 100) and a point inside, on 10 x 10 cells of 10 from (0, 0): a centre
 * (5 + 10 col, 95 - 10 row) lies inside when x + y <= 100, that is col <= row (on the hypotenuse when equal). */
static CellExpectation
judge_triangle (double x, double y, gpointer data)
{
  int col = (int) floor (x / 10.0), row = (int) floor ((100.0 - y) / 10.0);

  return col <= row ? CELL_IN : CELL_OUT;
}

static void
test_hull_triangle (void)
{
  g_autofree char *source = write_file ("triangle.csv", "x,y,zinc\n0,0,100\n100,0,400\n0,100,900\n20,20,250\n");
  const char *const extent[] = { "-txe", "0", "100", "-tye", "0", "100", "-outsize", "10", "10", NULL };
  const char *const masked_args[] = { "-txe", "0", "100", "-tye", "0", "100", "-outsize", "10", "10", "--mask-hull",
                                      NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "triangle.tif", extent);
  g_autoptr (CliRaster) masked = grid (source, "triangle-hull.tif", masked_args);

  g_assert_cmpuint (assert_masked (masked, unmasked, judge_triangle, NULL), ==, 55);
}

typedef struct {
  const CliPoints *points;
  double distance;
} DistanceCase;

static CellExpectation
judge_distance (double x, double y, gpointer data)
{
  const DistanceCase *distance_case = data;
  double nearest = INFINITY;

  for (gsize i = 0; i < distance_case->points->n; i++)
    nearest = MIN (nearest, hypot (x - distance_case->points->x[i], y - distance_case->points->y[i]));
  if (fabs (nearest - distance_case->distance) < 1e-6 * distance_case->distance)
    return CELL_UNDECIDED;
  return nearest <= distance_case->distance ? CELL_IN : CELL_OUT;
}

/* Points (0, 0) and (100, 0), D = 30, on cells of 10 from (0, -50) to (100, 50): each point keeps the centres at
 * x = 5, 15 with |y| <= 25 (6 cells each) and x = 25 with |y| <= 15 (4), 16 per point. */
static void
test_distance_hand (void)
{
  g_autofree char *source = write_file ("pair.csv", "x,y,zinc\n0,0,100\n100,0,400\n");
  const char *const extent[] = { "-txe", "0", "100", "-tye", "-50", "50", "-outsize", "10", "10", NULL };
  const char *const masked_args[] = { "-txe", "0", "100", "-tye", "-50", "50", "-outsize", "10", "10",
                                      "--mask-distance", "30", NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "pair.tif", extent);
  g_autoptr (CliRaster) masked = grid (source, "pair-distance.tif", masked_args);
  g_autoptr (CliPoints) points = cli_points_new (2);
  points->x[1] = 100.0;
  DistanceCase distance_case = { points, 30.0 };

  g_assert_cmpuint (assert_masked (masked, unmasked, judge_distance, &distance_case), ==, 32);
}

static void
test_distance_meuse (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  const char *const cells[] = { "-tr", "40", "40", NULL };
  const char *const masked_args[] = { "-tr", "40", "40", "--mask-distance", "150", NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "meuse.tif", cells);
  g_autoptr (CliRaster) masked = grid (source, "meuse-distance.tif", masked_args);
  DistanceCase distance_case = { points, 150.0 };

  assert_masked (masked, unmasked, judge_distance, &distance_case);
}

typedef struct {
  OGRGeometryH hull, boundary;
} HullCase;

/* The hull as GEOS makes it (through OGR), a centre judged by its distance to it. */
static CellExpectation
judge_geos_hull (double x, double y, gpointer data)
{
  const HullCase *hull_case = data;
  OGRGeometryH point = OGR_G_CreateGeometry (wkbPoint);

  OGR_G_SetPoint_2D (point, 0, x, y);
  double distance = OGR_G_Distance (hull_case->boundary, point);
  gboolean inside = OGR_G_Intersects (hull_case->hull, point);
  OGR_G_DestroyGeometry (point);
  g_assert_cmpfloat (distance, >=, 0.0);
  if (distance < 1e-6)
    return CELL_UNDECIDED;
  return inside ? CELL_IN : CELL_OUT;
}

static void
test_hull_meuse (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  const char *const cells[] = { "-tr", "40", "40", NULL };
  const char *const masked_args[] = { "-tr", "40", "40", "--mask-hull", NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "meuse.tif", cells);
  g_autoptr (CliRaster) masked = grid (source, "meuse-hull.tif", masked_args);

  OGRGeometryH multipoint = OGR_G_CreateGeometry (wkbMultiPoint);
  for (gsize i = 0; i < points->n; i++)
    {
      OGRGeometryH point = OGR_G_CreateGeometry (wkbPoint);
      OGR_G_SetPoint_2D (point, 0, points->x[i], points->y[i]);
      OGR_G_AddGeometryDirectly (multipoint, point);
    }
  HullCase hull_case = { OGR_G_ConvexHull (multipoint), NULL };
  g_assert_nonnull (hull_case.hull);
  g_assert_cmpint (wkbFlatten (OGR_G_GetGeometryType (hull_case.hull)), ==, wkbPolygon);
  hull_case.boundary = OGR_G_Boundary (hull_case.hull);
  g_assert_nonnull (hull_case.boundary);
  assert_masked (masked, unmasked, judge_geos_hull, &hull_case);
  OGR_G_DestroyGeometry (hull_case.boundary);
  OGR_G_DestroyGeometry (hull_case.hull);
  OGR_G_DestroyGeometry (multipoint);
}

/* A pentagon over the meuse samples, drawn in RD New (EPSG:28992) and written in WGS 84 longitude and latitude. */
static const double pentagon_rd[][2] = {
  { 179000, 330000 }, { 181000, 330500 }, { 181200, 332500 }, { 180000, 333300 }, { 178800, 332000 },
};
#define N_PENTAGON G_N_ELEMENTS (pentagon_rd)

typedef struct {
  OGRCoordinateTransformationH rd_to_lon_lat;
  double ring[N_PENTAGON][2]; /* longitude, latitude */
} CutlineCase;

static OGRCoordinateTransformationH
transformation (int from_epsg, int to_epsg)
{
  OGRSpatialReferenceH from = OSRNewSpatialReference (NULL), to = OSRNewSpatialReference (NULL);

  g_assert_cmpint (OSRImportFromEPSG (from, from_epsg), ==, OGRERR_NONE);
  g_assert_cmpint (OSRImportFromEPSG (to, to_epsg), ==, OGRERR_NONE);
  OSRSetAxisMappingStrategy (from, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy (to, OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH transform = OCTNewCoordinateTransformation (from, to);
  g_assert_nonnull (transform);
  OSRDestroySpatialReference (from);
  OSRDestroySpatialReference (to);
  return transform;
}

static double
distance_to_segment (const double a[2], const double b[2], double x, double y)
{
  double ex = b[0] - a[0], ey = b[1] - a[1];
  double t = CLAMP (((x - a[0]) * ex + (y - a[1]) * ey) / (ex * ex + ey * ey), 0.0, 1.0);

  return hypot (x - a[0] - t * ex, y - a[1] - t * ey);
}

/* The centre taken to longitude and latitude, and tested there against the ring by crossings; a centre within a
 * metre of the pentagon's edges (drawn in RD) is left undecided: the edges are straight in another CRS on each side. */
static CellExpectation
judge_cutline (double x, double y, gpointer data)
{
  const CutlineCase *cutline = data;

  for (size_t i = 0; i < N_PENTAGON; i++)
    if (distance_to_segment (pentagon_rd[i], pentagon_rd[(i + 1) % N_PENTAGON], x, y) < 1.0)
      return CELL_UNDECIDED;
  double lon = x, lat = y;
  g_assert_true (OCTTransform (cutline->rd_to_lon_lat, 1, &lon, &lat, NULL));
  gboolean inside = FALSE;
  for (size_t i = 0, j = N_PENTAGON - 1; i < N_PENTAGON; j = i++)
    {
      const double *a = cutline->ring[i], *b = cutline->ring[j];
      if ((a[1] > lat) != (b[1] > lat) && lon < b[0] + (lat - b[1]) * (a[0] - b[0]) / (a[1] - b[1]))
        inside = !inside;
    }
  return inside ? CELL_IN : CELL_OUT;
}

static char *
write_pentagon_geojson (CutlineCase *cutline)
{
  g_autoptr (GString) text = g_string_new ("{\"type\":\"FeatureCollection\",\"name\":\"plots\",\"features\":[{"
                                           "\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":"
                                           "\"Polygon\",\"coordinates\":[[");
  cutline->rd_to_lon_lat = transformation (28992, 4326);
  for (size_t i = 0; i <= N_PENTAGON; i++)
    {
      size_t vertex = i % N_PENTAGON;
      double lon = pentagon_rd[vertex][0], lat = pentagon_rd[vertex][1];
      g_assert_true (OCTTransform (cutline->rd_to_lon_lat, 1, &lon, &lat, NULL));
      /* Longitude and latitude of the Netherlands, not latitude first. */
      g_assert_cmpfloat (lon, >, 5.0);
      g_assert_cmpfloat (lon, <, 6.5);
      g_assert_cmpfloat (lat, >, 50.5);
      g_assert_cmpfloat (lat, <, 51.5);
      cutline->ring[vertex][0] = lon;
      cutline->ring[vertex][1] = lat;
      g_string_append_printf (text, "%s[%.12f,%.12f]", i > 0 ? "," : "", lon, lat);
    }
  g_string_append (text, "]]}}]}");
  return write_file ("plots-wgs84.geojson", text->str);
}

static void
test_cutline_other_crs (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  CutlineCase cutline = { 0 };
  g_autofree char *cutline_path = write_pentagon_geojson (&cutline);
  const char *const cells[] = { "-tr", "40", "40", NULL };
  const char *const masked_args[] = { "-tr", "40", "40", "-cutline", cutline_path, NULL };
  const char *const by_layer[] = { "-tr", "40", "40", "-cutline", cutline_path, "-cl", "plots", NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "meuse.tif", cells);
  g_autoptr (CliRaster) masked = grid (source, "meuse-cutline.tif", masked_args);
  g_autoptr (CliRaster) masked_by_layer = grid (source, "meuse-cutline-layer.tif", by_layer);

  /* Cells outside the points' box but inside the pentagon are inside too: the pentagon reaches beyond the box. */
  size_t inside = assert_masked (masked, unmasked, judge_cutline, &cutline);
  g_assert_cmpuint (inside, >, 1000);
  assert_masked (masked_by_layer, unmasked, judge_cutline, &cutline);
  OCTDestroyCoordinateTransformation (cutline.rd_to_lon_lat);
}

/* Every mask at once keeps only what each keeps, in the extra bands too. */
static void
test_combined_and_extra_bands (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *river = cli_source_path ("data/meuse-river.geojson");
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  const char *const cells[] = { "-tr", "40", "40", NULL };
  const char *const hull_args[] = { "-tr", "40", "40", "--mask-hull", NULL };
  const char *const distance_args[] = { "-tr", "40", "40", "--mask-distance", "200", NULL };
  const char *const cutline_args[] = { "-tr", "40", "40", "-cutline", river, NULL };
  const char *const all_args[] = { "-tr", "40", "40", "--mask-hull", "--mask-distance", "200", "-cutline", river,
                                   NULL };
  g_autoptr (CliRaster) unmasked = grid (source, "meuse.tif", cells);
  g_autoptr (CliRaster) hull = grid (source, "meuse-hull.tif", hull_args);
  g_autoptr (CliRaster) distance = grid (source, "meuse-distance.tif", distance_args);
  g_autoptr (CliRaster) cutline = grid (source, "meuse-river.tif", cutline_args);
  g_autoptr (CliRaster) all = grid (source, "meuse-all.tif", all_args);
  size_t n_cells = (size_t) all->width * all->height, kept = 0;

  for (size_t i = 0; i < n_cells; i++)
    {
      gboolean expected = hull->values[i] != hull->nodata && distance->values[i] != distance->nodata
                          && cutline->values[i] != cutline->nodata;
      g_assert_cmpint (all->values[i] != all->nodata, ==, expected);
      if (expected)
        g_assert_cmpfloat (all->values[i], ==, unmasked->values[i]);
      kept += expected;
    }
  g_assert_cmpuint (kept, >, 0);

  /* The power of every cell, masked where the values are. */
  g_autofree char *output = scratch_path ("meuse-alpha.tif");
  const char *const args[] = { "-q", "-zfield", "zinc", "-tr", "40", "40", "--mask-hull", "--extra-bands", "alpha",
                               source, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);
  GDALDatasetH dataset = GDALOpen (output, GA_ReadOnly);
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, 2);
  g_autofree double *values = g_new (double, n_cells);
  g_autofree double *alpha = g_new (double, n_cells);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, 1), GF_Read, 0, 0, all->width, all->height, values,
                                 all->width, all->height, GDT_Float64, 0, 0),
                   ==, CE_None);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, 2), GF_Read, 0, 0, all->width, all->height, alpha,
                                 all->width, all->height, GDT_Float64, 0, 0),
                   ==, CE_None);
  double nodata = GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, 2), NULL);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_MASK", NULL), ==, "--mask-hull");
  GDALClose (dataset);
  for (size_t i = 0; i < n_cells; i++)
    {
      gboolean in_hull = hull->values[i] != hull->nodata;
      g_assert_cmpint (values[i] != nodata, ==, in_hull);
      if (in_hull)
        g_assert_cmpfloat (alpha[i], ==, 2.0);
      else
        g_assert_cmpfloat (alpha[i], ==, nodata);
    }
}

/* A bad mask: exit status, a message naming the problem, nothing written. */
static void
assert_refused (const char *const *mask_args, int exit_code, const char *message_part)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output_directory = scratch_directory_new ("shepard-mask-refused-XXXXXX");
  g_autofree char *output = g_build_filename (output_directory, "refused.tif", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new ();

  g_ptr_array_add (args, "-zfield");
  g_ptr_array_add (args, "zinc");
  for (const char *const *arg = mask_args; *arg != NULL; arg++)
    g_ptr_array_add (args, (gpointer) *arg);
  g_ptr_array_add (args, source);
  g_ptr_array_add (args, output);
  g_ptr_array_add (args, NULL);
  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, exit_code);
  if (strstr (run->standard_error, message_part) == NULL)
    g_error ("stderr \"%s\" does not say \"%s\"", run->standard_error, message_part);
  g_assert_true (g_str_has_prefix (run->standard_error, "shepard-grid: ")
                 || strstr (run->standard_error, "\nshepard-grid: ") != NULL);
  g_autofree char *left = scratch_directory_list (output_directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (output_directory);
}

static void
test_refused (void)
{
  g_autofree char *lines = write_file (
    "river-line.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},"
                          "\"geometry\":{\"type\":\"LineString\",\"coordinates\":[[179000,330000],[181000,333000]]}}]}");
  g_autofree char *missing = scratch_path ("no-such-cutline.gpkg");
  g_autofree char *river = cli_source_path ("data/meuse-river.geojson");
  g_autofree char *transect = write_file ("transect.csv", "x,y,zinc\n0,0,1\n10,10,2\n20,20,3\n");

  const char *const line_cutline[] = { "-cutline", lines, NULL };
  assert_refused (line_cutline, 1, "holds LineString geometries; a cutline needs polygons");
  const char *const missing_cutline[] = { "-cutline", missing, NULL };
  assert_refused (missing_cutline, 1, "Cannot open the cutline");
  const char *const unknown_layer[] = { "-cutline", river, "-cl", "banks", NULL };
  assert_refused (unknown_layer, 1, "has no layer “banks”");
  const char *const layer_alone[] = { "-cl", "banks", NULL };
  assert_refused (layer_alone, 2, "give -cutline FILE too");
  const char *const distances[] = { "0", "-5", "abc", "nan", "inf" };
  for (size_t i = 0; i < G_N_ELEMENTS (distances); i++)
    {
      const char *const distance[] = { "--mask-distance", distances[i], NULL };
      assert_refused (distance, 2, "--mask-distance D needs a distance above zero");
    }

  /* Points on a line have no hull. */
  g_autofree char *output_directory = scratch_directory_new ("shepard-mask-refused-XXXXXX");
  g_autofree char *output = g_build_filename (output_directory, "refused.tif", NULL);
  const char *const args[] = { "-zfield", "zinc", "--mask-hull", transect, output, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_assert_cmpint (run->exit_code, ==, 1);
  g_assert_nonnull (strstr (run->standard_error, "--mask-hull: The points lie on a line"));
  g_autofree char *left = scratch_directory_list (output_directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (output_directory);
}

static void
test_help (void)
{
  const char *const args[] = { "--help", NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  const char *const options[] = { "--mask-distance D", "--mask-hull", "-cutline FILE", "-cl LAYER" };
  for (size_t i = 0; i < G_N_ELEMENTS (options); i++)
    g_assert_nonnull (strstr (run->standard_output, options[i]));
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();
  directory = scratch_directory_new ("shepard-cli-masks-XXXXXX");

  g_test_add_func ("/cli/masks/hull/triangle", test_hull_triangle);
  g_test_add_func ("/cli/masks/hull/meuse", test_hull_meuse);
  g_test_add_func ("/cli/masks/distance/hand", test_distance_hand);
  g_test_add_func ("/cli/masks/distance/meuse", test_distance_meuse);
  g_test_add_func ("/cli/masks/cutline/other-crs", test_cutline_other_crs);
  g_test_add_func ("/cli/masks/combined", test_combined_and_extra_bands);
  g_test_add_func ("/cli/masks/refused", test_refused);
  g_test_add_func ("/cli/masks/help", test_help);

  int status = g_test_run ();
  scratch_directory_remove (directory);
  g_free (directory);
  return status;
}
