/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-render-private.h"

G_BEGIN_DECLS

/* How the dots are drawn, chosen per frame from the points per pixel: the visible points over the visible pixels (the
 * view's pixels where there are points at all). Outlined dots while their areas add up to at most
 * SHEPARD_POINTS_OUTLINED_COVERAGE of those pixels, or to at most SHEPARD_POINTS_VIEW_SHARE of the view (a few points
 * close together hide little of the map); then small plain dots, all of them while they add up to at most
 * SHEPARD_POINTS_COVERAGE_BUDGET, and beyond it an even sample of the points sized to that budget, so that the surface
 * stays visible however dense the layer. The sample is the same at every zoom, and grows as the view narrows. */
#define SHEPARD_POINTS_OUTLINED_COVERAGE 0.5
#define SHEPARD_POINTS_COVERAGE_BUDGET 0.2
#define SHEPARD_POINTS_VIEW_SHARE 0.05
/* The small plain dots, in logical pixels. */
#define SHEPARD_POINTS_DENSE_RADIUS 2.0
#define SHEPARD_POINTS_DENSE_OUTLINE 0.75

typedef enum {
  SHEPARD_POINTS_OUTLINED,
  SHEPARD_POINTS_SMALL,
  SHEPARD_POINTS_THINNED,
} ShepardPointsStyle;

/* Points counted over a coarse grid on their bounding box: where they are, for the points per pixel of a view. */
#define SHEPARD_POINTS_DENSITY_CELLS 128

/* The renderer's data points layer: its program, the points and their own colours in float textures, and the
 * highlighted dot. Embedded in ShepardRenderer, which hands in what the layer shares with the grid (the largest
 * texture, the grid's ramp and range, the view). Every function needs the renderer's GL context current. */
typedef struct {
  guint program;
  ShepardRampUniforms ramp_uniforms;
  gint sampler, values_sampler, own_values, first, stride, count_uniform, origin, scale, viewport, half, radius, outline,
    ring;
  guint vao;
  guint texture;        /* RGBA32F, one texel per point, filled row by row */
  guint values_texture; /* R32F, the points' own colour values in the same layout */
  size_t count, columns, rows;
  double origin_x, origin_y;
  double x_min, y_min, cell_width, cell_height;   /* the density grid's origin and cells, in map units */
  guint32 *density;                                /* density_cells squared counts, row by row */
  size_t density_cells;                            /* per side, at most SHEPARD_POINTS_DENSITY_CELLS */
  guint32 sample_stride;                           /* sample i is point i * sample_stride mod count */
  gboolean own_colors; /* the dots show values_texture through own_ramp, not z through the grid's ramp */
  ShepardColorRamp own_ramp;
  double own_min, own_max;
  gssize highlight;
} ShepardPointsLayer;

/* Builds the program; on failure the layer holds nothing that _shepard_points_layer_clear() cannot delete. */
gboolean _shepard_points_layer_init (ShepardPointsLayer *layer, GError **error);

/* Deletes the GL objects (names never made are 0, which glDelete* ignores). */
void _shepard_points_layer_clear (ShepardPointsLayer *layer);

/* As shepard_renderer_set_points(), within textures of at most max_texture_size texels a side. */
gboolean _shepard_points_layer_set_points (ShepardPointsLayer *layer, gint max_texture_size, const double *x,
                                           const double *y, const double *z, size_t n_points, GError **error);

/* As shepard_renderer_set_point_colors(). */
gboolean _shepard_points_layer_set_colors (ShepardPointsLayer *layer, const double *values, size_t n_points,
                                           ShepardColorRamp ramp, double min, double max, GError **error);

/* How the dots look in view, and how many are drawn (all of them unless thinned). */
ShepardPointsStyle _shepard_points_layer_choose_style (const ShepardPointsLayer *layer, const ShepardView *view,
                                                       size_t *drawn);

/* Draws the dots over the bound framebuffer, coloured by z through ramp over [range_min, range_max] unless they have
 * colours of their own; scale_x and scale_y are normalised device coordinates per map unit. */
void _shepard_points_layer_draw (const ShepardPointsLayer *layer, const ShepardView *view, double scale_x,
                                 double scale_y, ShepardColorRamp ramp, double range_min, double range_max);

G_END_DECLS
