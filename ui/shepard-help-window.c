/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-help-window.h"

struct _ShepardHelpWindow
{
  GtkWindow parent_instance;
};

G_DEFINE_FINAL_TYPE (ShepardHelpWindow, shepard_help_window, GTK_TYPE_WINDOW)

ShepardHelpWindow *
shepard_help_window_new (GtkWindow *parent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);

  /* Not modal: the reader keeps working in the main window with the page open beside it. */
  return g_object_new (SHEPARD_TYPE_HELP_WINDOW, "transient-for", parent, "destroy-with-parent", TRUE, NULL);
}

static void
shepard_help_window_class_init (ShepardHelpWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-help-window.ui");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
shepard_help_window_init (ShepardHelpWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
