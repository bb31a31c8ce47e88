/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-wheel-guard-private.h"

#include <math.h>

/* The control inside scroller's content that takes wheel events at widget, or NULL. GtkDropDown is not one: it
 * ignores the wheel in GTK 4.8. */
static GtkWidget *
wheel_control (GtkScrolledWindow *scroller, GtkWidget *widget)
{
  GtkWidget *content = gtk_scrolled_window_get_child (scroller);

  for (; widget != NULL && widget != content && widget != GTK_WIDGET (scroller);
       widget = gtk_widget_get_parent (widget))
    if (GTK_IS_RANGE (widget) || GTK_IS_SPIN_BUTTON (widget))
      return content != NULL && gtk_widget_is_ancestor (widget, content) ? widget : NULL;
  return NULL;
}

static gboolean
has_focus_within (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

gboolean
_shepard_wheel_guard_handle (GtkScrolledWindow *scroller, double x, double y, double dy, GdkScrollUnit unit)
{
  GtkWidget *picked = gtk_widget_pick (GTK_WIDGET (scroller), x, y, GTK_PICK_DEFAULT);
  GtkWidget *control = wheel_control (scroller, picked);

  if (control == NULL || has_focus_within (control))
    return FALSE;

  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  /* GtkScrolledWindow's own step: a wheel detent moves the page size to the 2/3; smooth deltas are pixels. */
  double step = unit == GDK_SCROLL_UNIT_WHEEL ? pow (gtk_adjustment_get_page_size (adjustment), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy * step);
  return TRUE;
}

/* GTK 4 scroll events carry no position: the seat's pointer is asked for it (the event's own device can be a
 * physical one, which X does not answer for). */
static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  GtkScrolledWindow *scroller = data;
  GdkDevice *device = gtk_event_controller_get_current_event_device (GTK_EVENT_CONTROLLER (controller));
  GdkSeat *seat = device != NULL ? gdk_device_get_seat (device) : NULL;
  GdkDevice *pointer = seat != NULL ? gdk_seat_get_pointer (seat) : NULL;
  GtkNative *native = gtk_widget_get_native (GTK_WIDGET (scroller));
  double surface_x, surface_y, native_x, native_y;
  graphene_point_t point;

  if (pointer == NULL || native == NULL
      || !gdk_surface_get_device_position (gtk_native_get_surface (native), pointer, &surface_x, &surface_y, NULL))
    return FALSE;
  gtk_native_get_surface_transform (native, &native_x, &native_y);
  if (!gtk_widget_compute_point (GTK_WIDGET (native), GTK_WIDGET (scroller),
                                 &GRAPHENE_POINT_INIT (surface_x - native_x, surface_y - native_y), &point))
    return FALSE;
  return _shepard_wheel_guard_handle (scroller, point.x, point.y, dy,
                                      gtk_event_controller_scroll_get_unit (controller));
}

void
shepard_wheel_guard_attach (GtkScrolledWindow *scroller)
{
  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (scroller));

  GtkEventController *controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  /* Before the control under the pointer, which would take the event in the target or bubble phase. */
  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), scroller);
  gtk_widget_add_controller (GTK_WIDGET (scroller), controller);
}
