/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "watched-progress.h"

int CPL_STDCALL
shepard_watched_progress (double fraction, const char *message, void *data)
{
  ShepardWatchedProgress *watched = data;

  if (!watched->progress (fraction, message, watched->progress_data))
    watched->refused = TRUE;
  return !watched->refused;
}
