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

/* Compiles and links a program in the current context from shader bodies; the #version line for the context (GLSL
 * 1.50 core or 3.00 es) is put in front. Returns 0 with SHEPARD_RENDER_ERROR_SHADER and the driver's log on failure.
 * Exposed for the tests, which feed it a broken shader. */
guint _shepard_render_compile_program (const char *vertex_body, const char *fragment_body, GError **error);

/* For tests of the fallback: the next CUDA-OpenGL interop copy, in any renderer, fails as a lost device would make
 * it fail, with SHEPARD_RENDER_ERROR_INTEROP. */
void _shepard_render_fail_next_interop_copy (void);

G_END_DECLS
