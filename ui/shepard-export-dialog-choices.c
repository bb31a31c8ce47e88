/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the export dialog remembers between exports (GSettings): the folder, the format and its options, the extra
 * bands and the margin; and where a first export goes. */
#include "shepard-export-dialog-private.h"

/* Where a new export goes: the folder of the last one, else the documents folder, else home; never beside the
 * input, which may be a folder the user cannot or would not write to. */
char *
_shepard_export_dialog_default_folder (GSettings *settings)
{
  g_autofree char *last = settings != NULL ? g_settings_get_string (settings, "export-folder") : NULL;
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);

  if (last != NULL && last[0] != '\0' && g_file_test (last, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&last);
  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    return g_strdup (documents);
  return g_strdup (g_get_home_dir ());
}

void
_shepard_export_dialog_remember_choices (ShepardExportDialog *self)
{
  if (self->settings == NULL)
    return;

  g_autofree char *folder = g_path_get_dirname (self->value_path);
  g_autofree char *absolute = g_canonicalize_filename (folder, NULL);
  const char *driver = _shepard_export_dialog_chosen_driver (self);
  g_autoptr (GStrvBuilder) bands = g_strv_builder_new ();
  if (gtk_check_button_get_active (self->alpha_check))
    g_strv_builder_add (bands, "alpha");
  if (gtk_check_button_get_active (self->r_check))
    g_strv_builder_add (bands, "r");
  if (gtk_check_button_get_active (self->r_obs_check))
    g_strv_builder_add (bands, "robs");
  g_auto (GStrv) band_names = g_strv_builder_end (bands);

  g_settings_delay (self->settings);
  g_settings_set_string (self->settings, "export-folder", absolute);
  g_settings_set_string (self->settings, "export-format", driver != NULL ? driver : SHEPARD_RASTER_DEFAULT_DRIVER);
  g_settings_set_boolean (self->settings, "export-float64", _shepard_export_dialog_chosen_sample_type (self) == SHEPARD_SAMPLE_FLOAT64);
  g_settings_set_string (self->settings, "export-creation-options",
                         gtk_editable_get_text (GTK_EDITABLE (self->options_entry)));
  g_settings_set_strv (self->settings, "export-extra-bands", (const char *const *) band_names);
  g_settings_set_boolean (self->settings, "export-planes-beside",
                          gtk_drop_down_get_selected (self->planes_dropdown) == 1);
  g_settings_set_double (self->settings, "export-margin", gtk_spin_button_get_value (self->margin_spin));
  g_settings_apply (self->settings);
}

void
_shepard_export_dialog_restore_choices (ShepardExportDialog *self)
{
  g_autofree char *driver = g_settings_get_string (self->settings, "export-format");
  g_autofree char *options = g_settings_get_string (self->settings, "export-creation-options");
  g_auto (GStrv) bands = g_settings_get_strv (self->settings, "export-extra-bands");

  for (guint i = 0; i < self->formats->len; i++)
    if (g_strcmp0 (((const ShepardWritableFormat *) g_ptr_array_index (self->formats, i))->driver_name, driver) == 0)
      gtk_drop_down_set_selected (self->format_dropdown, i);
  gtk_drop_down_set_selected (self->type_dropdown, g_settings_get_boolean (self->settings, "export-float64") ? 1 : 0);
  gtk_editable_set_text (GTK_EDITABLE (self->options_entry), options);
  gtk_check_button_set_active (self->alpha_check, g_strv_contains ((const char *const *) bands, "alpha"));
  gtk_check_button_set_active (self->r_check, g_strv_contains ((const char *const *) bands, "r"));
  gtk_check_button_set_active (self->r_obs_check, g_strv_contains ((const char *const *) bands, "robs"));
  gtk_drop_down_set_selected (self->planes_dropdown,
                              g_settings_get_boolean (self->settings, "export-planes-beside") ? 1 : 0);
  gtk_spin_button_set_value (self->margin_spin, g_settings_get_double (self->settings, "export-margin"));
}
