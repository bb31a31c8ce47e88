/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cross-validation.h"

#include "engine-internal.h"
#include "parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

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
shepard_cv_assign_folds (size_t n, size_t folds, uint64_t seed, uint32_t *fold_of)
{
  if (folds == 0)
    return;
  /* Shuffling the labels rather than the points needs no memory beyond fold_of, and keeps the fold sizes. */
  for (size_t i = 0; i < n; i++)
    fold_of[i] = (uint32_t) (i % folds);
  uint64_t state = seed;
  for (size_t i = n; i > 1; i--)
    {
      size_t j = (size_t) uniform_below (&state, (uint64_t) i);
      uint32_t swap = fold_of[i - 1];
      fold_of[i - 1] = fold_of[j];
      fold_of[j] = swap;
    }
}

/* The sums of the summary, in four lanes over i mod 4: each float64 addition then waits only for the previous one of
 * its lane, so that a chunk of residuals takes a fraction of a millisecond rather than one addition latency each. */
typedef struct {
  double residual, absolute, squares;
  size_t count;
} summary_sums;

static inline void
summary_add (summary_sums *sums, double residual)
{
  /* A point left without data by the neighbourhood's conditions (min_points, ...) has no residual to summarise. */
  if (isnan (residual))
    return;
  sums->count++;
  sums->residual += residual;
  sums->absolute += fabs (residual);
  sums->squares += residual * residual;
}

static summary_sums
summary_combine (summary_sums a, summary_sums b)
{
  return (summary_sums) { a.residual + b.residual, a.absolute + b.absolute, a.squares + b.squares,
                          a.count + b.count };
}

void
shepard_cv_describe_observed (const double *observed, size_t n, shepard_cv_observed *stats)
{
  double sum[4] = { 0 };
  size_t i = 0;
  for (; i + 4 <= n; i += 4)
    for (int lane = 0; lane < 4; lane++)
      sum[lane] += observed[i + lane];
  for (; i < n; i++)
    sum[0] += observed[i];
  double mean = ((sum[0] + sum[1]) + (sum[2] + sum[3])) / (double) n;
  double total[4] = { 0 };
  for (i = 0; i + 4 <= n; i += 4)
    for (int lane = 0; lane < 4; lane++)
      total[lane] += (observed[i + lane] - mean) * (observed[i + lane] - mean);
  for (; i < n; i++)
    total[0] += (observed[i] - mean) * (observed[i] - mean);
  *stats = (shepard_cv_observed) { .mean = mean, .total_squares = (total[0] + total[1]) + (total[2] + total[3]) };
}

/* A fixed chunk, whatever the thread count, so that the sums (combined in chunk order) are the same on every machine. */
#define FINISH_CHUNK ((size_t) 1 << 16)
/* Past a few threads the pass is bound by memory bandwidth, and more threads only cost their start. */
#define FINISH_MAX_THREADS 8

typedef struct {
  const double *observed;
  const shepard_point_set *points; /* the GPU's predictions are in field 0's local frame */
  const float *prediction32;
  double *prediction, *residual;
  summary_sums *chunk_sums;
} finish_job;

static bool
finish_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  const finish_job *job = context;
  summary_sums lane[4] = { { 0 } };
  for (size_t i = begin; i < end; i++)
    {
      double prediction = job->prediction32 ? shepard_point_set_value (job->points, 0, job->prediction32[i])
                                            : job->prediction[i];
      if (job->prediction32 && job->prediction)
        job->prediction[i] = prediction;
      double residual = prediction - job->observed[i];
      if (job->residual)
        job->residual[i] = residual;
      summary_add (&lane[(i - begin) & 3], residual);
    }
  job->chunk_sums[begin / FINISH_CHUNK] = summary_combine (summary_combine (lane[0], lane[1]),
                                                          summary_combine (lane[2], lane[3]));
  return true;
}

/* The observed mean and sum of squares over the points that have a prediction (NaN: no data). */
static shepard_cv_observed
observed_of_predicted (const double *observed, const double *prediction, const float *prediction32, size_t n)
{
  double sum = 0.0, squares = 0.0;
  size_t count = 0;
  for (size_t i = 0; i < n; i++)
    if (!isnan (prediction32 ? (double) prediction32[i] : prediction[i]))
      {
        sum += observed[i];
        count++;
      }
  double mean = count > 0 ? sum / (double) count : 0.0;
  for (size_t i = 0; i < n; i++)
    if (!isnan (prediction32 ? (double) prediction32[i] : prediction[i]))
      squares += (observed[i] - mean) * (observed[i] - mean);
  return (shepard_cv_observed) { .mean = mean, .total_squares = squares };
}

shepard_status
shepard_cv_finish (const double *observed, const shepard_cv_observed *stats, const shepard_point_set *points,
                   const float *prediction32, double *prediction, double *residual, size_t n, int threads,
                   shepard_cv_summary *summary, shepard_error *error)
{
  size_t chunks = (n + FINISH_CHUNK - 1) / FINISH_CHUNK;
  summary_sums single, *chunk_sums = chunks > 1 ? calloc (chunks, sizeof *chunk_sums) : &single;
  if (!chunk_sums)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to summarise %zu predictions.", n);
  finish_job job = { observed, points, prediction32, prediction, residual, chunk_sums };
  shepard_status status = SHEPARD_OK;
  if (chunks <= 1)
    finish_chunk (&job, 0, n, 0, error);
  else
    status = shepard_parallel_for (threads < FINISH_MAX_THREADS ? threads : FINISH_MAX_THREADS, n, FINISH_CHUNK,
                                   finish_chunk, &job, NULL, NULL, NULL, error);
  if (status == SHEPARD_OK)
    {
      summary_sums total = { 0 };
      for (size_t c = 0; c < chunks; c++)
        total = summary_combine (total, chunk_sums[c]);
      /* R^2 compares with the spread of the observed values that were predicted. */
      shepard_cv_observed predicted_stats = *stats;
      if (total.count < n && summary)
        predicted_stats = observed_of_predicted (observed, prediction, prediction32, n);
      double count = (double) total.count;
      if (summary)
        *summary = (shepard_cv_summary) {
          .n = total.count,
          .me = total.count > 0 ? total.residual / count : NAN,
          .mae = total.count > 0 ? total.absolute / count : NAN,
          .rmse = total.count > 0 ? sqrt (total.squares / count) : NAN,
          .r2 = predicted_stats.total_squares > 0.0 ? 1.0 - total.squares / predicted_stats.total_squares : NAN,
        };
    }
  if (chunk_sums != &single)
    free (chunk_sums);
  return status;
}

/* The folds as the backends take them: labels in the points' order, padded and aligned as the CPU kernels read the
 * points (NULL for leave-one-out, where a point's fold is its own slot); and r_exp per training-set size. */
static shepard_status
plan_holdout (shepard_engine *engine, const shepard_params *params, size_t folds, size_t fold_count, uint64_t seed,
              uint32_t **labels, shepard_holdout *holdout, shepard_error *error)
{
  const shepard_point_set *points = &engine->points;
  size_t n = points->n;
  *labels = NULL;
  *holdout = (shepard_holdout) { .folds = (uint32_t) fold_count, .large_folds = (uint32_t) (n % fold_count) };
  if (folds != SHEPARD_FOLDS_LEAVE_ONE_OUT)
    {
      *labels = aligned_alloc (64, (points->n_padded * sizeof **labels + 63) / 64 * 64);
      if (!*labels)
        return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the folds of %zu points.",
                             n);
      shepard_cv_assign_folds (n, fold_count, seed, *labels);
      for (size_t i = n; i < points->n_padded; i++)
        (*labels)[i] = UINT32_MAX;
      holdout->fold_of = *labels;
    }
  if (params->method != SHEPARD_METHOD_AIDW)
    return SHEPARD_OK;
  /* The region studied stays that of all n points; only the count a prediction rests on shrinks. */
  double area;
  shepard_status status = shepard_engine_study_area (engine, params, &area, error);
  if (status != SHEPARD_OK)
    return status;
  size_t large_training, small_training;
  shepard_cv_training_sizes (n, fold_count, &large_training, &small_training);
  holdout->r_exp_large_fold = shepard_engine_expected_distance_for (params, large_training, area) / points->scale;
  holdout->r_exp_small_fold = shepard_engine_expected_distance_for (params, small_training, area) / points->scale;
  return SHEPARD_OK;
}

shepard_status
shepard_engine_cross_validate (shepard_engine *engine, const shepard_params *params, size_t folds, uint64_t seed,
                               const shepard_cv_outputs *outputs, shepard_cv_summary *summary,
                               shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  if (!params)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The parameters are missing.");
  shepard_status status = shepard_params_validate (params, error);
  if (status != SHEPARD_OK)
    return status;
  if (!engine->has_points)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to cross-validate: load a layer "
                         "with at least 3 points.");
  size_t n = engine->points.n, fold_count;
  status = shepard_cv_fold_count (n, folds, params, &fold_count, error);
  if (status != SHEPARD_OK)
    return status;

  shepard_cv_outputs none = { 0 };
  if (!outputs)
    outputs = &none;
  uint32_t *labels = NULL;
  shepard_holdout holdout;
  status = plan_holdout (engine, params, folds, fold_count, seed, &labels, &holdout, error);
  bool on_gpu = false;
#if SHEPARD_HAVE_CUDA
  on_gpu = shepard_engine_runs_on_gpu (engine, params);
#endif
  /* The CPU needs somewhere to write its predictions; the GPU hands back float32 ones of its own. */
  double *prediction = outputs->prediction, *cpu_prediction = NULL;
  if (status == SHEPARD_OK && !on_gpu && !prediction)
    {
      prediction = cpu_prediction = malloc (n * sizeof *prediction);
      if (!prediction)
        status = shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to cross-validate %zu points.",
                               n);
    }
  const float *gpu_prediction = NULL;
  if (status == SHEPARD_OK)
    {
#if SHEPARD_HAVE_CUDA
      if (on_gpu)
        status = shepard_gpu_group_cross_validate (engine, params, &holdout, &gpu_prediction, outputs->alpha,
                                                   progress, progress_data, error);
      else
#endif
        {
          shepard_cpu_backend backend = shepard_engine_cpu_backend (engine);
          status = shepard_cpu_cross_validate (&backend, params, &holdout, prediction, outputs->alpha, progress,
                                               progress_data, error);
        }
    }
  const double *observed = engine->points.z_given;
  if (status == SHEPARD_OK)
    {
      if (!engine->observed_known)
        {
          shepard_cv_describe_observed (observed, n, &engine->observed);
          engine->observed_known = true;
        }
      status = shepard_cv_finish (observed, &engine->observed, &engine->points, gpu_prediction, prediction,
                                  outputs->residual, n, engine->threads, summary, error);
    }
  if (status == SHEPARD_OK && outputs->fold)
    for (size_t i = 0; i < n; i++)
      outputs->fold[i] = labels ? labels[i] : i;
  free (labels);
  free (cpu_prediction);
  return status;
}
