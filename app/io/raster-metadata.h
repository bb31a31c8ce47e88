/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Where an interpolated raster comes from: enough, with its geotransform (extent and size) and data type, to compute
 * it again with shepard-grid. */
typedef struct {
  const char *source;              /* the point layer's path or connection; NULL: left out (a sandbox) */
  const char *layer;               /* the layer's name */
  const char *field;               /* the interpolated field */
  const char *const *open_options; /* NAME=VALUE the layer was opened with; NULL or empty: none */
  size_t n_points;                 /* the points interpolated (skipped features not counted) */
  const char *method;              /* as shepard-grid -a takes it (shepard_method_spec_format) */
  const shepard_engine *engine;    /* what computed it */
  shepard_precision precision;     /* the engine's arithmetic */
  const char *mask;                /* shepard_grid_mask_describe: the options of the mask; NULL or "": none */
} ShepardRasterProvenance;

/* The dataset metadata (default domain) Shepard writes into a raster, NAME=VALUE: SHEPARD_SOURCE (absolute when
 * it names a file), SHEPARD_LAYER,
 * SHEPARD_FIELD, SHEPARD_OPEN_OPTIONS (space-separated, only when there are some), SHEPARD_POINTS, SHEPARD_METHOD,
 * SHEPARD_MASK (shepard-grid's mask options, only with a mask),
 * SHEPARD_ENGINE ("cuda float32", "cpu float64": the --backend and precision), SHEPARD_ENGINE_DESCRIPTION (the
 * device or the CPU's threads and instruction set) and SHEPARD_VERSION (the project's version). Free with
 * g_strfreev. */
char **shepard_raster_metadata_new (const ShepardRasterProvenance *provenance);

G_END_DECLS
