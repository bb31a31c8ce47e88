/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The export dialog's fields: one check box per numeric field of the layer, the field shown on the map checked. */
#include "shepard-export-dialog-private.h"

static void
on_field_toggled (ShepardExportDialog *self)
{
  g_auto (GStrv) fields = _shepard_export_dialog_chosen_fields (self);

  /* At least one field: the last one checked cannot be unchecked. */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->fields_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row)));
      gtk_widget_set_sensitive (GTK_WIDGET (check), !(g_strv_length (fields) == 1
                                                      && gtk_check_button_get_active (check)));
    }
}

void
_shepard_export_dialog_fill_fields (ShepardExportDialog *self)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  const char *const *fields = shepard_document_get_numeric_fields (self->document);
  const char *const only[] = { points->field_name, NULL };

  /* A sandbox has its one field. */
  if (fields == NULL || fields[0] == NULL)
    fields = only;
  for (guint i = 0; fields[i] != NULL; i++)
    {
      GtkWidget *check = gtk_check_button_new_with_label (fields[i]);
      gtk_check_button_set_active (GTK_CHECK_BUTTON (check), g_strcmp0 (fields[i], points->field_name) == 0);
      g_signal_connect_object (check, "toggled", G_CALLBACK (on_field_toggled), self, G_CONNECT_SWAPPED);
      gtk_list_box_append (self->fields_list, check);
    }
  on_field_toggled (self);
}

char **
_shepard_export_dialog_chosen_fields (ShepardExportDialog *self)
{
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->fields_list)); row != NULL;
       row = gtk_widget_get_next_sibling (row))
    {
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row)));
      if (gtk_check_button_get_active (check))
        g_strv_builder_add (builder, gtk_check_button_get_label (check));
    }
  return g_strv_builder_end (builder);
}
