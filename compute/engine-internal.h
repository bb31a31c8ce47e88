/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine object's state and the steps its source files share (engine.c: the object, the points and
 * interpolation; device-grid.c: results kept on the GPU; cross-validation.c: cross-validation). Not public. */
#ifndef SHEPARD_ENGINE_INTERNAL_H
#define SHEPARD_ENGINE_INTERNAL_H

#include "shepard-compute-config.h"
#include "cpu-backend.h"
#include "cross-validation.h"
#include "engine-private.h"
#include "progress-span.h"
#if SHEPARD_HAVE_CUDA
#include "cuda-backend.h"
#endif

#include <stdbool.h>

struct shepard_engine {
  shepard_backend backend;
  shepard_precision precision;
  int threads;
  char description[256];
  char fallback_reason[224]; /* why "auto" runs on the CPU; empty otherwise */
  const shepard_cpu_kernels *kernels;
#if SHEPARD_HAVE_CUDA
  /* One backend per GPU of the engine's set (gpu-group.c); cuda is the first, which keeps device grids and the
   * single-query work; NULL on the CPU backend. */
  shepard_cuda_backend *cuda;
  shepard_cuda_backend *gpus[SHEPARD_MAX_GPUS];
  size_t n_gpus;
#endif
  bool has_points;
  size_t layer_n;    /* points of the whole layer: points.n, or more where the engine holds part of a layer */
  double hull_area;  /* of the points (or the whole layer's), once asked for; NAN until then */
  bool hull_unknown; /* part of a layer whose hull was not given */
  bool observed_known; /* whether observed holds the points' statistics, computed at the first cross-validation */
  shepard_cv_observed observed;
  shepard_point_set points;
  shepard_even_grid grid;
  shepard_far_field *far_field; /* built at the first interpolation that sums through it; NULL until then */
  shepard_nearest_cache nearest_cache; /* the nearest search of recent grids summed through the far field */
};

/* The CPU backend over the engine's points, summing every pair. */
shepard_cpu_backend shepard_engine_cpu_backend (const shepard_engine *engine);

/* The CPU backend for an interpolation of n_queries with params: with the far field (built here at its first use)
 * when shepard_engine_summation takes it. The build reports on the first part of *progress, which is left with the
 * rest for the interpolation. */
shepard_status shepard_engine_cpu_backend_for (shepard_engine *engine, const shepard_params *params, size_t n_queries,
                                               shepard_progress_span *progress, shepard_cpu_backend *backend,
                                               shepard_error *error);

/* Checks what every interpolation needs (valid parameters, points) and finds AIDW's r_exp (given units). */
shepard_status shepard_engine_prepare (shepard_engine *engine, const shepard_params *params, double *r_exp,
                                       shepard_error *error);

/* The area A of AIDW's study region by the parameters' area mode, over all the engine's points, in the points' local
 * frame (squared given units times scale^2), where no extent overflows. */
shepard_status shepard_engine_study_area (shepard_engine *engine, const shepard_params *params, double *area,
                                          shepard_error *error);

/* AIDW's r_exp for predictions made from n_points over the area A, by params->rexp (in the units of A's root). */
double shepard_engine_expected_distance_for (const shepard_params *params, size_t n_points, double area);

shepard_status shepard_engine_check_grid (const shepard_grid *grid, shepard_error *error);

#if SHEPARD_HAVE_CUDA
/* The engine's GPUs (gpu-group.c). Starts a backend on each GPU of set (NULL or empty: every visible one) into
 * engine->gpus and describes them into engine->description; on failure none is left. */
shepard_status shepard_gpu_group_start (shepard_engine *engine, const shepard_gpu_set *set, shepard_error *error);
/* shepard_gpus_start: the contexts of the chosen GPUs (NULL or empty: every visible one), on a thread each. */
void shepard_gpu_group_start_contexts (const shepard_gpu_set *set);
void shepard_gpu_group_free (shepard_engine *engine);
/* Copies the engine's points, or its far field's tree, to every GPU, each from its own thread. */
shepard_status shepard_gpu_group_set_points (shepard_engine *engine, shepard_error *error);
shepard_status shepard_gpu_group_set_far_field (shepard_engine *engine, shepard_error *error);
/* An interpolation into host outputs (params resolved by shepard_engine_gpu_params): its slices handed out to the
 * GPUs in turn, each GPU driven by its own thread, progress and cancel answered on the calling thread. */
shepard_status shepard_gpu_group_interpolate (shepard_engine *engine, const shepard_params *params, double r_exp,
                                              const shepard_query_set *queries, const shepard_outputs *outputs,
                                              shepard_progress_fn progress, void *progress_data,
                                              shepard_error *error);
/* A cross-validation, as shepard_cuda_cross_validate (*prediction in the first GPU's pinned memory): one GPU runs it
 * whole; several take slices of the sorted slots in turn, each GPU driven by its own thread, progress answered on the
 * calling thread and a cancel seen by every GPU between two launches. */
shepard_status shepard_gpu_group_cross_validate (shepard_engine *engine, const shepard_params *params,
                                                 const shepard_holdout *holdout, const float **prediction,
                                                 double *alpha, shepard_progress_fn progress, void *progress_data,
                                                 shepard_error *error);
#endif

#if SHEPARD_HAVE_CUDA
/* Whether params run on the engine's GPU: neighbourhoods beyond what the GPU keeps in registers run on the CPU. */
bool shepard_engine_runs_on_gpu (const shepard_engine *engine, const shepard_params *params);
/* params for the GPU's interpolation of n_queries: their summation resolved (shepard_engine_summation), and where that
 * is the far field, its tree built (on the first part of *progress, as shepard_engine_cpu_backend_for) and on the
 * device. */
shepard_status shepard_engine_gpu_params (shepard_engine *engine, const shepard_params *params, size_t n_queries,
                                          shepard_progress_span *progress, shepard_params *resolved,
                                          shepard_error *error);
#endif

#endif
