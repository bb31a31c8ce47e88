/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* What the optimiser minimises: a summary of the engine's cross-validation. */
typedef enum {
  SHEPARD_OBJECTIVE_RMSE,
  SHEPARD_OBJECTIVE_MAE,
} ShepardObjective;

/* Cross-validations an optimisation runs by default, the start's included. */
#define SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS 300

typedef struct {
  ShepardObjective objective; /* SHEPARD_OBJECTIVE_RMSE by default */
  gboolean free_alphas;       /* FALSE (default): keep alpha1 <= alpha2 <= ... <= alpha5 */
  size_t folds;               /* SHEPARD_FOLDS_LEAVE_ONE_OUT (default) or k-fold with this many folds */
  guint64 seed;               /* deals the folds of k-fold (the same folds for every evaluation) */
  guint max_evaluations;      /* 0: SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS */
} ShepardOptimiseOptions;

typedef struct {
  shepard_params start, best; /* best is start itself when nothing beat it */
  shepard_cv_summary start_summary, best_summary;
  double start_score, best_score; /* the objective: the summary's RMSE or MAE */
  guint evaluations;              /* cross-validations run, the start's included */
} ShepardOptimiseResult;

void shepard_optimise_options_init (ShepardOptimiseOptions *options);

/* The summary's RMSE or MAE. */
double shepard_objective_score (ShepardObjective objective, const shepard_cv_summary *summary);

/* "rmse" or "mae". */
const char *shepard_objective_name (ShepardObjective objective);

/* Tunes the parameters of start to minimise the cross-validation error of the engine's points (on the engine's
 * backend), with NLopt's BOBYQA inside bounds:
 *   IDW: the power p in [0.25, 8], after a coarse scan of p;
 *   AIDW: alpha1..alpha5 in [0.25, 8] (non-decreasing unless free_alphas), Rmin >= 0 and Rmax > Rmin up to beyond the
 *   largest density ratio R over the points' extent; then k by a scan of a few values around and beyond the start
 *   (below the training set size cross-validation allows, and at most 64, what the GPU runs, unless the start's k is
 *   larger), and the alphas and R thresholds again at the best k.
 * Bounds widen to take in the start. The method, neighbourhood, study area and r_exp mode stay the start's.
 * The result is never worse than the start: when nothing beats it, best is start.
 *
 * progress follows the engine's contract (fraction of the evaluation budget; only called on this thread, at least
 * every ~100 ms while a cross-validation runs) and may be NULL; returning false cancels within about that time.
 * Errors are in SHEPARD_APP_ERROR: CANCELLED when progress asked to stop, the engine's errors as
 * shepard_app_error_set_from_engine maps them (INVALID_PARAMETER for a start the engine refuses, fewer than 3 points
 * or a k too large for the folds; NO_POINTS for an engine without points). On failure *result is untouched. */
gboolean shepard_optimise (shepard_engine *engine, const shepard_params *start, const ShepardOptimiseOptions *options,
                           ShepardOptimiseResult *result, shepard_progress_fn progress, void *progress_data,
                           GError **error);

G_END_DECLS
