/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-command-line.h"

G_BEGIN_DECLS

/* Fails (SHEPARD_APP_ERROR_SAME_FILE) when DST or the raster of --alpha-out, --r-out or --robs-out is the input SRC,
 * naming which. shepard_grid_export_check keeps the outputs apart from one another; the input is the tool's alone to
 * know. */
gboolean shepard_grid_check_outputs_are_not_source (const ShepardGridOptions *options, GError **error);

G_END_DECLS
