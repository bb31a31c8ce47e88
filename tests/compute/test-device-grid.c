/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Results kept on the GPU (shepard_device_grid): the same numbers as the host path, for every way the engine runs
 * (tiled and fused kernels, the CPU for neighbourhoods the GPU does not run), reads of any range, and clear errors
 * where a device grid cannot exist. The GPU cases skip, saying why, without a CUDA device. */
#include <glib.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "engine-test-support.h"
#include "point-layouts.h"
#include "shepard-engine.h"

static shepard_engine *
cuda_engine_with (const point_set *points)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);

  if (engine == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no CUDA device: %s", error.message);
      g_test_skip (reason);
      return NULL;
    }
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  return engine;
}

static void
test_cpu_engine_refuses (void)
{
  shepard_error error = { 0 };
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 50, 3);
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, 1, &error);
  shepard_device_grid *grid = (shepard_device_grid *) &error; /* must be reset to NULL */

  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  g_assert_cmpint (shepard_engine_cuda_device (engine), ==, -1);
  assert_engine_status (shepard_device_grid_new (engine, &grid, &error), &error, SHEPARD_ERROR_NO_DEVICE);
  g_assert_null (grid);
  g_test_message ("%s", error.message);
  shepard_device_grid_free (NULL);
  shepard_engine_free (engine);
  point_set_free (points);
}

typedef struct {
  const char *name;
  shepard_method method;
  int neighbors;
  int k;
} Variant;

static const Variant variants[] = {
  { "AIDW, all points (tiled stage 2)", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, 15 },
  { "AIDW, 15 nearest (fused stage 1)", SHEPARD_METHOD_AIDW, 15, 15 },
  { "IDW p=2, all points", SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL, 15 },
  { "IDW p=2, 8 nearest", SHEPARD_METHOD_IDW, 8, 15 },
  { "AIDW, 100 nearest (on the CPU, copied in)", SHEPARD_METHOD_AIDW, 100, 15 },
};

/* The device grid holds exactly the float32 numbers the host path returns: the same kernels (or the same CPU code)
 * produce both, only the last copy differs. */
static void
test_same_as_host (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, 3001, 11);
  shepard_engine *engine = cuda_engine_with (points);
  shepard_error error = { 0 };
  shepard_device_grid *target = NULL;
  /* Sizes that are no multiple of any block, and a second, smaller one reusing the memory. */
  const size_t sizes[][2] = { { 301, 203 }, { 64, 7 } };

  if (engine == NULL)
    {
      point_set_free (points);
      return;
    }
  g_assert_cmpint (shepard_engine_cuda_device (engine), >=, 0);
  assert_engine_status (shepard_device_grid_new (engine, &target, &error), &error, SHEPARD_OK);
  g_assert_cmpint (shepard_device_grid_device (target), ==, shepard_engine_cuda_device (engine));
  g_assert_null (shepard_device_grid_values (target));
  g_assert_cmpuint (shepard_device_grid_width (target), ==, 0);

  for (guint v = 0; v < G_N_ELEMENTS (variants); v++)
    for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
      {
        shepard_params params;
        if (variants[v].method == SHEPARD_METHOD_AIDW)
          shepard_params_init_aidw (&params);
        else
          shepard_params_init_idw (&params);
        params.neighbors = variants[v].neighbors;
        params.k = variants[v].k;
        shepard_grid grid = { .x_min = -50.0, .y_max = 760.0, .width = sizes[s][0], .height = sizes[s][1] };
        grid.dx = 1100.0 / (double) grid.width;
        grid.dy = 820.0 / (double) grid.height;
        size_t cells = grid.width * grid.height;
        g_autofree double *host_values = g_new (double, cells);
        g_autofree double *host_alpha = g_new (double, cells);
        g_autofree float *device_values = g_new (float, cells);
        g_autofree float *device_alpha = g_new (float, cells);
        shepard_outputs outputs = { .values = host_values, .alpha = host_alpha };

        assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &error),
                              &error, SHEPARD_OK);
        assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, target, NULL, NULL,
                                                                         &error),
                              &error, SHEPARD_OK);
        g_assert_cmpuint (shepard_device_grid_width (target), ==, grid.width);
        g_assert_cmpuint (shepard_device_grid_height (target), ==, grid.height);
        g_assert_nonnull (shepard_device_grid_values (target));
        g_assert_nonnull (shepard_device_grid_alpha (target));
        assert_engine_status (shepard_device_grid_read (target, 0, cells, device_values, device_alpha, &error), &error,
                              SHEPARD_OK);
        size_t differing = 0;
        for (size_t i = 0; i < cells; i++)
          {
            /* The host path hands float32 results out as double: converting back is exact. */
            differing += device_values[i] != (float) host_values[i] || device_alpha[i] != (float) host_alpha[i];
            g_assert_true (isfinite (device_values[i]));
          }
        g_test_message ("%s, %zu x %zu: %zu of %zu cells differ", variants[v].name, grid.width, grid.height,
                        differing, cells);
        g_assert_cmpuint (differing, ==, 0);

        /* A read of one cell in the middle, and of the last one. */
        float value, alpha;
        size_t middle = cells / 2 + 3;
        assert_engine_status (shepard_device_grid_read (target, middle, 1, &value, &alpha, &error), &error,
                              SHEPARD_OK);
        g_assert_cmpfloat (value, ==, (float) host_values[middle]);
        g_assert_cmpfloat (alpha, ==, (float) host_alpha[middle]);
        assert_engine_status (shepard_device_grid_read (target, cells - 1, 1, &value, NULL, &error), &error,
                              SHEPARD_OK);
        g_assert_cmpfloat (value, ==, (float) host_values[cells - 1]);
      }

  /* Reads past the end are refused. */
  float value;
  size_t cells = shepard_device_grid_width (target) * shepard_device_grid_height (target);
  assert_engine_status (shepard_device_grid_read (target, cells, 1, &value, NULL, &error), &error,
                        SHEPARD_ERROR_INVALID_ARGUMENT);
  assert_engine_status (shepard_device_grid_read (target, 1, cells, &value, NULL, &error), &error,
                        SHEPARD_ERROR_INVALID_ARGUMENT);

  shepard_device_grid_free (target);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Bad input loses nothing: the grid keeps working after a refused call, and a cancel is an error. */
static bool
cancel_at_once (double fraction, const char *message, void *data)
{
  return false;
}

static void
test_errors (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 2000, 5);
  shepard_engine *engine = cuda_engine_with (points);
  shepard_error error = { 0 };
  shepard_device_grid *target = NULL;
  shepard_params params;
  shepard_grid grid = { .x_min = 0, .y_max = 700, .dx = 10, .dy = 10, .width = 100, .height = 70 };

  if (engine == NULL)
    {
      point_set_free (points);
      return;
    }
  shepard_params_init_aidw (&params);
  assert_engine_status (shepard_device_grid_new (engine, &target, &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, NULL, NULL, NULL, &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  params.alpha[2] = -1.0;
  assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, target, NULL, NULL,
                                                                   &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  shepard_params_init_aidw (&params);
  shepard_grid empty = grid;
  empty.width = 0;
  assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &empty, target, NULL, NULL,
                                                                   &error),
                        &error, SHEPARD_ERROR_INVALID_ARGUMENT);
  assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, target, cancel_at_once,
                                                                   NULL, &error),
                        &error, SHEPARD_ERROR_CANCELLED);
  assert_engine_status (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, target, NULL, NULL,
                                                                   &error),
                        &error, SHEPARD_OK);
  g_assert_cmpuint (shepard_device_grid_width (target), ==, 100);

  /* A grid may outlive its engine. */
  shepard_engine_free (engine);
  float value;
  assert_engine_status (shepard_device_grid_read (target, 0, 1, &value, NULL, &error), &error, SHEPARD_OK);
  g_assert_true (isfinite (value));
  shepard_device_grid_free (target);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/device-grid/cpu-engine-refuses", test_cpu_engine_refuses);
  g_test_add_func ("/device-grid/same-as-host", test_same_as_host);
  g_test_add_func ("/device-grid/errors", test_errors);
  return g_test_run ();
}
