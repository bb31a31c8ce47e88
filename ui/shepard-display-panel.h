/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-render.h"
#include "shepard-stretch.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_DISPLAY_PANEL (shepard_display_panel_get_type ())
G_DECLARE_FINAL_TYPE (ShepardDisplayPanel, shepard_display_panel, SHEPARD, DISPLAY_PANEL, GtkWidget)

/* How the map draws the surface: which surface, its colour ramp (reversed or not), the stretch of the ramp over the
 * values, classes, the surface's opacity over the points, and hillshade. "changed" says any of them changed. */
GtkWidget *shepard_display_panel_new (void);

/* The ramp chosen, with SHEPARD_COLOR_RAMP_REVERSED or-ed in when "Reversed" is on. */
ShepardColorRamp shepard_display_panel_get_ramp (ShepardDisplayPanel *self);
/* The row of the surface drop-down (ShepardWindowSurface). */
guint shepard_display_panel_get_surface (ShepardDisplayPanel *self);
gboolean shepard_display_panel_get_hillshade (ShepardDisplayPanel *self);
ShepardStretch shepard_display_panel_get_stretch (ShepardDisplayPanel *self);
/* The custom stretch's ends (min <= max). */
void shepard_display_panel_get_custom_range (ShepardDisplayPanel *self, double *min, double *max);
/* Suggests the custom range (the shown range, when the user switches to a custom stretch); values already typed are
 * kept while the stretch is custom. */
void shepard_display_panel_suggest_custom_range (ShepardDisplayPanel *self, double min, double max);
ShepardClasses shepard_display_panel_get_classes (ShepardDisplayPanel *self);
guint shepard_display_panel_get_class_count (ShepardDisplayPanel *self);
/* The surface's opacity in [0, 1]. */
double shepard_display_panel_get_opacity (ShepardDisplayPanel *self);

/* Keeps the choices in settings (the application's schema: color-ramp, ramp-reversed, stretch, classes,
 * class-count, surface-opacity, hillshade). */
void shepard_display_panel_bind_settings (ShepardDisplayPanel *self, GSettings *settings);
/* Lines the panel's row labels up with the others in labels (shepard_label_column_share). */
void shepard_display_panel_align_labels (ShepardDisplayPanel *self, GtkSizeGroup *labels);

G_END_DECLS
