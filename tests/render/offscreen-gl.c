/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "offscreen-gl.h"

#include <epoxy/egl.h>

static struct {
  EGLDisplay display;
  EGLContext context;
  EGLSurface surface;
  char *skip_reason;
  char *description;
} egl = { EGL_NO_DISPLAY, EGL_NO_CONTEXT, EGL_NO_SURFACE, NULL, NULL };

static gboolean
try_display (EGLDisplay display, const char *platform, gboolean want_gles, GString *failures)
{
  EGLint major, minor, n_configs = 0;
  EGLConfig config;
  gboolean surfaceless;

  if (display == EGL_NO_DISPLAY)
    {
      g_string_append_printf (failures, " %s: no display;", platform);
      return FALSE;
    }
  if (!eglInitialize (display, &major, &minor))
    {
      g_string_append_printf (failures, " %s: eglInitialize failed (0x%x);", platform, (unsigned) eglGetError ());
      return FALSE;
    }
  surfaceless = epoxy_has_egl_extension (display, "EGL_KHR_surfaceless_context");

  const EGLint config_attribs[] = {
    EGL_SURFACE_TYPE, surfaceless ? 0 : EGL_PBUFFER_BIT,
    EGL_RENDERABLE_TYPE, want_gles ? EGL_OPENGL_ES3_BIT_KHR : EGL_OPENGL_BIT,
    EGL_RED_SIZE, 8,
    EGL_GREEN_SIZE, 8,
    EGL_BLUE_SIZE, 8,
    EGL_NONE,
  };
  /* What GTK 4.8 asks for: the NVIDIA driver then reports exactly 3.2, Mesa its newest version. */
  const EGLint gl_context_attribs[] = {
    EGL_CONTEXT_MAJOR_VERSION, 3,
    EGL_CONTEXT_MINOR_VERSION, 2,
    EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
    EGL_NONE,
  };
  const EGLint gles_context_attribs[] = {
    EGL_CONTEXT_MAJOR_VERSION, 3,
    EGL_NONE,
  };
  const EGLint pbuffer_attribs[] = { EGL_WIDTH, 16, EGL_HEIGHT, 16, EGL_NONE };

  if (!eglBindAPI (want_gles ? EGL_OPENGL_ES_API : EGL_OPENGL_API)
      || !eglChooseConfig (display, config_attribs, &config, 1, &n_configs) || n_configs < 1)
    {
      g_string_append_printf (failures, " %s (EGL %d.%d): no %s config;", platform, major, minor,
                              want_gles ? "OpenGL ES 3" : "OpenGL");
      eglTerminate (display);
      return FALSE;
    }
  egl.context = eglCreateContext (display, config, EGL_NO_CONTEXT,
                                  want_gles ? gles_context_attribs : gl_context_attribs);
  if (egl.context == EGL_NO_CONTEXT)
    {
      g_string_append_printf (failures, " %s: no %s context (0x%x);", platform,
                              want_gles ? "OpenGL ES 3" : "OpenGL 3.2 core", (unsigned) eglGetError ());
      eglTerminate (display);
      return FALSE;
    }
  if (!surfaceless)
    egl.surface = eglCreatePbufferSurface (display, config, pbuffer_attribs);
  if (!eglMakeCurrent (display, egl.surface, egl.surface, egl.context))
    {
      g_string_append_printf (failures, " %s: eglMakeCurrent failed (0x%x);", platform, (unsigned) eglGetError ());
      if (egl.surface != EGL_NO_SURFACE)
        eglDestroySurface (display, egl.surface);
      eglDestroyContext (display, egl.context);
      egl.surface = EGL_NO_SURFACE;
      egl.context = EGL_NO_CONTEXT;
      eglTerminate (display);
      return FALSE;
    }
  egl.display = display;
  egl.description = g_strdup_printf ("EGL %s: %s, %s", platform, glGetString (GL_RENDERER), glGetString (GL_VERSION));
  return TRUE;
}

gboolean
offscreen_gl_init (gboolean want_gles)
{
  g_autoptr (GString) failures = g_string_new (NULL);

  if (!epoxy_has_egl ())
    {
      egl.skip_reason = g_strdup ("no EGL library could be loaded");
      return FALSE;
    }

  if (epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_MESA_platform_surfaceless")
      && try_display (eglGetPlatformDisplayEXT (EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL),
                      "surfaceless platform", want_gles, failures))
    return TRUE;

  if (epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_platform_device")
      && epoxy_has_egl_extension (EGL_NO_DISPLAY, "EGL_EXT_device_enumeration"))
    {
      EGLDeviceEXT devices[8];
      EGLint n_devices = 0;

      if (eglQueryDevicesEXT (G_N_ELEMENTS (devices), devices, &n_devices))
        {
          for (EGLint i = 0; i < n_devices; i++)
            {
              g_autofree char *platform = g_strdup_printf ("device %d", i);

              if (try_display (eglGetPlatformDisplayEXT (EGL_PLATFORM_DEVICE_EXT, devices[i], NULL), platform,
                               want_gles, failures))
                return TRUE;
            }
        }
    }

  if (try_display (eglGetDisplay (EGL_DEFAULT_DISPLAY), "default display", want_gles, failures))
    return TRUE;

  egl.skip_reason = g_strdup_printf ("no offscreen GL context could be made:%s", failures->str);
  return FALSE;
}

const char *
offscreen_gl_skip_reason (void)
{
  return egl.skip_reason;
}

const char *
offscreen_gl_describe (void)
{
  return egl.description;
}

void
offscreen_gl_destroy (void)
{
  if (egl.display == EGL_NO_DISPLAY)
    return;
  eglMakeCurrent (egl.display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  if (egl.surface != EGL_NO_SURFACE)
    eglDestroySurface (egl.display, egl.surface);
  eglDestroyContext (egl.display, egl.context);
  /* No eglTerminate: Mesa 22 unloads its driver there and leaves a few hundred bytes unreachable, which
   * LeakSanitizer would blame on this test in the sanitizer build. The process ends right after. */
  egl.display = EGL_NO_DISPLAY;
  g_clear_pointer (&egl.skip_reason, g_free);
  g_clear_pointer (&egl.description, g_free);
}

gboolean
offscreen_gl_need_context (void)
{
  if (egl.skip_reason != NULL)
    {
      g_test_skip (egl.skip_reason);
      return FALSE;
    }
  return TRUE;
}

void
offscreen_gl_test_version (void)
{
  const char *expected = g_getenv ("SHEPARD_TEST_EXPECT_GL");

  if (expected == NULL)
    {
      g_test_skip ("SHEPARD_TEST_EXPECT_GL is not set: any context the driver gives is fine");
      return;
    }
  if (!offscreen_gl_need_context ())
    return;
  g_autofree char *actual = g_strdup_printf ("%s%d.%d", epoxy_is_desktop_gl () ? "" : "es", epoxy_gl_version () / 10,
                                             epoxy_gl_version () % 10);
  g_test_message ("GL context %s (%s), expected %s", actual, glGetString (GL_VERSION), expected);
  g_assert_cmpstr (actual, ==, expected);
}

void
target_init (Target *target, int width, int height)
{
  target->width = width;
  target->height = height;
  target->pixels = g_new0 (guint8, (size_t) 4 * width * height);
  glGenRenderbuffers (1, &target->renderbuffer);
  glBindRenderbuffer (GL_RENDERBUFFER, target->renderbuffer);
  glRenderbufferStorage (GL_RENDERBUFFER, GL_RGBA8, width, height);
  glGenFramebuffers (1, &target->framebuffer);
  glBindFramebuffer (GL_FRAMEBUFFER, target->framebuffer);
  glFramebufferRenderbuffer (GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, target->renderbuffer);
  g_assert_cmphex (glCheckFramebufferStatus (GL_FRAMEBUFFER), ==, GL_FRAMEBUFFER_COMPLETE);
}

void
target_read (Target *target)
{
  glPixelStorei (GL_PACK_ALIGNMENT, 1);
  glReadPixels (0, 0, target->width, target->height, GL_RGBA, GL_UNSIGNED_BYTE, target->pixels);
  g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
}

/* The pixel in column px, row py counted from the top, as glReadPixels counts rows from the bottom. */
const guint8 *
target_pixel (const Target *target, int px, int py)
{
  g_assert_cmpint (px, >=, 0);
  g_assert_cmpint (px, <, target->width);
  g_assert_cmpint (py, >=, 0);
  g_assert_cmpint (py, <, target->height);
  return target->pixels + 4 * ((size_t) (target->height - 1 - py) * target->width + px);
}

void
target_clear (Target *target)
{
  glBindFramebuffer (GL_FRAMEBUFFER, 0);
  glDeleteFramebuffers (1, &target->framebuffer);
  glDeleteRenderbuffers (1, &target->renderbuffer);
  g_clear_pointer (&target->pixels, g_free);
}

