/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Which surfaces the map draws and how they reach the renderer: the newest one, through CUDA-OpenGL interop when it is
 * on the GPU and interop works, else through host memory; and the wider one kept around a zoomed one (the
 * backdrop). */
#include "shepard-map-view-private.h"

/* Only the newest surface reaches the texture: any set since the last frame were never drawn. */
gboolean
_shepard_map_view_upload_surface (ShepardMapView *self, GError **error)
{
  ShepardSurface *surface = self->surface;

  if (surface == NULL)
    {
      shepard_renderer_clear_grid (self->renderer);
      return TRUE;
    }
  /* A plane the surface lacks (r_obs of an IDW or derived surface) shows its values. */
  shepard_plane plane = shepard_surface_has_plane (surface, self->plane) ? self->plane : SHEPARD_PLANE_VALUES;
  if (surface->device_grid == NULL)
    {
      const float *cells = plane == SHEPARD_PLANE_ALPHA ? surface->alpha : plane == SHEPARD_PLANE_R_OBS
                                                                             ? surface->r_obs
                                                                             : surface->values;
      /* Masked cells are NaN in host planes already (shepard_surface_take_mask). */
      return shepard_renderer_set_grid (self->renderer, &surface->grid, cells, error);
    }
  if (self->interop)
    {
      g_autoptr (GError) interop_error = NULL;
      shepard_surface_lock_device (surface);
      gboolean drawn = shepard_renderer_set_grid_from_device (self->renderer, &surface->grid, surface->device_grid,
                                                              plane, &interop_error);
      shepard_surface_unlock_device (surface);
      if (drawn)
        {
          shepard_renderer_set_grid_mask (self->renderer, surface->keep);
          return TRUE;
        }
      shepard_renderer_disable_cuda_interop (self->renderer);
      _shepard_map_view_set_interop (self, FALSE, interop_error->message, TRUE);
    }
  /* Through host memory: interop failed, or the surface was computed before it was switched off. */
  g_autofree float *values = shepard_surface_copy_plane (surface, plane, error);
  return values != NULL && shepard_renderer_set_grid (self->renderer, &surface->grid, values, error);
}

/* The backdrop is an aid: one that cannot be drawn is left out, and the surface still shows. */
void
_shepard_map_view_upload_backdrop (ShepardMapView *self)
{
  g_autoptr (GError) error = NULL;

  if (self->backdrop == NULL)
    {
      shepard_renderer_clear_backdrop (self->renderer);
      return;
    }
  shepard_plane plane = shepard_surface_has_plane (self->backdrop, self->plane) ? self->plane : SHEPARD_PLANE_VALUES;
  g_autofree float *values = shepard_surface_copy_plane (self->backdrop, plane, &error);
  if (values == NULL || !shepard_renderer_set_backdrop (self->renderer, &self->backdrop->grid, values, &error))
    {
      g_message ("The map shows no surface around the zoomed one: %s", error->message);
      shepard_renderer_clear_backdrop (self->renderer);
    }
}

/* Whether outer's extent holds inner's (to a millionth of a cell, as extents computed apart may differ). */
static gboolean
grid_covers (const shepard_grid *outer, const shepard_grid *inner)
{
  double tolerance_x = 1e-6 * inner->dx, tolerance_y = 1e-6 * inner->dy;

  return outer->x_min <= inner->x_min + tolerance_x && outer->y_max >= inner->y_max - tolerance_y
         && outer->x_min + (double) outer->width * outer->dx
              >= inner->x_min + (double) inner->width * inner->dx - tolerance_x
         && outer->y_max - (double) outer->height * outer->dy
              <= inner->y_max - (double) inner->height * inner->dy + tolerance_y;
}

static double
grid_area (const shepard_grid *grid)
{
  return (double) grid->width * grid->dx * (double) grid->height * grid->dy;
}

static void
set_backdrop (ShepardMapView *self, ShepardSurface *backdrop)
{
  if (backdrop == self->backdrop)
    return;
  if (backdrop != NULL)
    shepard_surface_ref (backdrop);
  g_clear_pointer (&self->backdrop, shepard_surface_unref);
  self->backdrop = backdrop;
  self->backdrop_dirty = TRUE;
}

/* A surface over less than the one it replaces (a zoomed or panned view's) keeps the wider one drawn around it, until
 * a surface covers that again: the widest stays, so that panning a zoomed view shows the whole layer's surface
 * around the part that follows the view. */
static void
update_backdrop (ShepardMapView *self, ShepardSurface *surface)
{
  ShepardSurface *replaced = self->surface;

  if (surface == NULL)
    set_backdrop (self, NULL);
  else if (replaced != NULL && !grid_covers (&surface->grid, &replaced->grid)
           && (self->backdrop == NULL || grid_area (&replaced->grid) >= grid_area (&self->backdrop->grid)))
    set_backdrop (self, replaced);
  else if (self->backdrop != NULL && grid_covers (&surface->grid, &self->backdrop->grid))
    set_backdrop (self, NULL);
}

void
shepard_map_view_set_surface (ShepardMapView *self, ShepardSurface *surface)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  update_backdrop (self, surface);
  if (surface != NULL)
    shepard_surface_ref (surface);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  self->surface = surface;
  self->surface_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}
