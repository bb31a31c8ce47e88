/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_MEMBERSHIP_PLOT (shepard_membership_plot_get_type ())
G_DECLARE_FINAL_TYPE (ShepardMembershipPlot, shepard_membership_plot, SHEPARD, MEMBERSHIP_PLOT, GtkWidget)

/* AIDW's cosine membership mu(R) between Rmin and Rmax (R on x from 0, mu on y from 0 to 1), over a histogram of R
 * across the grid's cells. The stretches where mu is flat, R <= Rmin (mu = 0) and R >= Rmax (mu = 1), are shaded and
 * carry the share of cells they hold ("96 % of cells"), so that a grid where one alpha level does all the work shows
 * at a glance. Bars are drawn in the mu frame: the largest count reaches mu = 1. */
GtkWidget *shepard_membership_plot_new (void);

/* Rmax > Rmin >= 0, as the engine takes them; 0 and 2 at first. */
void shepard_membership_plot_set_thresholds (ShepardMembershipPlot *self, double r_min, double r_max);
void shepard_membership_plot_get_thresholds (ShepardMembershipPlot *self, double *r_min, double *r_max);

/* Copies n_bins counts of equal bins over [r_first, r_last] (n_bins 0: no histogram). */
void shepard_membership_plot_set_histogram (ShepardMembershipPlot *self, const double *counts, size_t n_bins,
                                            double r_first, double r_last);
/* Whether the last bin also holds every R above r_last (the caller put them there): it is then drawn hatched and
 * open-ended, and counted as lying at or above its lower edge. Off at first; kept across set_histogram. */
void shepard_membership_plot_set_overflow (ShepardMembershipPlot *self, gboolean last_bin_overflows);

/* The R of a pinned query, drawn as a vertical line and a dot at (R, mu(R)); NaN for none. */
void shepard_membership_plot_set_marker (ShepardMembershipPlot *self, double r);

/* The share of the histogram's cells at R <= Rmin and at R >= Rmax (0 to 1; 0 without a histogram), as the plot
 * writes them. A bin across a threshold is split in proportion to its width on each side, so the shares are exact
 * when the thresholds lie on bin edges. */
void shepard_membership_plot_get_shares (ShepardMembershipPlot *self, double *below_r_min, double *above_r_max);

/* Where (R, mu) is drawn, in widget coordinates at the widget's current size. */
void shepard_membership_plot_data_to_widget (ShepardMembershipPlot *self, double r, double mu, double *wx,
                                             double *wy);

G_END_DECLS
