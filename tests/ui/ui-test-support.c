/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui-test-support.h"

gboolean
wait_until (Condition condition, gpointer data)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

void
let_frames_pass (int milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

gboolean
is_settled (gpointer data)
{
  ShepardWindow *self = data;
  return !shepard_window_is_busy (self) && shepard_window_get_surface (self) != NULL;
}

gboolean
has_message (gpointer data)
{
  return !shepard_window_is_busy (data) && shepard_window_get_message (data) != NULL;
}

const char *
meuse_path (void)
{
  static char *path;
  if (path == NULL)
    path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  return path;
}

gpointer
find_controller (GtkWidget *widget, GType type)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      /* Borrowed: the widget keeps its controllers. */
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return controller;
    }
  g_assert_not_reached ();
}

gpointer
dialog_child (ShepardExportDialog *dialog, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (dialog), SHEPARD_TYPE_EXPORT_DIALOG, name);
  g_assert_nonnull (child);
  return child;
}

gboolean
is_nonzero (gpointer data)
{
  return *(int *) data != 0;
}

void
on_export_finished (ShepardExportDialog *dialog, gboolean written, int *state)
{
  *state = written ? 1 : 2;
}
