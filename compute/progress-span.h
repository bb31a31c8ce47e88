/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One stage of a longer job on a progress callback that covers the whole job: the stage's fraction 0..1 is reported
 * as start + span * fraction, so that the whole job's progress never goes back. */
#ifndef SHEPARD_PROGRESS_SPAN_H
#define SHEPARD_PROGRESS_SPAN_H

#include "shepard-engine.h"

typedef struct {
  shepard_progress_fn progress; /* NULL: no progress wanted */
  void *progress_data;
  double start, span;
} shepard_progress_span;

/* The whole job: [0, 1] of progress. */
shepard_progress_span shepard_progress_span_whole (shepard_progress_fn progress, void *progress_data);

/* The part [from, to] (fractions of span) of span. */
shepard_progress_span shepard_progress_span_part (const shepard_progress_span *span, double from, double to);

/* What to hand a function that takes a shepard_progress_fn for span's stage: NULL when no progress is wanted. Its data
 * is the span itself. */
shepard_progress_fn shepard_progress_span_fn (const shepard_progress_span *span);

#endif
