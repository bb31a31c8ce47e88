/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-map-overlay.h"

#include <math.h>

#define PIN_RADIUS 7.0
#define THINNEST_LINE 1.0
#define THICKEST_LINE 6.0
/* Shares are written beside this many of the heaviest lines, and only on lines long enough to hold them: more would
 * cover the map. */
#define LABELLED_LINES 5
#define SHORTEST_LABELLED_LINE 56.0

typedef struct {
  double x, y;
  double share;
} Spoke;

struct _ShepardMapOverlay
{
  GtkWidget parent_instance;

  ShepardMapView *map_view; /* borrowed: the overlay's sibling, which may go first (a weak pointer) */
  double pin_x, pin_y;
  GArray *spokes; /* of Spoke, heaviest first */
};

G_DEFINE_FINAL_TYPE (ShepardMapOverlay, shepard_map_overlay, GTK_TYPE_WIDGET)

GtkWidget *
shepard_map_overlay_new (void)
{
  return g_object_new (SHEPARD_TYPE_MAP_OVERLAY, NULL);
}

static void
accent_color (GtkWidget *widget, GdkRGBA *color)
{
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "accent_color", color))
    gdk_rgba_parse (color, "#3584e4");
}

static void
draw (ShepardMapOverlay *self, cairo_t *cr)
{
  double pin_wx, pin_wy;
  GdkRGBA accent;

  shepard_map_view_map_to_widget (self->map_view, self->pin_x, self->pin_y, &pin_wx, &pin_wy);
  gtk_widget_translate_coordinates (GTK_WIDGET (self->map_view), GTK_WIDGET (self), pin_wx, pin_wy, &pin_wx,
                                    &pin_wy);
  accent_color (GTK_WIDGET (self), &accent);
  double heaviest = self->spokes->len > 0 ? g_array_index (self->spokes, Spoke, 0).share : 0.0;

  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  for (guint i = self->spokes->len; i-- > 0;)
    {
      const Spoke *spoke = &g_array_index (self->spokes, Spoke, i);
      double wx, wy;
      shepard_map_view_map_to_widget (self->map_view, spoke->x, spoke->y, &wx, &wy);
      gtk_widget_translate_coordinates (GTK_WIDGET (self->map_view), GTK_WIDGET (self), wx, wy, &wx, &wy);
      double weight = heaviest > 0.0 ? spoke->share / heaviest : 0.0;
      /* A dark casing under the accent line keeps it readable over any colour of the surface. */
      for (int pass = 0; pass < 2; pass++)
        {
          double width = THINNEST_LINE + (THICKEST_LINE - THINNEST_LINE) * weight;
          if (pass == 0)
            cairo_set_source_rgba (cr, 0, 0, 0, 0.55);
          else
            gdk_cairo_set_source_rgba (cr, &accent);
          cairo_set_line_width (cr, pass == 0 ? width + 2.0 : width);
          if (spoke->share <= 0.0)
            cairo_set_dash (cr, (double[]) { 4.0, 4.0 }, 2, 0.0);
          cairo_move_to (cr, pin_wx, pin_wy);
          cairo_line_to (cr, wx, wy);
          cairo_stroke (cr);
          cairo_set_dash (cr, NULL, 0, 0.0);
        }
      if (i < LABELLED_LINES && spoke->share > 0.0 && hypot (wx - pin_wx, wy - pin_wy) >= SHORTEST_LABELLED_LINE)
        {
          char text[32];
          g_snprintf (text, sizeof text, "%.1f %%", 100.0 * spoke->share);
          PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
          int tw, th;
          pango_layout_get_pixel_size (layout, &tw, &th);
          double lx = (pin_wx + 2 * wx) / 3 + 4, ly = (pin_wy + 2 * wy) / 3 - th - 2;
          cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
          cairo_rectangle (cr, lx - 2, ly - 1, tw + 4, th + 2);
          cairo_fill (cr);
          cairo_set_source_rgb (cr, 1, 1, 1);
          cairo_move_to (cr, lx, ly);
          pango_cairo_show_layout (cr, layout);
          g_object_unref (layout);
        }
    }

  cairo_arc (cr, pin_wx, pin_wy, PIN_RADIUS + 1.5, 0, 2 * G_PI);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.7);
  cairo_fill (cr);
  cairo_arc (cr, pin_wx, pin_wy, PIN_RADIUS, 0, 2 * G_PI);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_fill (cr);
  cairo_arc (cr, pin_wx, pin_wy, PIN_RADIUS - 2.5, 0, 2 * G_PI);
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_fill (cr);
}

static void
shepard_map_overlay_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardMapOverlay *self = SHEPARD_MAP_OVERLAY (widget);
  double x_min, y_min, x_max, y_max;

  if (self->map_view == NULL || !isfinite (self->pin_x)
      || !shepard_map_view_get_visible_extent (self->map_view, &x_min, &y_min, &x_max, &y_max))
    return;
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  draw (self, cr);
  cairo_destroy (cr);
}

void
shepard_map_overlay_set_map_view (ShepardMapOverlay *self, ShepardMapView *map_view)
{
  g_return_if_fail (SHEPARD_IS_MAP_OVERLAY (self));
  g_return_if_fail (map_view == NULL || SHEPARD_IS_MAP_VIEW (map_view));

  if (self->map_view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->map_view, self);
      g_object_remove_weak_pointer (G_OBJECT (self->map_view), (gpointer *) &self->map_view);
    }
  self->map_view = map_view;
  if (map_view != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (map_view), (gpointer *) &self->map_view);
      g_signal_connect_object (map_view, "view-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_map_overlay_set_pin (ShepardMapOverlay *self, double x, double y)
{
  g_return_if_fail (SHEPARD_IS_MAP_OVERLAY (self));

  gboolean moved = x != self->pin_x || y != self->pin_y;
  self->pin_x = x;
  self->pin_y = y;
  if (moved || !isfinite (x))
    g_array_set_size (self->spokes, 0);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static int
compare_heaviest_first (gconstpointer a, gconstpointer b)
{
  const Spoke *first = a, *second = b;
  return (first->share < second->share) - (first->share > second->share);
}

void
shepard_map_overlay_set_explanation (ShepardMapOverlay *self, const ShepardExplanation *explanation,
                                     const double *x, const double *y)
{
  g_return_if_fail (SHEPARD_IS_MAP_OVERLAY (self));
  g_return_if_fail (explanation != NULL && x != NULL && y != NULL);

  self->pin_x = explanation->x;
  self->pin_y = explanation->y;
  g_array_set_size (self->spokes, 0);
  int k = explanation->explanation.k_density;
  for (size_t j = 0; j < explanation->explanation.n_listed; j++)
    {
      const shepard_contribution *neighbour = &explanation->listed[j];
      /* The density neighbours always; beyond them only the points that carry weight. */
      if (neighbour->share <= 0.0 && j >= (size_t) k)
        continue;
      Spoke spoke = { x[neighbour->index], y[neighbour->index], neighbour->share };
      g_array_append_val (self->spokes, spoke);
    }
  g_array_sort (self->spokes, compare_heaviest_first);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
shepard_map_overlay_finalize (GObject *object)
{
  ShepardMapOverlay *self = SHEPARD_MAP_OVERLAY (object);

  g_array_unref (self->spokes);
  G_OBJECT_CLASS (shepard_map_overlay_parent_class)->finalize (object);
}

static void
shepard_map_overlay_dispose (GObject *object)
{
  ShepardMapOverlay *self = SHEPARD_MAP_OVERLAY (object);

  shepard_map_overlay_set_map_view (self, NULL);
  G_OBJECT_CLASS (shepard_map_overlay_parent_class)->dispose (object);
}

static void
shepard_map_overlay_class_init (ShepardMapOverlayClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = shepard_map_overlay_dispose;
  G_OBJECT_CLASS (klass)->finalize = shepard_map_overlay_finalize;
  GTK_WIDGET_CLASS (klass)->snapshot = shepard_map_overlay_snapshot;
}

static void
shepard_map_overlay_init (ShepardMapOverlay *self)
{
  self->spokes = g_array_new (FALSE, FALSE, sizeof (Spoke));
  self->pin_x = NAN;
  self->pin_y = NAN;
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}
