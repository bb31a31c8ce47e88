/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Dense point layers: the dots the renderer chooses from the points per pixel, drawn offscreen over a surface of one
 * colour and read back. Sparse layers keep their outlined dots (tests/render/test-renderer.c). */
#include <epoxy/gl.h>
#include <glib.h>
#include <math.h>

#include "offscreen-gl.h"
#include "shepard-render.h"
#include "shepard-renderer-points.h"

#define CHANNEL_TOLERANCE (2.0 / 255.0)
#define SURFACE_VALUE 2.0
#define POINT_VALUE 9.0
#define RANGE_MIN 0.0
#define RANGE_MAX 10.0

/* A surface of one value over [0, 400] x [0, 300] map units, one map unit to a logical pixel. */
enum { MAP_WIDTH = 400, MAP_HEIGHT = 300 };
static const shepard_grid surface_grid = {
  .x_min = 0, .y_max = MAP_HEIGHT, .dx = 100, .dy = 100, .width = 4, .height = 3,
};

static ShepardView
map_view (double scale, double zoom)
{
  return (ShepardView) {
    .center_x = MAP_WIDTH / 2.0,
    .center_y = MAP_HEIGHT / 2.0,
    .units_per_pixel = 1 / zoom,
    .width = (int) (MAP_WIDTH * scale),
    .height = (int) (MAP_HEIGHT * scale),
    .scale = scale,
  };
}

static gboolean
same_rgb (const guint8 *pixel, const float rgb[3])
{
  for (int c = 0; c < 3; c++)
    if (fabs (pixel[c] / 255.0 - rgb[c]) > CHANNEL_TOLERANCE)
      return FALSE;
  return TRUE;
}

/* n points spread at random (a fixed seed) over the map; z is POINT_VALUE, own values -0.9 west of the middle and
 * 0.9 east of it. */
typedef struct {
  double *x, *y, *z, *own;
  size_t n;
} TestPoints;

static void
test_points_init (TestPoints *points, size_t n)
{
  g_autoptr (GRand) rand = g_rand_new_with_seed (13);

  points->n = n;
  points->x = g_new (double, n);
  points->y = g_new (double, n);
  points->z = g_new (double, n);
  points->own = g_new (double, n);
  for (size_t i = 0; i < n; i++)
    {
      points->x[i] = g_rand_double_range (rand, 0, MAP_WIDTH);
      points->y[i] = g_rand_double_range (rand, 0, MAP_HEIGHT);
      points->z[i] = POINT_VALUE;
      points->own[i] = points->x[i] < MAP_WIDTH / 2.0 ? -0.9 : 0.9;
    }
}

static void
test_points_clear (TestPoints *points)
{
  g_free (points->x);
  g_free (points->y);
  g_free (points->z);
  g_free (points->own);
}

static ShepardRenderer *
new_renderer (const TestPoints *points)
{
  g_autoptr (GError) error = NULL;
  ShepardRenderer *renderer = shepard_renderer_new (&error);
  float values[12];

  g_assert_no_error (error);
  for (size_t i = 0; i < G_N_ELEMENTS (values); i++)
    values[i] = SURFACE_VALUE;
  g_assert_true (shepard_renderer_set_grid (renderer, &surface_grid, values, &error));
  g_assert_true (shepard_renderer_set_points (renderer, points->x, points->y, points->z, points->n, &error));
  g_assert_no_error (error);
  shepard_renderer_set_range (renderer, RANGE_MIN, RANGE_MAX);
  shepard_renderer_set_ramp (renderer, SHEPARD_COLOR_RAMP_VIRIDIS);
  return renderer;
}

static void
draw (ShepardRenderer *renderer, const ShepardView *view, Target *target)
{
  target_init (target, view->width, view->height);
  shepard_renderer_set_view (renderer, view);
  shepard_renderer_draw (renderer);
  target_read (target);
}

/* The share of the frame that shows the surface's colour. */
static double
surface_share (const Target *target)
{
  float surface_rgb[3];
  size_t surface = 0;

  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, SURFACE_VALUE, RANGE_MIN, RANGE_MAX,
                                                     surface_rgb));
  for (int row = 0; row < target->height; row++)
    for (int col = 0; col < target->width; col++)
      surface += same_rgb (target_pixel (target, col, row), surface_rgb);
  return (double) surface / ((double) target->width * target->height);
}

/* 200,000 points over 120,000 pixels: a sample of small dots, sized so that the dots' rims add up to the coverage
 * budget. Dropped at random over the frame, they leave exp (-budget) of it uncovered. */
static void
check_dense (double scale)
{
  TestPoints points;
  Target target;
  double expected_surface = exp (-SHEPARD_POINTS_COVERAGE_BUDGET);

  if (!offscreen_gl_need_context ())
    return;
  test_points_init (&points, 200000);
  g_autoptr (ShepardRenderer) renderer = new_renderer (&points);
  ShepardView view = map_view (scale, 1);
  draw (renderer, &view, &target);
  double share = surface_share (&target);
  g_test_message ("scale %g: %.1f %% of the frame shows the surface (expected about %.1f %%)", scale, 100 * share,
                  100 * expected_surface);
  /* Every sample point lies in view: the share is a binomial estimate over about 1,200 dots. */
  g_assert_cmpfloat (fabs (share - expected_surface), <, 0.05);
  target_clear (&target);

  /* Without a sample, the outlined dots would hide every pixel. */
  g_assert_cmpfloat (1 - exp (-(double) points.n * G_PI * pow (SHEPARD_RENDER_POINT_RADIUS, 2)
                              / (MAP_WIDTH * MAP_HEIGHT)), >, 0.999);
  test_points_clear (&points);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_dense (void)
{
  check_dense (1);
  check_dense (2);
}

/* The drawn dots are points of the layer with their own attributes: each dot's middle is a sample point's position
 * and shows that point's own colour (west or east of the middle), whichever points the sample holds. */
static void
test_dense_own_colours (void)
{
  g_autoptr (GError) error = NULL;
  TestPoints points;
  Target target;
  float west[3], east[3];
  size_t checked = 0;

  if (!offscreen_gl_need_context ())
    return;
  test_points_init (&points, 200000);
  g_autoptr (ShepardRenderer) renderer = new_renderer (&points);
  g_assert_true (shepard_renderer_set_point_colors (renderer, points.own, points.n, SHEPARD_COLOR_RAMP_DIVERGING, -1,
                                                    1, &error));
  g_assert_no_error (error);
  shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, -0.9, -1, 1, west);
  shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, 0.9, -1, 1, east);
  ShepardView view = map_view (1, 1);
  draw (renderer, &view, &target);
  for (int row = 0; row < target.height; row++)
    for (int col = 0; col < target.width; col++)
      {
        const guint8 *pixel = target_pixel (&target, col, row);
        /* 3 pixels from the middle line either way: a dot there lies wholly on one side. */
        if (abs (2 * col + 1 - MAP_WIDTH) < 6)
          continue;
        if (same_rgb (pixel, col < MAP_WIDTH / 2 ? east : west))
          g_error ("pixel (%d, %d) has the colour of the other side's points", col, row);
        checked += same_rgb (pixel, col < MAP_WIDTH / 2 ? west : east);
      }
  /* Each dot's middle pixel at least. */
  g_assert_cmpuint (checked, >, 500);
  target_clear (&target);
  test_points_clear (&points);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

/* A layer too dense for outlined dots but not for small ones: every point drawn, small, on a lattice 12 pixels apart
 * where outlined dots (11 pixels across with their rims) would nearly touch. Over the points' 384 x 288 pixels,
 * outlined dots would cover 71 %, small ones cover 15 %. */
static void
check_small (double scale)
{
  enum { COLUMNS = 33, ROWS = 25 };
  TestPoints points = { .n = COLUMNS * ROWS };
  Target target;
  float surface_rgb[3], point_rgb[3];

  if (!offscreen_gl_need_context ())
    return;
  points.x = g_new (double, points.n);
  points.y = g_new (double, points.n);
  points.z = g_new (double, points.n);
  points.own = NULL;
  for (size_t i = 0; i < points.n; i++)
    {
      points.x[i] = 8 + 12 * (double) (i % COLUMNS);
      points.y[i] = 6 + 12 * (double) (i / COLUMNS);
      points.z[i] = POINT_VALUE;
    }
  g_autoptr (ShepardRenderer) renderer = new_renderer (&points);
  ShepardView view = map_view (scale, 1);
  draw (renderer, &view, &target);
  shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, SURFACE_VALUE, RANGE_MIN, RANGE_MAX, surface_rgb);
  shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_VIRIDIS, POINT_VALUE, RANGE_MIN, RANGE_MAX, point_rgb);
  for (size_t i = 0; i < points.n; i++)
    {
      double lx, ly;
      shepard_view_map_to_pixel (&view, points.x[i], points.y[i], &lx, &ly);
      int px = (int) floor (lx * scale), py = (int) floor (ly * scale);
      if (!same_rgb (target_pixel (&target, px, py), point_rgb))
        g_error ("scale %g: point %zu is not drawn at (%d, %d)", scale, i, px, py);
      /* Between the small dot's rim and where an outlined dot's would be: the surface. */
      int beside = (int) floor ((SHEPARD_POINTS_DENSE_RADIUS + 1.5) * scale);
      if (!same_rgb (target_pixel (&target, px + beside, py), surface_rgb))
        g_error ("scale %g: the surface does not show %d pixels beside point %zu", scale, beside, i);
    }
  target_clear (&target);
  test_points_clear (&points);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
test_small (void)
{
  check_small (1);
  check_small (2);
}

/* The style follows the points per pixel in view: thinned over the whole layer, more of the sample as the view
 * narrows, small dots and then outlined ones zoomed in far enough; and a few points close together keep their
 * outlined dots. */
static void
test_style_follows_zoom (void)
{
  g_autoptr (GError) error = NULL;
  ShepardPointsLayer layer;
  TestPoints points;
  size_t drawn = 0, drawn_before = 0;
  GLint max_size = 0;

  if (!offscreen_gl_need_context ())
    return;
  test_points_init (&points, 200000);
  g_assert_true (_shepard_points_layer_init (&layer, &error));
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &max_size);
  g_assert_true (_shepard_points_layer_set_points (&layer, max_size, points.x, points.y, points.z, points.n,
                                                   &error));

  const struct {
    double zoom;
    ShepardPointsStyle style;
  } steps[] = {
    /* 1.67 points per logical pixel: 20 % of 120,000 pixels over dots of pi 2.5^2 pixels take 1,223 of the
     * 200,000. */
    { 1, SHEPARD_POINTS_THINNED },
    { 4, SHEPARD_POINTS_THINNED },
    { 8, SHEPARD_POINTS_THINNED },
    /* 0.0065 points per pixel: small dots cover 13 % of the view, outlined ones would cover 62 %. */
    { 16, SHEPARD_POINTS_SMALL },
    /* 0.0004 points per pixel: outlined dots cover 4 %. */
    { 64, SHEPARD_POINTS_OUTLINED },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (steps); i++)
    {
      ShepardView view = map_view (1, steps[i].zoom);
      ShepardPointsStyle style = _shepard_points_layer_choose_style (&layer, &view, &drawn);
      g_test_message ("zoom %g: style %d, %zu points drawn", steps[i].zoom, style, drawn);
      g_assert_cmpint (style, ==, steps[i].style);
      if (style == SHEPARD_POINTS_THINNED)
        g_assert_cmpuint (drawn, >, drawn_before);
      else
        g_assert_cmpuint (drawn, ==, points.n);
      if (i == 0)
        g_assert_cmpfloat (fabs ((double) drawn - 1223), <, 40);
      drawn_before = drawn;
    }

  /* Five points a pixel apart, each dot covering the others. */
  for (size_t i = 0; i < 5; i++)
    {
      points.x[i] = 200 + (double) i;
      points.y[i] = 150;
    }
  g_assert_true (_shepard_points_layer_set_points (&layer, max_size, points.x, points.y, points.z, 5, &error));
  ShepardView view = map_view (1, 1);
  g_assert_cmpint (_shepard_points_layer_choose_style (&layer, &view, &drawn), ==, SHEPARD_POINTS_OUTLINED);
  g_assert_cmpuint (drawn, ==, 5);

  _shepard_points_layer_clear (&layer);
  test_points_clear (&points);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

/* The highlighted point is drawn, ringed, whether or not the sample holds it (sample i is point i * stride mod n:
 * point 1 is sample 1 / stride mod n, which is seldom among the first 1,223). */
static void
test_dense_highlight (void)
{
  TestPoints points;
  Target target;
  double lx, ly;

  if (!offscreen_gl_need_context ())
    return;
  test_points_init (&points, 200000);
  points.x[1] = MAP_WIDTH / 2.0;
  points.y[1] = MAP_HEIGHT / 2.0;
  g_autoptr (ShepardRenderer) renderer = new_renderer (&points);
  ShepardView view = map_view (1, 1);
  shepard_renderer_set_highlight (renderer, 1);
  draw (renderer, &view, &target);
  shepard_view_map_to_pixel (&view, points.x[1], points.y[1], &lx, &ly);
  int px = (int) floor (lx), py = (int) floor (ly);
  const guint8 *ring = target_pixel (&target, px + (int) floor (SHEPARD_RENDER_HIGHLIGHT_RADIUS
                                                                - SHEPARD_RENDER_POINT_OUTLINE
                                                                - SHEPARD_RENDER_HIGHLIGHT_RING / 2),
                                     py);
  g_assert_cmpuint (MIN (ring[0], MIN (ring[1], ring[2])), >=, 250);
  target_clear (&target);
  test_points_clear (&points);
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

  g_test_add_func ("/render/points/dense", test_dense);
  g_test_add_func ("/render/points/dense-own-colours", test_dense_own_colours);
  g_test_add_func ("/render/points/small", test_small);
  g_test_add_func ("/render/points/style-follows-zoom", test_style_follows_zoom);
  g_test_add_func ("/render/points/dense-highlight", test_dense_highlight);

  status = g_test_run ();
  offscreen_gl_destroy ();
  return status;
}
