/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data points drawn as dots over the grid, coloured by z or by values of their own, one of them highlighted; dense
 * layers as small dots, or a sample of them, chosen from the points per pixel. */
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
  "uniform int u_stride;    /* 0: instance i draws point u_first + i; else sample i, point i * u_stride mod u_count */\n"
  "uniform int u_count;\n"
  "uniform vec2 u_origin;   /* the points' origin in NDC */\n"
  "uniform vec2 u_scale;    /* NDC per map unit */\n"
  "uniform vec2 u_viewport; /* device pixels */\n"
  "uniform float u_half;    /* half the quad's side, device pixels */\n"
  "out vec2 v_offset;\n"
  "out float v_value;\n"
  "flat out int v_has_value;\n"
  SHEPARD_NODATA_GLSL
  "/* a * b mod m by doubling, as a * b itself may not fit 32 bits; every sum stays below 2 m. */\n"
  "uint times_mod (uint a, uint b, uint m)\n"
  "{\n"
  "  uint product = 0u;\n"
  "  for (; b > 0u; b >>= 1) {\n"
  "    if ((b & 1u) != 0u)\n"
  "      product = product + a >= m ? product + a - m : product + a;\n"
  "    a = a + a >= m ? a + a - m : a + a;\n"
  "  }\n"
  "  return product;\n"
  "}\n"
  "void main ()\n"
  "{\n"
  "  int columns = textureSize (u_points, 0).x;\n"
  "  int index = u_stride == 0 ? u_first + gl_InstanceID\n"
  "                            : int (times_mod (uint (u_stride), uint (gl_InstanceID), uint (u_count)));\n"
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
  layer->stride = glGetUniformLocation (layer->program, "u_stride");
  layer->count_uniform = glGetUniformLocation (layer->program, "u_count");
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
  g_free (layer->density);
  *layer = (ShepardPointsLayer) { .highlight = -1 };
}

/* The first number from count times the golden ratio's fraction up that shares no factor with count: the samples
 * i * stride mod count then visit every point once, and any first few of them spread evenly over the points' order. */
static guint32
choose_sample_stride (size_t count)
{
  guint64 stride = (guint64) round ((double) count * 0.6180339887498949);

  for (;; stride++)
    {
      guint64 a = stride, b = count;
      while (b != 0)
        {
          guint64 rest = a % b;
          a = b;
          b = rest;
        }
      if (a == 1)
        return (guint32) stride;
    }
}

/* About this many points to a density cell, on average: fewer would take the gaps between sparse points for empty
 * map. */
enum { POINTS_PER_DENSITY_CELL = 16 };

static void
count_density (ShepardPointsLayer *layer, const double *x, const double *y, size_t n_points, double x_max,
               double y_max)
{
  size_t cells = CLAMP ((size_t) sqrt ((double) n_points / POINTS_PER_DENSITY_CELL), 1, SHEPARD_POINTS_DENSITY_CELLS);

  layer->density_cells = cells;
  layer->cell_width = (x_max - layer->x_min) / (double) cells;
  layer->cell_height = (y_max - layer->y_min) / (double) cells;
  g_free (layer->density);
  layer->density = g_new0 (guint32, cells * cells);
  for (size_t i = 0; i < n_points; i++)
    {
      size_t col = layer->cell_width > 0 ? MIN ((size_t) ((x[i] - layer->x_min) / layer->cell_width), cells - 1) : 0;
      size_t row = layer->cell_height > 0 ? MIN ((size_t) ((y[i] - layer->y_min) / layer->cell_height), cells - 1) : 0;
      layer->density[row * cells + col]++;
    }
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
  layer->x_min = n_points > 0 ? x_min : 0;
  layer->y_min = n_points > 0 ? y_min : 0;
  count_density (layer, x, y, n_points, n_points > 0 ? x_max : 0, n_points > 0 ? y_max : 0);
  layer->sample_stride = choose_sample_stride (n_points);

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

/* The part of the cell [start, start + size] inside [low, high]; a cell of no size (points on one line) is wholly in
 * or out. */
static double
overlap_fraction (double start, double size, double low, double high)
{
  if (size <= 0)
    return start >= low && start <= high ? 1 : 0;
  return CLAMP ((MIN (start + size, high) - MAX (start, low)) / size, 0, 1);
}

ShepardPointsStyle
_shepard_points_layer_choose_style (const ShepardPointsLayer *layer, const ShepardView *view, size_t *drawn)
{
  double upp = view->units_per_pixel;
  double half_width = view->width / view->scale * upp / 2, half_height = view->height / view->scale * upp / 2;
  /* A cell of no width or height (points on one line) is one pixel across. */
  double cell_pixels = MAX (layer->cell_width, layer->cell_width > 0 ? 0 : upp)
                       * MAX (layer->cell_height, layer->cell_height > 0 ? 0 : upp) / (upp * upp);
  double visible_points = 0, visible_pixels = 0;

  for (size_t row = 0; row < layer->density_cells; row++)
    {
      double fy = overlap_fraction (layer->y_min + (double) row * layer->cell_height, layer->cell_height,
                                    view->center_y - half_height, view->center_y + half_height);
      for (size_t col = 0; fy > 0 && col < layer->density_cells; col++)
        {
          guint32 count = layer->density[row * layer->density_cells + col];
          if (count == 0)
            continue;
          double fraction = fy * overlap_fraction (layer->x_min + (double) col * layer->cell_width, layer->cell_width,
                                                   view->center_x - half_width, view->center_x + half_width);
          visible_points += count * fraction;
          visible_pixels += cell_pixels * fraction;
        }
    }

  double budget = SHEPARD_POINTS_COVERAGE_BUDGET * visible_pixels;
  /* A dot changes the pixels out to half a pixel beyond its radius, where its antialiased rim fades. */
  double outlined_cover = visible_points * G_PI * pow (SHEPARD_RENDER_POINT_RADIUS + 0.5, 2);
  double small_cover = visible_points * G_PI * pow (SHEPARD_POINTS_DENSE_RADIUS + 0.5, 2);
  double view_pixels = view->width / view->scale * view->height / view->scale;

  *drawn = layer->count;
  if (outlined_cover <= SHEPARD_POINTS_OUTLINED_COVERAGE * visible_pixels
      || outlined_cover <= SHEPARD_POINTS_VIEW_SHARE * view_pixels)
    return SHEPARD_POINTS_OUTLINED;
  if (small_cover <= budget)
    return SHEPARD_POINTS_SMALL;
  *drawn = CLAMP ((size_t) ceil ((double) layer->count * budget / small_cover), 1, layer->count);
  return SHEPARD_POINTS_THINNED;
}

void
_shepard_points_layer_draw (const ShepardPointsLayer *layer, const ShepardView *view, double scale_x, double scale_y,
                            ShepardColorRamp ramp, double range_min, double range_max)
{
  size_t drawn = 0;
  ShepardPointsStyle style = _shepard_points_layer_choose_style (layer, view, &drawn);
  gboolean outlined = style == SHEPARD_POINTS_OUTLINED;
  double radius = (outlined ? SHEPARD_RENDER_POINT_RADIUS : SHEPARD_POINTS_DENSE_RADIUS) * view->scale;
  double outline = (outlined ? SHEPARD_RENDER_POINT_OUTLINE : SHEPARD_POINTS_DENSE_OUTLINE) * view->scale;
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
  glUniform1i (layer->stride, style == SHEPARD_POINTS_THINNED ? (GLint) layer->sample_stride : 0);
  glUniform1i (layer->count_uniform, (GLint) layer->count);
  glUniform2f (layer->origin, (GLfloat) ((layer->origin_x - view->center_x) * scale_x),
               (GLfloat) ((layer->origin_y - view->center_y) * scale_y));
  glUniform2f (layer->scale, (GLfloat) scale_x, (GLfloat) scale_y);
  glUniform2f (layer->viewport, (GLfloat) view->width, (GLfloat) view->height);
  glUniform1f (layer->half, (GLfloat) (radius + 1));
  glUniform1f (layer->radius, (GLfloat) radius);
  glUniform1f (layer->outline, (GLfloat) outline);
  glUniform1f (layer->ring, 0);

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, layer->own_colors ? layer->values_texture : 0);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, layer->texture);
  glBindVertexArray (layer->vao);
  glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, (GLsizei) drawn);

  /* Drawn once more, last, so that no neighbour covers it. */
  if (layer->highlight >= 0 && (size_t) layer->highlight < layer->count)
    {
      glUniform1i (layer->first, (GLint) layer->highlight);
      glUniform1i (layer->stride, 0);
      glUniform1f (layer->outline, (GLfloat) (SHEPARD_RENDER_POINT_OUTLINE * view->scale));
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
