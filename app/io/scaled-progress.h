/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cpl_progress.h>
#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* One step of a longer task on a progress callback that covers the whole task: the step's fraction 0..1 is reported
 * as start + span * fraction. */
typedef struct {
  GDALProgressFunc progress; /* GDAL's contract; never NULL (GDALDummyProgress for none) */
  void *progress_data;
  double start, span;
} ShepardScaledProgress;

/* A GDALProgressFunc; data is a ShepardScaledProgress. */
int CPL_STDCALL shepard_scaled_progress_report (double fraction, const char *message, void *data);

/* The same as the engine's shepard_progress_fn. */
bool shepard_scaled_progress_report_engine (double fraction, const char *message, void *data);

G_END_DECLS
