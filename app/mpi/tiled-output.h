/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "raster-format.h"
#include "tile-plan.h"

G_BEGIN_DECLS

/* The output of shepard-grid-mpi, made whole in a hidden directory beside DST before anything is moved there:
 * - a VRT (DST named *.vrt, or -of VRT): DST over the tiles, which live in a directory beside it named after DST
 *   (its name without the extension + ".tiles"), moved into place with it;
 * - any other format: one raster made from a VRT over the tiles (GDALCreateCopy), the tiles then removed.
 * Freed before commit (a failed or cancelled rank, a signal), it removes everything it staged: DST and an existing
 * output stay as they were. */
typedef struct _ShepardTiledOutput ShepardTiledOutput;

/* Whether DST and -of ask for a VRT; fails (SHEPARD_APP_ERROR_FORMAT) for a DST named *.vrt with another -of than
 * VRT or the default GTiff. */
gboolean shepard_tiled_output_is_vrt (const char *destination, const char *driver_name, gboolean *is_vrt,
                                      GError **error);

ShepardTiledOutput *shepard_tiled_output_new (const char *destination, gboolean is_vrt, GError **error);

/* Where the ranks write the tiles (a directory in the staging directory; on a file system every rank sees). */
const char *shepard_tiled_output_get_tiles_directory (const ShepardTiledOutput *output);

/* Once every tile of plan is written: builds the VRT over them (the raster's extent and cell size exactly, the first
 * tile's metadata and band descriptions), or copies it into format (its driver, with
 * shepard_raster_format_creation_options), and moves the result onto DST, replacing an existing one only then.
 * progress: GDAL's contract, FALSE cancels until the moves. */
gboolean shepard_tiled_output_commit (ShepardTiledOutput *output, const ShepardTilePlan *plan,
                                      const ShepardRasterFormat *format, GDALProgressFunc progress,
                                      void *progress_data, GError **error);

void shepard_tiled_output_free (ShepardTiledOutput *output);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardTiledOutput, shepard_tiled_output_free)

G_END_DECLS
