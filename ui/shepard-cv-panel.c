/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-cv-panel.h"

#include <math.h>

#include "method-spec.h"
#include "shepard-scatter-plot.h"

/* Rows in the list of the largest errors: enough to find the outliers, few enough to read. */
#define WORST_POINTS 8

struct _ShepardCvPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkSpinner *spinner;
  GtkWidget *running_still;
  GtkSwitch *live_switch;
  GtkLabel *subtitle_label;
  GtkLabel *rmse_label, *mae_label, *me_label, *r2_label;
  GtkLabel *failure_label;
  ShepardScatterPlot *scatter_plot;
  GtkSwitch *residual_switch;
  GtkListBox *worst_list;
  GtkDropDown *objective_dropdown;
  GtkCheckButton *free_alphas_check;
  GtkButton *optimise_button;
  GtkWidget *progress_box;
  GtkProgressBar *progress_bar;
  GtkWidget *result_box;
  GtkLabel *result_label;
  GtkWidget *apply_button;

  /* Owned */
  ShepardCrossValidation *validation;
  gssize selected;
};

G_DEFINE_FINAL_TYPE (ShepardCvPanel, shepard_cv_panel, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_LIVE,
  PROP_RESIDUAL_MAP,
  N_PROPS
};

enum {
  SIGNAL_POINT_ACTIVATED,
  SIGNAL_OPTIMISE,
  SIGNAL_CANCEL_OPTIMISE,
  SIGNAL_APPLY_OPTIMISED,
  SIGNAL_DISCARD_OPTIMISED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

GtkWidget *
shepard_cv_panel_new (void)
{
  return g_object_new (SHEPARD_TYPE_CV_PANEL, NULL);
}

/* Four significant digits, as shepard-cv prints them. */
static void
set_figure (GtkLabel *label, double value)
{
  char text[32];

  if (isnan (value))
    g_strlcpy (text, "n/a", sizeof text);
  else
    g_snprintf (text, sizeof text, "%.4g", value);
  gtk_label_set_text (label, text);
}

static void
fill_worst_list (ShepardCvPanel *self)
{
  GtkWidget *row;
  size_t worst[WORST_POINTS];

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->worst_list))) != NULL)
    gtk_list_box_remove (self->worst_list, row);
  if (self->validation == NULL)
    return;
  size_t count = shepard_cross_validation_worst (self->validation, worst, WORST_POINTS);
  for (size_t i = 0; i < count; i++)
    {
      size_t index = worst[i];
      double observed = self->validation->observed[index], predicted = self->validation->prediction[index];
      g_autofree char *text = g_strdup_printf ("#%zu   %.4g → %.4g   (%+.4g)", index + 1, observed, predicted,
                                               self->validation->residual[index]);
      g_autofree char *tooltip = g_strdup_printf ("Point %zu: observed %.6g, predicted %.6g from the others, residual "
                                                  "%+.6g. Activate to show it on the map.",
                                                  index + 1, observed, predicted, self->validation->residual[index]);
      GtkWidget *label = gtk_label_new (text);
      gtk_widget_add_css_class (label, "numeric");
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      /* An ellipsized label asks for its whole text: this keeps the panel from crowding the map. */
      gtk_label_set_max_width_chars (GTK_LABEL (label), 36);
      gtk_widget_set_margin_start (label, 8);
      gtk_widget_set_margin_end (label, 8);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      row = gtk_list_box_row_new ();
      gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), label);
      g_object_set_data (G_OBJECT (row), "point-index", GSIZE_TO_POINTER (index));
      gtk_widget_set_tooltip_text (row, tooltip);
      gtk_list_box_append (self->worst_list, row);
    }
}

void
shepard_cv_panel_set_validation (ShepardCvPanel *self, ShepardCrossValidation *validation, const char *value_name)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));

  if (validation != NULL)
    shepard_cross_validation_ref (validation);
  g_clear_pointer (&self->validation, shepard_cross_validation_unref);
  self->validation = validation;
  shepard_cv_panel_set_failure (self, NULL);
  if (validation == NULL)
    {
      gtk_label_set_text (self->rmse_label, "—");
      gtk_label_set_text (self->mae_label, "—");
      gtk_label_set_text (self->me_label, "—");
      gtk_label_set_text (self->r2_label, "—");
      shepard_scatter_plot_set_points (self->scatter_plot, NULL, NULL, 0);
      fill_worst_list (self);
      return;
    }
  set_figure (self->rmse_label, validation->summary.rmse);
  set_figure (self->mae_label, validation->summary.mae);
  set_figure (self->me_label, validation->summary.me);
  set_figure (self->r2_label, validation->summary.r2);
  g_autofree char *subtitle = g_strdup_printf ("Each of the %zu points predicted from the other %zu, in %.3g ms.",
                                               validation->n, validation->n - 1, validation->seconds * 1e3);
  gtk_label_set_text (self->subtitle_label, subtitle);
  shepard_scatter_plot_set_points (self->scatter_plot, validation->observed, validation->prediction, validation->n);
  if (value_name != NULL)
    shepard_scatter_plot_set_axis_title (self->scatter_plot, value_name);
  if (self->selected >= (gssize) validation->n)
    self->selected = -1;
  shepard_scatter_plot_set_selected (self->scatter_plot, self->selected);
  fill_worst_list (self);
}

ShepardCrossValidation *
shepard_cv_panel_get_validation (ShepardCvPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_CV_PANEL (self), NULL);
  return self->validation;
}

void
shepard_cv_panel_set_running (ShepardCvPanel *self, gboolean running, gboolean on_gpu)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));
  gboolean spinning = running && on_gpu;
  gtk_spinner_set_spinning (self->spinner, spinning);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), spinning);
  gtk_widget_set_visible (self->running_still, running && !spinning);
}

void
shepard_cv_panel_set_failure (ShepardCvPanel *self, const char *message)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));

  if (message != NULL)
    {
      g_autofree char *text = g_strdup_printf ("Cannot cross-validate: %s", message);
      gtk_label_set_text (self->failure_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->failure_label), message != NULL);
  gtk_widget_set_opacity (GTK_WIDGET (self->scatter_plot), message != NULL ? 0.4 : 1.0);
}

void
shepard_cv_panel_set_selected (ShepardCvPanel *self, gssize index)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));

  self->selected = index;
  shepard_scatter_plot_set_selected (self->scatter_plot, index);
}

gboolean
shepard_cv_panel_get_live (ShepardCvPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_CV_PANEL (self), FALSE);
  return gtk_switch_get_active (self->live_switch);
}

gboolean
shepard_cv_panel_get_residual_map (ShepardCvPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_CV_PANEL (self), FALSE);
  return gtk_switch_get_active (self->residual_switch);
}

static void
show_optimiser_state (ShepardCvPanel *self, gboolean running, gboolean result)
{
  gtk_widget_set_visible (self->progress_box, running);
  gtk_widget_set_visible (self->result_box, result);
  gtk_widget_set_sensitive (GTK_WIDGET (self->optimise_button), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->objective_dropdown), !running);
  gtk_widget_set_sensitive (GTK_WIDGET (self->free_alphas_check), !running);
}

void
shepard_cv_panel_show_optimising (ShepardCvPanel *self, double fraction)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));

  show_optimiser_state (self, TRUE, FALSE);
  if (fraction < 0)
    {
      gtk_progress_bar_set_fraction (self->progress_bar, 0);
      gtk_progress_bar_set_text (self->progress_bar, "Optimising…");
      return;
    }
  g_autofree char *text = g_strdup_printf ("Optimising… %.0f %%", 100 * fraction);
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (fraction, 0, 1));
  gtk_progress_bar_set_text (self->progress_bar, text);
}

void
shepard_cv_panel_show_optimised (ShepardCvPanel *self, const ShepardOptimiseResult *result, ShepardObjective objective)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));
  g_return_if_fail (result != NULL);

  const char *name = objective == SHEPARD_OBJECTIVE_MAE ? "MAE" : "RMSE";
  g_autofree char *method = shepard_method_spec_format (&result->best);
  g_autofree char *text = NULL;
  if (result->best_score < result->start_score)
    text = g_strdup_printf ("%s %.4g → %.4g (%.1f %% lower) after %u cross-validations.\nBest: %s", name,
                            result->start_score, result->best_score,
                            100.0 * (result->start_score - result->best_score) / result->start_score,
                            result->evaluations, method);
  else
    text = g_strdup_printf ("No parameters beat the panel's %s of %.4g in %u cross-validations.", name,
                            result->start_score, result->evaluations);
  gtk_label_set_text (self->result_label, text);
  gtk_widget_set_sensitive (self->apply_button,
                            result->best_score < result->start_score);
  show_optimiser_state (self, FALSE, TRUE);
}

void
shepard_cv_panel_show_optimise_failed (ShepardCvPanel *self, const char *message)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));
  g_return_if_fail (message != NULL);

  g_autofree char *text = g_strdup_printf ("The optimiser stopped: %s", message);
  gtk_label_set_text (self->result_label, text);
  gtk_widget_set_sensitive (self->apply_button, FALSE);
  show_optimiser_state (self, FALSE, TRUE);
}

void
shepard_cv_panel_clear_optimisation (ShepardCvPanel *self)
{
  g_return_if_fail (SHEPARD_IS_CV_PANEL (self));
  show_optimiser_state (self, FALSE, FALSE);
}

ShepardObjective
shepard_cv_panel_get_objective (ShepardCvPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_CV_PANEL (self), SHEPARD_OBJECTIVE_RMSE);
  return gtk_drop_down_get_selected (self->objective_dropdown) == 1 ? SHEPARD_OBJECTIVE_MAE : SHEPARD_OBJECTIVE_RMSE;
}

gboolean
shepard_cv_panel_get_free_alphas (ShepardCvPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_CV_PANEL (self), FALSE);
  return gtk_check_button_get_active (self->free_alphas_check);
}

static void
on_scatter_point_activated (ShepardCvPanel *self, guint index)
{
  g_signal_emit (self, signals[SIGNAL_POINT_ACTIVATED], 0, index);
}

static void
on_worst_row_activated (ShepardCvPanel *self, GtkListBoxRow *row)
{
  g_signal_emit (self, signals[SIGNAL_POINT_ACTIVATED], 0,
                 (guint) GPOINTER_TO_SIZE (g_object_get_data (G_OBJECT (row), "point-index")));
}

static void
on_optimise_clicked (ShepardCvPanel *self)
{
  g_signal_emit (self, signals[SIGNAL_OPTIMISE], 0);
}

static void
on_cancel_clicked (ShepardCvPanel *self)
{
  g_signal_emit (self, signals[SIGNAL_CANCEL_OPTIMISE], 0);
}

static void
on_apply_clicked (ShepardCvPanel *self)
{
  show_optimiser_state (self, FALSE, FALSE);
  g_signal_emit (self, signals[SIGNAL_APPLY_OPTIMISED], 0);
}

static void
on_discard_clicked (ShepardCvPanel *self)
{
  show_optimiser_state (self, FALSE, FALSE);
  g_signal_emit (self, signals[SIGNAL_DISCARD_OPTIMISED], 0);
}

static void
shepard_cv_panel_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardCvPanel *self = SHEPARD_CV_PANEL (object);

  switch (prop_id)
    {
    case PROP_LIVE:
      g_value_set_boolean (value, gtk_switch_get_active (self->live_switch));
      break;
    case PROP_RESIDUAL_MAP:
      g_value_set_boolean (value, gtk_switch_get_active (self->residual_switch));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_cv_panel_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ShepardCvPanel *self = SHEPARD_CV_PANEL (object);

  switch (prop_id)
    {
    case PROP_LIVE:
      gtk_switch_set_active (self->live_switch, g_value_get_boolean (value));
      break;
    case PROP_RESIDUAL_MAP:
      gtk_switch_set_active (self->residual_switch, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
notify_live (ShepardCvPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LIVE]);
}

static void
notify_residual_map (ShepardCvPanel *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RESIDUAL_MAP]);
}

static void
shepard_cv_panel_dispose (GObject *object)
{
  ShepardCvPanel *self = SHEPARD_CV_PANEL (object);

  g_clear_pointer (&self->validation, shepard_cross_validation_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_CV_PANEL);
  G_OBJECT_CLASS (shepard_cv_panel_parent_class)->dispose (object);
}

static void
shepard_cv_panel_class_init (ShepardCvPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->get_property = shepard_cv_panel_get_property;
  object_class->set_property = shepard_cv_panel_set_property;
  object_class->dispose = shepard_cv_panel_dispose;

  g_type_ensure (SHEPARD_TYPE_SCATTER_PLOT);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-cv-panel.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, ShepardCvPanel, name)
  BIND (box);
  BIND (spinner);
  BIND (running_still);
  BIND (live_switch);
  BIND (subtitle_label);
  BIND (rmse_label);
  BIND (mae_label);
  BIND (me_label);
  BIND (r2_label);
  BIND (failure_label);
  BIND (scatter_plot);
  BIND (residual_switch);
  BIND (worst_list);
  BIND (objective_dropdown);
  BIND (free_alphas_check);
  BIND (optimise_button);
  BIND (progress_box);
  BIND (progress_bar);
  BIND (result_box);
  BIND (result_label);
  BIND (apply_button);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_scatter_point_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_worst_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_optimise_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_cancel_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_apply_clicked);
  gtk_widget_class_bind_template_callback (widget_class, on_discard_clicked);

  properties[PROP_LIVE] = g_param_spec_boolean ("live", NULL, NULL, TRUE,
                                                G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RESIDUAL_MAP] = g_param_spec_boolean ("residual-map", NULL, NULL, FALSE,
                                                        G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                          | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_POINT_ACTIVATED] = g_signal_new ("point-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);
  signals[SIGNAL_OPTIMISE] = g_signal_new ("optimise", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                           NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_CANCEL_OPTIMISE] = g_signal_new ("cancel-optimise", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_APPLY_OPTIMISED] = g_signal_new ("apply-optimised", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_DISCARD_OPTIMISED] = g_signal_new ("discard-optimised", G_TYPE_FROM_CLASS (klass),
                                                    G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_cv_panel_init (ShepardCvPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  self->selected = -1;
  g_signal_connect_object (self->live_switch, "notify::active", G_CALLBACK (notify_live), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->residual_switch, "notify::active", G_CALLBACK (notify_residual_map), self,
                           G_CONNECT_SWAPPED);
}
