/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Which cells of a grid keep their value: shepard-grid's --mask-distance, --mask-hull and -cutline/-cl, and the
 * window's mask choice. A mask is built from parts, then asked for any grid and any band of its rows; a cell is kept
 * only when every part keeps it. A cell is judged by its centre as the engine places it (shepard_grid:
 * x = x_min + (first_column + col + 0.5) dx, y = y_max - (first_row + row + 0.5) dy), in the CRS of the points, so
 * that a window of a raster (a tile of shepard-grid-mpi) is masked as the same cells of the whole raster are.
 *
 * The parts:
 * - distance: cells whose centre lies farther than D from the nearest data point (exact nearest search; a centre at
 *   exactly D is kept);
 * - hull: cells whose centre lies outside the points' convex hull (a centre on its boundary is kept);
 * - cutline: cells whose centre lies outside the polygons of an OGR layer (GDAL's rasterisation rule: a cell is
 *   inside when its centre is), the polygons reprojected into the points' CRS when theirs differs.
 *
 * How to use it:
 * - an export (shepard-grid, the window's export dialog) gives it to shepard_grid_export in ShepardGridExport.mask,
 *   which sets the masked cells of every band to NaN as they are computed, and the writer turns NaN into nodata;
 * - the preview asks shepard_grid_mask_keep for the keep bytes of its whole grid, which
 *   shepard_surface_take_mask takes;
 * - anyone else fills the keep bytes of a band of rows (shepard_grid_mask_fill_keep) or sets NaN in planes of
 *   doubles (shepard_grid_mask_apply).
 * Building a mask reads the cutline file and copies the points: do it off the main thread for large inputs. Once
 * built, a mask holds no reference to the engine or the layer and may be used from any thread (calls on one mask
 * are serialised). Keeping it between previews saves reading the cutline again; its parts do not depend on the
 * grid, so one mask serves a coarse and a fine preview and the export alike. */
typedef struct _ShepardGridMask ShepardGridMask;

/* A mask of no parts: it keeps every cell. */
ShepardGridMask *shepard_grid_mask_new (void);
void shepard_grid_mask_free (ShepardGridMask *mask);

/* Masks the cells farther than max_distance (map units, > 0 and finite) from the nearest of the n_points points
 * (finite coordinates; copied). Fails with SHEPARD_APP_ERROR_INVALID_PARAMETER for another distance and
 * SHEPARD_APP_ERROR_NO_POINTS without points. */
gboolean shepard_grid_mask_add_distance (ShepardGridMask *mask, const double *x, const double *y, size_t n_points,
                                         double max_distance, GError **error);

/* As add_distance, for a mask that judges one window of a raster at a time (a tile of shepard-grid-mpi) and holds
 * only the points near it: before each window, shepard_grid_mask_set_near_points gives it every point within
 * max_distance of the window's cells (those of the window and a halo of at least max_distance around it; more do no
 * harm). bounds {x_min, y_min, x_max, y_max} is the bounding box of every point, which sets the frame of the nearest
 * search as add_distance's over every point sets it, so that each cell is judged to the bit as add_distance over every
 * point judges it. Until points are set, and with none, every cell is masked. Fails as add_distance for the distance,
 * and with SHEPARD_APP_ERROR_INVALID_PARAMETER for bounds that are not a box of finite numbers. */
gboolean shepard_grid_mask_add_distance_near (ShepardGridMask *mask, double max_distance, const double bounds[4],
                                              GError **error);

/* The points (copied, each within the bounds of add_distance_near, which the mask must have had added) that the part
 * of add_distance_near measures from for the next windows, in place of those before; none masks every cell. Fails as
 * add_distance does (SHEPARD_APP_ERROR_INVALID_PARAMETER for a point outside the bounds). */
gboolean shepard_grid_mask_set_near_points (ShepardGridMask *mask, const double *x, const double *y, size_t n_points,
                                            GError **error);

/* Masks the cells outside the convex hull of the points. Points on a line or on one spot have no hull:
 * SHEPARD_APP_ERROR_DEGENERATE_AREA (SHEPARD_APP_ERROR_NO_POINTS without points). */
gboolean shepard_grid_mask_add_hull (ShepardGridMask *mask, const double *x, const double *y, size_t n_points,
                                     GError **error);

/* Masks the cells outside the polygons of a layer of any vector source OGR opens. layer: name, or 0-based index;
 * NULL takes the first layer. target_crs_wkt: the points' CRS (anything OSRSetFromUserInput reads), or NULL to take
 * the coordinates as they are; when the layer has a CRS of its own that is another one, its polygons are transformed
 * into it (x easting or longitude on both sides). Fails with SHEPARD_APP_ERROR_OPEN (no such file, not a vector
 * source), SHEPARD_APP_ERROR_NO_LAYER (no such layer; the message lists those there are) and
 * SHEPARD_APP_ERROR_GEOMETRY (a layer of other geometries than polygons and multipolygons, a layer with no polygon,
 * a polygon that cannot be placed in the target CRS). */
gboolean shepard_grid_mask_add_cutline (ShepardGridMask *mask, const char *source, const char *layer,
                                        const char *target_crs_wkt, GError **error);

/* Whether the mask has no part (keeps every cell, so that callers can skip it). */
gboolean shepard_grid_mask_is_empty (const ShepardGridMask *mask);

/* Its parts as shepard-grid's options would give them, in the order added ("--mask-distance 150 --mask-hull -cutline
 * /data/river.gpkg -cl banks": a cutline file by its absolute path, its layer by name), for a raster's metadata
 * (ShepardRasterProvenance.mask) and messages; "" for an empty mask. Free with g_free. */
char *shepard_grid_mask_describe (const ShepardGridMask *mask);

/* keep gets n_rows x grid->width bytes, rows first_row .. first_row + n_rows - 1 of the grid (a window's own rows;
 * row-major): 1 where the cell is kept, 0 where it is masked. Works in bounded memory whatever the band's size. Fails
 * only when memory or GDAL's rasterisation does (SHEPARD_APP_ERROR_ENGINE). */
gboolean shepard_grid_mask_fill_keep (ShepardGridMask *mask, const shepard_grid *grid, size_t first_row,
                                      size_t n_rows, guint8 *keep, GError **error);

/* The keep bytes of a whole grid (width x height, row 0 at the top, from g_malloc), as shepard_surface_take_mask
 * takes them; NULL with an error as fill_keep. */
guint8 *shepard_grid_mask_keep (ShepardGridMask *mask, const shepard_grid *grid, GError **error);

/* Sets to NaN the masked cells of a band of rows in each of n_planes planes, each holding n_rows x grid->width
 * doubles of rows first_row .. first_row + n_rows - 1 (NULL planes are skipped). Fails as fill_keep. */
gboolean shepard_grid_mask_apply (ShepardGridMask *mask, const shepard_grid *grid, size_t first_row, size_t n_rows,
                                  double *const *planes, size_t n_planes, GError **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardGridMask, shepard_grid_mask_free)

G_END_DECLS
