/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "raster-format.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* Bands of rows are computed and written one at a time; each holds at most this many bytes of doubles (at least one
 * row), so a raster of any size is never held whole in memory. */
#define SHEPARD_GRID_EXPORT_BAND_BYTES ((size_t) 32 * 1024 * 1024)

typedef struct {
  const char *value_path;
  const char *alpha_path; /* AIDW only: also write the adaptive power alpha of every cell here; NULL: don't */
  ShepardRasterFormat format;
  size_t band_bytes;      /* 0: SHEPARD_GRID_EXPORT_BAND_BYTES */
} ShepardGridExport;

/* Interpolates the grid with the engine (its points already set) and writes it through GDAL, band by band, each
 * raster atomically: on failure or cancel nothing is left and existing files are untouched; on success both rasters
 * are in place. progress follows GDAL's contract and may be NULL; returning FALSE cancels
 * (SHEPARD_APP_ERROR_CANCELLED). */
gboolean shepard_grid_export (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                              const ShepardGridExport *request, GDALProgressFunc progress, void *progress_data,
                              GError **error);

G_END_DECLS
