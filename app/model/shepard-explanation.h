/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Why the pinned point (x, y) gets its value under params (shepard_engine_explain): the listed nearest points with
 * their shares, the rest summed, and AIDW's r_obs, r_exp, R, mu and alpha. Immutable; reference counted. */
typedef struct {
  shepard_params params;
  double x, y;
  shepard_explanation explanation;
  shepard_contribution *listed; /* explanation.n_listed of them, nearest first */
  guint points_generation;
} ShepardExplanation;

#define SHEPARD_TYPE_EXPLANATION (shepard_explanation_get_type ())
GType shepard_explanation_get_type (void) G_GNUC_CONST;

/* Room for capacity listed points, for the engine to fill. */
ShepardExplanation *shepard_explanation_new (const shepard_params *params, double x, double y, size_t capacity);
ShepardExplanation *shepard_explanation_ref (ShepardExplanation *explanation);
void shepard_explanation_unref (ShepardExplanation *explanation);

/* How many of the nearest points the window lists and links to the pin for params: the k behind r_obs, the N
 * weighted (up to a readable 64), and at least a dozen for all-points weighting. */
size_t shepard_explanation_capacity_for (const shepard_params *params);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardExplanation, shepard_explanation_unref)

G_END_DECLS
