/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "progress-span.h"

#include <math.h>

shepard_progress_span
shepard_progress_span_whole (shepard_progress_fn progress, void *progress_data)
{
  return (shepard_progress_span) { progress, progress_data, 0.0, 1.0 };
}

shepard_progress_span
shepard_progress_span_part (const shepard_progress_span *span, double from, double to)
{
  return (shepard_progress_span) { span->progress, span->progress_data, span->start + span->span * from,
                                   span->span * (to - from) };
}

static bool
report (double fraction, const char *message, void *data)
{
  const shepard_progress_span *span = data;
  return span->progress (span->start + span->span * fmin (fmax (fraction, 0.0), 1.0), message, span->progress_data);
}

shepard_progress_fn
shepard_progress_span_fn (const shepard_progress_span *span)
{
  return span->progress ? report : NULL;
}
