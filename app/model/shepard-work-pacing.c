/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-work-pacing.h"

#include "shepard-preview.h"

void
shepard_work_pacing_init (ShepardWorkPacing *pacing, GSourceFunc resume, gpointer resume_data)
{
  *pacing = (ShepardWorkPacing) { .resume = resume, .resume_data = resume_data };
}

void
shepard_work_pacing_requested (ShepardWorkPacing *pacing)
{
  pacing->last_request = g_get_monotonic_time ();
  g_clear_handle_id (&pacing->rest_source, g_source_remove);
}

void
shepard_work_pacing_started (ShepardWorkPacing *pacing)
{
  pacing->started_at = g_get_monotonic_time ();
}

void
shepard_work_pacing_finished (ShepardWorkPacing *pacing, double seconds)
{
  pacing->seconds = seconds;
}

void
shepard_work_pacing_dropped (ShepardWorkPacing *pacing)
{
  pacing->seconds = MAX (pacing->seconds, (double) (g_get_monotonic_time () - pacing->started_at) / G_USEC_PER_SEC);
}

static gboolean
on_rested (gpointer data)
{
  ShepardWorkPacing *pacing = data;

  pacing->rest_source = 0;
  return pacing->resume (pacing->resume_data);
}

gboolean
shepard_work_pacing_must_wait (ShepardWorkPacing *pacing)
{
  if (pacing->seconds <= SHEPARD_WORK_PACING_LIVE_SECONDS)
    return FALSE;
  gint64 rested_ms = (g_get_monotonic_time () - pacing->last_request) / 1000;
  if (rested_ms >= SHEPARD_PREVIEW_REST_MS)
    return FALSE;
  if (pacing->rest_source == 0)
    pacing->rest_source = g_timeout_add ((guint) (SHEPARD_PREVIEW_REST_MS - rested_ms), on_rested, pacing);
  return TRUE;
}

gboolean
shepard_work_pacing_waiting (const ShepardWorkPacing *pacing)
{
  return pacing->rest_source != 0;
}

void
shepard_work_pacing_stop (ShepardWorkPacing *pacing, gboolean forget)
{
  g_clear_handle_id (&pacing->rest_source, g_source_remove);
  if (forget)
    pacing->seconds = 0.0;
}
