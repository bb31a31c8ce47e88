/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine object: backend choice, the points and their search grid, interpolation and explanation, and the
 * validation of every call. Results kept on the GPU are in device-grid.c, cross-validation in cross-validation.c. */
#include "engine-internal.h"
#include "parallel.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *
precision_name (shepard_precision precision)
{
  return precision == SHEPARD_PRECISION_FLOAT64 ? "float64" : "float32";
}

shepard_engine *
shepard_engine_new (shepard_backend backend, shepard_precision precision, int threads, shepard_error *error)
{
  return shepard_engine_new_on_gpus (backend, precision, threads, NULL, error);
}

shepard_engine *
shepard_engine_new_on_gpus (shepard_backend backend, shepard_precision precision, int threads,
                            const shepard_gpu_set *gpus, shepard_error *error)
{
  if (precision != SHEPARD_PRECISION_FLOAT32 && precision != SHEPARD_PRECISION_FLOAT64)
    {
      shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "Unknown precision %d.", (int) precision);
      return NULL;
    }
  if (threads < 0)
    {
      shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The thread count must be 0 (every core) or more, not %d.",
                    threads);
      return NULL;
    }

  const char *fallback_reason = NULL;
#if SHEPARD_HAVE_CUDA
  char reason[224];
#endif
  switch (backend)
    {
    case SHEPARD_BACKEND_CPU:
      break;
    case SHEPARD_BACKEND_AUTO:
    case SHEPARD_BACKEND_CUDA:
#if SHEPARD_HAVE_CUDA
      if (precision == SHEPARD_PRECISION_FLOAT64)
        {
          if (backend == SHEPARD_BACKEND_CUDA)
            {
              shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                            "The CUDA backend computes in float32; use the CPU backend for float64.");
              return NULL;
            }
          fallback_reason = "float64 runs on the CPU";
          break;
        }
      {
        shepard_engine *engine = calloc (1, sizeof *engine);
        if (!engine)
          {
            shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the interpolation engine.");
            return NULL;
          }
        shepard_error cuda_error = { SHEPARD_OK, "" };
        if (shepard_gpu_group_start (engine, gpus, &cuda_error) == SHEPARD_OK)
          {
            engine->backend = SHEPARD_BACKEND_CUDA;
            engine->precision = SHEPARD_PRECISION_FLOAT32;
            engine->threads = threads > 0 ? threads : shepard_cpu_count ();
            engine->kernels = shepard_cpu_kernels_select ();
            return engine;
          }
        free (engine);
        if (backend == SHEPARD_BACKEND_CUDA)
          {
            if (error)
              *error = cuda_error;
            return NULL;
          }
        snprintf (reason, sizeof reason, "no CUDA: %.200s", cuda_error.message);
        fallback_reason = reason;
      }
#else
      (void) gpus;
      if (backend == SHEPARD_BACKEND_CUDA)
        {
          shepard_fail (error, SHEPARD_ERROR_NO_DEVICE,
                        "This build of Shepard has no CUDA backend (it was built without nvcc); use the CPU backend.");
          return NULL;
        }
      fallback_reason = "this build has no CUDA backend";
#endif
      break;
    default:
      shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "Unknown backend %d.", (int) backend);
      return NULL;
    }

  shepard_engine *engine = calloc (1, sizeof *engine);
  if (!engine)
    {
      shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the interpolation engine.");
      return NULL;
    }
  engine->backend = SHEPARD_BACKEND_CPU;
  engine->precision = precision;
  engine->threads = threads > 0 ? threads : shepard_cpu_count ();
  engine->kernels = shepard_cpu_kernels_select ();
  int length = snprintf (engine->description, sizeof engine->description, "CPU, %d thread%s, %s", engine->threads,
                         engine->threads == 1 ? "" : "s", precision_name (precision));
  if (precision == SHEPARD_PRECISION_FLOAT32 && length > 0 && (size_t) length < sizeof engine->description)
    length += snprintf (engine->description + length, sizeof engine->description - (size_t) length, " %s",
                        engine->kernels->isa_name);
  if (fallback_reason)
    {
      snprintf (engine->fallback_reason, sizeof engine->fallback_reason, "%s", fallback_reason);
      if (length > 0 && (size_t) length < sizeof engine->description)
        snprintf (engine->description + length, sizeof engine->description - (size_t) length, " (%s)",
                  fallback_reason);
    }
  return engine;
}

static void
clear_points (shepard_engine *engine)
{
  if (engine->has_points)
    {
      shepard_point_set_clear (&engine->points);
      shepard_even_grid_clear (&engine->grid);
      shepard_far_field_free (engine->far_field);
      engine->far_field = NULL;
      shepard_nearest_cache_clear (&engine->nearest_cache);
      engine->has_points = false;
    }
}

void
shepard_engine_free (shepard_engine *engine)
{
  if (!engine)
    return;
  clear_points (engine);
#if SHEPARD_HAVE_CUDA
  shepard_gpu_group_free (engine);
#endif
  free (engine);
}

const char *
shepard_engine_describe (const shepard_engine *engine)
{
  return engine->description;
}

const char *
shepard_engine_fallback_reason (const shepard_engine *engine)
{
  return engine->fallback_reason[0] != '\0' ? engine->fallback_reason : NULL;
}

shepard_backend
shepard_engine_backend (const shepard_engine *engine)
{
  return engine->backend;
}

shepard_status
shepard_engine_set_points (shepard_engine *engine, const double *x, const double *y, const double *z,
                           size_t n_points, shepard_error *error)
{
  const double *const fields[1] = { z };
  return shepard_engine_set_points_fields (engine, x, y, z ? fields : NULL, 1, n_points, error);
}

static shepard_status set_points (shepard_engine *engine, const double *x, const double *y, const double *const *z,
                                  size_t n_fields, size_t n_points, const shepard_layer_extent *whole,
                                  shepard_error *error);

shepard_status
shepard_engine_set_points_fields (shepard_engine *engine, const double *x, const double *y, const double *const *z,
                                  size_t n_fields, size_t n_points, shepard_error *error)
{
  return set_points (engine, x, y, z, n_fields, n_points, NULL, error);
}

shepard_status
shepard_engine_set_points_part (shepard_engine *engine, const double *x, const double *y, const double *const *z,
                                size_t n_fields, size_t n_points, const shepard_layer_extent *whole,
                                shepard_error *error)
{
  if (!whole)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The whole layer's extent is missing.");
  return set_points (engine, x, y, z, n_fields, n_points, whole, error);
}

/* whole: NULL where these are all the points (shepard-engine.h, "Part of a larger layer"). */
static shepard_status
set_points (shepard_engine *engine, const double *x, const double *y, const double *const *z, size_t n_fields,
            size_t n_points, const shepard_layer_extent *whole, shepard_error *error)
{
  clear_points (engine);
  if (n_points > 0 && (!x || !y || !z))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The point coordinate and value arrays are missing.");
  if (n_fields < 1 || n_fields > SHEPARD_MAX_FIELDS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "Give 1 to %d value fields, not %zu.",
                         SHEPARD_MAX_FIELDS, n_fields);
  for (size_t f = 0; n_points > 0 && f < n_fields; f++)
    if (!z[f])
      return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The values of field %zu are missing.", f + 1);
  shepard_status status = whole ? shepard_point_set_init_part (&engine->points, x, y, z, n_fields, n_points, whole,
                                                                 error)
                                : shepard_point_set_init (&engine->points, x, y, z, n_fields, n_points, error);
  if (status != SHEPARD_OK)
    return status;
  if (whole)
    {
      const shepard_point_set *set = &engine->points;
      double box[4] = { shepard_point_set_local (set->x_min, set->origin_x, set->scale),
                        shepard_point_set_local (set->y_min, set->origin_y, set->scale),
                        shepard_point_set_local (set->x_max, set->origin_x, set->scale),
                        shepard_point_set_local (set->y_max, set->origin_y, set->scale) };
      status = shepard_even_grid_build_in (&engine->grid, set->x, set->y, n_points, box, whole->n, error);
    }
  else
    status = shepard_even_grid_build (&engine->grid, engine->points.x, engine->points.y, n_points, error);
#if SHEPARD_HAVE_CUDA
  if (status == SHEPARD_OK && engine->cuda)
    {
      status = shepard_gpu_group_set_points (engine, error);
      if (status != SHEPARD_OK)
        shepard_even_grid_clear (&engine->grid);
    }
#endif
  if (status != SHEPARD_OK)
    {
      shepard_point_set_clear (&engine->points);
      return status;
    }
  engine->has_points = true;
  engine->layer_n = whole ? whole->n : n_points;
  engine->hull_area = NAN;
  engine->hull_unknown = whole && whole->hull_count == 0;
  if (whole && whole->hull_count > 0)
    engine->hull_area = shepard_point_set_hull_area_of (&engine->points, whole->hull_x, whole->hull_y,
                                                        whole->hull_count);
  engine->observed_known = false;
  return SHEPARD_OK;
}

size_t
shepard_engine_n_fields (const shepard_engine *engine)
{
  return engine->has_points ? engine->points.n_fields : 0;
}

void
shepard_engine_bounds (const shepard_engine *engine, double *x_min, double *y_min, double *x_max, double *y_max)
{
  bool known = engine->has_points;
  *x_min = known ? engine->points.x_min : NAN;
  *y_min = known ? engine->points.y_min : NAN;
  *x_max = known ? engine->points.x_max : NAN;
  *y_max = known ? engine->points.y_max : NAN;
}

shepard_cpu_backend
shepard_engine_cpu_backend (const shepard_engine *engine)
{
  return (shepard_cpu_backend) {
    &engine->points, &engine->grid, engine->kernels, engine->precision, engine->threads, NULL, NULL,
  };
}

/* The expected costs that choose the summation (SHEPARD_SUMMATION_AUTO), in nanoseconds of one thread, measured with
 * shepard-bench-far-field and shepard-bench-cpu (100K points, AIDW): a pair of the brute force, a query of the far
 * field per doubling of the points (at tolerance 1e-6), a point of the tree's build (thread time). */
#define BRUTE_FLOAT32_NS_PER_PAIR 1.4
#define BRUTE_FLOAT64_NS_PER_PAIR 4.0
#define FAR_FIELD_NS_PER_QUERY_DOUBLING 250.0
#define FAR_FIELD_BUILD_NS_PER_POINT 1300.0
/* The same on the GPU, in nanoseconds of the device: a pair of its brute force (shepard-bench-cuda, H200: 2.2e12 pairs
 * a second) and a query of its far field per doubling of the points (shepard-bench-cuda-far-field --scaling, H100: 0.5
 * to 1.6). */
#define GPU_BRUTE_NS_PER_PAIR 5e-4
#define GPU_FAR_FIELD_NS_PER_QUERY_DOUBLING 1.0

static bool
far_field_applies (const shepard_params *params)
{
  if (!shepard_params_weight_all_points (params) || params->smoothing != 0.0)
    return false;
  if (params->method == SHEPARD_METHOD_IDW)
    return params->power <= SHEPARD_FAR_FIELD_MAX_POWER;
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    if (params->alpha[level] > SHEPARD_FAR_FIELD_MAX_POWER)
      return false;
  return true;
}

/* The expected cost of summing n_queries through the far field (the tree's build apart) and by brute force, in
 * nanoseconds of one CPU thread, or of the device where params run on a GPU. */
typedef struct {
  double build_ns, far_ns, brute_ns;
} summation_costs;

static summation_costs
costs_for (const shepard_engine *engine, const shepard_params *params, size_t n_queries)
{
  double n = (double) engine->points.n, queries = (double) n_queries;
  /* Looser tolerances accept nearer nodes: about a fifth less work per decade. */
  double work = fmax (0.3, 1.0 + 0.2 * log10 (SHEPARD_FAR_FIELD_TOLERANCE / params->tolerance)) * log2 (fmax (n, 2.0));
  /* The tree is built once, on the engine's CPU threads: about one thread's time in all, spread over them. Against the
   * GPU the build's wall time counts, which more threads shorten little: 1M points took 1.5 s on one thread and 0.5 s
   * on the H100 host's 16 (its top levels are built on one): counted as one thread's all the same. */
  double build_ns = n * FAR_FIELD_BUILD_NS_PER_POINT;
#if SHEPARD_HAVE_CUDA
  if (shepard_engine_runs_on_gpu (engine, params))
    return (summation_costs) { build_ns, queries * GPU_FAR_FIELD_NS_PER_QUERY_DOUBLING * work,
                               queries * n * GPU_BRUTE_NS_PER_PAIR };
#endif
  double pair_ns = engine->precision == SHEPARD_PRECISION_FLOAT32 ? BRUTE_FLOAT32_NS_PER_PAIR
                                                                  : BRUTE_FLOAT64_NS_PER_PAIR;
  return (summation_costs) { build_ns, queries * FAR_FIELD_NS_PER_QUERY_DOUBLING * work, queries * n * pair_ns };
}

static shepard_summation
summation_for (const shepard_engine *engine, const shepard_params *params, size_t n_queries, bool tree_built)
{
  if (!engine->has_points || params->summation == SHEPARD_SUMMATION_EXACT || !far_field_applies (params))
    return SHEPARD_SUMMATION_EXACT;
  if (params->summation == SHEPARD_SUMMATION_FAR_FIELD)
    return SHEPARD_SUMMATION_FAR_FIELD;
  summation_costs costs = costs_for (engine, params, n_queries);
  double far_ns = costs.far_ns + (tree_built ? 0.0 : costs.build_ns);
  return far_ns < costs.brute_ns ? SHEPARD_SUMMATION_FAR_FIELD : SHEPARD_SUMMATION_EXACT;
}

shepard_summation
shepard_engine_summation (const shepard_engine *engine, const shepard_params *params, size_t n_queries)
{
  return summation_for (engine, params, n_queries, engine->far_field != NULL);
}

shepard_summation
shepard_engine_summation_with_tree (const shepard_engine *engine, const shepard_params *params, size_t n_queries)
{
  return summation_for (engine, params, n_queries, true);
}

shepard_status
shepard_engine_prepare_far_field (shepard_engine *engine, shepard_progress_fn progress, void *progress_data,
                                  shepard_error *error)
{
  if (!engine->has_points)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to build the far field over: "
                         "load a layer with at least one point.");
  if (!engine->far_field)
    {
      shepard_status status = shepard_far_field_new (&engine->points, engine->threads, progress, progress_data,
                                                     &engine->far_field, error);
      if (status != SHEPARD_OK)
        return status;
    }
#if SHEPARD_HAVE_CUDA
  if (engine->cuda)
    return shepard_gpu_group_set_far_field (engine, error);
#endif
  return SHEPARD_OK;
}

/* The far field for an interpolation of n_queries with params, built now if it is not yet: the build is the first
 * stage of the interpolation's progress, its share the build's part of the expected time, and *progress is left with
 * the rest. */
static shepard_status
prepare_far_field_first (shepard_engine *engine, const shepard_params *params, size_t n_queries,
                         shepard_progress_span *progress, shepard_error *error)
{
  if (engine->far_field)
    return shepard_engine_prepare_far_field (engine, NULL, NULL, error);
  summation_costs costs = costs_for (engine, params, n_queries);
  double build_share = costs.build_ns / (costs.build_ns + costs.far_ns);
  shepard_progress_span build = shepard_progress_span_part (progress, 0.0, build_share);
  shepard_status status = shepard_engine_prepare_far_field (engine, shepard_progress_span_fn (&build), &build, error);
  *progress = shepard_progress_span_part (progress, build_share, 1.0);
  return status;
}

shepard_status
shepard_engine_cpu_backend_for (shepard_engine *engine, const shepard_params *params, size_t n_queries,
                                shepard_progress_span *progress, shepard_cpu_backend *backend, shepard_error *error)
{
  *backend = shepard_engine_cpu_backend (engine);
  if (shepard_engine_summation (engine, params, n_queries) != SHEPARD_SUMMATION_FAR_FIELD)
    return SHEPARD_OK;
  shepard_status status = prepare_far_field_first (engine, params, n_queries, progress, error);
  if (status != SHEPARD_OK)
    return status;
  backend->far_field = engine->far_field;
  backend->nearest_cache = &engine->nearest_cache;
  return SHEPARD_OK;
}

shepard_status
shepard_engine_study_area (shepard_engine *engine, const shepard_params *params, double *area, shepard_error *error)
{
  const shepard_point_set *points = &engine->points;
  const char *which;
  double scale = points->scale;
  switch (params->area_mode)
    {
    case SHEPARD_AREA_GIVEN:
      *area = params->area * scale * scale;
      return SHEPARD_OK;
    case SHEPARD_AREA_CONVEX_HULL:
      if (engine->hull_unknown)
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "AIDW's area=hull needs the whole layer's convex hull, which was not given with this "
                             "part of the layer; give it, or use area=bbox or area=A.");
      /* Sorting a million points per call would slow every parameter change: the hull waits for new points. */
      if (isnan (engine->hull_area))
        engine->hull_area = shepard_point_set_hull_area (points);
      *area = engine->hull_area;
      which = "convex hull";
      if (isnan (*area))
        return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to compute the convex hull.");
      break;
    case SHEPARD_AREA_BOUNDING_BOX:
    default:
      /* From halves, in the local frame: the extent of points near +-DBL_MAX overflows in given units. */
      *area = (0.5 * points->x_max - 0.5 * points->x_min) * (2.0 * scale)
              * ((0.5 * points->y_max - 0.5 * points->y_min) * (2.0 * scale));
      which = "bounding rectangle";
      break;
    }
  if (points->collinear)
    return shepard_fail (error, SHEPARD_ERROR_DEGENERATE_AREA,
                         "AIDW needs the area of the study region, but the %zu data point%s lie%s on one line or at "
                         "one spot and span no area. Give the study area in square map units (area=A).",
                         points->n, points->n == 1 ? "" : "s", points->n == 1 ? "s" : "");
  if (!(*area > 0.0))
    return shepard_fail (error, SHEPARD_ERROR_DEGENERATE_AREA,
                         "AIDW needs the area of the study region, but the data points' %s has no area. Give the "
                         "study area in square map units (area=A).", which);
  return SHEPARD_OK;
}

double
shepard_engine_expected_distance_for (const shepard_params *params, size_t n_points, double area)
{
  if (params->rexp == SHEPARD_REXP_KNN)
    {
      int k = (size_t) params->k < n_points ? params->k : (int) n_points;
      return shepard_aidw_expected_knn_distance (n_points, area, k);
    }
  return shepard_aidw_expected_distance (n_points, area);
}

static shepard_status
expected_distance (shepard_engine *engine, const shepard_params *params, double *r_exp, shepard_error *error)
{
  double area;
  shepard_status status = shepard_engine_study_area (engine, params, &area, error);
  if (status == SHEPARD_OK)
    *r_exp = shepard_engine_expected_distance_for (params, engine->layer_n, area) / engine->points.scale;
  return status;
}

shepard_status
shepard_engine_prepare (shepard_engine *engine, const shepard_params *params, double *r_exp, shepard_error *error)
{
  shepard_status status = shepard_params_validate (params, error);
  if (status != SHEPARD_OK)
    return status;
  if (!engine->has_points)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to interpolate: load a layer "
                         "with at least one point.");
  *r_exp = 0.0;
  if (params->method == SHEPARD_METHOD_AIDW)
    return expected_distance (engine, params, r_exp, error);
  return SHEPARD_OK;
}

#if SHEPARD_HAVE_CUDA
bool
shepard_engine_runs_on_gpu (const shepard_engine *engine, const shepard_params *params)
{
  /* Quadrant caps that bind (below max_points, or with no max_points) need four lists of the cap in local memory. */
  int per_quadrant = params->max_points_per_quadrant;
  bool caps_bind = per_quadrant > 0 && (params->neighbors == SHEPARD_NEIGHBORS_ALL || per_quadrant < params->neighbors);
  return engine->cuda && params->neighbors <= SHEPARD_CUDA_MAX_NEIGHBORS
         && (params->method != SHEPARD_METHOD_AIDW || params->k <= SHEPARD_CUDA_MAX_NEIGHBORS)
         && (!caps_bind || per_quadrant <= SHEPARD_CUDA_MAX_QUADRANT_POINTS);
}

shepard_status
shepard_engine_gpu_params (shepard_engine *engine, const shepard_params *params, size_t n_queries,
                           shepard_progress_span *progress, shepard_params *resolved, shepard_error *error)
{
  *resolved = *params;
  resolved->summation = shepard_engine_summation (engine, params, n_queries);
  if (resolved->summation != SHEPARD_SUMMATION_FAR_FIELD)
    return SHEPARD_OK;
  return prepare_far_field_first (engine, params, n_queries, progress, error);
}
#endif

static shepard_status
interpolate (shepard_engine *engine, const shepard_params *params, const shepard_query_set *queries,
             const shepard_outputs *outputs, shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  if (!params || !outputs || !outputs->values)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The parameters or the output buffer are missing.");
  double r_exp = 0.0;
  shepard_status status = shepard_engine_prepare (engine, params, &r_exp, error);
  if (status != SHEPARD_OK)
    return status;
  shepard_progress_span rest = shepard_progress_span_whole (progress, progress_data);
#if SHEPARD_HAVE_CUDA
  if (shepard_engine_runs_on_gpu (engine, params))
    {
      shepard_params resolved;
      status = shepard_engine_gpu_params (engine, params, queries->count, &rest, &resolved, error);
      if (status != SHEPARD_OK)
        return status;
      return shepard_gpu_group_interpolate (engine, &resolved, r_exp, queries, outputs,
                                            shepard_progress_span_fn (&rest), &rest, error);
    }
#endif
  shepard_cpu_backend backend;
  status = shepard_engine_cpu_backend_for (engine, params, queries->count, &rest, &backend, error);
  if (status != SHEPARD_OK)
    return status;
  return shepard_cpu_interpolate (&backend, params, r_exp, queries, engine->points.n_fields, outputs,
                                  shepard_progress_span_fn (&rest), &rest, error);
}

shepard_status
shepard_engine_check_grid (const shepard_grid *grid, shepard_error *error)
{
  if (!grid)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The grid is missing.");
  if (grid->width == 0 || grid->height == 0)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The grid must be at least 1 x 1 cells, not %zu x %zu.",
                         grid->width, grid->height);
  if (!isfinite (grid->x_min) || !isfinite (grid->y_max) || !isfinite (grid->dx) || !isfinite (grid->dy)
      || grid->dx <= 0.0 || grid->dy <= 0.0)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The grid's origin must be finite and its cell size positive (dx %g, dy %g).", grid->dx,
                         grid->dy);
  /* The far edges as the cell centres are computed (origin + cells * size): past the largest double there are no
   * such cells. */
  double width = (double) (grid->first_column + grid->width) * grid->dx;
  double height = (double) (grid->first_row + grid->height) * grid->dy;
  if (!isfinite (width) || !isfinite (height) || !isfinite (grid->x_min + width) || !isfinite (grid->y_max - height))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The grid's cells reach beyond the largest number a coordinate can hold (x from %g by %zu "
                         "cells of %g, y from %g by %zu cells of %g); choose a smaller extent or cell size.",
                         grid->x_min, grid->first_column + grid->width, grid->dx, grid->y_max,
                         grid->first_row + grid->height, grid->dy);
  size_t cells, bytes;
  if (!shepard_size_mul (grid->width, grid->height, &cells) || !shepard_size_mul (cells, sizeof (double), &bytes))
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW,
                         "A grid of %zu x %zu cells is too large to address; compute it in smaller blocks.",
                         grid->width, grid->height);
  return SHEPARD_OK;
}

shepard_status
shepard_engine_interpolate_grid (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                                 const shepard_outputs *outputs, shepard_progress_fn progress, void *progress_data,
                                 shepard_error *error)
{
  shepard_status status = shepard_engine_check_grid (grid, error);
  if (status != SHEPARD_OK)
    return status;
  shepard_query_set queries = { .grid = grid, .count = grid->width * grid->height };
  return interpolate (engine, params, &queries, outputs, progress, progress_data, error);
}

shepard_status
shepard_engine_interpolate_points (shepard_engine *engine, const shepard_params *params, const double *query_x,
                                   const double *query_y, size_t n_queries, const shepard_outputs *outputs,
                                   shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  if (n_queries > 0 && (!query_x || !query_y))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The query coordinates are missing.");
  for (size_t i = 0; i < n_queries; i++)
    if (!isfinite (query_x[i]) || !isfinite (query_y[i]))
      return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                           "Query point %zu has a coordinate that is not a finite number.", i);
  shepard_query_set queries = { .x = query_x, .y = query_y, .count = n_queries };
  return interpolate (engine, params, &queries, outputs, progress, progress_data, error);
}

shepard_status
shepard_engine_nearest (shepard_engine *engine, const double *query_x, const double *query_y, size_t n_queries,
                        int k, double *squared_distances, size_t *indices, shepard_error *error)
{
  if (k < 1)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "k must be at least 1, not %d.", k);
  if (!engine->has_points)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to search.");
  if (n_queries > 0 && (!query_x || !query_y || !squared_distances))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The query or output arrays are missing.");
  size_t total;
  if (!shepard_size_mul (n_queries, (size_t) k, &total) || !shepard_size_mul (total, sizeof (double), &total))
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW, "%zu queries x %d neighbours is too large.", n_queries,
                         k);
  for (size_t i = 0; i < n_queries; i++)
    if (!isfinite (query_x[i]) || !isfinite (query_y[i]))
      return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                           "Query point %zu has a coordinate that is not a finite number.", i);
#if SHEPARD_HAVE_CUDA
  if (engine->cuda && k <= SHEPARD_CUDA_MAX_NEIGHBORS)
    return shepard_cuda_nearest (engine->cuda, &engine->points, query_x, query_y, n_queries, (size_t) k,
                                 squared_distances, indices, error);
#endif
  shepard_cpu_backend backend = shepard_engine_cpu_backend (engine);
  return shepard_cpu_nearest (&backend, query_x, query_y, n_queries, (size_t) k, squared_distances, indices, error);
}

shepard_status
shepard_engine_expected_distance (shepard_engine *engine, const shepard_params *params, double *r_exp,
                                  shepard_error *error)
{
  if (!params || !r_exp)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The parameters or the output are missing.");
  shepard_status status = shepard_params_validate (params, error);
  if (status != SHEPARD_OK)
    return status;
  if (!engine->has_points)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points: load a layer first.");
  return expected_distance (engine, params, r_exp, error);
}

shepard_status
shepard_engine_explain (shepard_engine *engine, const shepard_params *params, double x, double y,
                        shepard_contribution *listed, size_t capacity, shepard_explanation *explanation,
                        shepard_error *error)
{
  if (!params || !explanation || (capacity > 0 && !listed))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The parameters or the output buffers are missing.");
  if (!isfinite (x) || !isfinite (y))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The query point (%g, %g) is not finite.", x, y);
  double r_exp = 0.0;
  shepard_status status = shepard_engine_prepare (engine, params, &r_exp, error);
  if (status != SHEPARD_OK)
    return status;
  shepard_cpu_backend backend = shepard_engine_cpu_backend (engine);
  return shepard_cpu_explain (&backend, params, r_exp, x, y, listed, capacity, explanation, error);
}
