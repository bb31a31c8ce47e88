/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-scale-bar.h"

#include <math.h>

#include "shepard-nice-numbers.h"

#define MAX_BAR_WIDTH 120
#define BAR_HEIGHT 5
#define PADDING 6
#define TEXT_GAP 2

struct _ShepardScaleBar
{
  GtkWidget parent_instance;

  /* Borrowed */
  ShepardMapView *map_view; /* a weak pointer */

  /* Owned */
  double metres_per_unit;
};

G_DEFINE_FINAL_TYPE (ShepardScaleBar, shepard_scale_bar, GTK_TYPE_WIDGET)

GtkWidget *
shepard_scale_bar_new (void)
{
  return g_object_new (SHEPARD_TYPE_SCALE_BAR, NULL);
}

double
shepard_scale_bar_choose (double units_per_pixel, double metres_per_unit, int max_width, char **label)
{
  g_return_val_if_fail (units_per_pixel > 0 && max_width > 0, 0.0);
  g_return_val_if_fail (label != NULL, 0.0);

  if (metres_per_unit > 0)
    {
      double metres_per_pixel = units_per_pixel * metres_per_unit;
      double limit = max_width * metres_per_pixel;
      gboolean kilometres = limit >= 1000;
      double length = shepard_nice_length (kilometres ? limit / 1000 : limit);

      *label = g_strdup_printf ("%g %s", length, kilometres ? "km" : "m");
      return length * (kilometres ? 1000 : 1) / metres_per_pixel;
    }
  double length = shepard_nice_length (max_width * units_per_pixel);
  *label = metres_per_unit == 0 ? g_strdup_printf ("%g°", length) : g_strdup_printf ("%g units", length);
  return length / units_per_pixel;
}

static gboolean
units_per_pixel_of (ShepardScaleBar *self, double *units_per_pixel)
{
  double x_min, y_min, x_max, y_max;
  int width;

  if (self->map_view == NULL)
    return FALSE;
  width = gtk_widget_get_width (GTK_WIDGET (self->map_view));
  if (width <= 0 || !shepard_map_view_get_visible_extent (self->map_view, &x_min, &y_min, &x_max, &y_max))
    return FALSE;
  *units_per_pixel = (x_max - x_min) / width;
  return *units_per_pixel > 0 && isfinite (*units_per_pixel);
}

static void
shepard_scale_bar_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                           int *minimum_baseline, int *natural_baseline)
{
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = *natural = MAX_BAR_WIDTH + 2 * PADDING;
      return;
    }
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, "0 km");
  int text_height;
  pango_layout_get_pixel_size (layout, NULL, &text_height);
  *minimum = *natural = text_height + TEXT_GAP + BAR_HEIGHT + 2 * PADDING;
}

static void
shepard_scale_bar_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardScaleBar *self = SHEPARD_SCALE_BAR (widget);
  double units_per_pixel;
  g_autofree char *label = NULL;

  if (!units_per_pixel_of (self, &units_per_pixel))
    return;
  double bar_width = shepard_scale_bar_choose (units_per_pixel, self->metres_per_unit, MAX_BAR_WIDTH, &label);
  int height = gtk_widget_get_height (widget);
  double bar_top = height - PADDING - BAR_HEIGHT;
  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, label);
  int text_width, text_height;
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  const GdkRGBA ink = { 0.1, 0.1, 0.12, 1 }, paper = { 1, 1, 1, 0.8 };

  /* A light plate keeps bar and text readable over any colour of any ramp. */
  GskRoundedRect plate;
  gsk_rounded_rect_init_from_rect (&plate, &GRAPHENE_RECT_INIT (0, 0, MAX (bar_width, text_width) + 2 * PADDING,
                                                                height), 4);
  gtk_snapshot_push_rounded_clip (snapshot, &plate);
  gtk_snapshot_append_color (snapshot, &paper, &plate.bounds);
  gtk_snapshot_pop (snapshot);

  /* Two halves, dark and light, as on printed maps; the ends marked by the outline. */
  gtk_snapshot_append_color (snapshot, &ink, &GRAPHENE_RECT_INIT (PADDING, bar_top, bar_width, BAR_HEIGHT));
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 1, 1, 1, 1 },
                             &GRAPHENE_RECT_INIT (PADDING + bar_width / 2, bar_top + 1, bar_width / 2 - 1,
                                                  BAR_HEIGHT - 2));
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (PADDING, bar_top - TEXT_GAP - text_height));
  gtk_snapshot_append_layout (snapshot, layout, &ink);
  gtk_snapshot_restore (snapshot);
}

void
shepard_scale_bar_set_map_view (ShepardScaleBar *self, ShepardMapView *map_view)
{
  g_return_if_fail (SHEPARD_IS_SCALE_BAR (self));
  g_return_if_fail (map_view == NULL || SHEPARD_IS_MAP_VIEW (map_view));

  if (self->map_view != NULL)
    g_signal_handlers_disconnect_by_data (self->map_view, self);
  /* The window may take the map view down before the bar. */
  g_set_weak_pointer (&self->map_view, map_view);
  if (map_view != NULL)
    g_signal_connect_object (map_view, "view-changed", G_CALLBACK (gtk_widget_queue_draw), self, G_CONNECT_SWAPPED);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_scale_bar_set_metres_per_unit (ShepardScaleBar *self, double metres_per_unit)
{
  g_return_if_fail (SHEPARD_IS_SCALE_BAR (self));

  self->metres_per_unit = metres_per_unit;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
shepard_scale_bar_dispose (GObject *object)
{
  shepard_scale_bar_set_map_view (SHEPARD_SCALE_BAR (object), NULL);
  G_OBJECT_CLASS (shepard_scale_bar_parent_class)->dispose (object);
}

static void
shepard_scale_bar_class_init (ShepardScaleBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = shepard_scale_bar_dispose;
  widget_class->measure = shepard_scale_bar_measure;
  widget_class->snapshot = shepard_scale_bar_snapshot;
  gtk_widget_class_set_css_name (widget_class, "scalebar");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
shepard_scale_bar_init (ShepardScaleBar *self)
{
  self->metres_per_unit = -1;
}
