/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_APP_ERROR (shepard_app_error_quark ())

typedef enum {
  SHEPARD_APP_ERROR_USAGE,             /* the command line is wrong */
  SHEPARD_APP_ERROR_INVALID_PARAMETER, /* a method specification or parameter is wrong or out of range */
  SHEPARD_APP_ERROR_OPEN,              /* the point source cannot be opened */
  SHEPARD_APP_ERROR_NO_LAYER,          /* no such layer */
  SHEPARD_APP_ERROR_NO_FIELD,          /* no such field, or a field that does not hold numbers */
  SHEPARD_APP_ERROR_GEOMETRY,          /* a layer without geometry, or a geometry other than Point/MultiPoint */
  SHEPARD_APP_ERROR_NO_POINTS,         /* no usable data point */
  SHEPARD_APP_ERROR_DEGENERATE_AREA,   /* AIDW study area is zero */
  SHEPARD_APP_ERROR_FORMAT,            /* unknown raster format, or one that cannot write this raster */
  SHEPARD_APP_ERROR_SAME_FILE,         /* the output would overwrite the input */
  SHEPARD_APP_ERROR_WRITE,             /* the raster cannot be written */
  SHEPARD_APP_ERROR_CANCELLED,
  SHEPARD_APP_ERROR_NO_DEVICE,         /* the requested backend is not available */
  SHEPARD_APP_ERROR_ENGINE,            /* any other engine failure (memory, size overflow, device) */
} ShepardAppError;

GQuark shepard_app_error_quark (void);

/* Turns an engine error value into a GError in SHEPARD_APP_ERROR, keeping the engine's message. */
void shepard_app_error_set_from_engine (GError **error, const shepard_error *engine_error);

G_END_DECLS
