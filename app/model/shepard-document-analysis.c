/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's instruments: cross-validation, explanations and the optimiser, each a job on the engine. */
#include "shepard-document-private.h"

#include "shepard-app-error.h"

typedef struct {
  shepard_params params;        /* as asked: what the result says it shows */
  shepard_params engine_params; /* what the engine computes with (a sandbox's study area) */
  size_t folds;
  guint64 seed;
  double x, y;
  size_t capacity;
  ShepardCrossValidation *validation;
  ShepardExplanation *explanation;
} AnalysisRequest;

static AnalysisRequest *
analysis_request_new (ShepardDocument *self, const shepard_params *params)
{
  AnalysisRequest *request = g_new0 (AnalysisRequest, 1);

  request->params = *params;
  _shepard_document_engine_params (self, params, &request->engine_params);
  return request;
}

static void
analysis_request_free (gpointer data)
{
  AnalysisRequest *request = data;

  g_clear_pointer (&request->validation, shepard_cross_validation_unref);
  g_clear_pointer (&request->explanation, shepard_explanation_unref);
  g_free (request);
}

/* The points are read with the engine held: an edit swaps them only while it holds the engine. */
static gboolean
cross_validate_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  AnalysisRequest *request = data;
  const ShepardPointLayer *points = self->points;
  shepard_error engine_error = { 0 };

  request->validation = shepard_cross_validation_new (&request->params, request->folds, points->x, points->y,
                                                      points->z, points->count);
  request->validation->points_generation = self->points_generation;
  ShepardCrossValidation *validation = request->validation;
  shepard_cv_outputs outputs = { validation->prediction, validation->residual, validation->alpha, NULL };
  gint64 start = g_get_monotonic_time ();
  shepard_status status = shepard_engine_cross_validate (self->engine, &request->engine_params, request->folds,
                                                         request->seed, &outputs, &validation->summary,
                                                         _shepard_document_cancel_check, cancellable,
                                                         &engine_error);
  validation->seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  if (status != SHEPARD_OK)
    {
      _shepard_document_set_engine_failure (error, status, &engine_error);
      return FALSE;
    }
  return TRUE;
}

void
shepard_document_cross_validate_async (ShepardDocument *self, const shepard_params *params, size_t folds,
                                       guint64 seed, GCancellable *cancellable, GAsyncReadyCallback callback,
                                       gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL);

  AnalysisRequest *request = analysis_request_new (self, params);
  request->folds = folds;
  request->seed = seed;
  _shepard_document_start_job (self, shepard_document_cross_validate_async, cross_validate_work, request,
                               analysis_request_free, cancellable, callback, user_data);
}

ShepardCrossValidation *
shepard_document_cross_validate_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  AnalysisRequest *request = _shepard_document_finish_job (self, result, shepard_document_cross_validate_async,
                                                           error);

  return request != NULL ? g_steal_pointer (&request->validation) : NULL;
}

static gboolean
explain_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  AnalysisRequest *request = data;
  shepard_error engine_error = { 0 };

  request->explanation = shepard_explanation_new (&request->params, request->x, request->y, request->capacity);
  request->explanation->points_generation = self->points_generation;
  shepard_status status = shepard_engine_explain (self->engine, &request->engine_params, request->x, request->y,
                                                  request->explanation->listed, request->capacity,
                                                  &request->explanation->explanation, &engine_error);
  if (status != SHEPARD_OK)
    {
      _shepard_document_set_engine_failure (error, status, &engine_error);
      return FALSE;
    }
  return TRUE;
}

void
shepard_document_explain_async (ShepardDocument *self, const shepard_params *params, double x, double y,
                                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL);

  AnalysisRequest *request = analysis_request_new (self, params);
  request->x = x;
  request->y = y;
  request->capacity = shepard_explanation_capacity_for (params);
  _shepard_document_start_job (self, shepard_document_explain_async, explain_work, request, analysis_request_free,
                               cancellable, callback, user_data);
}

ShepardExplanation *
shepard_document_explain_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  AnalysisRequest *request = _shepard_document_finish_job (self, result, shepard_document_explain_async, error);

  return request != NULL ? g_steal_pointer (&request->explanation) : NULL;
}

typedef struct {
  shepard_params params;
  ShepardOptimiseOptions options;
  ShepardOptimiseResult result;
  ShepardProgressRelay *progress;
} OptimiseRequest;

static void
optimise_request_free (gpointer data)
{
  OptimiseRequest *request = data;

  shepard_progress_relay_unref (request->progress);
  g_free (request);
}

static bool
report_optimise_progress (double fraction, const char *message, void *relay)
{
  return shepard_progress_relay_report (relay, fraction);
}

/* A sandbox's study area is its extent for the optimiser too; the parameters it hands back keep the area the caller
 * gave, so that applying them changes nothing else. */
static void
keep_callers_area (const shepard_params *asked, shepard_params *params)
{
  params->area_mode = asked->area_mode;
  params->area = asked->area;
}

static gboolean
optimise_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  OptimiseRequest *request = data;
  shepard_params engine_params;

  _shepard_document_engine_params (self, &request->params, &engine_params);
  if (shepard_optimise (self->engine, &engine_params, &request->options, &request->result, report_optimise_progress,
                        request->progress, error))
    {
      keep_callers_area (&request->params, &request->result.start);
      keep_callers_area (&request->params, &request->result.best);
      return TRUE;
    }
  if (g_error_matches (*error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED))
    {
      g_clear_error (error);
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The optimisation was cancelled");
    }
  return FALSE;
}

/* Who asked for an optimisation: told once the document has stopped counting it, so that edits go through again
 * from its callback on. */
typedef struct {
  GAsyncReadyCallback callback;
  gpointer user_data;
} OptimiseCaller;

static void
on_optimise_done (GObject *source, GAsyncResult *result, gpointer data)
{
  OptimiseCaller *caller = data;

  g_atomic_int_dec_and_test (&SHEPARD_DOCUMENT (source)->optimisations);
  if (caller->callback != NULL)
    caller->callback (source, result, caller->user_data);
  g_free (caller);
}

void
shepard_document_optimise_async (ShepardDocument *self, const shepard_params *params,
                                 const ShepardOptimiseOptions *options, ShepardProgressCallback progress,
                                 GObject *progress_target, GCancellable *cancellable, GAsyncReadyCallback callback,
                                 gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && options != NULL);
  g_return_if_fail (progress_target == NULL || G_IS_OBJECT (progress_target));

  OptimiseRequest *request = g_new0 (OptimiseRequest, 1);
  request->params = *params;
  request->options = *options;
  request->progress = shepard_progress_relay_new (progress, progress_target, cancellable);
  OptimiseCaller *caller = g_new0 (OptimiseCaller, 1);
  caller->callback = callback;
  caller->user_data = user_data;
  g_atomic_int_inc (&self->optimisations);
  _shepard_document_start_job (self, shepard_document_optimise_async, optimise_work, request, optimise_request_free,
                               cancellable, on_optimise_done, caller);
}

gboolean
shepard_document_optimise_finish (ShepardDocument *self, GAsyncResult *result, ShepardOptimiseResult *optimised,
                                  GError **error)
{
  g_return_val_if_fail (optimised != NULL, FALSE);

  OptimiseRequest *request = _shepard_document_finish_job (self, result, shepard_document_optimise_async, error);
  if (request == NULL)
    return FALSE;
  *optimised = request->result;
  return TRUE;
}
