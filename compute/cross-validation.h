/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cross-validation around the backends: what a request may ask, the folds, the summary; the engine's entry point,
 * shepard_engine_cross_validate, is in cross-validation.c too. */
#ifndef SHEPARD_CROSS_VALIDATION_H
#define SHEPARD_CROSS_VALIDATION_H

#include "shepard-engine.h"
#include "point-set.h"

/* The number of folds a request means (n for leave-one-out), or an error for one the points cannot serve. */
shepard_status shepard_cv_fold_count (size_t n_points, size_t folds, const shepard_params *params,
                                      size_t *fold_count, shepard_error *error);

/* The sizes of the training sets: n minus the size of a large fold (ceil (n / folds)) and of a small one. */
void shepard_cv_training_sizes (size_t n_points, size_t fold_count, size_t *large_fold_training,
                                size_t *small_fold_training);

/* The observed values' mean and their sum of squares about it: R^2's denominator, one per layer. */
typedef struct {
  double mean, total_squares;
} shepard_cv_observed;

void shepard_cv_describe_observed (const double *observed, size_t n, shepard_cv_observed *stats);

/* One pass over the predictions: turns the GPU's float32 ones (prediction32, in field 0's local frame of points;
 * NULL when prediction already holds float64 in given units) into prediction (then may be NULL: the summary alone), writes residual (prediction - observed; may be
 * NULL), and gives n, ME, MAE, RMSE and R^2 (summary may be NULL) over the points that have a prediction: a NaN
 * one (no data under the neighbourhood's conditions) is left out of them. The sums do not depend on threads. */
shepard_status shepard_cv_finish (const double *observed, const shepard_cv_observed *stats,
                                  const shepard_point_set *points, const float *prediction32, double *prediction,
                                  double *residual, size_t n, int threads, shepard_cv_summary *summary,
                                  shepard_error *error);

#endif
