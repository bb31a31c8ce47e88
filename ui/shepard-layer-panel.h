/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-document.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_LAYER_PANEL (shepard_layer_panel_get_type ())
G_DECLARE_FINAL_TYPE (ShepardLayerPanel, shepard_layer_panel, SHEPARD, LAYER_PANEL, GtkWidget)

/* What was read from the open layer: file, layer, points, what was skipped and why, the CRS, and the choice of the
 * numeric field to interpolate. "field-chosen" (const char *field) says the user picked another field. */
GtkWidget *shepard_layer_panel_new (void);

/* Shows document's layer; its field is the one selected. */
void shepard_layer_panel_show (ShepardLayerPanel *self, ShepardDocument *document);

/* Lines the panel's row labels up with the others in labels, a horizontal size group (shepard_label_column_share). */
void shepard_layer_panel_align_labels (ShepardLayerPanel *self, GtkSizeGroup *labels);

G_END_DECLS
