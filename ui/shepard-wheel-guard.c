/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-wheel-guard-private.h"

#include <math.h>

static gboolean
has_focus_within (GtkWidget *widget)
{
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  return focus != NULL && (focus == widget || gtk_widget_is_ancestor (focus, widget));
}

gboolean
_shepard_wheel_guard_handle (GtkScrolledWindow *scroller, GtkWidget *control, double dy, GdkScrollUnit unit)
{
  if (has_focus_within (control))
    return FALSE;

  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scroller);
  /* GtkScrolledWindow's own step: a wheel detent moves the page size to the 2/3; smooth deltas are pixels. */
  double step = unit == GDK_SCROLL_UNIT_WHEEL ? pow (gtk_adjustment_get_page_size (adjustment), 2.0 / 3.0) : 1.0;
  gtk_adjustment_set_value (adjustment, gtk_adjustment_get_value (adjustment) + dy * step);
  return TRUE;
}

static gboolean
on_scroll (GtkEventControllerScroll *controller, double dx, double dy, gpointer data)
{
  return _shepard_wheel_guard_handle (GTK_SCROLLED_WINDOW (data),
                                      gtk_event_controller_get_widget (GTK_EVENT_CONTROLLER (controller)), dy,
                                      gtk_event_controller_scroll_get_unit (controller));
}

/* A controller on each control rather than one on the scroller: GTK sends the wheel to the widget it last saw under
 * the pointer, which after a scroll without pointer motion is not the one a pick at the pointer finds. Each control
 * sees its own events first, in the capture phase, before its own handlers. GtkDropDown ignores the wheel in 4.8. */
static void
guard_controls (GtkScrolledWindow *scroller, GtkWidget *widget)
{
  if (GTK_IS_RANGE (widget) || GTK_IS_SPIN_BUTTON (widget))
    {
      GtkEventController *controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_VERTICAL);
      gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
      g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), scroller);
      gtk_widget_add_controller (widget, controller);
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    guard_controls (scroller, child);
}

void
shepard_wheel_guard_attach (GtkScrolledWindow *scroller)
{
  g_return_if_fail (GTK_IS_SCROLLED_WINDOW (scroller));
  g_return_if_fail (gtk_scrolled_window_get_child (scroller) != NULL);

  guard_controls (scroller, gtk_scrolled_window_get_child (scroller));
}
