/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "grid-mask.h"
#include "raster-format.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* Bands of rows are computed one at a time, each written while the next is computed; each holds at most this many
 * bytes of doubles over every plane asked for (at least 8 rows), so a raster of any size is never held whole in
 * memory: two bands are. */
#define SHEPARD_GRID_EXPORT_BAND_BYTES ((size_t) 32 * 1024 * 1024)

/* The surfaces behind AIDW's adaptive power that an export can add to the values, as flags. */
typedef enum {
  SHEPARD_GRID_EXPORT_ALPHA = 1 << 0, /* the power used at each cell: AIDW's adaptive alpha, IDW's constant p */
  SHEPARD_GRID_EXPORT_R = 1 << 1,     /* AIDW only: the density ratio R = r_obs / r_exp */
  SHEPARD_GRID_EXPORT_R_OBS = 1 << 2, /* AIDW only: the mean distance to the k nearest data points, in map units */
} ShepardGridExportPlanes;

#define SHEPARD_GRID_EXPORT_ALL_PLANES (SHEPARD_GRID_EXPORT_ALPHA | SHEPARD_GRID_EXPORT_R | SHEPARD_GRID_EXPORT_R_OBS)

/* Where a value band comes from: one value field of an engine whose points are set (set_points_fields). Fields over
 * the same points share an engine, and so its neighbour search and alpha. */
typedef struct {
  shepard_engine *engine;
  size_t field;     /* < shepard_engine_n_fields (engine) */
  const char *name; /* the band's description: the field's name */
} ShepardGridExportField;

/* What to write. Every path names a raster of its own, all in format; zero or NULL fields ask for nothing more than
 * the values, so a request written before the planes existed means what it meant. */
typedef struct {
  const char *value_path;
  const char *alpha_path; /* also write the power alpha of every cell to a raster of its own here; NULL: don't */
  /* Written with the driver's default creation options added (shepard_raster_format_creation_options), its
   * metadata in every raster and a nodata value on every band: the format's, else -9999. The engine's NaN, a cell
   * with no data (too few points in its neighbourhood), is written as that nodata value in every band. */
  ShepardRasterFormat format;
  size_t band_bytes;      /* a band of rows in memory (two are); 0: SHEPARD_GRID_EXPORT_BAND_BYTES (8 rows at least) */
  /* Planes added to the value raster as bands 2, 3, ... always in the order alpha, R, r_obs; band 1 stays the
   * values. The bands of such a raster are described: value_name (or "value"), "alpha", "R", "r_obs". */
  ShepardGridExportPlanes extra_bands;
  const char *r_path;     /* AIDW only: also write R of every cell to a raster of its own here; NULL: don't */
  const char *r_obs_path; /* AIDW only: also write r_obs of every cell to a raster of its own here; NULL: don't */
  const char *value_name; /* the description of band 1 when the value raster has extra bands; NULL: "value" */
  /* Several value fields: bands 1 to n_fields of the value raster, in this order, each described by its name (the
   * planes of extra_bands follow them). NULL: one value band, field 0 of the engine given to shepard_grid_export,
   * described by value_name. */
  const ShepardGridExportField *fields;
  size_t n_fields;
  /* The cells it masks are nodata in every band of every raster (grid-mask.h); NULL: no mask. */
  ShepardGridMask *mask;
  /* The cells each engine chooses its summation for (shepard_engine_summation): a tile of a larger raster sums the way
   * the whole raster does. 0: the grid's own cells. */
  size_t summation_cells;
} ShepardGridExport;

/* The description of a plane's band ("alpha", "R", "r_obs"): plane is one of the flags. */
const char *shepard_grid_export_plane_name (ShepardGridExportPlanes plane);

/* Checks a request before anything is computed or written: R and r_obs exist only for AIDW
 * (SHEPARD_APP_ERROR_INVALID_PARAMETER), no two outputs may name one file (SHEPARD_APP_ERROR_SAME_FILE), and the
 * format must hold the value raster's bands (SHEPARD_APP_ERROR_FORMAT). The messages name the planes and rasters
 * ("the R raster", "the value raster"), not the widgets or options that asked for them. shepard_grid_export checks
 * the same first; a dialog or a command line may call it to refuse a request at once, before reading or computing
 * anything (the format's probe runs once: see shepard_raster_format_find_driver_for_bands). Whether an output is
 * also an input is for the caller, which knows its inputs. */
gboolean shepard_grid_export_check (const shepard_params *params, const ShepardGridExport *request, GError **error);

/* Interpolates the grid with the engine (its points already set; it gives alpha, R and r_obs, and the values unless
 * request->fields names them, whose first must then be of this engine) and writes every raster the request asks for
 * through GDAL, band by band (rows of every plane at a time, never a whole raster in memory), each raster
 * atomically. A format that cannot hold the request (too many bands, a data type it cannot store) fails before any
 * work. On success every raster is in place. All are whole before the first is moved onto its target, so a failure
 * or cancel before then leaves nothing and existing files untouched. The moves themselves (a rename each, the value
 * raster first) are not one transaction: should one fail (the directory made unwritable meanwhile), the rasters moved
 * before it stay in place, replacing what was there, the others are not written, and the error names those in place.
 * progress follows GDAL's contract and may be NULL; returning FALSE cancels (SHEPARD_APP_ERROR_CANCELLED) up to the
 * moves, not during them. */
gboolean shepard_grid_export (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                              const ShepardGridExport *request, GDALProgressFunc progress, void *progress_data,
                              GError **error);

G_END_DECLS
