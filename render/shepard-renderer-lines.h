/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-render-private.h"

G_BEGIN_DECLS

/* The renderer's context lines (a river, a boundary under the data points): their program and their segments in a
 * float texture. Embedded in ShepardRenderer; every function needs the renderer's GL context current. */
typedef struct {
  guint program;
  gint sampler, origin, scale, viewport, half_width, color;
  guint vao;
  guint texture; /* RGBA32F, one texel per segment: both ends relative to the origin, filled row by row */
  size_t count;
  double origin_x, origin_y;
} ShepardLinesLayer;

gboolean _shepard_lines_layer_init (ShepardLinesLayer *layer, GError **error);

/* Deletes the GL objects (names never made are 0, which glDelete* ignores). */
void _shepard_lines_layer_clear (ShepardLinesLayer *layer);

/* As shepard_renderer_set_lines(), within textures of at most max_texture_size texels a side. */
gboolean _shepard_lines_layer_set_lines (ShepardLinesLayer *layer, gint max_texture_size, const double *x,
                                         const double *y, const size_t *strip_start, size_t n_strips,
                                         GError **error);

/* Draws the lines over the bound framebuffer; scale_x and scale_y are normalised device coordinates per map unit. */
void _shepard_lines_layer_draw (const ShepardLinesLayer *layer, const ShepardView *view, double scale_x,
                                double scale_y);

G_END_DECLS
