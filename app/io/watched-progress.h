/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* GDAL drivers do not all raise CPLE_UserInterrupt when the progress callback stops them: a call made with
 * shepard_watched_progress and a ShepardWatchedProgress as its data records the refusal in `refused`. */
typedef struct {
  GDALProgressFunc progress; /* never NULL: GDALDummyProgress where the caller has none */
  void *progress_data;
  gboolean refused;
} ShepardWatchedProgress;

int CPL_STDCALL shepard_watched_progress (double fraction, const char *message, void *data);

G_END_DECLS
