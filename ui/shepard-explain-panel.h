/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-distributions.h"
#include "shepard-explanation.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_EXPLAIN_PANEL (shepard_explain_panel_get_type ())
G_DECLARE_FINAL_TYPE (ShepardExplainPanel, shepard_explain_panel, SHEPARD, EXPLAIN_PANEL, GtkWidget)

/* Why a pinned cell gets its value, for a student to check by hand: the value as sum (share * z), AIDW's steps
 * (r_obs, r_exp, R, mu, alpha), marked on the mu(R) curve and the alpha(mu) plot, over the histograms of R and alpha
 * of the whole map, and the nearest data points with their distances and shares. "unpin" (no arguments): the Unpin
 * button. */
GtkWidget *shepard_explain_panel_new (void);

/* The parameters the curves are drawn for. */
void shepard_explain_panel_set_params (ShepardExplainPanel *self, const shepard_params *params);
/* How R and alpha spread over the map (NULL: no histograms, as for IDW). */
void shepard_explain_panel_set_distributions (ShepardExplainPanel *self, const ShepardDistributions *distributions);
/* A pin whose explanation is still to come (pending TRUE), an explanation, or (both NULL / FALSE) no pin. */
void shepard_explain_panel_set_pending (ShepardExplainPanel *self, gboolean pending);
void shepard_explain_panel_set_explanation (ShepardExplainPanel *self, ShepardExplanation *explanation,
                                            const char *value_name);
ShepardExplanation *shepard_explain_panel_get_explanation (ShepardExplainPanel *self);

G_END_DECLS
