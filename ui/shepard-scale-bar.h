/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-map-view.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_SCALE_BAR (shepard_scale_bar_get_type ())
G_DECLARE_FINAL_TYPE (ShepardScaleBar, shepard_scale_bar, SHEPARD, SCALE_BAR, GtkWidget)

/* A bar of a round length (1, 2 or 5 × 10^k metres or kilometres; degrees for a geographic CRS) with its length
 * written above it, for the bottom-left corner of the map; it follows the map view's zoom. */
GtkWidget *shepard_scale_bar_new (void);

/* The map it measures; NULL: none (the bar hides). */
void shepard_scale_bar_set_map_view (ShepardScaleBar *self, ShepardMapView *map_view);
/* The map unit: metres_per_unit > 0 for a projected CRS (1 for metres), 0 for degrees, < 0 when unknown (the bar
 * then counts map units). */
void shepard_scale_bar_set_metres_per_unit (ShepardScaleBar *self, double metres_per_unit);

/* The bar for a map of units_per_pixel map units per logical pixel, at most max_width pixels wide: its width in
 * pixels, and its label ("500 m", "2 km", "0.1°", "20 units") into *label (g_free). */
double shepard_scale_bar_choose (double units_per_pixel, double metres_per_unit, int max_width, char **label);

G_END_DECLS
