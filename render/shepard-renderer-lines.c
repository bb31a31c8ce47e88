/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Context lines drawn between the grid and the dots: a dark line inside a light halo, readable on any ramp. */
#include "shepard-renderer-lines.h"

#include <epoxy/gl.h>

/* Six vertices (two triangles) per segment, the segment read from a float texture by gl_VertexID / 6: core wide
 * lines are limited to one pixel, and per-instance attributes need OpenGL 3.3. The quad is widened by half the line
 * width on each side and lengthened as much at each end, so that consecutive segments join without a notch. */
static const char lines_vertex_body[] =
  "uniform sampler2D u_segments; /* texel i: x0, y0, x1, y1 relative to the lines' origin */\n"
  "uniform vec2 u_origin;   /* the lines' origin in NDC */\n"
  "uniform vec2 u_scale;    /* NDC per map unit */\n"
  "uniform vec2 u_viewport; /* device pixels */\n"
  "uniform float u_half_width; /* device pixels, with one more for the antialiased edge */\n"
  "out float v_across;         /* device pixels from the line's middle */\n"
  "void main ()\n"
  "{\n"
  "  int columns = textureSize (u_segments, 0).x;\n"
  "  int index = gl_VertexID / 6;\n"
  "  int corner = gl_VertexID - 6 * index;\n"
  "  vec4 segment = texelFetch (u_segments, ivec2 (index % columns, index / columns), 0);\n"
  "  vec2 half_viewport = 0.5 * u_viewport;\n"
  "  vec2 a = (u_origin + segment.xy * u_scale) * half_viewport;\n"
  "  vec2 b = (u_origin + segment.zw * u_scale) * half_viewport;\n"
  "  vec2 along = b - a;\n"
  "  along = dot (along, along) > 0.0 ? normalize (along) : vec2 (1.0, 0.0);\n"
  "  vec2 across = vec2 (-along.y, along.x);\n"
  "  /* Corners 0..5: (start, -), (end, -), (start, +), (start, +), (end, -), (end, +). */\n"
  "  bool at_end = corner == 1 || corner == 4 || corner == 5;\n"
  "  float side = (corner == 2 || corner == 3 || corner == 5) ? 1.0 : -1.0;\n"
  "  vec2 position = (at_end ? b + along * u_half_width : a - along * u_half_width) + across * side * u_half_width;\n"
  "  v_across = side * u_half_width;\n"
  "  gl_Position = vec4 (position / half_viewport, 0.0, 1.0);\n"
  "}\n";

/* Premultiplied, as the rest of the frame. */
static const char lines_fragment_body[] =
  "uniform float u_half_width;\n"
  "uniform vec4 u_color;\n"
  "in float v_across;\n"
  "out vec4 frag_color;\n"
  "void main ()\n"
  "{\n"
  "  float coverage = clamp (u_half_width - 0.5 - abs (v_across), 0.0, 1.0);\n"
  "  if (coverage <= 0.0)\n"
  "    discard;\n"
  "  frag_color = u_color * coverage;\n"
  "}\n";

gboolean
_shepard_lines_layer_init (ShepardLinesLayer *layer, GError **error)
{
  *layer = (ShepardLinesLayer) { 0 };
  layer->program = _shepard_render_compile_program (lines_vertex_body, lines_fragment_body, error);
  if (layer->program == 0)
    return FALSE;
  layer->sampler = glGetUniformLocation (layer->program, "u_segments");
  layer->origin = glGetUniformLocation (layer->program, "u_origin");
  layer->scale = glGetUniformLocation (layer->program, "u_scale");
  layer->viewport = glGetUniformLocation (layer->program, "u_viewport");
  layer->half_width = glGetUniformLocation (layer->program, "u_half_width");
  layer->color = glGetUniformLocation (layer->program, "u_color");
  /* The vertices come from gl_VertexID; a core context still wants a vertex array bound to draw. */
  glGenVertexArrays (1, &layer->vao);
  return TRUE;
}

void
_shepard_lines_layer_clear (ShepardLinesLayer *layer)
{
  glDeleteProgram (layer->program);
  glDeleteVertexArrays (1, &layer->vao);
  glDeleteTextures (1, &layer->texture);
  *layer = (ShepardLinesLayer) { 0 };
}

gboolean
_shepard_lines_layer_set_lines (ShepardLinesLayer *layer, gint max_texture_size, const double *x, const double *y,
                                const size_t *strip_start, size_t n_strips, GError **error)
{
  size_t n_vertices = n_strips > 0 ? strip_start[n_strips] : 0;
  size_t n_segments = 0;

  for (size_t s = 0; s < n_strips; s++)
    n_segments += strip_start[s + 1] - strip_start[s] - (strip_start[s + 1] > strip_start[s] ? 1 : 0);

  size_t max_side = (size_t) max_texture_size;
  size_t columns = MAX (MIN (n_segments, max_side), 1);
  size_t rows = MAX ((n_segments + columns - 1) / columns, 1);
  if (rows > max_side)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_TOO_LARGE,
                   "The map can draw at most %zu line segments with this graphics driver, and the context layers "
                   "have %zu.",
                   max_side * max_side, n_segments);
      return FALSE;
    }

  double x_min = G_MAXDOUBLE, x_max = -G_MAXDOUBLE, y_min = G_MAXDOUBLE, y_max = -G_MAXDOUBLE;
  for (size_t i = 0; i < n_vertices; i++)
    {
      x_min = MIN (x_min, x[i]);
      x_max = MAX (x_max, x[i]);
      y_min = MIN (y_min, y[i]);
      y_max = MAX (y_max, y[i]);
    }
  /* Offsets from the lines' centre fit float32 even for UTM-scale coordinates; the centre stays in double. */
  layer->origin_x = n_vertices > 0 ? (x_min + x_max) / 2 : 0;
  layer->origin_y = n_vertices > 0 ? (y_min + y_max) / 2 : 0;

  g_autofree GLfloat *texels = g_new0 (GLfloat, 4 * columns * rows);
  GLfloat *texel = texels;
  for (size_t s = 0; s < n_strips; s++)
    for (size_t i = strip_start[s]; i + 1 < strip_start[s + 1]; i++, texel += 4)
      {
        texel[0] = (GLfloat) (x[i] - layer->origin_x);
        texel[1] = (GLfloat) (y[i] - layer->origin_y);
        texel[2] = (GLfloat) (x[i + 1] - layer->origin_x);
        texel[3] = (GLfloat) (y[i + 1] - layer->origin_y);
      }
  _shepard_render_upload_float_texture (&layer->texture, GL_RGBA32F, GL_RGBA, columns, rows, texels);
  layer->count = n_segments;
  return TRUE;
}

static void
draw_pass (const ShepardLinesLayer *layer, double half_width, const GLfloat color[4])
{
  glUniform1f (layer->half_width, (GLfloat) (half_width + 1));
  glUniform4fv (layer->color, 1, color);
  glDrawArrays (GL_TRIANGLES, 0, (GLsizei) (6 * layer->count));
}

void
_shepard_lines_layer_draw (const ShepardLinesLayer *layer, const ShepardView *view, double scale_x, double scale_y)
{
  /* Opaque, so that where the quads of consecutive segments overlap nothing shows twice as dark. */
  static const GLfloat halo[4] = { 0.95f, 0.95f, 0.95f, 1.0f };
  static const GLfloat line[4] = { 0.08f, 0.16f, 0.36f, 1.0f };

  glUseProgram (layer->program);
  glUniform1i (layer->sampler, 0);
  glUniform2f (layer->origin, (GLfloat) ((layer->origin_x - view->center_x) * scale_x),
               (GLfloat) ((layer->origin_y - view->center_y) * scale_y));
  glUniform2f (layer->scale, (GLfloat) scale_x, (GLfloat) scale_y);
  glUniform2f (layer->viewport, (GLfloat) view->width, (GLfloat) view->height);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, layer->texture);
  glBindVertexArray (layer->vao);
  draw_pass (layer, SHEPARD_RENDER_LINE_HALO_WIDTH / 2 * view->scale, halo);
  draw_pass (layer, SHEPARD_RENDER_LINE_WIDTH / 2 * view->scale, line);
  glBindTexture (GL_TEXTURE_2D, 0);
}
