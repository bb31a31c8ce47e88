/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-render.h"

#include <math.h>

static gboolean
view_is_valid (const ShepardView *view)
{
  return view->units_per_pixel > 0 && view->width > 0 && view->height > 0 && view->scale >= 1;
}

void
shepard_view_map_to_pixel (const ShepardView *view, double x, double y, double *px, double *py)
{
  g_return_if_fail (view != NULL && view_is_valid (view));
  g_return_if_fail (px != NULL && py != NULL);

  *px = (x - view->center_x) / view->units_per_pixel + view->width / view->scale / 2;
  *py = (view->center_y - y) / view->units_per_pixel + view->height / view->scale / 2;
}

void
shepard_view_pixel_to_map (const ShepardView *view, double px, double py, double *x, double *y)
{
  g_return_if_fail (view != NULL && view_is_valid (view));
  g_return_if_fail (x != NULL && y != NULL);

  *x = view->center_x + (px - view->width / view->scale / 2) * view->units_per_pixel;
  *y = view->center_y - (py - view->height / view->scale / 2) * view->units_per_pixel;
}

void
shepard_view_fit (ShepardView *view, double x_min, double y_min, double x_max, double y_max, double margin)
{
  g_return_if_fail (view != NULL);
  g_return_if_fail (view->width > 0 && view->height > 0 && view->scale >= 1);
  g_return_if_fail (isfinite (x_min) && isfinite (y_min) && isfinite (x_max) && isfinite (y_max));
  g_return_if_fail (x_max >= x_min && y_max >= y_min && margin >= 0);

  /* A viewport smaller than the margins still shows the extent, only without them. */
  double free_width = MAX (view->width / view->scale - 2 * margin, 1.0);
  double free_height = MAX (view->height / view->scale - 2 * margin, 1.0);
  double units_per_pixel = MAX ((x_max - x_min) / free_width, (y_max - y_min) / free_height);

  view->center_x = (x_min + x_max) / 2;
  view->center_y = (y_min + y_max) / 2;
  /* A single point has no size to fit: keep the zoom there is, or one map unit per pixel. */
  if (units_per_pixel > 0)
    view->units_per_pixel = units_per_pixel;
  else if (!(view->units_per_pixel > 0))
    view->units_per_pixel = 1;
}
