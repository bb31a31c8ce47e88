/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Results kept on the GPU: device grids, and interpolation into them (shepard-engine.h's device grid API). */
#include "engine-internal.h"

#include <stdlib.h>

int
shepard_engine_cuda_device (const shepard_engine *engine)
{
#if SHEPARD_HAVE_CUDA
  if (engine->cuda)
    return shepard_cuda_backend_device (engine->cuda);
#endif
  (void) engine;
  return -1;
}

size_t
shepard_engine_gpu_count (const shepard_engine *engine)
{
#if SHEPARD_HAVE_CUDA
  return engine->n_gpus;
#else
  (void) engine;
  return 0;
#endif
}

int
shepard_engine_gpu_ordinal (const shepard_engine *engine, size_t i)
{
#if SHEPARD_HAVE_CUDA
  if (i < engine->n_gpus)
    return shepard_cuda_backend_device (engine->gpus[i]);
#endif
  (void) engine;
  (void) i;
  return -1;
}

static shepard_status
fail_not_on_gpu (const shepard_engine *engine, shepard_error *error)
{
  return shepard_fail (error, SHEPARD_ERROR_NO_DEVICE,
                       "Results can stay on the GPU only when the engine runs on CUDA; this one runs on the CPU (%s).",
                       engine->description);
}

shepard_status
shepard_device_grid_new (shepard_engine *engine, shepard_device_grid **grid, shepard_error *error)
{
  if (!grid)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The device grid pointer is missing.");
  *grid = NULL;
#if SHEPARD_HAVE_CUDA
  if (engine->cuda)
    return shepard_cuda_device_grid_new (engine->cuda, grid, error);
#endif
  return fail_not_on_gpu (engine, error);
}

void
shepard_device_grid_free (shepard_device_grid *grid)
{
#if SHEPARD_HAVE_CUDA
  shepard_cuda_device_grid_free (grid);
#else
  (void) grid; /* none can exist without CUDA */
#endif
}

#if SHEPARD_HAVE_CUDA
/* A neighbourhood (or a far field) the GPU does not run: computed on the CPU, then copied into the device grid. */
static shepard_status
interpolate_on_cpu_to_device (shepard_engine *engine, const shepard_params *params, double r_exp,
                              const shepard_query_set *queries, shepard_device_grid *target,
                              shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  double *values = malloc (queries->count * sizeof (double));
  double *alpha = malloc (queries->count * sizeof (double));
  double *r_obs = aidw ? malloc (queries->count * sizeof (double)) : NULL;
  shepard_status status;
  if (!values || !alpha || (aidw && !r_obs))
    status = shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for a %zu x %zu grid.",
                           queries->grid->width, queries->grid->height);
  else
    {
      shepard_cpu_backend backend;
      shepard_outputs outputs = { .values = values, .alpha = alpha, .r_obs = r_obs };
      shepard_progress_span rest = shepard_progress_span_whole (progress, progress_data);
      status = shepard_engine_cpu_backend_for (engine, params, queries->count, &rest, &backend, error);
      if (status == SHEPARD_OK)
        status = shepard_cpu_interpolate (&backend, params, r_exp, queries, 1, &outputs,
                                          shepard_progress_span_fn (&rest), &rest, error);
      if (status == SHEPARD_OK)
        status = shepard_cuda_device_grid_upload (target, values, alpha, r_obs, error);
    }
  free (values);
  free (alpha);
  free (r_obs);
  return status;
}
#endif

shepard_status
shepard_engine_interpolate_grid_to_device (shepard_engine *engine, const shepard_params *params,
                                           const shepard_grid *grid, shepard_device_grid *target,
                                           shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  if (!params || !target)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The parameters or the device grid are missing.");
  shepard_status status = shepard_engine_check_grid (grid, error);
  if (status != SHEPARD_OK)
    return status;
  if (shepard_engine_cuda_device (engine) < 0)
    return fail_not_on_gpu (engine, error);
#if SHEPARD_HAVE_CUDA
  if (target->device != shepard_cuda_backend_device (engine->cuda))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The device grid belongs to another GPU than the engine's; make it with this engine.");
  double r_exp = 0.0;
  status = shepard_engine_prepare (engine, params, &r_exp, error);
  if (status == SHEPARD_OK)
    status = shepard_cuda_device_grid_reserve (target, grid->width, grid->height, error);
  if (status != SHEPARD_OK)
    return status;
  shepard_query_set queries = { .grid = grid, .count = grid->width * grid->height };
  if (shepard_engine_runs_on_gpu (engine, params))
    {
      shepard_params resolved;
      shepard_progress_span rest = shepard_progress_span_whole (progress, progress_data);
      status = shepard_engine_gpu_params (engine, params, queries.count, &rest, &resolved, error);
      if (status != SHEPARD_OK)
        return status;
      return shepard_cuda_interpolate_to_device (engine->cuda, &engine->points, &resolved, r_exp, &queries, target,
                                                 shepard_progress_span_fn (&rest), &rest, error);
    }
  return interpolate_on_cpu_to_device (engine, params, r_exp, &queries, target, progress, progress_data, error);
#else
  (void) progress;
  (void) progress_data;
  return SHEPARD_ERROR_INTERNAL; /* unreachable: without CUDA no engine runs on a device */
#endif
}

int
shepard_device_grid_device (const shepard_device_grid *grid)
{
  return grid->device;
}

size_t
shepard_device_grid_width (const shepard_device_grid *grid)
{
  return grid->width;
}

size_t
shepard_device_grid_height (const shepard_device_grid *grid)
{
  return grid->height;
}

const float *
shepard_device_grid_values (const shepard_device_grid *grid)
{
  return grid->width > 0 ? grid->values : NULL;
}

const float *
shepard_device_grid_alpha (const shepard_device_grid *grid)
{
  return grid->width > 0 ? grid->alpha : NULL;
}

const float *
shepard_device_grid_plane (const shepard_device_grid *grid, shepard_plane plane)
{
  if (grid->width == 0)
    return NULL;
  switch (plane)
    {
    case SHEPARD_PLANE_VALUES:
      return grid->values;
    case SHEPARD_PLANE_ALPHA:
      return grid->alpha;
    case SHEPARD_PLANE_R_OBS:
      return grid->r_obs;
    }
  return NULL;
}

shepard_status
shepard_device_grid_read (const shepard_device_grid *grid, size_t first, size_t count, float *values, float *alpha,
                          shepard_error *error)
{
  if (!grid || (count > 0 && !values))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The device grid or the output buffer is missing.");
#if SHEPARD_HAVE_CUDA
  return shepard_cuda_device_grid_read (grid, first, count, values, alpha, error);
#else
  (void) first;
  (void) alpha;
  return shepard_fail (error, SHEPARD_ERROR_NO_DEVICE, "This build of Shepard has no CUDA backend.");
#endif
}

shepard_status
shepard_device_grid_read_plane (const shepard_device_grid *grid, shepard_plane plane, size_t first, size_t count,
                                float *values, shepard_error *error)
{
  if (!grid || (count > 0 && !values))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "The device grid or the output buffer is missing.");
  if (plane != SHEPARD_PLANE_VALUES && plane != SHEPARD_PLANE_ALPHA && plane != SHEPARD_PLANE_R_OBS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "Unknown grid plane %d.", (int) plane);
#if SHEPARD_HAVE_CUDA
  return shepard_cuda_device_grid_read_plane (grid, plane, first, count, values, error);
#else
  (void) first;
  return shepard_fail (error, SHEPARD_ERROR_NO_DEVICE, "This build of Shepard has no CUDA backend.");
#endif
}
