/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-cross-validation.h"
#include "shepard-optimiser.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_CV_PANEL (shepard_cv_panel_get_type ())
G_DECLARE_FINAL_TYPE (ShepardCvPanel, shepard_cv_panel, SHEPARD, CV_PANEL, GtkWidget)

/* What leave-one-out says about the parameters: RMSE, MAE, ME and R², observed against predicted with the 1:1 line,
 * the points with the largest errors, and the optimiser's controls.
 * "point-activated" (guint index): a worst point or a scatter dot was chosen, to show on the map.
 * "optimise" / "cancel-optimise" / "apply-optimised" / "discard-optimised" (no arguments): the optimiser's buttons.
 * Properties: "live" (cross-validate after every change), "residual-map" (colour the map's points by residual). */
GtkWidget *shepard_cv_panel_new (void);

/* The latest figures (NULL: none yet); value_name titles the axes ("zinc"). */
void shepard_cv_panel_set_validation (ShepardCvPanel *self, ShepardCrossValidation *validation,
                                      const char *value_name);
ShepardCrossValidation *shepard_cv_panel_get_validation (ShepardCvPanel *self);
/* A cross-validation runs now: a spinner where it runs on a GPU, else a sign that stands still, since a spinner's
 * frames take the cores a CPU's leave-one-out runs on (llvmpipe drew them with 40 % of 2 cores, perf). */
void shepard_cv_panel_set_running (ShepardCvPanel *self, gboolean running, gboolean on_gpu);
/* Why the figures could not be computed, NULL to clear; the last figures stay, marked as out of date. */
void shepard_cv_panel_set_failure (ShepardCvPanel *self, const char *message);
/* The point to emphasise in the scatter plot and the list (-1: none). */
void shepard_cv_panel_set_selected (ShepardCvPanel *self, gssize index);

gboolean shepard_cv_panel_get_live (ShepardCvPanel *self);
gboolean shepard_cv_panel_get_residual_map (ShepardCvPanel *self);

/* The optimiser's states: running (fraction < 0 until the first report), done with a result to apply or discard,
 * failed, or idle. The choices the user made for it. */
void shepard_cv_panel_show_optimising (ShepardCvPanel *self, double fraction);
void shepard_cv_panel_show_optimised (ShepardCvPanel *self, const ShepardOptimiseResult *result, ShepardObjective objective);
void shepard_cv_panel_show_optimise_failed (ShepardCvPanel *self, const char *message);
void shepard_cv_panel_clear_optimisation (ShepardCvPanel *self);
ShepardObjective shepard_cv_panel_get_objective (ShepardCvPanel *self);
gboolean shepard_cv_panel_get_free_alphas (ShepardCvPanel *self);

G_END_DECLS
