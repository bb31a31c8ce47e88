/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-render.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_LEGEND (shepard_legend_get_type ())
G_DECLARE_FINAL_TYPE (ShepardLegend, shepard_legend, SHEPARD, LEGEND, GtkWidget)

/* The colour ramp as a vertical bar from "minimum" at the bottom to "maximum" at the top, labelled at round values
 * (1, 2, 2.5 or 5 × 10^k: 250 / 500 / 750, never 18.1 / 13.62), under a title; or, with classes, one box per class
 * labelled at the class breaks. Drawn in the theme's colours, beside the map rather than over it. "ramp" is a
 * ShepardColorRamp (SHEPARD_COLOR_RAMP_REVERSED included) held as a guint. */
GtkWidget *shepard_legend_new (void);

ShepardColorRamp shepard_legend_get_ramp (ShepardLegend *self);
void shepard_legend_set_ramp (ShepardLegend *self, ShepardColorRamp ramp);
double shepard_legend_get_minimum (ShepardLegend *self);
void shepard_legend_set_minimum (ShepardLegend *self, double minimum);
double shepard_legend_get_maximum (ShepardLegend *self);
void shepard_legend_set_maximum (ShepardLegend *self, double maximum);
/* What the colours stand for ("zinc", "α", "R"), drawn above the bar; NULL: none. */
const char *shepard_legend_get_title (ShepardLegend *self);
void shepard_legend_set_title (ShepardLegend *self, const char *title);
/* The values' unit ("ppm"), shown after the title in brackets; NULL when none is known. */
void shepard_legend_set_unit (ShepardLegend *self, const char *unit);
/* Classes: n_classes + 1 rising breaks (as shepard_renderer_set_classes); n_classes 0 for a continuous ramp. */
void shepard_legend_set_classes (ShepardLegend *self, const double *breaks, guint n_classes);

/* The title as drawn ("zinc (ppm)"), and the labels from the bottom up, NULL-terminated (g_strfreev). */
char *shepard_legend_dup_heading (ShepardLegend *self);
char **shepard_legend_dup_labels (ShepardLegend *self);

G_END_DECLS
