/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the renderer's programs share: building a program for the context's GLSL version, the ramp's uniforms, and
 * the float textures they fetch from. */
#include "shepard-render-private.h"

#include <epoxy/gl.h>

static GLuint
compile_shader (GLenum type, const char *version, const char *body, GError **error)
{
  /* highp everywhere: values and map offsets need float32, and a GLES sampler defaults to lowp. */
  const char *sources[] = {
    version,
    "#ifdef GL_ES\nprecision highp float;\nprecision highp int;\nprecision highp sampler2D;\n#endif\n",
    body,
  };
  GLuint shader = glCreateShader (type);
  GLint status = GL_FALSE;

  glShaderSource (shader, G_N_ELEMENTS (sources), sources, NULL);
  glCompileShader (shader);
  glGetShaderiv (shader, GL_COMPILE_STATUS, &status);
  if (status != GL_TRUE)
    {
      GLint log_length = 0;
      g_autofree char *log = NULL;

      glGetShaderiv (shader, GL_INFO_LOG_LENGTH, &log_length);
      log = g_malloc0 (MAX (log_length, 1));
      glGetShaderInfoLog (shader, MAX (log_length, 1), NULL, log);
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_SHADER,
                   "The graphics driver could not compile the map's %s shader, so the map cannot be drawn. "
                   "Updating the graphics driver may help; otherwise please report this message. Driver log: %s",
                   type == GL_VERTEX_SHADER ? "vertex" : "fragment", g_strstrip (log));
      glDeleteShader (shader);
      return 0;
    }
  return shader;
}

guint
_shepard_render_compile_program (const char *vertex_body, const char *fragment_body, GError **error)
{
  /* GLSL 1.50 is OpenGL 3.2's, the oldest context GTK 4.8 hands out. */
  gboolean desktop = epoxy_is_desktop_gl ();
  const char *version = desktop ? "#version 150 core\n" : "#version 300 es\n";
  GLuint vertex = 0, fragment = 0, program;
  GLint status = GL_FALSE;

  vertex = compile_shader (GL_VERTEX_SHADER, version, vertex_body, error);
  if (vertex == 0)
    return 0;
  fragment = compile_shader (GL_FRAGMENT_SHADER, version, fragment_body, error);
  if (fragment == 0)
    {
      glDeleteShader (vertex);
      return 0;
    }

  program = glCreateProgram ();
  glAttachShader (program, vertex);
  glAttachShader (program, fragment);
  /* GLSL 1.50 has no layout qualifiers: the one colour output is bound by name. GLES 3 gives it location 0. */
  if (desktop)
    glBindFragDataLocation (program, 0, "frag_color");
  glLinkProgram (program);
  /* The program keeps what it needs; the shader objects go when it does. */
  glDeleteShader (vertex);
  glDeleteShader (fragment);
  glGetProgramiv (program, GL_LINK_STATUS, &status);
  if (status != GL_TRUE)
    {
      GLint log_length = 0;
      g_autofree char *log = NULL;

      glGetProgramiv (program, GL_INFO_LOG_LENGTH, &log_length);
      log = g_malloc0 (MAX (log_length, 1));
      glGetProgramInfoLog (program, MAX (log_length, 1), NULL, log);
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_SHADER,
                   "The graphics driver could not link the map's shaders, so the map cannot be drawn. "
                   "Updating the graphics driver may help; otherwise please report this message. Driver log: %s",
                   g_strstrip (log));
      glDeleteProgram (program);
      return 0;
    }
  return program;
}

void
_shepard_render_get_ramp_uniforms (guint program, ShepardRampUniforms *uniforms)
{
  G_STATIC_ASSERT (sizeof (GLint) == sizeof (gint));

  uniforms->stops = glGetUniformLocation (program, "u_stops");
  uniforms->n_stops = glGetUniformLocation (program, "u_n_stops");
  uniforms->range = glGetUniformLocation (program, "u_range");
}

void
_shepard_render_upload_ramp (const ShepardRampUniforms *uniforms, ShepardColorRamp ramp, double min, double max)
{
  guint n_stops;
  const ShepardRampStop *stops = _shepard_color_ramp_get_stops (ramp, &n_stops);

  G_STATIC_ASSERT (sizeof (ShepardRampStop) == 4 * sizeof (GLfloat));
  glUniform4fv (uniforms->stops, (GLsizei) n_stops, (const GLfloat *) stops);
  glUniform1i (uniforms->n_stops, (GLint) n_stops);
  glUniform2f (uniforms->range, (GLfloat) min, (GLfloat) max);
}

guint
_shepard_render_new_fetch_texture (void)
{
  GLuint texture = 0;

  glGenTextures (1, &texture);
  glBindTexture (GL_TEXTURE_2D, texture);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
  return texture;
}

void
_shepard_render_unpack_tightly (void)
{
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei (GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei (GL_UNPACK_SKIP_PIXELS, 0);
}

void
_shepard_render_upload_float_texture (guint *texture, guint internal_format, guint format, size_t width,
                                      size_t height, const float *texels)
{
  if (*texture == 0)
    *texture = _shepard_render_new_fetch_texture ();
  else
    glBindTexture (GL_TEXTURE_2D, *texture);
  _shepard_render_unpack_tightly ();
  glTexImage2D (GL_TEXTURE_2D, 0, (GLint) internal_format, (GLsizei) width, (GLsizei) height, 0, format, GL_FLOAT,
                texels);
  glBindTexture (GL_TEXTURE_2D, 0);
}
