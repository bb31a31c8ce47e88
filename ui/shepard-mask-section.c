/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-mask-section.h"

#include <math.h>

#include "shepard-change-batch.h"
#include "shepard-label-column.h"
#include "shepard-spin-entry.h"

struct _ShepardMaskSection
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid;
  GtkDropDown *kind_dropdown;
  GtkWidget *distance_label, *distance_box;
  GtkSpinButton *distance_spin;
  GtkLabel *distance_unit;
  GtkWidget *cutline_label, *cutline_button, *cutline_layer_label;
  GtkLabel *cutline_file_label;
  GtkEntry *cutline_layer_entry;
  GtkLabel *error_label;

  /* Owned */
  char *cutline_path;  /* NULL until a file is chosen */
  char *cutline_layer; /* NULL: the first layer */
  GSettings *settings;
  GtkFileChooserNative *chooser;
  ShepardChangeBatch batch;
};

G_DEFINE_FINAL_TYPE (ShepardMaskSection, shepard_mask_section, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_mask_section_new (void)
{
  return g_object_new (SHEPARD_TYPE_MASK_SECTION, NULL);
}

static void
update_rows (ShepardMaskSection *self)
{
  guint kind = gtk_drop_down_get_selected (self->kind_dropdown);

  gtk_widget_set_visible (self->distance_label, kind == SHEPARD_MASK_DISTANCE);
  gtk_widget_set_visible (self->distance_box, kind == SHEPARD_MASK_DISTANCE);
  gtk_widget_set_visible (self->cutline_label, kind == SHEPARD_MASK_CUTLINE);
  gtk_widget_set_visible (self->cutline_button, kind == SHEPARD_MASK_CUTLINE);
  gtk_widget_set_visible (self->cutline_layer_label, kind == SHEPARD_MASK_CUTLINE);
  gtk_widget_set_visible (GTK_WIDGET (self->cutline_layer_entry), kind == SHEPARD_MASK_CUTLINE);
}

void
shepard_mask_section_set_error (ShepardMaskSection *self, const char *message)
{
  g_return_if_fail (SHEPARD_IS_MASK_SECTION (self));

  gtk_label_set_text (self->error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (self->error_label), message != NULL);
}

const char *
shepard_mask_section_get_error (ShepardMaskSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_MASK_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->error_label)) ? gtk_label_get_text (self->error_label) : NULL;
}

static void
show_cutline_file (ShepardMaskSection *self)
{
  g_autofree char *name = self->cutline_path != NULL ? g_path_get_basename (self->cutline_path) : NULL;

  gtk_label_set_text (self->cutline_file_label, name != NULL ? name : "Choose…");
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->cutline_file_label), self->cutline_path);
}

static void
on_kind_changed (ShepardMaskSection *self)
{
  update_rows (self);
  shepard_mask_section_set_error (self, NULL);
  shepard_change_batch_note (&self->batch);
}

static void
on_distance_changed (ShepardMaskSection *self)
{
  shepard_mask_section_set_error (self, NULL);
  if (gtk_drop_down_get_selected (self->kind_dropdown) == SHEPARD_MASK_DISTANCE)
    shepard_change_batch_note (&self->batch);
}

static int
on_spin_input (ShepardMaskSection *self, double *new_value, GtkSpinButton *spin_button)
{
  g_autofree char *message = NULL;
  double value = 0.0;

  if (!shepard_spin_entry_read (spin_button, &value, &message))
    {
      shepard_mask_section_set_error (self, message);
      return GTK_INPUT_ERROR;
    }
  *new_value = value;
  return TRUE;
}

/* Only a chosen cutline changes the mask: without a file, Cutline reads as None. */
static void
set_cutline (ShepardMaskSection *self, const char *path, const char *layer)
{
  if (layer != NULL && layer[0] == '\0')
    layer = NULL;
  if (g_strcmp0 (path, self->cutline_path) == 0 && g_strcmp0 (layer, self->cutline_layer) == 0)
    return;
  /* path and layer may be the section's own strings (the layer entry passes cutline_path back): copy, then free. */
  char *new_path = g_strdup (path), *new_layer = g_strdup (layer);
  g_free (self->cutline_path);
  g_free (self->cutline_layer);
  self->cutline_path = new_path;
  self->cutline_layer = new_layer;
  path = new_path;
  layer = new_layer;
  show_cutline_file (self);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->cutline_layer_entry)), layer != NULL ? layer : "") != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->cutline_layer_entry), layer != NULL ? layer : "");
  if (self->settings != NULL)
    {
      g_settings_set_string (self->settings, "cutline", path != NULL ? path : "");
      g_settings_set_string (self->settings, "cutline-layer", layer != NULL ? layer : "");
    }
  shepard_mask_section_set_error (self, NULL);
  if (gtk_drop_down_get_selected (self->kind_dropdown) == SHEPARD_MASK_CUTLINE)
    shepard_change_batch_note (&self->batch);
}

static void
on_cutline_layer_activate (ShepardMaskSection *self)
{
  set_cutline (self, self->cutline_path, gtk_editable_get_text (GTK_EDITABLE (self->cutline_layer_entry)));
}

static void
on_chooser_response (ShepardMaskSection *self, int response, GtkFileChooserNative *chooser)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      if (path != NULL)
        set_cutline (self, path, NULL);
    }
  g_clear_object (&self->chooser);
}

static void
on_cutline_clicked (ShepardMaskSection *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (self->chooser != NULL)
    return;
  self->chooser = gtk_file_chooser_native_new ("Choose a Cutline", GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_OPEN, "_Choose", "_Cancel");
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (on_chooser_response), self, G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

ShepardMaskKind
shepard_mask_section_get_kind (ShepardMaskSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_MASK_SECTION (self), SHEPARD_MASK_NONE);

  ShepardMaskKind kind = gtk_drop_down_get_selected (self->kind_dropdown);
  if (kind > SHEPARD_MASK_CUTLINE || (kind == SHEPARD_MASK_CUTLINE && self->cutline_path == NULL))
    return SHEPARD_MASK_NONE;
  return kind;
}

double
shepard_mask_section_get_distance (ShepardMaskSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_MASK_SECTION (self), 0.0);
  return gtk_spin_button_get_value (self->distance_spin);
}

const char *
shepard_mask_section_get_cutline_path (ShepardMaskSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_MASK_SECTION (self), NULL);
  return self->cutline_path;
}

const char *
shepard_mask_section_get_cutline_layer (ShepardMaskSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_MASK_SECTION (self), NULL);
  return self->cutline_layer;
}

void
shepard_mask_section_set_mask (ShepardMaskSection *self, ShepardMaskKind kind, double distance,
                               const char *cutline_path, const char *cutline_layer)
{
  g_return_if_fail (SHEPARD_IS_MASK_SECTION (self));
  g_return_if_fail (kind <= SHEPARD_MASK_CUTLINE);

  shepard_change_batch_begin (&self->batch);
  if (kind == SHEPARD_MASK_DISTANCE)
    gtk_spin_button_set_value (self->distance_spin, distance);
  if (kind == SHEPARD_MASK_CUTLINE)
    set_cutline (self, cutline_path, cutline_layer);
  gtk_drop_down_set_selected (self->kind_dropdown, kind);
  shepard_change_batch_end (&self->batch);
}

void
shepard_mask_section_set_units (ShepardMaskSection *self, const char *unit, double extent_size)
{
  g_return_if_fail (SHEPARD_IS_MASK_SECTION (self));
  g_return_if_fail (unit != NULL);

  gtk_label_set_text (self->distance_unit, unit);
  if (!(extent_size > 0.0) || !isfinite (extent_size))
    return;
  shepard_spin_entry_fit_distance (self->distance_spin, extent_size);
}

void
shepard_mask_section_bind_settings (ShepardMaskSection *self, GSettings *settings)
{
  g_return_if_fail (SHEPARD_IS_MASK_SECTION (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  g_autofree char *path = g_settings_get_string (settings, "cutline");
  g_autofree char *layer = g_settings_get_string (settings, "cutline-layer");
  shepard_change_batch_begin (&self->batch);
  set_cutline (self, path[0] != '\0' ? path : NULL, layer);
  g_set_object (&self->settings, settings);
  g_settings_bind (settings, "mask-distance", gtk_spin_button_get_adjustment (self->distance_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "mask", self->kind_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  shepard_change_batch_end (&self->batch);
}

void
shepard_mask_section_align_labels (ShepardMaskSection *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_MASK_SECTION (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
}

static void
shepard_mask_section_dispose (GObject *object)
{
  ShepardMaskSection *self = SHEPARD_MASK_SECTION (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_MASK_SECTION);
  G_OBJECT_CLASS (shepard_mask_section_parent_class)->dispose (object);
}

static void
shepard_mask_section_finalize (GObject *object)
{
  ShepardMaskSection *self = SHEPARD_MASK_SECTION (object);

  g_free (self->cutline_path);
  g_free (self->cutline_layer);
  G_OBJECT_CLASS (shepard_mask_section_parent_class)->finalize (object);
}

static void
shepard_mask_section_class_init (ShepardMaskSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_mask_section_dispose;
  object_class->finalize = shepard_mask_section_finalize;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-mask-section.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, kind_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, distance_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, distance_box);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, distance_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, distance_unit);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, cutline_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, cutline_button);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, cutline_file_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, cutline_layer_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, cutline_layer_entry);
  gtk_widget_class_bind_template_child (widget_class, ShepardMaskSection, error_label);
  gtk_widget_class_bind_template_callback (widget_class, on_kind_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_distance_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_spin_input);
  gtk_widget_class_bind_template_callback (widget_class, on_cutline_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cutline_layer_activate);

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_mask_section_init (ShepardMaskSection *self)
{
  shepard_change_batch_init (&self->batch, self, signals[SIGNAL_CHANGED]);
  gtk_widget_init_template (GTK_WIDGET (self));
  GtkEventController *focus = gtk_event_controller_focus_new ();
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_cutline_layer_activate), self);
  gtk_widget_add_controller (GTK_WIDGET (self->cutline_layer_entry), focus);
  update_rows (self);
}
