/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's context layers: lines and polygons (a river, a boundary) drawn under the points as a backdrop, read
 * into the point layer's CRS, and read again into the next layer's. */
#include "shepard-window-private.h"

#include "context-layer.h"
#include "shepard-app-error.h"

static void
show_context_layers (ShepardWindow *self)
{
  guint n_layers = self->context_layers != NULL ? self->context_layers->len : 0;

  shepard_map_view_set_context_lines (self->map_view,
                                      n_layers > 0 ? (ShepardContextLayer *const *) self->context_layers->pdata : NULL,
                                      n_layers);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.remove-context-layers", n_layers > 0);
}

static const char *
map_crs (ShepardWindow *self)
{
  return shepard_document_get_points (self->document)->crs_wkt;
}

gboolean
shepard_window_add_context_layer (ShepardWindow *self, GFile *file, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_return_val_if_fail (self->document != NULL, FALSE);
  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN,
                           "Only local files can be added as context layers.");
      return FALSE;
    }
  /* A river or a boundary reads in a moment: no background job. */
  ShepardContextLayer *context = shepard_context_layer_read (path, NULL, map_crs (self), error);
  if (context == NULL)
    return FALSE;
  if (self->context_layers == NULL)
    self->context_layers = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_context_layer_free);
  g_ptr_array_add (self->context_layers, context);
  show_context_layers (self);
  return TRUE;
}

void
_shepard_window_context_show_document (ShepardWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.add-context-layer", TRUE);
  if (self->context_layers == NULL || self->context_layers->len == 0)
    return;

  g_autoptr (GPtrArray) previous = g_steal_pointer (&self->context_layers);
  self->context_layers = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_context_layer_free);
  g_autoptr (GString) failures = g_string_new (NULL);
  for (guint i = 0; i < previous->len; i++)
    {
      const ShepardContextLayer *old = previous->pdata[i];
      g_autoptr (GError) error = NULL;
      ShepardContextLayer *context = shepard_context_layer_read (old->source, old->layer_name, map_crs (self), &error);
      if (context != NULL)
        g_ptr_array_add (self->context_layers, context);
      else
        g_string_append_printf (failures, "%s%s", failures->len > 0 ? " " : "", error->message);
    }
  show_context_layers (self);
  if (failures->len > 0)
    shepard_window_show_message (self, GTK_MESSAGE_WARNING, failures->str);
}

static void
on_add_response (GtkNativeDialog *dialog, int response, ShepardWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autoptr (GError) error = NULL;
      if (!shepard_window_add_context_layer (self, file, &error))
        shepard_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
    }
  g_object_unref (dialog);
}

static void
add_context_layer_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);
  GtkFileChooserNative *dialog = _shepard_window_new_layer_chooser (self, "Add Context Layer", "_Add",
                                                                    "Line and polygon layers");

  g_signal_connect (dialog, "response", G_CALLBACK (on_add_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
remove_context_layers_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);

  g_clear_pointer (&self->context_layers, g_ptr_array_unref);
  show_context_layers (self);
}

void
_shepard_window_class_context_init (ShepardWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.add-context-layer", NULL, add_context_layer_action);
  gtk_widget_class_install_action (widget_class, "win.remove-context-layers", NULL, remove_context_layers_action);
}

void
_shepard_window_context_init (ShepardWindow *self)
{
  /* They are drawn in the CRS of a point layer: there must be one. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.add-context-layer", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.remove-context-layers", FALSE);
}
