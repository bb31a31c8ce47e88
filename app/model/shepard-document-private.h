/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "device-grid-pool.h"
#include "shepard-document.h"

G_BEGIN_DECLS

/* The document's parts live in several files (shepard-document.c: loading, interpolation and export;
 * shepard-document-analysis.c: cross-validation, explanations and the optimiser; shepard-document-sandbox.c: the
 * classroom sandbox's editable points); they share this. */
struct _ShepardDocument
{
  GObject parent_instance;

  ShepardPointLayer *points;
  char **numeric_fields;
  char *crs_name;
  double value_min, value_max;

  /* The engine keeps search structures between calls and is not reentrant: one call at a time. */
  GMutex engine_lock;
  shepard_engine *engine;
  char *backend;
  char *engine_name; /* the backend without the reason it fell back to the CPU */

  ShepardDeviceGridPool *device_grids; /* NULL on a CPU engine */

  gboolean sandbox;
  double sandbox_extent[4]; /* x_min, y_min, x_max, y_max: what a sandbox shows and interpolates */
  guint points_generation;  /* bumped by every edit of the points */
};

/* A new engine for self->points (which may be empty): backend names, the GPU grid pool, the value range. */
gboolean _shepard_document_start_engine (ShepardDocument *self, GError **error);
void _shepard_document_update_value_range (ShepardDocument *self);
void _shepard_document_emit_points_changed (ShepardDocument *self);
/* "Amersfoort / RD New (EPSG:28992)", "none" without a CRS. */
char *_shepard_document_describe_crs (const char *wkt);

/* A cancellable as an engine progress callback's data: returns false once it is cancelled. */
bool _shepard_document_cancel_check (double fraction, const char *message, void *cancellable);
/* An engine status as a GError: G_IO_ERROR_CANCELLED for a cancel, else the engine's message. */
void _shepard_document_set_engine_failure (GError **error, shepard_status status, const shepard_error *engine_error);

G_END_DECLS
