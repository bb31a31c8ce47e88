/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The map view's input: the pointer's gestures (drag to pan or to move a dot, wheel to zoom about the cursor, clicks),
 * and the keyboard (+ / − zoom about the centre, the arrows pan by a tenth of the view, Home or 0 fits, Delete). */
#include "shepard-map-view-private.h"

#include <math.h>

#define WHEEL_ZOOM_STEP 1.2
/* A click or a drag this close to a dot (logical pixels) is about that dot. */
#define POINT_HIT_RADIUS 8.0

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
      g_signal_emit (self, _shepard_map_view_signals[SIGNAL_POINT_DRAGGED], 0, (guint) self->dragged_point, map_x,
                     map_y);
      return;
    }
  self->view.center_x = self->drag_center_x - dx * self->view.units_per_pixel;
  self->view.center_y = self->drag_center_y + dy * self->view.units_per_pixel;
  _shepard_map_view_view_changed (self);
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
      g_signal_emit (self, _shepard_map_view_signals[SIGNAL_POINT_CLICKED], 0, (guint) point);
      return;
    }
  shepard_view_pixel_to_map (&self->view, x, y, &map_x, &map_y);
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_CLICKED], 0, map_x, map_y,
                 (guint) (state & gtk_accelerator_get_default_mod_mask ()));
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller, guint keyval, guint keycode, GdkModifierType state,
                ShepardMapView *self)
{
  if (keyval != GDK_KEY_Delete && keyval != GDK_KEY_KP_Delete && keyval != GDK_KEY_BackSpace)
    return FALSE;
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_DELETE_REQUESTED], 0);
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
  self->view.units_per_pixel *= pow (WHEEL_ZOOM_STEP, dy);
  shepard_view_pixel_to_map (&self->view, self->pointer_x, self->pointer_y, &after_x, &after_y);
  self->view.center_x += before_x - after_x;
  self->view.center_y += before_y - after_y;
  _shepard_map_view_view_changed (self);
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
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_CURSOR_MOVED], 0, map_x, map_y);
}

static void
on_leave (GtkEventControllerMotion *controller, ShepardMapView *self)
{
  g_signal_emit (self, _shepard_map_view_signals[SIGNAL_CURSOR_LEFT], 0);
}


static void
zoom_in_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_map_view_zoom (SHEPARD_MAP_VIEW (widget), SHEPARD_MAP_VIEW_KEY_ZOOM);
}

static void
zoom_out_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_map_view_zoom (SHEPARD_MAP_VIEW (widget), 1.0 / SHEPARD_MAP_VIEW_KEY_ZOOM);
}

static void
pan_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  double right, up;

  g_variant_get (parameter, "(dd)", &right, &up);
  shepard_map_view_pan (SHEPARD_MAP_VIEW (widget), right, up);
}

static void
fit_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_map_view_fit (SHEPARD_MAP_VIEW (widget));
}

static void
bind_pan (GtkWidgetClass *widget_class, guint keyval, guint keypad_keyval, double right, double up)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, 0, "map.pan", "(dd)", right, up);
  gtk_widget_class_add_binding_action (widget_class, keypad_keyval, 0, "map.pan", "(dd)", right, up);
}

void
_shepard_map_view_class_input_init (GtkWidgetClass *widget_class)
{
  const double step = SHEPARD_MAP_VIEW_KEY_PAN;

  gtk_widget_class_install_action (widget_class, "map.zoom-in", NULL, zoom_in_action);
  gtk_widget_class_install_action (widget_class, "map.zoom-out", NULL, zoom_out_action);
  gtk_widget_class_install_action (widget_class, "map.pan", "(dd)", pan_action);
  gtk_widget_class_install_action (widget_class, "map.fit", NULL, fit_action);
  /* + is shifted on many layouts, = is the same key unshifted. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_plus, 0, "map.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_equal, 0, "map.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Add, 0, "map.zoom-in", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_minus, 0, "map.zoom-out", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Subtract, 0, "map.zoom-out", NULL);
  bind_pan (widget_class, GDK_KEY_Left, GDK_KEY_KP_Left, -step, 0);
  bind_pan (widget_class, GDK_KEY_Right, GDK_KEY_KP_Right, step, 0);
  bind_pan (widget_class, GDK_KEY_Up, GDK_KEY_KP_Up, 0, step);
  bind_pan (widget_class, GDK_KEY_Down, GDK_KEY_KP_Down, 0, -step);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Home, 0, "map.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Home, 0, "map.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, 0, "map.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_0, 0, "map.fit", NULL);
}

void
_shepard_map_view_input_init (ShepardMapView *self)
{
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
  GtkEventController *motion = gtk_event_controller_motion_new ();
  GtkGesture *click = gtk_gesture_click_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

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
