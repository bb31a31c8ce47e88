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
#include "raster-metadata.h"
#include "shepard-app-error.h"
#include "shepard-document-private.h"

G_DEFINE_FINAL_TYPE (ShepardDocument, shepard_document, G_TYPE_OBJECT)

enum {
  SIGNAL_POINTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
shepard_document_finalize (GObject *object)
{
  ShepardDocument *self = SHEPARD_DOCUMENT (object);

  g_clear_pointer (&self->device_grids, shepard_device_grid_pool_unref);
  g_clear_pointer (&self->engine, shepard_engine_free);
  g_clear_pointer (&self->points, shepard_point_layer_free);
  g_clear_pointer (&self->numeric_fields, g_strfreev);
  g_free (self->crs_name);
  g_free (self->crs_definition);
  g_free (self->backend);
  g_free (self->engine_name);
  g_cond_clear (&self->engine_released);
  g_mutex_clear (&self->engine_state);
  _shepard_document_unref_mask (self->mask);
  g_mutex_clear (&self->mask_lock);
  G_OBJECT_CLASS (shepard_document_parent_class)->finalize (object);
}

static void
shepard_document_class_init (ShepardDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = shepard_document_finalize;
  /* After an edit of a sandbox's points (shepard-document-sandbox.c): the engine already holds the new ones. */
  signals[SIGNAL_POINTS_CHANGED] = g_signal_new ("points-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Readers run in worker threads; registering the drivers once here keeps that out of them. */
  GDALAllRegister ();
}

static void
shepard_document_init (ShepardDocument *self)
{
  g_mutex_init (&self->engine_state);
  g_cond_init (&self->engine_released);
  g_mutex_init (&self->mask_lock);
}

gboolean
_shepard_document_start_engine (ShepardDocument *self, GError **error)
{
  shepard_error engine_error = { 0 };

  self->engine = shepard_engine_new (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &engine_error);
  if (self->engine == NULL
      || (self->points->count > 0
          && shepard_engine_set_points (self->engine, self->points->x, self->points->y, self->points->z,
                                        self->points->count, &engine_error) != SHEPARD_OK))
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  /* A layer whose previews would sum through the far field (judged for a 256² grid) gets its tree here, in the
   * loading thread, so that no preview waits for it. Should this fail (out of memory), the first interpolation that
   * needs the tree builds it and reports why it cannot. */
  shepard_params preview_params;
  shepard_params_init_aidw (&preview_params);
  if (self->points->count > 0 && shepard_engine_cuda_device (self->engine) < 0
      && shepard_engine_summation (self->engine, &preview_params, 256 * 256) == SHEPARD_SUMMATION_FAR_FIELD)
    shepard_engine_prepare_far_field (self->engine, NULL);
  self->backend = g_strdup (shepard_engine_describe (self->engine));
  const char *fallback = shepard_engine_fallback_reason (self->engine);
  g_autofree char *suffix = fallback != NULL ? g_strdup_printf (" (%s)", fallback) : NULL;
  self->engine_name = suffix != NULL && g_str_has_suffix (self->backend, suffix)
                        ? g_strndup (self->backend, strlen (self->backend) - strlen (suffix))
                        : g_strdup (self->backend);
  if (shepard_engine_cuda_device (self->engine) >= 0)
    self->device_grids = shepard_device_grid_pool_new ();
  _shepard_document_update_value_range (self);
  return TRUE;
}

void
_shepard_document_update_value_range (ShepardDocument *self)
{
  self->value_min = INFINITY;
  self->value_max = -INFINITY;
  for (size_t i = 0; i < self->points->count; i++)
    {
      self->value_min = MIN (self->value_min, self->points->z[i]);
      self->value_max = MAX (self->value_max, self->points->z[i]);
    }
  self->has_duplicates = shepard_duplicate_points_find (self->points->x, self->points->y, self->points->z,
                                                        self->points->count, &self->duplicates);
}

gboolean
shepard_document_get_duplicates (ShepardDocument *self, ShepardDuplicateReport *report)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);

  *report = self->duplicates;
  return self->has_duplicates;
}

void
_shepard_document_emit_points_changed (ShepardDocument *self)
{
  g_signal_emit (self, signals[SIGNAL_POINTS_CHANGED], 0);
}

char *
_shepard_document_describe_crs (const char *wkt, char **definition)
{
  *definition = NULL;
  if (wkt == NULL)
    return g_strdup ("none");
  OGRSpatialReferenceH crs = OSRNewSpatialReference (wkt);
  if (crs == NULL)
    {
      *definition = g_strdup (wkt);
      return g_strdup ("unknown");
    }
  OSRAutoIdentifyEPSG (crs);
  const char *name = OSRGetName (crs);
  const char *authority = OSRGetAuthorityName (crs, NULL);
  const char *code = OSRGetAuthorityCode (crs, NULL);
  gboolean coded = authority != NULL && code != NULL;
  char *text = coded ? g_strdup_printf ("%s (%s:%s)", name != NULL ? name : "unnamed", authority, code)
                     : g_strdup (name != NULL ? name : "unnamed");
  /* A code is what a person can read and GDAL takes back; without one, only the WKT says it all. */
  *definition = coded ? g_strdup_printf ("%s:%s", authority, code) : g_strdup (wkt);
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

  if (!_shepard_document_start_engine (self, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  self->crs_name = _shepard_document_describe_crs (self->points->crs_wkt, &self->crs_definition);
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

const char *
shepard_document_get_crs_definition (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->crs_definition;
}

void
shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  if (self->sandbox)
    {
      *x_min = self->sandbox_extent[0];
      *y_min = self->sandbox_extent[1];
      *x_max = self->sandbox_extent[2];
      *y_max = self->sandbox_extent[3];
      return;
    }
  /* Only a sandbox's points change after load, on this thread: reading the engine's bounds needs no lock. */
  shepard_engine_bounds (self->engine, x_min, y_min, x_max, y_max);
}

void
shepard_document_get_extent (ShepardDocument *self, double extent[4])
{
  double x_min, y_min, x_max, y_max;

  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  if (self->sandbox)
    {
      memcpy (extent, self->sandbox_extent, sizeof self->sandbox_extent);
      return;
    }
  shepard_engine_bounds (self->engine, &x_min, &y_min, &x_max, &y_max);
  shepard_extent_of_points (x_min, y_min, x_max, y_max, extent);
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
  /* Asked before the call, with the engine held: what the engine takes for the whole grid at once. */
  shepard_summation summation = shepard_engine_summation (self->engine, &request->engine_params,
                                                          request->grid.width * request->grid.height);

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

typedef struct {
  shepard_params params;
  shepard_grid grid;
  char *value_path;
  char *alpha_path, *r_path, *r_obs_path;
  ShepardGridExportPlanes extra_bands;
  char *driver_name;
  ShepardSampleType sample_type;
  char **creation_options;
  gboolean has_nodata;
  double nodata;
  char *method;
  char **fields; /* NULL: the layer's field */
  ShepardProgressRelay *progress;
} ExportRequest;

static void
export_request_free (gpointer data)
{
  ExportRequest *request = data;

  g_free (request->value_path);
  g_free (request->alpha_path);
  g_free (request->r_path);
  g_free (request->r_obs_path);
  g_free (request->driver_name);
  g_strfreev (request->creation_options);
  g_free (request->method);
  g_strfreev (request->fields);
  shepard_progress_relay_unref (request->progress);
  g_free (request);
}

static int CPL_STDCALL
export_progress (double fraction, const char *message, void *data)
{
  return shepard_progress_relay_report (data, fraction);
}

static ShepardRasterFormat
export_format (ShepardDocument *self, const ShepardExportTarget *target)
{
  GDALDataType data_type = target->sample_type == SHEPARD_SAMPLE_FLOAT64 ? GDT_Float64 : GDT_Float32;

  return (ShepardRasterFormat) {
    .driver_name = target->driver_name,
    .data_type = data_type,
    .crs_wkt = self->points->crs_wkt,
    .has_nodata = TRUE,
    .nodata = target->has_nodata ? target->nodata
                                 : shepard_raster_default_nodata (data_type, self->value_min, self->value_max),
    .creation_options = target->creation_options,
  };
}

void
shepard_document_get_engine_params (ShepardDocument *self, const shepard_params *params,
                                    shepard_params *engine_params)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && engine_params != NULL);
  _shepard_document_engine_params (self, params, engine_params);
}

static gboolean
export_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  ExportRequest *request = data;
  ShepardExportTarget target = {
    .driver_name = request->driver_name,
    .sample_type = request->sample_type,
    .creation_options = (const char *const *) request->creation_options,
    .has_nodata = request->has_nodata,
    .nodata = request->nodata,
  };
  ShepardGridExport export = {
    .value_path = request->value_path,
    .alpha_path = request->alpha_path,
    .format = export_format (self, &target),
    .extra_bands = request->extra_bands,
    .r_path = request->r_path,
    .r_obs_path = request->r_obs_path,
    .value_name = self->points->field_name,
  };
  shepard_params engine_params;
  g_auto (ShepardFieldEngines) fields = { 0 };
  g_autofree char *field_list = request->fields != NULL ? g_strjoinv (",", request->fields) : NULL;

  if (request->fields != NULL)
    {
      if (!_shepard_field_engines_init (self, (const char *const *) request->fields, &fields, error))
        return FALSE;
      export.fields = fields.fields;
      export.n_fields = fields.n_fields;
      if (!request->has_nodata)
        export.format.nodata = shepard_raster_default_nodata (export.format.data_type, fields.value_min,
                                                              fields.value_max);
    }
  _shepard_document_engine_params (self, &request->params, &engine_params);
  ShepardRasterProvenance provenance = {
    .source = self->sandbox ? NULL : self->points->source,
    .layer = self->points->layer_name,
    .field = field_list != NULL ? field_list : self->points->field_name,
    .n_points = self->points->count,
    .method = request->method,
    .engine = self->engine,
    /* As _shepard_document_start_engine made it. */
    .precision = SHEPARD_PRECISION_FLOAT32,
  };
  g_auto (GStrv) metadata = request->method != NULL ? shepard_raster_metadata_new (&provenance) : NULL;
  export.format.metadata = (const char *const *) metadata;
  ShepardDocumentMask *mask = _shepard_document_ref_mask (self);
  export.mask = _shepard_document_mask_get (mask);
  /* With several fields, alpha, R and r_obs come from the first field's engine, as grid-export asks. */
  gboolean written = shepard_grid_export (export.fields != NULL ? export.fields[0].engine : self->engine,
                                          &engine_params, &request->grid, &export, export_progress,
                                          request->progress, error);
  _shepard_document_unref_mask (mask);
  return written;
}

void
shepard_document_export_async (ShepardDocument *self, const shepard_params *params, const shepard_grid *grid,
                               const ShepardExportTarget *target, ShepardProgressCallback progress,
                               GObject *progress_target, GCancellable *cancellable, GAsyncReadyCallback callback,
                               gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && grid != NULL && target != NULL && target->value_path != NULL);
  g_return_if_fail (progress_target == NULL || G_IS_OBJECT (progress_target));

  ExportRequest *request = g_new0 (ExportRequest, 1);
  request->params = *params;
  request->grid = *grid;
  request->value_path = g_strdup (target->value_path);
  request->alpha_path = g_strdup (target->alpha_path);
  request->r_path = g_strdup (target->r_path);
  request->r_obs_path = g_strdup (target->r_obs_path);
  request->extra_bands = target->extra_bands;
  request->driver_name = g_strdup (target->driver_name);
  request->sample_type = target->sample_type;
  request->creation_options = g_strdupv ((char **) target->creation_options);
  request->has_nodata = target->has_nodata;
  request->nodata = target->nodata;
  request->method = g_strdup (target->method);
  /* The layer's field alone is the export of old. */
  if (target->fields != NULL
      && !(target->fields[0] != NULL && target->fields[1] == NULL
           && g_strcmp0 (target->fields[0], self->points->field_name) == 0))
    request->fields = g_strdupv ((char **) target->fields);
  request->progress = shepard_progress_relay_new (progress, progress_target, cancellable);

  _shepard_document_start_job (self, shepard_document_export_async, export_work, request, export_request_free,
                               cancellable, callback, user_data);
}

gboolean
shepard_document_check_export (ShepardDocument *self, const shepard_params *params, const ShepardExportTarget *target,
                               GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (params != NULL && target != NULL && target->value_path != NULL, FALSE);

  ShepardGridExport export = {
    .value_path = target->value_path,
    .alpha_path = target->alpha_path,
    .format = export_format (self, target),
    .extra_bands = target->extra_bands,
    .r_path = target->r_path,
    .r_obs_path = target->r_obs_path,
    .value_name = self->points->field_name,
  };
  /* The check counts the bands: the fields' names will do, their engines come with the export. */
  guint n_fields = target->fields != NULL ? g_strv_length ((char **) target->fields) : 0;
  g_autofree ShepardGridExportField *fields = n_fields > 1 ? g_new0 (ShepardGridExportField, n_fields) : NULL;
  for (guint i = 0; fields != NULL && i < n_fields; i++)
    fields[i].name = target->fields[i];
  export.fields = fields;
  export.n_fields = fields != NULL ? n_fields : 0;
  return shepard_grid_export_check (params, &export, error);
}

gboolean
shepard_document_export_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_autoptr (GError) failure = NULL;

  if (_shepard_document_finish_job (self, result, shepard_document_export_async, &failure) != NULL)
    return TRUE;
  /* Cancelled before it had the engine: the same word as app/io/grid-export's for a cancel under way. */
  if (g_error_matches (failure, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
      return FALSE;
    }
  g_propagate_error (error, g_steal_pointer (&failure));
  return FALSE;
}
