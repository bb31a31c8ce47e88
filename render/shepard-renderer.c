/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The renderer: the grid layer (its program, texture and CUDA-OpenGL interop), the state both layers draw with, and
 * the frame. The points layer is in shepard-renderer-points.c, the context lines in shepard-renderer-lines.c. */
#include "shepard-render-private.h"

#include <epoxy/gl.h>
#include <math.h>

#include "cuda-gl-texture.h"
#include "shepard-renderer-lines.h"
#include "shepard-renderer-points.h"

G_DEFINE_QUARK (shepard-render-error-quark, shepard_render_error)

/* The grid quad: one triangle strip over the grid's extent, corners given in normalised device coordinates
 * (computed in double on the CPU, so that map coordinates of any size keep their precision). */
static const char grid_vertex_body[] =
  "uniform vec4 u_corners; /* left, top, right, bottom */\n"
  "uniform vec2 u_size;    /* columns, rows */\n"
  "out vec2 v_cell;\n"
  "void main ()\n"
  "{\n"
  "  vec2 corner = vec2 (float (gl_VertexID & 1), float (gl_VertexID >> 1));\n"
  "  v_cell = corner * u_size;\n"
  "  gl_Position = vec4 (mix (u_corners.x, u_corners.z, corner.x), mix (u_corners.y, u_corners.w, corner.y),\n"
  "                      0.0, 1.0);\n"
  "}\n";

/* Cells are fetched, never filtered: each screen pixel shows its cell's value exactly, R32F needs no filtering
 * support (GLES 3), and nodata does not bleed into its neighbours. Hillshade follows Horn's 3 x 3 gradient, with
 * nodata or off-grid neighbours taking the centre's value so that the data's edge reads as flat. */
static const char grid_fragment_body[] =
  "uniform sampler2D u_grid;\n"
  "uniform sampler2D u_mask; /* 0 where a mask takes the cell away */\n"
  "uniform int u_has_mask;\n"
  "uniform int u_hillshade;\n"
  "uniform vec2 u_cell_size; /* dx, dy divided by the z factor */\n"
  "uniform vec3 u_sun;       /* unit vector towards the sun: east, north, up */\n"
  "uniform float u_opacity;\n"
  "uniform int u_n_classes;  /* 0: continuous */\n"
  "uniform float u_breaks[" G_STRINGIFY (SHEPARD_RENDER_MAX_CLASSES) " + 1];\n"
  "in vec2 v_cell;\n"
  "out vec4 frag_color;\n"
  SHEPARD_NODATA_GLSL
  SHEPARD_RAMP_GLSL
  "float neighbour (ivec2 cell, ivec2 size, float centre)\n"
  "{\n"
  "  float z = texelFetch (u_grid, clamp (cell, ivec2 (0), size - 1), 0).r;\n"
  "  return nodata (z) ? centre : z;\n"
  "}\n"
  "/* Class i is drawn with the ramp's colour at (i + 0.5) / n, as shepard_color_ramp_color_for_class(). */\n"
  "vec3 classed (float z)\n"
  "{\n"
  "  int index = 0;\n"
  "  for (int i = 1; i < u_n_classes; i++)\n"
  "    if (z >= u_breaks[i])\n"
  "      index = i;\n"
  "  float t = (float (index) + 0.5) / float (u_n_classes);\n"
  "  return ramp (mix (u_range.x, u_range.y, t));\n"
  "}\n"
  "void main ()\n"
  "{\n"
  "  ivec2 size = textureSize (u_grid, 0);\n"
  "  ivec2 cell = clamp (ivec2 (floor (v_cell)), ivec2 (0), size - 1);\n"
  "  float z = texelFetch (u_grid, cell, 0).r;\n"
  "  if (nodata (z) || (u_has_mask != 0 && texelFetch (u_mask, cell, 0).r == 0.0))\n"
  "    discard;\n"
  "  vec3 rgb = u_n_classes > 0 ? classed (z) : ramp (z);\n"
  "  if (u_hillshade != 0) {\n"
  "    float a = neighbour (cell + ivec2 (-1, -1), size, z);\n"
  "    float b = neighbour (cell + ivec2 (0, -1), size, z);\n"
  "    float c = neighbour (cell + ivec2 (1, -1), size, z);\n"
  "    float d = neighbour (cell + ivec2 (-1, 0), size, z);\n"
  "    float f = neighbour (cell + ivec2 (1, 0), size, z);\n"
  "    float g = neighbour (cell + ivec2 (-1, 1), size, z);\n"
  "    float h = neighbour (cell + ivec2 (0, 1), size, z);\n"
  "    float i = neighbour (cell + ivec2 (1, 1), size, z);\n"
  "    /* Row -1 is north: dz/dy grows northwards, dz/dx eastwards. */\n"
  "    float dzdx = ((c + 2.0 * f + i) - (a + 2.0 * d + g)) / (8.0 * u_cell_size.x);\n"
  "    float dzdy = ((a + 2.0 * b + c) - (g + 2.0 * h + i)) / (8.0 * u_cell_size.y);\n"
  "    float shade = max (dot (normalize (vec3 (-dzdx, -dzdy, 1.0)), u_sun), 0.0);\n"
  "    /* Some ambient light keeps the colours of slopes facing away from the sun readable. */\n"
  "    rgb *= 0.4 + 0.6 * shade;\n"
  "  }\n"
  "  frag_color = vec4 (rgb * u_opacity, u_opacity);\n"
  "}\n";

struct _ShepardRenderer {
  GLint max_texture_size;

  GLuint grid_program;
  ShepardRampUniforms grid_ramp;
  GLint grid_corners, grid_size, grid_sampler, grid_hillshade, grid_cell_size, grid_sun;
  GLint grid_opacity, grid_n_classes, grid_breaks, grid_mask_sampler, grid_has_mask;
  GLuint grid_vao;
  GLuint grid_texture;
  size_t texture_width, texture_height;
  shepard_grid grid;
  gboolean has_grid;
  GLuint mask_texture; /* GL_R8, the grid's size: 0 takes a cell away */
  gboolean has_mask;
  GLuint backdrop_texture;
  shepard_grid backdrop_grid;
  gboolean has_backdrop;
  ShepardCudaGlTexture *cuda_texture; /* NULL unless CUDA-OpenGL interop is enabled */

  ShepardLinesLayer lines;
  ShepardPointsLayer points;

  ShepardColorRamp ramp;
  double range_min, range_max;
  gboolean hillshade;
  double z_factor;
  double opacity;
  guint n_classes;
  GLfloat breaks[SHEPARD_RENDER_MAX_CLASSES + 1];
  ShepardView view;
};

ShepardRenderer *
shepard_renderer_new (GError **error)
{
  g_autoptr (ShepardRenderer) self = NULL;
  int version = epoxy_gl_version ();
  gboolean is_es = !epoxy_is_desktop_gl ();

  if (version < (is_es ? 30 : 32))
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_UNSUPPORTED,
                   "The graphics driver offers OpenGL%s %d.%d, but the map needs OpenGL 3.2 or OpenGL ES 3.0. "
                   "Update the graphics driver, or use software rendering (LIBGL_ALWAYS_SOFTWARE=1).",
                   is_es ? " ES" : "", version / 10, version % 10);
      return NULL;
    }

  self = g_new0 (ShepardRenderer, 1);
  self->ramp = SHEPARD_COLOR_RAMP_VIRIDIS;
  self->range_min = 0;
  self->range_max = 1;
  self->z_factor = 1;
  self->opacity = 1;
  self->view = (ShepardView) { .units_per_pixel = 1, .width = 1, .height = 1, .scale = 1 };
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &self->max_texture_size);

  self->grid_program = _shepard_render_compile_program (grid_vertex_body, grid_fragment_body, error);
  if (self->grid_program == 0)
    return NULL;
  _shepard_render_get_ramp_uniforms (self->grid_program, &self->grid_ramp);
  self->grid_corners = glGetUniformLocation (self->grid_program, "u_corners");
  self->grid_size = glGetUniformLocation (self->grid_program, "u_size");
  self->grid_sampler = glGetUniformLocation (self->grid_program, "u_grid");
  self->grid_hillshade = glGetUniformLocation (self->grid_program, "u_hillshade");
  self->grid_cell_size = glGetUniformLocation (self->grid_program, "u_cell_size");
  self->grid_sun = glGetUniformLocation (self->grid_program, "u_sun");
  self->grid_opacity = glGetUniformLocation (self->grid_program, "u_opacity");
  self->grid_n_classes = glGetUniformLocation (self->grid_program, "u_n_classes");
  self->grid_breaks = glGetUniformLocation (self->grid_program, "u_breaks");
  self->grid_mask_sampler = glGetUniformLocation (self->grid_program, "u_mask");
  self->grid_has_mask = glGetUniformLocation (self->grid_program, "u_has_mask");

  if (!_shepard_lines_layer_init (&self->lines, error) || !_shepard_points_layer_init (&self->points, error))
    return NULL;

  /* The quad's corners come from gl_VertexID; a core context still wants a vertex array bound to draw. */
  glGenVertexArrays (1, &self->grid_vao);

  return g_steal_pointer (&self);
}

void
shepard_renderer_free (ShepardRenderer *self)
{
  if (self == NULL)
    return;

  /* glDelete* ignores the name 0, which a renderer that failed half-way still holds. */
  glDeleteProgram (self->grid_program);
  glDeleteVertexArrays (1, &self->grid_vao);
  _shepard_lines_layer_clear (&self->lines);
  _shepard_points_layer_clear (&self->points);
  /* CUDA must let go of the texture before GL deletes it. */
  g_clear_pointer (&self->cuda_texture, _shepard_cuda_gl_texture_free);
  glDeleteTextures (1, &self->grid_texture);
  glDeleteTextures (1, &self->backdrop_texture);
  glDeleteTextures (1, &self->mask_texture);
  g_free (self);
}

static gboolean
check_grid_size (ShepardRenderer *self, const shepard_grid *grid, GError **error)
{
  if (grid->width > (size_t) self->max_texture_size || grid->height > (size_t) self->max_texture_size)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_TOO_LARGE,
                   "The preview of %zu × %zu cells is larger than the %d × %d the graphics driver can show; "
                   "choose a coarser preview resolution.",
                   grid->width, grid->height, self->max_texture_size, self->max_texture_size);
      return FALSE;
    }
  return TRUE;
}

/* A texture of the grid's size, bound. A new size gets a new texture rather than new storage for the old one, so that
 * a CUDA registration never outlives the storage it was made for. */
static void
bind_texture_for (ShepardRenderer *self, const shepard_grid *grid)
{
  if (self->grid_texture != 0 && (self->texture_width != grid->width || self->texture_height != grid->height))
    {
      if (self->cuda_texture != NULL)
        _shepard_cuda_gl_texture_detach (self->cuda_texture);
      glDeleteTextures (1, &self->grid_texture);
      self->grid_texture = 0;
    }
  if (self->grid_texture != 0)
    {
      glBindTexture (GL_TEXTURE_2D, self->grid_texture);
      return;
    }
  self->grid_texture = _shepard_render_new_fetch_texture ();
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, (GLsizei) grid->width, (GLsizei) grid->height, 0, GL_RED, GL_FLOAT, NULL);
  self->texture_width = grid->width;
  self->texture_height = grid->height;
}

gboolean
shepard_renderer_set_grid (ShepardRenderer *self, const shepard_grid *grid, const float *values, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (grid != NULL && values != NULL, FALSE);
  g_return_val_if_fail (grid->width > 0 && grid->height > 0 && grid->dx > 0 && grid->dy > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_grid_size (self, grid, error))
    return FALSE;
  bind_texture_for (self, grid);
  _shepard_render_unpack_tightly ();
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) grid->width, (GLsizei) grid->height, GL_RED, GL_FLOAT, values);
  glBindTexture (GL_TEXTURE_2D, 0);

  self->grid = *grid;
  self->has_grid = TRUE;
  self->has_mask = FALSE;
  return TRUE;
}

gboolean
shepard_renderer_enable_cuda_interop (ShepardRenderer *self, int cuda_device, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->cuda_texture != NULL && _shepard_cuda_gl_texture_get_device (self->cuda_texture) == cuda_device)
    return TRUE;
  shepard_renderer_disable_cuda_interop (self);
  self->cuda_texture = _shepard_cuda_gl_texture_new (cuda_device, error);
  return self->cuda_texture != NULL;
}

void
shepard_renderer_disable_cuda_interop (ShepardRenderer *self)
{
  g_return_if_fail (self != NULL);

  g_clear_pointer (&self->cuda_texture, _shepard_cuda_gl_texture_free);
}

gboolean
shepard_renderer_has_cuda_interop (const ShepardRenderer *self)
{
  g_return_val_if_fail (self != NULL, FALSE);

  return self->cuda_texture != NULL;
}

gboolean
shepard_renderer_set_grid_from_device (ShepardRenderer *self, const shepard_grid *grid,
                                       const shepard_device_grid *device_grid, shepard_plane plane, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (grid != NULL && device_grid != NULL, FALSE);
  g_return_val_if_fail (grid->width > 0 && grid->height > 0 && grid->dx > 0 && grid->dy > 0, FALSE);
  g_return_val_if_fail (plane == SHEPARD_PLANE_VALUES || plane == SHEPARD_PLANE_ALPHA || plane == SHEPARD_PLANE_R_OBS,
                        FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->cuda_texture == NULL)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "CUDA-OpenGL interop is not enabled for this renderer.");
      return FALSE;
    }
  if (shepard_device_grid_device (device_grid) != _shepard_cuda_gl_texture_get_device (self->cuda_texture))
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "The grid is on CUDA device %d, the OpenGL context on device %d.",
                   shepard_device_grid_device (device_grid), _shepard_cuda_gl_texture_get_device (self->cuda_texture));
      return FALSE;
    }
  if (shepard_device_grid_width (device_grid) != grid->width
      || shepard_device_grid_height (device_grid) != grid->height)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_INTEROP,
                   "The device grid holds %zu × %zu cells, not the %zu × %zu to draw.",
                   shepard_device_grid_width (device_grid), shepard_device_grid_height (device_grid), grid->width,
                   grid->height);
      return FALSE;
    }
  if (!check_grid_size (self, grid, error))
    return FALSE;
  bind_texture_for (self, grid);
  glBindTexture (GL_TEXTURE_2D, 0);
  if (!_shepard_cuda_gl_texture_attach (self->cuda_texture, self->grid_texture, error)
      || !_shepard_cuda_gl_texture_copy (self->cuda_texture, shepard_device_grid_plane (device_grid, plane),
                                         grid->width, grid->height, error))
    return FALSE;

  self->grid = *grid;
  self->has_grid = TRUE;
  self->has_mask = FALSE;
  return TRUE;
}

void
shepard_renderer_set_grid_mask (ShepardRenderer *self, const guint8 *keep)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (keep == NULL || self->has_grid);

  self->has_mask = keep != NULL;
  if (keep == NULL)
    return;
  if (self->mask_texture == 0)
    self->mask_texture = _shepard_render_new_fetch_texture ();
  else
    glBindTexture (GL_TEXTURE_2D, self->mask_texture);
  _shepard_render_unpack_tightly ();
  /* Rows of bytes need not be 4-byte aligned. */
  glPixelStorei (GL_UNPACK_ALIGNMENT, 1);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R8, (GLsizei) self->grid.width, (GLsizei) self->grid.height, 0, GL_RED,
                GL_UNSIGNED_BYTE, keep);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glBindTexture (GL_TEXTURE_2D, 0);
}

void
shepard_renderer_clear_grid (ShepardRenderer *self)
{
  g_return_if_fail (self != NULL);

  self->has_grid = FALSE;
  self->has_mask = FALSE;
}

gboolean
shepard_renderer_set_backdrop (ShepardRenderer *self, const shepard_grid *grid, const float *values, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (grid != NULL && values != NULL, FALSE);
  g_return_val_if_fail (grid->width > 0 && grid->height > 0 && grid->dx > 0 && grid->dy > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!check_grid_size (self, grid, error))
    return FALSE;
  _shepard_render_upload_float_texture (&self->backdrop_texture, GL_R32F, GL_RED, grid->width, grid->height, values);
  self->backdrop_grid = *grid;
  self->has_backdrop = TRUE;
  return TRUE;
}

void
shepard_renderer_clear_backdrop (ShepardRenderer *self)
{
  g_return_if_fail (self != NULL);

  self->has_backdrop = FALSE;
}

guint
shepard_renderer_get_grid_texture (const ShepardRenderer *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->grid_texture;
}

gboolean
shepard_renderer_set_points (ShepardRenderer *self, const double *x, const double *y, const double *z,
                             size_t n_points, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_points == 0 || (x != NULL && y != NULL && z != NULL), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _shepard_points_layer_set_points (&self->points, self->max_texture_size, x, y, z, n_points, error);
}

gboolean
shepard_renderer_set_lines (ShepardRenderer *self, const double *x, const double *y, const size_t *strip_start,
                            size_t n_strips, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_strips == 0 || (x != NULL && y != NULL && strip_start != NULL), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _shepard_lines_layer_set_lines (&self->lines, self->max_texture_size, x, y, strip_start, n_strips, error);
}

gboolean
shepard_renderer_set_point_colors (ShepardRenderer *self, const double *values, size_t n_points,
                                   ShepardColorRamp ramp, double min, double max, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (values == NULL || shepard_color_ramp_is_valid (ramp), FALSE);
  g_return_val_if_fail (values == NULL || (isfinite (min) && isfinite (max) && max >= min), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return _shepard_points_layer_set_colors (&self->points, values, n_points, ramp, min, max, error);
}

void
shepard_renderer_set_highlight (ShepardRenderer *self, gssize point_index)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (point_index >= -1);

  self->points.highlight = point_index;
}

void
shepard_renderer_set_ramp (ShepardRenderer *self, ShepardColorRamp ramp)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (shepard_color_ramp_is_valid (ramp));

  self->ramp = ramp;
}

void
shepard_renderer_set_classes (ShepardRenderer *self, const double *breaks, guint n_classes)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (n_classes <= SHEPARD_RENDER_MAX_CLASSES);
  g_return_if_fail (n_classes == 0 || breaks != NULL);

  for (guint i = 0; n_classes > 0 && i <= n_classes; i++)
    self->breaks[i] = (GLfloat) breaks[i];
  self->n_classes = n_classes;
}

void
shepard_renderer_set_opacity (ShepardRenderer *self, double opacity)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (opacity >= 0 && opacity <= 1);

  self->opacity = opacity;
}

void
shepard_renderer_set_range (ShepardRenderer *self, double min, double max)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (isfinite (min) && isfinite (max) && max >= min);

  self->range_min = min;
  self->range_max = max;
}

void
shepard_renderer_set_hillshade (ShepardRenderer *self, gboolean enabled, double z_factor)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (isfinite (z_factor) && z_factor > 0);

  self->hillshade = enabled;
  self->z_factor = z_factor;
}

void
shepard_renderer_set_view (ShepardRenderer *self, const ShepardView *view)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (view != NULL);
  g_return_if_fail (view->units_per_pixel > 0 && view->width > 0 && view->height > 0 && view->scale >= 1);

  self->view = *view;
}

/* mask: the mask texture over grid's cells, or 0 for none. */
static void
draw_grid (ShepardRenderer *self, const shepard_grid *grid, GLuint texture, GLuint mask, double scale_x,
           double scale_y)
{
  const ShepardView *view = &self->view;
  double altitude = SHEPARD_RENDER_SUN_ALTITUDE * G_PI / 180;
  double azimuth = SHEPARD_RENDER_SUN_AZIMUTH * G_PI / 180;

  glUseProgram (self->grid_program);
  _shepard_render_upload_ramp (&self->grid_ramp, self->ramp, self->range_min, self->range_max);
  glUniform4f (self->grid_corners,
               (GLfloat) ((grid->x_min - view->center_x) * scale_x),
               (GLfloat) ((grid->y_max - view->center_y) * scale_y),
               (GLfloat) ((grid->x_min + (double) grid->width * grid->dx - view->center_x) * scale_x),
               (GLfloat) ((grid->y_max - (double) grid->height * grid->dy - view->center_y) * scale_y));
  glUniform2f (self->grid_size, (GLfloat) grid->width, (GLfloat) grid->height);
  glUniform1i (self->grid_sampler, 0);
  glUniform1i (self->grid_hillshade, self->hillshade);
  glUniform2f (self->grid_cell_size, (GLfloat) (grid->dx / self->z_factor), (GLfloat) (grid->dy / self->z_factor));
  glUniform3f (self->grid_sun, (GLfloat) (sin (azimuth) * cos (altitude)), (GLfloat) (cos (azimuth) * cos (altitude)),
               (GLfloat) sin (altitude));
  glUniform1f (self->grid_opacity, (GLfloat) self->opacity);
  glUniform1i (self->grid_n_classes, (GLint) self->n_classes);
  if (self->n_classes > 0)
    glUniform1fv (self->grid_breaks, (GLsizei) self->n_classes + 1, self->breaks);

  glUniform1i (self->grid_mask_sampler, 1);
  glUniform1i (self->grid_has_mask, mask != 0);

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, mask);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, texture);
  glBindVertexArray (self->grid_vao);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  glBindTexture (GL_TEXTURE_2D, 0);
  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, 0);
  glActiveTexture (GL_TEXTURE0);
}

/* The backdrop only where the grid is not, so that a translucent grid does not show it through: in the bands of the
 * framebuffer above, below, left and right of the grid's rectangle. The rectangle's edges round as the rasteriser
 * rounds the quad's (pixel centres), so that the bands meet the grid without a gap. */
static void
draw_backdrop (ShepardRenderer *self, double scale_x, double scale_y)
{
  const ShepardView *view = &self->view;
  int width = view->width, height = view->height;

  if (!self->has_grid)
    {
      draw_grid (self, &self->backdrop_grid, self->backdrop_texture, 0, scale_x, scale_y);
      return;
    }
  const shepard_grid *grid = &self->grid;
  /* Framebuffer pixels from the bottom-left corner, as glScissor takes them. */
  double left = ((grid->x_min - view->center_x) * scale_x + 1) * width / 2;
  double right = ((grid->x_min + (double) grid->width * grid->dx - view->center_x) * scale_x + 1) * width / 2;
  double bottom = ((grid->y_max - (double) grid->height * grid->dy - view->center_y) * scale_y + 1) * height / 2;
  double top = ((grid->y_max - view->center_y) * scale_y + 1) * height / 2;
  int x0 = (int) CLAMP (round (left), 0, width), x1 = (int) CLAMP (round (right), 0, width);
  int y0 = (int) CLAMP (round (bottom), 0, height), y1 = (int) CLAMP (round (top), 0, height);
  const int bands[4][4] = {
    { 0, y1, width, height - y1 }, /* above */
    { 0, 0, width, y0 },           /* below */
    { 0, y0, x0, y1 - y0 },        /* left */
    { x1, y0, width - x1, y1 - y0 }, /* right */
  };

  glEnable (GL_SCISSOR_TEST);
  for (int i = 0; i < 4; i++)
    if (bands[i][2] > 0 && bands[i][3] > 0)
      {
        glScissor (bands[i][0], bands[i][1], bands[i][2], bands[i][3]);
        draw_grid (self, &self->backdrop_grid, self->backdrop_texture, 0, scale_x, scale_y);
      }
  glDisable (GL_SCISSOR_TEST);
}

void
shepard_renderer_draw (ShepardRenderer *self)
{
  g_return_if_fail (self != NULL);

  const ShepardView *view = &self->view;
  /* Normalised device coordinates per map unit. */
  double scale_x = 2 * view->scale / (view->units_per_pixel * view->width);
  double scale_y = 2 * view->scale / (view->units_per_pixel * view->height);

  glViewport (0, 0, view->width, view->height);
  glDisable (GL_DEPTH_TEST);
  glDisable (GL_SCISSOR_TEST);
  glDisable (GL_CULL_FACE);
  glClearColor (0, 0, 0, 0);
  glClear (GL_COLOR_BUFFER_BIT);
  glEnable (GL_BLEND);
  glBlendFunc (GL_ONE, GL_ONE_MINUS_SRC_ALPHA);

  if (self->has_backdrop)
    draw_backdrop (self, scale_x, scale_y);
  if (self->has_grid)
    draw_grid (self, &self->grid, self->grid_texture, self->has_mask ? self->mask_texture : 0, scale_x, scale_y);
  if (self->lines.count > 0)
    _shepard_lines_layer_draw (&self->lines, view, scale_x, scale_y);
  if (self->points.count > 0)
    _shepard_points_layer_draw (&self->points, view, scale_x, scale_y, self->ramp, self->range_min, self->range_max);

  glBindVertexArray (0);
  glUseProgram (0);
  glDisable (GL_BLEND);
}
