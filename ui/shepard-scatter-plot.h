/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_SCATTER_PLOT (shepard_scatter_plot_get_type ())
G_DECLARE_FINAL_TYPE (ShepardScatterPlot, shepard_scatter_plot, SHEPARD, SCATTER_PLOT, GtkWidget)

/* Observed values (x) against predicted ones (y) of a cross-validation, over the 1:1 line. Both axes share one
 * round range, so the 1:1 line is the frame's diagonal. Points are dots in the accent colour that darken where they
 * overlap; a million draw in a few milliseconds, since they are binned into a texture at the screen's pixels.
 *
 * "point-activated" (guint index): a click within 6 pixels of a point; index in the arrays given to set_points. */
GtkWidget *shepard_scatter_plot_new (void);

/* Copies the n pairs; pairs with a non-finite value are not drawn and cannot be activated. */
void shepard_scatter_plot_set_points (ShepardScatterPlot *self, const double *observed, const double *predicted,
                                      size_t n);
size_t shepard_scatter_plot_get_n_points (ShepardScatterPlot *self);

/* The point drawn emphasised, or -1 for none. */
void shepard_scatter_plot_set_selected (ShepardScatterPlot *self, gssize index);
gssize shepard_scatter_plot_get_selected (ShepardScatterPlot *self);

/* The field or unit of both axes, "zinc (ppm)": the axes read "Observed zinc (ppm)" and "Predicted zinc (ppm)".
 * NULL: "Observed" and "Predicted". */
void shepard_scatter_plot_set_axis_title (ShepardScatterPlot *self, const char *title);

/* Where the value pair (observed x, predicted y) is drawn, in widget coordinates at the widget's current size. */
void shepard_scatter_plot_data_to_widget (ShepardScatterPlot *self, double x, double y, double *wx, double *wy);

/* The drawn point nearest to (wx, wy) within 6 pixels, or -1: what a click there activates. */
gssize shepard_scatter_plot_point_at (ShepardScatterPlot *self, double wx, double wy);

G_END_DECLS
