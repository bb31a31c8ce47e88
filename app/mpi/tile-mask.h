/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-command-line.h"
#include "grid-mask.h"
#include "layer-scan.h"

G_BEGIN_DECLS

/* The mask of shepard-grid's --mask-distance, --mask-hull and -cutline/-cl for a rank's tiles, each tile masked to the
 * bit as shepard-grid masks the same cells of the whole raster (grid-mask.h judges a window of a raster by its cells'
 * places in the raster). Distance and hull are those of the points of every field together, as shepard-grid's:
 * - with every point on the rank (methods over all points), the mask is shepard-grid's, the same for every tile;
 * - with each tile's points only (local methods), the hull is that of the layer scan's hull vertices (the layer's
 *   hull), and the distance is measured from the points read for each tile, which must reach at least
 *   shepard_tile_mask_halo beyond its cells (shepard_grid_mask_add_distance_near).
 * The cutline is read by each rank. */
typedef struct {
  ShepardGridMask *mask; /* NULL: no mask asked */
  char *description;     /* the mask's options, for the raster's metadata; NULL without a mask */
  double halo;           /* local methods with a distance: how far beyond a tile's cells its points must reach */
} ShepardTileMask;

/* fields: every point of every field (a GPtrArray of ShepardPointLayer), or NULL for local methods, whose layer scan
 * is then given. crs_wkt: the points' CRS, that of the cutline's polygons. Fails as shepard-grid does, the message
 * naming the option. */
gboolean shepard_tile_mask_init (ShepardTileMask *self, const ShepardGridOptions *options, GPtrArray *fields,
                                 const ShepardLayerScan *scan, const char *crs_wkt, GError **error);

/* Local methods: the fields' points read for the next tile (a GPtrArray of ShepardPointLayer, reaching at least
 * self->halo beyond its cells), which its distance is measured from. */
gboolean shepard_tile_mask_set_tile_points (ShepardTileMask *self, GPtrArray *tile_points, GError **error);

void shepard_tile_mask_clear (ShepardTileMask *self);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardTileMask, shepard_tile_mask_clear)

G_END_DECLS
