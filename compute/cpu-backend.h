/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU backend: float64 reference and float32 fast path, on worker threads. */
#ifndef SHEPARD_CPU_BACKEND_H
#define SHEPARD_CPU_BACKEND_H

#include "cpu-kernels.h"
#include "even-grid.h"
#include "far-field.h"
#include "nearest-cache.h"
#include "point-set.h"

typedef struct {
  const shepard_point_set *points;
  const shepard_even_grid *grid;
  const shepard_cpu_kernels *kernels;
  shepard_precision precision;
  int threads;
  /* Set: interpolations weighing every point sum through it, within params->tolerance (shepard-engine.h,
   * "Far-field summation"); NULL: every pair. Cross-validation and explain never use it. */
  const shepard_far_field *far_field;
  /* Set: grids summed through the far field keep their cells' nearest search here (nearest-cache.h); NULL: none. */
  shepard_nearest_cache *nearest_cache;
} shepard_cpu_backend;

/* Queries are either the cell centres of a grid or explicit coordinates (in given units). */
typedef struct {
  const shepard_grid *grid;
  const double *x, *y;
  size_t count;
} shepard_query_set;

/* Cross-validation: the queries are the data points themselves, each predicted from the points outside its fold. */
typedef struct {
  /* Per data point, in the order given, padded to the point set's n_padded with UINT32_MAX and 64-byte aligned as the
   * SIMD kernels read it (the CUDA backend reads the first n); NULL: leave-one-out, each point its own fold. */
  const uint32_t *fold_of;
  uint32_t folds;          /* folds [0, large_folds) hold one point more than the others */
  uint32_t large_folds;
  /* AIDW's r_exp (given units) for the points outside a large fold and outside a small one (the same for LOO) */
  double r_exp_large_fold, r_exp_small_fold;
} shepard_holdout;

/* params are valid; r_exp is AIDW's expected nearest-neighbour distance in given units (ignored for IDW). Writes the
 * values of the first n_fields fields (1 .. the point set's n_fields), one plane each. */
shepard_status shepard_cpu_interpolate (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                                        const shepard_query_set *queries, size_t n_fields,
                                        const shepard_outputs *outputs, shepard_progress_fn progress,
                                        void *progress_data, shepard_error *error);

/* Predicts every data point from the points outside its fold: prediction and alpha (either may be NULL), n each.
 * params are valid and leave at least one point beyond the k nearest in every training set. */
shepard_status shepard_cpu_cross_validate (const shepard_cpu_backend *backend, const shepard_params *params,
                                           const shepard_holdout *holdout, double *prediction, double *alpha,
                                           shepard_progress_fn progress, void *progress_data, shepard_error *error);

/* Explains one query in float64 (shepard_engine_explain); r_exp in given units. */
shepard_status shepard_cpu_explain (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                                    double x, double y, shepard_contribution *listed, size_t capacity,
                                    shepard_explanation *explanation, shepard_error *error);

shepard_status shepard_cpu_nearest (const shepard_cpu_backend *backend, const double *query_x, const double *query_y,
                                    size_t n_queries, size_t k, double *squared_distances, size_t *indices,
                                    shepard_error *error);

#endif
