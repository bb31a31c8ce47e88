/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-command-line.h"
#include "grid-export.h"

G_BEGIN_DECLS

/* Fails (SHEPARD_APP_ERROR_SAME_FILE) when DST or the raster of --alpha-out, --r-out or --robs-out is the input SRC,
 * naming which. shepard_grid_export_check keeps the outputs apart from one another; the input is the tool's alone to
 * know. */
gboolean shepard_grid_check_outputs_are_not_source (const ShepardGridOptions *options, GError **error);

/* The request shepard-grid's options make, before any engine exists: DST and the rasters of --alpha-out, --r-out and
 * --robs-out, the bands of --extra-bands, and the format of driver_name (NULL: -of's), -ot, -a_nodata and -co. With
 * several fields their bands are counted from unstarted (one entry a field, zeroed: the engines come later), enough
 * for shepard_grid_export_check. */
ShepardGridExport shepard_grid_export_request (const ShepardGridOptions *options, const char *driver_name,
                                              ShepardGridExportField *unstarted);

G_END_DECLS
