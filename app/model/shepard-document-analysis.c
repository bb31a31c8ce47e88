/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's instruments: cross-validation and explanations, each a worker thread on the engine. */
#include "shepard-document-private.h"

#include "shepard-app-error.h"

typedef struct {
  shepard_params params;
  size_t folds;
  guint64 seed;
  double x, y;
  size_t capacity;
} AnalysisRequest;

/* A worker thread on the engine for request (freed with the task); a newer request cancels it without its error
 * pre-empting the newer result. */
static void
run_analysis (ShepardDocument *self, AnalysisRequest *request, gpointer source_tag, GTaskThreadFunc thread,
              GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, request, g_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, thread);
}

static void
cross_validate_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  const AnalysisRequest *request = task_data;
  const ShepardPointLayer *points = self->points;
  g_autoptr (GCancellable) never = cancellable == NULL ? g_cancellable_new () : NULL;
  shepard_error engine_error = { 0 };
  GError *error = NULL;

  g_mutex_lock (&self->engine_lock);
  if (g_task_return_error_if_cancelled (task))
    {
      g_mutex_unlock (&self->engine_lock);
      return;
    }
  g_autoptr (ShepardCrossValidation) validation = shepard_cross_validation_new (&request->params, request->folds,
                                                                                 points->x, points->y, points->z,
                                                                                 points->count);
  validation->points_generation = self->points_generation;
  shepard_cv_outputs outputs = { validation->prediction, validation->residual, validation->alpha, NULL };
  gint64 start = g_get_monotonic_time ();
  shepard_status status = shepard_engine_cross_validate (self->engine, &request->params, request->folds,
                                                         request->seed, &outputs, &validation->summary,
                                                         _shepard_document_cancel_check,
                                                         cancellable != NULL ? cancellable : never, &engine_error);
  validation->seconds = (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC;
  g_mutex_unlock (&self->engine_lock);
  if (status != SHEPARD_OK)
    {
      _shepard_document_set_engine_failure (&error, status, &engine_error);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&validation), (GDestroyNotify) shepard_cross_validation_unref);
}

void
shepard_document_cross_validate_async (ShepardDocument *self, const shepard_params *params, size_t folds,
                                       guint64 seed, GCancellable *cancellable, GAsyncReadyCallback callback,
                                       gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL);

  AnalysisRequest *request = g_new0 (AnalysisRequest, 1);
  request->params = *params;
  request->folds = folds;
  request->seed = seed;
  run_analysis (self, request, shepard_document_cross_validate_async, cross_validate_thread, cancellable, callback,
                user_data);
}

ShepardCrossValidation *
shepard_document_cross_validate_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
explain_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  const AnalysisRequest *request = task_data;
  shepard_error engine_error = { 0 };
  GError *error = NULL;

  g_mutex_lock (&self->engine_lock);
  if (g_task_return_error_if_cancelled (task))
    {
      g_mutex_unlock (&self->engine_lock);
      return;
    }
  g_autoptr (ShepardExplanation) explanation = shepard_explanation_new (&request->params, request->x, request->y,
                                                                         request->capacity);
  explanation->points_generation = self->points_generation;
  shepard_status status = shepard_engine_explain (self->engine, &request->params, request->x, request->y,
                                                  explanation->listed, request->capacity,
                                                  &explanation->explanation, &engine_error);
  g_mutex_unlock (&self->engine_lock);
  if (status != SHEPARD_OK)
    {
      _shepard_document_set_engine_failure (&error, status, &engine_error);
      g_task_return_error (task, error);
      return;
    }
  g_task_return_pointer (task, g_steal_pointer (&explanation), (GDestroyNotify) shepard_explanation_unref);
}

void
shepard_document_explain_async (ShepardDocument *self, const shepard_params *params, double x, double y,
                                GCancellable *cancellable, GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL);

  AnalysisRequest *request = g_new0 (AnalysisRequest, 1);
  request->params = *params;
  request->x = x;
  request->y = y;
  request->capacity = shepard_explanation_capacity_for (params);
  run_analysis (self, request, shepard_document_explain_async, explain_thread, cancellable, callback, user_data);
}

ShepardExplanation *
shepard_document_explain_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
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

static void
optimise_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  OptimiseRequest *request = task_data;
  GError *error = NULL;

  g_mutex_lock (&self->engine_lock);
  gboolean optimised = shepard_optimise (self->engine, &request->params, &request->options, &request->result,
                                         report_optimise_progress, request->progress, &error);
  g_mutex_unlock (&self->engine_lock);
  if (!optimised && g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED))
    {
      g_clear_error (&error);
      g_set_error_literal (&error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The optimisation was cancelled");
    }
  if (optimised)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
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
  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_optimise_async);
  g_task_set_task_data (task, request, optimise_request_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, optimise_thread);
}

gboolean
shepard_document_optimise_finish (ShepardDocument *self, GAsyncResult *result, ShepardOptimiseResult *optimised,
                                  GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (optimised != NULL, FALSE);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return FALSE;
  *optimised = ((OptimiseRequest *) g_task_get_task_data (G_TASK (result)))->result;
  return TRUE;
}
