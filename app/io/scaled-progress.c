/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "scaled-progress.h"

int CPL_STDCALL
shepard_scaled_progress_report (double fraction, const char *message, void *data)
{
  const ShepardScaledProgress *scaled = data;

  return scaled->progress (scaled->start + scaled->span * CLAMP (fraction, 0.0, 1.0), message,
                           scaled->progress_data);
}

bool
shepard_scaled_progress_report_engine (double fraction, const char *message, void *data)
{
  return shepard_scaled_progress_report (fraction, message, data) != FALSE;
}
