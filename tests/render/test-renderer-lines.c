/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Context lines drawn into an offscreen framebuffer and read back: where they lie, over the grid, under the dots. */
#include <epoxy/gl.h>
#include <glib.h>
#include <math.h>

#include "offscreen-gl.h"
#include "shepard-render.h"

/* The colours shepard-renderer-lines.c draws: the line, its halo. */
static const float line_rgb[3] = { 0.08f, 0.16f, 0.36f };
static const float halo_rgb[3] = { 0.95f, 0.95f, 0.95f };

/* A uniform grid at Dutch RD coordinates (float32 could not hold them to the pixel), one map unit per logical pixel. */
static const shepard_grid grid = { .x_min = 180000, .y_max = 334000, .dx = 10, .dy = 10, .width = 20, .height = 16 };
#define GRID_VALUE 3.0
#define CENTER_X 180100.0
#define CENTER_Y 333920.0

static void
assert_rgb (const guint8 *pixel, const float rgb[3], const char *what)
{
  for (int c = 0; c < 3; c++)
    if (fabs (pixel[c] / 255.0 - rgb[c]) > 2.0 / 255.0)
      g_error ("%s: drew (%u, %u, %u), expected (%.1f, %.1f, %.1f) within 2/255", what, pixel[0], pixel[1], pixel[2],
               rgb[0] * 255.0, rgb[1] * 255.0, rgb[2] * 255.0);
  g_assert_cmpuint (pixel[3], ==, 255);
}

/* Across a horizontal line at map y, in the device column of map x: full line colour within half the line's width
 * (less the antialiased half pixel), then the halo up to its own half width, then the grid. */
static void
assert_across_line (const Target *target, const ShepardView *view, double x, double y, const char *what)
{
  double px, py;
  float grid_rgb[3];
  double line_half = SHEPARD_RENDER_LINE_WIDTH / 2 * view->scale;
  double halo_half = SHEPARD_RENDER_LINE_HALO_WIDTH / 2 * view->scale;
  int lines = 0, halos = 0, grids = 0;

  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, GRID_VALUE, 0, 10, grid_rgb));
  shepard_view_map_to_pixel (view, x, y, &px, &py);
  int column = (int) floor (px * view->scale);
  double line_y = py * view->scale;
  for (int row = MAX ((int) (line_y - 3 * halo_half), 0); row <= MIN ((int) (line_y + 3 * halo_half), view->height - 1);
       row++)
    {
      double distance = fabs (row + 0.5 - line_y);
      g_autofree char *where = g_strdup_printf ("%s, %.2f device pixels from the line", what, distance);
      const guint8 *pixel = target_pixel (target, column, row);
      if (distance <= line_half - 0.5)
        {
          assert_rgb (pixel, line_rgb, where);
          lines++;
        }
      else if (distance >= line_half + 0.5 && distance <= halo_half - 0.5)
        {
          assert_rgb (pixel, halo_rgb, where);
          halos++;
        }
      else if (distance >= halo_half + 0.5)
        {
          assert_rgb (pixel, grid_rgb, where);
          grids++;
        }
    }
  g_assert_cmpint (lines, >=, 1);
  g_assert_cmpint (halos, >=, 2);
  g_assert_cmpint (grids, >=, 2);
}

static void
check_lines (double scale)
{
  g_autoptr (GError) error = NULL;
  g_autofree float *values = g_new (float, grid.width * grid.height);
  ShepardView view = {
    .center_x = CENTER_X, .center_y = CENTER_Y, .units_per_pixel = 1, .width = (int) (200 * scale),
    .height = (int) (160 * scale), .scale = scale,
  };
  Target target;

  if (!offscreen_gl_need_context ())
    return;
  for (size_t i = 0; i < grid.width * grid.height; i++)
    values[i] = GRID_VALUE;
  /* A horizontal strip of three vertices, a vertical one, and a closed square ring in the lower left. */
  const double x[] = { 180020, 180100, 180180, 180150, 180150, 180020, 180060, 180060, 180020, 180020 };
  const double y[] = { 333930.5, 333930.5, 333930.5, 333990, 333850, 333870, 333870, 333850, 333850, 333870 };
  const size_t strip_start[] = { 0, 3, 5, 10 };
  /* A dot on the horizontal line: drawn over it. */
  const double dot_x = 180040, dot_y = 333930.5, dot_z = 9;

  g_autoptr (ShepardRenderer) renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_grid (renderer, &grid, values, &error));
  g_assert_true (shepard_renderer_set_lines (renderer, x, y, strip_start, 3, &error));
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_set_points (renderer, &dot_x, &dot_y, &dot_z, 1, &error));
  shepard_renderer_set_range (renderer, 0, 10);
  shepard_renderer_set_view (renderer, &view);
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);

  g_autofree char *what = g_strdup_printf ("scale %g", scale);
  /* Mid-segment on both segments of the horizontal strip, clear of the joint, the vertical line and the dot. */
  assert_across_line (&target, &view, 180070, 333930.5, what);
  assert_across_line (&target, &view, 180130, 333930.5, what);
  /* The ring's lower edge, and its inside, which stays the grid's. */
  assert_across_line (&target, &view, 180040, 333850, what);
  double px, py;
  float rgb[3];
  shepard_view_map_to_pixel (&view, 180040, 333860, &px, &py);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, GRID_VALUE, 0, 10, rgb));
  assert_rgb (target_pixel (&target, (int) (px * scale), (int) (py * scale)), rgb, "inside the ring");
  /* The vertical line, sampled across along a row. */
  shepard_view_map_to_pixel (&view, 180150, 333960, &px, &py);
  assert_rgb (target_pixel (&target, (int) floor (px * scale), (int) (py * scale)), line_rgb, "vertical line");
  /* The dot on the line has its own colour. */
  shepard_view_map_to_pixel (&view, dot_x, dot_y, &px, &py);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, dot_z, 0, 10, rgb));
  assert_rgb (target_pixel (&target, (int) floor (px * scale), (int) floor (py * scale)), rgb, "dot over the line");
  target_clear (&target);

  /* Removed: the grid shows where the line was. */
  g_assert_true (shepard_renderer_set_lines (renderer, NULL, NULL, NULL, 0, &error));
  target_init (&target, view.width, view.height);
  shepard_renderer_draw (renderer);
  target_read (&target);
  shepard_view_map_to_pixel (&view, 180070, 333930.5, &px, &py);
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, GRID_VALUE, 0, 10, rgb));
  assert_rgb (target_pixel (&target, (int) floor (px * scale), (int) floor (py * scale)), rgb, "line removed");
  target_clear (&target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_lines (void)
{
  check_lines (1);
  check_lines (2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (offscreen_gl_init (g_strcmp0 (g_getenv ("SHEPARD_TEST_GL_API"), "gles") == 0))
    g_test_message ("GL context through %s", offscreen_gl_describe ());
  else
    g_test_message ("GL cases skip: %s", offscreen_gl_skip_reason ());

  g_test_add_func ("/render/context-version", offscreen_gl_test_version);
  g_test_add_func ("/render/lines", test_lines);
  int status = g_test_run ();
  offscreen_gl_destroy ();
  return status;
}
