/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Draws known grids and points into an offscreen framebuffer and reads the pixels back. The GL context comes from
 * EGL without any window system (Mesa's surfaceless platform, an EGL device, or the default display with a
 * pbuffer), so the test needs no DISPLAY; every GL case skips, saying why, where no context can be made.
 * SHEPARD_TEST_GL_API=gles asks for an OpenGL ES 3 context instead of desktop GL 3.2 core. */
#include <epoxy/gl.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "offscreen-gl.h"
#include "shepard-render-private.h"
#include "shepard-render.h"

/* Tolerance of a colour channel read back as 8 bits. */
#define CHANNEL_TOLERANCE (2.0 / 255.0)

static void
assert_pixel_rgb (const guint8 *pixel, const float rgb[3], const char *what)
{
  for (int c = 0; c < 3; c++)
    {
      if (fabs (pixel[c] / 255.0 - rgb[c]) > CHANNEL_TOLERANCE)
        g_error ("%s: drew (%u, %u, %u), expected (%.1f, %.1f, %.1f) within 2/255", what, pixel[0], pixel[1],
                 pixel[2], rgb[0] * 255.0, rgb[1] * 255.0, rgb[2] * 255.0);
    }
  g_assert_cmpuint (pixel[3], ==, 255);
}

/* The device pixel at the middle of a map position (rounded down to the pixel that contains it). */
static void
map_to_device_pixel (const ShepardView *view, double x, double y, int *px, int *py)
{
  double lx, ly;

  shepard_view_map_to_pixel (view, x, y, &lx, &ly);
  *px = (int) floor (lx * view->scale);
  *py = (int) floor (ly * view->scale);
}

/* A 4 x 3 grid at Dutch RD coordinates (float32 could not hold them to the cell: the renderer works in double),
 * a view 16 logical pixels per cell with a margin of one cell around the grid. */
static const shepard_grid test_grid = {
  .x_min = 181000, .y_max = 333000, .dx = 40, .dy = 40, .width = 4, .height = 3,
};
static const float test_values[12] = {
  0.0f, 1.5f, 3.0f, 4.5f,
  6.0f, NAN, 7.5f, 9.0f,
  10.0f, -2.0f, 12.0f, 2.25f,
};
#define TEST_MIN 0.0
#define TEST_MAX 10.0

static ShepardView
test_view (double scale)
{
  return (ShepardView) {
    .center_x = test_grid.x_min + 2 * test_grid.dx,
    .center_y = test_grid.y_max - 1.5 * test_grid.dy,
    .units_per_pixel = test_grid.dx / 16,
    .width = (int) (6 * 16 * scale),
    .height = (int) (5 * 16 * scale),
    .scale = scale,
  };
}

static void
cell_centre (const shepard_grid *grid, int col, int row, double *x, double *y)
{
  *x = grid->x_min + (col + 0.5) * grid->dx;
  *y = grid->y_max - (row + 0.5) * grid->dy;
}

static void
test_ramp_function (void)
{
  float rgb[3], first[3], last[3];
  ShepardColorRamp ramp;

  for (int r = 0; r < SHEPARD_COLOR_RAMP_COUNT; r++)
    {
      guint n_stops;
      const ShepardRampStop *stops = _shepard_color_ramp_get_stops (r, &n_stops);

      g_assert_true (shepard_color_ramp_from_string (shepard_color_ramp_to_string (r), &ramp));
      g_assert_cmpint (ramp, ==, r);

      /* The ends, and each control point exactly. */
      g_assert_cmpfloat (stops[0].t, ==, 0.0f);
      g_assert_cmpfloat (stops[n_stops - 1].t, ==, 1.0f);
      for (guint i = 0; i < n_stops; i++)
        {
          shepard_color_ramp_evaluate (r, stops[i].t, rgb);
          g_assert_cmpfloat_with_epsilon (rgb[0], stops[i].r, 1e-6);
          g_assert_cmpfloat_with_epsilon (rgb[1], stops[i].g, 1e-6);
          g_assert_cmpfloat_with_epsilon (rgb[2], stops[i].b, 1e-6);
          if (i > 0)
            g_assert_cmpfloat (stops[i].t, >, stops[i - 1].t);
        }

      /* Values beyond the range take the end colours. */
      shepard_color_ramp_evaluate (r, 0, first);
      shepard_color_ramp_evaluate (r, 1, last);
      g_assert_true (shepard_color_ramp_color_for_value (r, -100, 0, 10, rgb));
      g_assert_cmpmem (rgb, sizeof rgb, first, sizeof first);
      g_assert_true (shepard_color_ramp_color_for_value (r, 100, 0, 10, rgb));
      g_assert_cmpmem (rgb, sizeof rgb, last, sizeof last);

      /* Nodata has no colour. */
      g_assert_false (shepard_color_ramp_color_for_value (r, NAN, 0, 10, rgb));
      g_assert_false (shepard_color_ramp_color_for_value (r, INFINITY, 0, 10, rgb));
    }

  /* Halfway between two stops is their mean; an empty range is the middle colour. */
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_GRAYSCALE, 0.25, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], 0.25f, 1e-6);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_GRAYSCALE, 7, 7, 7, rgb));
  g_assert_cmpfloat_with_epsilon (rgb[1], 0.5f, 1e-6);
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_VIRIDIS, 0.0625, rgb);
  g_assert_cmpfloat_with_epsilon (rgb[0], (0x44 + 0x47) / 510.0f, 1e-6);

  g_assert_false (shepard_color_ramp_from_string ("rainbow", &ramp));
}

static void
assert_rgb_hex (const float rgb[3], guint32 hex, const char *what)
{
  const double expected[3] = { hex >> 16, (hex >> 8) & 0xff, hex & 0xff };

  for (int c = 0; c < 3; c++)
    {
      if (fabs (rgb[c] * 255.0 - expected[c]) > 1.0)
        g_error ("%s: (%.1f, %.1f, %.1f), expected #%06x within 1/255", what, rgb[0] * 255.0, rgb[1] * 255.0,
                 rgb[2] * 255.0, hex);
    }
}

/* Relative luminance (sRGB primaries), for how light a colour looks. */
static double
luminance (const float rgb[3])
{
  double linear[3];

  for (int c = 0; c < 3; c++)
    linear[c] = rgb[c] <= 0.04045 ? rgb[c] / 12.92 : pow ((rgb[c] + 0.055) / 1.055, 2.4);
  return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2];
}

static void
test_ramp_new (void)
{
  float rgb[3];
  double previous_diverging = 0, previous_plasma = 0;
  ShepardColorRamp ramp;

  /* Appended after the first three, whose numbers stored settings hold. */
  g_assert_cmpint (SHEPARD_COLOR_RAMP_GRAYSCALE, ==, 2);
  g_assert_cmpint (SHEPARD_COLOR_RAMP_DIVERGING, ==, 3);
  g_assert_cmpint (SHEPARD_COLOR_RAMP_PLASMA, ==, 4);
  g_assert_cmpint (SHEPARD_COLOR_RAMP_PLASMA, ==, 4);
  g_assert_cmpint (SHEPARD_COLOR_RAMP_COUNT, ==, 9);
  g_assert_cmpstr (shepard_color_ramp_to_string (SHEPARD_COLOR_RAMP_DIVERGING), ==, "diverging");
  g_assert_cmpstr (shepard_color_ramp_to_string (SHEPARD_COLOR_RAMP_PLASMA), ==, "plasma");
  g_assert_true (shepard_color_ramp_from_string ("diverging", &ramp));
  g_assert_cmpint (ramp, ==, SHEPARD_COLOR_RAMP_DIVERGING);
  g_assert_true (shepard_color_ramp_from_string ("plasma", &ramp));
  g_assert_cmpint (ramp, ==, SHEPARD_COLOR_RAMP_PLASMA);

  /* Diverging: RdBu's dark blue and dark red at the ends, white in the middle, so a range symmetric about 0 draws
   * 0 white, below it blue and above it red. */
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_DIVERGING, 0, rgb);
  assert_rgb_hex (rgb, 0x053061, "diverging at 0");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_DIVERGING, 1, rgb);
  assert_rgb_hex (rgb, 0x67001f, "diverging at 1");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_DIVERGING, 0.5, rgb);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (rgb[c], ==, 1.0f);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, 0, -2.5, 2.5, rgb));
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat (rgb[c], ==, 1.0f);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, -1, -2.5, 2.5, rgb));
  g_assert_cmpfloat (rgb[2], >, rgb[0] + 0.2);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, 1, -2.5, 2.5, rgb));
  g_assert_cmpfloat (rgb[0], >, rgb[2] + 0.2);

  /* Plasma: matplotlib's first, middle and last colours. */
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_PLASMA, 0, rgb);
  assert_rgb_hex (rgb, 0x0d0887, "plasma at 0");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_PLASMA, 0.5, rgb);
  assert_rgb_hex (rgb, 0xcc4778, "plasma at 0.5");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_PLASMA, 1, rgb);
  assert_rgb_hex (rgb, 0xf0f921, "plasma at 1");

  /* Even ramps: the diverging one darkens steadily from its middle towards either end, plasma lightens steadily
   * from end to end, so that a lighter colour always means a value nearer 0 (or a larger alpha). */
  for (int i = 0; i <= 100; i++)
    {
      double diverging, plasma;

      shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_DIVERGING, i / 100.0, rgb);
      diverging = luminance (rgb);
      shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_PLASMA, i / 100.0, rgb);
      plasma = luminance (rgb);
      if (i > 0 && i <= 50)
        g_assert_cmpfloat (diverging, >, previous_diverging);
      else if (i > 50)
        g_assert_cmpfloat (diverging, <, previous_diverging);
      if (i > 0)
        g_assert_cmpfloat (plasma, >, previous_plasma);
      previous_diverging = diverging;
      previous_plasma = plasma;
    }
}

static void
test_view_conversions (void)
{
  ShepardView view = { .center_x = 180000, .center_y = 330000, .units_per_pixel = 2.5, .width = 800, .height = 600,
                       .scale = 2 };
  double px, py, x, y;

  /* The centre is in the middle of the 400 x 300 logical pixels; y grows downwards on screen. */
  shepard_view_map_to_pixel (&view, 180000, 330000, &px, &py);
  g_assert_cmpfloat_with_epsilon (px, 200, 1e-9);
  g_assert_cmpfloat_with_epsilon (py, 150, 1e-9);
  shepard_view_map_to_pixel (&view, 180025, 330025, &px, &py);
  g_assert_cmpfloat_with_epsilon (px, 210, 1e-9);
  g_assert_cmpfloat_with_epsilon (py, 140, 1e-9);
  shepard_view_pixel_to_map (&view, 0, 0, &x, &y);
  g_assert_cmpfloat_with_epsilon (x, 180000 - 500, 1e-9);
  g_assert_cmpfloat_with_epsilon (y, 330000 + 375, 1e-9);

  /* 1000 x 100 map units into 400 x 300 logical pixels less 20 on each side: width decides. */
  shepard_view_fit (&view, 1000, 2000, 2000, 2100, 20);
  g_assert_cmpfloat_with_epsilon (view.units_per_pixel, 1000.0 / 360, 1e-12);
  g_assert_cmpfloat_with_epsilon (view.center_x, 1500, 1e-9);
  g_assert_cmpfloat_with_epsilon (view.center_y, 2050, 1e-9);
  shepard_view_map_to_pixel (&view, 1000, 2100, &px, &py);
  g_assert_cmpfloat_with_epsilon (px, 20, 1e-9);

  /* A single point keeps the zoom. */
  shepard_view_fit (&view, 5, 5, 5, 5, 20);
  g_assert_cmpfloat_with_epsilon (view.units_per_pixel, 1000.0 / 360, 1e-12);
  g_assert_cmpfloat (view.center_x, ==, 5);
}

static void
check_grid_cells (ShepardRenderer *renderer, const ShepardView *view, ShepardColorRamp ramp, double min, double max,
                  const float *values, const char *what)
{
  Target target;

  target_init (&target, view->width, view->height);
  shepard_renderer_set_view (renderer, view);
  shepard_renderer_draw (renderer);
  target_read (&target);

  for (int row = 0; row < (int) test_grid.height; row++)
    {
      for (int col = 0; col < (int) test_grid.width; col++)
        {
          float value = values[row * test_grid.width + col];
          double x, y;
          int px, py;
          float rgb[3];
          const guint8 *pixel;

          cell_centre (&test_grid, col, row, &x, &y);
          map_to_device_pixel (view, x, y, &px, &py);
          pixel = target_pixel (&target, px, py);
          if (shepard_color_ramp_color_for_value (ramp, value, min, max, rgb))
            {
              g_autofree char *where = g_strdup_printf ("%s, %s, cell (%d, %d) = %g", what,
                                                        shepard_color_ramp_to_string (ramp), col, row, value);

              assert_pixel_rgb (pixel, rgb, where);
            }
          else
            {
              g_assert_cmpuint (pixel[0] | pixel[1] | pixel[2] | pixel[3], ==, 0);
            }
        }
    }

  /* Outside the grid: nothing drawn. */
  g_assert_cmpuint (target_pixel (&target, 2, 2)[3], ==, 0);
  g_assert_cmpuint (target_pixel (&target, view->width - 3, view->height - 3)[3], ==, 0);
  target_clear (&target);
}

static void
test_ramp_reversed (void)
{
  float rgb[3], reversed[3];
  ShepardColorRamp ramp;

  for (int r = 0; r < SHEPARD_COLOR_RAMP_COUNT; r++)
    {
      g_assert_true (shepard_color_ramp_is_valid (r | SHEPARD_COLOR_RAMP_REVERSED));
      g_assert_cmpstr (shepard_color_ramp_to_string (r | SHEPARD_COLOR_RAMP_REVERSED), ==,
                       shepard_color_ramp_to_string (r));
      for (int i = 0; i <= 64; i++)
        {
          shepard_color_ramp_evaluate (r, 1.0 - i / 64.0, rgb);
          shepard_color_ramp_evaluate (r | SHEPARD_COLOR_RAMP_REVERSED, i / 64.0, reversed);
          for (int c = 0; c < 3; c++)
            g_assert_cmpfloat_with_epsilon (reversed[c], rgb[c], 1e-6);
        }
    }
  g_assert_false (shepard_color_ramp_is_valid (SHEPARD_COLOR_RAMP_COUNT));
  g_assert_false (shepard_color_ramp_is_valid (SHEPARD_COLOR_RAMP_COUNT | SHEPARD_COLOR_RAMP_REVERSED));

  /* The new ramps' ends: viridisLite's and ColorBrewer's published colours. */
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_MAGMA, 1, rgb);
  assert_rgb_hex (rgb, 0xfcfdbf, "magma at 1");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_INFERNO, 1, rgb);
  assert_rgb_hex (rgb, 0xfcffa4, "inferno at 1");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_CIVIDIS, 0, rgb);
  assert_rgb_hex (rgb, 0x00204d, "cividis at 0");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_BROWN_TEAL, 0, rgb);
  assert_rgb_hex (rgb, 0x543005, "brown-teal at 0");
  shepard_color_ramp_evaluate (SHEPARD_COLOR_RAMP_BROWN_TEAL, 0.5, rgb);
  assert_rgb_hex (rgb, 0xffffff, "brown-teal at 0.5");
  g_assert_true (shepard_color_ramp_from_string ("brown-teal", &ramp));
  g_assert_cmpint (ramp, ==, SHEPARD_COLOR_RAMP_BROWN_TEAL);
}

/* The pixel of cell (col, row) of test_grid drawn with view. */
static const guint8 *
cell_pixel (const Target *target, const ShepardView *view, int col, int row)
{
  double x, y;
  int px, py;

  cell_centre (&test_grid, col, row, &x, &y);
  map_to_device_pixel (view, x, y, &px, &py);
  return target_pixel (target, px, py);
}

static void
test_grid_reversed (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (1);
  Target target;
  float rgb[3];

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_VIRIDIS | SHEPARD_COLOR_RAMP_REVERSED);
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS | SHEPARD_COLOR_RAMP_REVERSED, TEST_MIN, TEST_MAX,
                    test_values, "reversed");

  /* Reversed viridis draws the minimum (cell (0, 0) holds 0) yellow and the maximum (cell (0, 2), 10) dark purple. */
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);
  rgb[0] = 0xfd / 255.0f, rgb[1] = 0xe7 / 255.0f, rgb[2] = 0x25 / 255.0f;
  assert_pixel_rgb (cell_pixel (&target, &view, 0, 0), rgb, "reversed viridis at the minimum");
  rgb[0] = 0x44 / 255.0f, rgb[1] = 0x01 / 255.0f, rgb[2] = 0x54 / 255.0f;
  assert_pixel_rgb (cell_pixel (&target, &view, 0, 2), rgb, "reversed viridis at the maximum");
  target_clear (&target);
}

static void
test_grid_classes (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  const double breaks[] = { 0, 2.5, 5, 7.5, 10 };
  /* Four grey classes, drawn at the ramp's 1/8, 3/8, 5/8 and 7/8: the class of each cell of test_values by hand
   * (a value on a break belongs to the class above it; below the first and above the last, the end classes). */
  const int expected_class[12] = {
    0, 0, 1, 1,
    2, -1, 3, 3,
    3, 0, 3, 0,
  };
  ShepardView view = test_view (1);
  Target target;

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_GRAYSCALE);
  shepard_renderer_set_classes (renderer, breaks, 4);
  shepard_renderer_set_view (renderer, &view);
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);
  for (int i = 0; i < 12; i++)
    {
      const guint8 *pixel = cell_pixel (&target, &view, i % 4, i / 4);
      g_autofree char *what = g_strdup_printf ("classed cell %d = %g", i, test_values[i]);
      float rgb[3];

      if (expected_class[i] < 0)
        {
          g_assert_cmpuint (pixel[3], ==, 0);
          g_assert_false (shepard_color_ramp_color_for_class (SHEPARD_COLOR_RAMP_GRAYSCALE, test_values[i], breaks, 4,
                                                              rgb));
          continue;
        }
      rgb[0] = rgb[1] = rgb[2] = (expected_class[i] + 0.5f) / 4;
      assert_pixel_rgb (pixel, rgb, what);
      g_assert_cmpuint (shepard_color_classes_find (breaks, 4, test_values[i]), ==, expected_class[i]);
      g_assert_true (shepard_color_ramp_color_for_class (SHEPARD_COLOR_RAMP_GRAYSCALE, test_values[i], breaks, 4,
                                                         rgb));
      assert_pixel_rgb (pixel, rgb, what);
    }
  target_clear (&target);

  /* Back to continuous. */
  shepard_renderer_set_classes (renderer, NULL, 0);
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_GRAYSCALE, TEST_MIN, TEST_MAX, test_values, "unclassed");
}

static void
test_grid_opacity (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (1);
  double x[1], y[1], z[1] = { 10 };
  Target target;
  int px, py;

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  cell_centre (&test_grid, 3, 2, &x[0], &y[0]);
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, 1, &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_GRAYSCALE);
  shepard_renderer_set_opacity (renderer, 0.25);
  shepard_renderer_set_view (renderer, &view);
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);

  /* Premultiplied: cell (2, 0) holds 3, grey 0.3 at a quarter opacity, reads (0.075, 0.075, 0.075, 0.25), so that
   * over a white page it blends to 0.075 + 0.75 = 0.825. */
  const guint8 *pixel = cell_pixel (&target, &view, 2, 0);
  for (int c = 0; c < 3; c++)
    g_assert_cmpfloat_with_epsilon (pixel[c] / 255.0, 0.3 * 0.25, CHANNEL_TOLERANCE);
  g_assert_cmpfloat_with_epsilon (pixel[3] / 255.0, 0.25, CHANNEL_TOLERANCE);

  /* The dot on cell (3, 2) stays opaque, white for 10, over the faded surface. */
  map_to_device_pixel (&view, x[0], y[0], &px, &py);
  assert_pixel_rgb (target_pixel (&target, px, py), (const float[3]) { 1, 1, 1 }, "dot over a faded surface");
  target_clear (&target);

  /* Opacity 0: only the dot. */
  shepard_renderer_set_opacity (renderer, 0);
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);
  g_assert_cmpuint (cell_pixel (&target, &view, 2, 0)[3], ==, 0);
  g_assert_cmpuint (target_pixel (&target, px, py)[3], ==, 255);
  target_clear (&target);
}

static void
test_grid_colours (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_no_error (error);
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);

  for (int r = 0; r < SHEPARD_COLOR_RAMP_COUNT; r++)
    {
      ShepardView view = test_view (1);

      shepard_renderer_set_ramp (renderer, r);
      check_grid_cells (renderer, &view, r, TEST_MIN, TEST_MAX, test_values, "scale 1");
      view = test_view (2);
      check_grid_cells (renderer, &view, r, TEST_MIN, TEST_MAX, test_values, "scale 2");
    }

  /* Residuals through the diverging ramp over a range symmetric about 0: cell (0, 0), which holds 0, is white to the
   * last bit, so that a residual of 0 cannot be mistaken for a small one. */
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_DIVERGING);
  shepard_renderer_set_range (renderer, -TEST_MAX, TEST_MAX);
  for (int scale = 1; scale <= 2; scale++)
    {
      ShepardView view = test_view (scale);
      Target target;
      double x, y;
      int px, py;
      const guint8 *pixel;

      g_assert_cmpfloat (test_values[0], ==, 0.0f);
      check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_DIVERGING, -TEST_MAX, TEST_MAX, test_values,
                        "symmetric range");
      target_init (&target, view.width, view.height);
      shepard_renderer_draw (renderer);
      target_read (&target);
      cell_centre (&test_grid, 0, 0, &x, &y);
      map_to_device_pixel (&view, x, y, &px, &py);
      pixel = target_pixel (&target, px, py);
      g_assert_cmpuint (pixel[0] & pixel[1] & pixel[2] & pixel[3], ==, 255);
      target_clear (&target);
    }
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

/* A mask takes its cells away whatever values they hold, as NaN would; the next grid comes without it. */
static void
test_grid_mask (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  static const guint8 keep[12] = {
    1, 0, 1, 1,
    1, 1, 0, 9,
    0, 1, 1, 0,
  };
  float masked[12];

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  shepard_renderer_set_grid_mask (renderer, keep);
  for (int i = 0; i < 12; i++)
    masked[i] = keep[i] != 0 ? test_values[i] : NAN;
  for (int scale = 1; scale <= 2; scale++)
    {
      ShepardView view = test_view (scale);
      check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS, TEST_MIN, TEST_MAX, masked, "masked");
    }

  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  ShepardView view = test_view (1);
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS, TEST_MIN, TEST_MAX, test_values, "mask dropped");
  shepard_renderer_set_grid_mask (renderer, keep);
  shepard_renderer_set_grid_mask (renderer, NULL);
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS, TEST_MIN, TEST_MAX, test_values, "mask cleared");
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_grid_update (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  float values[12];
  ShepardView view = test_view (1);
  guint texture;

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_cmpuint (shepard_renderer_get_grid_texture (renderer), ==, 0);
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);

  /* A grid of another size first, then the test grid twice: a new texture for the new size, then kept. */
  {
    shepard_grid small = test_grid;
    small.width = 2;
    small.height = 2;
    g_assert_true (shepard_renderer_set_grid (renderer, &small, test_values, &error));
  }
  g_assert_cmpuint (shepard_renderer_get_grid_texture (renderer), !=, 0);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_no_error (error);
  texture = shepard_renderer_get_grid_texture (renderer);
  g_assert_cmpuint (texture, !=, 0);
  for (int i = 0; i < 12; i++)
    values[i] = 10.0f - test_values[i];
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, values, &error));
  g_assert_cmpuint (shepard_renderer_get_grid_texture (renderer), ==, texture);
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS, TEST_MIN, TEST_MAX, values, "updated values");

  /* Nothing once the grid is cleared. */
  {
    Target target;

    shepard_renderer_clear_grid (renderer);
    target_init (&target, view.width, view.height);
    shepard_renderer_draw (renderer);
    target_read (&target);
    for (int i = 0; i < view.width * view.height; i++)
      g_assert_cmpuint (target.pixels[4 * i + 3], ==, 0);
    target_clear (&target);
  }

  /* Larger than the driver's largest texture: an error, and the renderer keeps working. */
  {
    GLint max_size = 0;
    shepard_grid huge = test_grid;

    glGetIntegerv (GL_MAX_TEXTURE_SIZE, &max_size);
    huge.width = (size_t) max_size + 1;
    g_assert_false (shepard_renderer_set_grid (renderer, &huge, test_values, &error));
    g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_TOO_LARGE);
    g_test_message ("%s", error->message);
    g_clear_error (&error);
  }
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  check_grid_cells (renderer, &view, SHEPARD_COLOR_RAMP_VIRIDIS, TEST_MIN, TEST_MAX, test_values,
                    "after a failed update");
}

static void
check_points (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (scale);
  Target target;
  /* One dot in the middle of cell (2, 0), one on the nodata cell (1, 1), one far outside the view. */
  double x[3], y[3];
  const double z[3] = { 8.0, 1.0, 5.0 };
  float rgb[3];
  int px, py;

  if (!offscreen_gl_need_context ())
    return;
  cell_centre (&test_grid, 2, 0, &x[0], &y[0]);
  cell_centre (&test_grid, 1, 1, &x[1], &y[1]);
  x[2] = test_grid.x_min + 1e5;
  y[2] = test_grid.y_max;

  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_TERRAIN);
  shepard_renderer_set_view (renderer, &view);
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);

  for (int i = 0; i < 2; i++)
    {
      g_autofree char *what = g_strdup_printf ("scale %g, dot %d", scale, i);
      const guint8 *pixel;

      /* The dot's centre has the point's colour... */
      map_to_device_pixel (&view, x[i], y[i], &px, &py);
      g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_TERRAIN, z[i], TEST_MIN, TEST_MAX, rgb));
      assert_pixel_rgb (target_pixel (&target, px, py), rgb, what);

      /* ...its rim is dark... */
      pixel = target_pixel (&target, px + (int) round ((SHEPARD_RENDER_POINT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE / 2)
                                                       * scale) , py);
      g_assert_cmpuint (MAX (pixel[0], MAX (pixel[1], pixel[2])), <, 80);

      /* ...and beyond it the grid shows again (or nothing, on nodata). */
      pixel = target_pixel (&target, px, py - (int) ((SHEPARD_RENDER_POINT_RADIUS + 2) * scale));
      if (i == 0)
        {
          g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_TERRAIN, test_values[2], TEST_MIN,
                                                             TEST_MAX, rgb));
          assert_pixel_rgb (pixel, rgb, "grid beside dot 0");
        }
      else
        {
          g_assert_cmpuint (pixel[3], ==, 0);
        }
    }
  target_clear (&target);

  /* Without points, the dot's place shows the cell. */
  g_assert_true (shepard_renderer_set_points (renderer, NULL, NULL, NULL, 0, &error));
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);
  map_to_device_pixel (&view, x[0], y[0], &px, &py);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_TERRAIN, test_values[2], TEST_MIN, TEST_MAX,
                                                     rgb));
  assert_pixel_rgb (target_pixel (&target, px, py), rgb, "cell without its dot");
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_points (void)
{
  check_points (1);
  check_points (2);
}

static void
draw_and_read (ShepardRenderer *renderer, const ShepardView *view, Target *target)
{
  target_init (target, view->width, view->height);
  shepard_renderer_set_view (renderer, view);
  shepard_renderer_draw (renderer);
  target_read (target);
}

static void
assert_dot_colour (const Target *target, const ShepardView *view, double x, double y, ShepardColorRamp ramp,
                   double value, double min, double max, const char *what)
{
  float rgb[3];
  int px, py;

  map_to_device_pixel (view, x, y, &px, &py);
  g_assert_true (shepard_color_ramp_color_for_value (ramp, value, min, max, rgb));
  assert_pixel_rgb (target_pixel (target, px, py), rgb, what);
}

/* Dots coloured by values of their own through their own ramp and range, not by z; a dot without a value is hollow
 * and grey; NULL, a new set of points and a wrong count each do what the header says. */
static void
check_point_colors (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (scale);
  Target target;
  double x[3], y[3];
  const double z[3] = { 8.0, 1.0, 5.0 };
  const double residuals[3] = { -0.8, 0.5, NAN };
  const float grey[3] = { 0.6f, 0.6f, 0.6f };
  float rgb[3], z_rgb[3];
  int px, py;

  if (!offscreen_gl_need_context ())
    return;
  cell_centre (&test_grid, 2, 0, &x[0], &y[0]);
  cell_centre (&test_grid, 0, 2, &x[1], &y[1]);
  cell_centre (&test_grid, 3, 1, &x[2], &y[2]);
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_TERRAIN);

  g_assert_true (shepard_renderer_set_point_colors (renderer, residuals, G_N_ELEMENTS (residuals),
                                                    SHEPARD_COLOR_RAMP_DIVERGING, -1, 1, &error));
  g_assert_no_error (error);
  draw_and_read (renderer, &view, &target);
  for (int i = 0; i < 2; i++)
    {
      g_autofree char *what = g_strdup_printf ("scale %g, dot %d by its own value", scale, i);
      double difference = 0;

      assert_dot_colour (&target, &view, x[i], y[i], SHEPARD_COLOR_RAMP_DIVERGING, residuals[i], -1, 1, what);
      /* The colour of z would have been told apart. */
      shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, residuals[i], -1, 1, rgb);
      shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_TERRAIN, z[i], TEST_MIN, TEST_MAX, z_rgb);
      for (int c = 0; c < 3; c++)
        difference = MAX (difference, fabs (rgb[c] - z_rgb[c]));
      g_assert_cmpfloat (difference, >, 10 * CHANNEL_TOLERANCE);
    }
  /* No value: the cell beneath shows through the middle, inside a grey ring inside the dark outline. */
  assert_dot_colour (&target, &view, x[2], y[2], SHEPARD_COLOR_RAMP_TERRAIN, test_values[7], TEST_MIN, TEST_MAX,
                     "the middle of a dot without a value");
  map_to_device_pixel (&view, x[2], y[2], &px, &py);
  assert_pixel_rgb (target_pixel (&target, px + (int) floor ((SHEPARD_RENDER_POINT_RADIUS
                                                              - 1.5 * SHEPARD_RENDER_POINT_OUTLINE) * scale), py),
                    grey, "the ring of a dot without a value");
  target_clear (&target);

  /* A count other than the points' is refused, and the dots keep their colours. */
  g_assert_false (shepard_renderer_set_point_colors (renderer, residuals, 2, SHEPARD_COLOR_RAMP_PLASMA, 0, 1,
                                                     &error));
  g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_MISMATCH);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_DIVERGING, residuals[0], -1, 1,
                     "after a wrong count");
  target_clear (&target);

  /* NULL: z through the grid's ramp and range again, whatever ramp and range come with it. */
  g_assert_true (shepard_renderer_set_point_colors (renderer, NULL, 0, SHEPARD_COLOR_RAMP_PLASMA, NAN, NAN, &error));
  draw_and_read (renderer, &view, &target);
  for (int i = 0; i < 3; i++)
    assert_dot_colour (&target, &view, x[i], y[i], SHEPARD_COLOR_RAMP_TERRAIN, z[i], TEST_MIN, TEST_MAX,
                       "z again");
  target_clear (&target);

  /* New points go back to z too: the colours were given for the points before. */
  g_assert_true (shepard_renderer_set_point_colors (renderer, residuals, G_N_ELEMENTS (residuals),
                                                    SHEPARD_COLOR_RAMP_DIVERGING, -1, 1, &error));
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_TERRAIN, z[0], TEST_MIN, TEST_MAX,
                     "z after new points");
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_point_colors (void)
{
  check_point_colors (1);
  check_point_colors (2);
}

/* More points than the widest texture row holds: the colour values follow the points into the second row. All but
 * two points lie far outside the view; those two are the first and the last point of the second row. */
static void
test_point_colors_many (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (1);
  GLint max_size = 0;
  size_t n_points, first, last;
  Target target;

  if (!offscreen_gl_need_context ())
    return;
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &max_size);
  n_points = (size_t) max_size + 2;
  first = (size_t) max_size;
  last = n_points - 1;
  g_autofree double *x = g_new (double, n_points);
  g_autofree double *y = g_new (double, n_points);
  g_autofree double *z = g_new (double, n_points);
  g_autofree double *values = g_new (double, n_points);
  for (size_t i = 0; i < n_points; i++)
    {
      x[i] = test_grid.x_min - 1e5 - (double) i;
      y[i] = test_grid.y_max;
      z[i] = 5.0;
      values[i] = 0.0;
    }
  cell_centre (&test_grid, 2, 0, &x[first], &y[first]);
  cell_centre (&test_grid, 0, 2, &x[last], &y[last]);
  values[first] = -0.9;
  values[last] = 0.7;

  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, n_points, &error));
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_point_colors (renderer, values, n_points, SHEPARD_COLOR_RAMP_PLASMA, -1, 1,
                                                    &error));
  g_assert_no_error (error);
  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[first], y[first], SHEPARD_COLOR_RAMP_PLASMA, values[first], -1, 1,
                     "the first point of the second row");
  assert_dot_colour (&target, &view, x[last], y[last], SHEPARD_COLOR_RAMP_PLASMA, values[last], -1, 1,
                     "the last point");
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
assert_same_target (const Target *a, const Target *b, const char *what)
{
  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  if (memcmp (a->pixels, b->pixels, (size_t) 4 * a->width * a->height) != 0)
    g_error ("%s: the pixels differ", what);
}

/* The highlighted dot is drawn larger, with a white ring inside a dark outline around its own colour; only the
 * pixels within its radius change. */
static void
check_highlight (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (scale);
  Target plain, highlighted, again;
  double x[3], y[3];
  const double z[3] = { 8.0, 1.0, 5.0 };
  double lx, ly, centre_x, centre_y, reach = SHEPARD_RENDER_HIGHLIGHT_RADIUS * scale + 1;
  size_t changed = 0;
  int px, py;
  const guint8 *pixel;

  if (!offscreen_gl_need_context ())
    return;
  cell_centre (&test_grid, 2, 0, &x[0], &y[0]);
  cell_centre (&test_grid, 0, 2, &x[1], &y[1]);
  cell_centre (&test_grid, 3, 1, &x[2], &y[2]);
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);
  draw_and_read (renderer, &view, &plain);
  shepard_renderer_set_highlight (renderer, 1);
  draw_and_read (renderer, &view, &highlighted);

  shepard_view_map_to_pixel (&view, x[1], y[1], &lx, &ly);
  centre_x = lx * scale;
  centre_y = ly * scale;
  for (int row = 0; row < view.height; row++)
    for (int col = 0; col < view.width; col++)
      {
        if (memcmp (target_pixel (&plain, col, row), target_pixel (&highlighted, col, row), 4) == 0)
          continue;
        changed++;
        if (hypot (col + 0.5 - centre_x, row + 0.5 - centre_y) > reach)
          g_error ("scale %g: the highlight changed pixel (%d, %d), %.1f device pixels from its dot", scale, col, row,
                   hypot (col + 0.5 - centre_x, row + 0.5 - centre_y));
      }
  /* At least the ring between the plain dot's edge and the highlight's. */
  g_assert_cmpfloat (changed, >, G_PI * (pow (SHEPARD_RENDER_HIGHLIGHT_RADIUS - 1, 2)
                                         - pow (SHEPARD_RENDER_POINT_RADIUS + 1, 2)) * scale * scale);
  g_test_message ("scale %g: the highlight changed %zu pixels", scale, changed);

  /* Its own colour in the middle, then the white ring, then the dark outline. */
  assert_dot_colour (&highlighted, &view, x[1], y[1], SHEPARD_COLOR_RAMP_VIRIDIS, z[1], TEST_MIN, TEST_MAX,
                     "the highlighted dot's middle");
  map_to_device_pixel (&view, x[1], y[1], &px, &py);
  pixel = target_pixel (&highlighted, px + (int) floor ((SHEPARD_RENDER_HIGHLIGHT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE
                                                         - SHEPARD_RENDER_HIGHLIGHT_RING / 2) * scale), py);
  g_assert_cmpuint (MIN (pixel[0], MIN (pixel[1], pixel[2])), >=, 250);
  pixel = target_pixel (&highlighted,
                        px + (int) floor ((SHEPARD_RENDER_HIGHLIGHT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE / 2) * scale),
                        py);
  g_assert_cmpuint (MAX (pixel[0], MAX (pixel[1], pixel[2])), <, 80);
  g_assert_cmpuint (pixel[3], >, 200);

  /* Kept when the points are set again; none, or an index beyond the points, draws no highlight. */
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  draw_and_read (renderer, &view, &again);
  assert_same_target (&again, &highlighted, "highlight after the points were set again");
  target_clear (&again);
  shepard_renderer_set_highlight (renderer, -1);
  draw_and_read (renderer, &view, &again);
  assert_same_target (&again, &plain, "no highlight");
  target_clear (&again);
  shepard_renderer_set_highlight (renderer, G_N_ELEMENTS (z));
  draw_and_read (renderer, &view, &again);
  assert_same_target (&again, &plain, "a highlight beyond the points");
  target_clear (&again);

  target_clear (&plain);
  target_clear (&highlighted);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_highlight (void)
{
  check_highlight (1);
  check_highlight (2);
}

/* The pixel right of a dot's centre whose middle is radius logical pixels (scaled) out, give or take half a pixel. */
static const guint8 *
pixel_beside (const Target *target, const ShepardView *view, double x, double y, double radius)
{
  int px, py;

  map_to_device_pixel (view, x, y, &px, &py);
  return target_pixel (target, px + (int) floor (radius * view->scale), py);
}

/* The rings of a highlighted dot around a middle that test_highlight's dot does not have: the white ring, then the
 * dark outline. */
static void
assert_highlight_rings (const Target *target, const ShepardView *view, double x, double y, const char *what)
{
  const guint8 *pixel;

  pixel = pixel_beside (target, view, x, y,
                        SHEPARD_RENDER_HIGHLIGHT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE
                          - SHEPARD_RENDER_HIGHLIGHT_RING / 2);
  if (MIN (pixel[0], MIN (pixel[1], pixel[2])) < 250)
    g_error ("%s: the white ring is (%u, %u, %u)", what, pixel[0], pixel[1], pixel[2]);
  pixel = pixel_beside (target, view, x, y, SHEPARD_RENDER_HIGHLIGHT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE / 2);
  if (MAX (pixel[0], MAX (pixel[1], pixel[2])) >= 80 || pixel[3] <= 200)
    g_error ("%s: the outline is (%u, %u, %u, %u)", what, pixel[0], pixel[1], pixel[2], pixel[3]);
}

/* A highlighted dot without a value (z, or its own value, not finite) is hollow: the cell beneath shows through the
 * middle, and its grey ring moves inwards, inside the white ring, rather than being covered by it. A dot with its own
 * colour keeps it inside the rings. */
static void
check_highlight_colours (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (scale);
  Target target;
  double x[3], y[3];
  const double z[3] = { 8.0, NAN, 5.0 };
  const double residuals[3] = { -0.8, 0.5, NAN };
  const float grey[3] = { 0.6f, 0.6f, 0.6f };
  /* The middle of the grey ring of a hollow highlighted dot: inside the white ring by one outline. */
  const double grey_ring = SHEPARD_RENDER_HIGHLIGHT_RADIUS - SHEPARD_RENDER_POINT_OUTLINE
                           - SHEPARD_RENDER_HIGHLIGHT_RING - SHEPARD_RENDER_POINT_OUTLINE / 2;
  g_autofree char *what = NULL;

  if (!offscreen_gl_need_context ())
    return;
  cell_centre (&test_grid, 2, 0, &x[0], &y[0]);
  cell_centre (&test_grid, 0, 2, &x[1], &y[1]);
  cell_centre (&test_grid, 3, 1, &x[2], &y[2]);
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &test_grid, test_values, &error));
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);

  /* z not finite: the cell (0, 2) shows through, then grey, white and the outline. */
  shepard_renderer_set_highlight (renderer, 1);
  draw_and_read (renderer, &view, &target);
  what = g_strdup_printf ("scale %g, highlighted dot without z", scale);
  assert_dot_colour (&target, &view, x[1], y[1], SHEPARD_COLOR_RAMP_VIRIDIS, test_values[8], TEST_MIN, TEST_MAX,
                     what);
  assert_pixel_rgb (pixel_beside (&target, &view, x[1], y[1], grey_ring), grey, what);
  assert_highlight_rings (&target, &view, x[1], y[1], what);
  target_clear (&target);
  g_clear_pointer (&what, g_free);

  /* Its own colour in the middle, not z's. */
  g_assert_true (shepard_renderer_set_point_colors (renderer, residuals, G_N_ELEMENTS (residuals),
                                                    SHEPARD_COLOR_RAMP_DIVERGING, -1, 1, &error));
  shepard_renderer_set_highlight (renderer, 0);
  draw_and_read (renderer, &view, &target);
  what = g_strdup_printf ("scale %g, highlighted dot with its own colour", scale);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_DIVERGING, residuals[0], -1, 1, what);
  assert_dot_colour (&target, &view, x[0], y[0] + 3 * view.units_per_pixel, SHEPARD_COLOR_RAMP_DIVERGING,
                     residuals[0], -1, 1, what);
  assert_highlight_rings (&target, &view, x[0], y[0], what);
  target_clear (&target);
  g_clear_pointer (&what, g_free);

  /* Its own value not finite: hollow as well, whatever its z. */
  shepard_renderer_set_highlight (renderer, 2);
  draw_and_read (renderer, &view, &target);
  what = g_strdup_printf ("scale %g, highlighted dot without its own value", scale);
  assert_dot_colour (&target, &view, x[2], y[2], SHEPARD_COLOR_RAMP_VIRIDIS, test_values[7], TEST_MIN, TEST_MAX,
                     what);
  assert_pixel_rgb (pixel_beside (&target, &view, x[2], y[2], grey_ring), grey, what);
  assert_highlight_rings (&target, &view, x[2], y[2], what);
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_highlight_colours (void)
{
  check_highlight_colours (1);
  check_highlight_colours (2);
}

/* Two dots that overlap: the later one covers the earlier where they meet, unless the earlier is highlighted, which
 * is then drawn over it. */
static void
check_highlight_on_top (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  ShepardView view = test_view (scale);
  Target target;
  double x[2], y[2];
  const double z[2] = { 8.0, 1.0 };
  g_autofree char *what = g_strdup_printf ("scale %g", scale);

  if (!offscreen_gl_need_context ())
    return;
  /* Three logical pixels apart: each centre lies well inside the other dot's fill. */
  cell_centre (&test_grid, 2, 0, &x[0], &y[0]);
  x[1] = x[0] + 3 * view.units_per_pixel;
  y[1] = y[0];
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_points (renderer, x, y, z, G_N_ELEMENTS (z), &error));
  shepard_renderer_set_range (renderer, TEST_MIN, TEST_MAX);

  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_VIRIDIS, z[1], TEST_MIN, TEST_MAX, what);
  target_clear (&target);

  shepard_renderer_set_highlight (renderer, 0);
  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_VIRIDIS, z[0], TEST_MIN, TEST_MAX, what);
  assert_dot_colour (&target, &view, x[1], y[1], SHEPARD_COLOR_RAMP_VIRIDIS, z[0], TEST_MIN, TEST_MAX, what);
  target_clear (&target);

  /* The later dot highlighted: on top as it was. */
  shepard_renderer_set_highlight (renderer, 1);
  draw_and_read (renderer, &view, &target);
  assert_dot_colour (&target, &view, x[0], y[0], SHEPARD_COLOR_RAMP_VIRIDIS, z[1], TEST_MIN, TEST_MAX, what);
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_highlight_on_top (void)
{
  check_highlight_on_top (1);
  check_highlight_on_top (2);
}

/* A tilted plane z = s (x - y) in map units rises to the south-east, so it faces the north-west sun; its flipped
 * twin faces away. Horn's gradient is exact on a plane, so inner cells have a known shade. Cells are 2 x 1 map
 * units apart and z_factor is 2, which would show if the shader mixed up the axes or ignored the cell size. */
static void
test_hillshade (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardRenderer) renderer = NULL;
  const shepard_grid grid = { .x_min = 0, .y_max = 3, .dx = 2, .dy = 1, .width = 4, .height = 3 };
  const double z_factor = 2;
  const double slopes[] = { 0.5, -0.5, 0.0 };
  ShepardView view = { .center_x = 4, .center_y = 1.5, .units_per_pixel = 0.0625, .width = 128, .height = 48,
                       .scale = 1 };
  double altitude = SHEPARD_RENDER_SUN_ALTITUDE * G_PI / 180, azimuth = SHEPARD_RENDER_SUN_AZIMUTH * G_PI / 180;
  double sun[3] = { sin (azimuth) * cos (altitude), cos (azimuth) * cos (altitude), sin (altitude) };
  double shades[G_N_ELEMENTS (slopes)];

  if (!offscreen_gl_need_context ())
    return;
  renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  shepard_renderer_set_range (renderer, -8, 8);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_GRAYSCALE);
  shepard_renderer_set_hillshade (renderer, TRUE, z_factor);
  shepard_renderer_set_view (renderer, &view);

  for (guint s = 0; s < G_N_ELEMENTS (slopes); s++)
    {
      float values[12];
      Target target;
      /* The surface's gradient in map units: the values times z_factor over x and y. */
      double gx = slopes[s] * z_factor, gy = -slopes[s] * z_factor;
      double norm = sqrt (gx * gx + gy * gy + 1);

      shades[s] = MAX ((-gx * sun[0] - gy * sun[1] + sun[2]) / norm, 0.0);
      for (int row = 0; row < 3; row++)
        for (int col = 0; col < 4; col++)
          {
            double x, y;

            cell_centre (&grid, col, row, &x, &y);
            values[row * 4 + col] = (float) (slopes[s] * (x - y));
          }
      g_assert_true (shepard_renderer_set_grid (renderer, &grid, values, &error));
      target_init (&target, view.width, view.height);
      shepard_renderer_draw (renderer);
      target_read (&target);
      for (int col = 1; col <= 2; col++)
        {
          double x, y;
          int px, py;
          float rgb[3];
          g_autofree char *what = g_strdup_printf ("hillshade, slope %g, cell (%d, 1)", slopes[s], col);

          cell_centre (&grid, col, 1, &x, &y);
          map_to_device_pixel (&view, x, y, &px, &py);
          g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_GRAYSCALE, values[4 + col], -8, 8,
                                                             rgb));
          for (int c = 0; c < 3; c++)
            rgb[c] *= (float) (0.4 + 0.6 * shades[s]);
          assert_pixel_rgb (target_pixel (&target, px, py), rgb, what);
        }
      target_clear (&target);
    }
  /* Facing the sun is brighter than flat, flat brighter than facing away; flat is lit at the sun's altitude. */
  g_assert_cmpfloat (shades[0], >, shades[2]);
  g_assert_cmpfloat (shades[2], >, shades[1]);
  g_assert_cmpfloat_with_epsilon (shades[2], sin (altitude), 1e-12);
}

static void
test_shader_error (void)
{
  g_autoptr (GError) error = NULL;
  guint program;

  if (!offscreen_gl_need_context ())
    return;
  program = _shepard_render_compile_program ("void main () { gl_Position = vec4 (0.0); }\n",
                                             "out vec4 c;\nvoid main () { c = undefined_thing; }\n", &error);
  g_assert_cmpuint (program, ==, 0);
  g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_SHADER);
  g_assert_nonnull (strstr (error->message, "fragment shader"));
  /* The driver's log follows, and names the culprit. */
  g_assert_nonnull (strstr (error->message, "Driver log: "));
  g_assert_cmpuint (strlen (strstr (error->message, "Driver log: ")), >, strlen ("Driver log: "));
  g_test_message ("%s", error->message);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (offscreen_gl_init (g_strcmp0 (g_getenv ("SHEPARD_TEST_GL_API"), "gles") == 0))
    g_test_message ("GL context through %s", offscreen_gl_describe ());
  else
    g_test_message ("GL cases skip: %s", offscreen_gl_skip_reason ());

  g_test_add_func ("/render/context-version", offscreen_gl_test_version);
  g_test_add_func ("/render/ramp/function", test_ramp_function);
  g_test_add_func ("/render/ramp/new", test_ramp_new);
  g_test_add_func ("/render/view/conversions", test_view_conversions);
  g_test_add_func ("/render/grid/colours", test_grid_colours);
  g_test_add_func ("/render/ramp/reversed", test_ramp_reversed);
  g_test_add_func ("/render/grid/reversed", test_grid_reversed);
  g_test_add_func ("/render/grid/classes", test_grid_classes);
  g_test_add_func ("/render/grid/opacity", test_grid_opacity);
  g_test_add_func ("/render/grid/update", test_grid_update);
  g_test_add_func ("/render/grid/mask", test_grid_mask);
  g_test_add_func ("/render/points", test_points);
  g_test_add_func ("/render/points/own-colours", test_point_colors);
  g_test_add_func ("/render/points/own-colours-many", test_point_colors_many);
  g_test_add_func ("/render/points/highlight", test_highlight);
  g_test_add_func ("/render/points/highlight-colours", test_highlight_colours);
  g_test_add_func ("/render/points/highlight-on-top", test_highlight_on_top);
  g_test_add_func ("/render/hillshade", test_hillshade);
  g_test_add_func ("/render/shader-error", test_shader_error);

  status = g_test_run ();
  offscreen_gl_destroy ();
  return status;
}
