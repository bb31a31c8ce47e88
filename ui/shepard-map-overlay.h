/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-explanation.h"
#include "shepard-map-view.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_MAP_OVERLAY (shepard_map_overlay_get_type ())
G_DECLARE_FINAL_TYPE (ShepardMapOverlay, shepard_map_overlay, SHEPARD, MAP_OVERLAY, GtkWidget)

/* What the map shows above the surface and its dots, in map positions that follow the view: the pinned query point
 * of an explanation and a line to each of its listed neighbours, as thick as its share of the weight (dashed for
 * the density neighbours that carry no weight). Takes no input: clicks go through to the map. */
GtkWidget *shepard_map_overlay_new (void);

void shepard_map_overlay_set_map_view (ShepardMapOverlay *self, ShepardMapView *map_view);
/* The pin alone (its explanation not in yet), or NaN to clear; the lines go with it. */
void shepard_map_overlay_set_pin (ShepardMapOverlay *self, double x, double y);
/* The pin and its lines: explanation's listed points, whose positions are x[index], y[index] of the layer. */
void shepard_map_overlay_set_explanation (ShepardMapOverlay *self, const ShepardExplanation *explanation,
                                          const double *x, const double *y);

G_END_DECLS
