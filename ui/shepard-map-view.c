/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-map-view-private.h"

#include <epoxy/gl.h>
#include <math.h>
#include <string.h>

G_DEFINE_FINAL_TYPE (ShepardMapView, shepard_map_view, GTK_TYPE_GL_AREA)

enum {
  PROP_0,
  PROP_INTEROP,
  N_PROPS
};

guint _shepard_map_view_signals[N_SIGNALS];
static GParamSpec *properties[N_PROPS];

#define FIT_MARGIN 24.0

GtkWidget *
shepard_map_view_new (void)
{
  return g_object_new (SHEPARD_TYPE_MAP_VIEW, NULL);
}

void
_shepard_map_view_view_changed (ShepardMapView *self)
{
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_VIEW_CHANGED], 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
apply_fit (ShepardMapView *self)
{
  if (!self->has_bounds || self->view.width <= 0 || self->view.height <= 0)
    {
      self->fit_pending = TRUE;
      return;
    }
  shepard_view_fit (&self->view, self->bounds[0], self->bounds[1], self->bounds[2], self->bounds[3], FIT_MARGIN);
  self->fit_pending = FALSE;
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_VIEW_CHANGED], 0);
}

static void
update_view_size (ShepardMapView *self)
{
  int scale = gtk_widget_get_scale_factor (GTK_WIDGET (self));

  self->view.scale = MAX (scale, 1);
  self->view.width = gtk_widget_get_width (GTK_WIDGET (self)) * self->view.scale;
  self->view.height = gtk_widget_get_height (GTK_WIDGET (self)) * self->view.scale;
}

static gboolean
notify_interop (gpointer data)
{
  ShepardMapView *self = data;

  self->interop_notify_idle = 0;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTEROP]);
  return G_SOURCE_REMOVE;
}

/* during_render: called while GTK draws the frame, when handlers must not change other widgets (a relabelled status
 * bar would be laid out in the middle of the snapshot): the notification waits for the main loop. It is sent on
 * every attempt, as the reason may change while the outcome does not. */
void
_shepard_map_view_set_interop (ShepardMapView *self, gboolean interop, const char *failure, gboolean during_render)
{
  if (failure != NULL)
    g_message ("CUDA-OpenGL interop is off, so the preview goes through host memory: %s", failure);
  g_free (self->interop_failure);
  self->interop_failure = g_strdup (failure);
  self->interop = interop;
  if (during_render)
    {
      if (self->interop_notify_idle == 0)
        self->interop_notify_idle = g_idle_add (notify_interop, self);
      return;
    }
  g_clear_handle_id (&self->interop_notify_idle, g_source_remove);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_INTEROP]);
}

/* Needs the GL context current. */
static void
try_interop (ShepardMapView *self)
{
  g_autoptr (GError) error = NULL;

  if (self->renderer == NULL)
    return;
  if (self->cuda_device < 0)
    {
      shepard_renderer_disable_cuda_interop (self->renderer);
      if (self->interop || self->interop_failure != NULL)
        _shepard_map_view_set_interop (self, FALSE, NULL, FALSE);
      return;
    }
  if (shepard_renderer_enable_cuda_interop (self->renderer, self->cuda_device, &error))
    _shepard_map_view_set_interop (self, TRUE, NULL, FALSE);
  else
    _shepard_map_view_set_interop (self, FALSE, error->message, FALSE);
}

static void
shepard_map_view_realize (GtkWidget *widget)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (widget);
  GError *error = NULL;

  GTK_WIDGET_CLASS (shepard_map_view_parent_class)->realize (widget);
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  if (gtk_gl_area_get_error (GTK_GL_AREA (self)) != NULL)
    return;
  self->renderer = shepard_renderer_new (&error);
  if (self->renderer == NULL)
    {
      gtk_gl_area_set_error (GTK_GL_AREA (self), error);
      g_error_free (error);
      return;
    }
  self->surface_dirty = TRUE;
  self->points_dirty = TRUE;
  self->context_dirty = TRUE;
  try_interop (self);
}

static void
shepard_map_view_unrealize (GtkWidget *widget)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (widget);

  gtk_gl_area_make_current (GTK_GL_AREA (self));
  /* Unregisters the texture from CUDA before deleting it. */
  g_clear_pointer (&self->renderer, shepard_renderer_free);
  GTK_WIDGET_CLASS (shepard_map_view_parent_class)->unrealize (widget);
}

static void
shepard_map_view_resize (GtkGLArea *area, int width, int height)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (area);

  update_view_size (self);
  /* GtkGLArea gives the framebuffer size in device pixels. */
  self->view.width = width;
  self->view.height = height;
  if (self->fit_pending)
    apply_fit (self);
  else
    g_signal_emit (self, _shepard_map_view_signals[SIGNAL_VIEW_CHANGED], 0);
}

static gboolean
shepard_map_view_render (GtkGLArea *area, GdkGLContext *context)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (area);

  if (self->renderer == NULL || gtk_gl_area_get_error (area) != NULL)
    return TRUE;
  if (self->surface_dirty)
    {
      GError *error = NULL;
      if (!_shepard_map_view_upload_surface (self, &error))
        {
          gtk_gl_area_set_error (area, error);
          g_error_free (error);
          return TRUE;
        }
      self->surface_dirty = FALSE;
    }
  if (self->backdrop_dirty)
    {
      _shepard_map_view_upload_backdrop (self);
      self->backdrop_dirty = FALSE;
    }
  if (self->points_dirty)
    {
      GError *error = NULL;
      if (!shepard_renderer_set_points (self->renderer, (double *) self->point_x->data,
                                        (double *) self->point_y->data, (double *) self->point_z->data,
                                        self->point_x->len, &error))
        {
          gtk_gl_area_set_error (area, error);
          g_error_free (error);
          return TRUE;
        }
      self->points_dirty = FALSE;
      self->point_colors_dirty = TRUE;
    }
  if (self->context_dirty)
    {
      g_autoptr (GError) error = NULL;
      size_t n_strips = self->context_strip_start->len > 0 ? self->context_strip_start->len - 1 : 0;
      /* Beyond the driver's largest texture the backdrop is left out; the surface and the points still show. */
      if (!shepard_renderer_set_lines (self->renderer, (double *) self->context_x->data,
                                       (double *) self->context_y->data, (size_t *) self->context_strip_start->data,
                                       n_strips, &error))
        g_message ("Context layers not drawn: %s", error->message);
      self->context_dirty = FALSE;
    }
  if (self->point_colors_dirty)
    {
      GError *error = NULL;
      gboolean own = self->point_colors->len > 0 && self->point_colors->len == self->point_x->len;
      if (!shepard_renderer_set_point_colors (self->renderer, own ? (double *) self->point_colors->data : NULL,
                                              self->point_x->len, self->point_ramp, self->point_min,
                                              self->point_max, &error))
        {
          gtk_gl_area_set_error (area, error);
          g_error_free (error);
          return TRUE;
        }
      self->point_colors_dirty = FALSE;
    }
  if (self->fit_pending)
    apply_fit (self);
  shepard_renderer_set_ramp (self->renderer, self->ramp);
  shepard_renderer_set_range (self->renderer, self->range_min, self->range_max);
  shepard_renderer_set_hillshade (self->renderer, self->hillshade, 1.0);
  shepard_renderer_set_opacity (self->renderer, self->opacity);
  shepard_renderer_set_classes (self->renderer, self->n_classes > 0 ? self->breaks : NULL, self->n_classes);
  shepard_renderer_set_highlight (self->renderer, self->highlight);
  shepard_renderer_set_view (self->renderer, &self->view);
  shepard_renderer_draw (self->renderer);
  return TRUE;
}

static void
shepard_map_view_finalize (GObject *object)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (object);

  g_clear_handle_id (&self->interop_notify_idle, g_source_remove);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  g_clear_pointer (&self->backdrop, shepard_surface_unref);
  g_free (self->interop_failure);
  g_array_unref (self->point_x);
  g_array_unref (self->point_y);
  g_array_unref (self->point_z);
  g_array_unref (self->point_colors);
  g_array_unref (self->context_x);
  g_array_unref (self->context_y);
  g_array_unref (self->context_strip_start);
  G_OBJECT_CLASS (shepard_map_view_parent_class)->finalize (object);
}

static void
shepard_map_view_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (object);

  switch (prop_id)
    {
    case PROP_INTEROP:
      g_value_set_boolean (value, self->interop);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_map_view_class_init (ShepardMapViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkGLAreaClass *area_class = GTK_GL_AREA_CLASS (klass);
  guint *signals = _shepard_map_view_signals;

  object_class->get_property = shepard_map_view_get_property;
  object_class->finalize = shepard_map_view_finalize;
  widget_class->realize = shepard_map_view_realize;
  widget_class->unrealize = shepard_map_view_unrealize;
  area_class->render = shepard_map_view_render;
  area_class->resize = shepard_map_view_resize;

  signals[SIGNAL_CURSOR_MOVED] = g_signal_new ("cursor-moved", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                               NULL, NULL, G_TYPE_NONE, 2, G_TYPE_DOUBLE, G_TYPE_DOUBLE);
  signals[SIGNAL_CURSOR_LEFT] = g_signal_new ("cursor-left", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                              NULL, NULL, G_TYPE_NONE, 0);
  /* A click (no drag) away from the dots, at map position (x, y) with the modifier keys held (GdkModifierType);
   * and one on a dot, with its index. */
  signals[SIGNAL_CLICKED] = g_signal_new ("clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 3, G_TYPE_DOUBLE, G_TYPE_DOUBLE, G_TYPE_UINT);
  signals[SIGNAL_POINT_CLICKED] = g_signal_new ("point-clicked", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  /* While "editing": a dot dragged to map position (x, y), at every motion. */
  signals[SIGNAL_POINT_DRAGGED] = g_signal_new ("point-dragged", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 3, G_TYPE_UINT, G_TYPE_DOUBLE,
                                                G_TYPE_DOUBLE);
  /* Delete or BackSpace pressed on the map. */
  signals[SIGNAL_DELETE_REQUESTED] = g_signal_new ("delete-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The map moved on the screen (pan, zoom, fit, resize): whatever is drawn over it in map positions must follow. */
  signals[SIGNAL_VIEW_CHANGED] = g_signal_new ("view-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                               NULL, NULL, G_TYPE_NONE, 0);
  /* Whether surfaces on the GPU reach the screen through CUDA-OpenGL interop; notified on each attempt. */
  properties[PROP_INTEROP] = g_param_spec_boolean ("interop", NULL, NULL, FALSE,
                                                   G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                                                     | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  gtk_widget_class_set_css_name (widget_class, "mapview");
  _shepard_map_view_class_input_init (widget_class);
}

static void
shepard_map_view_init (ShepardMapView *self)
{
  self->point_x = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_y = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_z = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_colors = g_array_new (FALSE, FALSE, sizeof (double));
  self->context_x = g_array_new (FALSE, FALSE, sizeof (double));
  self->context_y = g_array_new (FALSE, FALSE, sizeof (double));
  self->context_strip_start = g_array_new (FALSE, FALSE, sizeof (size_t));
  self->plane = SHEPARD_PLANE_VALUES;
  self->dragged_point = -1;
  self->highlight = -1;
  self->view.units_per_pixel = 1.0;
  self->view.scale = 1.0;
  self->range_max = 1.0;
  self->ramp = SHEPARD_COLOR_RAMP_VIRIDIS;
  self->opacity = 1.0;
  self->cuda_device = -1;

  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), FALSE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  _shepard_map_view_input_init (self);
}

void
shepard_map_view_set_points (ShepardMapView *self, const double *x, const double *y, const double *z,
                             size_t n_points, double x_min, double y_min, double x_max, double y_max)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  g_array_set_size (self->point_x, 0);
  g_array_set_size (self->point_y, 0);
  g_array_set_size (self->point_z, 0);
  g_array_append_vals (self->point_x, x, n_points);
  g_array_append_vals (self->point_y, y, n_points);
  g_array_append_vals (self->point_z, z, n_points);
  self->points_dirty = TRUE;
  if (self->point_colors->len != n_points)
    g_array_set_size (self->point_colors, 0);
  if (self->highlight >= (gssize) n_points)
    self->highlight = -1;
  self->bounds[0] = x_min;
  self->bounds[1] = y_min;
  self->bounds[2] = x_max;
  self->bounds[3] = y_max;
  self->has_bounds = TRUE;
  apply_fit (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_clear (ShepardMapView *self)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  shepard_map_view_set_surface (self, NULL);
  g_array_set_size (self->point_x, 0);
  g_array_set_size (self->point_y, 0);
  g_array_set_size (self->point_z, 0);
  self->points_dirty = TRUE;
  self->has_bounds = FALSE;
}

void
shepard_map_view_set_ramp (ShepardMapView *self, ShepardColorRamp ramp)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  self->ramp = ramp;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_range (ShepardMapView *self, double min, double max)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (isfinite (min) && isfinite (max) && max >= min);
  self->range_min = min;
  self->range_max = max;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_opacity (ShepardMapView *self, double opacity)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (opacity >= 0 && opacity <= 1);
  self->opacity = opacity;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_classes (ShepardMapView *self, const double *breaks, guint n_classes)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (n_classes <= SHEPARD_RENDER_MAX_CLASSES && (n_classes == 0 || breaks != NULL));
  if (n_classes > 0)
    memcpy (self->breaks, breaks, (n_classes + 1) * sizeof *breaks);
  self->n_classes = n_classes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_hillshade (ShepardMapView *self, gboolean enabled)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  self->hillshade = enabled;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_fit (ShepardMapView *self)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  apply_fit (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_update_points (ShepardMapView *self, const double *x, const double *y, const double *z,
                                size_t n_points)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  g_array_set_size (self->point_x, 0);
  g_array_set_size (self->point_y, 0);
  g_array_set_size (self->point_z, 0);
  g_array_append_vals (self->point_x, x, n_points);
  g_array_append_vals (self->point_y, y, n_points);
  g_array_append_vals (self->point_z, z, n_points);
  if (self->point_colors->len != n_points)
    g_array_set_size (self->point_colors, 0);
  if (self->highlight >= (gssize) n_points)
    self->highlight = -1;
  self->points_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_context_lines (ShepardMapView *self, ShepardContextLayer *const *layers, guint n_layers)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (n_layers == 0 || layers != NULL);

  g_array_set_size (self->context_x, 0);
  g_array_set_size (self->context_y, 0);
  g_array_set_size (self->context_strip_start, 0);
  for (guint i = 0; i < n_layers; i++)
    {
      const ShepardContextLayer *layer = layers[i];
      size_t base = self->context_x->len;
      g_array_append_vals (self->context_x, layer->x, layer->n_vertices);
      g_array_append_vals (self->context_y, layer->y, layer->n_vertices);
      for (size_t s = 0; s < layer->n_strips; s++)
        {
          size_t start = base + layer->strip_start[s];
          g_array_append_val (self->context_strip_start, start);
        }
    }
  if (self->context_strip_start->len > 0)
    {
      size_t end = self->context_x->len;
      g_array_append_val (self->context_strip_start, end);
    }
  self->context_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_plane (ShepardMapView *self, shepard_plane plane)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  if (plane == self->plane)
    return;
  self->plane = plane;
  self->surface_dirty = TRUE;
  self->backdrop_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_point_colors (ShepardMapView *self, const double *values, size_t n_points,
                                   ShepardColorRamp ramp, double min, double max)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (values == NULL || n_points == self->point_x->len);

  g_array_set_size (self->point_colors, 0);
  if (values != NULL)
    g_array_append_vals (self->point_colors, values, n_points);
  self->point_ramp = ramp;
  self->point_min = min;
  self->point_max = max;
  self->point_colors_dirty = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_set_highlight (ShepardMapView *self, gssize point_index)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  self->highlight = point_index >= 0 && point_index < (gssize) self->point_x->len ? point_index : -1;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_view_center_on (ShepardMapView *self, double x, double y)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (isfinite (x) && isfinite (y));

  self->view.center_x = x;
  self->view.center_y = y;
  self->fit_pending = FALSE;
  _shepard_map_view_view_changed (self);
}

void
shepard_map_view_zoom (ShepardMapView *self, double factor)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (isfinite (factor) && factor > 0);

  self->view.units_per_pixel /= factor;
  self->fit_pending = FALSE;
  _shepard_map_view_view_changed (self);
}

void
shepard_map_view_pan (ShepardMapView *self, double right, double up)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  g_return_if_fail (isfinite (right) && isfinite (up));

  double units_per_device_pixel = self->view.units_per_pixel / self->view.scale;
  self->view.center_x += right * self->view.width * units_per_device_pixel;
  self->view.center_y += up * self->view.height * units_per_device_pixel;
  self->fit_pending = FALSE;
  _shepard_map_view_view_changed (self);
}

double
shepard_map_view_get_pixel_size (ShepardMapView *self)
{
  g_return_val_if_fail (SHEPARD_IS_MAP_VIEW (self), 0.0);

  if (self->view.width <= 0 || !(self->view.units_per_pixel > 0))
    return 0.0;
  return self->view.units_per_pixel / self->view.scale;
}

void
shepard_map_view_set_editing (ShepardMapView *self, gboolean editing)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  self->editing = editing;
  self->dragged_point = -1;
}

void
shepard_map_view_map_to_widget (ShepardMapView *self, double x, double y, double *wx, double *wy)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));
  shepard_view_map_to_pixel (&self->view, x, y, wx, wy);
}

gboolean
shepard_map_view_get_visible_extent (ShepardMapView *self, double *x_min, double *y_min, double *x_max,
                                     double *y_max)
{
  g_return_val_if_fail (SHEPARD_IS_MAP_VIEW (self), FALSE);
  g_return_val_if_fail (x_min != NULL && y_min != NULL && x_max != NULL && y_max != NULL, FALSE);

  if (self->view.width <= 0 || self->view.height <= 0 || !(self->view.units_per_pixel > 0))
    return FALSE;
  shepard_view_pixel_to_map (&self->view, 0, 0, x_min, y_max);
  shepard_view_pixel_to_map (&self->view, self->view.width / self->view.scale, self->view.height / self->view.scale,
                             x_max, y_min);
  return TRUE;
}

void
shepard_map_view_set_cuda_device (ShepardMapView *self, int cuda_device)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  self->cuda_device = cuda_device;
  if (self->renderer == NULL)
    return; /* tried on realize */
  gtk_gl_area_make_current (GTK_GL_AREA (self));
  try_interop (self);
}

gboolean
shepard_map_view_get_interop (ShepardMapView *self, const char **reason)
{
  g_return_val_if_fail (SHEPARD_IS_MAP_VIEW (self), FALSE);

  if (reason != NULL)
    *reason = self->interop_failure;
  return self->interop;
}
