/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's instruments: the cross-validation and explain panels, the pin and its lines on the map, the residual
 * map, the distributions in the parameter panel, and the optimiser. The figures come from ShepardInstruments, which
 * follows the preview. */
#include "shepard-window-private.h"

#include <math.h>

static const char *
value_name (ShepardWindow *self)
{
  return self->document != NULL ? shepard_document_get_points (self->document)->field_name : NULL;
}

/* Results computed for points a sandbox has changed since refer to indices that may no longer exist. */
static gboolean
is_current (ShepardWindow *self, guint points_generation)
{
  return self->document != NULL && shepard_document_get_points_generation (self->document) == points_generation;
}

void
_shepard_window_update_point_colors (ShepardWindow *self)
{
  ShepardCrossValidation *validation = shepard_cv_panel_get_validation (self->cv_panel);
  const ShepardPointLayer *points;

  if (self->document == NULL)
    return;
  points = shepard_document_get_points (self->document);
  if (shepard_cv_panel_get_residual_map (self->cv_panel) && validation != NULL
      && is_current (self, validation->points_generation) && validation->n == points->count)
    {
      double largest = 0.0;
      for (size_t i = 0; i < validation->n; i++)
        largest = fmax (largest, fabs (validation->residual[i]));
      largest = largest > 0.0 ? largest : 1.0;
      /* Centred on 0: white where a point is predicted exactly, blue below and red above its value. */
      shepard_map_view_set_point_colors (self->map_view, validation->residual, validation->n,
                                         SHEPARD_COLOR_RAMP_DIVERGING, -largest, largest);
      return;
    }
  if (shepard_display_panel_get_surface (self->display_panel) != SHEPARD_WINDOW_SURFACE_VALUES && points->count > 0)
    {
      /* The surface shows alpha, R or a difference: the dots keep the colours of their values. */
      shepard_map_view_set_point_colors (self->map_view, points->z, points->count, shepard_window_get_ramp (self),
                                         shepard_document_get_value_min (self->document),
                                         shepard_document_get_value_max (self->document));
      return;
    }
  shepard_map_view_set_point_colors (self->map_view, NULL, 0, SHEPARD_COLOR_RAMP_VIRIDIS, 0.0, 1.0);
}

static void
select_point (ShepardWindow *self, gssize index, gboolean centre)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);

  self->selected_point = index >= 0 && (size_t) index < points->count ? index : -1;
  shepard_map_view_set_highlight (self->map_view, self->selected_point);
  shepard_cv_panel_set_selected (self->cv_panel, self->selected_point);
  if (centre && self->selected_point >= 0)
    shepard_map_view_center_on (self->map_view, points->x[index], points->y[index]);
}

static void
on_cross_validated (ShepardWindow *self, ShepardCrossValidation *validation, ShepardInstruments *instruments)
{
  if (!is_current (self, validation->points_generation))
    return;
  shepard_cv_panel_set_validation (self->cv_panel, validation, value_name (self));
  _shepard_window_update_point_colors (self);
}

static void
on_explained (ShepardWindow *self, ShepardExplanation *explanation, ShepardInstruments *instruments)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);

  if (!is_current (self, explanation->points_generation))
    return;
  shepard_explain_panel_set_explanation (self->explain_panel, explanation, value_name (self));
  shepard_map_overlay_set_explanation (self->map_overlay, explanation, points->x, points->y);
}

static void
on_distributions (ShepardWindow *self, ShepardInstruments *instruments)
{
  ShepardDistributions distributions;
  gboolean known = shepard_instruments_get_distributions (instruments, &distributions);

  shepard_parameter_panel_set_distributions (self->parameter_panel, known ? &distributions : NULL);
  shepard_explain_panel_set_distributions (self->explain_panel, known ? &distributions : NULL);
  if (shepard_display_panel_get_surface (self->display_panel) == SHEPARD_WINDOW_SURFACE_R_OBS)
    _shepard_window_update_display (self);
}

static void
on_comparison_ready (ShepardWindow *self, ShepardSurface *difference, ShepardInstruments *instruments)
{
  if (shepard_display_panel_get_surface (self->display_panel) == SHEPARD_WINDOW_SURFACE_DIFFERENCE)
    _shepard_window_update_display (self);
}

static void
on_instrument_failed (ShepardWindow *self, const char *what, const char *message, ShepardInstruments *instruments)
{
  if (g_str_equal (what, "cross-validation"))
    shepard_cv_panel_set_failure (self->cv_panel, message);
  else if (g_str_equal (what, "comparison"))
    {
      g_autofree char *text = g_strdup_printf ("No difference surface: %s", message);
      gtk_label_set_text (self->map_note_label, text);
      gtk_widget_set_visible (GTK_WIDGET (self->map_note_label), TRUE);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("Cannot compute the %s: %s", what, message);
      shepard_window_show_message (self, GTK_MESSAGE_WARNING, text);
    }
}

static void
on_cross_validating (ShepardWindow *self, GParamSpec *pspec, ShepardInstruments *instruments)
{
  shepard_cv_panel_set_running (self->cv_panel, shepard_instruments_get_cross_validating (instruments),
                                _shepard_window_engine_on_gpu (self));
}

static void
pin (ShepardWindow *self, double x, double y)
{
  shepard_instruments_set_pin (self->instruments, x, y);
  shepard_map_overlay_set_pin (self->map_overlay, x, y);
  shepard_explain_panel_set_pending (self->explain_panel, isfinite (x));
  if (isfinite (x))
    gtk_stack_set_visible_child_name (self->instrument_stack, "explain");
}

static void
on_map_clicked (ShepardWindow *self, double x, double y, guint modifiers, ShepardMapView *view)
{
  /* In a sandbox a plain click adds a point (shepard-window-sandbox.c); Ctrl+click pins there. */
  if (self->document == NULL
      || (shepard_document_is_sandbox (self->document) && !(modifiers & GDK_CONTROL_MASK)))
    return;
  pin (self, x, y);
}

static void
on_point_clicked (ShepardWindow *self, guint index, ShepardMapView *view)
{
  if (self->document != NULL)
    select_point (self, index, FALSE);
}

static void
on_cv_point_activated (ShepardWindow *self, guint index, ShepardCvPanel *panel)
{
  if (self->document != NULL)
    select_point (self, index, TRUE);
}

static void
on_unpin (ShepardWindow *self)
{
  pin (self, NAN, NAN);
}

static void
unpin_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  on_unpin (SHEPARD_WINDOW (widget));
}

static void
show_optimise_progress (GObject *target, double fraction)
{
  ShepardWindow *self = SHEPARD_WINDOW (target);

  if (self->optimise_cancellable != NULL)
    shepard_cv_panel_show_optimising (self->cv_panel, fraction);
}

static void
on_optimised (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  ShepardOptimiseResult optimised;
  gboolean done = shepard_document_optimise_finish (SHEPARD_DOCUMENT (source), result, &optimised, &error);

  if (self->disposed)
    {
      g_clear_object (&self->optimise_cancellable);
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->optimise_cancellable);
  gtk_widget_set_sensitive (GTK_WIDGET (self->parameter_panel), TRUE);
  if (done)
    {
      self->optimised = optimised;
      shepard_cv_panel_show_optimised (self->cv_panel, &optimised, shepard_cv_panel_get_objective (self->cv_panel));
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    shepard_cv_panel_clear_optimisation (self->cv_panel);
  else
    shepard_cv_panel_show_optimise_failed (self->cv_panel, error->message);
  g_object_unref (self);
}

static void
on_optimise (ShepardWindow *self, ShepardCvPanel *panel)
{
  ShepardOptimiseOptions options;
  shepard_params params;

  if (self->document == NULL || self->optimise_cancellable != NULL)
    return;
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  shepard_optimise_options_init (&options);
  options.objective = shepard_cv_panel_get_objective (panel);
  options.free_alphas = shepard_cv_panel_get_free_alphas (panel);
  self->optimise_cancellable = g_cancellable_new ();
  /* The engine is the optimiser's until it is done: the panel waits rather than queue surfaces behind it. */
  gtk_widget_set_sensitive (GTK_WIDGET (self->parameter_panel), FALSE);
  shepard_cv_panel_show_optimising (panel, -1.0);
  shepard_document_optimise_async (self->document, &params, &options, show_optimise_progress, G_OBJECT (self),
                                   self->optimise_cancellable, on_optimised, g_object_ref (self));
}

static void
on_cancel_optimise (ShepardWindow *self)
{
  if (self->optimise_cancellable != NULL)
    g_cancellable_cancel (self->optimise_cancellable);
}

static void
on_apply_optimised (ShepardWindow *self)
{
  shepard_parameter_panel_set_params (self->parameter_panel, &self->optimised.best);
}

static void
on_residual_map_changed (ShepardWindow *self)
{
  _shepard_window_update_point_colors (self);
}

void
_shepard_window_instruments_params_changed (ShepardWindow *self, const shepard_params *params)
{
  shepard_explain_panel_set_params (self->explain_panel, params);
  if (params->method != SHEPARD_METHOD_AIDW)
    {
      shepard_parameter_panel_set_distributions (self->parameter_panel, NULL);
      shepard_explain_panel_set_distributions (self->explain_panel, NULL);
    }
  _shepard_window_update_display (self);
}

void
_shepard_window_instruments_show_document (ShepardWindow *self)
{
  shepard_params params;

  on_cancel_optimise (self);
  shepard_cv_panel_clear_optimisation (self->cv_panel);
  shepard_cv_panel_set_validation (self->cv_panel, NULL, NULL);
  pin (self, NAN, NAN);
  self->selected_point = -1;
  shepard_cv_panel_set_selected (self->cv_panel, -1);
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  shepard_explain_panel_set_params (self->explain_panel, &params);
  shepard_explain_panel_set_distributions (self->explain_panel, NULL);
  shepard_parameter_panel_set_distributions (self->parameter_panel, NULL);
}

void
_shepard_window_instruments_dispose (ShepardWindow *self)
{
  on_cancel_optimise (self);
}

void
_shepard_window_class_instruments_init (ShepardWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.unpin", NULL, unpin_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "win.unpin", NULL);
}

void
_shepard_window_instruments_init (ShepardWindow *self)
{
  self->instruments = shepard_instruments_new (self->preview);
  g_signal_connect_object (self->instruments, "cross-validated", G_CALLBACK (on_cross_validated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruments, "explained", G_CALLBACK (on_explained), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruments, "distributions", G_CALLBACK (on_distributions), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruments, "comparison-ready", G_CALLBACK (on_comparison_ready), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruments, "failed", G_CALLBACK (on_instrument_failed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->instruments, "notify::cross-validating", G_CALLBACK (on_cross_validating), self,
                           G_CONNECT_SWAPPED);
  g_object_bind_property (self->cv_panel, "live", self->instruments, "cross-validation-enabled",
                          G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->cv_panel, "notify::residual-map", G_CALLBACK (on_residual_map_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cv_panel, "point-activated", G_CALLBACK (on_cv_point_activated), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cv_panel, "optimise", G_CALLBACK (on_optimise), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cv_panel, "cancel-optimise", G_CALLBACK (on_cancel_optimise), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->cv_panel, "apply-optimised", G_CALLBACK (on_apply_optimised), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->explain_panel, "unpin", G_CALLBACK (on_unpin), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "clicked", G_CALLBACK (on_map_clicked), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "point-clicked", G_CALLBACK (on_point_clicked), self, G_CONNECT_SWAPPED);
}
