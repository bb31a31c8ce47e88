/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The default extent of an exported raster, the same in the dialog and in shepard-grid: the points' bounding box
 * {x_min, y_min, x_max, y_max}, grown on every side by margin_percent of its longer side (0: the box itself).
 * Fails (SHEPARD_APP_ERROR_DEGENERATE_AREA) when the result spans no area in x or y, and
 * (SHEPARD_APP_ERROR_INVALID_PARAMETER) on a negative or non-finite margin or a result wider or taller than the largest
 * double. */
gboolean shepard_export_extent (const double bounds[4], double margin_percent, double extent[4], GError **error);

/* The fewest decimals that show each of n coordinates on a grid of this cell size exactly, but no more than the cell
 * size needs (6 significant digits of it: 3 -> 0, 2.5 -> 1, 40.0626 -> 4): 181584.85, never 181584.85000000001 nor
 * 181584.8500. */
int shepard_export_decimals (const double *coordinates, size_t n, double cell_size);

G_END_DECLS
