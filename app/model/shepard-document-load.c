/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A document's start: a layer's points read in a worker thread, and for them (or a new sandbox's) an engine on the
 * chosen GPUs with its names, the GPU grid pool, the value range and the CRS's name. */
#include "shepard-document-private.h"

#include <math.h>
#include <string.h>
#include <ogr_srs_api.h>

#include "engine-autocleanups.h"
#include "shepard-app-error.h"

shepard_engine *
_shepard_document_new_engine (ShepardDocument *self, const shepard_gpu_set *gpus, GCancellable *cancellable,
                              GError **error)
{
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0,
                                                                  gpus, &engine_error);

  if (engine == NULL
      || (self->points->count > 0
          && shepard_engine_set_points (engine, self->points->x, self->points->y, self->points->z,
                                        self->points->count, &engine_error) != SHEPARD_OK))
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  /* A layer whose previews would sum through the far field once its tree is built (judged for a 256² grid on the
   * CPU, a 1024² frame on a GPU) gets the tree here, in the loading thread, so that no preview waits for it. Should
   * this fail (out of memory) or be cancelled (another layer opened meanwhile: 10M points take 15 s on 2 cores), the
   * first interpolation that needs the tree builds it, or reports why it cannot. */
  shepard_params preview_params;
  shepard_params_init_aidw (&preview_params);
  size_t preview_cells = shepard_engine_cuda_device (engine) < 0 ? 256 * 256 : 1024 * 1024;
  if (self->points->count > 0
      && shepard_engine_summation_with_tree (engine, &preview_params, preview_cells) == SHEPARD_SUMMATION_FAR_FIELD)
    shepard_engine_prepare_far_field (engine, _shepard_document_cancel_check, cancellable, NULL);
  return g_steal_pointer (&engine);
}

void
_shepard_document_take_engine (ShepardDocument *self, shepard_engine *engine, const shepard_gpu_set *gpus)
{
  int device = shepard_engine_cuda_device (engine);

  /* Grids kept on a GPU serve any engine on that GPU; another GPU, or none, needs a pool of its own. */
  if (self->engine == NULL || shepard_engine_cuda_device (self->engine) != device)
    g_clear_pointer (&self->device_grids, shepard_device_grid_pool_unref);
  if (device >= 0 && self->device_grids == NULL)
    self->device_grids = shepard_device_grid_pool_new ();
  g_clear_pointer (&self->engine, shepard_engine_free);
  self->engine = engine;
  self->gpus = *gpus;
  g_free (self->backend);
  g_free (self->engine_name);
  self->backend = g_strdup (shepard_engine_describe (engine));
  const char *fallback = shepard_engine_fallback_reason (engine);
  g_autofree char *suffix = fallback != NULL ? g_strdup_printf (" (%s)", fallback) : NULL;
  self->engine_name = suffix != NULL && g_str_has_suffix (self->backend, suffix)
                        ? g_strndup (self->backend, strlen (self->backend) - strlen (suffix))
                        : g_strdup (self->backend);
}

gboolean
_shepard_document_start_engine (ShepardDocument *self, GCancellable *cancellable, GError **error)
{
  shepard_engine *engine = _shepard_document_new_engine (self, &self->gpus, cancellable, error);

  if (engine == NULL)
    return FALSE;
  _shepard_document_take_engine (self, engine, &self->gpus);
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
  shepard_gpu_set gpus;
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

  self->gpus = request->gpus;
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

  if (!_shepard_document_start_engine (self, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  self->crs_name = _shepard_document_describe_crs (self->points->crs_wkt, &self->crs_definition);
  g_task_return_pointer (task, g_steal_pointer (&self), g_object_unref);
}

void
shepard_document_load_async (const char *path, const char *field, GCancellable *cancellable,
                             GAsyncReadyCallback callback, gpointer user_data)
{
  shepard_document_load_on_gpus_async (path, field, NULL, cancellable, callback, user_data);
}

void
shepard_document_load_on_gpus_async (const char *path, const char *field, const char *gpus,
                                     GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (path != NULL);

  g_type_ensure (SHEPARD_TYPE_DOCUMENT);
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_load_async);
  LoadRequest *request = g_new0 (LoadRequest, 1);
  g_task_set_task_data (task, request, load_request_free);
  GError *error = NULL;
  if (!_shepard_document_parse_gpus (gpus, &request->gpus, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  request->path = g_strdup (path);
  request->field = g_strdup (field);
  g_task_run_in_thread (task, load_thread);
}

ShepardDocument *
shepard_document_load_finish (GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
