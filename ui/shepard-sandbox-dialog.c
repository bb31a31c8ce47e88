/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-sandbox-dialog.h"

#include <math.h>

struct _ShepardSandboxDialog
{
  GtkWindow parent_instance;

  GtkSpinButton *spins[4]; /* x min, y min, x max, y max */
  GtkEntry *crs_entry;
  GtkLabel *error_label;
  GtkWidget *create_button;
};

G_DEFINE_FINAL_TYPE (ShepardSandboxDialog, shepard_sandbox_dialog, GTK_TYPE_WINDOW)

enum {
  SIGNAL_CREATE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
update_create_button (ShepardSandboxDialog *self)
{
  double extent[4];

  shepard_sandbox_dialog_get_extent (self, extent);
  gboolean valid = extent[2] > extent[0] && extent[3] > extent[1];
  gtk_widget_set_sensitive (self->create_button, valid);
  if (!valid)
    shepard_sandbox_dialog_show_error (self, "The minimum must lie below the maximum on both axes.");
  else
    shepard_sandbox_dialog_show_error (self, NULL);
}

static void
on_create (ShepardSandboxDialog *self)
{
  for (int i = 0; i < 4; i++)
    gtk_spin_button_update (self->spins[i]);
  update_create_button (self);
  if (gtk_widget_get_sensitive (self->create_button))
    g_signal_emit (self, signals[SIGNAL_CREATE], 0);
}

static GtkWidget *
extent_spin (ShepardSandboxDialog *self, int which, double value)
{
  GtkWidget *spin = gtk_spin_button_new_with_range (-1e12, 1e12, 10);
  gtk_spin_button_set_digits (GTK_SPIN_BUTTON (spin), 3);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (spin), value);
  gtk_widget_set_hexpand (spin, TRUE);
  g_signal_connect_object (spin, "value-changed", G_CALLBACK (update_create_button), self, G_CONNECT_SWAPPED);
  self->spins[which] = GTK_SPIN_BUTTON (spin);
  return spin;
}

static GtkWidget *
row_label (const char *text, GtkWidget *mnemonic_widget)
{
  GtkWidget *label = gtk_label_new_with_mnemonic (text);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), mnemonic_widget);
  return label;
}

ShepardSandboxDialog *
shepard_sandbox_dialog_new (GtkWindow *parent, const double extent[4], const char *crs)
{
  ShepardSandboxDialog *self = g_object_new (SHEPARD_TYPE_SANDBOX_DIALOG, "transient-for", parent, "modal", TRUE,
                                             "title", "New Sandbox", "resizable", FALSE, NULL);
  GtkWidget *grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (grid), 8);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 12);
  gtk_widget_set_margin_start (grid, 18);
  gtk_widget_set_margin_end (grid, 18);
  gtk_widget_set_margin_top (grid, 18);
  gtk_widget_set_margin_bottom (grid, 18);

  GtkWidget *intro = gtk_label_new ("An empty map to place points on by hand: each click adds one and asks for its "
                                    "value, a drag moves one, Delete removes the selected one. The surface, the "
                                    "cross-validation and a pinned explanation follow every edit.");
  gtk_label_set_wrap (GTK_LABEL (intro), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (intro), 48);
  gtk_label_set_xalign (GTK_LABEL (intro), 0);
  gtk_grid_attach (GTK_GRID (grid), intro, 0, 0, 3, 1);

  static const char *const names[] = { "_X from", "_Y from" };
  for (int axis = 0; axis < 2; axis++)
    {
      GtkWidget *low = extent_spin (self, axis, extent[axis]);
      GtkWidget *high = extent_spin (self, axis + 2, extent[axis + 2]);
      gtk_grid_attach (GTK_GRID (grid), row_label (names[axis], low), 0, axis + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), low, 1, axis + 1, 1, 1);
      gtk_grid_attach (GTK_GRID (grid), high, 2, axis + 1, 1, 1);
      gtk_accessible_update_property (GTK_ACCESSIBLE (high), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                      axis == 0 ? "X to" : "Y to", -1);
    }
  self->crs_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->crs_entry, "none, or e.g. EPSG:28992");
  gtk_editable_set_text (GTK_EDITABLE (self->crs_entry), crs != NULL ? crs : "");
  g_signal_connect_object (self->crs_entry, "activate", G_CALLBACK (on_create), self, G_CONNECT_SWAPPED);
  gtk_grid_attach (GTK_GRID (grid), row_label ("_Coordinates", GTK_WIDGET (self->crs_entry)), 0, 3, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->crs_entry), 1, 3, 2, 1);

  self->error_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_label_set_xalign (self->error_label, 0);
  gtk_widget_add_css_class (GTK_WIDGET (self->error_label), "error");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), FALSE);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (self->error_label), 0, 4, 3, 1);

  GtkWidget *buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  GtkWidget *cancel = gtk_button_new_with_mnemonic ("_Cancel");
  g_signal_connect_object (cancel, "clicked", G_CALLBACK (gtk_window_close), self, G_CONNECT_SWAPPED);
  self->create_button = gtk_button_new_with_mnemonic ("C_reate");
  gtk_widget_add_css_class (self->create_button, "suggested-action");
  g_signal_connect_object (self->create_button, "clicked", G_CALLBACK (on_create), self, G_CONNECT_SWAPPED);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), self->create_button);
  gtk_grid_attach (GTK_GRID (grid), buttons, 0, 5, 3, 1);

  gtk_window_set_child (GTK_WINDOW (self), grid);
  gtk_window_set_default_widget (GTK_WINDOW (self), self->create_button);
  update_create_button (self);
  return self;
}

void
shepard_sandbox_dialog_get_extent (ShepardSandboxDialog *self, double extent[4])
{
  g_return_if_fail (SHEPARD_IS_SANDBOX_DIALOG (self));
  for (int i = 0; i < 4; i++)
    extent[i] = self->spins[i] != NULL ? gtk_spin_button_get_value (self->spins[i]) : 0.0;
}

const char *
shepard_sandbox_dialog_get_crs (ShepardSandboxDialog *self)
{
  g_return_val_if_fail (SHEPARD_IS_SANDBOX_DIALOG (self), NULL);
  return gtk_editable_get_text (GTK_EDITABLE (self->crs_entry));
}

void
shepard_sandbox_dialog_show_error (ShepardSandboxDialog *self, const char *message)
{
  g_return_if_fail (SHEPARD_IS_SANDBOX_DIALOG (self));
  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

static void
shepard_sandbox_dialog_class_init (ShepardSandboxDialogClass *klass)
{
  signals[SIGNAL_CREATE] = g_signal_new ("create", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 0);
  gtk_widget_class_add_binding_action (GTK_WIDGET_CLASS (klass), GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
shepard_sandbox_dialog_init (ShepardSandboxDialog *self)
{
}
