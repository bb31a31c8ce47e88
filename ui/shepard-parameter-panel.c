/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-parameter-panel.h"

#include <math.h>

#include "shepard-alpha-plot.h"
#include "shepard-change-batch.h"
#include "shepard-label-column.h"
#include "shepard-mask-section.h"
#include "shepard-neighbourhood-section.h"
#include "shepard-spin-entry.h"
#include "shepard-summation-section.h"

/* The rows of the drop-downs, in the template's order. */
enum {
  METHOD_IDW,
  METHOD_AIDW,
};

enum {
  AREA_BOUNDING_BOX,
  AREA_CONVEX_HULL,
  AREA_GIVEN,
};

enum {
  REXP_NEAREST,
  REXP_KNN,
};

/* The spin buttons, each with the label under it that says why an entry was refused. */
typedef enum {
  SPIN_POWER,
  SPIN_K,
  SPIN_R_MIN,
  SPIN_R_MAX,
  SPIN_AREA,
  SPIN_PREVIEW_CELLS,
  N_SPINS
} Spin;

struct _ShepardParameterPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkDropDown *method_dropdown, *area_dropdown, *rexp_dropdown;
  ShepardNeighbourhoodSection *neighbourhood_section;
  ShepardSummationSection *summation_section;
  ShepardMaskSection *mask_section;
  GtkSpinButton *spins[N_SPINS];
  GtkLabel *spin_errors[N_SPINS];
  GtkRange *alpha_scales[SHEPARD_AIDW_LEVELS];
  ShepardAlphaPlot *alpha_plot;
  GtkWidget *alpha_warning;
  GtkLabel *alpha_warning_label;
  GtkWidget *saturation_warning;
  GtkLabel *saturation_label;
  GtkWidget *saturation_fix_button;
  int saturated_level; /* 1 or 5 while the map's cells crowd at that alpha level, else 0 */
  double saturated_share;

  /* The template's values of the controls that shepard_params_init_aidw leaves alone. */
  double default_area, default_preview_cells;
  ShepardChangeBatch batch; /* emits "changed" */
};

G_DEFINE_FINAL_TYPE (ShepardParameterPanel, shepard_parameter_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_parameter_panel_new (void)
{
  return g_object_new (SHEPARD_TYPE_PARAMETER_PANEL, NULL);
}

static void
show_spin_error (ShepardParameterPanel *self, Spin spin, const char *message)
{
  shepard_spin_entry_show_error (self->spins[spin], self->spin_errors[spin], message);
}

static void
clear_spin_errors (ShepardParameterPanel *self)
{
  for (Spin spin = 0; spin < N_SPINS; spin++)
    show_spin_error (self, spin, NULL);
}

static void
update_sensitivity (ShepardParameterPanel *self)
{
  gboolean aidw = gtk_drop_down_get_selected (self->method_dropdown) == METHOD_AIDW;

  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_POWER]), !aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_K]), aidw);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->alpha_scales[i]), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->alpha_plot), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_R_MIN]), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_R_MAX]), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->area_dropdown), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rexp_dropdown), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_AREA]),
                            aidw && gtk_drop_down_get_selected (self->area_dropdown) == AREA_GIVEN);
}

/* Out of order levels are allowed (the engine takes any positive α), but rarely meant: a denser neighbourhood, at
 * the lower μ, usually takes the smaller power. The warning is about AIDW only, so IDW hides it. */
static void
update_alpha_warning (ShepardParameterPanel *self)
{
  gboolean aidw = gtk_drop_down_get_selected (self->method_dropdown) == METHOD_AIDW;

  for (int i = 0; aidw && i + 1 < SHEPARD_AIDW_LEVELS; i++)
    {
      double alpha = gtk_range_get_value (self->alpha_scales[i]);
      double next = gtk_range_get_value (self->alpha_scales[i + 1]);
      if (alpha > next)
        {
          g_autofree char *text = g_strdup_printf ("α levels out of order: α%d %.2f is above α%d %.2f. Denser areas "
                                                   "usually take the smaller powers; the surface is still computed "
                                                   "as set.",
                                                   i + 1, alpha, i + 2, next);
          gtk_label_set_text (self->alpha_warning_label, text);
          gtk_widget_set_visible (self->alpha_warning, TRUE);
          return;
        }
    }
  gtk_label_set_text (self->alpha_warning_label, "");
  gtk_widget_set_visible (self->alpha_warning, FALSE);
}

static void
update_alpha_plot (ShepardParameterPanel *self)
{
  double alpha[SHEPARD_AIDW_LEVELS];

  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    alpha[i] = gtk_range_get_value (self->alpha_scales[i]);
  shepard_alpha_plot_set_levels (self->alpha_plot, alpha);
}

/* The papers' r_exp is the nearest-neighbour distance while r_obs averages the k nearest, about three times as far
 * under randomness at k = 15: R then lies past Rmax over nearly all the map, and AIDW is IDW with alpha5. */
static void
update_saturation_warning (ShepardParameterPanel *self)
{
  gboolean aidw = gtk_drop_down_get_selected (self->method_dropdown) == METHOD_AIDW;
  gboolean papers_rexp = gtk_drop_down_get_selected (self->rexp_dropdown) == REXP_NEAREST;

  if (!aidw || self->saturated_level == 0)
    {
      gtk_widget_set_visible (self->saturation_warning, FALSE);
      return;
    }
  g_autofree char *text = NULL;
  if (self->saturated_level == 5)
    text = g_strdup_printf ("%.0f %% of the map sits at α5: R = r_obs / r_exp is at or above Rmax nearly everywhere, "
                            "so AIDW is IDW with power α5 there and α1–α4 change little.%s",
                            100 * self->saturated_share,
                            papers_rexp ? " The papers' r_exp is the distance to the nearest point, while r_obs "
                                          "averages the k nearest: about three times as far."
                                        : " Raise Rmax to spread the cells over the levels.");
  else
    text = g_strdup_printf ("%.0f %% of the map sits at α1: R = r_obs / r_exp is at or below Rmin nearly "
                            "everywhere, so AIDW is IDW with power α1 there and α2–α5 change little.%s",
                            100 * self->saturated_share,
                            papers_rexp ? "" : " Lower Rmin, or raise Rmax, to spread the cells over the levels.");
  gtk_label_set_text (self->saturation_label, text);
  gtk_widget_set_visible (self->saturation_fix_button, papers_rexp);
  gtk_widget_set_visible (self->saturation_warning, TRUE);
}

static void
on_saturation_fix_clicked (ShepardParameterPanel *self)
{
  gtk_drop_down_set_selected (self->rexp_dropdown, REXP_KNN);
}

void
shepard_parameter_panel_set_distributions (ShepardParameterPanel *self, const ShepardDistributions *distributions)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));

  if (distributions == NULL)
    {
      shepard_alpha_plot_set_histogram (self->alpha_plot, NULL, 0, 0, 1);
      self->saturated_level = 0;
    }
  else
    {
      shepard_alpha_plot_set_histogram (self->alpha_plot, distributions->alpha_counts, SHEPARD_DISTRIBUTION_BINS,
                                        distributions->alpha_first, distributions->alpha_last);
      self->saturated_level = shepard_distributions_saturated_level (distributions);
      self->saturated_share = self->saturated_level == 5 ? distributions->share_at_alpha5
                                                         : distributions->share_at_alpha1;
    }
  update_saturation_warning (self);
}

gboolean
shepard_parameter_panel_get_saturation_warning (ShepardParameterPanel *self, const char **text)
{
  g_return_val_if_fail (SHEPARD_IS_PARAMETER_PANEL (self), FALSE);
  if (text != NULL)
    *text = gtk_label_get_text (self->saturation_label);
  return gtk_widget_get_visible (self->saturation_warning);
}

/* The Summation section says when the weighting set elsewhere in the panel rules the far field out. */
static void
update_summation_note (ShepardParameterPanel *self)
{
  shepard_params params;

  shepard_parameter_panel_get_params (self, &params);
  shepard_summation_section_show_weighting (self->summation_section, &params);
}

static void
on_value_changed (ShepardParameterPanel *self, GtkAdjustment *adjustment)
{
  for (Spin spin = 0; spin < N_SPINS; spin++)
    if (gtk_spin_button_get_adjustment (self->spins[spin]) == adjustment)
      show_spin_error (self, spin, NULL);
  update_alpha_warning (self);
  update_alpha_plot (self);
  shepard_change_batch_note (&self->batch);
}

static void
on_section_changed (ShepardParameterPanel *self)
{
  update_summation_note (self);
  shepard_change_batch_note (&self->batch);
}

static void
on_selection_changed (ShepardParameterPanel *self)
{
  update_sensitivity (self);
  update_alpha_warning (self);
  update_saturation_warning (self);
  shepard_change_batch_note (&self->batch);
}

/* GtkSpinButton reads an entry that is not a number as 0 and clamps one out of range (both silently), so the
 * panel reads every entry here. With update-policy if-valid, GTK_INPUT_ERROR keeps the last value and shows it
 * again. */
static int
on_spin_input (ShepardParameterPanel *self, double *new_value, GtkSpinButton *spin_button)
{
  g_autofree char *message = NULL;
  Spin spin = 0;
  double value = 0.0;

  while (spin < N_SPINS && self->spins[spin] != spin_button)
    spin++;
  g_assert (spin < N_SPINS);

  if (!shepard_spin_entry_read (spin_button, &value, &message))
    {
      show_spin_error (self, spin, message);
      return GTK_INPUT_ERROR;
    }
  /* The message goes once the value changes (on_value_changed): the kept value, shown again, is not a new entry. */
  *new_value = value;
  return TRUE;
}

void
shepard_parameter_panel_get_params (ShepardParameterPanel *self, shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));
  g_return_if_fail (params != NULL);

  if (gtk_drop_down_get_selected (self->method_dropdown) == METHOD_AIDW)
    shepard_params_init_aidw (params);
  else
    shepard_params_init_idw (params);
  params->power = gtk_spin_button_get_value (self->spins[SPIN_POWER]);
  params->k = gtk_spin_button_get_value_as_int (self->spins[SPIN_K]);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    params->alpha[i] = gtk_range_get_value (self->alpha_scales[i]);
  params->r_min = gtk_spin_button_get_value (self->spins[SPIN_R_MIN]);
  params->r_max = gtk_spin_button_get_value (self->spins[SPIN_R_MAX]);
  switch (gtk_drop_down_get_selected (self->area_dropdown))
    {
    case AREA_CONVEX_HULL:
      params->area_mode = SHEPARD_AREA_CONVEX_HULL;
      break;
    case AREA_GIVEN:
      params->area_mode = SHEPARD_AREA_GIVEN;
      break;
    default:
      params->area_mode = SHEPARD_AREA_BOUNDING_BOX;
      break;
    }
  params->area = gtk_spin_button_get_value (self->spins[SPIN_AREA]);
  shepard_neighbourhood_section_get_params (self->neighbourhood_section, params);
  shepard_summation_section_get_params (self->summation_section, params);
  params->rexp = gtk_drop_down_get_selected (self->rexp_dropdown) == REXP_KNN ? SHEPARD_REXP_KNN
                                                                              : SHEPARD_REXP_NEAREST;
}

void
shepard_parameter_panel_set_params (ShepardParameterPanel *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));
  g_return_if_fail (params != NULL);

  shepard_change_batch_begin (&self->batch);
  clear_spin_errors (self);
  gtk_drop_down_set_selected (self->method_dropdown,
                              params->method == SHEPARD_METHOD_AIDW ? METHOD_AIDW : METHOD_IDW);
  gtk_spin_button_set_value (self->spins[SPIN_POWER], params->power);
  gtk_spin_button_set_value (self->spins[SPIN_K], params->k);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    gtk_range_set_value (self->alpha_scales[i], params->alpha[i]);
  gtk_spin_button_set_value (self->spins[SPIN_R_MIN], params->r_min);
  gtk_spin_button_set_value (self->spins[SPIN_R_MAX], params->r_max);
  gtk_drop_down_set_selected (self->area_dropdown, params->area_mode == SHEPARD_AREA_CONVEX_HULL ? AREA_CONVEX_HULL
                                                   : params->area_mode == SHEPARD_AREA_GIVEN   ? AREA_GIVEN
                                                                                               : AREA_BOUNDING_BOX);
  if (params->area_mode == SHEPARD_AREA_GIVEN)
    gtk_spin_button_set_value (self->spins[SPIN_AREA], params->area);
  shepard_neighbourhood_section_set_params (self->neighbourhood_section, params);
  shepard_summation_section_set_params (self->summation_section, params);
  gtk_drop_down_set_selected (self->rexp_dropdown, params->rexp == SHEPARD_REXP_KNN ? REXP_KNN : REXP_NEAREST);
  shepard_change_batch_end (&self->batch);
}

guint
shepard_parameter_panel_get_preview_cells (ShepardParameterPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_PARAMETER_PANEL (self), 0);
  return (guint) gtk_spin_button_get_value_as_int (self->spins[SPIN_PREVIEW_CELLS]);
}

void
shepard_parameter_panel_set_preview_cells (ShepardParameterPanel *self, guint cells)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));

  show_spin_error (self, SPIN_PREVIEW_CELLS, NULL);
  gtk_spin_button_set_value (self->spins[SPIN_PREVIEW_CELLS], cells);
}

void
shepard_parameter_panel_reset (ShepardParameterPanel *self)
{
  shepard_params params;

  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));

  shepard_params_init_aidw (&params);
  shepard_change_batch_begin (&self->batch);
  shepard_parameter_panel_set_params (self, &params);
  gtk_spin_button_set_value (self->spins[SPIN_AREA], self->default_area);
  shepard_neighbourhood_section_reset (self->neighbourhood_section);
  shepard_mask_section_set_mask (self->mask_section, SHEPARD_MASK_NONE, 0, NULL, NULL);
  gtk_spin_button_set_value (self->spins[SPIN_PREVIEW_CELLS], self->default_preview_cells);
  shepard_change_batch_end (&self->batch);
}

void
shepard_parameter_panel_bind_settings (ShepardParameterPanel *self, GSettings *settings)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  static const struct {
    Spin spin;
    const char *key;
  } spin_keys[] = {
    { SPIN_POWER, "power" },   { SPIN_K, "k" },       { SPIN_R_MIN, "r-min" },
    { SPIN_R_MAX, "r-max" },   { SPIN_AREA, "area" }, { SPIN_PREVIEW_CELLS, "preview-cells" },
  };

  shepard_change_batch_begin (&self->batch);
  g_settings_bind (settings, "method", self->method_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  for (gsize i = 0; i < G_N_ELEMENTS (spin_keys); i++)
    g_settings_bind (settings, spin_keys[i].key, gtk_spin_button_get_adjustment (self->spins[spin_keys[i].spin]),
                     "value", G_SETTINGS_BIND_DEFAULT);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      char key[16];
      g_snprintf (key, sizeof key, "alpha-%d", i + 1);
      g_settings_bind (settings, key, gtk_range_get_adjustment (self->alpha_scales[i]), "value",
                       G_SETTINGS_BIND_DEFAULT);
    }
  g_settings_bind (settings, "area-mode", self->area_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  shepard_neighbourhood_section_bind_settings (self->neighbourhood_section, settings);
  shepard_summation_section_bind_settings (self->summation_section, settings);
  shepard_mask_section_bind_settings (self->mask_section, settings);
  g_settings_bind (settings, "rexp", self->rexp_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  shepard_change_batch_end (&self->batch);
}

static void
reset_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_parameter_panel_reset (SHEPARD_PARAMETER_PANEL (widget));
}

ShepardMaskSection *
shepard_parameter_panel_get_mask_section (ShepardParameterPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_PARAMETER_PANEL (self), NULL);
  return self->mask_section;
}

ShepardNeighbourhoodSection *
shepard_parameter_panel_get_neighbourhood_section (ShepardParameterPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_PARAMETER_PANEL (self), NULL);
  return self->neighbourhood_section;
}

void
shepard_parameter_panel_align_labels (ShepardParameterPanel *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_PARAMETER_PANEL (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
  shepard_neighbourhood_section_align_labels (self->neighbourhood_section, labels);
  shepard_summation_section_align_labels (self->summation_section, labels);
  shepard_mask_section_align_labels (self->mask_section, labels);
}

static void
shepard_parameter_panel_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_PARAMETER_PANEL);
  G_OBJECT_CLASS (shepard_parameter_panel_parent_class)->dispose (object);
}

static void
bind_child_at (GtkWidgetClass *widget_class, const char *name, gssize offset)
{
  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE, offset);
}

static void
shepard_parameter_panel_class_init (ShepardParameterPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const spin_ids[N_SPINS][2] = {
    [SPIN_POWER] = { "power_spin", "power_error" },
    [SPIN_K] = { "k_spin", "k_error" },
    [SPIN_R_MIN] = { "rmin_spin", "rmin_error" },
    [SPIN_R_MAX] = { "rmax_spin", "rmax_error" },
    [SPIN_AREA] = { "area_spin", "area_error" },
    [SPIN_PREVIEW_CELLS] = { "preview_cells_spin", "preview_cells_error" },
  };
  static const char *const alpha_ids[SHEPARD_AIDW_LEVELS] = {
    "alpha1_scale", "alpha2_scale", "alpha3_scale", "alpha4_scale", "alpha5_scale",
  };

  object_class->dispose = shepard_parameter_panel_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-parameter-panel.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, method_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, area_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, neighbourhood_section);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, summation_section);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, mask_section);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, rexp_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, saturation_warning);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, saturation_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, saturation_fix_button);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, alpha_plot);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, alpha_warning);
  gtk_widget_class_bind_template_child (widget_class, ShepardParameterPanel, alpha_warning_label);
  for (Spin spin = 0; spin < N_SPINS; spin++)
    {
      bind_child_at (widget_class, spin_ids[spin][0],
                     G_STRUCT_OFFSET (ShepardParameterPanel, spins) + spin * sizeof (GtkSpinButton *));
      bind_child_at (widget_class, spin_ids[spin][1],
                     G_STRUCT_OFFSET (ShepardParameterPanel, spin_errors) + spin * sizeof (GtkLabel *));
    }
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    bind_child_at (widget_class, alpha_ids[i],
                   G_STRUCT_OFFSET (ShepardParameterPanel, alpha_scales) + i * sizeof (GtkRange *));
  gtk_widget_class_bind_template_callback (widget_class, on_value_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_spin_input);
  gtk_widget_class_bind_template_callback (widget_class, on_saturation_fix_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_section_changed);

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);

  gtk_widget_class_install_action (widget_class, "panel.reset", NULL, reset_action);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_parameter_panel_init (ShepardParameterPanel *self)
{
  shepard_change_batch_init (&self->batch, self, signals[SIGNAL_CHANGED]);
  g_type_ensure (SHEPARD_TYPE_ALPHA_PLOT);
  g_type_ensure (SHEPARD_TYPE_NEIGHBOURHOOD_SECTION);
  g_type_ensure (SHEPARD_TYPE_SUMMATION_SECTION);
  g_type_ensure (SHEPARD_TYPE_MASK_SECTION);
  gtk_widget_init_template (GTK_WIDGET (self));
  update_alpha_plot (self);
  self->default_area = gtk_spin_button_get_value (self->spins[SPIN_AREA]);
  self->default_preview_cells = gtk_spin_button_get_value (self->spins[SPIN_PREVIEW_CELLS]);
  update_sensitivity (self);
  update_alpha_warning (self);
}
