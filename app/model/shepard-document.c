/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-document.h"

#include <math.h>
#include <string.h>
#include <ogr_srs_api.h>

#include "device-grid-pool.h"
#include "engine-autocleanups.h"
#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "grid-export.h"
#include "grid-extent.h"
#include "point-layer.h"
#include "shepard-app-error.h"

struct _ShepardDocument
{
  GObject parent_instance;

  ShepardPointLayer *points;
  char **numeric_fields;
  char *crs_name;
  double value_min, value_max;

  /* The engine keeps search structures between calls and is not reentrant: one call at a time. */
  GMutex engine_lock;
  shepard_engine *engine;
  char *backend;
  char *engine_name; /* the backend without the reason it fell back to the CPU */

  ShepardDeviceGridPool *device_grids; /* NULL on a CPU engine */
};

G_DEFINE_FINAL_TYPE (ShepardDocument, shepard_document, G_TYPE_OBJECT)

static void
shepard_document_finalize (GObject *object)
{
  ShepardDocument *self = SHEPARD_DOCUMENT (object);

  g_clear_pointer (&self->device_grids, shepard_device_grid_pool_unref);
  g_clear_pointer (&self->engine, shepard_engine_free);
  g_clear_pointer (&self->points, shepard_point_layer_free);
  g_clear_pointer (&self->numeric_fields, g_strfreev);
  g_free (self->crs_name);
  g_free (self->backend);
  g_free (self->engine_name);
  g_mutex_clear (&self->engine_lock);
  G_OBJECT_CLASS (shepard_document_parent_class)->finalize (object);
}

static void
shepard_document_class_init (ShepardDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = shepard_document_finalize;
  /* Readers run in worker threads; registering the drivers once here keeps that out of them. */
  GDALAllRegister ();
}

static void
shepard_document_init (ShepardDocument *self)
{
  g_mutex_init (&self->engine_lock);
}

static char *
describe_crs (const char *wkt)
{
  if (wkt == NULL)
    return g_strdup ("none");
  OGRSpatialReferenceH crs = OSRNewSpatialReference (wkt);
  if (crs == NULL)
    return g_strdup ("unknown");
  OSRAutoIdentifyEPSG (crs);
  const char *name = OSRGetName (crs);
  const char *authority = OSRGetAuthorityName (crs, NULL);
  const char *code = OSRGetAuthorityCode (crs, NULL);
  char *text = authority != NULL && code != NULL
                 ? g_strdup_printf ("%s (%s:%s)", name != NULL ? name : "unnamed", authority, code)
                 : g_strdup (name != NULL ? name : "unnamed");
  OSRDestroySpatialReference (crs);
  return text;
}

typedef struct {
  char *path;
  char *field;
} LoadRequest;

static void
load_request_free (gpointer data)
{
  LoadRequest *request = data;

  g_free (request->path);
  g_free (request->field);
  g_free (request);
}

static void
load_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  LoadRequest *request = task_data;
  GError *error = NULL;
  g_autoptr (ShepardDocument) self = g_object_new (SHEPARD_TYPE_DOCUMENT, NULL);

  self->numeric_fields = shepard_point_layer_list_numeric_fields (request->path, NULL, &error);
  if (self->numeric_fields == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  const char *field = request->field;
  if (field == NULL || !g_strv_contains ((const char *const *) self->numeric_fields, field))
    field = self->numeric_fields[0];
  self->points = shepard_point_layer_read (request->path, NULL, field, NULL, NULL, NULL, &error);
  if (self->points == NULL)
    {
      g_prefix_error (&error, "Cannot read the points: ");
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;

  shepard_error engine_error = { 0 };
  self->engine = shepard_engine_new (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &engine_error);
  if (self->engine == NULL
      || shepard_engine_set_points (self->engine, self->points->x, self->points->y, self->points->z,
                                    self->points->count, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (&error, &engine_error);
      g_task_return_error (task, error);
      return;
    }
  self->backend = g_strdup (shepard_engine_describe (self->engine));
  const char *fallback = shepard_engine_fallback_reason (self->engine);
  g_autofree char *suffix = fallback != NULL ? g_strdup_printf (" (%s)", fallback) : NULL;
  self->engine_name = suffix != NULL && g_str_has_suffix (self->backend, suffix)
                        ? g_strndup (self->backend, strlen (self->backend) - strlen (suffix))
                        : g_strdup (self->backend);
  if (shepard_engine_cuda_device (self->engine) >= 0)
    self->device_grids = shepard_device_grid_pool_new ();
  self->crs_name = describe_crs (self->points->crs_wkt);
  self->value_min = INFINITY;
  self->value_max = -INFINITY;
  for (size_t i = 0; i < self->points->count; i++)
    {
      self->value_min = MIN (self->value_min, self->points->z[i]);
      self->value_max = MAX (self->value_max, self->points->z[i]);
    }
  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

void
shepard_document_load_async (const char *path, const char *field, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (path != NULL);

  g_type_ensure (SHEPARD_TYPE_DOCUMENT);
  LoadRequest *request = g_new0 (LoadRequest, 1);
  request->path = g_strdup (path);
  request->field = g_strdup (field);
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_load_async);
  g_task_set_task_data (task, request, load_request_free);
  g_task_run_in_thread (task, load_thread);
}

ShepardDocument *
shepard_document_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

const ShepardPointLayer *
shepard_document_get_points (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->points;
}

const char *const *
shepard_document_get_numeric_fields (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return (const char *const *) self->numeric_fields;
}

const char *
shepard_document_get_backend (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->backend;
}

const char *
shepard_document_get_engine_name (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->engine_name;
}

const char *
shepard_document_get_engine_fallback_reason (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return shepard_engine_fallback_reason (self->engine);
}

const char *
shepard_document_get_crs_name (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->crs_name;
}

void
shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  /* The engine copied the points once at load; reading its bounds needs no lock. */
  shepard_engine_bounds (self->engine, x_min, y_min, x_max, y_max);
}

void
shepard_document_get_extent (ShepardDocument *self, double extent[4])
{
  double x_min, y_min, x_max, y_max;

  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  shepard_engine_bounds (self->engine, &x_min, &y_min, &x_max, &y_max);
  shepard_extent_around_points (x_min, y_min, x_max, y_max, extent);
}

double
shepard_document_get_value_min (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), 0);
  return self->value_min;
}

double
shepard_document_get_value_max (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), 0);
  return self->value_max;
}

int
shepard_document_get_cuda_device (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), -1);
  return shepard_engine_cuda_device (self->engine);
}

gboolean
shepard_document_can_keep_on_gpu (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  return self->device_grids != NULL;
}

static bool
engine_cancel_check (double fraction, const char *message, void *user_data)
{
  return !g_cancellable_is_cancelled (user_data);
}

typedef struct {
  shepard_params params;
  shepard_grid grid;
  ShepardDeviceGridPool *device_grids; /* set: leave the grid on the GPU */
} InterpolateRequest;

static void
interpolate_request_free (gpointer data)
{
  InterpolateRequest *request = data;

  g_clear_pointer (&request->device_grids, shepard_device_grid_pool_unref);
  g_free (request);
}

static void
set_engine_failure (GError **error, shepard_status status, const shepard_error *engine_error)
{
  if (status == SHEPARD_ERROR_CANCELLED)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The computation was cancelled");
  else
    shepard_app_error_set_from_engine (error, engine_error);
}

/* The engine's part, called with the engine lock held: the grid stays in GPU memory for a view that draws it
 * through CUDA-OpenGL interop, or comes to host memory. */
static ShepardSurface *
interpolate_locked (ShepardDocument *self, const InterpolateRequest *request, GCancellable *check, GError **error)
{
  shepard_error engine_error = { 0 };
  shepard_status status;
  gint64 start;

  if (request->device_grids != NULL)
    {
      shepard_device_grid *target = shepard_device_grid_pool_take (request->device_grids, self->engine,
                                                                   &engine_error);
      if (target == NULL)
        {
          set_engine_failure (error, engine_error.code, &engine_error);
          return NULL;
        }
      start = g_get_monotonic_time ();
      status = shepard_engine_interpolate_grid_to_device (self->engine, &request->params, &request->grid, target,
                                                          engine_cancel_check, check, &engine_error);
      if (status != SHEPARD_OK)
        {
          shepard_device_grid_pool_give_back (request->device_grids, target);
          set_engine_failure (error, status, &engine_error);
          return NULL;
        }
      return shepard_surface_new_on_gpu (&request->grid, &request->params, target, request->device_grids,
                                         (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
    }

  size_t cells = request->grid.width * request->grid.height;
  g_autofree double *values = g_try_new (double, cells);
  g_autofree double *alpha = g_try_new (double, cells);
  if (values == NULL || alpha == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "Not enough memory for a %zu × %zu preview: lower the preview resolution.", request->grid.width,
                   request->grid.height);
      return NULL;
    }
  shepard_outputs outputs = { .values = values, .alpha = alpha };
  start = g_get_monotonic_time ();
  status = shepard_engine_interpolate_grid (self->engine, &request->params, &request->grid, &outputs,
                                            engine_cancel_check, check, &engine_error);
  if (status != SHEPARD_OK)
    {
      set_engine_failure (error, status, &engine_error);
      return NULL;
    }
  return shepard_surface_new_from_host (&request->grid, &request->params, values, alpha,
                                        (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);
}

static void
interpolate_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  InterpolateRequest *request = task_data;
  g_autoptr (GCancellable) never = cancellable == NULL ? g_cancellable_new () : NULL;
  GError *error = NULL;

  g_mutex_lock (&self->engine_lock);
  if (g_task_return_error_if_cancelled (task))
    {
      g_mutex_unlock (&self->engine_lock);
      return;
    }
  ShepardSurface *surface = interpolate_locked (self, request, cancellable != NULL ? cancellable : never, &error);
  g_mutex_unlock (&self->engine_lock);
  if (surface == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, surface, (GDestroyNotify) shepard_surface_unref);
}

static InterpolateRequest *
interpolate_request_new (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                         ShepardSurfaceMemory memory)
{
  InterpolateRequest *request = g_new0 (InterpolateRequest, 1);

  request->params = *params;
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

  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_interpolate_async);
  g_task_set_task_data (task, interpolate_request_new (self, params, grid, memory), interpolate_request_free);
  /* A newer request supersedes this one: its error must not pre-empt the newer result. */
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, interpolate_thread);
}

ShepardSurface *
shepard_document_interpolate_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

ShepardSurface *
shepard_document_interpolate_if_idle (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                                      ShepardSurfaceMemory memory, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (params != NULL && grid != NULL, NULL);
  g_return_val_if_fail (grid->width > 0 && grid->height > 0, NULL);
  g_return_val_if_fail (memory == SHEPARD_SURFACE_IN_HOST_MEMORY || self->device_grids != NULL, NULL);

  if (!g_mutex_trylock (&self->engine_lock))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY, "The engine is busy with an earlier request");
      return NULL;
    }
  g_autoptr (GCancellable) never = g_cancellable_new ();
  InterpolateRequest *request = interpolate_request_new (self, params, grid, memory);
  ShepardSurface *surface = interpolate_locked (self, request, never, error);
  g_mutex_unlock (&self->engine_lock);
  interpolate_request_free (request);
  return surface;
}

typedef struct {
  shepard_params params;
  shepard_grid grid;
  char *value_path;
  char *alpha_path;
  char *driver_name;
  ShepardSampleType sample_type;
  ShepardExportProgress progress;
  GObject *progress_target;
  GMainContext *context;
  GCancellable *cancellable;
  /* The last fraction the worker reported, and whether the main thread still has to show one. */
  GMutex lock;
  double fraction;
  gboolean update_pending;
} ExportRequest;

static void
export_request_free (gpointer data)
{
  ExportRequest *request = data;

  g_free (request->value_path);
  g_free (request->alpha_path);
  g_free (request->driver_name);
  g_clear_object (&request->progress_target);
  g_clear_object (&request->cancellable);
  g_main_context_unref (request->context);
  g_mutex_clear (&request->lock);
  g_free (request);
}

static gboolean
deliver_progress (gpointer data)
{
  GTask *task = data;
  ExportRequest *request = g_task_get_task_data (task);

  g_mutex_lock (&request->lock);
  double fraction = request->fraction;
  request->update_pending = FALSE;
  g_mutex_unlock (&request->lock);
  if (request->progress != NULL)
    request->progress (request->progress_target, fraction);
  return G_SOURCE_REMOVE;
}

static int CPL_STDCALL
export_progress (double fraction, const char *message, void *data)
{
  GTask *task = data;
  ExportRequest *request = g_task_get_task_data (task);
  gboolean schedule;

  g_mutex_lock (&request->lock);
  request->fraction = fraction;
  schedule = !request->update_pending;
  request->update_pending = TRUE;
  g_mutex_unlock (&request->lock);
  /* At most one update waits on the main loop, so a fast export cannot flood it. */
  if (schedule)
    g_main_context_invoke_full (request->context, G_PRIORITY_DEFAULT, deliver_progress, g_object_ref (task),
                                g_object_unref);
  return !g_cancellable_is_cancelled (request->cancellable);
}

static void
export_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  ExportRequest *request = task_data;
  ShepardGridExport export = {
    .value_path = request->value_path,
    .alpha_path = request->alpha_path,
    .format = {
      .driver_name = request->driver_name,
      .data_type = request->sample_type == SHEPARD_SAMPLE_FLOAT64 ? GDT_Float64 : GDT_Float32,
      .crs_wkt = self->points->crs_wkt,
    },
  };
  GError *error = NULL;

  g_mutex_lock (&self->engine_lock);
  gboolean written = shepard_grid_export (self->engine, &request->params, &request->grid, &export, export_progress,
                                          task, &error);
  g_mutex_unlock (&self->engine_lock);
  if (written)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
shepard_document_export_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                               const char *value_path, const char *alpha_path, const char *driver_name,
                               ShepardSampleType sample_type, ShepardExportProgress progress,
                               GObject *progress_target,
                               GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && grid != NULL && value_path != NULL);
  g_return_if_fail (progress_target == NULL || G_IS_OBJECT (progress_target));

  ExportRequest *request = g_new0 (ExportRequest, 1);
  request->params = *params;
  request->grid = *grid;
  request->value_path = g_strdup (value_path);
  request->alpha_path = g_strdup (alpha_path);
  request->driver_name = g_strdup (driver_name);
  request->sample_type = sample_type;
  request->progress = progress;
  request->progress_target = progress_target != NULL ? g_object_ref (progress_target) : NULL;
  request->context = g_main_context_ref_thread_default ();
  request->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  g_mutex_init (&request->lock);

  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_export_async);
  g_task_set_task_data (task, request, export_request_free);
  g_task_run_in_thread (task, export_thread);
}

gboolean
shepard_document_export_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
