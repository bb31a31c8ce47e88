/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-explain-panel.h"

#include <math.h>
#include <string.h>

#include "shepard-alpha-plot.h"
#include "shepard-membership-plot.h"

/* Terms written out in the sum before "…": a student checks these, the rest is one term. */
#define SUM_TERMS 4

struct _ShepardExplainPanel
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box;
  GtkLabel *title_label;
  GtkWidget *unpin_button;
  GtkWidget *hint_label;
  GtkWidget *pinned_box;
  GtkLabel *position_label, *value_label, *sum_label;
  GtkGrid *steps_grid;
  GtkWidget *curves_label;
  ShepardMembershipPlot *membership_plot;
  ShepardAlphaPlot *alpha_plot;
  GtkWidget *neighbours_label;
  GtkGrid *neighbours_grid;

  /* Owned */
  ShepardExplanation *explanation;
  shepard_params params;
};

G_DEFINE_FINAL_TYPE (ShepardExplainPanel, shepard_explain_panel, GTK_TYPE_WIDGET)

enum {
  SIGNAL_UNPIN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_explain_panel_new (void)
{
  return g_object_new (SHEPARD_TYPE_EXPLAIN_PANEL, NULL);
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (const char *text, float xalign, gboolean dim)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), xalign);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  /* Selectable for copying with the pointer, but no Tab stop: the figures are read, not edited. (Not focusable is
   * not enough: a selectable label's focus handler claims the Tab even when it cannot take the focus.) */
  gtk_widget_set_can_focus (label, FALSE);
  gtk_widget_add_css_class (label, "numeric");
  if (dim)
    gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static void
add_step (ShepardExplainPanel *self, int row, const char *name, const char *value, const char *why)
{
  gtk_grid_attach (self->steps_grid, cell (name, 0, TRUE), 0, row, 1, 1);
  gtk_grid_attach (self->steps_grid, cell (value, 1, FALSE), 1, row, 1, 1);
  GtkWidget *reason = cell (why, 0, TRUE);
  gtk_label_set_wrap (GTK_LABEL (reason), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (reason), 26);
  gtk_widget_set_hexpand (reason, TRUE);
  gtk_widget_add_css_class (reason, "caption");
  gtk_grid_attach (self->steps_grid, reason, 2, row, 1, 1);
}

static const char *
level_name (double mu)
{
  if (mu <= 0.1)
    return "α1";
  if (mu >= 0.9)
    return "α5";
  if (mu <= 0.3)
    return "between α1 and α2";
  if (mu <= 0.5)
    return "between α2 and α3";
  if (mu <= 0.7)
    return "between α3 and α4";
  return "between α4 and α5";
}

static void
show_steps (ShepardExplainPanel *self, const shepard_explanation *e, const shepard_params *params)
{
  char value[64];
  g_autofree char *why = NULL;

  clear_grid (self->steps_grid);
  if (params->method != SHEPARD_METHOD_AIDW)
    {
      g_snprintf (value, sizeof value, "%.4g", e->alpha);
      add_step (self, 0, "power p", value, "IDW weighs every point by distance^−p");
      return;
    }
  g_snprintf (value, sizeof value, "%.4g", e->r_obs);
  why = g_strdup_printf ("mean distance to the %d nearest data points", e->k_density);
  add_step (self, 0, "r_obs", value, why);
  g_snprintf (value, sizeof value, "%.4g", e->r_exp);
  add_step (self, 1, "r_exp", value,
            params->rexp == SHEPARD_REXP_KNN ? "what r_obs would be if the points were spread at random"
                                             : "distance to the nearest point if they were spread at random");
  g_snprintf (value, sizeof value, "%.3f", e->r);
  add_step (self, 2, "R", value, "r_obs / r_exp: above 1 sparser, below 1 denser than at random");
  g_snprintf (value, sizeof value, "%.3f", e->mu);
  g_free (why);
  why = g_strdup_printf ("where R lies between Rmin %g and Rmax %g, on the cosine curve", params->r_min,
                         params->r_max);
  add_step (self, 3, "μ", value, why);
  g_snprintf (value, sizeof value, "%.3f", e->alpha);
  g_free (why);
  why = g_strdup_printf ("the power at μ %.2f: %s", e->mu, level_name (e->mu));
  add_step (self, 4, "α", value, why);
}

/* value = share1 × z1 + share2 × z2 + … + rest: the first terms written out, the others summed. */
static char *
sum_text (const ShepardExplanation *explanation)
{
  const shepard_explanation *e = &explanation->explanation;
  GString *text = g_string_new ("= ");
  size_t written = 0;
  double others_share = e->rest_share, others_value = e->rest_share_value;
  size_t others = e->rest_count;

  for (size_t j = 0; j < e->n_listed; j++)
    {
      const shepard_contribution *c = &explanation->listed[j];
      if (c->share <= 0.0)
        continue;
      if (written < SUM_TERMS)
        {
          g_string_append_printf (text, "%s%.4f × %.4g", written > 0 ? " + " : "", c->share, c->value);
          written++;
        }
      else
        {
          others_share += c->share;
          others_value += c->share * c->value;
          others++;
        }
    }
  if (others > 0 && others_share > 0.0)
    g_string_append_printf (text, " + %.4f × %.4g (the other %zu points together)", others_share,
                            others_value / others_share, others);
  if (e->coincident)
    g_string_append_printf (text, "\nThe point lies on %zu data point%s: the surface takes their mean.",
                            e->n_weighted, e->n_weighted == 1 ? "" : "s");
  return g_string_free (text, FALSE);
}

static void
show_neighbours (ShepardExplainPanel *self, const ShepardExplanation *explanation)
{
  static const char *const headers[] = { "Point", "Distance", "Value z", "Share", "Share × z" };
  const shepard_explanation *e = &explanation->explanation;
  char text[64];

  clear_grid (self->neighbours_grid);
  for (int c = 0; c < (int) G_N_ELEMENTS (headers); c++)
    {
      GtkWidget *header = cell (headers[c], c == 0 ? 0 : 1, TRUE);
      gtk_widget_add_css_class (header, "caption-heading");
      gtk_grid_attach (self->neighbours_grid, header, c, 0, 1, 1);
    }
  int row = 1;
  for (size_t j = 0; j < e->n_listed; j++, row++)
    {
      const shepard_contribution *c = &explanation->listed[j];
      g_snprintf (text, sizeof text, "%zu", c->index + 1);
      gtk_grid_attach (self->neighbours_grid, cell (text, 0, FALSE), 0, row, 1, 1);
      g_snprintf (text, sizeof text, "%.4g", c->distance);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, FALSE), 1, row, 1, 1);
      g_snprintf (text, sizeof text, "%.4g", c->value);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, FALSE), 2, row, 1, 1);
      g_snprintf (text, sizeof text, "%.2f %%", 100.0 * c->share);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, c->share <= 0.0), 3, row, 1, 1);
      g_snprintf (text, sizeof text, "%.4g", c->share * c->value);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, c->share <= 0.0), 4, row, 1, 1);
    }
  if (e->rest_count > 0)
    {
      g_snprintf (text, sizeof text, "%zu more", e->rest_count);
      gtk_grid_attach (self->neighbours_grid, cell (text, 0, TRUE), 0, row, 3, 1);
      g_snprintf (text, sizeof text, "%.2f %%", 100.0 * e->rest_share);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, TRUE), 3, row, 1, 1);
      g_snprintf (text, sizeof text, "%.4g", e->rest_share_value);
      gtk_grid_attach (self->neighbours_grid, cell (text, 1, TRUE), 4, row, 1, 1);
      row++;
    }
  GtkWidget *total = cell ("Sum", 0, FALSE);
  gtk_widget_add_css_class (total, "heading");
  gtk_grid_attach (self->neighbours_grid, total, 0, row, 3, 1);
  gtk_grid_attach (self->neighbours_grid, cell ("100 %", 1, FALSE), 3, row, 1, 1);
  g_snprintf (text, sizeof text, "%.6g", e->value);
  GtkWidget *value = cell (text, 1, FALSE);
  gtk_widget_add_css_class (value, "heading");
  gtk_grid_attach (self->neighbours_grid, value, 4, row, 1, 1);
}

void
shepard_explain_panel_set_params (ShepardExplainPanel *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_EXPLAIN_PANEL (self));
  g_return_if_fail (params != NULL);

  /* Parameters the engine refuses (Rmax below Rmin while being typed) leave the curves as they were. */
  if (shepard_params_validate (params, NULL) != SHEPARD_OK)
    return;
  self->params = *params;
  gboolean aidw = params->method == SHEPARD_METHOD_AIDW;
  shepard_membership_plot_set_thresholds (self->membership_plot, params->r_min, params->r_max);
  shepard_alpha_plot_set_levels (self->alpha_plot, params->alpha);
  gtk_widget_set_visible (self->curves_label, aidw);
  gtk_widget_set_visible (GTK_WIDGET (self->membership_plot), aidw);
  gtk_widget_set_visible (GTK_WIDGET (self->alpha_plot), aidw);
}

void
shepard_explain_panel_set_distributions (ShepardExplainPanel *self, const ShepardDistributions *distributions)
{
  g_return_if_fail (SHEPARD_IS_EXPLAIN_PANEL (self));

  if (distributions == NULL)
    {
      shepard_membership_plot_set_histogram (self->membership_plot, NULL, 0, 0, 1);
      shepard_alpha_plot_set_histogram (self->alpha_plot, NULL, 0, 0, 1);
      return;
    }
  /* The plot takes the cells beyond the axis in its last bar, drawn open-ended. */
  double r_counts[SHEPARD_DISTRIBUTION_BINS];
  memcpy (r_counts, distributions->r_counts, sizeof r_counts);
  r_counts[SHEPARD_DISTRIBUTION_BINS - 1] += (double) distributions->r_beyond;
  shepard_membership_plot_set_overflow (self->membership_plot, distributions->r_beyond > 0);
  shepard_membership_plot_set_histogram (self->membership_plot, r_counts, SHEPARD_DISTRIBUTION_BINS, 0.0,
                                         distributions->r_last);
  shepard_alpha_plot_set_histogram (self->alpha_plot, distributions->alpha_counts, SHEPARD_DISTRIBUTION_BINS,
                                    distributions->alpha_first, distributions->alpha_last);
}

static void
show_pinned (ShepardExplainPanel *self, gboolean pinned)
{
  gtk_widget_set_visible (self->hint_label, !pinned);
  gtk_widget_set_visible (self->unpin_button, pinned);
  gtk_widget_set_visible (self->pinned_box, pinned);
  gtk_widget_set_visible (self->neighbours_label, pinned);
  gtk_widget_set_visible (GTK_WIDGET (self->neighbours_grid), pinned);
}

void
shepard_explain_panel_set_pending (ShepardExplainPanel *self, gboolean pending)
{
  g_return_if_fail (SHEPARD_IS_EXPLAIN_PANEL (self));

  if (!pending)
    {
      shepard_explain_panel_set_explanation (self, NULL, NULL);
      return;
    }
  show_pinned (self, TRUE);
  gtk_widget_set_opacity (self->pinned_box, 0.5);
}

void
shepard_explain_panel_set_explanation (ShepardExplainPanel *self, ShepardExplanation *explanation,
                                       const char *value_name)
{
  g_return_if_fail (SHEPARD_IS_EXPLAIN_PANEL (self));

  if (explanation != NULL)
    shepard_explanation_ref (explanation);
  g_clear_pointer (&self->explanation, shepard_explanation_unref);
  self->explanation = explanation;
  show_pinned (self, explanation != NULL);
  gtk_widget_set_opacity (self->pinned_box, 1.0);
  if (explanation == NULL)
    {
      shepard_membership_plot_set_marker (self->membership_plot, NAN);
      shepard_alpha_plot_set_marker (self->alpha_plot, NAN, NAN);
      return;
    }
  const shepard_explanation *e = &explanation->explanation;
  g_autofree char *position = g_strdup_printf ("Pinned at x %.10g, y %.10g", explanation->x, explanation->y);
  gtk_label_set_text (self->position_label, position);
  g_autofree char *value = g_strdup_printf ("%s %.6g", value_name != NULL ? value_name : "value", e->value);
  gtk_label_set_text (self->value_label, value);
  g_autofree char *sum = sum_text (explanation);
  gtk_label_set_text (self->sum_label, sum);
  show_steps (self, e, &explanation->params);
  show_neighbours (self, explanation);
  gboolean aidw = explanation->params.method == SHEPARD_METHOD_AIDW;
  shepard_membership_plot_set_marker (self->membership_plot, aidw ? e->r : NAN);
  shepard_alpha_plot_set_marker (self->alpha_plot, aidw ? e->mu : NAN, aidw ? e->alpha : NAN);
}

ShepardExplanation *
shepard_explain_panel_get_explanation (ShepardExplainPanel *self)
{
  g_return_val_if_fail (SHEPARD_IS_EXPLAIN_PANEL (self), NULL);
  return self->explanation;
}

static void
on_unpin_clicked (ShepardExplainPanel *self)
{
  g_signal_emit (self, signals[SIGNAL_UNPIN], 0);
}

static void
shepard_explain_panel_dispose (GObject *object)
{
  ShepardExplainPanel *self = SHEPARD_EXPLAIN_PANEL (object);

  g_clear_pointer (&self->explanation, shepard_explanation_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_EXPLAIN_PANEL);
  G_OBJECT_CLASS (shepard_explain_panel_parent_class)->dispose (object);
}

static void
shepard_explain_panel_class_init (ShepardExplainPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_explain_panel_dispose;
  g_type_ensure (SHEPARD_TYPE_MEMBERSHIP_PLOT);
  g_type_ensure (SHEPARD_TYPE_ALPHA_PLOT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-explain-panel.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, ShepardExplainPanel, name)
  BIND (box);
  BIND (title_label);
  BIND (unpin_button);
  BIND (hint_label);
  BIND (pinned_box);
  BIND (position_label);
  BIND (value_label);
  BIND (sum_label);
  BIND (steps_grid);
  BIND (curves_label);
  BIND (membership_plot);
  BIND (alpha_plot);
  BIND (neighbours_label);
  BIND (neighbours_grid);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_unpin_clicked);
  signals[SIGNAL_UNPIN] = g_signal_new ("unpin", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                        G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_explain_panel_init (ShepardExplainPanel *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  shepard_params_init_aidw (&self->params);
}
