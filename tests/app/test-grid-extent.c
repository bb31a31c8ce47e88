/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "grid-extent.h"
#include "shepard-app-error.h"

static void
test_cell_centres (void)
{
  shepard_grid grid;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_from_extent (100.0, 110.0, -20.0, 0.0, 4, 5, &grid, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (grid.x_min, ==, 100.0);
  g_assert_cmpfloat (grid.y_max, ==, 0.0);
  g_assert_cmpfloat (grid.dx, ==, 2.5);
  g_assert_cmpfloat (grid.dy, ==, 4.0);
  g_assert_cmpuint (grid.width, ==, 4);
  g_assert_cmpuint (grid.height, ==, 5);
  /* gdal_grid: x = xmin + (i + 0.5) (xmax - xmin) / W, y = ymax - (j + 0.5) (ymax - ymin) / H */
  g_assert_cmpfloat_with_epsilon (grid.x_min + 3.5 * grid.dx, 100.0 + 3.5 * 10.0 / 4.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (grid.y_max - 0.5 * grid.dy, -2.0, 1e-12);

  double geotransform[6];
  shepard_grid_geotransform (&grid, geotransform);
  const double expected[6] = { 100.0, 2.5, 0.0, 0.0, 0.0, -4.0 };
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (geotransform[i], ==, expected[i]);
}

static void
test_bad_extent (void)
{
  shepard_grid grid;
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_grid_from_extent (5.0, 5.0, 0.0, 1.0, 10, 10, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_grid_from_extent (0.0, 1.0, 0.0, NAN, 10, 10, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_grid_from_extent (0.0, 1.0, 0.0, 1.0, 0, 10, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_grid_from_extent (0.0, 1.0, 0.0, 1.0, 10, (size_t) G_MAXINT + 1, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  /* Found by tests/fuzz: ends 2e308 apart (cells of infinite size), and 1e-320 wide over G_MAXINT cells (of none). */
  g_assert_false (shepard_grid_from_extent (-1e308, 1e308, 0.0, 1.0, 1, 1, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_grid_from_extent (0.0, 1.0, 0.0, 1e-320, 10, G_MAXINT, &grid, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
}

static void
test_resolution_rounds_like_gdal_grid (void)
{
  const struct {
    double extent, resolution;
    size_t cells;
  } cases[] = {
    { 100.0, 10.0, 10 },
    { 100.0, 30.0, 3 },  /* 3.33 */
    { 100.0, 40.0, 3 },  /* 2.5 rounds up, as (extent + res / 2) / res truncated */
    { 100.0, 45.0, 2 },  /* 2.22 */
    { 100.0, 150.0, 1 }, /* 0.67 */
    { 2785.0, 1.0, 2785 },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      size_t cells = 0;
      g_autoptr (GError) error = NULL;
      g_assert_true (shepard_grid_cells_for_resolution (cases[i].extent, cases[i].resolution, "x", &cells, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (cells, ==, cases[i].cells);
    }
}

static void
test_resolution_refused (void)
{
  const double resolutions[] = { 250.0, 0.0, -1.0, NAN, INFINITY, 1e-300 };

  for (size_t i = 0; i < G_N_ELEMENTS (resolutions); i++)
    {
      size_t cells = 7;
      g_autoptr (GError) error = NULL;
      g_assert_false (shepard_grid_cells_for_resolution (100.0, resolutions[i], "y", &cells, &error));
      g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
      g_assert_nonnull (strstr (error->message, " y"));
      g_assert_cmpuint (cells, ==, 7);
    }
}

/* The window's coarse frame and its fine frame must have the same edges (it jumped by a few pixels while dragging). */
static void
test_preview_grids_share_the_extent (void)
{
  double extent[4];

  /* meuse's bounds, 178605..181390 x 329714..333611: the extent is the box itself, as exported by default. */
  shepard_extent_of_points (178605, 329714, 181390, 333611, extent);
  g_assert_cmpfloat (extent[0], ==, 178605);
  g_assert_cmpfloat (extent[1], ==, 329714);
  g_assert_cmpfloat (extent[2], ==, 181390);
  g_assert_cmpfloat (extent[3], ==, 333611);

  for (size_t long_side = 32; long_side <= 2048; long_side += 7)
    {
      shepard_grid coarse, fine;
      shepard_grid_for_preview (extent, MAX (long_side / 4, 1), &coarse);
      shepard_grid_for_preview (extent, long_side, &fine);
      for (const shepard_grid *grid = &coarse; grid != NULL; grid = grid == &coarse ? &fine : NULL)
        {
          g_assert_cmpfloat (grid->x_min, ==, extent[0]);
          g_assert_cmpfloat (grid->y_max, ==, extent[3]);
          g_assert_cmpfloat_with_epsilon (grid->x_min + grid->dx * (double) grid->width, extent[2], 1e-6);
          g_assert_cmpfloat_with_epsilon (grid->y_max - grid->dy * (double) grid->height, extent[1], 1e-6);
          /* Square but for the rounding of the shorter side to whole cells: at most half a cell over its length. */
          g_assert_cmpfloat (fabs (grid->dx - grid->dy) * (double) MIN (grid->width, grid->height), <=,
                             0.5 * MAX (grid->dx, grid->dy) + 1e-9);
        }
      g_assert_cmpuint (MAX (fine.width, fine.height), ==, long_side);
    }

  /* Points on a line from x 10 to 14: a 4 x 4 square centred on it. */
  shepard_extent_of_points (10, 3, 14, 3, extent);
  g_assert_cmpfloat (extent[0], ==, 10);
  g_assert_cmpfloat (extent[2], ==, 14);
  g_assert_cmpfloat (extent[1], ==, 1);
  g_assert_cmpfloat (extent[3], ==, 5);
  /* One point: 1 x 1 map unit around it. */
  shepard_extent_of_points (7, 7, 7, 7, extent);
  g_assert_cmpfloat (extent[0], ==, 6.5);
  g_assert_cmpfloat (extent[3], ==, 7.5);
  shepard_grid fine;
  shepard_grid_for_preview (extent, 100, &fine);
  g_assert_cmpuint (fine.width, ==, 100);
  g_assert_cmpuint (fine.height, ==, 100);
}

/* -tap as gdalwarp: floor (min / res) * res and ceil (max / res) * res; a side already on a multiple stays. */
static void
test_align_extent (void)
{
  const double extent[4] = { 178605.0, 329714.0, 181390.0, 333611.0 };
  double aligned[4];
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_grid_align_extent (extent, 40.0, 40.0, aligned, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (aligned[0], ==, 178600.0);
  g_assert_cmpfloat (aligned[1], ==, 329680.0);
  g_assert_cmpfloat (aligned[2], ==, 181400.0);
  g_assert_cmpfloat (aligned[3], ==, 333640.0);

  g_assert_true (shepard_grid_align_extent (extent, 5.0, 1000.0, aligned, &error));
  g_assert_cmpfloat (aligned[0], ==, 178605.0);
  g_assert_cmpfloat (aligned[1], ==, 329000.0);
  g_assert_cmpfloat (aligned[2], ==, 181390.0);
  g_assert_cmpfloat (aligned[3], ==, 334000.0);

  const double negative[4] = { -12.5, -7.25, -0.5, 3.0 };
  g_assert_true (shepard_grid_align_extent (negative, 2.0, 0.5, aligned, &error));
  g_assert_cmpfloat (aligned[0], ==, -14.0);
  g_assert_cmpfloat (aligned[1], ==, -7.5);
  g_assert_cmpfloat (aligned[2], ==, 0.0);
  g_assert_cmpfloat (aligned[3], ==, 3.0);

  /* Near the largest double, the next multiple of a large cell lies beyond it. */
  const double huge[4] = { 0.0, 0.0, 1.7e308, 1.0 };
  g_assert_false (shepard_grid_align_extent (huge, 1e308, 1.0, aligned, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_nonnull (strstr (error->message, "-tap"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/grid-extent/cell-centres", test_cell_centres);
  g_test_add_func ("/app/grid-extent/bad-extent", test_bad_extent);
  g_test_add_func ("/app/grid-extent/align-extent", test_align_extent);
  g_test_add_func ("/app/grid-extent/resolution-rounds-like-gdal-grid", test_resolution_rounds_like_gdal_grid);
  g_test_add_func ("/app/grid-extent/resolution-refused", test_resolution_refused);
  g_test_add_func ("/app/grid-extent/preview-grids-share-the-extent", test_preview_grids_share_the_extent);
  return g_test_run ();
}
