/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Grid masks: the cells kept by distance, hull and cutline against hand layouts and independent tests of the cell
 * centres, bands of rows against the whole grid, and the inputs refused. */
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "grid-mask.h"
#include "scratch-directory.h"
#include "shepard-app-error.h"

static char *directory;

static char *
write_file (const char *name, const char *contents)
{
  char *path = g_build_filename (directory, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

#define FEATURE(geometry) "{\"type\":\"Feature\",\"properties\":{},\"geometry\":" geometry "}"
#define COLLECTION(features) "{\"type\":\"FeatureCollection\",\"features\":[" features "]}"

static double
centre_x (const shepard_grid *grid, size_t col)
{
  return grid->x_min + ((double) col + 0.5) * grid->dx;
}

static double
centre_y (const shepard_grid *grid, size_t row)
{
  return grid->y_max - ((double) row + 0.5) * grid->dy;
}

static guint8 *
keep_of (ShepardGridMask *mask, const shepard_grid *grid)
{
  g_autoptr (GError) error = NULL;
  guint8 *keep = shepard_grid_mask_keep (mask, grid, &error);

  g_assert_no_error (error);
  g_assert_nonnull (keep);
  return keep;
}

static size_t
count_kept (const guint8 *keep, size_t n_cells)
{
  size_t kept = 0;

  for (size_t i = 0; i < n_cells; i++)
    {
      g_assert_true (keep[i] == 0 || keep[i] == 1);
      kept += keep[i];
    }
  return kept;
}

/* The triangle (0, 0), (10, 0), (0, 10) with a point inside, over a 10 x 10 grid of unit cells from (0, 0): a
 * centre (col + 0.5, 9.5 - row) is inside when x + y = 10 + col - row <= 10, that is col <= row; the centres with
 * col = row lie on the hypotenuse and are kept. Shifted to map-scale coordinates, the same cells. */
static void
test_hull_triangle (void)
{
  const double offsets[][2] = { { 0.0, 0.0 }, { 180000.0, 330000.0 }, { -4.2e6, 5.5e6 } };

  for (size_t o = 0; o < G_N_ELEMENTS (offsets); o++)
    {
      double x[] = { 0, 10, 0, 2, 5 }, y[] = { 0, 0, 10, 2, 5 };
      for (size_t i = 0; i < G_N_ELEMENTS (x); i++)
        {
          x[i] += offsets[o][0];
          y[i] += offsets[o][1];
        }
      shepard_grid grid = { offsets[o][0], 10.0 + offsets[o][1], 1.0, 1.0, 10, 10 };
      g_autoptr (GError) error = NULL;
      g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();
      g_assert_true (shepard_grid_mask_add_hull (mask, x, y, G_N_ELEMENTS (x), &error));
      g_assert_no_error (error);
      g_autofree guint8 *keep = keep_of (mask, &grid);
      for (size_t row = 0; row < grid.height; row++)
        for (size_t col = 0; col < grid.width; col++)
          if (keep[row * grid.width + col] != (col <= row))
            g_error ("offset %zu: cell (%zu, %zu) is %s", o, row, col,
                     keep[row * grid.width + col] ? "kept" : "masked");
      g_assert_cmpuint (count_kept (keep, 100), ==, 55);
    }
}

static void
test_hull_refused (void)
{
  const double line_x[] = { 0, 1, 2, 3 }, line_y[] = { 0, 2, 4, 6 };
  const double spot_x[] = { 5, 5, 5 }, spot_y[] = { 1, 1, 1 };
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_mask_add_hull (mask, line_x, line_y, G_N_ELEMENTS (line_x), &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_assert_nonnull (strstr (error->message, "on a line"));
  g_clear_error (&error);
  g_assert_false (shepard_grid_mask_add_hull (mask, spot_x, spot_y, G_N_ELEMENTS (spot_x), &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_clear_error (&error);
  g_assert_false (shepard_grid_mask_add_hull (mask, spot_x, spot_y, 1, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA);
  g_clear_error (&error);
  g_assert_false (shepard_grid_mask_add_hull (mask, NULL, NULL, 0, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS);
  g_assert_true (shepard_grid_mask_is_empty (mask));
}

/* Points (0, 0) and (10, 0), D = 3, over unit cells from x = 0 to 10 and y = -5 to 5. */
static void
test_distance_hand (void)
{
  const double x[] = { 0, 10 }, y[] = { 0, 0 };
  shepard_grid grid = { 0.0, 5.0, 1.0, 1.0, 10, 10 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_add_distance (mask, x, y, 2, 3.0, &error));
  g_assert_no_error (error);
  g_autofree guint8 *keep = keep_of (mask, &grid);
  /* Row 4 and 5 have centres at y = +-0.5: (0.5, 0.5) is 0.71 from (0, 0), (2.5, 0.5) 2.55, (3.5, 0.5) 3.54, (5.5,
   * 0.5) 4.53 from both; (9.5, 0.5) is 0.71 from (10, 0) and (7.5, 0.5) 2.55. */
  const struct {
    size_t row, col;
    guint8 kept;
  } cells[] = {
    { 4, 0, 1 }, { 5, 0, 1 }, { 4, 2, 1 }, { 4, 3, 0 }, { 4, 5, 0 }, { 4, 4, 0 }, { 4, 9, 1 }, { 4, 7, 1 },
    { 4, 6, 0 }, { 0, 0, 0 }, { 2, 0, 1 }, { 2, 2, 0 }, { 1, 0, 0 }, { 7, 9, 1 }, { 8, 9, 0 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cells); i++)
    if (keep[cells[i].row * grid.width + cells[i].col] != cells[i].kept)
      g_error ("cell (%zu, %zu) should be %s", cells[i].row, cells[i].col, cells[i].kept ? "kept" : "masked");
  /* Every cell against the distances themselves. */
  for (size_t row = 0; row < grid.height; row++)
    for (size_t col = 0; col < grid.width; col++)
      {
        double cx = centre_x (&grid, col), cy = centre_y (&grid, row);
        double nearest = MIN (hypot (cx - x[0], cy - y[0]), hypot (cx - x[1], cy - y[1]));
        g_assert_cmpint (keep[row * grid.width + col], ==, nearest <= 3.0);
      }
  g_assert_cmpuint (count_kept (keep, 100), ==, 32);
}

/* A centre exactly D away is kept: (3, 4) from (0, 0) with D = 5. */
static void
test_distance_boundary (void)
{
  const double x[] = { 0, 10 }, y[] = { 0, 0 };
  shepard_grid grid = { 2.5, 4.5, 1.0, 1.0, 1, 1 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_add_distance (mask, x, y, 2, 5.0, &error));
  g_autofree guint8 *keep = keep_of (mask, &grid);
  g_assert_cmpuint (keep[0], ==, 1);

  g_autoptr (ShepardGridMask) closer = shepard_grid_mask_new ();
  g_assert_true (shepard_grid_mask_add_distance (closer, x, y, 2, 4.999, &error));
  g_autofree guint8 *masked = keep_of (closer, &grid);
  g_assert_cmpuint (masked[0], ==, 0);
}

static void
test_distance_refused (void)
{
  const double x[] = { 0, 10 }, y[] = { 0, 0 };
  const double distances[] = { 0.0, -1.0, NAN, INFINITY };
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  for (size_t i = 0; i < G_N_ELEMENTS (distances); i++)
    {
      g_autoptr (GError) error = NULL;
      g_assert_false (shepard_grid_mask_add_distance (mask, x, y, 2, distances[i], &error));
      g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
      g_assert_nonnull (strstr (error->message, "above zero"));
    }
  g_autoptr (GError) error = NULL;
  g_assert_false (shepard_grid_mask_add_distance (mask, NULL, NULL, 0, 1.0, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS);
  g_assert_true (shepard_grid_mask_is_empty (mask));
}

/* Even-odd crossing test, independent of GDAL. */
static gboolean
inside_rings (const double (*ring)[2], size_t n, double x, double y)
{
  gboolean inside = FALSE;

  for (size_t i = 0, j = n - 1; i < n; j = i++)
    if ((ring[i][1] > y) != (ring[j][1] > y)
        && x < ring[j][0] + (y - ring[j][1]) * (ring[i][0] - ring[j][0]) / (ring[i][1] - ring[j][1]))
      inside = !inside;
  return inside;
}

/* A square 2..8 with a hole 4..6, and an island 8.6..9.6 x 0.2..1.2 as a second feature (GeoJSON without a CRS: taken
 * as it is when the target has none), over unit cells of 0..10: the cells whose centre is in the square and not in
 * the hole, and the island's one cell. */
static void
test_cutline_holes_and_parts (void)
{
  g_autofree char *path = write_file (
    "square.geojson",
    COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[2,2],[8,2],[8,8],[2,8],[2,2]],"
                         "[[4,4],[6,4],[6,6],[4,6],[4,4]]]}") ","
                FEATURE ("{\"type\":\"MultiPolygon\",\"coordinates\":[[[[8.6,0.2],[9.6,0.2],[9.6,1.2],[8.6,1.2],"
                         "[8.6,0.2]]]]}")));
  shepard_grid grid = { 0.0, 10.0, 1.0, 1.0, 10, 10 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_add_cutline (mask, path, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree guint8 *keep = keep_of (mask, &grid);
  for (size_t row = 0; row < grid.height; row++)
    for (size_t col = 0; col < grid.width; col++)
      {
        double cx = centre_x (&grid, col), cy = centre_y (&grid, row);
        gboolean expected = (cx > 2 && cx < 8 && cy > 2 && cy < 8 && !(cx > 4 && cx < 6 && cy > 4 && cy < 6))
                            || (col == 9 && row == 9);
        if (keep[row * grid.width + col] != expected)
          g_error ("cell (%zu, %zu) at (%g, %g) should be %s", row, col, cx, cy, expected ? "kept" : "masked");
      }
  g_assert_cmpuint (count_kept (keep, 100), ==, 36 - 4 + 1);
  g_autofree char *description = shepard_grid_mask_describe (mask);
  g_autofree char *expected = g_strdup_printf ("-cutline %s -cl square", path);
  g_assert_cmpstr (description, ==, expected);
}

static double
distance_to_ring (const double (*ring)[2], size_t n, double x, double y)
{
  double nearest = INFINITY;

  for (size_t i = 0, j = n - 1; i < n; j = i++)
    {
      double ex = ring[i][0] - ring[j][0], ey = ring[i][1] - ring[j][1];
      double t = CLAMP (((x - ring[j][0]) * ex + (y - ring[j][1]) * ey) / (ex * ex + ey * ey), 0.0, 1.0);
      nearest = MIN (nearest, hypot (x - ring[j][0] - t * ex, y - ring[j][1] - t * ey));
    }
  return nearest;
}

/* A grid larger than one rasterised block (4 Mi cells), judged against the crossing test of every centre. */
static void
test_cutline_large_grid (void)
{
  const double ring[][2] = { { 100, 20 }, { 2900, 700 }, { 2100, 2950 }, { 40, 1900 }, { 900, 1200 }, { 100, 20 } };
  g_autofree char *path = write_file (
    "kite.geojson",
    COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[100,20],[2900,700],[2100,2950],[40,1900],"
                         "[900,1200],[100,20]]]}")));
  /* A centre on an edge is inside or not as rounding has it: those few are not judged. */
  shepard_grid grid = { 0.0, 3000.0, 1.0, 1.0, 3000, 3000 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_add_cutline (mask, path, "0", NULL, &error));
  g_assert_no_error (error);
  g_autofree guint8 *keep = keep_of (mask, &grid);
  size_t kept = 0, on_edge = 0;
  for (size_t row = 0; row < grid.height; row++)
    for (size_t col = 0; col < grid.width; col++)
      {
        double cx = centre_x (&grid, col), cy = centre_y (&grid, row);
        kept += keep[row * grid.width + col];
        if (distance_to_ring (ring, G_N_ELEMENTS (ring) - 1, cx, cy) < 1e-6)
          {
            on_edge++;
            continue;
          }
        gboolean expected = inside_rings (ring, G_N_ELEMENTS (ring) - 1, cx, cy);
        if (keep[row * grid.width + col] != expected)
          g_error ("cell (%zu, %zu) should be %s", row, col, expected ? "kept" : "masked");
      }
  g_assert_cmpuint (on_edge, <, 100);
  g_assert_cmpuint (kept, >, 1000000);
}

static void
assert_cutline_refused (const char *path, const char *layer, GQuark domain, int code, const char *message_part)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_false (shepard_grid_mask_add_cutline (mask, path, layer, NULL, &error));
  g_assert_error (error, domain, code);
  if (strstr (error->message, message_part) == NULL)
    g_error ("\"%s\" does not say \"%s\"", error->message, message_part);
  g_assert_true (shepard_grid_mask_is_empty (mask));
}

static void
test_cutline_refused (void)
{
  g_autofree char *lines = write_file ("river.geojson",
                                       COLLECTION (FEATURE ("{\"type\":\"LineString\",\"coordinates\":[[0,0],[5,5]]}")));
  g_autofree char *mixed = write_file (
    "mixed.geojson",
    COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}") ","
                FEATURE ("{\"type\":\"Point\",\"coordinates\":[3,3]}")));
  g_autofree char *empty = write_file ("empty.geojson", COLLECTION (""));
  g_autofree char *missing = g_build_filename (directory, "missing.gpkg", NULL);
  g_autofree char *square = write_file (
    "plot.geojson", COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[0,0],[1,0],[1,1],[0,0]]]}")));

  assert_cutline_refused (lines, NULL, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                          "holds LineString geometries; a cutline needs polygons");
  assert_cutline_refused (mixed, NULL, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                          "holds Point geometries; a cutline needs polygons");
  assert_cutline_refused (empty, NULL, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY, "holds no polygon");
  assert_cutline_refused (missing, NULL, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "Cannot open the cutline");
  assert_cutline_refused (square, "fields", SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                          "has no layer “fields”: its one layer is “plot”");
}

/* Distance, hull and cutline together keep only what each keeps; a band of rows is the whole grid's rows, and apply
 * sets NaN exactly there in every plane. */
static void
test_combined_bands_and_apply (void)
{
  const double x[] = { 0, 10, 0, 2 }, y[] = { 0, 0, 10, 2 };
  g_autofree char *path = write_file (
    "left.geojson", COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[-1,-1],[5,-1],[5,11],[-1,11],"
                                         "[-1,-1]]]}")));
  shepard_grid grid = { 0.0, 10.0, 0.5, 0.5, 20, 20 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) distance = shepard_grid_mask_new ();
  g_autoptr (ShepardGridMask) hull = shepard_grid_mask_new ();
  g_autoptr (ShepardGridMask) cutline = shepard_grid_mask_new ();
  g_autoptr (ShepardGridMask) all = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_is_empty (all));
  g_assert_true (shepard_grid_mask_add_distance (distance, x, y, 4, 4.0, &error));
  g_assert_true (shepard_grid_mask_add_hull (hull, x, y, 4, &error));
  g_assert_true (shepard_grid_mask_add_cutline (cutline, path, NULL, NULL, &error));
  g_assert_true (shepard_grid_mask_add_distance (all, x, y, 4, 4.0, &error));
  g_assert_true (shepard_grid_mask_add_hull (all, x, y, 4, &error));
  g_assert_true (shepard_grid_mask_add_cutline (all, path, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_false (shepard_grid_mask_is_empty (all));
  g_autofree char *description = shepard_grid_mask_describe (all);
  g_assert_true (g_str_has_prefix (description, "--mask-distance 4 --mask-hull -cutline "));

  size_t n_cells = grid.width * grid.height;
  g_autofree guint8 *by_distance = keep_of (distance, &grid);
  g_autofree guint8 *by_hull = keep_of (hull, &grid);
  g_autofree guint8 *by_cutline = keep_of (cutline, &grid);
  g_autofree guint8 *by_all = keep_of (all, &grid);
  for (size_t i = 0; i < n_cells; i++)
    g_assert_cmpint (by_all[i], ==, by_distance[i] && by_hull[i] && by_cutline[i]);
  /* Each part takes cells the others keep, so none of them is idle in the test. */
  size_t kept_all = count_kept (by_all, n_cells);
  g_assert_cmpuint (kept_all, <, count_kept (by_distance, n_cells));
  g_assert_cmpuint (kept_all, <, count_kept (by_hull, n_cells));
  g_assert_cmpuint (kept_all, <, count_kept (by_cutline, n_cells));
  g_assert_cmpuint (kept_all, >, 0);

  const size_t first_row = 7, n_rows = 6;
  g_autofree guint8 *band = g_malloc (n_rows * grid.width);
  g_assert_true (shepard_grid_mask_fill_keep (all, &grid, first_row, n_rows, band, &error));
  g_assert_no_error (error);
  g_assert_cmpmem (band, n_rows * grid.width, by_all + first_row * grid.width, n_rows * grid.width);

  g_autofree double *values = g_new (double, n_rows * grid.width);
  g_autofree double *alpha = g_new (double, n_rows * grid.width);
  for (size_t i = 0; i < n_rows * grid.width; i++)
    {
      values[i] = (double) i;
      alpha[i] = 2.0;
    }
  double *planes[] = { values, NULL, alpha };
  g_assert_true (shepard_grid_mask_apply (all, &grid, first_row, n_rows, planes, G_N_ELEMENTS (planes), &error));
  g_assert_no_error (error);
  for (size_t i = 0; i < n_rows * grid.width; i++)
    if (band[i])
      {
        g_assert_cmpfloat (values[i], ==, (double) i);
        g_assert_cmpfloat (alpha[i], ==, 2.0);
      }
    else
      {
        g_assert_true (isnan (values[i]));
        g_assert_true (isnan (alpha[i]));
      }
}

/* The window of raster from (first_row, first_column), at most rows x columns, cut at the raster's edge. */
static shepard_grid
window_of (const shepard_grid *raster, size_t first_row, size_t first_column, size_t rows, size_t columns)
{
  shepard_grid window = *raster;
  window.first_row = first_row;
  window.first_column = first_column;
  window.height = MIN (rows, raster->height - first_row);
  window.width = MIN (columns, raster->width - first_column);
  return window;
}

/* Windows of a raster (shepard_grid.first_row, .first_column, as shepard-grid-mpi's tiles) are masked as the same
 * cells of the whole raster, by every part: 200 random points at map-scale coordinates, a cutline cutting the
 * raster. */
static void
test_windows (void)
{
  g_autofree char *path = write_file (
    "wedge.geojson",
    COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[180013,330007],[180093,330031],[180071.3,330097.1],"
                         "[180013,330007]]]}")));
  g_autoptr (GRand) random = g_rand_new_with_seed (7);
  double x[200], y[200];
  for (size_t i = 0; i < G_N_ELEMENTS (x); i++)
    {
      x[i] = 180000.0 + 100.0 * g_rand_double (random) * g_rand_double (random);
      y[i] = 330000.0 + 100.0 * g_rand_double (random);
    }
  const shepard_grid raster = { 180000.0, 330100.0, 0.5, 0.5, 200, 200 };
  g_autoptr (GError) error = NULL;
  ShepardGridMask *masks[3];
  for (size_t m = 0; m < G_N_ELEMENTS (masks); m++)
    masks[m] = shepard_grid_mask_new ();
  g_assert_true (shepard_grid_mask_add_distance (masks[0], x, y, G_N_ELEMENTS (x), 4.0, &error));
  g_assert_true (shepard_grid_mask_add_hull (masks[1], x, y, G_N_ELEMENTS (x), &error));
  g_assert_true (shepard_grid_mask_add_cutline (masks[2], path, NULL, NULL, &error));
  g_assert_no_error (error);
  for (size_t m = 0; m < G_N_ELEMENTS (masks); m++)
    {
      g_autofree guint8 *whole = keep_of (masks[m], &raster);
      size_t kept = count_kept (whole, raster.width * raster.height);
      g_assert_cmpuint (kept, >, 0);
      g_assert_cmpuint (kept, <, raster.width * raster.height);
      for (size_t first_row = 0; first_row < raster.height; first_row += 48)
        for (size_t first_column = 0; first_column < raster.width; first_column += 56)
          {
            shepard_grid window = window_of (&raster, first_row, first_column, 48, 56);
            g_autofree guint8 *keep = keep_of (masks[m], &window);
            for (size_t row = 0; row < window.height; row++)
              g_assert_cmpmem (keep + row * window.width, window.width,
                               whole + (first_row + row) * raster.width + first_column, window.width);
          }
      shepard_grid_mask_free (masks[m]);
    }
}

/* The distance of add_distance_near, given for each window the points within D of it, judges every cell as
 * add_distance over every point does, to the bit; with no point near, every cell is masked. */
static void
test_distance_near (void)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (11);
  double x[300], y[300], bounds[4] = { INFINITY, INFINITY, -INFINITY, -INFINITY };
  for (size_t i = 0; i < G_N_ELEMENTS (x); i++)
    {
      /* Most points in the left half: the right windows have none near. */
      x[i] = 4.2e6 + (i < 290 ? 60.0 : 100.0) * g_rand_double (random);
      y[i] = 5.5e6 + 100.0 * g_rand_double (random);
      bounds[0] = MIN (bounds[0], x[i]);
      bounds[1] = MIN (bounds[1], y[i]);
      bounds[2] = MAX (bounds[2], x[i]);
      bounds[3] = MAX (bounds[3], y[i]);
    }
  const double distance = 2.5;
  const shepard_grid raster = { 4.2e6, 5.5e6 + 100.0, 0.25, 0.25, 400, 400 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) every = shepard_grid_mask_new ();
  g_autoptr (ShepardGridMask) near = shepard_grid_mask_new ();
  g_assert_true (shepard_grid_mask_add_distance (every, x, y, G_N_ELEMENTS (x), distance, &error));
  g_assert_true (shepard_grid_mask_add_distance_near (near, distance, bounds, &error));
  g_assert_no_error (error);
  g_autofree char *description = shepard_grid_mask_describe (near);
  g_assert_cmpstr (description, ==, "--mask-distance 2.5");
  g_autofree guint8 *whole = keep_of (every, &raster);
  size_t windows_without_points = 0;
  for (size_t first_row = 0; first_row < raster.height; first_row += 64)
    for (size_t first_column = 0; first_column < raster.width; first_column += 64)
      {
        shepard_grid window = window_of (&raster, first_row, first_column, 64, 64);
        double left = window.x_min + (double) first_column * window.dx - distance;
        double right = window.x_min + (double) (first_column + window.width) * window.dx + distance;
        double top = window.y_max - (double) first_row * window.dy + distance;
        double bottom = window.y_max - (double) (first_row + window.height) * window.dy - distance;
        g_autoptr (GArray) near_x = g_array_new (FALSE, FALSE, sizeof (double));
        g_autoptr (GArray) near_y = g_array_new (FALSE, FALSE, sizeof (double));
        for (size_t i = 0; i < G_N_ELEMENTS (x); i++)
          if (x[i] >= left && x[i] <= right && y[i] >= bottom && y[i] <= top)
            {
              g_array_append_val (near_x, x[i]);
              g_array_append_val (near_y, y[i]);
            }
        windows_without_points += near_x->len == 0;
        g_assert_true (shepard_grid_mask_set_near_points (near, (const double *) near_x->data,
                                                          (const double *) near_y->data, near_x->len, &error));
        g_assert_no_error (error);
        g_autofree guint8 *keep = keep_of (near, &window);
        for (size_t row = 0; row < window.height; row++)
          g_assert_cmpmem (keep + row * window.width, window.width,
                           whole + (first_row + row) * raster.width + first_column, window.width);
        if (near_x->len == 0)
          g_assert_cmpuint (count_kept (keep, window.width * window.height), ==, 0);
      }
  g_assert_cmpuint (windows_without_points, >, 0);

  const double outside[] = { bounds[2] + 1.0 };
  g_assert_false (shepard_grid_mask_set_near_points (near, outside, outside, 1, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  const double no_box[] = { 0.0, 0.0, NAN, 1.0 };
  g_autoptr (ShepardGridMask) refused = shepard_grid_mask_new ();
  g_assert_false (shepard_grid_mask_add_distance_near (refused, distance, no_box, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_true (shepard_grid_mask_is_empty (refused));
}

/* A mask serves several threads at once (the preview's workers and an export), each getting what one thread gets. */
typedef struct {
  ShepardGridMask *mask;
  const shepard_grid *grid;
  const guint8 *expected;
} SharedMask;

static gpointer
judge_in_thread (gpointer data)
{
  const SharedMask *shared = data;

  for (int round = 0; round < 5; round++)
    {
      g_autofree guint8 *keep = keep_of (shared->mask, shared->grid);
      g_assert_cmpmem (keep, shared->grid->width * shared->grid->height, shared->expected,
                       shared->grid->width * shared->grid->height);
    }
  return NULL;
}

static void
test_threads (void)
{
  const double x[] = { 0, 10, 0, 2, 7 }, y[] = { 0, 0, 10, 2, 1 };
  g_autofree char *path = write_file (
    "band.geojson", COLLECTION (FEATURE ("{\"type\":\"Polygon\",\"coordinates\":[[[-1,3],[11,3],[11,7],[-1,7],"
                                         "[-1,3]]]}")));
  shepard_grid grid = { 0.0, 10.0, 0.1, 0.1, 100, 100 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();

  g_assert_true (shepard_grid_mask_add_distance (mask, x, y, 5, 3.0, &error));
  g_assert_true (shepard_grid_mask_add_cutline (mask, path, NULL, NULL, &error));
  g_assert_no_error (error);
  g_autofree guint8 *expected = keep_of (mask, &grid);
  SharedMask shared = { mask, &grid, expected };
  GThread *threads[4];
  for (size_t i = 0; i < G_N_ELEMENTS (threads); i++)
    threads[i] = g_thread_new ("mask", judge_in_thread, &shared);
  for (size_t i = 0; i < G_N_ELEMENTS (threads); i++)
    g_thread_join (threads[i]);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();
  directory = scratch_directory_new ("shepard-grid-mask-XXXXXX");

  g_test_add_func ("/grid-mask/hull/triangle", test_hull_triangle);
  g_test_add_func ("/grid-mask/hull/refused", test_hull_refused);
  g_test_add_func ("/grid-mask/distance/hand", test_distance_hand);
  g_test_add_func ("/grid-mask/distance/boundary", test_distance_boundary);
  g_test_add_func ("/grid-mask/distance/refused", test_distance_refused);
  g_test_add_func ("/grid-mask/cutline/holes-and-parts", test_cutline_holes_and_parts);
  g_test_add_func ("/grid-mask/cutline/large-grid", test_cutline_large_grid);
  g_test_add_func ("/grid-mask/cutline/refused", test_cutline_refused);
  g_test_add_func ("/grid-mask/combined", test_combined_bands_and_apply);
  g_test_add_func ("/grid-mask/threads", test_threads);
  g_test_add_func ("/grid-mask/windows", test_windows);
  g_test_add_func ("/grid-mask/distance/near", test_distance_near);

  int status = g_test_run ();
  scratch_directory_remove (directory);
  g_free (directory);
  return status;
}
