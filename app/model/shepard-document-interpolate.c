/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's interpolations: a grid computed in a worker thread, or in line when the engine is free, into host
 * memory or (on a CUDA engine) left on the GPU for the view, masked as the document's mask says. */
#include "shepard-document-private.h"

#include <math.h>

#include "shepard-app-error.h"

typedef struct {
  shepard_params params;        /* as asked: what the surface says it shows */
  shepard_params engine_params; /* what the engine computes with (a sandbox's study area) */
  shepard_grid grid;
  ShepardDeviceGridPool *device_grids; /* set: leave the grid on the GPU */
  ShepardSurface *surface;             /* the result */
} InterpolateRequest;

static void
interpolate_request_free (gpointer data)
{
  InterpolateRequest *request = data;

  g_clear_pointer (&request->device_grids, shepard_device_grid_pool_unref);
  g_clear_pointer (&request->surface, shepard_surface_unref);
  g_free (request);
}

/* AIDW's r_exp for params after an interpolation with them succeeded (so it cannot fail); NaN for IDW. */
static double
expected_distance_locked (ShepardDocument *self, const shepard_params *params)
{
  double r_exp = NAN;
  if (params->method == SHEPARD_METHOD_AIDW
      && shepard_engine_expected_distance (self->engine, params, &r_exp, NULL) != SHEPARD_OK)
    r_exp = NAN;
  return r_exp;
}

/* The engine's part, with the engine held: the grid stays in GPU memory for a view that draws it through
 * CUDA-OpenGL interop, or comes to host memory. */
static ShepardSurface *
interpolate_on_gpu_locked (ShepardDocument *self, const InterpolateRequest *request, GCancellable *cancellable,
                           GError **error)
{
  shepard_error engine_error = { 0 };
  shepard_device_grid *target = shepard_device_grid_pool_take (request->device_grids, self->engine, &engine_error);

  if (target == NULL)
    {
      _shepard_document_set_engine_failure (error, engine_error.code, &engine_error);
      return NULL;
    }
  shepard_status status = shepard_engine_interpolate_grid_to_device (self->engine, &request->engine_params,
                                                                     &request->grid, target,
                                                                     _shepard_document_cancel_check, cancellable,
                                                                     &engine_error);
  if (status != SHEPARD_OK)
    {
      shepard_device_grid_pool_give_back (request->device_grids, target);
      _shepard_document_set_engine_failure (error, status, &engine_error);
      return NULL;
    }
  return shepard_surface_new_on_gpu (&request->grid, &request->params, target, request->device_grids,
                                     expected_distance_locked (self, &request->engine_params), 0.0);
}

static ShepardSurface *
interpolate_to_host_locked (ShepardDocument *self, const InterpolateRequest *request, GCancellable *cancellable,
                            GError **error)
{
  shepard_error engine_error = { 0 };
  gboolean aidw = request->params.method == SHEPARD_METHOD_AIDW;
  size_t cells = request->grid.width * request->grid.height;
  g_autofree double *values = g_try_new (double, cells);
  g_autofree double *alpha = g_try_new (double, cells);
  g_autofree double *r_obs = aidw ? g_try_new (double, cells) : NULL;

  if (values == NULL || alpha == NULL || (aidw && r_obs == NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "Not enough memory for a %zu × %zu preview: lower the preview resolution.", request->grid.width,
                   request->grid.height);
      return NULL;
    }
  shepard_outputs outputs = { .values = values, .alpha = alpha, .r_obs = r_obs };
  shepard_status status = shepard_engine_interpolate_grid (self->engine, &request->engine_params, &request->grid,
                                                           &outputs, _shepard_document_cancel_check, cancellable,
                                                           &engine_error);
  if (status != SHEPARD_OK)
    {
      _shepard_document_set_engine_failure (error, status, &engine_error);
      return NULL;
    }
  return shepard_surface_new_from_host (&request->grid, &request->params, values, alpha, r_obs,
                                        expected_distance_locked (self, &request->engine_params), 0.0);
}

/* The surface's time is all of it, the copy into float32 and the value range included: the preview decides from it
 * whether the next grid fits in the frame. */
static gboolean
interpolate_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  InterpolateRequest *request = data;
  gint64 start = g_get_monotonic_time ();
  size_t cells = request->grid.width * request->grid.height;

  /* Asked for before the engine moved to another GPU (shepard-document-gpus.c): its grids are not this engine's. */
  if (request->device_grids != NULL && request->device_grids != self->device_grids)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The engine moved to other GPUs: ask again");
      return FALSE;
    }
  /* The preview plans its grids as if the far field's tree were built (shepard_document_get_summation). After the
   * points change (a sandbox edit) it is not, and the engine would weigh the tree's build against one grid, which on
   * a GPU keeps the brute force every time: build it here, on the worker and once, so that the engine takes what the
   * preview planned for. Should the build fail, the engine's own choice stands; cancelled, so is the preview below. */
  if (shepard_engine_summation_with_tree (self->engine, &request->engine_params, cells) == SHEPARD_SUMMATION_FAR_FIELD)
    shepard_engine_prepare_far_field (self->engine, _shepard_document_cancel_check, cancellable, NULL);
  /* Asked before the call, with the engine held: what the engine takes for the whole grid at once. */
  shepard_summation summation = shepard_engine_summation (self->engine, &request->engine_params, cells);

  request->surface = request->device_grids != NULL ? interpolate_on_gpu_locked (self, request, cancellable, error)
                                                   : interpolate_to_host_locked (self, request, cancellable, error);
  if (request->surface == NULL || !_shepard_document_mask_surface (self, request->surface, error))
    return FALSE;
  request->surface->summation = summation;
  request->surface->seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  return TRUE;
}

static InterpolateRequest *
interpolate_request_new (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                         ShepardSurfaceMemory memory)
{
  InterpolateRequest *request = g_new0 (InterpolateRequest, 1);

  request->params = *params;
  _shepard_document_engine_params (self, params, &request->engine_params);
  request->grid = *grid;
  if (memory == SHEPARD_SURFACE_ON_GPU)
    request->device_grids = shepard_device_grid_pool_ref (self->device_grids);
  return request;
}

void
shepard_document_interpolate_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                    ShepardSurfaceMemory memory, GCancellable *cancellable,
                                    GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && grid != NULL);
  g_return_if_fail (grid->width > 0 && grid->height > 0);
  g_return_if_fail (memory == SHEPARD_SURFACE_IN_HOST_MEMORY || self->device_grids != NULL);

  _shepard_document_start_job (self, shepard_document_interpolate_async, interpolate_work,
                               interpolate_request_new (self, params, grid, memory), interpolate_request_free,
                               cancellable, callback, user_data);
}

ShepardSurface *
shepard_document_interpolate_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  InterpolateRequest *request = _shepard_document_finish_job (self, result, shepard_document_interpolate_async,
                                                              error);

  return request != NULL ? g_steal_pointer (&request->surface) : NULL;
}

ShepardSurface *
shepard_document_interpolate_if_idle (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                      ShepardSurfaceMemory memory, double patience, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (params != NULL && grid != NULL, NULL);
  g_return_val_if_fail (grid->width > 0 && grid->height > 0, NULL);
  g_return_val_if_fail (memory == SHEPARD_SURFACE_IN_HOST_MEMORY || self->device_grids != NULL, NULL);

  gint64 deadline = g_get_monotonic_time () + (gint64) (MAX (patience, 0.0) * G_USEC_PER_SEC);
  if (!_shepard_document_hold_engine_until (self, deadline))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, "The engine is busy with an earlier request");
      return NULL;
    }
  InterpolateRequest *request = interpolate_request_new (self, params, grid, memory);
  gboolean done = interpolate_work (self, request, NULL, error);
  _shepard_document_release_engine (self);
  ShepardSurface *surface = done ? g_steal_pointer (&request->surface) : NULL;
  interpolate_request_free (request);
  return surface;
}
