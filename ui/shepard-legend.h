/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-render.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_LEGEND (shepard_legend_get_type ())
G_DECLARE_FINAL_TYPE (ShepardLegend, shepard_legend, SHEPARD, LEGEND, GtkWidget)

/* The colour ramp as a vertical bar on a dark rounded box, from "minimum" at the bottom to "maximum" at the top, with
 * five values beside it; 96 × 196 pixels. "ramp" is a ShepardColorRamp held as a guint, so that a drop-down's
 * "selected" binds to it. */
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

G_END_DECLS
