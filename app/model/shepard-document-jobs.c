/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Who holds the document's engine, and the worker threads that run on it. The engine serves one call at a time; a job
 * that has been cancelled only notices at the engine's next cancel check, so an in-line interpolation (the preview's
 * answer within the frame) may wait a little for such a holder rather than fall back to a worker and show a frame
 * later; it then goes before any worker waiting. */
#include "shepard-document-private.h"

#include "shepard-app-error.h"

gboolean
_shepard_document_hold_engine (ShepardDocument *self, GCancellable *cancellable)
{
  gboolean held = FALSE;

  g_mutex_lock (&self->engine_state);
  while (!g_cancellable_is_cancelled (cancellable))
    {
      if (!self->engine_held && self->inline_waiters == 0)
        {
          self->engine_held = TRUE;
          self->engine_holder = cancellable != NULL ? g_object_ref (cancellable) : NULL;
          held = TRUE;
          break;
        }
      g_cond_wait (&self->engine_released, &self->engine_state);
    }
  g_mutex_unlock (&self->engine_state);
  return held;
}

gboolean
_shepard_document_hold_engine_until (ShepardDocument *self, gint64 deadline)
{
  g_mutex_lock (&self->engine_state);
  self->inline_waiters++;
  while (self->engine_held && self->engine_holder != NULL && g_cancellable_is_cancelled (self->engine_holder))
    if (!g_cond_wait_until (&self->engine_released, &self->engine_state, deadline))
      break;
  self->inline_waiters--;
  gboolean held = !self->engine_held;
  if (held)
    self->engine_held = TRUE;
  else
    /* Workers that stood back for this caller go on waiting for the holder. */
    g_cond_broadcast (&self->engine_released);
  g_mutex_unlock (&self->engine_state);
  return held;
}

void
_shepard_document_release_engine (ShepardDocument *self)
{
  g_mutex_lock (&self->engine_state);
  self->engine_held = FALSE;
  g_clear_object (&self->engine_holder);
  g_cond_broadcast (&self->engine_released);
  g_mutex_unlock (&self->engine_state);
}

bool
_shepard_document_cancel_check (double fraction, const char *message, void *cancellable)
{
  return !g_cancellable_is_cancelled (cancellable);
}

void
_shepard_document_set_engine_failure (GError **error, shepard_status status, const shepard_error *engine_error)
{
  if (status == SHEPARD_ERROR_CANCELLED)
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The computation was cancelled");
  else
    shepard_app_error_set_from_engine (error, engine_error);
}

typedef struct {
  ShepardEngineWork work;
  gpointer request;
  GDestroyNotify request_free;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  job->request_free (job->request);
  g_free (job);
}

static void
job_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  ShepardDocument *self = source_object;
  Job *job = task_data;
  GError *error = NULL;

  if (!_shepard_document_hold_engine (self, cancellable))
    {
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "The computation was cancelled");
      return;
    }
  gboolean done = job->work (self, job->request, cancellable, &error);
  _shepard_document_release_engine (self);
  if (done)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

void
_shepard_document_start_job (ShepardDocument *self, gpointer source_tag, ShepardEngineWork work, gpointer request,
                             GDestroyNotify request_free, GCancellable *cancellable, GAsyncReadyCallback callback,
                             gpointer user_data)
{
  Job *job = g_new0 (Job, 1);
  job->work = work;
  job->request = request;
  job->request_free = request_free;

  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, source_tag);
  g_task_set_task_data (task, job, job_free);
  g_task_set_return_on_cancel (task, FALSE);
  g_task_run_in_thread (task, job_thread);
}

gpointer
_shepard_document_finish_job (ShepardDocument *self, GAsyncResult *result, gpointer source_tag, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == source_tag, NULL);

  if (!g_task_propagate_boolean (G_TASK (result), error))
    return NULL;
  return ((Job *) g_task_get_task_data (G_TASK (result)))->request;
}
