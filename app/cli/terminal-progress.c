/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "terminal-progress.h"

enum { TICKS = 40, TICKS_PER_LABEL = 4 };

void
shepard_terminal_progress_init (ShepardTerminalProgress *progress, FILE *stream,
                                const volatile sig_atomic_t *cancel_requested)
{
  g_return_if_fail (progress != NULL && cancel_requested != NULL);

  *progress = (ShepardTerminalProgress) {
    .stream = stream,
    .last_tick = -1,
    .cancel_requested = cancel_requested,
  };
}

int CPL_STDCALL
shepard_terminal_progress_report (double fraction, const char *message, void *data)
{
  ShepardTerminalProgress *progress = data;

  if (*progress->cancel_requested != 0)
    return FALSE;
  if (progress->stream == NULL)
    return TRUE;

  int tick = (int) CLAMP (fraction * TICKS, 0.0, (double) TICKS);
  if (tick <= progress->last_tick)
    return TRUE;
  while (progress->last_tick < tick)
    {
      progress->last_tick++;
      if (progress->last_tick % TICKS_PER_LABEL == 0)
        fprintf (progress->stream, "%d", progress->last_tick / TICKS_PER_LABEL * 10);
      else
        fputc ('.', progress->stream);
    }
  if (tick == TICKS)
    fputs (" - done.\n", progress->stream);
  fflush (progress->stream);
  return TRUE;
}

void
shepard_terminal_progress_end_line (ShepardTerminalProgress *progress)
{
  g_return_if_fail (progress != NULL);

  if (progress->stream != NULL && progress->last_tick >= 0 && progress->last_tick < TICKS)
    {
      fputc ('\n', progress->stream);
      fflush (progress->stream);
      progress->last_tick = TICKS;
    }
}
