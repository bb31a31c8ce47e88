/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's exports: rasters written through app/io/grid-export in a worker thread, with the layer's CRS and its
 * provenance, one band per field asked (shepard-document-fields.c), and the check of a target before any work. */
#include "shepard-document-private.h"

#include <gdal.h>

#include "raster-metadata.h"
#include "shepard-app-error.h"

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
