/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-render.h"

G_BEGIN_DECLS

/* One control point of a colour ramp: position t in [0, 1] and the colour there. */
typedef struct {
  float t, r, g, b;
} ShepardRampStop;

/* The shader holds this many stops at most (a uniform array). */
#define SHEPARD_RAMP_MAX_STOPS 16

const ShepardRampStop *_shepard_color_ramp_get_stops (ShepardColorRamp ramp, guint *n_stops);

/* GLSL shared by the programs. nodata(): a value that is not finite, which the grid leaves transparent and a dot
 * draws hollow, as shepard_color_ramp_color_for_value() gives it no colour. */
#define SHEPARD_NODATA_GLSL                                                                             \
  "bool nodata (float z)\n"                                                                             \
  "{\n"                                                                                                 \
  "  return isnan (z) || isinf (z);\n"                                                                  \
  "}\n"

/* ramp(): the same search as shepard_color_ramp_evaluate(). The range is (min, max); max <= min puts every value at
 * the middle colour, as shepard_color_ramp_color_for_value() does. Set with _shepard_render_upload_ramp(). */
#define SHEPARD_RAMP_GLSL                                                                             \
  "uniform vec4 u_stops[" G_STRINGIFY (SHEPARD_RAMP_MAX_STOPS) "];\n"                                 \
  "uniform int u_n_stops;\n"                                                                          \
  "uniform vec2 u_range;\n"                                                                           \
  "vec3 ramp (float value)\n"                                                                         \
  "{\n"                                                                                               \
  "  float t = u_range.y > u_range.x ? clamp ((value - u_range.x) / (u_range.y - u_range.x), 0.0, 1.0)" \
  " : 0.5;\n"                                                                                         \
  "  vec3 rgb = u_stops[0].yzw;\n"                                                                    \
  "  for (int i = 1; i < u_n_stops; i++) {\n"                                                         \
  "    vec4 a = u_stops[i - 1];\n"                                                                    \
  "    vec4 b = u_stops[i];\n"                                                                        \
  "    if (t >= a.x && t <= b.x) {\n"                                                                 \
  "      rgb = mix (a.yzw, b.yzw, (t - a.x) / (b.x - a.x));\n"                                        \
  "      break;\n"                                                                                    \
  "    }\n"                                                                                           \
  "  }\n"                                                                                             \
  "  return rgb;\n"                                                                                   \
  "}\n"

/* Compiles and links a program in the current context from shader bodies; the #version line for the context (GLSL
 * 1.50 core or 3.00 es) is put in front. Returns 0 with SHEPARD_RENDER_ERROR_SHADER and the driver's log on failure.
 * Exposed for the tests, which feed it a broken shader. */
guint _shepard_render_compile_program (const char *vertex_body, const char *fragment_body, GError **error);

/* The uniform locations of SHEPARD_RAMP_GLSL in one program (GLint, which is a gint). */
typedef struct {
  gint stops, n_stops, range;
} ShepardRampUniforms;

void _shepard_render_get_ramp_uniforms (guint program, ShepardRampUniforms *uniforms);

/* Sets ramp() of the program in use to ramp over [min, max]. */
void _shepard_render_upload_ramp (const ShepardRampUniforms *uniforms, ShepardColorRamp ramp, double min,
                                  double max);

/* A new texture, bound to GL_TEXTURE_2D, for texelFetch: one level and no filtering, since an incomplete mipmap
 * chain would read as black and a GLES 3 float texture cannot be filtered. */
guint _shepard_render_new_fetch_texture (void);

/* Unpacking of tightly packed float32 rows, whatever unpacking state the caller of the renderer left. */
void _shepard_render_unpack_tightly (void);

/* Replaces the content of *texture (made with _shepard_render_new_fetch_texture on first use) by width x height
 * texels of float data in format (GL_RED, GL_RGBA) stored as internal_format (GL_R32F, GL_RGBA32F); unbinds it. */
void _shepard_render_upload_float_texture (guint *texture, guint internal_format, guint format, size_t width,
                                           size_t height, const float *texels);

/* For tests of the fallback: the next CUDA-OpenGL interop copy, in any renderer, fails as a lost device would make
 * it fail, with SHEPARD_RENDER_ERROR_INTEROP. */
void _shepard_render_fail_next_interop_copy (void);

G_END_DECLS
