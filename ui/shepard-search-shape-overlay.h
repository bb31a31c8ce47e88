/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-map-view.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_SEARCH_SHAPE_OVERLAY (shepard_search_shape_overlay_get_type ())
G_DECLARE_FINAL_TYPE (ShepardSearchShapeOverlay, shepard_search_shape_overlay, SHEPARD, SEARCH_SHAPE_OVERLAY,
                      GtkWidget)

/* The search ellipse of the weighting neighbourhood, drawn over the map while it is edited, to scale: centred on the
 * pointer while it is over the map, else on the view's centre. Takes no input. */
GtkWidget *shepard_search_shape_overlay_new (void);

void shepard_search_shape_overlay_set_map_view (ShepardSearchShapeOverlay *self, ShepardMapView *map_view);
/* The ellipse as shepard_params has it: semi-axes radius1 (along angle) and radius2 in map units, angle in degrees
 * counter-clockwise from east; radius1 <= 0 draws nothing. */
void shepard_search_shape_overlay_set_shape (ShepardSearchShapeOverlay *self, double radius1, double radius2,
                                             double angle);
void shepard_search_shape_overlay_set_shown (ShepardSearchShapeOverlay *self, gboolean shown);
gboolean shepard_search_shape_overlay_get_shown (ShepardSearchShapeOverlay *self);

/* The centre of the shape in map units now (the pointer or the view's centre); FALSE before the view has a size. */
gboolean shepard_search_shape_overlay_get_center (ShepardSearchShapeOverlay *self, double *x, double *y);
/* n_points points of the outline in the overlay's pixels, the first at the end of radius1's axis, going
 * counter-clockwise on the map; FALSE when nothing is drawn (no shape, or the view has no size). */
gboolean shepard_search_shape_overlay_get_outline (ShepardSearchShapeOverlay *self, guint n_points, double *wx,
                                                   double *wy);

G_END_DECLS
