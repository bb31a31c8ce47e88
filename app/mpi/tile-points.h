/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "field-engines.h"
#include "layer-scan.h"
#include "rank-engines.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* Whether params weight a neighbourhood that the points of a tile and a halo around it decide: a radius (the search
 * ellipse), or the max_points nearest without quadrant limits. Then a rank reads only those points; otherwise (every
 * point weighed, or quadrants that may reach any distance) it needs the whole layer. */
gboolean shepard_tile_points_apply (const shepard_params *params);

/* Reads the points of the window and of a halo around it through OGR's spatial filter, and starts the engines on
 * them in the frame of the whole layer (scan), so that every cell of the window gets exactly the value an engine
 * holding every point gives it. By construction: the halo is at least the search radius and min_halo (what else needs
 * the points around the window: a distance mask), and where the max_points
 * nearest or AIDW's k nearest decide, every cell's farthest such neighbour (shepard_engine_nearest) must lie nearer
 * than the halo's edge, else the halo is doubled and the points read again, up to the whole layer. points gets the
 * fields' points (the engines borrow their names); halo the halo taken. progress: GDAL's contract, FALSE cancels. */
gboolean shepard_tile_points_read (const ShepardLayerSource *source, const ShepardLayerScan *scan,
                                   const shepard_params *params, const shepard_grid *window, double min_halo,
                                   const ShepardEngineChoice *choice, ShepardFieldEngines *engines,
                                   GPtrArray **points, double *halo, GDALProgressFunc progress, void *progress_data,
                                   GError **error);

G_END_DECLS
