/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-export-dialog.h"

#include <math.h>
#include <string.h>

#include "grid-extent.h"
#include "shepard-app-error.h"
#include "writable-formats.h"

/* The default export cell size gives this many cells along the longer side. */
#define DEFAULT_EXPORT_CELLS 1000

/* The rows of extent_dropdown and size_dropdown, in the template's order. */
enum {
  EXTENT_DATA,
  EXTENT_VIEW,
  EXTENT_CUSTOM,
};

enum {
  SIZE_BY_RESOLUTION,
  SIZE_BY_CELLS,
};

struct _ShepardExportDialog
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkWidget *form;
  GtkEntry *path_entry;
  GtkDropDown *format_dropdown, *type_dropdown, *extent_dropdown, *size_dropdown;
  GtkWidget *extent_grid;
  GtkSpinButton *x_min_spin, *x_max_spin, *y_min_spin, *y_max_spin;
  GtkStack *size_stack;
  GtkSpinButton *resolution_spin, *width_spin, *height_spin;
  GtkLabel *size_label, *error_label;
  GtkCheckButton *alpha_check, *r_check, *r_obs_check;
  GtkDropDown *planes_dropdown;
  GtkProgressBar *progress_bar;
  GtkWidget *export_button;

  /* Owned */
  ShepardDocument *document;
  shepard_params params;
  double data_extent[4];
  GPtrArray *formats; /* of ShepardWritableFormat, in the order of format_dropdown */
  GCancellable *cancellable;
  char *report;
  gint64 started; /* monotonic time the running export began */
  char *value_path;
  char *plane_paths[3]; /* alpha, R, r_obs beside the value raster, when written so */
  ShepardGridExportPlanes extra_bands;

  /* What the map showed when the dialog opened: it is modal, so the view cannot move meanwhile. */
  double view_extent[4];
  gboolean has_view_extent;
  /* The last valid grid, to start the other size mode from. */
  shepard_grid grid;
  gboolean grid_valid;
  gboolean updating;
};

G_DEFINE_FINAL_TYPE (ShepardExportDialog, shepard_export_dialog, GTK_TYPE_WINDOW)

enum {
  SIGNAL_FINISHED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static gboolean
get_extent (ShepardExportDialog *self, double *x_min, double *y_min, double *x_max, double *y_max, GError **error)
{
  switch (gtk_drop_down_get_selected (self->extent_dropdown))
    {
    case EXTENT_VIEW:
      if (!self->has_view_extent)
        {
          g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                               "the map view had no size when this dialog opened: choose the data's extent or a "
                               "custom one");
          return FALSE;
        }
      *x_min = self->view_extent[0];
      *y_min = self->view_extent[1];
      *x_max = self->view_extent[2];
      *y_max = self->view_extent[3];
      return TRUE;
    case EXTENT_CUSTOM:
      *x_min = gtk_spin_button_get_value (self->x_min_spin);
      *y_min = gtk_spin_button_get_value (self->y_min_spin);
      *x_max = gtk_spin_button_get_value (self->x_max_spin);
      *y_max = gtk_spin_button_get_value (self->y_max_spin);
      return TRUE;
    default:
      *x_min = self->data_extent[0];
      *y_min = self->data_extent[1];
      *x_max = self->data_extent[2];
      *y_max = self->data_extent[3];
      return TRUE;
    }
}

static gboolean
compute_grid (ShepardExportDialog *self, shepard_grid *grid, GError **error)
{
  double x_min, y_min, x_max, y_max;
  size_t width, height;
  shepard_grid probe;

  /* The extent on its own first, so that a reversed one is reported as such rather than as a cell count. */
  if (!get_extent (self, &x_min, &y_min, &x_max, &y_max, error)
      || !shepard_grid_from_extent (x_min, x_max, y_min, y_max, 1, 1, &probe, error))
    return FALSE;
  if (gtk_drop_down_get_selected (self->size_dropdown) == SIZE_BY_CELLS)
    {
      width = (size_t) MAX (gtk_spin_button_get_value (self->width_spin), 0);
      height = (size_t) MAX (gtk_spin_button_get_value (self->height_spin), 0);
      return shepard_grid_from_extent (x_min, x_max, y_min, y_max, width, height, grid, error);
    }
  double resolution = gtk_spin_button_get_value (self->resolution_spin);
  if (!shepard_grid_cells_for_resolution (x_max - x_min, resolution, "x", &width, error)
      || !shepard_grid_cells_for_resolution (y_max - y_min, resolution, "y", &height, error))
    return FALSE;
  /* The cells are square: the extent grows or shrinks to whole cells from its top-left corner rather than
   * stretching them. */
  x_max = x_min + resolution * (double) width;
  y_min = y_max - resolution * (double) height;
  return shepard_grid_from_extent (x_min, x_max, y_min, y_max, width, height, grid, error);
}

static void
update_sensitivity (ShepardExportDialog *self)
{
  gboolean has_path = gtk_entry_buffer_get_length (gtk_entry_get_buffer (self->path_entry)) > 0;

  gtk_widget_set_sensitive (self->export_button, self->grid_valid && has_path && self->cancellable == NULL);
}

static void
on_grid_changed (ShepardExportDialog *self)
{
  g_autoptr (GError) error = NULL;
  shepard_grid grid;

  if (self->updating)
    return;
  self->grid_valid = compute_grid (self, &grid, &error);
  if (!self->grid_valid)
    {
      g_autofree char *text = g_strdup_printf ("Cannot export this grid: %s.", error->message);
      gtk_label_set_text (self->size_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->size_label), "error");
      gtk_widget_remove_css_class (GTK_WIDGET (self->size_label), "dim-label");
    }
  else
    {
      self->grid = grid;
      g_autofree char *text = g_strdup_printf ("%zu × %zu cells of %.6g × %.6g\nx %.2f to %.2f, y %.2f to %.2f",
                                               grid.width, grid.height, grid.dx, grid.dy, grid.x_min,
                                               grid.x_min + grid.dx * (double) grid.width,
                                               grid.y_max - grid.dy * (double) grid.height, grid.y_max);
      gtk_label_set_text (self->size_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->size_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->size_label), "dim-label");
    }
  update_sensitivity (self);
}

static void
on_extent_mode_changed (ShepardExportDialog *self)
{
  gboolean custom = gtk_drop_down_get_selected (self->extent_dropdown) == EXTENT_CUSTOM;
  double x_min, y_min, x_max, y_max;

  /* The fields show the extent a fixed choice stands for, and a custom extent starts from it. */
  if (!custom && get_extent (self, &x_min, &y_min, &x_max, &y_max, NULL))
    {
      self->updating = TRUE;
      gtk_spin_button_set_value (self->x_min_spin, x_min);
      gtk_spin_button_set_value (self->y_min_spin, y_min);
      gtk_spin_button_set_value (self->x_max_spin, x_max);
      gtk_spin_button_set_value (self->y_max_spin, y_max);
      self->updating = FALSE;
    }
  gtk_widget_set_sensitive (self->extent_grid, custom);
  on_grid_changed (self);
}

static void
on_size_mode_changed (ShepardExportDialog *self)
{
  gboolean by_cells = gtk_drop_down_get_selected (self->size_dropdown) == SIZE_BY_CELLS;

  /* The other mode starts from the grid the previous one gave. */
  if (self->grid_valid)
    {
      self->updating = TRUE;
      if (by_cells)
        {
          gtk_spin_button_set_value (self->width_spin, (double) self->grid.width);
          gtk_spin_button_set_value (self->height_spin, (double) self->grid.height);
        }
      else
        gtk_spin_button_set_value (self->resolution_spin, MAX (self->grid.dx, self->grid.dy));
      self->updating = FALSE;
    }
  gtk_stack_set_visible_child_name (self->size_stack, by_cells ? "cells" : "resolution");
  on_grid_changed (self);
}

static void
on_path_changed (ShepardExportDialog *self)
{
  update_sensitivity (self);
}

static void
on_format_changed (ShepardExportDialog *self)
{
  guint selected = gtk_drop_down_get_selected (self->format_dropdown);
  const char *extension;
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  if (selected >= self->formats->len)
    return;
  extension = ((const ShepardWritableFormat *) g_ptr_array_index (self->formats, selected))->extension;
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);
  if (extension[0] == '\0' || dot == NULL || (slash != NULL && dot < slash))
    return;
  g_autofree char *stem = g_strndup (path, (gsize) (dot - path));
  g_autofree char *renamed = g_strdup_printf ("%s.%s", stem, extension);
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), renamed);
}

static void
on_save_response (GtkNativeDialog *chooser, int response, ShepardExportDialog *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = g_file_get_path (file);
      if (path != NULL)
        gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
    }
  g_object_unref (chooser);
}

static void
on_choose_clicked (ShepardExportDialog *self)
{
  GtkFileChooserNative *chooser = gtk_file_chooser_native_new ("Export Raster", GTK_WINDOW (self),
                                                               GTK_FILE_CHOOSER_ACTION_SAVE, "_Save", "_Cancel");
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  if (path[0] != '\0')
    {
      g_autoptr (GFile) file = g_file_new_for_path (path);
      g_autoptr (GFile) folder = g_file_get_parent (file);
      g_autofree char *name = g_file_get_basename (file);
      if (folder != NULL)
        gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (chooser), folder, NULL);
      gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
    }
  g_signal_connect (chooser, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (chooser));
}

static void
set_running (ShepardExportDialog *self, gboolean running)
{
  gtk_widget_set_sensitive (self->form, !running);
  update_sensitivity (self);
  gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), running);
  gtk_progress_bar_set_fraction (self->progress_bar, 0);
}

static void
show_progress (GObject *target, double fraction)
{
  ShepardExportDialog *self = SHEPARD_EXPORT_DIALOG (target);
  g_autofree char *text = g_strdup_printf ("%.0f %%", fraction * 100.0);

  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

static void
on_export_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardExportDialog *self = user_data;
  g_autoptr (GError) error = NULL;
  gboolean written = shepard_document_export_finish (SHEPARD_DOCUMENT (source), result, &error);

  g_clear_object (&self->cancellable);
  set_running (self, FALSE);
  if (written)
    {
      double seconds = (double) (g_get_monotonic_time () - self->started) / G_USEC_PER_SEC;
      const char *engine = shepard_document_get_backend (SHEPARD_DOCUMENT (source));
      GString *written_files = g_string_new (self->value_path);
      if (self->extra_bands != 0)
        g_string_append (written_files, " (with the bands behind α)");
      for (int i = 0; i < 3; i++)
        if (self->plane_paths[i] != NULL)
          g_string_append_printf (written_files, ", %s", self->plane_paths[i]);
      g_free (self->report);
      self->report = g_strdup_printf ("Wrote %s in %.2f s on %s", written_files->str, seconds, engine);
      g_string_free (written_files, TRUE);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, TRUE);
      gtk_window_destroy (GTK_WINDOW (self));
    }
  else
    {
      gboolean cancelled = g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED);
      g_autofree char *text = cancelled ? g_strdup ("Export cancelled: nothing was written.")
                                        : g_strdup_printf ("Cannot export: %s", error->message);
      gtk_label_set_text (self->error_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, FALSE);
    }
  g_object_unref (self);
}

/* "zinc.tif" -> "zinc-alpha.tif": the raster of a plane beside the values. */
static char *
plane_path_for (const char *path, const char *plane)
{
  const char *dot = strrchr (path, '.');
  const char *slash = strrchr (path, G_DIR_SEPARATOR);

  if (dot == NULL || (slash != NULL && dot < slash))
    return g_strdup_printf ("%s-%s", path, plane);
  g_autofree char *stem = g_strndup (path, (gsize) (dot - path));
  return g_strdup_printf ("%s-%s%s", stem, plane, dot);
}

static ShepardGridExportPlanes
chosen_planes (ShepardExportDialog *self)
{
  gboolean aidw = self->params.method == SHEPARD_METHOD_AIDW;
  ShepardGridExportPlanes planes = 0;

  if (gtk_check_button_get_active (self->alpha_check))
    planes |= SHEPARD_GRID_EXPORT_ALPHA;
  if (aidw && gtk_check_button_get_active (self->r_check))
    planes |= SHEPARD_GRID_EXPORT_R;
  if (aidw && gtk_check_button_get_active (self->r_obs_check))
    planes |= SHEPARD_GRID_EXPORT_R_OBS;
  return planes;
}

static void
on_planes_changed (ShepardExportDialog *self)
{
  gtk_widget_set_sensitive (GTK_WIDGET (self->planes_dropdown), chosen_planes (self) != 0);
}

void
shepard_export_dialog_start (ShepardExportDialog *self)
{
  g_return_if_fail (SHEPARD_IS_EXPORT_DIALOG (self));

  g_autoptr (GError) error = NULL;
  shepard_grid grid;
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));
  guint format = gtk_drop_down_get_selected (self->format_dropdown);

  if (self->cancellable != NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  if (!compute_grid (self, &grid, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return;
    }
  g_free (self->value_path);
  self->value_path = g_strdup (path);
  ShepardGridExportPlanes planes = chosen_planes (self);
  gboolean beside = gtk_drop_down_get_selected (self->planes_dropdown) == 1;
  static const ShepardGridExportPlanes plane_flags[3] = { SHEPARD_GRID_EXPORT_ALPHA, SHEPARD_GRID_EXPORT_R,
                                                         SHEPARD_GRID_EXPORT_R_OBS };
  for (int i = 0; i < 3; i++)
    {
      g_clear_pointer (&self->plane_paths[i], g_free);
      if (beside && (planes & plane_flags[i]))
        self->plane_paths[i] = plane_path_for (path, shepard_grid_export_plane_name (plane_flags[i]));
    }
  self->extra_bands = beside ? 0 : planes;
  ShepardExportTarget target = {
    .value_path = self->value_path,
    .extra_bands = self->extra_bands,
    .alpha_path = self->plane_paths[0],
    .r_path = self->plane_paths[1],
    .r_obs_path = self->plane_paths[2],
    .driver_name = format < self->formats->len
                     ? ((const ShepardWritableFormat *) g_ptr_array_index (self->formats, format))->driver_name
                     : NULL,
    .sample_type = gtk_drop_down_get_selected (self->type_dropdown) == 1 ? SHEPARD_SAMPLE_FLOAT64
                                                                         : SHEPARD_SAMPLE_FLOAT32,
  };
  /* A request the format cannot hold (PNG with float bands, ...) is refused now, before any computing. */
  if (!shepard_document_check_export (self->document, &self->params, &target, &error))
    {
      gtk_label_set_text (self->error_label, error->message);
      gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
      return;
    }

  self->cancellable = g_cancellable_new ();
  self->started = g_get_monotonic_time ();
  set_running (self, TRUE);
  shepard_document_export_async (self->document, &self->params, &grid, &target, show_progress, G_OBJECT (self),
                                 self->cancellable, on_export_done, g_object_ref (self));
}

static void
on_cancel_clicked (ShepardExportDialog *self)
{
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  else
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
shepard_export_dialog_close_request (GtkWindow *window)
{
  ShepardExportDialog *self = SHEPARD_EXPORT_DIALOG (window);

  /* Closing while it writes cancels; the atomic writer leaves nothing behind. */
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  return GTK_WINDOW_CLASS (shepard_export_dialog_parent_class)->close_request (window);
}

static void
list_writable_formats (ShepardExportDialog *self)
{
  g_autoptr (GtkStringList) labels = gtk_string_list_new (NULL);

  self->formats = shepard_writable_formats_list ();
  for (guint i = 0; i < self->formats->len; i++)
    gtk_string_list_append (labels, ((const ShepardWritableFormat *) g_ptr_array_index (self->formats, i))
                                      ->description);
  gtk_drop_down_set_model (self->format_dropdown, G_LIST_MODEL (labels));
  gtk_drop_down_set_selected (self->format_dropdown, shepard_writable_formats_default (self->formats));
}

static void
shepard_export_dialog_dispose (GObject *object)
{
  ShepardExportDialog *self = SHEPARD_EXPORT_DIALOG (object);

  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  G_OBJECT_CLASS (shepard_export_dialog_parent_class)->dispose (object);
}

static void
shepard_export_dialog_finalize (GObject *object)
{
  ShepardExportDialog *self = SHEPARD_EXPORT_DIALOG (object);

  g_clear_object (&self->document);
  g_clear_object (&self->cancellable);
  g_ptr_array_unref (self->formats);
  g_free (self->report);
  g_free (self->value_path);
  for (int i = 0; i < 3; i++)
    g_free (self->plane_paths[i]);
  G_OBJECT_CLASS (shepard_export_dialog_parent_class)->finalize (object);
}

static void
shepard_export_dialog_class_init (ShepardExportDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_export_dialog_dispose;
  object_class->finalize = shepard_export_dialog_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = shepard_export_dialog_close_request;

  signals[SIGNAL_FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-export-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, form);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, path_entry);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, format_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, type_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, extent_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, extent_grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, x_min_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, x_max_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, y_min_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, y_max_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, size_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, size_stack);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, resolution_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, width_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, height_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, size_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, error_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, alpha_check);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, r_check);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, r_obs_check);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, planes_dropdown);
  gtk_widget_class_bind_template_callback (widget_class, on_planes_changed);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, shepard_export_dialog_start);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_choose_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_path_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_grid_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
shepard_export_dialog_init (ShepardExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  list_writable_formats (self);
  g_signal_connect_swapped (self->format_dropdown, "notify::selected", G_CALLBACK (on_format_changed), self);
  /* Connected after the template is built: its dropdowns' initial selection has no extent to show yet. */
  g_signal_connect_swapped (self->extent_dropdown, "notify::selected", G_CALLBACK (on_extent_mode_changed), self);
  g_signal_connect_swapped (self->size_dropdown, "notify::selected", G_CALLBACK (on_size_mode_changed), self);
}

ShepardExportDialog *
shepard_export_dialog_new (GtkWindow *parent, ShepardDocument *document, const shepard_params *params,
                           const double *visible_extent)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (params != NULL, NULL);

  ShepardExportDialog *self = g_object_new (SHEPARD_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  const ShepardPointLayer *points = shepard_document_get_points (document);

  self->document = g_object_ref (document);
  self->params = *params;
  shepard_document_get_extent (document, self->data_extent);
  self->has_view_extent = visible_extent != NULL;
  if (visible_extent != NULL)
    memcpy (self->view_extent, visible_extent, sizeof self->view_extent);
  /* A round cell size near DEFAULT_EXPORT_CELLS cells along the longer side. */
  double cell = MAX (self->data_extent[2] - self->data_extent[0], self->data_extent[3] - self->data_extent[1])
                / DEFAULT_EXPORT_CELLS;
  double magnitude = pow (10, floor (log10 (cell)));
  self->updating = TRUE;
  gtk_spin_button_set_value (self->resolution_spin, ceil (cell / magnitude) * magnitude);
  self->updating = FALSE;
  on_extent_mode_changed (self);

  g_autofree char *folder = g_path_get_dirname (points->source);
  g_autofree char *base = g_path_get_basename (points->source);
  char *dot = strrchr (base, '.');
  if (dot != NULL)
    *dot = '\0';
  g_autofree char *name = g_strdup_printf ("%s-%s-%s.tif", base, points->field_name,
                                           params->method == SHEPARD_METHOD_AIDW ? "aidw" : "idw");
  g_autofree char *path = g_build_filename (folder, name, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
  /* IDW's power is one number: a raster of it says nothing; R and r_obs exist for AIDW only. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->alpha_check), params->method == SHEPARD_METHOD_AIDW);
  gtk_widget_set_sensitive (GTK_WIDGET (self->r_check), params->method == SHEPARD_METHOD_AIDW);
  gtk_widget_set_sensitive (GTK_WIDGET (self->r_obs_check), params->method == SHEPARD_METHOD_AIDW);
  return self;
}

const char *
shepard_export_dialog_get_report (ShepardExportDialog *self)
{
  g_return_val_if_fail (SHEPARD_IS_EXPORT_DIALOG (self), NULL);
  return self->report;
}

void
shepard_export_dialog_set_path (ShepardExportDialog *self, const char *path)
{
  g_return_if_fail (SHEPARD_IS_EXPORT_DIALOG (self));
  g_return_if_fail (path != NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
}
