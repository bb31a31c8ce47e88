/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-optimiser.h"

#include <math.h>
#include <nlopt.h>
#include <string.h>

#include "shepard-app-error.h"

#define POWER_LOWER 0.25
#define POWER_UPPER 8.0
/* The largest k (and N) the GPU backend runs; beyond it a neighbourhood falls back to the CPU. */
#define GPU_MAX_K 64
/* The density ratio R is sampled on a grid of this many cells a side over the points' extent, for its bound. */
#define PROFILE_SIDE 32
/* Rmin and Rmax range up to this much beyond the largest R sampled: past it the membership saturates everywhere. */
#define R_HEADROOM 1.25
#define DIMENSIONS_MAX 7
/* A step that improves the score by less than this (relative) ends a search: below it the float32 paths' rounding
 * is all that changes. */
#define FTOL_REL 1e-9

static const double power_scan[] = { 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 4.0, 6.0 };
static const double k_scan_factors[] = { 0.5, 0.75, 1.5, 2.0, 3.0 };

typedef struct {
  shepard_engine *engine;
  const ShepardOptimiseOptions *options;
  shepard_progress_fn progress;
  void *progress_data;
  guint budget;
  guint evaluations;
  gboolean has_best;
  shepard_params best;
  shepard_cv_summary best_summary;
  double best_score;
  gboolean stopped;           /* cancelled or failed: no further evaluation runs */
  shepard_error engine_error; /* why, once stopped */
} Search;

void
shepard_optimise_options_init (ShepardOptimiseOptions *options)
{
  g_return_if_fail (options != NULL);

  *options = (ShepardOptimiseOptions) {
    .objective = SHEPARD_OBJECTIVE_RMSE,
    .folds = SHEPARD_FOLDS_LEAVE_ONE_OUT,
  };
}

double
shepard_objective_score (ShepardObjective objective, const shepard_cv_summary *summary)
{
  g_return_val_if_fail (summary != NULL, NAN);

  return objective == SHEPARD_OBJECTIVE_MAE ? summary->mae : summary->rmse;
}

const char *
shepard_objective_name (ShepardObjective objective)
{
  return objective == SHEPARD_OBJECTIVE_MAE ? "mae" : "rmse";
}

static bool
report_evaluation_progress (double fraction, const char *message, void *data)
{
  const Search *search = data;
  double done = ((double) search->evaluations + CLAMP (fraction, 0.0, 1.0)) / (double) search->budget;

  return search->progress (MIN (done, 1.0), "Optimising", search->progress_data);
}

static gboolean
stop_cancelled (Search *search)
{
  search->stopped = TRUE;
  search->engine_error.code = SHEPARD_ERROR_CANCELLED;
  g_strlcpy (search->engine_error.message, "Cancelled.", sizeof search->engine_error.message);
  return FALSE;
}

/* One cross-validation of params; the best so far is kept. FALSE once the search has stopped. */
static gboolean
evaluate (Search *search, const shepard_params *params, double *score)
{
  if (search->stopped)
    return FALSE;
  if (search->progress != NULL && !report_evaluation_progress (0.0, NULL, search))
    return stop_cancelled (search);

  shepard_cv_summary summary;
  if (shepard_engine_cross_validate (search->engine, params, search->options->folds, search->options->seed, NULL,
                                     &summary, search->progress != NULL ? report_evaluation_progress : NULL, search,
                                     &search->engine_error)
      != SHEPARD_OK)
    {
      search->stopped = TRUE;
      return FALSE;
    }
  search->evaluations++;
  *score = shepard_objective_score (search->options->objective, &summary);
  if (isnan (*score))
    *score = HUGE_VAL;
  /* Strictly better only: a tie keeps the earlier parameters, the start first of all. */
  if (!search->has_best || *score < search->best_score)
    {
      search->has_best = TRUE;
      search->best = *params;
      search->best_summary = summary;
      search->best_score = *score;
    }
  return TRUE;
}

static guint
evaluations_left (const Search *search)
{
  return search->budget > search->evaluations ? search->budget - search->evaluations : 0;
}

/* The continuous parameters as NLopt's vector x: IDW's power; or AIDW's five alphas (alpha1 and the four rises to
 * the next level when they must not decrease), Rmin, and Rmax - Rmin. */
typedef struct {
  Search *search;
  nlopt_opt optimiser;
  shepard_params base; /* what x leaves as it is: method, k, neighbourhood, area, r_exp */
  gboolean free_alphas;
  double alpha_upper;
  unsigned dimensions;
  double lower[DIMENSIONS_MAX], upper[DIMENSIONS_MAX], step[DIMENSIONS_MAX], tolerance[DIMENSIONS_MAX];
  double x[DIMENSIONS_MAX];
} Stage;

enum { X_R_MIN = 5, X_R_WIDTH = 6 };

static void
params_from_x (const Stage *stage, const double *x, shepard_params *params)
{
  *params = stage->base;
  if (params->method == SHEPARD_METHOD_IDW)
    {
      params->power = x[0];
      return;
    }
  double level = 0.0;
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      level = stage->free_alphas || i == 0 ? x[i] : level + x[i];
      params->alpha[i] = MIN (level, stage->alpha_upper);
    }
  params->r_min = x[X_R_MIN];
  params->r_max = x[X_R_MIN] + x[X_R_WIDTH];
}

static void
x_from_params (Stage *stage, const shepard_params *params)
{
  if (params->method == SHEPARD_METHOD_IDW)
    stage->x[0] = params->power;
  else
    {
      for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
        stage->x[i] = stage->free_alphas || i == 0 ? params->alpha[i] : params->alpha[i] - params->alpha[i - 1];
      stage->x[X_R_MIN] = params->r_min;
      stage->x[X_R_WIDTH] = params->r_max - params->r_min;
    }
  for (unsigned i = 0; i < stage->dimensions; i++)
    stage->x[i] = CLAMP (stage->x[i], stage->lower[i], stage->upper[i]);
}

static double
stage_objective (unsigned n, const double *x, double *gradient, void *data)
{
  Stage *stage = data;
  shepard_params params;
  double score = HUGE_VAL;

  params_from_x (stage, x, &params);
  if (!evaluate (stage->search, &params, &score))
    nlopt_force_stop (stage->optimiser);
  return score;
}

static void
set_dimension (Stage *stage, unsigned i, double lower, double upper, double step, double tolerance)
{
  stage->lower[i] = lower;
  stage->upper[i] = upper;
  stage->step[i] = MIN (step, 0.25 * (upper - lower));
  stage->tolerance[i] = tolerance;
}

/* Bounds of the power and the alphas: [0.25, 8], widened to take in the start's. */
typedef struct {
  double lower, upper;
  double r_upper; /* AIDW: Rmin and Rmax - Rmin at most this, at the stage's k */
} Bounds;

static void
plan_stage (Stage *stage, Search *search, const Bounds *bounds)
{
  const shepard_params *from = &search->best;

  stage->search = search;
  stage->base = *from;
  stage->free_alphas = search->options->free_alphas;
  stage->alpha_upper = bounds->upper;
  if (from->method == SHEPARD_METHOD_IDW)
    {
      stage->dimensions = 1;
      set_dimension (stage, 0, bounds->lower, bounds->upper, 0.25, 1e-7);
    }
  else
    {
      stage->dimensions = DIMENSIONS_MAX;
      for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
        {
          if (stage->free_alphas || i == 0)
            set_dimension (stage, i, bounds->lower, bounds->upper, 0.25, 1e-4);
          else
            set_dimension (stage, i, 0.0, bounds->upper - bounds->lower, 0.25, 1e-4);
        }
      double r_upper = MAX (bounds->r_upper, MAX (from->r_min, from->r_max - from->r_min));
      set_dimension (stage, X_R_MIN, 0.0, r_upper, 0.1 * r_upper, 1e-4 * r_upper);
      set_dimension (stage, X_R_WIDTH, MIN (1e-3 * r_upper, from->r_max - from->r_min), r_upper, 0.1 * r_upper,
                     1e-4 * r_upper);
    }
  x_from_params (stage, from);
}

/* A bounded local search (BOBYQA) from the best parameters so far, of at most budget evaluations. */
static gboolean
run_stage (Search *search, const Bounds *bounds, guint budget, GError **error)
{
  Stage stage = { 0 };

  plan_stage (&stage, search, bounds);
  budget = MIN (budget, evaluations_left (search));
  if (budget < 2)
    return TRUE;
  stage.optimiser = nlopt_create (NLOPT_LN_BOBYQA, stage.dimensions);
  if (stage.optimiser == NULL)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                           "Not enough memory to start the optimiser.");
      return FALSE;
    }
  nlopt_set_lower_bounds (stage.optimiser, stage.lower);
  nlopt_set_upper_bounds (stage.optimiser, stage.upper);
  nlopt_set_initial_step (stage.optimiser, stage.step);
  nlopt_set_xtol_abs (stage.optimiser, stage.tolerance);
  nlopt_set_ftol_rel (stage.optimiser, FTOL_REL);
  nlopt_set_maxeval (stage.optimiser, (int) budget);
  nlopt_set_min_objective (stage.optimiser, stage_objective, &stage);

  double minimum = HUGE_VAL;
  nlopt_result outcome = nlopt_optimize (stage.optimiser, stage.x, &minimum);
  nlopt_destroy (stage.optimiser);
  /* Round-off and forced stops end a search normally; the best point is kept by evaluate either way. */
  if (outcome == NLOPT_FAILURE || outcome == NLOPT_INVALID_ARGS || outcome == NLOPT_OUT_OF_MEMORY)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE, "The optimiser (NLopt BOBYQA) failed: %s.",
                   nlopt_result_to_string (outcome));
      return FALSE;
    }
  return TRUE;
}

static gboolean
scan_powers (Search *search, guint budget)
{
  double start = search->best.power;

  for (size_t i = 0; i < G_N_ELEMENTS (power_scan) && budget > 0; i++)
    {
      if (fabs (power_scan[i] - start) < 1e-9)
        continue;
      shepard_params params = search->best;
      params.power = power_scan[i];
      double score;
      if (!evaluate (search, &params, &score))
        return FALSE;
      budget--;
    }
  return TRUE;
}

/* The largest k cross-validation takes: below the size of the smallest training set (n - 1 for leave-one-out). */
static int
largest_k (size_t n, size_t folds, int start_k)
{
  size_t fold_count = folds == SHEPARD_FOLDS_LEAVE_ONE_OUT ? n : folds;
  size_t largest_fold = (n + fold_count - 1) / fold_count;
  size_t training = n - largest_fold;
  size_t limit = training >= 2 ? training - 1 : 1;

  limit = MIN (limit, (size_t) MAX (GPU_MAX_K, start_k));
  return (int) MIN (limit, (size_t) SHEPARD_MAX_NEIGHBORS);
}

/* The largest density ratio R = r_obs / r_exp at k over a grid of query points across the points' extent; 0 when
 * the engine cannot tell (then the start's thresholds set the bound). */
static double
largest_density_ratio (shepard_engine *engine, const shepard_params *params)
{
  enum { QUERIES = PROFILE_SIDE * PROFILE_SIDE };
  double x_min, y_min, x_max, y_max, r_exp = 0.0;
  shepard_error error = { 0 };

  if (shepard_engine_expected_distance (engine, params, &r_exp, &error) != SHEPARD_OK || !(r_exp > 0.0))
    return 0.0;
  shepard_engine_bounds (engine, &x_min, &y_min, &x_max, &y_max);
  g_autofree double *query_x = g_new (double, QUERIES);
  g_autofree double *query_y = g_new (double, QUERIES);
  for (int row = 0; row < PROFILE_SIDE; row++)
    for (int column = 0; column < PROFILE_SIDE; column++)
      {
        query_x[row * PROFILE_SIDE + column] = x_min + (column + 0.5) * (x_max - x_min) / PROFILE_SIDE;
        query_y[row * PROFILE_SIDE + column] = y_min + (row + 0.5) * (y_max - y_min) / PROFILE_SIDE;
      }
  size_t k = (size_t) params->k;
  g_autofree double *squared = g_new (double, QUERIES * k);
  if (shepard_engine_nearest (engine, query_x, query_y, QUERIES, params->k, squared, NULL, &error) != SHEPARD_OK)
    return 0.0;

  double largest = 0.0;
  for (size_t q = 0; q < QUERIES; q++)
    {
      double sum = 0.0;
      size_t counted = 0;
      for (size_t j = 0; j < k && isfinite (squared[q * k + j]); j++, counted++)
        sum += sqrt (squared[q * k + j]);
      if (counted > 0)
        largest = MAX (largest, sum / (double) counted / r_exp);
    }
  return largest;
}

static void
plan_bounds (shepard_engine *engine, const shepard_params *start, const shepard_params *at, Bounds *bounds)
{
  bounds->lower = POWER_LOWER;
  bounds->upper = POWER_UPPER;
  if (start->method == SHEPARD_METHOD_IDW)
    {
      bounds->lower = MIN (bounds->lower, start->power);
      bounds->upper = MAX (bounds->upper, start->power);
      return;
    }
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      bounds->lower = MIN (bounds->lower, start->alpha[i]);
      bounds->upper = MAX (bounds->upper, start->alpha[i]);
    }
  bounds->r_upper = MAX (R_HEADROOM * largest_density_ratio (engine, at), at->r_max);
}

/* The ratio of the CSR expectations of r_obs at two k: how R scales with k when r_exp does not (rexp=nearest). */
static double
density_ratio_scale (const shepard_params *params, size_t n, int from_k, int to_k)
{
  if (params->rexp == SHEPARD_REXP_KNN)
    return 1.0;
  return shepard_aidw_expected_knn_distance (n, 1.0, to_k) / shepard_aidw_expected_knn_distance (n, 1.0, from_k);
}

/* The alphas of a start that does not rise, raised where they fall: so that nothing the search tries breaks the
 * constraint, however the start does (the start itself may still come back, as the best, when nothing beats it). */
static void
make_alphas_rise (shepard_params *params)
{
  for (int level = 1; level < SHEPARD_AIDW_LEVELS; level++)
    params->alpha[level] = MAX (params->alpha[level], params->alpha[level - 1]);
}

/* Tries k around and beyond the best so far, its R thresholds moved along with the density ratio. */
static gboolean
scan_k (Search *search, size_t n, int largest)
{
  shepard_params around = search->best;
  if (!search->options->free_alphas)
    make_alphas_rise (&around);
  int tried[G_N_ELEMENTS (k_scan_factors)];
  size_t n_tried = 0;

  for (size_t i = 0; i < G_N_ELEMENTS (k_scan_factors) && evaluations_left (search) > 0; i++)
    {
      int k = CLAMP ((int) lround (around.k * k_scan_factors[i]), 1, largest);
      gboolean seen = k == around.k;
      for (size_t j = 0; j < n_tried; j++)
        seen = seen || tried[j] == k;
      if (seen)
        continue;
      tried[n_tried++] = k;

      shepard_params params = around;
      double scale = density_ratio_scale (&around, n, around.k, k);
      params.k = k;
      params.r_min = around.r_min * scale;
      params.r_max = around.r_max * scale;
      double score;
      if (!evaluate (search, &params, &score))
        return FALSE;
    }
  return TRUE;
}

static gboolean
optimise_idw (Search *search, GError **error)
{
  Bounds bounds;
  guint scan_budget = MIN ((guint) G_N_ELEMENTS (power_scan), evaluations_left (search) / 3);

  plan_bounds (search->engine, &search->best, &search->best, &bounds);
  if (!scan_powers (search, scan_budget))
    return TRUE;
  return run_stage (search, &bounds, evaluations_left (search), error);
}

static gboolean
optimise_aidw (Search *search, GError **error)
{
  const shepard_params start = search->best;
  size_t n = search->best_summary.n;
  int largest = largest_k (n, search->options->folds, start.k);
  guint scan_budget = G_N_ELEMENTS (k_scan_factors);
  Bounds bounds;

  if (evaluations_left (search) < 2 * scan_budget + 4)
    scan_budget = 0;
  plan_bounds (search->engine, &start, &search->best, &bounds);
  if (!run_stage (search, &bounds, (evaluations_left (search) - scan_budget) / 2, error))
    return FALSE;
  if (scan_budget == 0 || search->stopped)
    return TRUE;
  int k_before = search->best.k;
  if (!scan_k (search, n, largest))
    return TRUE;
  if (search->best.k != k_before)
    plan_bounds (search->engine, &start, &search->best, &bounds);
  return run_stage (search, &bounds, evaluations_left (search), error);
}

gboolean
shepard_optimise (shepard_engine *engine, const shepard_params *start, const ShepardOptimiseOptions *options,
                  ShepardOptimiseResult *result, shepard_progress_fn progress, void *progress_data, GError **error)
{
  g_return_val_if_fail (engine != NULL && start != NULL && result != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ShepardOptimiseOptions defaults;
  if (options == NULL)
    {
      shepard_optimise_options_init (&defaults);
      options = &defaults;
    }
  Search search = {
    .engine = engine,
    .options = options,
    .progress = progress,
    .progress_data = progress_data,
    .budget = options->max_evaluations > 0 ? options->max_evaluations : SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS,
  };
  double start_score;
  if (!evaluate (&search, start, &start_score))
    {
      shepard_app_error_set_from_engine (error, &search.engine_error);
      return FALSE;
    }
  shepard_cv_summary start_summary = search.best_summary;

  gboolean searched = start->method == SHEPARD_METHOD_IDW ? optimise_idw (&search, error)
                                                           : optimise_aidw (&search, error);
  if (!searched)
    return FALSE;
  if (!search.stopped && progress != NULL && !progress (1.0, "Optimising", progress_data))
    stop_cancelled (&search);
  if (search.stopped)
    {
      shepard_app_error_set_from_engine (error, &search.engine_error);
      return FALSE;
    }

  *result = (ShepardOptimiseResult) {
    .start = *start,
    .best = search.best,
    .start_summary = start_summary,
    .best_summary = search.best_summary,
    .start_score = start_score,
    .best_score = search.best_score,
    .evaluations = search.evaluations,
  };
  return TRUE;
}
