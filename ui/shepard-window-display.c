/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the map and the legend show of the surface the display panel picks: the plane, the ramp, the range in the
 * plane's units, the stretch and the classes, and the title. */
#include "shepard-window-private.h"

#include <math.h>

static ShepardWindowSurface
shown_surface (ShepardWindow *self)
{
  return (ShepardWindowSurface) shepard_display_panel_get_surface (self->display_panel);
}

/* The legend's range, the map's range (in the units of the plane drawn: R is drawn from r_obs) and ramp. */
typedef struct {
  const char *title;
  ShepardColorRamp ramp;
  shepard_plane plane;
  double legend_min, legend_max;
  double map_min, map_max;
} Display;

static gboolean
display_for (ShepardWindow *self, ShepardWindowSurface kind, const shepard_params *params, ShepardSurface *surface,
             Display *display, const char **note)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  gboolean aidw = params->method == SHEPARD_METHOD_AIDW;
  double r_exp = surface != NULL ? surface->r_exp : NAN;
  ShepardDistributions distributions;

  *display = (Display) {
    .title = points->field_name,
    .ramp = shepard_window_get_ramp (self),
    .plane = SHEPARD_PLANE_VALUES,
    .legend_min = shepard_document_get_value_min (self->document),
    .legend_max = shepard_document_get_value_max (self->document),
  };
  switch (kind)
    {
    case SHEPARD_WINDOW_SURFACE_VALUES:
      break;
    case SHEPARD_WINDOW_SURFACE_ALPHA:
      display->title = aidw ? "α" : "power p";
      display->ramp = SHEPARD_COLOR_RAMP_PLASMA;
      display->plane = SHEPARD_PLANE_ALPHA;
      display->legend_min = aidw ? INFINITY : params->power - 0.5;
      display->legend_max = aidw ? -INFINITY : params->power + 0.5;
      for (int i = 0; aidw && i < SHEPARD_AIDW_LEVELS; i++)
        {
          display->legend_min = fmin (display->legend_min, params->alpha[i]);
          display->legend_max = fmax (display->legend_max, params->alpha[i]);
        }
      break;
    case SHEPARD_WINDOW_SURFACE_R:
    case SHEPARD_WINDOW_SURFACE_R_OBS:
      if (!aidw || !isfinite (r_exp))
        {
          *note = "R and r_obs belong to adaptive IDW: the map shows the values.";
          break;
        }
      display->plane = SHEPARD_PLANE_R_OBS;
      if (kind == SHEPARD_WINDOW_SURFACE_R)
        {
          /* White where mu is 1/2; the colours saturate where mu does, at Rmin and Rmax. */
          display->title = "R";
          display->ramp = SHEPARD_COLOR_RAMP_DIVERGING;
          display->legend_min = params->r_min;
          display->legend_max = params->r_max;
          display->map_min = params->r_min * r_exp;
          display->map_max = params->r_max * r_exp;
          return TRUE;
        }
      display->title = "r_obs";
      display->ramp = SHEPARD_COLOR_RAMP_VIRIDIS;
      display->legend_min = 0.0;
      display->legend_max = shepard_instruments_get_distributions (self->instruments, &distributions)
                              ? distributions.r_last * r_exp
                              : 2.0 * params->r_max * r_exp;
      break;
    case SHEPARD_WINDOW_SURFACE_DIFFERENCE:
      {
        ShepardSurface *difference = shepard_instruments_get_comparison (self->instruments);
        if (difference == NULL)
          {
            *note = "Computing the other method for the difference…";
            break;
          }
        double largest = fmax (fabs (difference->value_min), fabs (difference->value_max));
        display->title = params->method == SHEPARD_METHOD_AIDW ? "AIDW − IDW" : "IDW − AIDW";
        display->ramp = SHEPARD_COLOR_RAMP_DIVERGING;
        display->legend_min = -fmax (largest, 1e-300);
        display->legend_max = fmax (largest, 1e-300);
        display->map_min = display->legend_min;
        display->map_max = display->legend_max;
        return TRUE;
      }
    }
  /* An empty sandbox has no values yet. */
  if (!isfinite (display->legend_min) || !isfinite (display->legend_max))
    {
      display->legend_min = 0.0;
      display->legend_max = 1.0;
    }
  display->map_min = display->legend_min;
  display->map_max = display->legend_max;
  return FALSE;
}

/* The display panel's stretch (for the values) and classes, over the cells of the plane shown. */
static void
apply_stretch_and_classes (ShepardWindow *self, ShepardWindowSurface kind, ShepardSurface *shown, Display *display)
{
  ShepardStretch stretch = kind == SHEPARD_WINDOW_SURFACE_VALUES ? shepard_display_panel_get_stretch (self->display_panel)
                                                                 : SHEPARD_STRETCH_DATA_RANGE;
  ShepardClasses classes = shepard_display_panel_get_classes (self->display_panel);
  guint n_classes = MIN (shepard_display_panel_get_class_count (self->display_panel), SHEPARD_RENDER_MAX_CLASSES);
  double map_breaks[SHEPARD_RENDER_MAX_CLASSES + 1], legend_breaks[SHEPARD_RENDER_MAX_CLASSES + 1];
  g_autofree float *cells = NULL;
  double low, high;

  if (shown != NULL && (stretch == SHEPARD_STRETCH_CUMULATIVE_CUT || classes == SHEPARD_CLASSES_QUANTILE))
    cells = shepard_surface_copy_plane (shown, shepard_surface_has_plane (shown, display->plane) ? display->plane
                                                                                                : SHEPARD_PLANE_VALUES,
                                        NULL);
  size_t n_cells = shown != NULL ? shown->grid.width * shown->grid.height : 0;

  if (kind == SHEPARD_WINDOW_SURFACE_VALUES)
    shepard_display_panel_suggest_custom_range (self->display_panel, display->legend_min, display->legend_max);
  if (stretch == SHEPARD_STRETCH_CUSTOM)
    shepard_display_panel_get_custom_range (self->display_panel, &low, &high);
  if ((stretch == SHEPARD_STRETCH_CUSTOM
       || (stretch == SHEPARD_STRETCH_CUMULATIVE_CUT && cells != NULL
           && shepard_stretch_quantiles (cells, n_cells, SHEPARD_STRETCH_CUT_LOWER, SHEPARD_STRETCH_CUT_UPPER, &low,
                                         &high)))
      && high > low)
    {
      display->legend_min = display->map_min = low;
      display->legend_max = display->map_max = high;
    }

  if (classes == SHEPARD_CLASSES_EQUAL_INTERVAL)
    shepard_stretch_equal_breaks (display->map_min, display->map_max, n_classes, map_breaks);
  else if (classes != SHEPARD_CLASSES_QUANTILE || cells == NULL
           || !shepard_stretch_quantile_breaks (cells, n_cells, n_classes, map_breaks))
    n_classes = 0;
  /* The legend may count in other units than the plane drawn (R from r_obs): the same linear map as the range's. */
  double map_span = display->map_max - display->map_min;
  for (guint i = 0; n_classes > 0 && i <= n_classes; i++)
    legend_breaks[i] = map_span > 0 ? display->legend_min + (map_breaks[i] - display->map_min) / map_span
                                                             * (display->legend_max - display->legend_min)
                                    : map_breaks[i];
  shepard_map_view_set_classes (self->map_view, map_breaks, n_classes);
  shepard_legend_set_classes (self->legend, legend_breaks, n_classes);
}

void
_shepard_window_update_display (ShepardWindow *self)
{
  ShepardWindowSurface kind = shown_surface (self);
  ShepardSurface *surface = shepard_preview_get_surface (self->preview);
  const char *note = NULL;
  shepard_params params;
  Display display;

  if (self->document == NULL)
    return;
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  if (kind == SHEPARD_WINDOW_SURFACE_DIFFERENCE)
    {
      shepard_params other;
      _shepard_window_other_method (self, &other);
      shepard_instruments_set_comparison (self->instruments, &other);
    }
  else
    shepard_instruments_set_comparison (self->instruments, NULL);
  /* The surface's own parameters describe it: the panel's may be ones the engine refused (Rmin above Rmax...), while
   * the last valid surface stays on screen. */
  gboolean is_difference = display_for (self, kind, surface != NULL ? &surface->params : &params, surface, &display,
                                        &note)
                           && kind == SHEPARD_WINDOW_SURFACE_DIFFERENCE;
  shepard_map_view_set_surface (self->map_view, is_difference ? shepard_instruments_get_comparison (self->instruments)
                                                              : surface);
  apply_stretch_and_classes (self, kind, is_difference ? shepard_instruments_get_comparison (self->instruments)
                                                        : surface, &display);
  shepard_map_view_set_plane (self->map_view, display.plane);
  shepard_map_view_set_ramp (self->map_view, display.ramp);
  shepard_map_view_set_range (self->map_view, display.map_min, display.map_max);
  shepard_legend_set_ramp (self->legend, display.ramp);
  shepard_legend_set_minimum (self->legend, display.legend_min);
  shepard_legend_set_maximum (self->legend, display.legend_max);
  shepard_legend_set_title (self->legend, display.title);
  gtk_label_set_text (self->map_note_label, note != NULL ? note : "");
  gtk_widget_set_visible (GTK_WIDGET (self->map_note_label), note != NULL);
  _shepard_window_update_point_colors (self);
}
