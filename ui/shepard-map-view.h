/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "context-layer.h"
#include "shepard-render.h"
#include "shepard-surface.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_MAP_VIEW (shepard_map_view_get_type ())
G_DECLARE_FINAL_TYPE (ShepardMapView, shepard_map_view, SHEPARD, MAP_VIEW, GtkGLArea)

GtkWidget *shepard_map_view_new (void);

/* The data points (copied) and their extent, which "fit" shows. */
void shepard_map_view_set_points (ShepardMapView *self, const double *x, const double *y, const double *z,
                                  size_t n_points, double x_min, double y_min, double x_max, double y_max);
/* The surface drawn. One over less than the surface it replaces (a zoomed view's part) keeps the widest surface
 * before it drawn around it, until a surface covers that again. */
void shepard_map_view_set_surface (ShepardMapView *self, ShepardSurface *surface);
void shepard_map_view_clear (ShepardMapView *self);
void shepard_map_view_set_ramp (ShepardMapView *self, ShepardColorRamp ramp);
void shepard_map_view_set_range (ShepardMapView *self, double min, double max);
void shepard_map_view_set_hillshade (ShepardMapView *self, gboolean enabled);
/* The surface's opacity in [0, 1] (the points stay opaque), and its classes (shepard_renderer_set_classes). */
void shepard_map_view_set_opacity (ShepardMapView *self, double opacity);
void shepard_map_view_set_classes (ShepardMapView *self, const double *breaks, guint n_classes);
void shepard_map_view_fit (ShepardMapView *self);
/* New positions or values of the same layer's points (a sandbox edit): the view stays where it is. */
void shepard_map_view_update_points (ShepardMapView *self, const double *x, const double *y, const double *z,
                                     size_t n_points);
void shepard_map_view_center_on (ShepardMapView *self, double x, double y);
/* Zooms about the view's centre, factor > 1 magnifying (+ and − zoom by 2). */
void shepard_map_view_zoom (ShepardMapView *self, double factor);
/* Moves the view by fractions of its width (right > 0: east) and height (up > 0: north); the arrows move a tenth. */
void shepard_map_view_pan (ShepardMapView *self, double right, double up);
/* Map units per device pixel of the view now; 0 before it has a size. */
double shepard_map_view_get_pixel_size (ShepardMapView *self);

/* The lines of context layers (already in the map's CRS), copied and drawn over the surface and under the points;
 * n_layers 0 removes them. */
void shepard_map_view_set_context_lines (ShepardMapView *self, ShepardContextLayer *const *layers, guint n_layers);

/* Which plane of the surface is drawn (values by default); a surface without it shows its values. */
void shepard_map_view_set_plane (ShepardMapView *self, shepard_plane plane);
/* Colours the dots by values of their own (one per point, such as cross-validation residuals) through ramp over
 * [min, max]; values NULL: by z, as the surface. */
void shepard_map_view_set_point_colors (ShepardMapView *self, const double *values, size_t n_points,
                                        ShepardColorRamp ramp, double min, double max);
/* Draws one dot emphasised (-1: none). */
void shepard_map_view_set_highlight (ShepardMapView *self, gssize point_index);
/* While editing, a drag that starts on a dot moves it ("point-dragged") instead of the map. Clicks always come as
 * "clicked" (map x, y) away from the dots and "point-clicked" (index) on one; Delete as "delete-requested". */
void shepard_map_view_set_editing (ShepardMapView *self, gboolean editing);

/* The CUDA device the engine computes on (-1: the CPU). On a device, the view tries CUDA-OpenGL interop in its GL
 * context (now, or once realized) and notifies "interop" with the outcome; surfaces kept on the GPU are then
 * copied into the texture on the device. Without interop they are copied through host memory. */
void shepard_map_view_set_cuda_device (ShepardMapView *self, int cuda_device);
/* TRUE while surfaces on the GPU reach the screen through interop; otherwise FALSE and, when interop was tried and
 * failed, the reason (owned by the view). */
gboolean shepard_map_view_get_interop (ShepardMapView *self, const char **reason);

/* Where map position (x, y) is, in the widget's logical pixels. */
void shepard_map_view_map_to_widget (ShepardMapView *self, double x, double y, double *wx, double *wy);

/* The map extent the view shows now; FALSE before the view has a size. */
gboolean shepard_map_view_get_visible_extent (ShepardMapView *self, double *x_min, double *y_min, double *x_max,
                                              double *y_max);

G_END_DECLS
