/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "field-engines.h"
#include "layer-scan.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* Where a rank's engines run: the backend, and on the CPU how many threads; on CUDA one GPU. */
typedef struct {
  shepard_backend backend;
  shepard_precision precision;
  int threads;          /* CPU threads; 0: every core */
  shepard_gpu_set gpus; /* count 0: every visible GPU */
} ShepardEngineChoice;

/* The engines of a rank for fields (a GPtrArray of ShepardPointLayer, in the order of the command line), as
 * shepard_field_engines_init makes them for shepard-grid: fields whose points are the same share an engine.
 * scan NULL: the fields hold every point of the layer, and the fields are grouped by their points. Else they hold a
 * part of it, grouped as scan->leader_of says, and each engine computes in the frame of its whole group
 * (shepard_engine_set_points_part). On failure self is left cleared. */
gboolean shepard_rank_engines_init (ShepardFieldEngines *self, GPtrArray *fields, const ShepardLayerScan *scan,
                                    const ShepardEngineChoice *choice, GError **error);

G_END_DECLS
