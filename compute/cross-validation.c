/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cross-validation.h"

#include "engine-private.h"

#include <math.h>
#include <stdint.h>

/* The fewest points cross-validation takes: with two, a prediction would rest on a single point. */
#define CV_MIN_POINTS 3

shepard_status
shepard_cv_fold_count (size_t n_points, size_t folds, const shepard_params *params, size_t *fold_count,
                       shepard_error *error)
{
  if (n_points < CV_MIN_POINTS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "Cross-validation needs at least %d data points, and the layer has %zu.", CV_MIN_POINTS,
                         n_points);
  if (n_points > UINT32_MAX)
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW,
                         "Cross-validation takes at most %u points, not %zu; validate a sample of them.",
                         (unsigned) UINT32_MAX, n_points);
  size_t count = folds == SHEPARD_FOLDS_LEAVE_ONE_OUT ? n_points : folds;
  if (count < 2 || count > n_points)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "k-fold cross-validation needs 2 to %zu folds (one per point at most), not %zu; or use "
                         "leave-one-out.", n_points, folds);
  size_t large_training, small_training;
  shepard_cv_training_sizes (n_points, count, &large_training, &small_training);
  if (params->method == SHEPARD_METHOD_AIDW && (size_t) params->k >= large_training)
    {
      if (folds == SHEPARD_FOLDS_LEAVE_ONE_OUT)
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "With leave-one-out each point is predicted from the other %zu, so AIDW's k must be "
                             "below %zu, not %d: lower k.", large_training, large_training, params->k);
      return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                           "With %zu folds the smallest training set holds %zu points, so AIDW's k must be below %zu, "
                           "not %d: lower k or use more folds.", count, large_training, large_training, params->k);
    }
  *fold_count = count;
  return SHEPARD_OK;
}

void
shepard_cv_training_sizes (size_t n_points, size_t fold_count, size_t *large_fold_training,
                           size_t *small_fold_training)
{
  size_t small = n_points / fold_count;
  size_t large = n_points % fold_count != 0 ? small + 1 : small;
  *large_fold_training = n_points - large;
  *small_fold_training = n_points - small;
}

/* SplitMix64 (Steele, Lea & Flood 2014): tiny, and the same sequence from a seed on every machine. */
static uint64_t
splitmix64_next (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return z ^ (z >> 31);
}

/* Uniform in [0, bound) without modulo bias: draws below 2^64 mod bound are redrawn. */
static uint64_t
uniform_below (uint64_t *state, uint64_t bound)
{
  uint64_t threshold = (0 - bound) % bound;
  for (;;)
    {
      uint64_t draw = splitmix64_next (state);
      if (draw >= threshold)
        return draw % bound;
    }
}

void
shepard_cv_assign_folds (size_t n, size_t folds, uint64_t seed, size_t *fold_of)
{
  if (folds == 0)
    return;
  /* Shuffling the labels rather than the points needs no memory beyond fold_of, and keeps the fold sizes. */
  for (size_t i = 0; i < n; i++)
    fold_of[i] = i % folds;
  uint64_t state = seed;
  for (size_t i = n; i > 1; i--)
    {
      size_t j = (size_t) uniform_below (&state, (uint64_t) i);
      size_t swap = fold_of[i - 1];
      fold_of[i - 1] = fold_of[j];
      fold_of[j] = swap;
    }
}

/* The sums of the summary, in four lanes over i mod 4: each float64 addition then waits only for the previous one of
 * its lane, so that a million residuals take a fraction of a millisecond rather than one addition latency each. */
typedef struct {
  double residual, absolute, squares, observed;
} summary_sums;

static inline void
summary_add (summary_sums *sums, double observed, double prediction)
{
  double residual = prediction - observed;
  sums->residual += residual;
  sums->absolute += fabs (residual);
  sums->squares += residual * residual;
  sums->observed += observed;
}

void
shepard_cv_summarise (const double *observed, const double *prediction, size_t n, shepard_cv_summary *summary)
{
  summary_sums a = { 0 }, b = { 0 }, c = { 0 }, d = { 0 };
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    {
      summary_add (&a, observed[i], prediction[i]);
      summary_add (&b, observed[i + 1], prediction[i + 1]);
      summary_add (&c, observed[i + 2], prediction[i + 2]);
      summary_add (&d, observed[i + 3], prediction[i + 3]);
    }
  for (; i < n; i++)
    summary_add (&a, observed[i], prediction[i]);
  double sum_residual = (a.residual + b.residual) + (c.residual + d.residual);
  double sum_absolute = (a.absolute + b.absolute) + (c.absolute + d.absolute);
  double sum_squares = (a.squares + b.squares) + (c.squares + d.squares);
  double mean_observed = ((a.observed + b.observed) + (c.observed + d.observed)) / (double) n;
  double total[4] = { 0 };
  for (i = 0; i + 4 <= n; i += 4)
    for (int lane = 0; lane < 4; lane++)
      total[lane] += (observed[i + lane] - mean_observed) * (observed[i + lane] - mean_observed);
  for (; i < n; i++)
    total[0] += (observed[i] - mean_observed) * (observed[i] - mean_observed);
  double total_squares = (total[0] + total[1]) + (total[2] + total[3]);
  *summary = (shepard_cv_summary) {
    .n = n,
    .me = sum_residual / (double) n,
    .mae = sum_absolute / (double) n,
    .rmse = sqrt (sum_squares / (double) n),
    .r2 = total_squares > 0.0 ? 1.0 - sum_squares / total_squares : NAN,
  };
}
