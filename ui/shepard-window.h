/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-document.h"
#include "shepard-export-dialog.h"
#include "shepard-map-view.h"
#include "shepard-instruments.h"
#include "shepard-preview.h"

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

/* The surface on screen (the preview's last), and whether a layer is being read or a surface computed. */
ShepardSurface *shepard_window_get_surface (ShepardWindow *self);
gboolean shepard_window_is_busy (ShepardWindow *self);
ShepardPreview *shepard_window_get_preview (ShepardWindow *self);
/* The figures that follow the preview: cross-validation, explanation, distributions. */
ShepardInstruments *shepard_window_get_instruments (ShepardWindow *self);

/* The parameters the panel holds now; setting them updates the panel, which recomputes. */
void shepard_window_get_params (ShepardWindow *self, shepard_params *params);
void shepard_window_set_params (ShepardWindow *self, const shepard_params *params);

/* The export dialog for the open layer and the parameters of the panel, as Export… opens it: the window shows what
 * it wrote. */
ShepardExportDialog *shepard_window_new_export_dialog (ShepardWindow *self);

/* Draws the lines and polygons of file's first layer under the points, reprojected into the open layer's CRS (a layer
 * must be open). Point layers are refused. */
gboolean shepard_window_add_context_layer (ShepardWindow *self, GFile *file, GError **error);

ShepardMapView *shepard_window_get_map_view (ShepardWindow *self);
ShepardColorRamp shepard_window_get_ramp (ShepardWindow *self);

G_END_DECLS
