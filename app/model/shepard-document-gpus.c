/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine made again on other GPUs with the points it holds. A job makes the new engine while it holds the old one;
 * the main thread, which alone reads the engine without holding it (bounds, device, names), then swaps them once it
 * can hold the engine without waiting: it never blocks behind a long job, and it never waits for a worker that waits
 * for it (a sandbox's edit holds the engine from the main thread). */
#include "shepard-document-private.h"

#include "shepard-app-error.h"

/* How soon the main thread asks again for an engine that a job holds. */
#define SWAP_RETRY_MS 20

gboolean
_shepard_document_parse_gpus (const char *gpus, shepard_gpu_set *set, GError **error)
{
  shepard_error engine_error = { 0 };

  if (shepard_gpu_set_parse (gpus, set, &engine_error) != SHEPARD_OK)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER, engine_error.message);
      return FALSE;
    }
  return TRUE;
}

char *
shepard_document_get_gpus (ShepardDocument *self)
{
  char text[SHEPARD_MAX_GPUS * 8];

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  shepard_gpu_set_format (&self->gpus, text, sizeof text);
  return g_strdup (text);
}

typedef struct {
  shepard_gpu_set gpus;
  shepard_engine *engine;  /* made by the job; the document's once swapped in */
  guint points_generation; /* of the points it holds */
} EngineChange;

static void
engine_change_free (gpointer data)
{
  EngineChange *change = data;

  g_clear_pointer (&change->engine, shepard_engine_free);
  g_free (change);
}

static gboolean
make_engine_work (ShepardDocument *self, gpointer data, GCancellable *cancellable, GError **error)
{
  EngineChange *change = data;

  change->points_generation = self->points_generation;
  change->engine = _shepard_document_new_engine (self, &change->gpus, cancellable, error);
  return change->engine != NULL;
}

/* With the engine held: the new engine in place of the old one, given the points of an edit that came after it was
 * made. */
static gboolean
swap_engine_locked (ShepardDocument *self, EngineChange *change, GError **error)
{
  shepard_error engine_error = { 0 };

  if (change->points_generation != self->points_generation && self->points->count > 0
      && shepard_engine_set_points (change->engine, self->points->x, self->points->y, self->points->z,
                                    self->points->count, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  _shepard_document_take_engine (self, g_steal_pointer (&change->engine), &change->gpus);
  return TRUE;
}

/* G_SOURCE_CONTINUE while a job holds the engine; otherwise the change is returned. */
static gboolean
try_swap (gpointer data)
{
  GTask *task = data;
  ShepardDocument *self = g_task_get_source_object (task);
  EngineChange *change = g_task_get_task_data (task);
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return G_SOURCE_REMOVE;
  if (!_shepard_document_hold_engine_until (self, g_get_monotonic_time ()))
    return G_SOURCE_CONTINUE;
  gboolean swapped = swap_engine_locked (self, change, &error);
  _shepard_document_release_engine (self);
  if (swapped)
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
  return G_SOURCE_REMOVE;
}

static void
on_engine_made (GObject *source, GAsyncResult *result, gpointer data)
{
  ShepardDocument *self = SHEPARD_DOCUMENT (source);
  g_autoptr (GTask) task = data;
  EngineChange *change = g_task_get_task_data (task);
  GError *error = NULL;
  EngineChange *made = _shepard_document_finish_job (self, result, shepard_document_set_gpus_async, &error);

  if (made == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  change->engine = g_steal_pointer (&made->engine);
  change->points_generation = made->points_generation;
  if (try_swap (task) == G_SOURCE_CONTINUE)
    g_timeout_add_full (G_PRIORITY_DEFAULT, SWAP_RETRY_MS, try_swap, g_object_ref (task), g_object_unref);
}

void
shepard_document_set_gpus_async (ShepardDocument *self, const char *gpus, GCancellable *cancellable,
                                 GAsyncReadyCallback callback, gpointer user_data)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));

  g_autoptr (GTask) task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, shepard_document_set_gpus_async);
  /* Once swapped in, the new engine is the document's: a cancel after that changes nothing. */
  g_task_set_check_cancellable (task, FALSE);
  EngineChange *change = g_new0 (EngineChange, 1);
  g_task_set_task_data (task, change, engine_change_free);
  GError *error = NULL;
  if (!_shepard_document_parse_gpus (gpus, &change->gpus, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  EngineChange *job = g_new0 (EngineChange, 1);
  job->gpus = change->gpus;
  _shepard_document_start_job (self, shepard_document_set_gpus_async, make_engine_work, job, engine_change_free,
                               cancellable, on_engine_made, g_steal_pointer (&task));
}

gboolean
shepard_document_set_gpus_finish (ShepardDocument *self, GAsyncResult *result, GError **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == shepard_document_set_gpus_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
