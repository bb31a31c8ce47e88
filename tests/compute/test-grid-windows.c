/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Windows of a raster and parts of a layer (shepard-engine.h): a raster cut into windows aligned to
 * SHEPARD_GRID_WINDOW_ALIGN gives every cell the value the whole raster gives it, to the bit, on the CPU and on the
 * GPU; an engine holding only the points around a window, with the whole layer's extent, gives that window's cells
 * the values an engine holding every point gives them, to the bit. The GPU's cases skip, saying why, where there is
 * no CUDA device. */
#include "engine-test-support.h"
#include "point-layouts.h"

#include <glib.h>
#include <math.h>
#include <string.h>

#define POINT_COUNT 6000

typedef struct {
  const char *name;
  shepard_method method;
  int neighbors;           /* max_points; 0: every point */
  double radius;           /* 0: none */
  shepard_summation summation;
  shepard_area_mode area_mode;
} window_case;

static const window_case cases[] = {
  { "idw-all-exact", SHEPARD_METHOD_IDW, 0, 0.0, SHEPARD_SUMMATION_EXACT, SHEPARD_AREA_BOUNDING_BOX },
  { "aidw-all-exact", SHEPARD_METHOD_AIDW, 0, 0.0, SHEPARD_SUMMATION_EXACT, SHEPARD_AREA_BOUNDING_BOX },
  { "aidw-all-far-field", SHEPARD_METHOD_AIDW, 0, 0.0, SHEPARD_SUMMATION_FAR_FIELD, SHEPARD_AREA_BOUNDING_BOX },
  { "idw-all-far-field", SHEPARD_METHOD_IDW, 0, 0.0, SHEPARD_SUMMATION_FAR_FIELD, SHEPARD_AREA_BOUNDING_BOX },
  { "idw-nearest-12", SHEPARD_METHOD_IDW, 12, 0.0, SHEPARD_SUMMATION_AUTO, SHEPARD_AREA_BOUNDING_BOX },
  { "aidw-nearest-16", SHEPARD_METHOD_AIDW, 16, 0.0, SHEPARD_SUMMATION_AUTO, SHEPARD_AREA_BOUNDING_BOX },
  { "aidw-nearest-16-hull", SHEPARD_METHOD_AIDW, 16, 0.0, SHEPARD_SUMMATION_AUTO, SHEPARD_AREA_CONVEX_HULL },
  { "idw-radius-60", SHEPARD_METHOD_IDW, 0, 60.0, SHEPARD_SUMMATION_AUTO, SHEPARD_AREA_BOUNDING_BOX },
};

static shepard_params
params_of (const window_case *test)
{
  shepard_params params = params_with_neighbourhood (test->method, test->neighbors, test->radius);
  params.summation = test->summation;
  params.area_mode = test->area_mode;
  return params;
}

/* 83 x 61 cells over the clustered layout: windows of 24 x 16 leave ragged ones at both far edges. */
static const shepard_grid whole_grid = { .x_min = -40.0, .y_max = 740.0, .dx = 1080.0 / 83, .dy = 780.0 / 61,
                                         .width = 83, .height = 61 };

static shepard_grid
window_of (size_t first_row, size_t first_column, size_t rows, size_t columns)
{
  shepard_grid window = whole_grid;
  window.first_row = first_row;
  window.first_column = first_column;
  window.height = MIN (rows, whole_grid.height - first_row);
  window.width = MIN (columns, whole_grid.width - first_column);
  return window;
}

/* The window's values (width x height) into the whole raster's places. */
static void
paste (double *whole, const shepard_grid *window, const double *values)
{
  for (size_t row = 0; row < window->height; row++)
    memcpy (whole + (window->first_row + row) * whole_grid.width + window->first_column, values + row * window->width,
            window->width * sizeof *values);
}

static size_t
cells_differing (const double *a, const double *b, size_t n)
{
  size_t differing = 0;
  for (size_t i = 0; i < n; i++)
    differing += memcmp (&a[i], &b[i], sizeof a[i]) != 0;
  return differing;
}

/* The GPU computes in float32 only. The windows of 16 x 24 cells start off the brute force's patch lattice of 64 x 32
 * cells, which must not change a value. */
static void
windows_equal_whole (const window_case *test, shepard_backend backend)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 71);
  size_t cells = whole_grid.width * whole_grid.height;
  shepard_precision last = backend == SHEPARD_BACKEND_CUDA ? SHEPARD_PRECISION_FLOAT32 : SHEPARD_PRECISION_FLOAT64;
  for (shepard_precision precision = SHEPARD_PRECISION_FLOAT32; precision <= last; precision++)
    {
      shepard_engine *engine = engine_on_with_points (backend, precision, 2, points);
      shepard_params params = params_of (test);
      double *whole = g_new (double, cells), *pasted = g_new (double, cells), *part = g_new (double, cells);
      interpolate_grid_or_fail (engine, &params, &whole_grid, whole);
      for (size_t row = 0; row < whole_grid.height; row += 16)
        for (size_t column = 0; column < whole_grid.width; column += 24)
          {
            shepard_grid window = window_of (row, column, 16, 24);
            interpolate_grid_or_fail (engine, &params, &window, part);
            paste (pasted, &window, part);
          }
      size_t differing = cells_differing (pasted, whole, cells);
      g_test_message ("%s %s %s: %zu of %zu cells differ", test->name, shepard_engine_describe (engine),
                      precision_name (precision), differing, cells);
      g_assert_cmpuint (differing, ==, 0);
      g_free (whole);
      g_free (pasted);
      g_free (part);
      shepard_engine_free (engine);
    }
  point_set_free (points);
}

static void
test_windows_equal_whole (gconstpointer data)
{
  windows_equal_whole (data, SHEPARD_BACKEND_CPU);
}

static void
test_windows_equal_whole_on_gpu (gconstpointer data)
{
  if (cuda_device_or_skip ())
    windows_equal_whole (data, SHEPARD_BACKEND_CUDA);
}

/* The whole layer's extent, its hull given as every point (the engine takes their hull). */
static shepard_layer_extent
extent_of (const point_set *points)
{
  shepard_layer_extent whole = { .n = points->count, .x_min = INFINITY, .y_min = INFINITY, .x_max = -INFINITY,
                                 .y_max = -INFINITY, .hull_x = points->x, .hull_y = points->y,
                                 .hull_count = points->count };
  whole.z_min[0] = INFINITY;
  whole.z_max[0] = -INFINITY;
  for (size_t i = 0; i < points->count; i++)
    {
      whole.x_min = fmin (whole.x_min, points->x[i]);
      whole.x_max = fmax (whole.x_max, points->x[i]);
      whole.y_min = fmin (whole.y_min, points->y[i]);
      whole.y_max = fmax (whole.y_max, points->y[i]);
      whole.z_min[0] = fmin (whole.z_min[0], points->z[i]);
      whole.z_max[0] = fmax (whole.z_max[0], points->z[i]);
    }
  return whole;
}

/* The points within halo of the window's box, in their order. */
static point_set *
points_near (const point_set *points, const shepard_grid *window, double halo)
{
  double x_min = window->x_min + (double) window->first_column * window->dx - halo;
  double x_max = window->x_min + (double) (window->first_column + window->width) * window->dx + halo;
  double y_max = window->y_max - (double) window->first_row * window->dy + halo;
  double y_min = window->y_max - (double) (window->first_row + window->height) * window->dy - halo;
  size_t count = 0;
  for (size_t i = 0; i < points->count; i++)
    count += points->x[i] >= x_min && points->x[i] <= x_max && points->y[i] >= y_min && points->y[i] <= y_max;
  point_set *near = point_set_new_empty (count);
  count = 0;
  for (size_t i = 0; i < points->count; i++)
    if (points->x[i] >= x_min && points->x[i] <= x_max && points->y[i] >= y_min && points->y[i] <= y_max)
      {
        near->x[count] = points->x[i];
        near->y[count] = points->y[i];
        near->z[count++] = points->z[i];
      }
  return near;
}

/* Local neighbourhoods: a part holding the points within a halo wide enough for every cell's neighbours (the 16th
 * nearest of each cell lies within 80 map units on the uniform layout, checked below) gives the whole engine's values
 * to the bit. */
static void
part_equals_whole (const window_case *test, shepard_backend backend)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 72);
  shepard_grid window = window_of (24, 32, 8, 16);
  double halo = 80.0;
  shepard_engine *engine = engine_on_with_points (backend, SHEPARD_PRECISION_FLOAT32, 2, points);

  /* The halo holds every cell's 16 nearest (and the radius): the part is exact by construction. */
  size_t cells = window.width * window.height;
  double *query_x = g_new (double, cells), *query_y = g_new (double, cells), *d2 = g_new (double, cells * 16);
  for (size_t cell = 0; cell < cells; cell++)
    grid_cell_centre (&window, cell, &query_x[cell], &query_y[cell]);
  shepard_error error = { SHEPARD_OK, "" };
  assert_engine_status (shepard_engine_nearest (engine, query_x, query_y, cells, 16, d2, NULL, &error), &error,
                        SHEPARD_OK);
  for (size_t cell = 0; cell < cells; cell++)
    g_assert_cmpfloat (sqrt (d2[cell * 16 + 15]), <, halo);
  g_assert_cmpfloat (test->radius, <, halo);

  point_set *near = points_near (points, &window, halo);
  g_assert_cmpuint (near->count, <, points->count / 5);
  shepard_layer_extent whole = extent_of (points);
  shepard_engine *part = shepard_engine_new (backend, SHEPARD_PRECISION_FLOAT32, 2, &error);
  g_assert_nonnull (part);
  const double *const fields[1] = { near->z };
  assert_engine_status (shepard_engine_set_points_part (part, near->x, near->y, fields, 1, near->count, &whole,
                                                        &error), &error, SHEPARD_OK);

  shepard_params params = params_of (test);
  double *expected = g_new (double, cells), *actual = g_new (double, cells);
  interpolate_grid_or_fail (engine, &params, &window, expected);
  interpolate_grid_or_fail (part, &params, &window, actual);
  size_t differing = cells_differing (actual, expected, cells);
  g_test_message ("%s: %zu of the part's %zu points; %zu of %zu cells differ", test->name, near->count,
                  points->count, differing, cells);
  g_assert_cmpuint (differing, ==, 0);

  g_free (query_x);
  g_free (query_y);
  g_free (d2);
  g_free (expected);
  g_free (actual);
  point_set_free (near);
  point_set_free (points);
  shepard_engine_free (part);
  shepard_engine_free (engine);
}

static void
test_part_equals_whole (gconstpointer data)
{
  part_equals_whole (data, SHEPARD_BACKEND_CPU);
}

static void
test_part_equals_whole_on_gpu (gconstpointer data)
{
  if (cuda_device_or_skip ())
    part_equals_whole (data, SHEPARD_BACKEND_CUDA);
}

/* What a part refuses: points beyond the layer's box or range, and area=hull without the layer's hull. */
static void
test_part_refusals (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 500, 73);
  shepard_layer_extent whole = extent_of (points);
  shepard_error error = { SHEPARD_OK, "" };
  shepard_engine *part = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, 1, &error);
  const double *const fields[1] = { points->z };

  shepard_layer_extent narrow = whole;
  narrow.x_max = whole.x_max - 1.0;
  assert_engine_status (shepard_engine_set_points_part (part, points->x, points->y, fields, 1, points->count, &narrow,
                                                        &error), &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  shepard_layer_extent low = whole;
  low.z_max[0] = whole.z_max[0] - 1.0;
  assert_engine_status (shepard_engine_set_points_part (part, points->x, points->y, fields, 1, points->count, &low,
                                                        &error), &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error.message, "range"));

  shepard_layer_extent no_hull = whole;
  no_hull.hull_x = no_hull.hull_y = NULL;
  no_hull.hull_count = 0;
  assert_engine_status (shepard_engine_set_points_part (part, points->x, points->y, fields, 1, points->count,
                                                        &no_hull, &error), &error, SHEPARD_OK);
  shepard_params params;
  shepard_params_init_aidw (&params);
  params.area_mode = SHEPARD_AREA_CONVEX_HULL;
  double r_exp = 0.0;
  assert_engine_status (shepard_engine_expected_distance (part, &params, &r_exp, &error), &error,
                        SHEPARD_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error.message, "hull"));
  /* The whole layer's n and box: the r_exp an engine holding every point finds. */
  params.area_mode = SHEPARD_AREA_BOUNDING_BOX;
  assert_engine_status (shepard_engine_expected_distance (part, &params, &r_exp, &error), &error, SHEPARD_OK);
  double area = (whole.x_max - whole.x_min) * (whole.y_max - whole.y_min);
  g_assert_cmpfloat_with_epsilon (r_exp, 0.5 / sqrt ((double) points->count / area), 1e-12 * r_exp);

  shepard_engine_free (part);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *windows = g_strdup_printf ("/grid-windows/equal-whole/%s", cases[i].name);
      g_test_add_data_func (windows, &cases[i], test_windows_equal_whole);
      g_autofree char *gpu_windows = g_strdup_printf ("/grid-windows/gpu/equal-whole/%s", cases[i].name);
      g_test_add_data_func (gpu_windows, &cases[i], test_windows_equal_whole_on_gpu);
      if (cases[i].neighbors > 0 || cases[i].radius > 0.0)
        {
          g_autofree char *part = g_strdup_printf ("/grid-windows/part-of-layer/%s", cases[i].name);
          g_test_add_data_func (part, &cases[i], test_part_equals_whole);
          g_autofree char *gpu_part = g_strdup_printf ("/grid-windows/gpu/part-of-layer/%s", cases[i].name);
          g_test_add_data_func (gpu_part, &cases[i], test_part_equals_whole_on_gpu);
        }
    }
  g_test_add_func ("/grid-windows/part-refusals", test_part_refusals);
  return g_test_run ();
}
