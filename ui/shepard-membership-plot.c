/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-membership-plot.h"

#include "shepard-engine.h"
#include "shepard-plot-private.h"

#include <math.h>

#define MIN_WIDTH 280
#define MIN_HEIGHT 180
#define NATURAL_WIDTH 360
#define NATURAL_HEIGHT 240
#define MARKER_RADIUS 4.5
#define BAR_OPACITY 0.3

struct _ShepardMembershipPlot
{
  GtkWidget parent_instance;

  /* Owned */
  double r_min, r_max;
  double *counts;
  size_t n_bins;
  double r_first, r_last;
  gboolean overflow;
  double marker;
};

G_DEFINE_FINAL_TYPE (ShepardMembershipPlot, shepard_membership_plot, GTK_TYPE_WIDGET)

GtkWidget *
shepard_membership_plot_new (void)
{
  return g_object_new (SHEPARD_TYPE_MEMBERSHIP_PLOT, NULL);
}

static void
update_description (ShepardMembershipPlot *self)
{
  double below, above;
  g_autofree char *text = NULL;

  shepard_membership_plot_get_shares (self, &below, &above);
  if (self->n_bins > 0)
    text = g_strdup_printf ("Rmin %g, Rmax %g; %.0f %% of cells at R ≤ Rmin, %.0f %% at R ≥ Rmax", self->r_min,
                            self->r_max, 100 * below, 100 * above);
  else
    text = g_strdup_printf ("Rmin %g, Rmax %g", self->r_min, self->r_max);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, text, -1);
}

void
shepard_membership_plot_set_thresholds (ShepardMembershipPlot *self, double r_min, double r_max)
{
  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));
  g_return_if_fail (r_min >= 0 && r_max > r_min && isfinite (r_max));

  if (self->r_min == r_min && self->r_max == r_max)
    return;
  self->r_min = r_min;
  self->r_max = r_max;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_membership_plot_get_thresholds (ShepardMembershipPlot *self, double *r_min, double *r_max)
{
  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));
  *r_min = self->r_min;
  *r_max = self->r_max;
}

void
shepard_membership_plot_set_histogram (ShepardMembershipPlot *self, const double *counts, size_t n_bins,
                                       double r_first, double r_last)
{
  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));
  g_return_if_fail (n_bins == 0 || counts != NULL);
  g_return_if_fail (n_bins == 0 || (r_first >= 0 && r_last > r_first && isfinite (r_last)));

  g_free (self->counts);
  self->counts = g_memdup2 (counts, n_bins * sizeof *counts);
  self->n_bins = n_bins;
  self->r_first = r_first;
  self->r_last = r_last;
  update_description (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_membership_plot_set_overflow (ShepardMembershipPlot *self, gboolean last_bin_overflows)
{
  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));

  if (self->overflow == !!last_bin_overflows)
    return;
  self->overflow = !!last_bin_overflows;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_membership_plot_set_marker (ShepardMembershipPlot *self, double r)
{
  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));

  if (self->marker == r || (isnan (self->marker) && isnan (r)))
    return;
  self->marker = r;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_membership_plot_get_shares (ShepardMembershipPlot *self, double *below_r_min, double *above_r_max)
{
  double total = 0, below = 0, above = 0;

  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));
  double width = self->n_bins > 0 ? (self->r_last - self->r_first) / self->n_bins : 1;
  for (size_t i = 0; i < self->n_bins; i++)
    {
      double lower = self->r_first + i * width, count = MAX (self->counts[i], 0);
      total += count;
      below += count * CLAMP ((self->r_min - lower) / width, 0.0, 1.0);
      above += count * CLAMP ((lower + width - self->r_max) / width, 0.0, 1.0);
    }
  *below_r_min = total > 0 ? below / total : 0;
  *above_r_max = total > 0 ? above / total : 0;
}

static void
layout_axes (ShepardMembershipPlot *self, PangoLayout *layout, ShepardPlotAxes *axes)
{
  double r_end = 1.25 * self->r_max;

  if (self->n_bins > 0)
    r_end = MAX (r_end, self->r_last);
  if (isfinite (self->marker))
    r_end = MAX (r_end, self->marker);
  _shepard_plot_layout_axes (axes, layout, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), 0, r_end, 0, 1);
}

void
shepard_membership_plot_data_to_widget (ShepardMembershipPlot *self, double r, double mu, double *wx, double *wy)
{
  ShepardPlotAxes axes;

  g_return_if_fail (SHEPARD_IS_MEMBERSHIP_PLOT (self));
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (GTK_WIDGET (self));
  layout_axes (self, layout, &axes);
  *wx = _shepard_plot_map_x (&axes, r);
  *wy = _shepard_plot_map_y (&axes, mu);
}

static void
format_share (double share, const char *where, char *text, size_t size)
{
  char percent[16];

  _shepard_plot_format_share (share, percent, sizeof percent);
  g_snprintf (text, size, "%s of cells\n%s", percent, where);
}

static void
draw_histogram (ShepardMembershipPlot *self, GtkSnapshot *snapshot, const ShepardPlotAxes *axes, int scale,
                const GdkRGBA *foreground)
{
  double largest = 0, width = (self->r_last - self->r_first) / self->n_bins;
  GdkRGBA bar = _shepard_plot_fade (foreground, BAR_OPACITY);

  for (size_t i = 0; i < self->n_bins; i++)
    largest = MAX (largest, self->counts[i]);
  if (largest <= 0)
    return;
  for (size_t i = 0; i < self->n_bins; i++)
    {
      double x0 = _shepard_plot_map_x (axes, self->r_first + i * width);
      double x1 = _shepard_plot_map_x (axes, self->r_first + (i + 1) * width);
      double top = _shepard_plot_map_y (axes, MAX (self->counts[i], 0) / largest);
      double bottom = _shepard_plot_map_y (axes, 0);
      if (self->counts[i] <= 0)
        continue;
      if (i + 1 < self->n_bins || !self->overflow)
        {
          _shepard_plot_rect (snapshot, x0, top, x1 - x0, bottom - top, scale, &bar);
          continue;
        }
      /* The bin that also holds everything beyond it: hatched, and open on the right. */
      graphene_rect_t bounds = GRAPHENE_RECT_INIT (x0, top, x1 - x0, bottom - top);
      cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &bounds);
      cairo_rectangle (cr, x0, top, x1 - x0, bottom - top);
      cairo_clip (cr);
      cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.12 * foreground->alpha);
      cairo_paint (cr);
      cairo_set_source_rgba (cr, foreground->red, foreground->green, foreground->blue, 0.45 * foreground->alpha);
      cairo_set_line_width (cr, 1);
      for (double d = -(bottom - top); d < x1 - x0; d += 5)
        {
          cairo_move_to (cr, x0 + d, bottom);
          cairo_line_to (cr, x0 + d + (bottom - top), top);
        }
      cairo_stroke (cr);
      cairo_destroy (cr);
    }
}

static void
shepard_membership_plot_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardMembershipPlot *self = SHEPARD_MEMBERSHIP_PLOT (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (widget);
  ShepardPlotAxes axes;
  GdkRGBA foreground, accent, backdrop;
  double below, above;
  char text[64];

  _shepard_plot_colors (widget, &foreground, &accent);
  _shepard_plot_backdrop (widget, &backdrop);
  layout_axes (self, layout, &axes);
  const graphene_rect_t *frame = &axes.frame;
  double left = frame->origin.x, top = frame->origin.y;
  double right = left + frame->size.width, bottom = top + frame->size.height;
  double x_min = _shepard_plot_map_x (&axes, self->r_min), x_max = _shepard_plot_map_x (&axes, self->r_max);
  GdkRGBA shade = _shepard_plot_fade (&foreground, 0.06);

  /* The flat stretches of mu first, under everything. */
  if (x_min > left)
    _shepard_plot_rect (snapshot, left, top, x_min - left, bottom - top, scale, &shade);
  _shepard_plot_rect (snapshot, x_max, top, right - x_max, bottom - top, scale, &shade);
  _shepard_plot_draw_axes (snapshot, layout, &axes, "R = r_obs / r_exp", "μ", scale, &foreground);
  if (self->n_bins > 0)
    draw_histogram (self, snapshot, &axes, scale, &foreground);

  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                         gtk_widget_get_height (widget)));
  double dashes[] = { 4, 3 };
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, 0.6 * foreground.alpha);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
  cairo_move_to (cr, x_min, bottom);
  cairo_line_to (cr, x_min, top);
  cairo_move_to (cr, x_max, bottom);
  cairo_line_to (cr, x_max, top);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  /* The curve at every half pixel; the cosine is flat where it meets the thresholds, so nothing sharp is missed. */
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_set_line_width (cr, 2);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  for (double x = left; x <= right + 0.25; x += 0.5)
    {
      double mu = shepard_aidw_membership (_shepard_plot_unmap_x (&axes, MIN (x, right)), self->r_min, self->r_max);
      cairo_line_to (cr, MIN (x, right), _shepard_plot_map_y (&axes, mu));
    }
  cairo_stroke (cr);

  if (isfinite (self->marker))
    {
      double x = _shepard_plot_map_x (&axes, self->marker);
      double y = _shepard_plot_map_y (&axes, shepard_aidw_membership (self->marker, self->r_min, self->r_max));
      cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, 0.8 * foreground.alpha);
      cairo_set_line_width (cr, 1);
      cairo_move_to (cr, x, bottom);
      cairo_line_to (cr, x, top);
      cairo_stroke (cr);
      cairo_arc (cr, x, y, MARKER_RADIUS, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &accent);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      gdk_cairo_set_source_rgba (cr, &foreground);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);

  /* Names above the frame; Rmax moves right rather than cover Rmin when the two are close. */
  GdkRGBA label = _shepard_plot_fade (&foreground, 0.9);
  double row = _shepard_plot_top_row (&axes, layout);
  int min_width, max_width;
  g_snprintf (text, sizeof text, "Rmin %.3g", self->r_min);
  _shepard_plot_text_size (layout, text, &min_width, NULL);
  double min_left = MAX (x_min - min_width / 2.0, left);
  _shepard_plot_text (snapshot, layout, text, min_left, row, 0, 1, &label);
  g_snprintf (text, sizeof text, "Rmax %.3g", self->r_max);
  _shepard_plot_text_size (layout, text, &max_width, NULL);
  double max_left = MIN (MAX (x_max - max_width / 2.0, min_left + min_width + 8),
                         gtk_widget_get_width (widget) - max_width - 2.0);
  _shepard_plot_text (snapshot, layout, text, max_left, row, 0, 1, &label);

  if (self->n_bins > 0)
    {
      shepard_membership_plot_get_shares (self, &below, &above);
      int text_width;
      format_share (above, "at R ≥ Rmax", text, sizeof text);
      _shepard_plot_text_size (layout, text, &text_width, NULL);
      double x = CLAMP ((x_max + right) / 2, x_max + 6 + text_width / 2.0, right - 6 - text_width / 2.0);
      _shepard_plot_text_on (snapshot, layout, text, x, top + (bottom - top) * 0.25, 0.5, 0.5, &foreground,
                             &backdrop);
      if (self->r_min > 0)
        {
          format_share (below, "at R ≤ Rmin", text, sizeof text);
          _shepard_plot_text_size (layout, text, &text_width, NULL);
          x = MAX ((left + x_min) / 2, left + 6 + text_width / 2.0);
          _shepard_plot_text_on (snapshot, layout, text, x, top + (bottom - top) * 0.25, 0.5, 0.5, &foreground,
                                 &backdrop);
        }
    }
}

static void
shepard_membership_plot_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                                 int *natural, int *minimum_baseline, int *natural_baseline)
{
  gboolean horizontal = orientation == GTK_ORIENTATION_HORIZONTAL;

  *minimum = horizontal ? MIN_WIDTH : MIN_HEIGHT;
  *natural = horizontal ? NATURAL_WIDTH : NATURAL_HEIGHT;
}

static void
shepard_membership_plot_finalize (GObject *object)
{
  ShepardMembershipPlot *self = SHEPARD_MEMBERSHIP_PLOT (object);

  g_free (self->counts);
  G_OBJECT_CLASS (shepard_membership_plot_parent_class)->finalize (object);
}

static void
shepard_membership_plot_class_init (ShepardMembershipPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = shepard_membership_plot_finalize;
  widget_class->measure = shepard_membership_plot_measure;
  widget_class->snapshot = shepard_membership_plot_snapshot;

  gtk_widget_class_set_css_name (widget_class, "plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
shepard_membership_plot_init (ShepardMembershipPlot *self)
{
  shepard_params params;

  shepard_params_init_aidw (&params);
  self->r_min = params.r_min;
  self->r_max = params.r_max;
  self->marker = NAN;
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "AIDW membership mu of R over the cells' R", -1);
  update_description (self);
}
