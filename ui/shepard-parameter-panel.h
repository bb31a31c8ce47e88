/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-distributions.h"
#include "shepard-engine.h"
#include "shepard-mask-section.h"
#include "shepard-neighbourhood-section.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_PARAMETER_PANEL (shepard_parameter_panel_get_type ())
G_DECLARE_FINAL_TYPE (ShepardParameterPanel, shepard_parameter_panel, SHEPARD, PARAMETER_PANEL, GtkWidget)

/* The interpolation method's controls and the preview's size. "changed" (no arguments) is emitted whenever one of
 * them takes a new value: once per edit by the user, and once for a whole set_params, reset or bind_settings. A call
 * that leaves every control as it was emits nothing. An entry that is not a number, or out of range, keeps the last
 * value (no "changed") and the panel says why. */
GtkWidget *shepard_parameter_panel_new (void);

void shepard_parameter_panel_get_params (ShepardParameterPanel *self, shepard_params *params);
/* The area and N controls keep their values when params does not use them (another area mode, all points). */
void shepard_parameter_panel_set_params (ShepardParameterPanel *self, const shepard_params *params);

/* Cells along the longer side of the preview grid. */
guint shepard_parameter_panel_get_preview_cells (ShepardParameterPanel *self);
void shepard_parameter_panel_set_preview_cells (ShepardParameterPanel *self, guint cells);

/* Adaptive IDW with shepard_params_init_aidw's values (all points, no radius, no minimum, no quadrants, no
 * smoothing, automatic summation at the default tolerance), no mask, and the template's area, N, radii and preview
 * cells: the schema's defaults. Also the widget action "panel.reset". */
void shepard_parameter_panel_reset (ShepardParameterPanel *self);

/* Keeps method, power, k, alpha-1..5, r-min, r-max, area-mode, area, rexp, the neighbourhood, summation and mask
 * sections' keys and preview-cells in settings; the panel takes the stored values now. */
void shepard_parameter_panel_bind_settings (ShepardParameterPanel *self, GSettings *settings);

/* How the map's cells spread over R and alpha (NULL: unknown, or IDW): the alpha plot's histogram, and a warning
 * with the fix when more than SHEPARD_SATURATION_SHARE of them sit at alpha1 or alpha5. */
void shepard_parameter_panel_set_distributions (ShepardParameterPanel *self, const ShepardDistributions *distributions);
/* Whether the warning shows, and its text. */
gboolean shepard_parameter_panel_get_saturation_warning (ShepardParameterPanel *self, const char **text);

/* The Neighbourhood section (radius, max and min points, quadrants, smoothing), whose changes the panel's "changed"
 * carries; for its units and the search shape it shows on the map. */
ShepardNeighbourhoodSection *shepard_parameter_panel_get_neighbourhood_section (ShepardParameterPanel *self);

/* The Mask section: not a parameter of the engine, so its "changed" is its own (the preview and export follow it). */
ShepardMaskSection *shepard_parameter_panel_get_mask_section (ShepardParameterPanel *self);

/* Lines the panel's row labels up with the others in labels, a horizontal size group (shepard_label_column_share). */
void shepard_parameter_panel_align_labels (ShepardParameterPanel *self, GtkSizeGroup *labels);

G_END_DECLS
