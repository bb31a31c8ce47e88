/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-scatter-plot.h"

#include "shepard-plot-private.h"

#include <math.h>
#include <string.h>

#define MIN_WIDTH 280
#define MIN_HEIGHT 180
#define NATURAL_WIDTH 360
#define NATURAL_HEIGHT 260
#define HIT_DISTANCE 6.0
#define SELECTED_RADIUS 5.0

/* What the cached texture of the points was drawn for: frame, axis ranges, scale and colour. */
enum { CLOUD_KEY_SIZE = 13 };

struct _ShepardScatterPlot
{
  GtkWidget parent_instance;

  /* Owned */
  double *observed, *predicted;
  size_t n_points, n_drawn;
  double lo, hi; /* range of the drawn values, on both axes */
  gssize selected;
  char *axis_title;
  GdkTexture *cloud;
  graphene_rect_t cloud_bounds;
  double cloud_key[CLOUD_KEY_SIZE];
};

G_DEFINE_FINAL_TYPE (ShepardScatterPlot, shepard_scatter_plot, GTK_TYPE_WIDGET)

enum {
  SIGNAL_POINT_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_scatter_plot_new (void)
{
  return g_object_new (SHEPARD_TYPE_SCATTER_PLOT, NULL);
}

void
shepard_scatter_plot_set_points (ShepardScatterPlot *self, const double *observed, const double *predicted, size_t n)
{
  g_return_if_fail (SHEPARD_IS_SCATTER_PLOT (self));
  g_return_if_fail (n == 0 || (observed != NULL && predicted != NULL));

  /* The same number of points again, as while a slider moves, reuses the arrays: fresh pages cost more than a copy. */
  if (n != self->n_points)
    {
      g_free (self->observed);
      g_free (self->predicted);
      self->observed = g_new (double, n);
      self->predicted = g_new (double, n);
      self->n_points = n;
    }
  if (n > 0)
    {
      memcpy (self->observed, observed, n * sizeof *observed);
      memcpy (self->predicted, predicted, n * sizeof *predicted);
    }
  self->n_drawn = 0;
  self->lo = INFINITY;
  self->hi = -INFINITY;
  for (size_t i = 0; i < n; i++)
    if (isfinite (observed[i]) && isfinite (predicted[i]))
      {
        self->n_drawn++;
        self->lo = MIN (self->lo, MIN (observed[i], predicted[i]));
        self->hi = MAX (self->hi, MAX (observed[i], predicted[i]));
      }
  if (self->n_drawn == 0)
    {
      self->lo = 0;
      self->hi = 1;
    }
  if (self->selected >= 0 && (gsize) self->selected >= n)
    self->selected = -1;
  g_clear_object (&self->cloud);

  g_autofree char *description = g_strdup_printf ("%zu points", self->n_drawn);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, description, -1);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

size_t
shepard_scatter_plot_get_n_points (ShepardScatterPlot *self)
{
  g_return_val_if_fail (SHEPARD_IS_SCATTER_PLOT (self), 0);
  return self->n_points;
}

void
shepard_scatter_plot_set_selected (ShepardScatterPlot *self, gssize index)
{
  g_return_if_fail (SHEPARD_IS_SCATTER_PLOT (self));
  g_return_if_fail (index >= -1);

  if (index >= 0 && (gsize) index >= self->n_points)
    index = -1;
  if (self->selected == index)
    return;
  self->selected = index;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gssize
shepard_scatter_plot_get_selected (ShepardScatterPlot *self)
{
  g_return_val_if_fail (SHEPARD_IS_SCATTER_PLOT (self), -1);
  return self->selected;
}

void
shepard_scatter_plot_set_axis_title (ShepardScatterPlot *self, const char *title)
{
  g_return_if_fail (SHEPARD_IS_SCATTER_PLOT (self));

  if (g_strcmp0 (self->axis_title, title) == 0)
    return;
  g_free (self->axis_title);
  self->axis_title = g_strdup (title);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Both axes get the same ticks, the coarser of the two each length allows, so that the 1:1 line is the diagonal. */
static void
layout_axes (ShepardScatterPlot *self, PangoLayout *layout, ShepardPlotAxes *axes)
{
  _shepard_plot_layout_axes (axes, layout, gtk_widget_get_width (GTK_WIDGET (self)),
                             gtk_widget_get_height (GTK_WIDGET (self)), self->lo, self->hi, self->lo, self->hi);
  if (axes->x.step > axes->y.step)
    axes->y = axes->x;
  else
    axes->x = axes->y;
}

static void
compute_axes (ShepardScatterPlot *self, ShepardPlotAxes *axes)
{
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (GTK_WIDGET (self));
  layout_axes (self, layout, axes);
}

void
shepard_scatter_plot_data_to_widget (ShepardScatterPlot *self, double x, double y, double *wx, double *wy)
{
  ShepardPlotAxes axes;

  g_return_if_fail (SHEPARD_IS_SCATTER_PLOT (self));
  compute_axes (self, &axes);
  *wx = _shepard_plot_map_x (&axes, x);
  *wy = _shepard_plot_map_y (&axes, y);
}

gssize
shepard_scatter_plot_point_at (ShepardScatterPlot *self, double wx, double wy)
{
  ShepardPlotAxes axes;
  double best = HIT_DISTANCE * HIT_DISTANCE;
  gssize found = -1;

  g_return_val_if_fail (SHEPARD_IS_SCATTER_PLOT (self), -1);
  compute_axes (self, &axes);
  for (size_t i = 0; i < self->n_points; i++)
    {
      double dx = _shepard_plot_map_x (&axes, self->observed[i]) - wx;
      double dy = _shepard_plot_map_y (&axes, self->predicted[i]) - wy;
      double distance = dx * dx + dy * dy;
      /* A non-finite pair maps to NaN, which compares false. */
      if (distance <= best)
        {
          best = distance;
          found = (gssize) i;
        }
    }
  return found;
}

/* Smaller, fainter dots as points grow in number, so that a million still show where they crowd. */
static double
dot_radius (size_t n)
{
  return CLAMP (2.5 - 0.5 * log10 (MAX (n, 1) / 1e4), 1.0, 2.5);
}

static double
dot_opacity (size_t n)
{
  return CLAMP (60.0 / sqrt (MAX (n, 1)), 0.3, 0.85);
}

/* The points as one texture at device pixels: each point counted into the pixel it falls in, and each counted pixel
 * spread over an antialiased disc. A pixel under one dot gets the dot's opacity, and overlaps darken with the
 * logarithm of the dots over the pixel up to opaque at the densest one, so that the core of a million points keeps
 * its shape. The work grows with the points only through the counting: a million draw in milliseconds. */
static void
draw_cloud (ShepardScatterPlot *self, const ShepardPlotAxes *axes, int scale, const GdkRGBA *color)
{
  double radius = dot_radius (self->n_drawn) * scale;
  int reach = (int) ceil (radius + 0.5), side = 2 * reach + 1;
  int width = (int) round (axes->frame.size.width * scale) + 2 * reach;
  int height = (int) round (axes->frame.size.height * scale) + 2 * reach;
  double ax = axes->frame.size.width * scale / (axes->x.last - axes->x.first), bx = reach - axes->x.first * ax;
  double ay = -axes->frame.size.height * scale / (axes->y.last - axes->y.first);
  double by = reach + axes->frame.size.height * scale - axes->y.first * ay;
  g_autofree guint32 *counts = g_new0 (guint32, (gsize) width * height);
  g_autofree float *exposure = g_new0 (float, (gsize) width * height);
  g_autofree float *kernel = g_new (float, side * side);
  guint32 *pixels = g_new (guint32, (gsize) width * height);

  for (size_t i = 0; i < self->n_points; i++)
    {
      double x = self->observed[i], y = self->predicted[i];
      if (!isfinite (x) || !isfinite (y))
        continue;
      int px = CLAMP ((int) floor (ax * x + bx), reach, width - reach - 1);
      int py = CLAMP ((int) floor (ay * y + by), reach, height - reach - 1);
      counts[(gsize) py * width + px]++;
    }
  for (int ky = 0; ky < side; ky++)
    for (int kx = 0; kx < side; kx++)
      kernel[ky * side + kx] = CLAMP (radius + 0.5 - hypot (kx - reach, ky - reach), 0.0, 1.0);
  for (int py = reach; py < height - reach; py++)
    for (int px = reach; px < width - reach; px++)
      {
        guint32 count = counts[(gsize) py * width + px];
        if (count == 0)
          continue;
        for (int ky = 0; ky < side; ky++)
          {
            float *row = exposure + (gsize) (py + ky - reach) * width + px - reach;
            const float *weights = kernel + ky * side;
            for (int kx = 0; kx < side; kx++)
              row[kx] += count * weights[kx];
          }
      }

  float densest = 0, single = (float) dot_opacity (self->n_drawn);
  for (gsize i = 0; i < (gsize) width * height; i++)
    densest = MAX (densest, exposure[i]);
  float per_log = densest > 1 ? (1 - single) / logf (densest) : 0;
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      float cover = exposure[i] >= 1 ? single + logf (exposure[i]) * per_log : single * exposure[i];
      float opacity = cover * color->alpha;
      /* GDK_MEMORY_DEFAULT: premultiplied ARGB in a native-endian 32-bit word, as cairo's ARGB32. */
      pixels[i] = (guint32) lrintf (opacity * 255) << 24 | (guint32) lrintf (color->red * opacity * 255) << 16
                  | (guint32) lrintf (color->green * opacity * 255) << 8
                  | (guint32) lrintf (color->blue * opacity * 255);
    }

  g_autoptr (GBytes) bytes = g_bytes_new_take (pixels, (gsize) width * height * sizeof *pixels);
  g_clear_object (&self->cloud);
  self->cloud = gdk_memory_texture_new (width, height, GDK_MEMORY_DEFAULT, bytes, (gsize) width * sizeof *pixels);
  self->cloud_bounds = GRAPHENE_RECT_INIT (axes->frame.origin.x - (double) reach / scale,
                                           axes->frame.origin.y - (double) reach / scale, (double) width / scale,
                                           (double) height / scale);
}

static void
shepard_scatter_plot_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardScatterPlot *self = SHEPARD_SCATTER_PLOT (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  g_autoptr (PangoLayout) layout = _shepard_plot_layout_new (widget);
  ShepardPlotAxes axes;
  GdkRGBA foreground, accent;

  _shepard_plot_colors (widget, &foreground, &accent);
  layout_axes (self, layout, &axes);
  g_autofree char *x_title = self->axis_title != NULL ? g_strdup_printf ("Observed %s", self->axis_title)
                                                      : g_strdup ("Observed");
  g_autofree char *y_title = self->axis_title != NULL ? g_strdup_printf ("Predicted %s", self->axis_title)
                                                      : g_strdup ("Predicted");
  _shepard_plot_draw_axes (snapshot, layout, &axes, x_title, y_title, scale, &foreground);

  const graphene_rect_t *frame = &axes.frame;
  if (self->n_drawn > 0)
    {
      double key[CLOUD_KEY_SIZE] = { frame->origin.x, frame->origin.y, frame->size.width, frame->size.height,
                                     axes.x.first, axes.x.last, axes.y.first, axes.y.last, scale,
                                     accent.red, accent.green, accent.blue, accent.alpha };
      if (self->cloud == NULL || memcmp (key, self->cloud_key, sizeof key) != 0)
        {
          draw_cloud (self, &axes, scale, &accent);
          memcpy (self->cloud_key, key, sizeof key);
        }
      gtk_snapshot_append_texture (snapshot, self->cloud, &self->cloud_bounds);
    }

  /* The 1:1 line over the points, where a dense cloud would otherwise hide it. */
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (widget),
                                                                         gtk_widget_get_height (widget)));
  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, 0.6 * foreground.alpha);
  cairo_move_to (cr, frame->origin.x, frame->origin.y + frame->size.height);
  cairo_line_to (cr, frame->origin.x + frame->size.width, frame->origin.y);
  cairo_stroke (cr);

  if (self->selected >= 0 && isfinite (self->observed[self->selected]) && isfinite (self->predicted[self->selected]))
    {
      double x = _shepard_plot_map_x (&axes, self->observed[self->selected]);
      double y = _shepard_plot_map_y (&axes, self->predicted[self->selected]);
      double dashes[] = { 3, 3 };
      /* Guides down to the observed value and across to the predicted one, so both can be read off the axes. */
      cairo_set_source_rgba (cr, foreground.red, foreground.green, foreground.blue, 0.5 * foreground.alpha);
      cairo_set_dash (cr, dashes, G_N_ELEMENTS (dashes), 0);
      cairo_move_to (cr, x, frame->origin.y + frame->size.height);
      cairo_line_to (cr, x, y + SELECTED_RADIUS);
      cairo_move_to (cr, frame->origin.x, y);
      cairo_line_to (cr, x - SELECTED_RADIUS, y);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
      cairo_arc (cr, x, y, SELECTED_RADIUS, 0, 2 * G_PI);
      gdk_cairo_set_source_rgba (cr, &accent);
      cairo_fill_preserve (cr);
      cairo_set_line_width (cr, 1.5);
      gdk_cairo_set_source_rgba (cr, &foreground);
      cairo_stroke (cr);
    }
  cairo_destroy (cr);
}

static void
on_pressed (GtkGestureClick *gesture, int n_press, double x, double y, ShepardScatterPlot *self)
{
  gssize index = shepard_scatter_plot_point_at (self, x, y);

  if (index < 0)
    return;
  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  g_signal_emit (self, signals[SIGNAL_POINT_ACTIVATED], 0, (guint) index);
}

static void
shepard_scatter_plot_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum,
                              int *natural, int *minimum_baseline, int *natural_baseline)
{
  gboolean horizontal = orientation == GTK_ORIENTATION_HORIZONTAL;

  *minimum = horizontal ? MIN_WIDTH : MIN_HEIGHT;
  *natural = horizontal ? NATURAL_WIDTH : NATURAL_HEIGHT;
}

static void
shepard_scatter_plot_finalize (GObject *object)
{
  ShepardScatterPlot *self = SHEPARD_SCATTER_PLOT (object);

  g_free (self->observed);
  g_free (self->predicted);
  g_free (self->axis_title);
  g_clear_object (&self->cloud);
  G_OBJECT_CLASS (shepard_scatter_plot_parent_class)->finalize (object);
}

static void
shepard_scatter_plot_class_init (ShepardScatterPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = shepard_scatter_plot_finalize;
  widget_class->measure = shepard_scatter_plot_measure;
  widget_class->snapshot = shepard_scatter_plot_snapshot;

  signals[SIGNAL_POINT_ACTIVATED] = g_signal_new ("point-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_UINT);

  gtk_widget_class_set_css_name (widget_class, "plot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
shepard_scatter_plot_init (ShepardScatterPlot *self)
{
  GtkGesture *click = gtk_gesture_click_new ();

  self->selected = -1;
  self->lo = 0;
  self->hi = 1;
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  "Cross-validation: observed against predicted values", -1);
}
