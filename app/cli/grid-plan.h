/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-command-line.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* shepard-grid's raster from its options and the points' bounding box {x_min, y_min, x_max, y_max}: the extent of
 * -txe/-tye, else the box grown by --margin, then grown outwards to multiples of -tr's cell sizes with -tap, cut into
 * -outsize cells or those of -tr. Fills extent {x_min, y_min, x_max, y_max} (the grid's edges as planned, before the
 * division into cells rounds them) and grid. Fails (SHEPARD_APP_ERROR) with a message naming what to change. */
gboolean shepard_grid_plan (const ShepardGridOptions *options, const double bounds[4], double extent[4],
                            shepard_grid *grid, GError **error);

G_END_DECLS
