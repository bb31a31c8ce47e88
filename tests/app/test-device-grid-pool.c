/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The pool of device grids the desktop app keeps its GPU previews in: grids come back for reuse, no more than a few
 * are kept, the pool's last reference frees them (compute-sanitizer's leak check runs this on the GPU machine), and
 * takes and gives from several threads at once are safe. A CPU engine cannot make one and says why. GPU cases skip,
 * saying why, without a CUDA device. */
#include <glib.h>

#include "device-grid-pool.h"
#include "shepard-engine.h"

static shepard_engine *
engine_on (shepard_backend backend)
{
  static const double x[] = { 0, 10, 0, 10, 5 }, y[] = { 0, 0, 10, 10, 5 }, z[] = { 1, 2, 3, 4, 5 };
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, SHEPARD_PRECISION_FLOAT32, 1, &error);

  if (engine == NULL)
    {
      g_autofree char *reason = g_strdup_printf ("no CUDA device: %s", error.message);
      g_test_skip (reason);
      return NULL;
    }
  g_assert_cmpint (shepard_engine_set_points (engine, x, y, z, G_N_ELEMENTS (x), &error), ==, SHEPARD_OK);
  return engine;
}

static void
test_cpu_engine (void)
{
  g_autoptr (ShepardDeviceGridPool) pool = shepard_device_grid_pool_new ();
  shepard_engine *engine = engine_on (SHEPARD_BACKEND_CPU);
  shepard_error error = { 0 };

  g_assert_null (shepard_device_grid_pool_take (pool, engine, &error));
  g_assert_cmpint (error.code, ==, SHEPARD_ERROR_NO_DEVICE);
  g_test_message ("%s", error.message);
  shepard_engine_free (engine);
}

static void
test_reuse (void)
{
  shepard_engine *engine = engine_on (SHEPARD_BACKEND_CUDA);
  shepard_error error = { 0 };
  shepard_device_grid *grids[SHEPARD_DEVICE_GRID_POOL_KEPT + 2];
  shepard_grid grid = { .x_min = -1, .y_max = 11, .dx = 0.5, .dy = 0.5, .width = 24, .height = 24 };
  shepard_params params;

  if (engine == NULL)
    return;
  ShepardDeviceGridPool *pool = shepard_device_grid_pool_new ();
  shepard_params_init_idw (&params);

  /* A grid given back is the one taken next, with its memory. */
  grids[0] = shepard_device_grid_pool_take (pool, engine, &error);
  g_assert_nonnull (grids[0]);
  g_assert_cmpint (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, grids[0], NULL, NULL, &error),
                   ==, SHEPARD_OK);
  const float *memory = shepard_device_grid_values (grids[0]);
  shepard_device_grid_pool_give_back (pool, grids[0]);
  shepard_device_grid *again = shepard_device_grid_pool_take (pool, engine, &error);
  g_assert_true (again == grids[0]);
  g_assert_true (shepard_device_grid_values (again) == memory);
  shepard_device_grid_pool_give_back (pool, again);

  /* Two more out at once than the pool keeps, all given back: those it keeps come back, two are freed. */
  enum { OUT = SHEPARD_DEVICE_GRID_POOL_KEPT + 2 };
  for (int i = 0; i < OUT; i++)
    {
      grids[i] = shepard_device_grid_pool_take (pool, engine, &error);
      g_assert_nonnull (grids[i]);
      for (int j = 0; j < i; j++)
        g_assert_true (grids[i] != grids[j]);
      g_assert_cmpint (shepard_engine_interpolate_grid_to_device (engine, &params, &grid, grids[i], NULL, NULL,
                                                                  &error),
                       ==, SHEPARD_OK);
    }
  for (int i = 0; i < OUT; i++)
    shepard_device_grid_pool_give_back (pool, grids[i]);
  for (int i = 0; i < SHEPARD_DEVICE_GRID_POOL_KEPT; i++)
    {
      shepard_device_grid *kept = shepard_device_grid_pool_take (pool, engine, &error);
      gboolean known = FALSE;
      for (int j = 0; j < SHEPARD_DEVICE_GRID_POOL_KEPT; j++)
        known = known || kept == grids[j];
      g_assert_true (known);
      /* Still holding the last interpolation: nothing was freed under it. */
      g_assert_cmpuint (shepard_device_grid_width (kept), ==, 24);
      shepard_device_grid_pool_give_back (pool, kept);
    }

  /* Grids may outlive the engine; the pool's last reference frees them. */
  shepard_engine_free (engine);
  shepard_device_grid_pool_unref (pool);
}

typedef struct {
  ShepardDeviceGridPool *pool;
  shepard_engine *engine;
} Shared;

static gpointer
take_and_give (gpointer data)
{
  Shared *shared = data;
  shepard_error error = { 0 };

  for (int i = 0; i < 500; i++)
    {
      shepard_device_grid *grid = shepard_device_grid_pool_take (shared->pool, shared->engine, &error);
      g_assert_nonnull (grid);
      shepard_device_grid_pool_give_back (shared->pool, grid);
    }
  return NULL;
}

static void
test_threads (void)
{
  Shared shared = { .engine = engine_on (SHEPARD_BACKEND_CUDA) };
  GThread *threads[4];

  if (shared.engine == NULL)
    return;
  shared.pool = shepard_device_grid_pool_new ();
  for (int t = 0; t < 4; t++)
    threads[t] = g_thread_new ("pool", take_and_give, &shared);
  for (int t = 0; t < 4; t++)
    g_thread_join (threads[t]);
  shepard_device_grid_pool_unref (shared.pool);
  shepard_engine_free (shared.engine);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/device-grid-pool/cpu-engine", test_cpu_engine);
  g_test_add_func ("/device-grid-pool/reuse", test_reuse);
  g_test_add_func ("/device-grid-pool/threads", test_threads);
  return g_test_run ();
}
