/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cpl_progress.h>
#include <glib.h>
#include <signal.h>
#include <stdio.h>

G_BEGIN_DECLS

/* GDAL's text progress bar ("0...10...20...30...40...50...60...70...80...90...100 - done.") on any stream (GDAL's
 * own writes to stdout), which also asks the work to stop once a signal handler has set the cancel flag. */
typedef struct {
  FILE *stream;  /* NULL: draw nothing, only watch the cancel flag */
  int last_tick; /* ticks of 2.5 % drawn so far, -1 before the first */
  const volatile sig_atomic_t *cancel_requested;
} ShepardTerminalProgress;

void shepard_terminal_progress_init (ShepardTerminalProgress *progress, FILE *stream,
                                     const volatile sig_atomic_t *cancel_requested);

/* A GDALProgressFunc; data is a ShepardTerminalProgress. */
int CPL_STDCALL shepard_terminal_progress_report (double fraction, const char *message, void *data);

/* Ends a bar left half drawn, so that a message that follows starts on its own line. */
void shepard_terminal_progress_end_line (ShepardTerminalProgress *progress);

G_END_DECLS
