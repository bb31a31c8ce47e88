/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "raster-format.h"
#include "tile-plan.h"

G_BEGIN_DECLS

/* The rasters of shepard-grid-mpi (DST, and those of --alpha-out, --r-out and --robs-out), each made whole in a
 * hidden directory beside it before anything is moved there, all of one kind:
 * - VRTs (DST named *.vrt, or -of VRT): each over its tiles, which live in a directory beside it named after it (its
 *   name without the extension + ".tiles"), moved into place with it;
 * - any other format: each one raster made from a VRT over its tiles (GDALCreateCopy), the tiles then removed.
 * Every raster is whole before the first is moved onto its place. Freed before commit (a failed or cancelled rank, a
 * signal), it removes everything it staged: every destination and an existing output stay as they were. */
typedef struct _ShepardTiledOutput ShepardTiledOutput;

/* Whether DST and -of ask for a VRT; fails (SHEPARD_APP_ERROR_FORMAT) for a DST named *.vrt with another -of than
 * VRT or the default GTiff. */
gboolean shepard_tiled_output_is_vrt (const char *destination, const char *driver_name, gboolean *is_vrt,
                                      GError **error);

/* Checks destinations (n_destinations paths, DST first) before anything is staged: with the default -of, named *.vrt
 * all or none (SHEPARD_APP_ERROR_FORMAT), as the rasters of one run are of one kind; VRTs whose tiles directories
 * would be one, or would be another destination (a.vrt and a.VRT, a and a.vrt), are refused
 * (SHEPARD_APP_ERROR_SAME_FILE). That no two destinations name one file is shepard_grid_export_check's. */
gboolean shepard_tiled_output_check (const char *const *destinations, size_t n_destinations, const char *driver_name,
                                     gboolean *is_vrt, GError **error);

/* Stages n_destinations rasters (checked by shepard_tiled_output_check), DST first. */
ShepardTiledOutput *shepard_tiled_output_new (const char *const *destinations, size_t n_destinations,
                                              gboolean is_vrt, GError **error);

/* Where the ranks write the tiles of raster index (a directory in its staging directory; on a file system every rank
 * sees). */
const char *shepard_tiled_output_get_tiles_directory (const ShepardTiledOutput *output, size_t index);

/* Once every tile of plan is written for every raster: builds the VRT over each one's tiles (the raster's extent and
 * cell size exactly, the first tile's metadata and band descriptions), or copies it into format (its driver, with
 * shepard_raster_format_creation_options); then moves each onto its destination, replacing an existing one only then,
 * DST first. Should a move fail (the directory made unwritable meanwhile), the rasters moved before it stay in place
 * and the error names the one that was not. progress: GDAL's contract, FALSE cancels until the moves. */
gboolean shepard_tiled_output_commit (ShepardTiledOutput *output, const ShepardTilePlan *plan,
                                      const ShepardRasterFormat *format, GDALProgressFunc progress,
                                      void *progress_data, GError **error);

void shepard_tiled_output_free (ShepardTiledOutput *output);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardTiledOutput, shepard_tiled_output_free)

G_END_DECLS
