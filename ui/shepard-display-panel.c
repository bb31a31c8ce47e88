/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-display-panel.h"

#include "shepard-label-column.h"

struct _ShepardDisplayPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkDropDown *ramp_dropdown;
  GtkSwitch *reversed_switch;
  GtkDropDown *stretch_dropdown;
  GtkWidget *custom_range_label, *custom_range_box;
  GtkSpinButton *custom_min_spin, *custom_max_spin;
  GtkDropDown *classes_dropdown;
  GtkSpinButton *class_count_spin;
  GtkScale *opacity_scale;
  GtkSwitch *hillshade_switch;
  GtkDropDown *surface_dropdown;

  /* Owned */
  gboolean suggesting;
};

G_DEFINE_FINAL_TYPE (ShepardDisplayPanel, shepard_display_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_display_panel_new (void)
{
  return g_object_new (SHEPARD_TYPE_DISPLAY_PANEL, NULL);
}

ShepardColorRamp
shepard_display_panel_get_ramp (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), SHEPARD_COLOR_RAMP_VIRIDIS);

  ShepardColorRamp ramp = (ShepardColorRamp) MIN (gtk_drop_down_get_selected (self->ramp_dropdown),
                                                  SHEPARD_COLOR_RAMP_COUNT - 1);
  return gtk_switch_get_active (self->reversed_switch) ? ramp | SHEPARD_COLOR_RAMP_REVERSED : ramp;
}

guint
shepard_display_panel_get_surface (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), 0);
  return gtk_drop_down_get_selected (self->surface_dropdown);
}

gboolean
shepard_display_panel_get_hillshade (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), FALSE);
  return gtk_switch_get_active (self->hillshade_switch);
}

ShepardStretch
shepard_display_panel_get_stretch (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), SHEPARD_STRETCH_DATA_RANGE);
  return (ShepardStretch) gtk_drop_down_get_selected (self->stretch_dropdown);
}

void
shepard_display_panel_get_custom_range (ShepardDisplayPanel *self, double *min, double *max)
{
  g_return_if_fail (SHEPARD_IS_DISPLAY_PANEL (self));
  g_return_if_fail (min != NULL && max != NULL);

  double a = gtk_spin_button_get_value (self->custom_min_spin), b = gtk_spin_button_get_value (self->custom_max_spin);
  *min = MIN (a, b);
  *max = MAX (a, b);
}

void
shepard_display_panel_suggest_custom_range (ShepardDisplayPanel *self, double min, double max)
{
  g_return_if_fail (SHEPARD_IS_DISPLAY_PANEL (self));

  if (shepard_display_panel_get_stretch (self) == SHEPARD_STRETCH_CUSTOM)
    return;
  self->suggesting = TRUE;
  gtk_spin_button_set_value (self->custom_min_spin, min);
  gtk_spin_button_set_value (self->custom_max_spin, max);
  self->suggesting = FALSE;
}

ShepardClasses
shepard_display_panel_get_classes (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), SHEPARD_CLASSES_CONTINUOUS);
  return (ShepardClasses) gtk_drop_down_get_selected (self->classes_dropdown);
}

guint
shepard_display_panel_get_class_count (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), 5);
  return (guint) gtk_spin_button_get_value_as_int (self->class_count_spin);
}

double
shepard_display_panel_get_opacity (ShepardDisplayPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISPLAY_PANEL (self), 1.0);
  return CLAMP (gtk_range_get_value (GTK_RANGE (self->opacity_scale)) / 100.0, 0.0, 1.0);
}

void
shepard_display_panel_bind_settings (ShepardDisplayPanel *self, GSettings *settings)
{
  g_return_if_fail (SHEPARD_IS_DISPLAY_PANEL (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  g_settings_bind (settings, "color-ramp", self->ramp_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "ramp-reversed", self->reversed_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "stretch", self->stretch_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "classes", self->classes_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "class-count", self->class_count_spin, "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "surface-opacity", gtk_range_get_adjustment (GTK_RANGE (self->opacity_scale)), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "hillshade", self->hillshade_switch, "active", G_SETTINGS_BIND_DEFAULT);
}

void
shepard_display_panel_align_labels (ShepardDisplayPanel *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_DISPLAY_PANEL (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
}

static void
update_sensitivity (ShepardDisplayPanel *self)
{
  gboolean custom = shepard_display_panel_get_stretch (self) == SHEPARD_STRETCH_CUSTOM;

  gtk_widget_set_visible (self->custom_range_label, custom);
  gtk_widget_set_visible (self->custom_range_box, custom);
  gtk_widget_set_sensitive (GTK_WIDGET (self->class_count_spin),
                            shepard_display_panel_get_classes (self) != SHEPARD_CLASSES_CONTINUOUS);
}

static void
on_control_changed (ShepardDisplayPanel *self)
{
  update_sensitivity (self);
  if (!self->suggesting)
    g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static char *
format_percent (GtkScale *scale, double value, gpointer user_data)
{
  return g_strdup_printf ("%.0f %%", value);
}

static void
shepard_display_panel_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_DISPLAY_PANEL);
  G_OBJECT_CLASS (shepard_display_panel_parent_class)->dispose (object);
}

static void
shepard_display_panel_class_init (ShepardDisplayPanelClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = shepard_display_panel_dispose;
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-display-panel.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, ShepardDisplayPanel, name)
  BIND (grid);
  BIND (ramp_dropdown);
  BIND (reversed_switch);
  BIND (stretch_dropdown);
  BIND (custom_range_label);
  BIND (custom_range_box);
  BIND (custom_min_spin);
  BIND (custom_max_spin);
  BIND (classes_dropdown);
  BIND (class_count_spin);
  BIND (opacity_scale);
  BIND (hillshade_switch);
  BIND (surface_dropdown);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_control_changed);
}

static void
shepard_display_panel_init (ShepardDisplayPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_scale_set_format_value_func (self->opacity_scale, format_percent, NULL, NULL);
  update_sensitivity (self);
}
