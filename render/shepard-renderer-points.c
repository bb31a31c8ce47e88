/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data points drawn as dots over the grid, coloured by z or by values of their own, one of them highlighted. */
#include "shepard-renderer-points.h"

#include <epoxy/gl.h>
#include <math.h>

/* One instanced quad per data point, a little larger than the dot so the antialiased rim fits. The point comes from
 * a float texture by gl_InstanceID rather than from a per-instance attribute: glVertexAttribDivisor is core only from
 * OpenGL 3.3, and GTK 4.8 asks for 3.2, which is exactly what the NVIDIA driver then reports. */
static const char points_vertex_body[] =
  "uniform sampler2D u_points; /* texel i: x, y relative to the points' origin; z */\n"
  "uniform sampler2D u_values; /* texel i: the point's own colour value, read when u_own_values is set */\n"
  "uniform int u_own_values;\n"
  "uniform int u_first;     /* the point of instance 0 */\n"
  "uniform vec2 u_origin;   /* the points' origin in NDC */\n"
  "uniform vec2 u_scale;    /* NDC per map unit */\n"
  "uniform vec2 u_viewport; /* device pixels */\n"
  "uniform float u_half;    /* half the quad's side, device pixels */\n"
  "out vec2 v_offset;\n"
  "out float v_value;\n"
  "flat out int v_has_value;\n"
  SHEPARD_NODATA_GLSL
  "void main ()\n"
  "{\n"
  "  int columns = textureSize (u_points, 0).x;\n"
  "  int index = u_first + gl_InstanceID;\n"
  "  ivec2 texel = ivec2 (index % columns, index / columns);\n"
  "  vec4 point = texelFetch (u_points, texel, 0);\n"
  "  float value = u_own_values != 0 ? texelFetch (u_values, texel, 0).r : point.z;\n"
  "  vec2 corner = vec2 (float (gl_VertexID & 1), float (gl_VertexID >> 1)) * 2.0 - 1.0;\n"
  "  v_offset = corner * u_half;\n"
  "  v_has_value = nodata (value) ? 0 : 1;\n"
  "  v_value = v_has_value != 0 ? value : 0.0;\n"
  "  vec2 centre = u_origin + point.xy * u_scale;\n"
  "  gl_Position = vec4 (centre + v_offset * 2.0 / u_viewport, 0.0, 1.0);\n"
  "}\n";

/* Colours are premultiplied throughout: a dot without a value is a grey ring, the map showing through its middle. */
static const char points_fragment_body[] =
  "uniform float u_radius;  /* device pixels */\n"
  "uniform float u_outline; /* device pixels */\n"
  "uniform float u_ring;    /* the highlight's white ring inside the outline, device pixels; 0 on other dots */\n"
  "in vec2 v_offset;\n"
  "in float v_value;\n"
  "flat in int v_has_value;\n"
  "out vec4 frag_color;\n"
  SHEPARD_RAMP_GLSL
  "float inside (float r, float edge)\n"
  "{\n"
  "  return 1.0 - smoothstep (edge - 0.5, edge + 0.5, r);\n"
  "}\n"
  "void main ()\n"
  "{\n"
  "  float r = length (v_offset);\n"
  "  float alpha = inside (r, u_radius);\n"
  "  if (alpha <= 0.0)\n"
  "    discard;\n"
  "  float fill_edge = u_radius - u_outline;\n"
  "  vec4 fill = v_has_value != 0 ? vec4 (ramp (v_value), 1.0)\n"
  "                               : vec4 (0.6, 0.6, 0.6, 1.0) * (1.0 - inside (r, fill_edge - u_ring - u_outline));\n"
  "  if (u_ring > 0.0)\n"
  "    fill = mix (vec4 (1.0), fill, inside (r, fill_edge - u_ring));\n"
  "  frag_color = mix (vec4 (0.1, 0.1, 0.12, 1.0), fill, inside (r, fill_edge)) * alpha;\n"
  "}\n";

gboolean
_shepard_points_layer_init (ShepardPointsLayer *layer, GError **error)
{
  *layer = (ShepardPointsLayer) { .highlight = -1 };
  layer->program = _shepard_render_compile_program (points_vertex_body, points_fragment_body, error);
  if (layer->program == 0)
    return FALSE;
  _shepard_render_get_ramp_uniforms (layer->program, &layer->ramp_uniforms);
  layer->sampler = glGetUniformLocation (layer->program, "u_points");
  layer->values_sampler = glGetUniformLocation (layer->program, "u_values");
  layer->own_values = glGetUniformLocation (layer->program, "u_own_values");
  layer->first = glGetUniformLocation (layer->program, "u_first");
  layer->origin = glGetUniformLocation (layer->program, "u_origin");
  layer->scale = glGetUniformLocation (layer->program, "u_scale");
  layer->viewport = glGetUniformLocation (layer->program, "u_viewport");
  layer->half = glGetUniformLocation (layer->program, "u_half");
  layer->radius = glGetUniformLocation (layer->program, "u_radius");
  layer->outline = glGetUniformLocation (layer->program, "u_outline");
  layer->ring = glGetUniformLocation (layer->program, "u_ring");
  /* The vertices come from gl_VertexID and gl_InstanceID; a core context still wants a vertex array bound to draw. */
  glGenVertexArrays (1, &layer->vao);
  return TRUE;
}

void
_shepard_points_layer_clear (ShepardPointsLayer *layer)
{
  glDeleteProgram (layer->program);
  glDeleteVertexArrays (1, &layer->vao);
  glDeleteTextures (1, &layer->texture);
  glDeleteTextures (1, &layer->values_texture);
  *layer = (ShepardPointsLayer) { .highlight = -1 };
}

gboolean
_shepard_points_layer_set_points (ShepardPointsLayer *layer, gint max_texture_size, const double *x, const double *y,
                                  const double *z, size_t n_points, GError **error)
{
  size_t max_side = (size_t) max_texture_size;
  size_t columns = MAX (MIN (n_points, max_side), 1);
  size_t rows = MAX ((n_points + columns - 1) / columns, 1);

  if (rows > max_side)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_TOO_LARGE,
                   "The map can draw at most %zu points with this graphics driver, and the layer has %zu.",
                   max_side * max_side, n_points);
      return FALSE;
    }

  double x_min = G_MAXDOUBLE, x_max = -G_MAXDOUBLE, y_min = G_MAXDOUBLE, y_max = -G_MAXDOUBLE;

  for (size_t i = 0; i < n_points; i++)
    {
      x_min = MIN (x_min, x[i]);
      x_max = MAX (x_max, x[i]);
      y_min = MIN (y_min, y[i]);
      y_max = MAX (y_max, y[i]);
    }
  /* Offsets from the points' centre fit float32 even for UTM-scale coordinates; the centre stays in double. */
  layer->origin_x = n_points > 0 ? (x_min + x_max) / 2 : 0;
  layer->origin_y = n_points > 0 ? (y_min + y_max) / 2 : 0;

  /* The last row is padded; only n_points instances are drawn. */
  g_autofree GLfloat *texels = g_new0 (GLfloat, 4 * columns * rows);

  for (size_t i = 0; i < n_points; i++)
    {
      texels[4 * i] = (GLfloat) (x[i] - layer->origin_x);
      texels[4 * i + 1] = (GLfloat) (y[i] - layer->origin_y);
      texels[4 * i + 2] = (GLfloat) z[i];
    }
  _shepard_render_upload_float_texture (&layer->texture, GL_RGBA32F, GL_RGBA, columns, rows, texels);
  layer->count = n_points;
  layer->columns = columns;
  layer->rows = rows;
  /* Colours of the points before would now fall on other points. */
  layer->own_colors = FALSE;
  return TRUE;
}

gboolean
_shepard_points_layer_set_colors (ShepardPointsLayer *layer, const double *values, size_t n_points,
                                  ShepardColorRamp ramp, double min, double max, GError **error)
{
  if (values == NULL)
    {
      layer->own_colors = FALSE;
      return TRUE;
    }
  if (n_points != layer->count)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_MISMATCH,
                   "The map has %zu points to colour, and %zu values were given for them.", layer->count, n_points);
      return FALSE;
    }

  /* Before any set_points there is no layout yet: one texel, as set_points makes for no points. */
  size_t columns = MAX (layer->columns, 1), rows = MAX (layer->rows, 1);
  g_autofree GLfloat *texels = g_new0 (GLfloat, columns * rows);

  for (size_t i = 0; i < n_points; i++)
    texels[i] = (GLfloat) values[i];
  _shepard_render_upload_float_texture (&layer->values_texture, GL_R32F, GL_RED, columns, rows, texels);
  layer->own_colors = TRUE;
  layer->own_ramp = ramp;
  layer->own_min = min;
  layer->own_max = max;
  return TRUE;
}

void
_shepard_points_layer_draw (const ShepardPointsLayer *layer, const ShepardView *view, double scale_x, double scale_y,
                            ShepardColorRamp ramp, double range_min, double range_max)
{
  double radius = SHEPARD_RENDER_POINT_RADIUS * view->scale;
  double highlight_radius = SHEPARD_RENDER_HIGHLIGHT_RADIUS * view->scale;

  glUseProgram (layer->program);
  if (layer->own_colors)
    _shepard_render_upload_ramp (&layer->ramp_uniforms, layer->own_ramp, layer->own_min, layer->own_max);
  else
    _shepard_render_upload_ramp (&layer->ramp_uniforms, ramp, range_min, range_max);
  glUniform1i (layer->sampler, 0);
  glUniform1i (layer->values_sampler, 1);
  glUniform1i (layer->own_values, layer->own_colors);
  glUniform1i (layer->first, 0);
  glUniform2f (layer->origin, (GLfloat) ((layer->origin_x - view->center_x) * scale_x),
               (GLfloat) ((layer->origin_y - view->center_y) * scale_y));
  glUniform2f (layer->scale, (GLfloat) scale_x, (GLfloat) scale_y);
  glUniform2f (layer->viewport, (GLfloat) view->width, (GLfloat) view->height);
  glUniform1f (layer->half, (GLfloat) (radius + 1));
  glUniform1f (layer->radius, (GLfloat) radius);
  glUniform1f (layer->outline, (GLfloat) (SHEPARD_RENDER_POINT_OUTLINE * view->scale));
  glUniform1f (layer->ring, 0);

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, layer->own_colors ? layer->values_texture : 0);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, layer->texture);
  glBindVertexArray (layer->vao);
  glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, (GLsizei) layer->count);

  /* Drawn once more, last, so that no neighbour covers it. */
  if (layer->highlight >= 0 && (size_t) layer->highlight < layer->count)
    {
      glUniform1i (layer->first, (GLint) layer->highlight);
      glUniform1f (layer->half, (GLfloat) (highlight_radius + 1));
      glUniform1f (layer->radius, (GLfloat) highlight_radius);
      glUniform1f (layer->ring, (GLfloat) (SHEPARD_RENDER_HIGHLIGHT_RING * view->scale));
      glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, 1);
    }

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, 0);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, 0);
}
