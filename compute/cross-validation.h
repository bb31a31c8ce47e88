/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Cross-validation's arithmetic around the backends: what a request may ask, the folds, and the summary. */
#ifndef SHEPARD_CROSS_VALIDATION_H
#define SHEPARD_CROSS_VALIDATION_H

#include "shepard-engine.h"

/* The number of folds a request means (n for leave-one-out), or an error for one the points cannot serve. */
shepard_status shepard_cv_fold_count (size_t n_points, size_t folds, const shepard_params *params,
                                      size_t *fold_count, shepard_error *error);

/* The sizes of the training sets: n minus the size of a large fold (ceil (n / folds)) and of a small one. */
void shepard_cv_training_sizes (size_t n_points, size_t fold_count, size_t *large_fold_training,
                                size_t *small_fold_training);

/* n, ME, MAE, RMSE and R^2 of predictions against observed values (residual = prediction - observed). */
void shepard_cv_summarise (const double *observed, const double *prediction, size_t n, shepard_cv_summary *summary);

#endif
