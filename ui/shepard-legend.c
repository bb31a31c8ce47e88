/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-legend.h"

#define WIDTH 96
#define HEIGHT 196
#define CORNER_RADIUS 8
#define BAR_X 10
#define BAR_WIDTH 16
#define PADDING 10
#define TICKS 4
/* Stops of the bar's gradient: enough that GSK's linear blend between them follows each ramp's control points. */
#define GRADIENT_STOPS 17
/* Room above the bar for the title, when there is one. */
#define TITLE_HEIGHT 18

struct _ShepardLegend
{
  GtkWidget parent_instance;

  /* Owned */
  ShepardColorRamp ramp;
  double minimum, maximum;
  char *title;
};

G_DEFINE_FINAL_TYPE (ShepardLegend, shepard_legend, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_RAMP,
  PROP_MINIMUM,
  PROP_MAXIMUM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

GtkWidget *
shepard_legend_new (void)
{
  return g_object_new (SHEPARD_TYPE_LEGEND, NULL);
}

ShepardColorRamp
shepard_legend_get_ramp (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), SHEPARD_COLOR_RAMP_VIRIDIS);
  return self->ramp;
}

void
shepard_legend_set_ramp (ShepardLegend *self, ShepardColorRamp ramp)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));
  g_return_if_fail ((guint) ramp < SHEPARD_COLOR_RAMP_COUNT);

  if (self->ramp == ramp)
    return;
  self->ramp = ramp;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RAMP]);
}

double
shepard_legend_get_minimum (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), 0.0);
  return self->minimum;
}

void
shepard_legend_set_minimum (ShepardLegend *self, double minimum)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));

  if (self->minimum == minimum)
    return;
  self->minimum = minimum;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MINIMUM]);
}

double
shepard_legend_get_maximum (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), 0.0);
  return self->maximum;
}

void
shepard_legend_set_maximum (ShepardLegend *self, double maximum)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));

  if (self->maximum == maximum)
    return;
  self->maximum = maximum;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MAXIMUM]);
}

const char *
shepard_legend_get_title (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), NULL);
  return self->title;
}

void
shepard_legend_set_title (ShepardLegend *self, const char *title)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  title != NULL ? title : "Legend", -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

static void
shepard_legend_measure (GtkWidget *widget, GtkOrientation orientation, int for_size, int *minimum, int *natural,
                        int *minimum_baseline, int *natural_baseline)
{
  ShepardLegend *self = SHEPARD_LEGEND (widget);

  *minimum = *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? WIDTH
                                                                  : HEIGHT + (self->title != NULL ? TITLE_HEIGHT : 0);
}

static void
shepard_legend_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardLegend *self = SHEPARD_LEGEND (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double top = PADDING + (self->title != NULL ? TITLE_HEIGHT : 0);
  double bar_height = height - top - PADDING;
  GskRoundedRect box;
  GskColorStop stops[GRADIENT_STOPS];

  gsk_rounded_rect_init_from_rect (&box, &GRAPHENE_RECT_INIT (0, 0, width, height), CORNER_RADIUS);
  gtk_snapshot_push_rounded_clip (snapshot, &box);
  gtk_snapshot_append_color (snapshot, &(GdkRGBA) { 0.1, 0.1, 0.12, 0.72 }, &box.bounds);
  gtk_snapshot_pop (snapshot);

  for (int i = 0; i < GRADIENT_STOPS; i++)
    {
      float rgb[3];
      double t = i / (double) (GRADIENT_STOPS - 1);
      shepard_color_ramp_evaluate (self->ramp, t, rgb);
      stops[i] = (GskColorStop) { .offset = t, .color = { rgb[0], rgb[1], rgb[2], 1.0 } };
    }
  gtk_snapshot_append_linear_gradient (snapshot, &GRAPHENE_RECT_INIT (BAR_X, top, BAR_WIDTH, bar_height),
                                       &GRAPHENE_POINT_INIT (0, top + bar_height), &GRAPHENE_POINT_INIT (0, top),
                                       stops, GRADIENT_STOPS);

  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  if (self->title != NULL)
    {
      PangoFontDescription *bold = pango_font_description_from_string ("Sans Bold 8");
      pango_layout_set_font_description (layout, bold);
      pango_font_description_free (bold);
      pango_layout_set_text (layout, self->title, -1);
      pango_layout_set_width (layout, (width - 2 * BAR_X) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (BAR_X, PADDING - 2));
      gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
      gtk_snapshot_restore (snapshot);
      pango_layout_set_width (layout, -1);
    }
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  for (int i = 0; i <= TICKS; i++)
    {
      char text[32];
      int text_width, text_height;
      g_snprintf (text, sizeof text, "%.4g", self->minimum + (self->maximum - self->minimum) * i / (double) TICKS);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      double y = top + bar_height * (1 - i / (double) TICKS);
      gtk_snapshot_save (snapshot);
      gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (BAR_X + BAR_WIDTH + 6,
                                                              CLAMP (y - text_height / 2.0, top - 8,
                                                                     height - text_height - 2)));
      gtk_snapshot_append_layout (snapshot, layout, &(GdkRGBA) { 1, 1, 1, 1 });
      gtk_snapshot_restore (snapshot);
    }
}

static void
shepard_legend_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardLegend *self = SHEPARD_LEGEND (object);

  switch (prop_id)
    {
    case PROP_RAMP:
      g_value_set_uint (value, self->ramp);
      break;
    case PROP_MINIMUM:
      g_value_set_double (value, self->minimum);
      break;
    case PROP_MAXIMUM:
      g_value_set_double (value, self->maximum);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_legend_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ShepardLegend *self = SHEPARD_LEGEND (object);

  switch (prop_id)
    {
    case PROP_RAMP:
      shepard_legend_set_ramp (self, g_value_get_uint (value));
      break;
    case PROP_MINIMUM:
      shepard_legend_set_minimum (self, g_value_get_double (value));
      break;
    case PROP_MAXIMUM:
      shepard_legend_set_maximum (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_legend_finalize (GObject *object)
{
  g_free (SHEPARD_LEGEND (object)->title);
  G_OBJECT_CLASS (shepard_legend_parent_class)->finalize (object);
}

static void
shepard_legend_class_init (ShepardLegendClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->finalize = shepard_legend_finalize;
  object_class->get_property = shepard_legend_get_property;
  object_class->set_property = shepard_legend_set_property;
  widget_class->measure = shepard_legend_measure;
  widget_class->snapshot = shepard_legend_snapshot;

  properties[PROP_RAMP] = g_param_spec_uint ("ramp", NULL, NULL, 0, SHEPARD_COLOR_RAMP_COUNT - 1,
                                             SHEPARD_COLOR_RAMP_VIRIDIS,
                                             G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MINIMUM] = g_param_spec_double ("minimum", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 0.0,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                    | G_PARAM_STATIC_STRINGS);
  properties[PROP_MAXIMUM] = g_param_spec_double ("maximum", NULL, NULL, -G_MAXDOUBLE, G_MAXDOUBLE, 1.0,
                                                  G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                    | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_css_name (widget_class, "legend");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
shepard_legend_init (ShepardLegend *self)
{
  self->ramp = SHEPARD_COLOR_RAMP_VIRIDIS;
  self->maximum = 1.0;
}
