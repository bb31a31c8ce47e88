/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-alpha-plot.h"

#include "shepard-plot-private.h"

#include <math.h>
#include <string.h>

#define MIN_WIDTH 240
#define MIN_HEIGHT 180
#define NATURAL_WIDTH 360
#define NATURAL_HEIGHT 240
#define MARKER_RADIUS 4.5
#define VERTEX_RADIUS 2.5
/* Bars are at least this thick, so that a bin of alpha5 alone still reads as a bar at the levels' usual span. */
#define MIN_BAR_THICKNESS 6.0
#define BAR_OPACITY 0.3

/* Where the triangular membership reaches each level: alpha1 from mu = 0.1 on, ..., alpha5 from 0.9 on. */
static const double level_mu[SHEPARD_AIDW_LEVELS] = { 0.1, 0.3, 0.5, 0.7, 0.9 };

struct _ShepardAlphaPlot
{
  GtkWidget parent_instance;

  /* Owned */
  double levels[SHEPARD_AIDW_LEVELS];
  double *counts;
  size_t n_bins;
  double alpha_first, alpha_last;
  double marker_mu, marker_alpha;
};

G_DEFINE_FINAL_TYPE (ShepardAlphaPlot, shepard_alpha_plot, GTK_TYPE_WIDGET)

GtkWidget *
shepard_alpha_plot_new (void)
{
  return g_object_new (SHEPARD_TYPE_ALPHA_PLOT, NULL);
}

/* The bin with the largest count (-1 when none counts) and its share of all. */
static gssize
largest_bin (ShepardAlphaPlot *self, double *share)
{
  double total = 0, largest = 0;
  gssize found = -1;

  for (size_t i = 0; i < self->n_bins; i++)
    {
      double count = MAX (self->counts[i], 0);
      total += count;
      if (count > largest)
        {
          largest = count;
          found = (gssize) i;
        }
    }
  *share = total > 0 ? largest / total : 0;
  return found;
}

/* "97 % of cells at α5" for the largest bin, naming the level it holds, or "… at α 2.40–2.45"; FALSE without
 * counts. */
static gboolean
describe_largest (ShepardAlphaPlot *self, char *text, size_t size)
{
  double share, width = (self->alpha_last - self->alpha_first) / MAX (self->n_bins, 1);
  gssize largest = largest_bin (self, &share);
  char percent[16];
  int level = -1;

  if (largest < 0)
    return FALSE;
  double lower = self->alpha_first + largest * width, upper = lower + width;
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    if (self->levels[i] >= lower - 1e-9 * width && self->levels[i] <= upper + 1e-9 * width)
      level = i;
  _shepard_plot_format_share (share, percent, sizeof percent);
  if (level >= 0)
    g_snprintf (text, size, "%s of cells at α%d", percent, level + 1);
  else
    g_snprintf (text, size, "%s of cells at α %.3g–%.3g", percent, lower, upper);
  return TRUE;
}

static void
update_description (ShepardAlphaPlot *self)
{
  char largest[64];
  gboolean counted = describe_largest (self, largest, sizeof largest);
  g_autofree char *text = g_strdup_printf ("Levels %g, %g, %g, %g, %g%s%s", self->levels[0], self->levels[1],
                                           self->levels[2], self->levels[3], self->levels[4], counted ? "; " : "",
                                           counted ? largest : "");

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
shepard_alpha_plot_set_levels (ShepardAlphaPlot *self, const double alpha[SHEPARD_AIDW_LEVELS])
{
  g_return_if_fail (SHEPARD_IS_ALPHA_PLOT (self));
  g_return_if_fail (alpha != NULL);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    g_return_if_fail (alpha[i] > 0 && isfinite (alpha[i]));

  if (memcmp (self->levels, alpha, sizeof self->levels) == 0)
    return;
  memcpy (self->levels, alpha, sizeof self->levels);
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_alpha_plot_get_levels (ShepardAlphaPlot *self, double alpha[SHEPARD_AIDW_LEVELS])
{
  g_return_if_fail (SHEPARD_IS_ALPHA_PLOT (self));
  memcpy (alpha, self->levels, sizeof self->levels);
}

void
shepard_alpha_plot_set_histogram (ShepardAlphaPlot *self, const double *counts, size_t n_bins, double alpha_first,
                                  double alpha_last)
{
  g_return_if_fail (SHEPARD_IS_ALPHA_PLOT (self));
  g_return_if_fail (n_bins == 0 || counts != NULL);
  g_return_if_fail (n_bins == 0 || (alpha_last > alpha_first && isfinite (alpha_first) && isfinite (alpha_last)));

  g_free (self->counts);
  self->counts = g_memdup2 (counts, n_bins * sizeof *counts);
  self->n_bins = n_bins;
  self->alpha_first = alpha_first;
  self->alpha_last = alpha_last;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_alpha_plot_set_marker (ShepardAlphaPlot *self, double mu, double alpha)
{
  g_return_if_fail (SHEPARD_IS_ALPHA_PLOT (self));

  self->marker_mu = mu;
  self->marker_alpha = alpha;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
has_marker (ShepardAlphaPlot *self)
{
  return isfinite (self->marker_mu) && isfinite (self->marker_alpha);
}

/* Some room above and below the levels, so that the flat ends of the curve do not run along the frame. */
static void
layout_axes (ShepardAlphaPlot *self, PangoLayout *layout, ShepardPlotAxes *axes)
{
  double lo = INFINITY, hi = -INFINITY;

  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      lo = MIN (lo, self->levels[i]);
      hi = MAX (hi, self->levels[i]);
    }
  if (self->n_bins > 0)
    {
      lo = MIN (lo, self->alpha_first);
      hi = MAX (hi, self->alpha_last);
    }
  if (has_marker (self))
    {
      lo = MIN (lo, self->marker_alpha);
      hi = MAX (hi, self->marker_alpha);
    }
  double margin = 0.05 * MAX (hi - lo, 0.5);
  _shepard_plot_layout_axes (axes, layout, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), 0, 1, MAX (lo - margin, 0), hi + margin);
}

void
shepard_alpha_plot_data_to_widget (ShepardAlphaPlot *self, double mu, double alpha, double *wx, double *wy)
{
  ShepardPlotAxes axes;

  g_return_if_fail (SHEPARD_IS_ALPHA_PLOT (self));
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (GTK_WIDGET (self));
  layout_axes (self, layout, &axes);
  *wx = _shepard_plot_map_x (&axes, mu);
  *wy = _shepard_plot_map_y (&axes, alpha);
}

/* The cells' alpha as horizontal bars along the alpha axis rather than bars of mu under the curve: alpha is what the
 * weighting uses, and the curve's flat ends send every mu below 0.1 to alpha1 and every mu above 0.9 to alpha5, so a
 * histogram of mu would spread "95 % of cells sit at alpha5" over a stretch of bars, where this one draws a single
 * bar at alpha5's height, beside the level's name and the plateau it comes from. */
static void
draw_histogram (ShepardAlphaPlot *self, GtkSnapshot *snapshot, const ShepardPlotAxes *axes, int scale,
                const GdkRGBA *foreground)
{
  double share, width = (self->alpha_last - self->alpha_first) / self->n_bins;
  gssize largest = largest_bin (self, &share);
  double left = _shepard_plot_map_x (axes, 0);

  if (largest < 0)
    return;
  /* One group at the bars' opacity: bars widened to stay visible may overlap without darkening. */
  gtk_snapshot_push_opacity (snapshot, BAR_OPACITY);
  for (size_t i = 0; i < self->n_bins; i++)
    {
      double top = _shepard_plot_map_y (axes, self->alpha_first + (i + 1) * width);
      double bottom = _shepard_plot_map_y (axes, self->alpha_first + i * width);
      double right = _shepard_plot_map_x (axes, MAX (self->counts[i], 0) / self->counts[largest]);
      double thickness = MAX (bottom - top, MIN_BAR_THICKNESS);
      if (self->counts[i] > 0)
        _shepard_plot_rect (snapshot, left, (top + bottom - thickness) / 2, right - left, thickness, scale,
                            foreground);
    }
  gtk_snapshot_pop (snapshot);
}

static void
shepard_alpha_plot_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardAlphaPlot *self = SHEPARD_ALPHA_PLOT (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (widget);
  ShepardPlotAxes axes;
  GdkRGBA foreground, accent;

  _shepard_plot_colors (widget, &foreground, &accent);
  layout_axes (self, layout, &axes);
  const graphene_rect_t *frame = &axes.frame;
  double left = frame->origin.x, top = frame->origin.y;
  double right = left + frame->size.width, bottom = top + frame->size.height;

  _shepard_plot_draw_axes (snapshot, layout, &axes, "μ", "α", scale, &foreground);
  if (self->n_bins > 0)
    draw_histogram (self, snapshot, &axes, scale, &foreground);

  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                         gtk_widget_get_height (widget)));
  /* Piecewise linear between the levels, so its corners are exact: through each level's point and both ends. */
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_move_to (cr, left, _shepard_plot_map_y (&axes, shepard_aidw_alpha (0, self->levels)));
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    cairo_line_to (cr, _shepard_plot_map_x (&axes, level_mu[i]),
                   _shepard_plot_map_y (&axes, shepard_aidw_alpha (level_mu[i], self->levels)));
  cairo_line_to (cr, right, _shepard_plot_map_y (&axes, shepard_aidw_alpha (1, self->levels)));
  cairo_stroke (cr);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      cairo_arc (cr, _shepard_plot_map_x (&axes, level_mu[i]), _shepard_plot_map_y (&axes, self->levels[i]),
                 VERTEX_RADIUS, 0, 2 * G_PI);
      cairo_fill (cr);
    }

  if (has_marker (self))
    {
      double x = _shepard_plot_map_x (&axes, self->marker_mu), y = _shepard_plot_map_y (&axes, self->marker_alpha);
      double dashes[] = { 3, 3 };
      cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, 0.6 * foreground.alpha);
      cairo_set_line_width (cr, 1);
      cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, y + MARKER_RADIUS);
      cairo_move_to (cr, left, y);
      cairo_line_to (cr, x - MARKER_RADIUS, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_arc (cr, x, y, MARKER_RADIUS, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &accent);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      gdk_cairo_set_source_rgba (cr, &foreground);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);

  /* The largest share in the row above the frame, clear of the curve and its names at any size. */
  char text[64];
  if (describe_largest (self, text, sizeof text))
    _shepard_plot_text (snapshot, layout, text, right, _shepard_plot_top_row (&axes, layout), 1, 1, &foreground);

  /* Each level named above and left of its point, where a rising curve leaves room. */
  GdkRGBA label = _shepard_plot_fade (&foreground, 0.9);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      g_snprintf (text, sizeof text, "α%d", i + 1);
      _shepard_plot_text (snapshot, layout, text, _shepard_plot_map_x (&axes, level_mu[i]) - 3,
                          _shepard_plot_map_y (&axes, self->levels[i]) - 3, 1, 1, &label);
    }
}

static void
shepard_alpha_plot_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                            int *minimum_baseline, int *natural_baseline)
{
  gboolean horizontal = orientation == GTK_ORIENTATION_HORIZONTAL;

  *minimum = horizontal ? MIN_WIDTH : MIN_HEIGHT;
  *natural = horizontal ? NATURAL_WIDTH : NATURAL_HEIGHT;
}

static void
shepard_alpha_plot_finalize (GObject *object)
{
  ShepardAlphaPlot *self = SHEPARD_ALPHA_PLOT (object);

  g_free (self->counts);
  G_OBJECT_CLASS (shepard_alpha_plot_parent_class)->finalize (object);
}

static void
shepard_alpha_plot_class_init (ShepardAlphaPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = shepard_alpha_plot_finalize;
  widget_class->measure = shepard_alpha_plot_measure;
  widget_class->snapshot = shepard_alpha_plot_snapshot;

  gtk_widget_class_set_css_name (widget_class, "plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
shepard_alpha_plot_init (ShepardAlphaPlot *self)
{
  shepard_params params;

  shepard_params_init_aidw (&params);
  memcpy (self->levels, params.alpha, sizeof self->levels);
  self->marker_mu = self->marker_alpha = NAN;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "AIDW power alpha of mu over the cells' alpha", -1);
  update_description (self);
}
