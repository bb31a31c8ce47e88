/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-surface.h"

#include <math.h>

#include "device-grid-pool.h"
#include "shepard-app-error.h"

G_DEFINE_BOXED_TYPE (ShepardSurface, shepard_surface, shepard_surface_ref, shepard_surface_unref)

static void
widen_value_range (ShepardSurface *surface, double value)
{
  if (!isfinite (value))
    return;
  surface->value_min = MIN (surface->value_min, value);
  surface->value_max = MAX (surface->value_max, value);
}

static float *
floats_of (const double *values, size_t cells)
{
  if (values == NULL)
    return NULL;
  float *copy = g_new (float, cells);
  for (size_t i = 0; i < cells; i++)
    copy[i] = (float) values[i];
  return copy;
}

ShepardSurface *
shepard_surface_new_from_host (const shepard_grid *grid, const shepard_params *params, const double *values,
                               const double *alpha, const double *r_obs, double r_exp, double seconds)
{
  size_t cells = grid->width * grid->height;
  ShepardSurface *surface = g_atomic_rc_box_new0 (ShepardSurface);

  surface->grid = *grid;
  surface->params = *params;
  surface->values = floats_of (values, cells);
  surface->alpha = floats_of (alpha, cells);
  surface->r_obs = floats_of (r_obs, cells);
  surface->r_exp = r_exp;
  surface->value_min = INFINITY;
  surface->value_max = -INFINITY;
  for (size_t i = 0; i < cells; i++)
    widen_value_range (surface, values[i]);
  surface->seconds = seconds;
  g_mutex_init (&surface->device_lock);
  return surface;
}

ShepardSurface *
shepard_surface_new_on_gpu (const shepard_grid *grid, const shepard_params *params,
                            shepard_device_grid *device_grid, ShepardDeviceGridPool *pool, double r_exp,
                            double seconds)
{
  ShepardSurface *surface = g_atomic_rc_box_new0 (ShepardSurface);

  surface->grid = *grid;
  surface->params = *params;
  surface->device_grid = device_grid;
  surface->pool = shepard_device_grid_pool_ref (pool);
  surface->r_exp = r_exp;
  surface->value_min = NAN;
  surface->value_max = NAN;
  surface->seconds = seconds;
  g_mutex_init (&surface->device_lock);
  return surface;
}

ShepardSurface *
shepard_surface_new_derived (const shepard_grid *grid, const shepard_params *params, float *values, double seconds)
{
  ShepardSurface *surface = g_atomic_rc_box_new0 (ShepardSurface);

  surface->grid = *grid;
  surface->params = *params;
  surface->values = values;
  surface->r_exp = NAN;
  surface->value_min = INFINITY;
  surface->value_max = -INFINITY;
  for (size_t i = 0; i < grid->width * grid->height; i++)
    widen_value_range (surface, values[i]);
  surface->seconds = seconds;
  g_mutex_init (&surface->device_lock);
  return surface;
}

void
shepard_surface_lock_device (const ShepardSurface *surface)
{
  g_return_if_fail (surface != NULL);
  /* The lock is the one mutable part of an immutable surface. */
  g_mutex_lock ((GMutex *) &surface->device_lock);
}

void
shepard_surface_unlock_device (const ShepardSurface *surface)
{
  g_return_if_fail (surface != NULL);
  g_mutex_unlock ((GMutex *) &surface->device_lock);
}

static void
mask_plane (float *cells, const guint8 *keep, size_t n)
{
  for (size_t i = 0; cells != NULL && i < n; i++)
    if (keep[i] == 0)
      cells[i] = NAN;
}

void
shepard_surface_take_mask (ShepardSurface *surface, guint8 *keep)
{
  g_return_if_fail (surface != NULL && keep != NULL);

  size_t cells = surface->grid.width * surface->grid.height;
  g_free (surface->keep);
  surface->keep = keep;
  if (surface->device_grid != NULL)
    return;
  mask_plane (surface->values, keep, cells);
  mask_plane (surface->alpha, keep, cells);
  mask_plane (surface->r_obs, keep, cells);
  surface->value_min = INFINITY;
  surface->value_max = -INFINITY;
  for (size_t i = 0; i < cells; i++)
    widen_value_range (surface, surface->values[i]);
}

ShepardSurface *
shepard_surface_ref (ShepardSurface *surface)
{
  return g_atomic_rc_box_acquire (surface);
}

static void
surface_clear (gpointer data)
{
  ShepardSurface *surface = data;

  g_free (surface->values);
  g_free (surface->alpha);
  g_free (surface->r_obs);
  g_free (surface->keep);
  if (surface->device_grid != NULL)
    shepard_device_grid_pool_give_back (surface->pool, surface->device_grid);
  g_clear_pointer (&surface->pool, shepard_device_grid_pool_unref);
  g_mutex_clear (&surface->device_lock);
}

void
shepard_surface_unref (ShepardSurface *surface)
{
  g_atomic_rc_box_release_full (surface, surface_clear);
}

gboolean
shepard_surface_lookup (const ShepardSurface *surface, double x, double y, double *value, double *alpha)
{
  g_return_val_if_fail (surface != NULL, FALSE);

  double col = floor ((x - surface->grid.x_min) / surface->grid.dx);
  double row = floor ((surface->grid.y_max - y) / surface->grid.dy);
  if (!(col >= 0 && row >= 0 && col < (double) surface->grid.width && row < (double) surface->grid.height))
    return FALSE;
  size_t index = (size_t) row * surface->grid.width + (size_t) col;
  if (surface->keep != NULL && surface->keep[index] == 0)
    {
      if (value != NULL)
        *value = NAN;
      if (alpha != NULL)
        *alpha = NAN;
      return TRUE;
    }
  if (surface->device_grid != NULL)
    {
      /* One cell from the GPU: a few microseconds, and the very number drawn. */
      float cell_value, cell_alpha;
      shepard_error error = { 0 };
      shepard_surface_lock_device (surface);
      shepard_status status = shepard_device_grid_read (surface->device_grid, index, 1, &cell_value, &cell_alpha,
                                                        &error);
      shepard_surface_unlock_device (surface);
      if (status != SHEPARD_OK)
        return FALSE;
      if (value != NULL)
        *value = cell_value;
      if (alpha != NULL)
        *alpha = cell_alpha;
      return TRUE;
    }
  if (value != NULL)
    *value = surface->values[index];
  if (alpha != NULL)
    *alpha = surface->alpha[index];
  return TRUE;
}

gboolean
shepard_surface_has_plane (const ShepardSurface *surface, shepard_plane plane)
{
  g_return_val_if_fail (surface != NULL, FALSE);

  switch (plane)
    {
    case SHEPARD_PLANE_VALUES:
      return TRUE;
    case SHEPARD_PLANE_ALPHA:
      return surface->device_grid != NULL || surface->alpha != NULL;
    case SHEPARD_PLANE_R_OBS:
      return surface->params.method == SHEPARD_METHOD_AIDW && (surface->device_grid != NULL || surface->r_obs != NULL);
    }
  return FALSE;
}

static const char *
plane_name (shepard_plane plane)
{
  return plane == SHEPARD_PLANE_ALPHA ? "adaptive power α" : plane == SHEPARD_PLANE_R_OBS ? "r_obs" : "values";
}

float *
shepard_surface_copy_plane (const ShepardSurface *surface, shepard_plane plane, GError **error)
{
  g_return_val_if_fail (surface != NULL, NULL);

  size_t cells = surface->grid.width * surface->grid.height;
  if (!shepard_surface_has_plane (surface, plane))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "This surface has no %s: r_obs and R exist for adaptive IDW only.", plane_name (plane));
      return NULL;
    }
  if (surface->device_grid == NULL)
    {
      const float *source = plane == SHEPARD_PLANE_ALPHA ? surface->alpha : plane == SHEPARD_PLANE_R_OBS
                                                                              ? surface->r_obs
                                                                              : surface->values;
      return g_memdup2 (source, cells * sizeof (float));
    }
  float *copy = g_try_new (float, cells);
  shepard_error engine_error = { 0 };
  if (copy == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "Not enough memory to copy a %zu × %zu preview from the GPU: lower the preview resolution.",
                   surface->grid.width, surface->grid.height);
      return NULL;
    }
  shepard_surface_lock_device (surface);
  shepard_status status = shepard_device_grid_read_plane (surface->device_grid, plane, 0, cells, copy, &engine_error);
  shepard_surface_unlock_device (surface);
  if (status != SHEPARD_OK)
    {
      g_free (copy);
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  if (surface->keep != NULL)
    mask_plane (copy, surface->keep, cells);
  return copy;
}
