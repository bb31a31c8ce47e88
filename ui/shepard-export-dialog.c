/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-export-dialog-private.h"

#include <math.h>
#include <string.h>

#include "export-extent.h"
#include "grid-extent.h"
#include "method-spec.h"
#include "shepard-app-error.h"
#include "writable-formats.h"

/* The default export cell size gives this many cells along the longer side. */
#define DEFAULT_EXPORT_CELLS 1000

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
      {
        double extent[4];
        if (!shepard_export_extent (self->data_bounds, gtk_spin_button_get_value (self->margin_spin), extent, error))
          return FALSE;
        *x_min = extent[0];
        *y_min = extent[1];
        *x_max = extent[2];
        *y_max = extent[3];
        return TRUE;
      }
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

  gtk_widget_set_sensitive (self->export_button,
                            self->grid_valid && self->options_valid && has_path && self->cancellable == NULL);
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
      const double corners[4] = { grid.x_min, grid.x_min + grid.dx * (double) grid.width,
                                  grid.y_max - grid.dy * (double) grid.height, grid.y_max };
      int decimals = shepard_export_decimals (corners, G_N_ELEMENTS (corners), MIN (grid.dx, grid.dy));
      g_autofree char *text = g_strdup_printf ("%zu × %zu cells of %.6g × %.6g\nx %.*f to %.*f, y %.*f to %.*f",
                                               grid.width, grid.height, grid.dx, grid.dy, decimals, corners[0],
                                               decimals, corners[1], decimals, corners[2], decimals, corners[3]);
      gtk_label_set_text (self->size_label, text);
      gtk_widget_remove_css_class (GTK_WIDGET (self->size_label), "error");
      gtk_widget_add_css_class (GTK_WIDGET (self->size_label), "dim-label");
    }
  update_sensitivity (self);
}

static void
set_extent_digits (ShepardExportDialog *self, int decimals)
{
  GtkSpinButton *spins[] = { self->x_min_spin, self->y_min_spin, self->x_max_spin, self->y_max_spin };

  for (size_t i = 0; i < G_N_ELEMENTS (spins); i++)
    gtk_spin_button_set_digits (spins[i], (guint) decimals);
}

static void
on_extent_mode_changed (ShepardExportDialog *self)
{
  guint mode = gtk_drop_down_get_selected (self->extent_dropdown);
  double x_min, y_min, x_max, y_max;

  on_grid_changed (self);
  gtk_widget_set_sensitive (self->margin_caption, mode == EXTENT_DATA);
  gtk_widget_set_sensitive (self->margin_box, mode == EXTENT_DATA);
  gtk_widget_set_sensitive (self->extent_grid, mode == EXTENT_CUSTOM);
  /* The fields show the extent a fixed choice stands for, to the cell size's decimals, and a custom extent starts
   * from it. */
  if (mode != EXTENT_CUSTOM && get_extent (self, &x_min, &y_min, &x_max, &y_max, NULL))
    {
      self->updating = TRUE;
      const double corners[4] = { x_min, y_min, x_max, y_max };
      if (self->grid_valid)
        set_extent_digits (self, shepard_export_decimals (corners, G_N_ELEMENTS (corners),
                                                          MIN (self->grid.dx, self->grid.dy)));
      gtk_spin_button_set_value (self->x_min_spin, x_min);
      gtk_spin_button_set_value (self->y_min_spin, y_min);
      gtk_spin_button_set_value (self->x_max_spin, x_max);
      gtk_spin_button_set_value (self->y_max_spin, y_max);
      self->updating = FALSE;
    }
}

static void
on_margin_changed (ShepardExportDialog *self)
{
  if (!self->updating)
    on_extent_mode_changed (self);
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

const char *
_shepard_export_dialog_chosen_driver (ShepardExportDialog *self)
{
  guint selected = gtk_drop_down_get_selected (self->format_dropdown);

  return selected < self->formats->len
           ? ((const ShepardWritableFormat *) g_ptr_array_index (self->formats, selected))->driver_name
           : NULL;
}

ShepardSampleType
_shepard_export_dialog_chosen_sample_type (ShepardExportDialog *self)
{
  return gtk_drop_down_get_selected (self->type_dropdown) == 1 ? SHEPARD_SAMPLE_FLOAT64 : SHEPARD_SAMPLE_FLOAT32;
}

/* Checks the entry's creation options with GDAL (GDALValidateCreationOptions) together with the format's defaults,
 * as the export will write them, and says at once what is wrong. */
static void
on_options_changed (ShepardExportDialog *self)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) options = shepard_raster_creation_options_parse (
    gtk_editable_get_text (GTK_EDITABLE (self->options_entry)), &error);

  if (options != NULL)
    {
      ShepardRasterFormat format = {
        .driver_name = _shepard_export_dialog_chosen_driver (self),
        .data_type = _shepard_export_dialog_chosen_sample_type (self) == SHEPARD_SAMPLE_FLOAT64 ? GDT_Float64 : GDT_Float32,
        .creation_options = (const char *const *) options,
      };
      g_auto (GStrv) written = shepard_raster_format_creation_options (&format);
      format.creation_options = (const char *const *) written;
      if (shepard_raster_format_find_driver (&format, &error) == NULL)
        g_clear_pointer (&options, g_strfreev);
    }
  self->options_valid = options != NULL;
  g_strfreev (self->creation_options);
  self->creation_options = g_steal_pointer (&options);
  if (error != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%c%s.", g_ascii_toupper (error->message[0]), error->message + 1);
      gtk_label_set_text (self->options_label, text);
      gtk_widget_add_css_class (GTK_WIDGET (self->options_entry), "error");
    }
  else
    gtk_widget_remove_css_class (GTK_WIDGET (self->options_entry), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->options_label), error != NULL);
  update_sensitivity (self);
}

/* The placeholder names the defaults the chosen format is written with when the entry leaves them out. */
static void
show_default_options (ShepardExportDialog *self)
{
  ShepardRasterFormat format = { .driver_name = _shepard_export_dialog_chosen_driver (self) };
  g_auto (GStrv) defaults = shepard_raster_format_creation_options (&format);
  g_autofree char *joined = g_strjoinv (" ", defaults);
  g_autofree char *placeholder = defaults[0] != NULL ? g_strdup_printf ("Default: %s", joined)
                                                     : g_strdup ("NAME=VALUE, separated by spaces");

  gtk_entry_set_placeholder_text (self->options_entry, placeholder);
  /* The entry is narrower than some formats' defaults: the tooltip shows them whole. */
  g_autofree char *tooltip = g_strdup_printf (
      "GDAL creation options of the format, NAME=VALUE separated by spaces (gdalinfo --format NAME lists them); the "
      "format's defaults apply to the keys not given here.%s%s",
      defaults[0] != NULL ? "\n" : "", defaults[0] != NULL ? placeholder : "");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->options_entry), tooltip);
}

static void
on_format_changed (ShepardExportDialog *self)
{
  guint selected = gtk_drop_down_get_selected (self->format_dropdown);
  const char *extension;
  const char *path = gtk_editable_get_text (GTK_EDITABLE (self->path_entry));

  show_default_options (self);
  on_options_changed (self);
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
show_error (ShepardExportDialog *self, const char *message)
{
  g_autofree char *text = g_strdup_printf ("Cannot export: %s", message);

  gtk_label_set_text (self->error_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->error_label), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
}

static void
show_notice (ShepardExportDialog *self, const char *text)
{
  gtk_label_set_text (self->error_label, text);
  gtk_widget_remove_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "dim-label");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), TRUE);
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
      _shepard_export_dialog_remember_choices (self);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, TRUE);
      gtk_window_destroy (GTK_WINDOW (self));
    }
  else
    {
      /* The user asked for it: a cancel is news, not an error. */
      if (g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED))
        show_notice (self, "Export cancelled: nothing was written.");
      else
        show_error (self, error->message);
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

  if (self->cancellable != NULL)
    return;
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  if (!self->options_valid)
    {
      show_error (self, gtk_label_get_text (self->options_label));
      return;
    }
  if (!compute_grid (self, &grid, &error))
    {
      show_error (self, error->message);
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
  shepard_params engine_params;
  shepard_document_get_engine_params (self->document, &self->params, &engine_params);
  g_autofree char *method = shepard_method_spec_format (&engine_params);
  g_auto (GStrv) fields = _shepard_export_dialog_chosen_fields (self);
  ShepardExportTarget target = {
    .value_path = self->value_path,
    .extra_bands = self->extra_bands,
    .alpha_path = self->plane_paths[0],
    .r_path = self->plane_paths[1],
    .r_obs_path = self->plane_paths[2],
    .driver_name = _shepard_export_dialog_chosen_driver (self),
    .sample_type = _shepard_export_dialog_chosen_sample_type (self),
    .creation_options = (const char *const *) self->creation_options,
    .method = method,
    .fields = (const char *const *) fields,
  };
  /* A request the format cannot hold (PNG with float bands, ...) is refused now, before any computing. */
  if (!shepard_document_check_export (self->document, &self->params, &target, &error))
    {
      show_error (self, error->message);
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
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);
  g_strfreev (self->creation_options);
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
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, options_entry);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, options_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, margin_caption);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, margin_box);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, margin_spin);
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
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, fields_list);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, ShepardExportDialog, export_button);
  gtk_widget_class_bind_template_callback (widget_class, shepard_export_dialog_start);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_choose_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_path_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_grid_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_margin_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_options_changed);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
shepard_export_dialog_init (ShepardExportDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  list_writable_formats (self);
  g_signal_connect_swapped (self->format_dropdown, "notify::selected", G_CALLBACK (on_format_changed), self);
  g_signal_connect_swapped (self->type_dropdown, "notify::selected", G_CALLBACK (on_options_changed), self);
  /* Connected after the template is built: its dropdowns' initial selection has no extent to show yet. */
  g_signal_connect_swapped (self->extent_dropdown, "notify::selected", G_CALLBACK (on_extent_mode_changed), self);
  g_signal_connect_swapped (self->size_dropdown, "notify::selected", G_CALLBACK (on_size_mode_changed), self);
}

ShepardExportDialog *
shepard_export_dialog_new (GtkWindow *parent, ShepardDocument *document, const shepard_params *params,
                           const double *visible_extent, GSettings *settings)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (params != NULL, NULL);
  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  ShepardExportDialog *self = g_object_new (SHEPARD_TYPE_EXPORT_DIALOG, "transient-for", parent, NULL);
  const ShepardPointLayer *points = shepard_document_get_points (document);
  double *bounds = self->data_bounds;

  self->document = g_object_ref (document);
  self->params = *params;
  self->settings = settings != NULL ? g_object_ref (settings) : NULL;
  shepard_document_get_bounds (document, &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
  self->has_view_extent = visible_extent != NULL;
  if (visible_extent != NULL)
    memcpy (self->view_extent, visible_extent, sizeof self->view_extent);
  /* A round cell size near DEFAULT_EXPORT_CELLS cells along the longer side (one map unit for points in a spot). */
  double cell = MAX (bounds[2] - bounds[0], bounds[3] - bounds[1]) / DEFAULT_EXPORT_CELLS;
  double magnitude = cell > 0.0 ? pow (10, floor (log10 (cell))) : 1.0;
  _shepard_export_dialog_fill_fields (self);
  self->updating = TRUE;
  gtk_spin_button_set_value (self->resolution_spin, cell > 0.0 ? ceil (cell / magnitude) * magnitude : 1.0);
  if (self->settings != NULL)
    _shepard_export_dialog_restore_choices (self);
  self->updating = FALSE;
  on_extent_mode_changed (self);
  on_planes_changed (self);

  g_autofree char *folder = _shepard_export_dialog_default_folder (self->settings);
  g_autofree char *base = g_path_get_basename (points->source != NULL ? points->source : points->layer_name);
  char *dot = strrchr (base, '.');
  if (dot != NULL)
    *dot = '\0';
  guint format = gtk_drop_down_get_selected (self->format_dropdown);
  const char *extension = format < self->formats->len
                            ? ((const ShepardWritableFormat *) g_ptr_array_index (self->formats, format))->extension
                            : "tif";
  g_autofree char *name = g_strdup_printf ("%s-%s-%s.%s", base, points->field_name,
                                           params->method == SHEPARD_METHOD_AIDW ? "aidw" : "idw", extension);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  gtk_editable_set_text (GTK_EDITABLE (self->path_entry), path);
  show_default_options (self);
  on_options_changed (self);
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
