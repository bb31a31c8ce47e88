/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-search-shape-overlay.h"

#include <math.h>

/* Enough for a smooth ellipse at any size the map shows. */
#define OUTLINE_POINTS 120
#define CENTER_MARK 5.0

struct _ShepardSearchShapeOverlay
{
  GtkWidget parent_instance;

  ShepardMapView *map_view; /* borrowed: the overlay's sibling, which may go first (a weak pointer) */
  double radius1, radius2, angle;
  gboolean shown;
  gboolean pointer_in;
  double pointer_x, pointer_y; /* map units */
};

G_DEFINE_FINAL_TYPE (ShepardSearchShapeOverlay, shepard_search_shape_overlay, GTK_TYPE_WIDGET)

GtkWidget *
shepard_search_shape_overlay_new (void)
{
  return g_object_new (SHEPARD_TYPE_SEARCH_SHAPE_OVERLAY, NULL);
}

gboolean
shepard_search_shape_overlay_get_center (ShepardSearchShapeOverlay *self, double *x, double *y)
{
  double x_min, y_min, x_max, y_max;

  g_return_val_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self), FALSE);

  if (self->map_view == NULL || !shepard_map_view_get_visible_extent (self->map_view, &x_min, &y_min, &x_max, &y_max))
    return FALSE;
  *x = self->pointer_in ? self->pointer_x : (x_min + x_max) / 2;
  *y = self->pointer_in ? self->pointer_y : (y_min + y_max) / 2;
  return TRUE;
}

/* Each point of the ellipse in map units, then on the screen: the view's scale is the same along both axes, but
 * going through the map view keeps one mapping of map to screen. */
gboolean
shepard_search_shape_overlay_get_outline (ShepardSearchShapeOverlay *self, guint n_points, double *wx, double *wy)
{
  double cx, cy;

  g_return_val_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self), FALSE);
  g_return_val_if_fail (n_points > 0 && wx != NULL && wy != NULL, FALSE);

  if (!self->shown || !(self->radius1 > 0.0) || !shepard_search_shape_overlay_get_center (self, &cx, &cy))
    return FALSE;
  double radius2 = self->radius2 > 0.0 ? self->radius2 : self->radius1;
  double cos_a = cos (self->angle * G_PI / 180.0), sin_a = sin (self->angle * G_PI / 180.0);
  for (guint i = 0; i < n_points; i++)
    {
      double t = 2 * G_PI * i / n_points;
      double u = self->radius1 * cos (t), v = radius2 * sin (t);
      shepard_map_view_map_to_widget (self->map_view, cx + u * cos_a - v * sin_a, cy + u * sin_a + v * cos_a, &wx[i],
                                      &wy[i]);
      gtk_widget_translate_coordinates (GTK_WIDGET (self->map_view), GTK_WIDGET (self), wx[i], wy[i], &wx[i], &wy[i]);
    }
  return TRUE;
}

static void
trace (cairo_t *cr, const double *wx, const double *wy, guint n)
{
  cairo_move_to (cr, wx[0], wy[0]);
  for (guint i = 1; i < n; i++)
    cairo_line_to (cr, wx[i], wy[i]);
  cairo_close_path (cr);
}

static void
shepard_search_shape_overlay_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardSearchShapeOverlay *self = SHEPARD_SEARCH_SHAPE_OVERLAY (widget);
  double wx[OUTLINE_POINTS], wy[OUTLINE_POINTS], cx, cy;

  if (!shepard_search_shape_overlay_get_outline (self, OUTLINE_POINTS, wx, wy))
    return;
  shepard_search_shape_overlay_get_center (self, &cx, &cy);
  shepard_map_view_map_to_widget (self->map_view, cx, cy, &cx, &cy);
  gtk_widget_translate_coordinates (GTK_WIDGET (self->map_view), widget, cx, cy, &cx, &cy);

  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_t *cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  /* A light veil inside, and a white line on a dark casing: visible over any colour of the surface. */
  trace (cr, wx, wy, OUTLINE_POINTS);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.12);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_set_line_width (cr, 4.0);
  cairo_stroke_preserve (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 2.0);
  cairo_stroke (cr);
  /* Radius 1's axis, so that the angle reads. */
  cairo_move_to (cr, cx, cy);
  cairo_line_to (cr, wx[0], wy[0]);
  cairo_set_dash (cr, (double[]) { 4.0, 3.0 }, 2, 0.0);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_set_line_width (cr, 3.0);
  cairo_stroke_preserve (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0.0);
  cairo_move_to (cr, cx - CENTER_MARK, cy);
  cairo_line_to (cr, cx + CENTER_MARK, cy);
  cairo_move_to (cr, cx, cy - CENTER_MARK);
  cairo_line_to (cr, cx, cy + CENTER_MARK);
  cairo_set_source_rgba (cr, 0, 0, 0, 0.6);
  cairo_set_line_width (cr, 3.0);
  cairo_stroke_preserve (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  cairo_destroy (cr);
}

static void
on_cursor_moved (ShepardSearchShapeOverlay *self, double x, double y)
{
  self->pointer_in = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  if (self->shown)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_cursor_left (ShepardSearchShapeOverlay *self)
{
  self->pointer_in = FALSE;
  if (self->shown)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_search_shape_overlay_set_map_view (ShepardSearchShapeOverlay *self, ShepardMapView *map_view)
{
  g_return_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self));
  g_return_if_fail (map_view == NULL || SHEPARD_IS_MAP_VIEW (map_view));

  if (self->map_view != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->map_view, self);
      g_object_remove_weak_pointer (G_OBJECT (self->map_view), (gpointer *) &self->map_view);
    }
  self->map_view = map_view;
  self->pointer_in = FALSE;
  if (map_view != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (map_view), (gpointer *) &self->map_view);
      g_signal_connect_object (map_view, "view-changed", G_CALLBACK (gtk_widget_queue_draw), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (map_view, "cursor-moved", G_CALLBACK (on_cursor_moved), self, G_CONNECT_SWAPPED);
      g_signal_connect_object (map_view, "cursor-left", G_CALLBACK (on_cursor_left), self, G_CONNECT_SWAPPED);
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_search_shape_overlay_set_shape (ShepardSearchShapeOverlay *self, double radius1, double radius2, double angle)
{
  g_return_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self));

  self->radius1 = radius1;
  self->radius2 = radius2;
  self->angle = angle;
  if (self->shown)
    gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
shepard_search_shape_overlay_set_shown (ShepardSearchShapeOverlay *self, gboolean shown)
{
  g_return_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self));

  self->shown = shown;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

gboolean
shepard_search_shape_overlay_get_shown (ShepardSearchShapeOverlay *self)
{
  g_return_val_if_fail (SHEPARD_IS_SEARCH_SHAPE_OVERLAY (self), FALSE);
  return self->shown;
}

static void
shepard_search_shape_overlay_dispose (GObject *object)
{
  shepard_search_shape_overlay_set_map_view (SHEPARD_SEARCH_SHAPE_OVERLAY (object), NULL);
  G_OBJECT_CLASS (shepard_search_shape_overlay_parent_class)->dispose (object);
}

static void
shepard_search_shape_overlay_class_init (ShepardSearchShapeOverlayClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = shepard_search_shape_overlay_dispose;
  GTK_WIDGET_CLASS (klass)->snapshot = shepard_search_shape_overlay_snapshot;
}

static void
shepard_search_shape_overlay_init (ShepardSearchShapeOverlay *self)
{
  gtk_widget_set_can_target (GTK_WIDGET (self), FALSE);
}
