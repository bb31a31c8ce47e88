/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An OpenGL context without any window system, for the render tests and the preview benchmark: EGL's surfaceless
 * platform (Mesa), an EGL device (the NVIDIA driver) or the default display with a pbuffer; and an RGBA8
 * framebuffer to draw into and read back. */
#pragma once

#include <epoxy/gl.h>
#include <glib.h>

/* Makes a desktop GL 3.2 core (or OpenGL ES 3) context current; FALSE when none can be made, with the reasons in
 * offscreen_gl_skip_reason(). */
gboolean offscreen_gl_init (gboolean want_gles);
void offscreen_gl_destroy (void);
const char *offscreen_gl_skip_reason (void);
/* "EGL device 0: NVIDIA H200/PCIe/SSE2, 4.6.0 NVIDIA ..." */
const char *offscreen_gl_describe (void);

/* A GLib test case: the context is the one SHEPARD_TEST_EXPECT_GL names ("3.2" desktop, "es3.0" OpenGL ES), so that
 * a run meant to draw on the oldest supported context (MESA_GL_VERSION_OVERRIDE=3.2) cannot pass on a newer one.
 * Skips when the variable is unset. */
void offscreen_gl_test_version (void);

/* In a GLib test case: TRUE with a context, otherwise marks the case skipped with the reason. */
gboolean offscreen_gl_need_context (void);

/* An RGBA8 framebuffer object, bound; pixels read back top row first. */
typedef struct {
  GLuint framebuffer, renderbuffer;
  int width, height;
  guint8 *pixels;
} Target;

void target_init (Target *target, int width, int height);
void target_read (Target *target);
/* The pixel in column px, row py counted from the top. */
const guint8 *target_pixel (const Target *target, int px, int py);
void target_clear (Target *target);
