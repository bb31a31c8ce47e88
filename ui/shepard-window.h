/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-document.h"
#include "shepard-map-view.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_WINDOW (shepard_window_get_type ())
G_DECLARE_FINAL_TYPE (ShepardWindow, shepard_window, SHEPARD, WINDOW, GtkApplicationWindow)

ShepardWindow *shepard_window_new (GtkApplication *application);

/* Reads the layer in the background; field NULL: the last field used, if the layer has it, else its first numeric
 * field. A failure shows in the window. */
void shepard_window_open (ShepardWindow *self, GFile *file, const char *field);

/* Shows message in the window's banner (an error, or a notice such as where an export went). */
void shepard_window_show_message (ShepardWindow *self, GtkMessageType type, const char *message);

/* The shown banner's text, NULL while none is. */
const char *shepard_window_get_message (ShepardWindow *self);

/* The open layer, NULL before one is read. */
ShepardDocument *shepard_window_get_document (ShepardWindow *self);

/* The surface on screen and whether it is the last one asked for at full preview resolution. */
ShepardSurface *shepard_window_get_surface (ShepardWindow *self);
gboolean shepard_window_is_busy (ShepardWindow *self);

/* The parameters the panel holds now; setting them updates the panel, which recomputes. */
void shepard_window_get_params (ShepardWindow *self, shepard_params *params);
void shepard_window_set_params (ShepardWindow *self, const shepard_params *params);

/* The extent of the preview and of the export: the data's bounding box grown by 5 % of its longer side. */
void shepard_window_get_extent (ShepardWindow *self, double *x_min, double *y_min, double *x_max, double *y_max);

ShepardMapView *shepard_window_get_map_view (ShepardWindow *self);
ShepardColorRamp shepard_window_get_ramp (ShepardWindow *self);

G_END_DECLS
