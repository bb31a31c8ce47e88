/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Called on the thread that started a job, with a reference on target held meanwhile. */
typedef void (*ShepardProgressCallback) (GObject *target, double fraction);

/* Carries a worker thread's progress to the main context of the thread that made the relay: at most one update waits
 * there however often the worker reports, and none is delivered once cancellable is cancelled. Reference counted:
 * an update on its way holds the relay. */
typedef struct _ShepardProgressRelay ShepardProgressRelay;

/* callback may be NULL (progress only answers cancel then); target may be NULL. */
ShepardProgressRelay *shepard_progress_relay_new (ShepardProgressCallback callback, GObject *target,
                                                  GCancellable *cancellable);
ShepardProgressRelay *shepard_progress_relay_ref (ShepardProgressRelay *relay);
void shepard_progress_relay_unref (ShepardProgressRelay *relay);

/* From the worker: keeps fraction and has it delivered; FALSE once the job is cancelled (the work should stop). */
gboolean shepard_progress_relay_report (ShepardProgressRelay *relay, double fraction);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardProgressRelay, shepard_progress_relay_unref)

G_END_DECLS
