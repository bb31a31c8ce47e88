/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-render-private.h"

G_BEGIN_DECLS

/* The renderer's data points layer: its program, the points and their own colours in float textures, and the
 * highlighted dot. Embedded in ShepardRenderer, which hands in what the layer shares with the grid (the largest
 * texture, the grid's ramp and range, the view). Every function needs the renderer's GL context current. */
typedef struct {
  guint program;
  ShepardRampUniforms ramp_uniforms;
  gint sampler, values_sampler, own_values, first, origin, scale, viewport, half, radius, outline, ring;
  guint vao;
  guint texture;        /* RGBA32F, one texel per point, filled row by row */
  guint values_texture; /* R32F, the points' own colour values in the same layout */
  size_t count, columns, rows;
  double origin_x, origin_y;
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

/* Draws the dots over the bound framebuffer, coloured by z through ramp over [range_min, range_max] unless they have
 * colours of their own; scale_x and scale_y are normalised device coordinates per map unit. */
void _shepard_points_layer_draw (const ShepardPointsLayer *layer, const ShepardView *view, double scale_x,
                                 double scale_y, ShepardColorRamp ramp, double range_min, double range_max);

G_END_DECLS
