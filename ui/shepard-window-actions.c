/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-window-private.h"

#include "shepard-help-window.h"

static void
on_open_response (GtkNativeDialog *dialog, int response, ShepardWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      shepard_window_open (self, file, NULL);
    }
  g_object_unref (dialog);
}

GtkFileChooserNative *
_shepard_window_new_layer_chooser (ShepardWindow *self, const char *title, const char *accept_label,
                                   const char *filter_name)
{
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self), GTK_FILE_CHOOSER_ACTION_OPEN,
                                                              accept_label, "_Cancel");
  GtkFileFilter *layers = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  gtk_file_filter_set_name (layers, filter_name);
  for (const char *const *suffix = (const char *const[]) { "csv", "gpkg", "shp", "geojson", "json", "fgb", "gml",
                                                           "kml", "sqlite", NULL };
       *suffix != NULL; suffix++)
    gtk_file_filter_add_suffix (layers, *suffix);
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), layers);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_object_unref (layers);
  g_object_unref (all);
  return dialog;
}

static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);
  GtkFileChooserNative *dialog = _shepard_window_new_layer_chooser (self, "Open Point Layer", "_Open",
                                                                    "Point layers");

  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
on_export_finished (ShepardExportDialog *dialog, gboolean written, ShepardWindow *self)
{
  if (written)
    shepard_window_show_message (self, GTK_MESSAGE_INFO, shepard_export_dialog_get_report (dialog));
}

ShepardExportDialog *
shepard_window_new_export_dialog (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  g_return_val_if_fail (self->document != NULL, NULL);

  shepard_params params;
  double visible[4];
  gboolean has_visible = shepard_map_view_get_visible_extent (self->map_view, &visible[0], &visible[1], &visible[2],
                                                              &visible[3]);
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  ShepardExportDialog *dialog = shepard_export_dialog_new (GTK_WINDOW (self), self->document, &params,
                                                           has_visible ? visible : NULL, self->settings);
  g_signal_connect_object (dialog, "finished", G_CALLBACK (on_export_finished), self, 0);
  return dialog;
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  gtk_window_present (GTK_WINDOW (shepard_window_new_export_dialog (SHEPARD_WINDOW (widget))));
}

static void
fit_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_map_view_fit (SHEPARD_WINDOW (widget)->map_view);
}

static void
reset_parameters_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_parameter_panel_reset (SHEPARD_WINDOW (widget)->parameter_panel);
}

/* One help window per main window: F1 again brings the open one forward. */
static void
help_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  GListModel *toplevels = gtk_window_get_toplevels ();
  GtkWindow *help = NULL;

  for (guint i = 0; help == NULL && i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);
      if (SHEPARD_IS_HELP_WINDOW (window) && gtk_window_get_transient_for (window) == GTK_WINDOW (widget))
        help = window;
    }
  if (help == NULL)
    help = GTK_WINDOW (shepard_help_window_new (GTK_WINDOW (widget)));
  gtk_window_present (help);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, ShepardWindow *self)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  shepard_window_open (self, g_value_get_object (value), NULL);
  return TRUE;
}

void
_shepard_window_class_actions_init (ShepardWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.fit", NULL, fit_action);
  gtk_widget_class_install_action (widget_class, "win.reset-parameters", NULL, reset_parameters_action);
  gtk_widget_class_install_action (widget_class, "win.help", NULL, help_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "win.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "win.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F1, 0, "win.help", NULL);
}

void
_shepard_window_actions_init (ShepardWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
}
