/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classroom sandbox in the window: File → New Sandbox, a click that adds a point and asks for its value, a drag
 * that moves one, Delete that removes the selected one, and Save Points As. Every edit goes to the document, whose
 * "points-changed" brings the map's dots, the surface and the instruments along. */
#include "shepard-window-private.h"

#include <math.h>
#include <string.h>

#include "shepard-sandbox-dialog.h"

/* The extent a sandbox starts with when no layer is open: a square kilometre in metres. */
static const double default_extent[4] = { 0.0, 0.0, 1000.0, 1000.0 };

typedef struct {
  ShepardWindow *window;
  gssize index; /* the point edited, or -1 for a new one at (x, y) */
  double x, y;
  GtkEntry *entry;
  GtkLabel *error_label;
} ValueEdit;

static void
update_hint (ShepardWindow *self)
{
  gboolean sandbox = self->document != NULL && shepard_document_is_sandbox (self->document);

  gtk_widget_set_visible (GTK_WIDGET (self->sandbox_hint_label), sandbox);
  if (!sandbox)
    return;
  size_t count = shepard_document_get_points (self->document)->count;
  gtk_label_set_text (self->sandbox_hint_label,
                      count == 0 ? "Sandbox: click the map to add a point and give its value."
                                 : "Sandbox: click to add a point, drag one to move it, click one to change its value; "
                                   "Delete removes the selected point, Ctrl+click pins a cell to explain.");
}

static void
close_value_popover (ShepardWindow *self)
{
  if (self->value_popover == NULL)
    return;
  GtkPopover *popover = g_steal_pointer (&self->value_popover);
  gtk_popover_popdown (popover);
  gtk_widget_unparent (GTK_WIDGET (popover));
}

/* "1234.5", "-3e-2", or with a decimal comma. */
static gboolean
parse_value (const char *text, double *value)
{
  g_autofree char *copy = g_strstrip (g_strdelimit (g_strdup (text), ",", '.'));
  char *end = NULL;

  if (copy[0] == '\0')
    return FALSE;
  *value = g_ascii_strtod (copy, &end);
  return *end == '\0' && isfinite (*value);
}

static void
on_value_confirmed (ValueEdit *edit)
{
  ShepardWindow *self = edit->window;
  g_autoptr (GError) error = NULL;
  double value;

  if (!parse_value (gtk_editable_get_text (GTK_EDITABLE (edit->entry)), &value))
    {
      gtk_label_set_text (edit->error_label, "Type a number, such as 812 or 0.25.");
      gtk_widget_set_visible (GTK_WIDGET (edit->error_label), TRUE);
      return;
    }
  gboolean done;
  if (edit->index < 0)
    {
      gssize index = shepard_document_add_point (self->document, edit->x, edit->y, value, &error);
      done = index >= 0;
      if (done)
        {
          self->selected_point = index;
          shepard_map_view_set_highlight (self->map_view, index);
        }
    }
  else
    done = shepard_document_set_point_value (self->document, (size_t) edit->index, value, &error);
  if (!done)
    {
      gtk_label_set_text (edit->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (edit->error_label), TRUE);
      return;
    }
  close_value_popover (self);
}

static void
on_delete_clicked (ValueEdit *edit)
{
  ShepardWindow *self = edit->window;
  g_autoptr (GError) error = NULL;

  if (!shepard_document_remove_point (self->document, (size_t) edit->index, &error))
    {
      gtk_label_set_text (edit->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (edit->error_label), TRUE);
      return;
    }
  self->selected_point = -1;
  close_value_popover (self);
}

/* A popover on the map at the point's place, asking for its value: a new point's, or an existing one's. */
static void
ask_value (ShepardWindow *self, gssize index, double x, double y)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  double wx, wy;

  close_value_popover (self);
  ValueEdit *edit = g_new0 (ValueEdit, 1);
  edit->window = self;
  edit->index = index;
  edit->x = x;
  edit->y = y;

  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  g_autofree char *title = index < 0 ? g_strdup_printf ("New point at %.6g, %.6g", x, y)
                                     : g_strdup_printf ("Point %zd at %.6g, %.6g", index + 1, x, y);
  GtkWidget *heading = gtk_label_new (title);
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (box), heading);

  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  edit->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (edit->entry, points->field_name);
  gtk_accessible_update_property (GTK_ACCESSIBLE (edit->entry), GTK_ACCESSIBLE_PROPERTY_LABEL, "Value", -1);
  if (index >= 0)
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];
      gtk_editable_set_text (GTK_EDITABLE (edit->entry), g_ascii_dtostr (text, sizeof text, points->z[index]));
    }
  g_signal_connect_swapped (edit->entry, "activate", G_CALLBACK (on_value_confirmed), edit);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (edit->entry));
  if (index >= 0)
    {
      GtkWidget *remove = gtk_button_new_from_icon_name ("user-trash-symbolic");
      gtk_widget_set_tooltip_text (remove, "Remove the point");
      g_signal_connect_swapped (remove, "clicked", G_CALLBACK (on_delete_clicked), edit);
      gtk_box_append (GTK_BOX (row), remove);
    }
  GtkWidget *confirm = gtk_button_new_with_mnemonic (index < 0 ? "_Add" : "_Set");
  gtk_widget_add_css_class (confirm, "suggested-action");
  g_signal_connect_swapped (confirm, "clicked", G_CALLBACK (on_value_confirmed), edit);
  gtk_box_append (GTK_BOX (row), confirm);
  gtk_box_append (GTK_BOX (box), row);

  edit->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (edit->error_label, TRUE);
  gtk_label_set_xalign (edit->error_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (edit->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (edit->error_label), FALSE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (edit->error_label));

  GtkPopover *popover = GTK_POPOVER (gtk_popover_new ());
  gtk_popover_set_child (popover, box);
  g_object_set_data_full (G_OBJECT (popover), "value-edit", edit, g_free);
  gtk_widget_set_parent (GTK_WIDGET (popover), GTK_WIDGET (self->map_view));
  shepard_map_view_map_to_widget (self->map_view, x, y, &wx, &wy);
  gtk_popover_set_pointing_to (popover, &(GdkRectangle) { (int) wx - 1, (int) wy - 1, 2, 2 });
  g_signal_connect_object (popover, "closed", G_CALLBACK (close_value_popover), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
  self->value_popover = popover;
  gtk_popover_popup (popover);
  gtk_widget_grab_focus (GTK_WIDGET (edit->entry));
}

static gboolean
is_sandbox (ShepardWindow *self)
{
  return self->document != NULL && shepard_document_is_sandbox (self->document);
}

static void
on_map_clicked (ShepardWindow *self, double x, double y, guint modifiers, ShepardMapView *view)
{
  if (!is_sandbox (self) || (modifiers & GDK_CONTROL_MASK))
    return; /* a pin: shepard-window-instruments.c */
  ask_value (self, -1, x, y);
}

static void
on_point_clicked (ShepardWindow *self, guint index, ShepardMapView *view)
{
  const ShepardPointLayer *points;

  if (!is_sandbox (self))
    return;
  points = shepard_document_get_points (self->document);
  if (index < points->count)
    ask_value (self, index, points->x[index], points->y[index]);
}

static void
on_point_dragged (ShepardWindow *self, guint index, double x, double y, ShepardMapView *view)
{
  g_autoptr (GError) error = NULL;

  if (!is_sandbox (self))
    return;
  close_value_popover (self);
  self->selected_point = index;
  shepard_map_view_set_highlight (self->map_view, index);
  if (!shepard_document_move_point (self->document, index, x, y, &error))
    shepard_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
}

static void
on_delete_requested (ShepardWindow *self, ShepardMapView *view)
{
  g_autoptr (GError) error = NULL;

  if (!is_sandbox (self) || self->selected_point < 0)
    return;
  close_value_popover (self);
  if (!shepard_document_remove_point (self->document, (size_t) self->selected_point, &error))
    shepard_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
  self->selected_point = -1;
  shepard_map_view_set_highlight (self->map_view, -1);
}

static void
on_points_changed (ShepardWindow *self, ShepardDocument *document)
{
  const ShepardPointLayer *points = shepard_document_get_points (document);

  if (document != self->document)
    return;
  if (self->selected_point >= (gssize) points->count)
    self->selected_point = -1;
  shepard_map_view_update_points (self->map_view, points->x, points->y, points->z, points->count);
  shepard_layer_panel_show (self->layer_panel, document);
  shepard_map_view_set_highlight (self->map_view, self->selected_point);
  if (points->count == 0)
    shepard_map_view_set_surface (self->map_view, NULL);
  update_hint (self);
  _shepard_window_recompute (self);
}

void
_shepard_window_sandbox_show_document (ShepardWindow *self)
{
  close_value_popover (self);
  shepard_map_view_set_editing (self->map_view, is_sandbox (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-points", self->document != NULL);
  if (self->document != NULL)
    g_signal_connect_object (self->document, "points-changed", G_CALLBACK (on_points_changed), self,
                             G_CONNECT_SWAPPED);
  update_hint (self);
}

static void
on_sandbox_create (ShepardWindow *self, ShepardSandboxDialog *dialog)
{
  g_autoptr (GError) error = NULL;
  double extent[4];

  shepard_sandbox_dialog_get_extent (dialog, extent);
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, shepard_sandbox_dialog_get_crs (dialog),
                                                                       &error);
  if (document == NULL)
    {
      shepard_sandbox_dialog_show_error (dialog, error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_set_object (&self->document, document);
  g_clear_pointer (&self->path, g_free);
  _shepard_window_show_document (self);
}

static void
new_sandbox_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);
  double extent[4];
  const char *crs = NULL;

  memcpy (extent, default_extent, sizeof extent);
  if (self->document != NULL)
    {
      shepard_document_get_extent (self->document, extent);
      crs = shepard_document_get_crs_definition (self->document);
    }
  ShepardSandboxDialog *dialog = shepard_sandbox_dialog_new (GTK_WINDOW (self), extent, crs);
  g_signal_connect_object (dialog, "create", G_CALLBACK (on_sandbox_create), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_save_response (GtkNativeDialog *chooser, int response, ShepardWindow *self)
{
  g_autoptr (GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      if (path == NULL)
        shepard_window_show_message (self, GTK_MESSAGE_ERROR, "Choose a local file to save the points in.");
      else if (!shepard_document_save_points (self->document, path, &error))
        {
          g_autofree char *text = g_strdup_printf ("Cannot save the points: %s", error->message);
          shepard_window_show_message (self, GTK_MESSAGE_ERROR, text);
        }
      else
        {
          g_autofree char *text = g_strdup_printf ("Saved %zu points to %s: open it again like any layer.",
                                                   shepard_document_get_points (self->document)->count, path);
          shepard_window_show_message (self, GTK_MESSAGE_INFO, text);
        }
    }
  g_object_unref (chooser);
}

static void
save_points_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);

  if (self->document == NULL)
    return;
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new ("Save Points As", GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");
  static const char *const filters[][2] = {
    { "GeoPackage (.gpkg)", "*.gpkg" },
    { "CSV (.csv)", "*.csv" },
    { "GeoJSON (.geojson)", "*.geojson" },
    { "Shapefile (.shp)", "*.shp" },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (filters); i++)
    {
      GtkFileFilter *filter = gtk_file_filter_new ();
      gtk_file_filter_set_name (filter, filters[i][0]);
      gtk_file_filter_add_pattern (filter, filters[i][1]);
      gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (chooser), filter);
      g_object_unref (filter);
    }
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser),
                                     shepard_document_is_sandbox (self->document) ? "sandbox.gpkg" : "points.gpkg");
  g_signal_connect_object (chooser, "response", G_CALLBACK (on_save_response), self, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

void
_shepard_window_sandbox_dispose (ShepardWindow *self)
{
  close_value_popover (self);
}

void
_shepard_window_class_sandbox_init (ShepardWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.new-sandbox", NULL, new_sandbox_action);
  gtk_widget_class_install_action (widget_class, "win.save-points", NULL, save_points_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_n, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.new-sandbox", NULL);
}

void
_shepard_window_sandbox_init (ShepardWindow *self)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-points", FALSE);
  g_signal_connect_object (self->map_view, "clicked", G_CALLBACK (on_map_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "point-clicked", G_CALLBACK (on_point_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "point-dragged", G_CALLBACK (on_point_dragged), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "delete-requested", G_CALLBACK (on_delete_requested), self,
                           G_CONNECT_SWAPPED);
}
