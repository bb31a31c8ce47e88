/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A piece of background work that took longer than this (the preview's budget for a grid that comes at once) waits
 * until no request has come for SHEPARD_PREVIEW_REST_MS, so that a dragged slider keeps the engine for its frames;
 * quicker work still follows the hand. */
#define SHEPARD_WORK_PACING_LIVE_SECONDS 0.03

/* When a slow piece of work may start: how long it takes (its last run to the end, raised by any run dropped after
 * running longer, waits for the engine included), when the latest request came, and the timer that resumes the owner
 * once the hand has rested. The owner's main context runs resume. */
typedef struct {
  double seconds;
  gint64 started_at;
  gint64 last_request;
  guint rest_source;
  GSourceFunc resume;
  gpointer resume_data;
} ShepardWorkPacing;

void shepard_work_pacing_init (ShepardWorkPacing *pacing, GSourceFunc resume, gpointer resume_data);
/* A request came: the rest starts again, and a waiting start waits for the new one. */
void shepard_work_pacing_requested (ShepardWorkPacing *pacing);
/* The work started now; it ended (finished: its own time counts) or was dropped (the time it ran raises the
 * estimate). */
void shepard_work_pacing_started (ShepardWorkPacing *pacing);
void shepard_work_pacing_finished (ShepardWorkPacing *pacing, double seconds);
void shepard_work_pacing_dropped (ShepardWorkPacing *pacing);
/* TRUE where the work must not start yet: resume is then called once the hand has rested. */
gboolean shepard_work_pacing_must_wait (ShepardWorkPacing *pacing);
/* Whether a start waits for the rest. */
gboolean shepard_work_pacing_waiting (const ShepardWorkPacing *pacing);
/* No start waits any more; with forget, the estimate goes too (another document). */
void shepard_work_pacing_stop (ShepardWorkPacing *pacing, gboolean forget);

G_END_DECLS
