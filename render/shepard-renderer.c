/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-render-private.h"

#include <epoxy/gl.h>
#include <math.h>

#include "cuda-gl-texture.h"

G_DEFINE_QUARK (shepard-render-error-quark, shepard_render_error)

/* Shared by both programs: the ramp lookup, the same search as shepard_color_ramp_evaluate(). The range is
 * (min, max); max <= min puts every value at the middle colour, as shepard_color_ramp_color_for_value() does. */
#define RAMP_GLSL                                                                                     \
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
  "uniform int u_hillshade;\n"
  "uniform vec2 u_cell_size; /* dx, dy divided by the z factor */\n"
  "uniform vec3 u_sun;       /* unit vector towards the sun: east, north, up */\n"
  "in vec2 v_cell;\n"
  "out vec4 frag_color;\n"
  RAMP_GLSL
  "bool nodata (float z)\n"
  "{\n"
  "  return isnan (z) || isinf (z);\n"
  "}\n"
  "float neighbour (ivec2 cell, ivec2 size, float centre)\n"
  "{\n"
  "  float z = texelFetch (u_grid, clamp (cell, ivec2 (0), size - 1), 0).r;\n"
  "  return nodata (z) ? centre : z;\n"
  "}\n"
  "void main ()\n"
  "{\n"
  "  ivec2 size = textureSize (u_grid, 0);\n"
  "  ivec2 cell = clamp (ivec2 (floor (v_cell)), ivec2 (0), size - 1);\n"
  "  float z = texelFetch (u_grid, cell, 0).r;\n"
  "  if (nodata (z))\n"
  "    discard;\n"
  "  vec3 rgb = ramp (z);\n"
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
  "  frag_color = vec4 (rgb, 1.0);\n"
  "}\n";

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
  "void main ()\n"
  "{\n"
  "  int columns = textureSize (u_points, 0).x;\n"
  "  int index = u_first + gl_InstanceID;\n"
  "  ivec2 texel = ivec2 (index % columns, index / columns);\n"
  "  vec4 point = texelFetch (u_points, texel, 0);\n"
  "  float value = u_own_values != 0 ? texelFetch (u_values, texel, 0).r : point.z;\n"
  "  vec2 corner = vec2 (float (gl_VertexID & 1), float (gl_VertexID >> 1)) * 2.0 - 1.0;\n"
  "  v_offset = corner * u_half;\n"
  "  v_has_value = isnan (value) || isinf (value) ? 0 : 1;\n"
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
  RAMP_GLSL
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

typedef struct {
  GLint stops, n_stops, range;
} RampUniforms;

struct _ShepardRenderer {
  GLint max_texture_size;

  GLuint grid_program;
  RampUniforms grid_ramp;
  GLint grid_corners, grid_size, grid_sampler, grid_hillshade, grid_cell_size, grid_sun;
  GLuint grid_vao;
  GLuint grid_texture;
  size_t texture_width, texture_height;
  shepard_grid grid;
  gboolean has_grid;
  ShepardCudaGlTexture *cuda_texture; /* NULL unless CUDA-OpenGL interop is enabled */

  GLuint points_program;
  RampUniforms points_ramp;
  GLint points_sampler, points_values_sampler, points_own_values, points_first, points_origin, points_scale,
    points_viewport, points_half, points_radius, points_outline, points_ring;
  GLuint points_vao;
  GLuint points_texture;        /* RGBA32F, one texel per point, filled row by row */
  GLuint points_values_texture; /* R32F, the points' own colour values in the same layout */
  size_t n_points, points_columns, points_rows;
  double points_origin_x, points_origin_y;
  gboolean own_colors; /* the dots show points_values_texture through own_ramp, not z through the grid's */
  ShepardColorRamp own_ramp;
  double own_min, own_max;
  gssize highlight;

  ShepardColorRamp ramp;
  double range_min, range_max;
  gboolean hillshade;
  double z_factor;
  ShepardView view;
};

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

static void
get_ramp_uniforms (GLuint program, RampUniforms *uniforms)
{
  uniforms->stops = glGetUniformLocation (program, "u_stops");
  uniforms->n_stops = glGetUniformLocation (program, "u_n_stops");
  uniforms->range = glGetUniformLocation (program, "u_range");
}

static void
upload_ramp (const RampUniforms *uniforms, ShepardColorRamp ramp, double min, double max)
{
  guint n_stops;
  const ShepardRampStop *stops = _shepard_color_ramp_get_stops (ramp, &n_stops);

  G_STATIC_ASSERT (sizeof (ShepardRampStop) == 4 * sizeof (GLfloat));
  glUniform4fv (uniforms->stops, (GLsizei) n_stops, (const GLfloat *) stops);
  glUniform1i (uniforms->n_stops, (GLint) n_stops);
  glUniform2f (uniforms->range, (GLfloat) min, (GLfloat) max);
}

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
  self->highlight = -1;
  self->view = (ShepardView) { .units_per_pixel = 1, .width = 1, .height = 1, .scale = 1 };
  glGetIntegerv (GL_MAX_TEXTURE_SIZE, &self->max_texture_size);

  self->grid_program = _shepard_render_compile_program (grid_vertex_body, grid_fragment_body, error);
  if (self->grid_program == 0)
    return NULL;
  get_ramp_uniforms (self->grid_program, &self->grid_ramp);
  self->grid_corners = glGetUniformLocation (self->grid_program, "u_corners");
  self->grid_size = glGetUniformLocation (self->grid_program, "u_size");
  self->grid_sampler = glGetUniformLocation (self->grid_program, "u_grid");
  self->grid_hillshade = glGetUniformLocation (self->grid_program, "u_hillshade");
  self->grid_cell_size = glGetUniformLocation (self->grid_program, "u_cell_size");
  self->grid_sun = glGetUniformLocation (self->grid_program, "u_sun");

  self->points_program = _shepard_render_compile_program (points_vertex_body, points_fragment_body, error);
  if (self->points_program == 0)
    return NULL;
  get_ramp_uniforms (self->points_program, &self->points_ramp);
  self->points_sampler = glGetUniformLocation (self->points_program, "u_points");
  self->points_values_sampler = glGetUniformLocation (self->points_program, "u_values");
  self->points_own_values = glGetUniformLocation (self->points_program, "u_own_values");
  self->points_first = glGetUniformLocation (self->points_program, "u_first");
  self->points_origin = glGetUniformLocation (self->points_program, "u_origin");
  self->points_scale = glGetUniformLocation (self->points_program, "u_scale");
  self->points_viewport = glGetUniformLocation (self->points_program, "u_viewport");
  self->points_half = glGetUniformLocation (self->points_program, "u_half");
  self->points_radius = glGetUniformLocation (self->points_program, "u_radius");
  self->points_outline = glGetUniformLocation (self->points_program, "u_outline");
  self->points_ring = glGetUniformLocation (self->points_program, "u_ring");

  /* Both programs take their vertices from gl_VertexID and gl_InstanceID; a core context still wants a vertex array
   * bound to draw. */
  glGenVertexArrays (1, &self->grid_vao);
  glGenVertexArrays (1, &self->points_vao);

  return g_steal_pointer (&self);
}

void
shepard_renderer_free (ShepardRenderer *self)
{
  if (self == NULL)
    return;

  /* glDelete* ignores the name 0, which a renderer that failed half-way still holds. */
  glDeleteProgram (self->grid_program);
  glDeleteProgram (self->points_program);
  glDeleteVertexArrays (1, &self->grid_vao);
  glDeleteVertexArrays (1, &self->points_vao);
  glDeleteTextures (1, &self->points_texture);
  glDeleteTextures (1, &self->points_values_texture);
  /* CUDA must let go of the texture before GL deletes it. */
  g_clear_pointer (&self->cuda_texture, _shepard_cuda_gl_texture_free);
  glDeleteTextures (1, &self->grid_texture);
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
  glGenTextures (1, &self->grid_texture);
  glBindTexture (GL_TEXTURE_2D, self->grid_texture);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, (GLsizei) grid->width, (GLsizei) grid->height, 0, GL_RED, GL_FLOAT, NULL);
  /* One level and no filtering: texelFetch reads it, and an incomplete mipmap chain would read as black. */
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
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
  /* Rows are tightly packed float32, whatever unpacking state the caller left. */
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei (GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei (GL_UNPACK_SKIP_PIXELS, 0);
  glTexSubImage2D (GL_TEXTURE_2D, 0, 0, 0, (GLsizei) grid->width, (GLsizei) grid->height, GL_RED, GL_FLOAT, values);
  glBindTexture (GL_TEXTURE_2D, 0);

  self->grid = *grid;
  self->has_grid = TRUE;
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
  return TRUE;
}

void
shepard_renderer_clear_grid (ShepardRenderer *self)
{
  g_return_if_fail (self != NULL);

  self->has_grid = FALSE;
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

  size_t max_side = (size_t) self->max_texture_size;
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
  self->points_origin_x = n_points > 0 ? (x_min + x_max) / 2 : 0;
  self->points_origin_y = n_points > 0 ? (y_min + y_max) / 2 : 0;

  /* The last row is padded; only n_points instances are drawn. */
  g_autofree GLfloat *texels = g_new0 (GLfloat, 4 * columns * rows);

  for (size_t i = 0; i < n_points; i++)
    {
      texels[4 * i] = (GLfloat) (x[i] - self->points_origin_x);
      texels[4 * i + 1] = (GLfloat) (y[i] - self->points_origin_y);
      texels[4 * i + 2] = (GLfloat) z[i];
    }
  if (self->points_texture == 0)
    {
      glGenTextures (1, &self->points_texture);
      glBindTexture (GL_TEXTURE_2D, self->points_texture);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    }
  else
    glBindTexture (GL_TEXTURE_2D, self->points_texture);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei (GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei (GL_UNPACK_SKIP_PIXELS, 0);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_RGBA32F, (GLsizei) columns, (GLsizei) rows, 0, GL_RGBA, GL_FLOAT, texels);
  glBindTexture (GL_TEXTURE_2D, 0);
  self->n_points = n_points;
  self->points_columns = columns;
  self->points_rows = rows;
  /* Colours of the points before would now fall on other points. */
  self->own_colors = FALSE;
  return TRUE;
}

gboolean
shepard_renderer_set_point_colors (ShepardRenderer *self, const double *values, size_t n_points,
                                   ShepardColorRamp ramp, double min, double max, GError **error)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (values == NULL || ((int) ramp >= 0 && (int) ramp < SHEPARD_COLOR_RAMP_COUNT), FALSE);
  g_return_val_if_fail (values == NULL || (isfinite (min) && isfinite (max) && max >= min), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (values == NULL)
    {
      self->own_colors = FALSE;
      return TRUE;
    }
  if (n_points != self->n_points)
    {
      g_set_error (error, SHEPARD_RENDER_ERROR, SHEPARD_RENDER_ERROR_MISMATCH,
                   "The map has %zu points to colour, and %zu values were given for them.", self->n_points,
                   n_points);
      return FALSE;
    }

  /* Before any set_points there is no layout yet: one texel, as set_points makes for no points. */
  size_t columns = MAX (self->points_columns, 1), rows = MAX (self->points_rows, 1);
  g_autofree GLfloat *texels = g_new0 (GLfloat, columns * rows);

  for (size_t i = 0; i < n_points; i++)
    texels[i] = (GLfloat) values[i];
  if (self->points_values_texture == 0)
    {
      glGenTextures (1, &self->points_values_texture);
      glBindTexture (GL_TEXTURE_2D, self->points_values_texture);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
      glTexParameteri (GL_TEXTURE_2D, GL_TEXTURE_MAX_LEVEL, 0);
    }
  else
    glBindTexture (GL_TEXTURE_2D, self->points_values_texture);
  glPixelStorei (GL_UNPACK_ALIGNMENT, 4);
  glPixelStorei (GL_UNPACK_ROW_LENGTH, 0);
  glPixelStorei (GL_UNPACK_SKIP_ROWS, 0);
  glPixelStorei (GL_UNPACK_SKIP_PIXELS, 0);
  glTexImage2D (GL_TEXTURE_2D, 0, GL_R32F, (GLsizei) columns, (GLsizei) rows, 0, GL_RED, GL_FLOAT, texels);
  glBindTexture (GL_TEXTURE_2D, 0);
  self->own_colors = TRUE;
  self->own_ramp = ramp;
  self->own_min = min;
  self->own_max = max;
  return TRUE;
}

void
shepard_renderer_set_highlight (ShepardRenderer *self, gssize point_index)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (point_index >= -1);

  self->highlight = point_index;
}

void
shepard_renderer_set_ramp (ShepardRenderer *self, ShepardColorRamp ramp)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail ((int) ramp >= 0 && (int) ramp < SHEPARD_COLOR_RAMP_COUNT);

  self->ramp = ramp;
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

static void
draw_grid (ShepardRenderer *self, double scale_x, double scale_y)
{
  const shepard_grid *grid = &self->grid;
  const ShepardView *view = &self->view;
  double altitude = SHEPARD_RENDER_SUN_ALTITUDE * G_PI / 180;
  double azimuth = SHEPARD_RENDER_SUN_AZIMUTH * G_PI / 180;

  glUseProgram (self->grid_program);
  upload_ramp (&self->grid_ramp, self->ramp, self->range_min, self->range_max);
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

  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, self->grid_texture);
  glBindVertexArray (self->grid_vao);
  glDrawArrays (GL_TRIANGLE_STRIP, 0, 4);
  glBindTexture (GL_TEXTURE_2D, 0);
}

static void
draw_points (ShepardRenderer *self, double scale_x, double scale_y)
{
  const ShepardView *view = &self->view;
  double radius = SHEPARD_RENDER_POINT_RADIUS * view->scale;
  double highlight_radius = SHEPARD_RENDER_HIGHLIGHT_RADIUS * view->scale;

  glUseProgram (self->points_program);
  if (self->own_colors)
    upload_ramp (&self->points_ramp, self->own_ramp, self->own_min, self->own_max);
  else
    upload_ramp (&self->points_ramp, self->ramp, self->range_min, self->range_max);
  glUniform1i (self->points_sampler, 0);
  glUniform1i (self->points_values_sampler, 1);
  glUniform1i (self->points_own_values, self->own_colors);
  glUniform1i (self->points_first, 0);
  glUniform2f (self->points_origin, (GLfloat) ((self->points_origin_x - view->center_x) * scale_x),
               (GLfloat) ((self->points_origin_y - view->center_y) * scale_y));
  glUniform2f (self->points_scale, (GLfloat) scale_x, (GLfloat) scale_y);
  glUniform2f (self->points_viewport, (GLfloat) view->width, (GLfloat) view->height);
  glUniform1f (self->points_half, (GLfloat) (radius + 1));
  glUniform1f (self->points_radius, (GLfloat) radius);
  glUniform1f (self->points_outline, (GLfloat) (SHEPARD_RENDER_POINT_OUTLINE * view->scale));
  glUniform1f (self->points_ring, 0);

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, self->own_colors ? self->points_values_texture : 0);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, self->points_texture);
  glBindVertexArray (self->points_vao);
  glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, (GLsizei) self->n_points);

  /* Drawn once more, last, so that no neighbour covers it. */
  if (self->highlight >= 0 && (size_t) self->highlight < self->n_points)
    {
      glUniform1i (self->points_first, (GLint) self->highlight);
      glUniform1f (self->points_half, (GLfloat) (highlight_radius + 1));
      glUniform1f (self->points_radius, (GLfloat) highlight_radius);
      glUniform1f (self->points_ring, (GLfloat) (SHEPARD_RENDER_HIGHLIGHT_RING * view->scale));
      glDrawArraysInstanced (GL_TRIANGLE_STRIP, 0, 4, 1);
    }

  glActiveTexture (GL_TEXTURE1);
  glBindTexture (GL_TEXTURE_2D, 0);
  glActiveTexture (GL_TEXTURE0);
  glBindTexture (GL_TEXTURE_2D, 0);
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

  if (self->has_grid)
    draw_grid (self, scale_x, scale_y);
  if (self->n_points > 0)
    draw_points (self, scale_x, scale_y);

  glBindVertexArray (0);
  glUseProgram (0);
  glDisable (GL_BLEND);
}
