/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "engine-test-support.h"

#include <math.h>

shepard_backend
test_backend (void)
{
  const char *name = g_getenv ("SHEPARD_TEST_BACKEND");
  if (name == NULL || g_str_equal (name, "cpu"))
    return SHEPARD_BACKEND_CPU;
  if (g_str_equal (name, "cuda"))
    return SHEPARD_BACKEND_CUDA;
  if (g_str_equal (name, "auto"))
    return SHEPARD_BACKEND_AUTO;
  g_error ("SHEPARD_TEST_BACKEND must be cpu, cuda or auto, not \"%s\"", name);
}

shepard_backend
test_backend_for (shepard_precision precision)
{
  shepard_backend backend = test_backend ();
  /* The GPU computes in float32 only: under SHEPARD_TEST_BACKEND=cuda the float64 cases stay on the CPU. */
  if (backend == SHEPARD_BACKEND_CUDA && precision == SHEPARD_PRECISION_FLOAT64)
    return SHEPARD_BACKEND_CPU;
  return backend;
}

shepard_engine *
engine_on_with_points (shepard_backend backend, shepard_precision precision, int threads, const point_set *points)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, precision, threads, &error);
  if (engine == NULL)
    g_test_message ("engine said (%s): %s", shepard_status_name (error.code), error.message);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  return engine;
}

shepard_engine *
engine_new_with_points (shepard_precision precision, int threads, const point_set *points)
{
  return engine_on_with_points (test_backend_for (precision), precision, threads, points);
}

void
interpolate_grid_or_fail (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                          double *values)
{
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_grid (engine, params, grid,
                                                         &(shepard_outputs) { .values = values }, NULL, NULL,
                                                         &error), &error, SHEPARD_OK);
}

double
largest_difference (const double *actual, const double *expected, size_t n)
{
  double worst = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      g_assert_true (isfinite (actual[i]));
      worst = fmax (worst, fabs (actual[i] - expected[i]));
    }
  return worst;
}

double
values_range (const double *z, size_t n)
{
  double lo = INFINITY, hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      lo = fmin (lo, z[i]);
      hi = fmax (hi, z[i]);
    }
  return hi - lo;
}

const char *
precision_name (shepard_precision precision)
{
  return precision == SHEPARD_PRECISION_FLOAT32 ? "float32" : "float64";
}

gboolean
cuda_device_or_skip (void)
{
  static gsize probed = 0;
  static char *no_device_reason = NULL;

  if (g_once_init_enter (&probed))
    {
      shepard_error error = { 0 };
      shepard_engine *probe = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
      if (probe == NULL)
        no_device_reason = g_strdup_printf ("no CUDA device: %s", error.message);
      shepard_engine_free (probe);
      g_once_init_leave (&probed, 1);
    }
  if (no_device_reason != NULL)
    {
      g_test_skip (no_device_reason);
      return FALSE;
    }
  return TRUE;
}

void
grid_cell_centre (const shepard_grid *grid, size_t cell, double *x, double *y)
{
  *x = grid->x_min + ((double) (grid->first_column + cell % grid->width) + 0.5) * grid->dx;
  *y = grid->y_max - ((double) (grid->first_row + cell / grid->width) + 0.5) * grid->dy;
}

double
point_set_value_scale (const point_set *points)
{
  double scale = 0.0;
  for (size_t i = 0; i < points->count; i++)
    scale = fmax (scale, fabs (points->z[i]));
  return scale;
}

void
deviation_tally_init (deviation_tally *tally, const char *what, double tolerance)
{
  *tally = (deviation_tally) { .what = what, .tolerance = tolerance, .worst = -1.0 };
}

void
deviation_tally_add (deviation_tally *tally, size_t index, double actual, double expected, double scale)
{
  double deviation = isfinite (actual) ? fabs (actual - expected) / scale : INFINITY;
  tally->compared++;
  if (deviation > tally->worst)
    {
      tally->worst = deviation;
      tally->worst_index = index;
      tally->worst_actual = actual;
      tally->worst_expected = expected;
    }
}

void
deviation_tally_check (const deviation_tally *tally)
{
  g_assert_cmpuint (tally->compared, >, 0);
  g_test_message ("%s: %zu compared, worst deviation %.3g (tolerance %.3g) at #%zu: %.17g, expected %.17g",
                  tally->what, tally->compared, tally->worst, tally->tolerance, tally->worst_index,
                  tally->worst_actual, tally->worst_expected);
  g_assert_cmpfloat (tally->worst, <=, tally->tolerance);
}

shepard_params
params_with_neighbourhood (shepard_method method, int neighbors, double radius)
{
  shepard_params params;
  if (method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  params.neighbors = neighbors;
  params.radius1 = params.radius2 = radius;
  return params;
}
