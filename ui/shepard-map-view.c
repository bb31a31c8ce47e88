/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-map-view.h"

#include <epoxy/gl.h>
#include <math.h>

struct _ShepardMapView
{
  GtkGLArea parent_instance;

  ShepardRenderer *renderer;
  ShepardView view;
  ShepardSurface *surface;
  gboolean surface_dirty;
  GArray *point_x, *point_y, *point_z;
  gboolean points_dirty;
  double bounds[4];
  gboolean has_bounds;
  gboolean fit_pending;
  ShepardColorRamp ramp;
  double range_min, range_max;
  gboolean hillshade;
  double drag_center_x, drag_center_y;
  double pointer_x, pointer_y;
  shepard_plane plane;         /* which plane of the surface is drawn */
  gboolean editing;            /* drags that start on a point move it rather than the map */
  gssize dragged_point;        /* the point being moved, or -1 */
  gboolean point_colors_dirty;
  GArray *point_colors;        /* values of the dots' own colours, empty: by z */
  ShepardColorRamp point_ramp;
  double point_min, point_max;
  gssize highlight;

  int cuda_device;        /* -1: the engine runs on the CPU */
  gboolean interop;       /* the renderer copies device grids on the GPU */
  char *interop_failure;  /* why interop is off, when it was tried */
  guint interop_notify_idle; /* the notification of "interop" held back until the frame being drawn is done */
};

G_DEFINE_FINAL_TYPE (ShepardMapView, shepard_map_view, GTK_TYPE_GL_AREA)

enum {
  SIGNAL_CURSOR_MOVED,
  SIGNAL_CURSOR_LEFT,
  SIGNAL_CLICKED,
  SIGNAL_POINT_CLICKED,
  SIGNAL_POINT_DRAGGED,
  SIGNAL_DELETE_REQUESTED,
  SIGNAL_VIEW_CHANGED,
  N_SIGNALS
};

enum {
  PROP_0,
  PROP_INTEROP,
  N_PROPS
};

static guint signals[N_SIGNALS];
static GParamSpec *properties[N_PROPS];

#define ZOOM_STEP 1.2
#define FIT_MARGIN 24.0
/* A click or a drag this close to a dot (logical pixels) is about that dot. */
#define POINT_HIT_RADIUS 8.0

GtkWidget *
shepard_map_view_new (void)
{
  return g_object_new (SHEPARD_TYPE_MAP_VIEW, NULL);
}

static void
view_changed (ShepardMapView *self)
{
  g_signal_emit (self, signals[SIGNAL_VIEW_CHANGED], 0);
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
  g_signal_emit (self, signals[SIGNAL_VIEW_CHANGED], 0);
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
static void
set_interop (ShepardMapView *self, gboolean interop, const char *failure, gboolean during_render)
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
        set_interop (self, FALSE, NULL, FALSE);
      return;
    }
  if (shepard_renderer_enable_cuda_interop (self->renderer, self->cuda_device, &error))
    set_interop (self, TRUE, NULL, FALSE);
  else
    set_interop (self, FALSE, error->message, FALSE);
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
    g_signal_emit (self, signals[SIGNAL_VIEW_CHANGED], 0);
}

/* Only the newest surface reaches the texture: any set since the last frame were never drawn. */
static gboolean
upload_surface (ShepardMapView *self, GError **error)
{
  ShepardSurface *surface = self->surface;

  if (surface == NULL)
    {
      shepard_renderer_clear_grid (self->renderer);
      return TRUE;
    }
  /* A plane the surface lacks (r_obs of an IDW or derived surface) shows its values. */
  shepard_plane plane = shepard_surface_has_plane (surface, self->plane) ? self->plane : SHEPARD_PLANE_VALUES;
  if (surface->device_grid == NULL)
    {
      const float *cells = plane == SHEPARD_PLANE_ALPHA ? surface->alpha : plane == SHEPARD_PLANE_R_OBS
                                                                             ? surface->r_obs
                                                                             : surface->values;
      return shepard_renderer_set_grid (self->renderer, &surface->grid, cells, error);
    }
  if (self->interop)
    {
      g_autoptr (GError) interop_error = NULL;
      shepard_surface_lock_device (surface);
      gboolean drawn = shepard_renderer_set_grid_from_device (self->renderer, &surface->grid, surface->device_grid,
                                                              plane, &interop_error);
      shepard_surface_unlock_device (surface);
      if (drawn)
        return TRUE;
      shepard_renderer_disable_cuda_interop (self->renderer);
      set_interop (self, FALSE, interop_error->message, TRUE);
    }
  /* Through host memory: interop failed, or the surface was computed before it was switched off. */
  g_autofree float *values = shepard_surface_copy_plane (surface, plane, error);
  return values != NULL && shepard_renderer_set_grid (self->renderer, &surface->grid, values, error);
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
      if (!upload_surface (self, &error))
        {
          gtk_gl_area_set_error (area, error);
          g_error_free (error);
          return TRUE;
        }
      self->surface_dirty = FALSE;
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
  shepard_renderer_set_highlight (self->renderer, self->highlight);
  shepard_renderer_set_view (self->renderer, &self->view);
  shepard_renderer_draw (self->renderer);
  return TRUE;
}

/* The dot nearest to the widget position (px, py) within POINT_HIT_RADIUS, or -1. */
static gssize
point_at (ShepardMapView *self, double px, double py)
{
  gssize found = -1;
  double best = POINT_HIT_RADIUS * POINT_HIT_RADIUS;

  if (self->view.width <= 0 || !(self->view.units_per_pixel > 0))
    return -1;
  for (guint i = 0; i < self->point_x->len; i++)
    {
      double wx, wy;
      shepard_view_map_to_pixel (&self->view, g_array_index (self->point_x, double, i),
                                 g_array_index (self->point_y, double, i), &wx, &wy);
      double d2 = (wx - px) * (wx - px) + (wy - py) * (wy - py);
      if (d2 <= best)
        {
          best = d2;
          found = (gssize) i;
        }
    }
  return found;
}

static void
on_drag_begin (GtkGestureDrag *gesture, double x, double y, ShepardMapView *self)
{
  self->drag_center_x = self->view.center_x;
  self->drag_center_y = self->view.center_y;
  self->dragged_point = self->editing ? point_at (self, x, y) : -1;
}

static void
on_drag_update (GtkGestureDrag *gesture, double dx, double dy, ShepardMapView *self)
{
  if (self->dragged_point >= 0)
    {
      double start_x, start_y, map_x, map_y;
      gtk_gesture_drag_get_start_point (gesture, &start_x, &start_y);
      shepard_view_pixel_to_map (&self->view, start_x + dx, start_y + dy, &map_x, &map_y);
      g_signal_emit (self, signals[SIGNAL_POINT_DRAGGED], 0, (guint) self->dragged_point, map_x, map_y);
      return;
    }
  self->view.center_x = self->drag_center_x - dx * self->view.units_per_pixel;
  self->view.center_y = self->drag_center_y + dy * self->view.units_per_pixel;
  view_changed (self);
}

static void
on_drag_end (GtkGestureDrag *gesture, double dx, double dy, ShepardMapView *self)
{
  self->dragged_point = -1;
}

/* A press and release without a drag in between (GtkGestureClick gives up once the pointer moves). */
static void
on_click_released (GtkGestureClick *gesture, int n_press, double x, double y, ShepardMapView *self)
{
  double map_x, map_y;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (self->view.width <= 0 || !(self->view.units_per_pixel > 0))
    return;
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));
  /* Ctrl+click is always a click on the map, so that a cell beside a dot (of a dense layer) can be pinned. */
  gssize point = state & GDK_CONTROL_MASK ? -1 : point_at (self, x, y);
  if (point >= 0)
    {
      g_signal_emit (self, signals[SIGNAL_POINT_CLICKED], 0, (guint) point);
      return;
    }
  shepard_view_pixel_to_map (&self->view, x, y, &map_x, &map_y);
  g_signal_emit (self, signals[SIGNAL_CLICKED], 0, map_x, map_y,
                 (guint) (state & gtk_accelerator_get_default_mod_mask ()));
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
                ShepardMapView *self)
{
  if (keyval != GDK_KEY_Delete && keyval != GDK_KEY_KP_Delete && keyval != GDK_KEY_BackSpace)
    return FALSE;
  g_signal_emit (self, signals[SIGNAL_DELETE_REQUESTED], 0);
  return TRUE;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, ShepardMapView *self)
{
  double before_x, before_y, after_x, after_y;

  if (dy == 0 || self->view.width <= 0)
    return FALSE;
  /* Keep the map position under the cursor where it is. */
  shepard_view_pixel_to_map (&self->view, self->pointer_x, self->pointer_y, &before_x, &before_y);
  self->view.units_per_pixel *= pow (ZOOM_STEP, dy);
  shepard_view_pixel_to_map (&self->view, self->pointer_x, self->pointer_y, &after_x, &after_y);
  self->view.center_x += before_x - after_x;
  self->view.center_y += before_y - after_y;
  view_changed (self);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller, double x, double y, ShepardMapView *self)
{
  double map_x, map_y;

  self->pointer_x = x;
  self->pointer_y = y;
  if (self->view.width <= 0 || self->view.units_per_pixel <= 0)
    return;
  shepard_view_pixel_to_map (&self->view, x, y, &map_x, &map_y);
  g_signal_emit (self, signals[SIGNAL_CURSOR_MOVED], 0, map_x, map_y);
}

static void
on_leave (GtkEventControllerMotion *controller, ShepardMapView *self)
{
  g_signal_emit (self, signals[SIGNAL_CURSOR_LEFT], 0);
}

static void
shepard_map_view_finalize (GObject *object)
{
  ShepardMapView *self = SHEPARD_MAP_VIEW (object);

  g_clear_handle_id (&self->interop_notify_idle, g_source_remove);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  g_free (self->interop_failure);
  g_array_unref (self->point_x);
  g_array_unref (self->point_y);
  g_array_unref (self->point_z);
  g_array_unref (self->point_colors);
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
}

static void
shepard_map_view_init (ShepardMapView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->point_x = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_y = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_z = g_array_new (FALSE, FALSE, sizeof (double));
  self->point_colors = g_array_new (FALSE, FALSE, sizeof (double));
  self->plane = SHEPARD_PLANE_VALUES;
  self->dragged_point = -1;
  self->highlight = -1;
  self->view.units_per_pixel = 1.0;
  self->view.scale = 1.0;
  self->range_max = 1.0;
  self->ramp = SHEPARD_COLOR_RAMP_VIRIDIS;
  self->cuda_device = -1;

  gtk_gl_area_set_has_depth_buffer (GTK_GL_AREA (self), FALSE);
  gtk_gl_area_set_auto_render (GTK_GL_AREA (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);

  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (drag), GDK_BUTTON_PRIMARY);
  g_signal_connect (drag, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (drag, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (scroll, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "released", G_CALLBACK (on_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
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
shepard_map_view_set_surface (ShepardMapView *self, ShepardSurface *surface)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  if (surface != NULL)
    shepard_surface_ref (surface);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  self->surface = surface;
  self->surface_dirty = TRUE;
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
shepard_map_view_set_plane (ShepardMapView *self, shepard_plane plane)
{
  g_return_if_fail (SHEPARD_IS_MAP_VIEW (self));

  if (plane == self->plane)
    return;
  self->plane = plane;
  self->surface_dirty = TRUE;
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
  view_changed (self);
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
