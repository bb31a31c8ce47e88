/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "progress-relay.h"

struct _ShepardProgressRelay
{
  ShepardProgressCallback callback;
  GObject *target;
  GCancellable *cancellable;
  GMainContext *context;
  GMutex lock;
  double fraction;        /* the last fraction reported */
  gboolean update_pending; /* an update waits on the context */
};

ShepardProgressRelay *
shepard_progress_relay_new (ShepardProgressCallback callback, GObject *target, GCancellable *cancellable)
{
  g_return_val_if_fail (target == NULL || G_IS_OBJECT (target), NULL);

  ShepardProgressRelay *relay = g_atomic_rc_box_new0 (ShepardProgressRelay);
  relay->callback = callback;
  relay->target = target != NULL ? g_object_ref (target) : NULL;
  relay->cancellable = cancellable != NULL ? g_object_ref (cancellable) : g_cancellable_new ();
  relay->context = g_main_context_ref_thread_default ();
  g_mutex_init (&relay->lock);
  return relay;
}

ShepardProgressRelay *
shepard_progress_relay_ref (ShepardProgressRelay *relay)
{
  return g_atomic_rc_box_acquire (relay);
}

static void
relay_clear (gpointer data)
{
  ShepardProgressRelay *relay = data;

  g_clear_object (&relay->target);
  g_clear_object (&relay->cancellable);
  g_main_context_unref (relay->context);
  g_mutex_clear (&relay->lock);
}

void
shepard_progress_relay_unref (ShepardProgressRelay *relay)
{
  g_atomic_rc_box_release_full (relay, relay_clear);
}

static gboolean
deliver (gpointer data)
{
  ShepardProgressRelay *relay = data;

  g_mutex_lock (&relay->lock);
  double fraction = relay->fraction;
  relay->update_pending = FALSE;
  g_mutex_unlock (&relay->lock);
  if (relay->callback != NULL && !g_cancellable_is_cancelled (relay->cancellable))
    relay->callback (relay->target, fraction);
  return G_SOURCE_REMOVE;
}

gboolean
shepard_progress_relay_report (ShepardProgressRelay *relay, double fraction)
{
  gboolean schedule;

  g_mutex_lock (&relay->lock);
  relay->fraction = fraction;
  schedule = !relay->update_pending && relay->callback != NULL;
  relay->update_pending |= schedule;
  g_mutex_unlock (&relay->lock);
  if (schedule)
    g_main_context_invoke_full (relay->context, G_PRIORITY_DEFAULT, deliver, shepard_progress_relay_ref (relay),
                                (GDestroyNotify) shepard_progress_relay_unref);
  return !g_cancellable_is_cancelled (relay->cancellable);
}
