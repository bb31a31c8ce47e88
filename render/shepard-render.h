/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* OpenGL drawing of an interpolated grid and its data points. Knows nothing of GTK: every ShepardRenderer function
 * that touches GL must be called with the context the renderer was created in current (GtkGLArea: in realize,
 * render and unrealize). Works on desktop OpenGL 3.2 core or newer (GLSL 1.50: the oldest context GTK 4.8 hands out,
 * and the version the NVIDIA driver reports when GTK asks for it) and on OpenGL ES 3.0 or newer. */

#define SHEPARD_RENDER_ERROR (shepard_render_error_quark ())

typedef enum {
  SHEPARD_RENDER_ERROR_UNSUPPORTED, /* the GL context is older than GL 3.2 / GLES 3.0 */
  SHEPARD_RENDER_ERROR_SHADER,      /* a shader failed to compile or link; the message holds the driver's log */
  SHEPARD_RENDER_ERROR_TOO_LARGE,   /* the grid (or the points) exceed the largest texture the driver takes */
  SHEPARD_RENDER_ERROR_INTEROP,     /* CUDA-OpenGL interop is not possible or failed; the message says why */
  SHEPARD_RENDER_ERROR_MISMATCH,    /* values that do not match what they describe (a count other than the points') */
} ShepardRenderError;

GQuark shepard_render_error_quark (void);

typedef enum {
  SHEPARD_COLOR_RAMP_VIRIDIS,
  SHEPARD_COLOR_RAMP_TERRAIN,
  SHEPARD_COLOR_RAMP_GRAYSCALE,
  SHEPARD_COLOR_RAMP_DIVERGING, /* blue, white at the middle, red: residuals and differences over a range about 0 */
  SHEPARD_COLOR_RAMP_PLASMA,    /* a sequential ramp unlike viridis, for the adaptive power alpha and R */
  SHEPARD_COLOR_RAMP_MAGMA,
  SHEPARD_COLOR_RAMP_INFERNO,
  SHEPARD_COLOR_RAMP_CIVIDIS,   /* readable with red-green colour blindness */
  SHEPARD_COLOR_RAMP_BROWN_TEAL, /* a second diverging ramp (ColorBrewer BrBG), white at the middle */
} ShepardColorRamp;

/* New ramps go at the end: stored settings hold the number. */
#define SHEPARD_COLOR_RAMP_COUNT 9

/* Or-ed into any ramp, reads it from its end to its start: every function taking a ShepardColorRamp takes it, so a
 * reversed ramp travels wherever a ramp does (grid, dots, legend). */
#define SHEPARD_COLOR_RAMP_REVERSED 0x100

/* A ramp of the list, reversed or not. */
gboolean shepard_color_ramp_is_valid (ShepardColorRamp ramp);

/* "viridis", "terrain", "grayscale", "diverging", "plasma", "magma", "inferno", "cividis", "brown-teal": the names
 * GSettings and the command line use (a reversed ramp has its ramp's name). */
const char *shepard_color_ramp_to_string (ShepardColorRamp ramp);
gboolean shepard_color_ramp_from_string (const char *name, ShepardColorRamp *ramp);

/* The colour at position t of the ramp (t clamped to [0, 1]), each channel in [0, 1]. The fragment shader
 * interpolates the very same control points linearly, so a drawn cell and this function agree. */
void shepard_color_ramp_evaluate (ShepardColorRamp ramp, double t, float rgb[3]);

/* The colour of a value over the range [min, max] (values outside take the end colours; min == max maps
 * everything to the middle colour). Returns FALSE, leaving rgb alone, for a non-finite value: nodata is drawn
 * transparent. */
gboolean shepard_color_ramp_color_for_value (ShepardColorRamp ramp, double value, double min, double max,
                                             float rgb[3]);

/* Classes: n_classes (>= 1) classes bounded by n_classes + 1 rising breaks. A value takes the class of the last
 * lower break it reaches (below breaks[0]: class 0; from breaks[n_classes - 1] up: the last class). */
#define SHEPARD_RENDER_MAX_CLASSES 12
guint shepard_color_classes_find (const double *breaks, guint n_classes, double value);

/* The colour of a value drawn in classes: class i takes the ramp's colour at (i + 0.5) / n_classes, whatever the
 * breaks' spacing (quantile classes are as distinct as equal ones). FALSE for a non-finite value, as above. */
gboolean shepard_color_ramp_color_for_class (ShepardColorRamp ramp, double value, const double *breaks,
                                             guint n_classes, float rgb[3]);

/* Where the map is on the screen. */
typedef struct {
  double center_x, center_y; /* the map position at the middle of the viewport, in map units */
  double units_per_pixel;    /* zoom: map units per logical pixel (> 0) */
  int width, height;         /* the framebuffer in device pixels (GtkGLArea's resize size) */
  double scale;              /* device pixels per logical pixel (the widget's scale factor, >= 1) */
} ShepardView;

/* Conversions between map units and logical pixels measured from the viewport's top-left corner (what pointer
 * events give), for hover read-outs and zooming around the cursor. */
void shepard_view_map_to_pixel (const ShepardView *view, double x, double y, double *px, double *py);
void shepard_view_pixel_to_map (const ShepardView *view, double px, double py, double *x, double *y);

/* Centres the view on [x_min, x_max] x [y_min, y_max] and zooms so that it fits inside the viewport with margin
 * logical pixels left free on every side; width, height and scale must already be set. */
void shepard_view_fit (ShepardView *view, double x_min, double y_min, double x_max, double y_max, double margin);

/* Data point dots, in logical pixels. The highlighted dot is larger, with a white ring inside its outline. */
#define SHEPARD_RENDER_POINT_RADIUS 5.0
#define SHEPARD_RENDER_POINT_OUTLINE 1.5
#define SHEPARD_RENDER_HIGHLIGHT_RADIUS 9.0
#define SHEPARD_RENDER_HIGHLIGHT_RING 2.5

/* Context lines, in logical pixels: a dark line inside a light halo. */
#define SHEPARD_RENDER_LINE_WIDTH 2.0
#define SHEPARD_RENDER_LINE_HALO_WIDTH 5.0

/* The hillshade's sun: azimuth clockwise from north and altitude above the horizon, in degrees. */
#define SHEPARD_RENDER_SUN_AZIMUTH 315.0
#define SHEPARD_RENDER_SUN_ALTITUDE 45.0

typedef struct _ShepardRenderer ShepardRenderer;

/* Creates the shaders and buffers in the current GL context. */
ShepardRenderer *shepard_renderer_new (GError **error);

/* Deletes the GL objects; the renderer's context must be current. NULL is allowed. */
void shepard_renderer_free (ShepardRenderer *renderer);

/* The grid to draw: grid->width x grid->height float32 values in host memory, row-major, row 0 at the top (north),
 * NaN (or any non-finite value) for nodata, uploaded with glTexSubImage2D. The texture is kept while the size stays
 * and only reallocated when it changes. Fails with SHEPARD_RENDER_ERROR_TOO_LARGE beyond the driver's texture size. */
gboolean shepard_renderer_set_grid (ShepardRenderer *renderer, const shepard_grid *grid, const float *values,
                                    GError **error);

/* CUDA-OpenGL interop: a grid the engine keeps on the GPU (shepard_engine_interpolate_grid_to_device) is copied into
 * the grid texture on the device, never through host memory. Enabling checks that the current GL context runs on
 * CUDA device cuda_device; when it does not (another GPU, a software renderer, no CUDA driver, a build without CUDA)
 * it fails with SHEPARD_RENDER_ERROR_INTEROP and the reason, and the renderer keeps uploading. */
gboolean shepard_renderer_enable_cuda_interop (ShepardRenderer *renderer, int cuda_device, GError **error);
void shepard_renderer_disable_cuda_interop (ShepardRenderer *renderer);
gboolean shepard_renderer_has_cuda_interop (const ShepardRenderer *renderer);
/* The CUDA device the current GL context runs on, which drives the display: interop works with that device alone. -1
 * where the context runs on none (a software renderer, another vendor's GPU, no CUDA driver, a build without CUDA). */
int shepard_render_gl_cuda_device (void);

/* As set_grid, from one plane of a device grid (its values, alpha or r_obs): the texture is registered with CUDA once
 * per texture size, then each call maps it, copies the plane in on the device and unmaps it; the copy is complete
 * when the call returns, so the caller may reuse the device grid at once. Needs interop enabled and the grid on the
 * same device. */
gboolean shepard_renderer_set_grid_from_device (ShepardRenderer *renderer, const shepard_grid *grid,
                                                const shepard_device_grid *device_grid, shepard_plane plane,
                                                GError **error);

/* Takes cells of the grid away (a mask: outside a distance of the points, their hull or a cutline), whichever path
 * brought the grid (host memory or the GPU): keep holds grid->width x grid->height bytes of the last set_grid or
 * set_grid_from_device, row 0 at the top, 0 where the cell is not drawn; NULL draws every cell. Each set_grid and
 * set_grid_from_device drops the mask: set it after them. The backdrop takes no mask (give it NaN cells). */
void shepard_renderer_set_grid_mask (ShepardRenderer *renderer, const guint8 *keep);

/* Stops drawing a grid (a new layer with no result yet). */
void shepard_renderer_clear_grid (ShepardRenderer *renderer);

/* A second grid, as set_grid takes it, drawn with the same ramp, range, classes and hillshade wherever the grid is not:
 * a surface of a wider extent kept around a zoomed view's grid, so that the view never shows an empty border while
 * the grid of a new view is computed. */
gboolean shepard_renderer_set_backdrop (ShepardRenderer *renderer, const shepard_grid *grid, const float *values,
                                        GError **error);
void shepard_renderer_clear_backdrop (ShepardRenderer *renderer);

/* The GL_R32F texture holding the grid (0 before set_grid), in the layout of set_grid's values: texel (col, row).
 * A new name after a size change. */
guint shepard_renderer_get_grid_texture (const ShepardRenderer *renderer);

/* The data points, drawn as dots coloured by z over the same ramp and range as the grid (a non-finite z: a hollow
 * grey dot). The arrays are copied into a float texture, one texel per point; n_points may be 0. Colours given with
 * set_point_colors are dropped: the dots go back to z. Fails with SHEPARD_RENDER_ERROR_TOO_LARGE, keeping the points
 * drawn before, when they need a texture larger than the driver's largest (its side squared points). */
gboolean shepard_renderer_set_points (ShepardRenderer *renderer, const double *x, const double *y, const double *z,
                                      size_t n_points, GError **error);

/* Context lines (a river, a boundary), drawn over the grid and under the dots: strip i joins the vertices
 * strip_start[i] .. strip_start[i + 1] - 1 of x and y (in map units) in order; strip_start holds n_strips + 1
 * entries. The segments are copied into a float texture; n_strips 0 removes the lines. Fails with
 * SHEPARD_RENDER_ERROR_TOO_LARGE, keeping the lines drawn before, beyond the driver's largest texture (its side
 * squared segments). */
gboolean shepard_renderer_set_lines (ShepardRenderer *renderer, const double *x, const double *y,
                                     const size_t *strip_start, size_t n_strips, GError **error);

/* Colours the dots by values of their own (a residual, say), one per point in the order of set_points, through ramp
 * over [min, max] (finite, max >= min) rather than z through the grid's ramp and range; a non-finite value is drawn
 * as a hollow grey dot. values NULL goes back to z (ramp, min and max are then ignored). Fails with
 * SHEPARD_RENDER_ERROR_MISMATCH, keeping the colours drawn before, unless n_points is the points' count. */
gboolean shepard_renderer_set_point_colors (ShepardRenderer *renderer, const double *values, size_t n_points,
                                            ShepardColorRamp ramp, double min, double max, GError **error);

/* Draws the dot of this point (an index into set_points' arrays) larger and ringed, on top of the others, so that it
 * can be found; -1 for none. Kept when the points change, and not drawn while the index is beyond their count. */
void shepard_renderer_set_highlight (ShepardRenderer *renderer, gssize point_index);

void shepard_renderer_set_ramp (ShepardRenderer *renderer, ShepardColorRamp ramp);

/* The values mapped to the two ends of the ramp (finite, max >= min). */
void shepard_renderer_set_range (ShepardRenderer *renderer, double min, double max);

/* Draws the grid in classes (shepard_color_ramp_color_for_class) rather than continuously: breaks holds n_classes + 1
 * rising values, n_classes at most SHEPARD_RENDER_MAX_CLASSES; n_classes 0 (breaks NULL) goes back to continuous. The
 * dots stay continuous: they show each sample's own value. */
void shepard_renderer_set_classes (ShepardRenderer *renderer, const double *breaks, guint n_classes);

/* The grid's opacity in [0, 1] (1 by default): the dots stay opaque on top of it. */
void shepard_renderer_set_opacity (ShepardRenderer *renderer, double opacity);

/* Shades the grid as lit by a sun at SHEPARD_RENDER_SUN_AZIMUTH / _ALTITUDE, with slopes from the neighbouring
 * cells over the grid's cell size. z_factor converts the values into map units (1 when both are metres; raise it to
 * exaggerate the relief). */
void shepard_renderer_set_hillshade (ShepardRenderer *renderer, gboolean enabled, double z_factor);

void shepard_renderer_set_view (ShepardRenderer *renderer, const ShepardView *view);

/* Draws into the bound framebuffer: sets the viewport to the view's size, clears to transparent and writes
 * premultiplied colour (a GtkGLArea with has-alpha lets the widget background show through nodata). */
void shepard_renderer_draw (ShepardRenderer *renderer);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardRenderer, shepard_renderer_free)

G_END_DECLS
