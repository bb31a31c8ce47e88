/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-export.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* The engines that interpolate several value fields of one layer (shepard_point_layer_read_fields) into the bands
 * of one export. Fields over the same points (shepard_point_layer_same_points) share an engine, so that its
 * neighbour search and AIDW's alpha are computed once for all of them; a field that skipped other rows gets one of
 * its own. */
typedef struct {
  GPtrArray *engines;             /* shepard_engine, owned; the first is that of the first field */
  ShepardGridExportField *fields; /* one per field, in the order read: its engine, plane and name (borrowed from the
                                   * ShepardPointLayer, which must outlive this) */
  size_t n_fields;
} ShepardFieldEngines;

/* Starts the engines for fields (a GPtrArray of ShepardPointLayer, at least one) on backend (on the GPUs of gpus
 * where it runs on CUDA; NULL: every visible GPU). On failure (the engine's message, as SHEPARD_APP_ERROR) self is
 * left cleared. */
gboolean shepard_field_engines_init (ShepardFieldEngines *self, GPtrArray *fields, shepard_backend backend,
                                     shepard_precision precision, const shepard_gpu_set *gpus, GError **error);

void shepard_field_engines_clear (ShepardFieldEngines *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardFieldEngines, shepard_field_engines_clear)

G_END_DECLS
