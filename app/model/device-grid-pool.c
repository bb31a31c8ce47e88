/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "device-grid-pool.h"

struct _ShepardDeviceGridPool {
  GMutex lock;
  GPtrArray *kept; /* of shepard_device_grid */
};

ShepardDeviceGridPool *
shepard_device_grid_pool_new (void)
{
  ShepardDeviceGridPool *pool = g_atomic_rc_box_new0 (ShepardDeviceGridPool);

  g_mutex_init (&pool->lock);
  pool->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_device_grid_free);
  return pool;
}

ShepardDeviceGridPool *
shepard_device_grid_pool_ref (ShepardDeviceGridPool *pool)
{
  return g_atomic_rc_box_acquire (pool);
}

static void
pool_clear (gpointer data)
{
  ShepardDeviceGridPool *pool = data;

  g_ptr_array_unref (pool->kept);
  g_mutex_clear (&pool->lock);
}

void
shepard_device_grid_pool_unref (ShepardDeviceGridPool *pool)
{
  g_atomic_rc_box_release_full (pool, pool_clear);
}

shepard_device_grid *
shepard_device_grid_pool_take (ShepardDeviceGridPool *pool, shepard_engine *engine, shepard_error *error)
{
  shepard_device_grid *grid = NULL;

  g_mutex_lock (&pool->lock);
  if (pool->kept->len > 0)
    grid = g_ptr_array_steal_index_fast (pool->kept, pool->kept->len - 1);
  g_mutex_unlock (&pool->lock);
  if (grid != NULL)
    return grid;
  if (shepard_device_grid_new (engine, &grid, error) != SHEPARD_OK)
    return NULL;
  return grid;
}

void
shepard_device_grid_pool_give_back (ShepardDeviceGridPool *pool, shepard_device_grid *grid)
{
  gboolean kept = FALSE;

  g_mutex_lock (&pool->lock);
  if (pool->kept->len < SHEPARD_DEVICE_GRID_POOL_KEPT)
    {
      g_ptr_array_add (pool->kept, grid);
      kept = TRUE;
    }
  g_mutex_unlock (&pool->lock);
  if (!kept)
    shepard_device_grid_free (grid);
}
