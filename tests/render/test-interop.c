/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CUDA-OpenGL interop: the engine interpolates into GPU memory and render/ copies that grid into its texture on the
 * device. The pixels drawn that way must be the very pixels the upload path (the same values through host memory
 * and glTexSubImage2D) draws, and each cell the colour of the engine's value through the ramp. Where interop cannot
 * work (no CUDA device, a software GL context) enabling it must fail with a reason and leave the upload path whole.
 * Cases needing a GL context or a CUDA device skip, saying why. */
#include <epoxy/gl.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "offscreen-gl.h"
#include "shepard-engine.h"
#include "shepard-render.h"

#define CHANNEL_TOLERANCE (2.0 / 255.0)
/* Pixels per cell: the centre of each cell's block of pixels is well inside the cell. */
#define PIXELS_PER_CELL 2

static struct {
  shepard_engine *engine; /* on CUDA, with the points below; NULL with the reason when there is no device */
  char *no_engine_reason;
  double z_min, z_max;
} fixture;

static gboolean
need_engine (void)
{
  if (!offscreen_gl_need_context ())
    return FALSE;
  if (fixture.engine == NULL)
    {
      g_test_skip (fixture.no_engine_reason);
      return FALSE;
    }
  return TRUE;
}

/* A smooth field with local detail over 2000 scattered points, at Dutch RD coordinates so that the renderer's double
 * precision view matters. */
static void
make_engine (void)
{
  enum { N_POINTS = 2000 };
  double x[N_POINTS], y[N_POINTS], z[N_POINTS];
  GRand *random = g_rand_new_with_seed (20261121);
  shepard_error error = { 0 };

  fixture.z_min = INFINITY;
  fixture.z_max = -INFINITY;
  for (int i = 0; i < N_POINTS; i++)
    {
      double u = g_rand_double (random), v = g_rand_double (random);
      x[i] = 178000.0 + 4000.0 * u;
      y[i] = 329000.0 + 3000.0 * v;
      z[i] = 100.0 + 80.0 * sin (6.0 * u) * cos (5.0 * v) + 10.0 * g_rand_double (random);
      fixture.z_min = fmin (fixture.z_min, z[i]);
      fixture.z_max = fmax (fixture.z_max, z[i]);
    }
  g_rand_free (random);
  fixture.engine = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
  if (fixture.engine == NULL)
    {
      fixture.no_engine_reason = g_strdup_printf ("no CUDA device: %s", error.message);
      return;
    }
  if (shepard_engine_set_points (fixture.engine, x, y, z, N_POINTS, &error) != SHEPARD_OK)
    g_error ("the engine refused the points: %s", error.message);
}

static shepard_grid
grid_of_size (size_t width, size_t height)
{
  /* Square cells, so that the view below shows whole cells in both directions. */
  shepard_grid grid = { .x_min = 177900.0, .y_max = 332100.0, .width = width, .height = height };
  grid.dx = fmax (4200.0 / (double) width, 3200.0 / (double) height);
  grid.dy = grid.dx;
  return grid;
}

/* A view showing the grid exactly, PIXELS_PER_CELL device pixels per cell. */
static ShepardView
view_of (const shepard_grid *grid)
{
  ShepardView view = {
    .center_x = grid->x_min + grid->dx * (double) grid->width / 2.0,
    .center_y = grid->y_max - grid->dy * (double) grid->height / 2.0,
    .units_per_pixel = grid->dx / PIXELS_PER_CELL,
    .width = (int) grid->width * PIXELS_PER_CELL,
    .height = (int) grid->height * PIXELS_PER_CELL,
    .scale = 1.0,
  };
  return view;
}

static void
draw_with_ramp (ShepardRenderer *renderer, const shepard_grid *grid, ShepardColorRamp ramp, double min, double max,
                Target *target)
{
  ShepardView view = view_of (grid);

  target_init (target, view.width, view.height);
  shepard_renderer_set_view (renderer, &view);
  shepard_renderer_set_range (renderer, min, max);
  shepard_renderer_set_ramp (renderer, ramp);
  shepard_renderer_draw (renderer);
  target_read (target);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

static void
draw_into (ShepardRenderer *renderer, const shepard_grid *grid, Target *target)
{
  draw_with_ramp (renderer, grid, SHEPARD_COLOR_RAMP_VIRIDIS, fixture.z_min, fixture.z_max, target);
}

/* The engine's values of the grid through the host path, as float32 (what set_grid takes). */
static float *
host_values (const shepard_params *params, const shepard_grid *grid)
{
  size_t cells = grid->width * grid->height;
  g_autofree double *values = g_new (double, cells);
  float *result = g_new (float, cells);
  shepard_outputs outputs = { .values = values };
  shepard_error error = { 0 };

  if (shepard_engine_interpolate_grid (fixture.engine, params, grid, &outputs, NULL, NULL, &error) != SHEPARD_OK)
    g_error ("host interpolation: %s", error.message);
  for (size_t i = 0; i < cells; i++)
    result[i] = (float) values[i];
  return result;
}

static void
to_device (const shepard_params *params, const shepard_grid *grid, shepard_device_grid *target)
{
  shepard_error error = { 0 };

  if (shepard_engine_interpolate_grid_to_device (fixture.engine, params, grid, target, NULL, NULL, &error)
      != SHEPARD_OK)
    g_error ("device interpolation: %s", error.message);
}

/* Every cell's pixel has the ramp colour of its value. */
static void
check_cells_with_ramp (const Target *target, const shepard_grid *grid, const float *values, ShepardColorRamp ramp,
                       double min, double max, const char *what)
{
  double worst = 0.0;

  for (size_t row = 0; row < grid->height; row++)
    for (size_t col = 0; col < grid->width; col++)
      {
        float rgb[3];
        const guint8 *pixel = target_pixel (target, (int) col * PIXELS_PER_CELL + PIXELS_PER_CELL / 2,
                                            (int) row * PIXELS_PER_CELL + PIXELS_PER_CELL / 2);
        double value = values[row * grid->width + col];

        g_assert_true (shepard_color_ramp_color_for_value (ramp, value, min, max, rgb));
        for (int c = 0; c < 3; c++)
          worst = fmax (worst, fabs (pixel[c] / 255.0 - rgb[c]));
        if (worst > CHANNEL_TOLERANCE)
          g_error ("%s: cell (%zu, %zu) of value %.6g drew (%u, %u, %u), the ramp gives (%.1f, %.1f, %.1f)", what,
                   col, row, value, pixel[0], pixel[1], pixel[2], rgb[0] * 255, rgb[1] * 255, rgb[2] * 255);
        g_assert_cmpuint (pixel[3], ==, 255);
      }
  g_test_message ("%s: %zu cells within %.2f/255 of the ramp colour of the engine's value", what,
                  grid->width * grid->height, worst * 255.0);
}

static void
check_cells (const Target *target, const shepard_grid *grid, const float *values, const char *what)
{
  check_cells_with_ramp (target, grid, values, SHEPARD_COLOR_RAMP_VIRIDIS, fixture.z_min, fixture.z_max, what);
}

static void
assert_same_pixels (const Target *a, const Target *b, const char *what)
{
  size_t bytes = (size_t) 4 * a->width * a->height, differing = 0;

  g_assert_cmpint (a->width, ==, b->width);
  g_assert_cmpint (a->height, ==, b->height);
  for (size_t i = 0; i < bytes; i++)
    differing += a->pixels[i] != b->pixels[i];
  g_test_message ("%s: %zu of %zu bytes differ between interop and upload", what, differing, bytes);
  g_assert_cmpuint (differing, ==, 0);
}

/* Interop and upload draw the same pixels, for all-points and local AIDW, over several sizes (each a new texture
 * and a new registration), with the hillshade (which reads neighbouring texels) as well. */
static void
test_same_pixels (void)
{
  const size_t sizes[][2] = { { 257, 193 }, { 64, 48 }, { 257, 193 }, { 1, 1 }, { 300, 2 } };
  g_autoptr (GError) error = NULL;
  shepard_error engine_error = { 0 };
  shepard_device_grid *target = NULL;

  if (!need_engine ())
    return;
  g_autoptr (ShepardRenderer) interop = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_autoptr (ShepardRenderer) upload = shepard_renderer_new (&error);
  g_assert_no_error (error);
  if (!shepard_renderer_enable_cuda_interop (interop, shepard_engine_cuda_device (fixture.engine), &error))
    g_error ("interop on the GPU the engine runs on: %s (GL: %s)", error->message, offscreen_gl_describe ());
  g_assert_true (shepard_renderer_has_cuda_interop (interop));
  g_assert_false (shepard_renderer_has_cuda_interop (upload));
  g_assert_cmpint (shepard_device_grid_new (fixture.engine, &target, &engine_error), ==, SHEPARD_OK);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    for (int local = 0; local < 2; local++)
      for (int hillshade = 0; hillshade < 2; hillshade++)
        {
          shepard_grid grid = grid_of_size (sizes[s][0], sizes[s][1]);
          shepard_params params;
          shepard_params_init_aidw (&params);
          params.neighbors = local ? 15 : SHEPARD_NEIGHBORS_ALL;
          g_autofree char *what = g_strdup_printf ("%zu x %zu, AIDW %s%s", grid.width, grid.height,
                                                   local ? "15 nearest" : "all points",
                                                   hillshade ? ", hillshade" : "");
          g_autofree float *values = host_values (&params, &grid);
          Target through_interop, through_upload;

          to_device (&params, &grid, target);
          g_assert_true (shepard_renderer_set_grid_from_device (interop, &grid, target, SHEPARD_PLANE_VALUES, &error));
          g_assert_no_error (error);
          g_assert_true (shepard_renderer_set_grid (upload, &grid, values, &error));
          g_assert_no_error (error);
          shepard_renderer_set_hillshade (interop, hillshade, 20.0);
          shepard_renderer_set_hillshade (upload, hillshade, 20.0);
          draw_into (interop, &grid, &through_interop);
          draw_into (upload, &grid, &through_upload);
          assert_same_pixels (&through_interop, &through_upload, what);
          if (!hillshade)
            check_cells (&through_interop, &grid, values, what);
          target_clear (&through_interop);
          target_clear (&through_upload);
        }

  /* A new interpolation into the same device grid reaches the same registered texture. */
  {
    shepard_grid grid = grid_of_size (300, 2);
    guint texture = shepard_renderer_get_grid_texture (interop);
    shepard_params params;
    shepard_params_init_idw (&params);
    params.power = 3.0;
    g_autofree float *values = host_values (&params, &grid);
    Target drawn;

    to_device (&params, &grid, target);
    g_assert_true (shepard_renderer_set_grid_from_device (interop, &grid, target, SHEPARD_PLANE_VALUES, &error));
    g_assert_cmpuint (shepard_renderer_get_grid_texture (interop), ==, texture);
    shepard_renderer_set_hillshade (interop, FALSE, 1.0);
    draw_into (interop, &grid, &drawn);
    check_cells (&drawn, &grid, values, "IDW p=3 into the same texture");
    target_clear (&drawn);
  }
  /* The renderer is freed with its texture registered, so it unregisters before deleting it; a fresh renderer then
   * registers its own texture and draws through interop as before. */
  g_clear_pointer (&interop, shepard_renderer_free);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
  {
    shepard_grid grid = grid_of_size (64, 48);
    shepard_params params;
    shepard_params_init_aidw (&params);
    g_autofree float *values = host_values (&params, &grid);
    g_autoptr (ShepardRenderer) again = shepard_renderer_new (&error);
    Target drawn;

    g_assert_no_error (error);
    g_assert_true (shepard_renderer_enable_cuda_interop (again, shepard_engine_cuda_device (fixture.engine), &error));
    to_device (&params, &grid, target);
    g_assert_true (shepard_renderer_set_grid_from_device (again, &grid, target, SHEPARD_PLANE_VALUES, &error));
    g_assert_no_error (error);
    draw_into (again, &grid, &drawn);
    check_cells (&drawn, &grid, values, "a new renderer after one was freed while registered");
    target_clear (&drawn);
  }
  shepard_device_grid_free (target);
}

/* Interop can be switched off and on again; switched off, the upload path still draws. */
static void
test_disable_enable (void)
{
  g_autoptr (GError) error = NULL;
  shepard_error engine_error = { 0 };
  shepard_device_grid *target = NULL;
  shepard_grid grid = grid_of_size (40, 30);
  shepard_params params;
  Target drawn;

  if (!need_engine ())
    return;
  shepard_params_init_aidw (&params);
  g_autoptr (ShepardRenderer) renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_enable_cuda_interop (renderer, shepard_engine_cuda_device (fixture.engine), &error));
  g_assert_cmpint (shepard_device_grid_new (fixture.engine, &target, &engine_error), ==, SHEPARD_OK);
  to_device (&params, &grid, target);
  g_assert_true (shepard_renderer_set_grid_from_device (renderer, &grid, target, SHEPARD_PLANE_VALUES, &error));

  shepard_renderer_disable_cuda_interop (renderer);
  g_assert_false (shepard_renderer_has_cuda_interop (renderer));
  g_assert_false (shepard_renderer_set_grid_from_device (renderer, &grid, target, SHEPARD_PLANE_VALUES, &error));
  g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP);
  g_clear_error (&error);
  g_autofree float *values = host_values (&params, &grid);
  g_assert_true (shepard_renderer_set_grid (renderer, &grid, values, &error));
  draw_into (renderer, &grid, &drawn);
  check_cells (&drawn, &grid, values, "uploaded after interop was switched off");
  target_clear (&drawn);

  g_assert_true (shepard_renderer_enable_cuda_interop (renderer, shepard_engine_cuda_device (fixture.engine), &error));
  g_assert_true (shepard_renderer_set_grid_from_device (renderer, &grid, target, SHEPARD_PLANE_VALUES, &error));
  draw_into (renderer, &grid, &drawn);
  check_cells (&drawn, &grid, values, "through interop again");
  target_clear (&drawn);

  /* A device grid of another size than the grid to draw is refused, and the drawing stays. */
  shepard_grid other = grid_of_size (41, 30);
  g_assert_false (shepard_renderer_set_grid_from_device (renderer, &other, target, SHEPARD_PLANE_VALUES, &error));
  g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  draw_into (renderer, &grid, &drawn);
  check_cells (&drawn, &grid, values, "after a refused update");
  target_clear (&drawn);
  shepard_device_grid_free (target);
}

/* The alpha and r_obs planes of a device grid drawn through interop are the engine's alpha and r_obs, cell by cell,
 * and the very pixels those values draw through host memory. */
static void
test_planes (void)
{
  const shepard_plane planes[] = { SHEPARD_PLANE_ALPHA, SHEPARD_PLANE_R_OBS };
  g_autoptr (GError) error = NULL;
  shepard_error engine_error = { 0 };
  shepard_device_grid *target = NULL;
  shepard_grid grid = grid_of_size (96, 72);
  size_t cells = grid.width * grid.height;
  g_autofree double *values = g_new (double, cells);
  g_autofree double *alpha = g_new (double, cells);
  g_autofree double *r_obs = g_new (double, cells);
  shepard_outputs outputs = { .values = values, .alpha = alpha, .r_obs = r_obs };
  shepard_params params;

  if (!need_engine ())
    return;
  g_autoptr (ShepardRenderer) interop = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_autoptr (ShepardRenderer) upload = shepard_renderer_new (&error);
  g_assert_no_error (error);
  g_assert_true (shepard_renderer_enable_cuda_interop (interop, shepard_engine_cuda_device (fixture.engine), &error));
  g_assert_cmpint (shepard_device_grid_new (fixture.engine, &target, &engine_error), ==, SHEPARD_OK);
  shepard_params_init_aidw (&params);
  params.neighbors = 15;
  /* R about 1 on these evenly spread points, so that alpha spans its levels rather than sitting at alpha5. */
  params.rexp = SHEPARD_REXP_KNN;
  if (shepard_engine_interpolate_grid (fixture.engine, &params, &grid, &outputs, NULL, NULL, &engine_error)
      != SHEPARD_OK)
    g_error ("host interpolation: %s", engine_error.message);
  to_device (&params, &grid, target);

  for (guint p = 0; p < G_N_ELEMENTS (planes); p++)
    {
      const double *source = planes[p] == SHEPARD_PLANE_ALPHA ? alpha : r_obs;
      const char *what = planes[p] == SHEPARD_PLANE_ALPHA ? "the alpha plane" : "the r_obs plane";
      g_autofree float *plane_values = g_new (float, cells);
      double min = INFINITY, max = -INFINITY;
      Target through_interop, through_upload;

      for (size_t i = 0; i < cells; i++)
        {
          plane_values[i] = (float) source[i];
          min = fmin (min, plane_values[i]);
          max = fmax (max, plane_values[i]);
        }
      /* A plane of one value would draw every cell in the middle colour, whatever the texture held. */
      g_assert_cmpfloat (max - min, >, 0.1 * max);
      g_assert_true (shepard_renderer_set_grid_from_device (interop, &grid, target, planes[p], &error));
      g_assert_no_error (error);
      g_assert_true (shepard_renderer_set_grid (upload, &grid, plane_values, &error));
      g_assert_no_error (error);
      draw_with_ramp (interop, &grid, SHEPARD_COLOR_RAMP_PLASMA, min, max, &through_interop);
      draw_with_ramp (upload, &grid, SHEPARD_COLOR_RAMP_PLASMA, min, max, &through_upload);
      assert_same_pixels (&through_interop, &through_upload, what);
      check_cells_with_ramp (&through_interop, &grid, plane_values, SHEPARD_COLOR_RAMP_PLASMA, min, max, what);
      target_clear (&through_interop);
      target_clear (&through_upload);
    }
  shepard_device_grid_free (target);
}

/* Where the GL context is not on the engine's GPU (a device that does not exist; on a machine without CUDA, any),
 * enabling fails with the reason and the renderer goes on uploading. Runs wherever there is a GL context. */
static void
test_unavailable (void)
{
  g_autoptr (GError) error = NULL;
  shepard_grid grid = grid_of_size (8, 6);
  float values[48];
  Target drawn;

  if (!offscreen_gl_need_context ())
    return;
  g_autoptr (ShepardRenderer) renderer = shepard_renderer_new (&error);
  g_assert_no_error (error);
  int device = fixture.engine != NULL ? 57 : 0;
  g_assert_false (shepard_renderer_enable_cuda_interop (renderer, device, &error));
  g_assert_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP);
  g_assert_cmpuint (strlen (error->message), >, 20);
  g_test_message ("interop on device %d: %s", device, error->message);
  g_clear_error (&error);
  g_assert_false (shepard_renderer_has_cuda_interop (renderer));

  for (int i = 0; i < 48; i++)
    values[i] = (float) (fixture.z_min + (fixture.z_max - fixture.z_min) * i / 47.0);
  g_assert_true (shepard_renderer_set_grid (renderer, &grid, values, &error));
  g_assert_no_error (error);
  draw_into (renderer, &grid, &drawn);
  check_cells (&drawn, &grid, values, "uploaded after interop was refused");
  target_clear (&drawn);
}

int
main (int argc, char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (offscreen_gl_init (FALSE))
    g_test_message ("GL context through %s", offscreen_gl_describe ());
  else
    g_test_message ("GL cases skip: %s", offscreen_gl_skip_reason ());
  make_engine ();
  if (fixture.engine != NULL)
    g_test_message ("engine: %s", shepard_engine_describe (fixture.engine));
  else
    {
      /* Values for the cases that need no engine. */
      fixture.z_min = 0.0;
      fixture.z_max = 100.0;
      g_test_message ("interop cases skip: %s", fixture.no_engine_reason);
    }

  g_test_add_func ("/interop/unavailable", test_unavailable);
  g_test_add_func ("/interop/same-pixels", test_same_pixels);
  g_test_add_func ("/interop/disable-enable", test_disable_enable);
  g_test_add_func ("/interop/planes", test_planes);

  status = g_test_run ();
  shepard_engine_free (fixture.engine);
  g_free (fixture.no_engine_reason);
  offscreen_gl_destroy ();
  return status;
}
