/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_ALPHA_PLOT (shepard_alpha_plot_get_type ())
G_DECLARE_FINAL_TYPE (ShepardAlphaPlot, shepard_alpha_plot, SHEPARD, ALPHA_PLOT, GtkWidget)

/* AIDW's power alpha(mu) by the triangular membership over the five levels (mu on x from 0 to 1, alpha on y), with
 * each level named at the point where the curve reaches it, over a histogram of the cells' alpha drawn as horizontal
 * bars along the alpha axis. Bars are drawn in the mu frame: the longest reaches mu = 1. The row above the plot gives
 * the largest bin's share of the cells, naming the level in it: "95 % of cells at α5". */
GtkWidget *shepard_alpha_plot_new (void);

/* alpha1 .. alpha5 (> 0); 1.5, 2, 2.5, 3, 3.5 at first. */
void shepard_alpha_plot_set_levels (ShepardAlphaPlot *self, const double alpha[SHEPARD_AIDW_LEVELS]);
void shepard_alpha_plot_get_levels (ShepardAlphaPlot *self, double alpha[SHEPARD_AIDW_LEVELS]);

/* Copies n_bins counts of equal bins over [alpha_first, alpha_last] (n_bins 0: no histogram). */
void shepard_alpha_plot_set_histogram (ShepardAlphaPlot *self, const double *counts, size_t n_bins,
                                       double alpha_first, double alpha_last);

/* A pinned query's (mu, alpha), drawn as a dot with guides to both axes; NaN in either for none. */
void shepard_alpha_plot_set_marker (ShepardAlphaPlot *self, double mu, double alpha);

/* Where (mu, alpha) is drawn, in widget coordinates at the widget's current size. */
void shepard_alpha_plot_data_to_widget (ShepardAlphaPlot *self, double mu, double alpha, double *wx, double *wy);

G_END_DECLS
