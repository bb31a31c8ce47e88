/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-preferences-dialog.h"

#include "shepard-engine.h"

#define GPUS_KEY "gpus"

struct _ShepardPreferencesDialog
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkWidget *gpus_group;
  GtkLabel *gpus_note;
  GtkCheckButton *all_gpus_check;
  GtkWidget *gpu_list;

  /* Owned */
  GSettings *settings;
  GPtrArray *gpu_checks; /* GtkCheckButton of each GPU by device number (children of gpu_list) */
  gboolean showing;      /* the checks follow the settings: their toggles are no choice of the user's */
};

G_DEFINE_FINAL_TYPE (ShepardPreferencesDialog, shepard_preferences_dialog, GTK_TYPE_WINDOW)

static GtkCheckButton *
gpu_check (ShepardPreferencesDialog *self, guint ordinal)
{
  return g_ptr_array_index (self->gpu_checks, ordinal);
}

/* The key's choice; text that names no GPUs reads as every GPU, as the window then reports. */
static void
read_choice (ShepardPreferencesDialog *self, shepard_gpu_set *set)
{
  g_autofree char *text = g_settings_get_string (self->settings, GPUS_KEY);

  if (shepard_gpu_set_parse (text, set, NULL) != SHEPARD_OK)
    set->count = 0;
}

static gboolean
set_contains (const shepard_gpu_set *set, int ordinal)
{
  for (size_t i = 0; i < set->count; i++)
    if (set->ordinals[i] == ordinal)
      return TRUE;
  return FALSE;
}

static void
show_choice (ShepardPreferencesDialog *self)
{
  shepard_gpu_set set;
  guint checked = 0;

  read_choice (self, &set);
  gboolean all = set.count == 0;
  self->showing = TRUE;
  gtk_check_button_set_active (self->all_gpus_check, all);
  for (guint ordinal = 0; ordinal < self->gpu_checks->len; ordinal++)
    {
      gboolean active = all || set_contains (&set, (int) ordinal);
      gtk_check_button_set_active (gpu_check (self, ordinal), active);
      checked += active ? 1 : 0;
    }
  /* The last GPU checked stays: a choice of none would name no device. */
  for (guint ordinal = 0; ordinal < self->gpu_checks->len; ordinal++)
    {
      GtkCheckButton *check = gpu_check (self, ordinal);
      gtk_widget_set_sensitive (GTK_WIDGET (check),
                                !all && !(checked == 1 && gtk_check_button_get_active (check)));
    }
  self->showing = FALSE;
}

static void
store_choice (ShepardPreferencesDialog *self, const shepard_gpu_set *set)
{
  char text[SHEPARD_MAX_GPUS * 8];

  shepard_gpu_set_format (set, text, sizeof text);
  g_settings_set_string (self->settings, GPUS_KEY, text);
  show_choice (self);
}

static void
on_all_gpus_toggled (ShepardPreferencesDialog *self)
{
  shepard_gpu_set set = { 0 };

  if (self->showing)
    return;
  /* Off: every GPU checked one by one, for the user to take some away. */
  if (!gtk_check_button_get_active (self->all_gpus_check))
    for (guint ordinal = 0; ordinal < self->gpu_checks->len && ordinal < SHEPARD_MAX_GPUS; ordinal++)
      set.ordinals[set.count++] = (int) ordinal;
  store_choice (self, &set);
}

static void
on_gpu_toggled (ShepardPreferencesDialog *self)
{
  shepard_gpu_set set = { 0 };

  if (self->showing)
    return;
  for (guint ordinal = 0; ordinal < self->gpu_checks->len && ordinal < SHEPARD_MAX_GPUS; ordinal++)
    if (gtk_check_button_get_active (gpu_check (self, ordinal)))
      set.ordinals[set.count++] = (int) ordinal;
  if (set.count == 0)
    show_choice (self);
  else
    store_choice (self, &set);
}

static void
shepard_preferences_dialog_finalize (GObject *object)
{
  ShepardPreferencesDialog *self = SHEPARD_PREFERENCES_DIALOG (object);

  g_clear_object (&self->settings);
  g_clear_pointer (&self->gpu_checks, g_ptr_array_unref);
  G_OBJECT_CLASS (shepard_preferences_dialog_parent_class)->finalize (object);
}

static void
shepard_preferences_dialog_class_init (ShepardPreferencesDialogClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = shepard_preferences_dialog_finalize;
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-preferences-dialog.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardPreferencesDialog, gpus_group);
  gtk_widget_class_bind_template_child (widget_class, ShepardPreferencesDialog, gpus_note);
  gtk_widget_class_bind_template_child (widget_class, ShepardPreferencesDialog, all_gpus_check);
  gtk_widget_class_bind_template_child (widget_class, ShepardPreferencesDialog, gpu_list);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
shepard_preferences_dialog_init (ShepardPreferencesDialog *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->gpu_checks = g_ptr_array_new ();
}

ShepardPreferencesDialog *
shepard_preferences_dialog_new (GtkWindow *parent, GSettings *settings, const char *const *gpu_names)
{
  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  ShepardPreferencesDialog *self = g_object_new (SHEPARD_TYPE_PREFERENCES_DIALOG, "transient-for", parent, NULL);
  self->settings = g_object_ref (settings);
  for (guint ordinal = 0; gpu_names != NULL && gpu_names[ordinal] != NULL; ordinal++)
    {
      g_autofree char *label = g_strdup_printf ("GPU %u: %s", ordinal, gpu_names[ordinal]);
      GtkWidget *check = gtk_check_button_new_with_label (label);
      g_signal_connect_object (check, "toggled", G_CALLBACK (on_gpu_toggled), self, G_CONNECT_SWAPPED);
      gtk_box_append (GTK_BOX (self->gpu_list), check);
      g_ptr_array_add (self->gpu_checks, check);
    }
  if (self->gpu_checks->len == 0)
    {
      gtk_label_set_text (self->gpus_note, "No CUDA GPU found: Shepard runs on the CPU.");
      gtk_widget_set_sensitive (self->gpus_group, FALSE);
    }
  else
    gtk_label_set_text (self->gpus_note, "Interpolations, exports and cross-validations are shared among the GPUs "
                                         "chosen. The live preview runs on the first of them.");
  g_signal_connect_object (self->all_gpus_check, "toggled", G_CALLBACK (on_all_gpus_toggled), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (settings, "changed::" GPUS_KEY, G_CALLBACK (show_choice), self, G_CONNECT_SWAPPED);
  show_choice (self);
  return self;
}
