/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Backend choice: "auto" always gives a working engine and says what it runs on; asking for CUDA where there is
 * none (no GPU, no driver, or a build without CUDA) is an error that says so. */
#include <glib.h>
#include <math.h>

#include "engine-test-support.h"

static void
assert_engine_works (shepard_engine *engine)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 101, 901);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  shepard_params params;
  shepard_params_init_aidw (&params);
  /* At a data point the surface is that point's value. */
  double value = NAN;
  shepard_outputs outputs = { .values = &value };
  assert_engine_status (shepard_engine_interpolate_points (engine, &params, &points->x[7], &points->y[7], 1, &outputs,
                                                           NULL, NULL, &error),
                        &error, SHEPARD_OK);
  g_assert_cmpfloat_with_epsilon (value, points->z[7], 1e-5 * fabs (points->z[7]));
  point_set_free (points);
}

static void
test_cpu (void)
{
  const shepard_precision precisions[] = { SHEPARD_PRECISION_FLOAT64, SHEPARD_PRECISION_FLOAT32 };
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_error error = { 0 };
      shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, precisions[p], 0, &error);
      g_assert_nonnull (engine);
      g_assert_cmpint (shepard_engine_backend (engine), ==, SHEPARD_BACKEND_CPU);
      const char *description = shepard_engine_describe (engine);
      g_test_message ("cpu, %s: %s", precision_name (precisions[p]), description);
      g_assert_nonnull (description);
      g_assert_cmpuint (strlen (description), >, 0);
      assert_engine_works (engine);
      shepard_engine_free (engine);
    }
}

/* Whether the machine has a usable CUDA device is not something a test can know beforehand; "auto" finds out, and
 * an explicit request for CUDA must agree with it. */
static void
test_auto_and_cuda (void)
{
  const shepard_precision precisions[] = { SHEPARD_PRECISION_FLOAT64, SHEPARD_PRECISION_FLOAT32 };
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_error error = { 0 };
      shepard_engine *automatic = shepard_engine_new (SHEPARD_BACKEND_AUTO, precisions[p], 0, &error);
      g_assert_nonnull (automatic);
      shepard_backend chosen = shepard_engine_backend (automatic);
      g_assert_true (chosen == SHEPARD_BACKEND_CPU || chosen == SHEPARD_BACKEND_CUDA);
      const char *description = shepard_engine_describe (automatic);
      g_test_message ("auto, %s: %s", precision_name (precisions[p]), description);
      g_assert_nonnull (description);
      g_assert_cmpuint (strlen (description), >, 0);
      assert_engine_works (automatic);
      shepard_engine_free (automatic);

      error = (shepard_error) { 0 };
      shepard_engine *cuda = shepard_engine_new (SHEPARD_BACKEND_CUDA, precisions[p], 0, &error);
      if (precisions[p] == SHEPARD_PRECISION_FLOAT64)
        {
          /* The GPU computes in float32: auto keeps float64 on the CPU, and asking CUDA for float64 is refused. */
          g_assert_cmpint (chosen, ==, SHEPARD_BACKEND_CPU);
          g_assert_null (cuda);
          g_test_message ("cuda, float64 refused: %s", error.message);
          g_assert_true (error.code == SHEPARD_ERROR_INVALID_ARGUMENT || error.code == SHEPARD_ERROR_NO_DEVICE);
          g_assert_cmpuint (strnlen (error.message, sizeof error.message), >, 0);
        }
      else if (chosen == SHEPARD_BACKEND_CUDA)
        {
          g_assert_nonnull (cuda);
          g_assert_cmpint (shepard_engine_backend (cuda), ==, SHEPARD_BACKEND_CUDA);
          g_test_message ("cuda: %s", shepard_engine_describe (cuda));
          assert_engine_works (cuda);
          shepard_engine_free (cuda);
        }
      else
        {
          g_assert_null (cuda);
          g_test_message ("no CUDA here, as expected: %s", error.message);
          g_assert_cmpint (error.code, ==, SHEPARD_ERROR_NO_DEVICE);
          g_assert_cmpuint (strnlen (error.message, sizeof error.message), >, 0);
        }
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compute/backends/cpu", test_cpu);
  g_test_add_func ("/compute/backends/auto-and-cuda", test_auto_and_cuda);
  return g_test_run ();
}
