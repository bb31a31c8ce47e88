/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-legend.h"

#include <math.h>
#include <string.h>

#include "shepard-nice-numbers.h"

#define WIDTH 120
#define HEIGHT 260
#define PADDING 6
#define BAR_WIDTH 18
#define TICK_LENGTH 4
#define MAX_TICKS 7
/* Breaks closer than this apart print alike: a finer class makes no sense on a legend. */
#define MAX_BREAK_DECIMALS 6
/* Stops of the bar's gradient: enough that GSK's linear blend between them follows each ramp's control points. */
#define GRADIENT_STOPS 17
/* Room above the bar for the title, when there is one. */
#define TITLE_HEIGHT 22

struct _ShepardLegend
{
  GtkWidget parent_instance;

  /* Owned */
  ShepardColorRamp ramp;
  double minimum, maximum;
  char *title, *unit;
  guint n_classes;
  double breaks[SHEPARD_RENDER_MAX_CLASSES + 1];
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
  g_return_if_fail (shepard_color_ramp_is_valid (ramp));

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

char *
shepard_legend_dup_heading (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), NULL);

  if (self->title == NULL)
    return NULL;
  if (self->unit == NULL || self->unit[0] == '\0')
    return g_strdup (self->title);
  return g_strdup_printf ("%s (%s)", self->title, self->unit);
}

static void
heading_changed (ShepardLegend *self)
{
  g_autofree char *heading = shepard_legend_dup_heading (self);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  heading != NULL ? heading : "Legend", -1);
  gtk_widget_queue_resize (GTK_WIDGET (self));
}

void
shepard_legend_set_title (ShepardLegend *self, const char *title)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));

  if (g_strcmp0 (self->title, title) == 0)
    return;
  g_free (self->title);
  self->title = g_strdup (title);
  heading_changed (self);
}

void
shepard_legend_set_unit (ShepardLegend *self, const char *unit)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));

  if (g_strcmp0 (self->unit, unit) == 0)
    return;
  g_free (self->unit);
  self->unit = g_strdup (unit);
  heading_changed (self);
}

void
shepard_legend_set_classes (ShepardLegend *self, const double *breaks, guint n_classes)
{
  g_return_if_fail (SHEPARD_IS_LEGEND (self));
  g_return_if_fail (n_classes <= SHEPARD_RENDER_MAX_CLASSES);
  g_return_if_fail (n_classes == 0 || breaks != NULL);

  for (guint i = 0; n_classes > 0 && i <= n_classes; i++)
    self->breaks[i] = breaks[i];
  self->n_classes = n_classes;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* "-0" for a value just below zero reads as a sign error. */
static char *
format_label (double value, int decimals)
{
  return g_strdup_printf ("%.*f", decimals, fabs (value) < 0.5 * pow (10, -decimals) ? 0.0 : value);
}

/* Continuous: the round ticks inside the range. Classed: the breaks, printed to the decimals of the range's round
 * step, or more where two breaks would print alike, so that they read like the continuous labels rather than as
 * float noise. Returns the count; values[i] is where each label belongs on the value axis. */
static guint
collect_labels (ShepardLegend *self, double *values, char **texts)
{
  double step = 0;
  guint count = shepard_nice_ticks (self->minimum, self->maximum, MAX_TICKS, values, &step);
  int decimals = count > 0 ? shepard_nice_decimals (step) : 3;

  if (self->n_classes > 0)
    {
      count = self->n_classes + 1;
      memcpy (values, self->breaks, count * sizeof *values);
      for (guint i = 1; i < count && decimals < MAX_BREAK_DECIMALS; i++)
        {
          g_autofree char *below = format_label (values[i - 1], decimals);
          g_autofree char *above = format_label (values[i], decimals);
          if (strcmp (below, above) == 0)
            {
              decimals++;
              i = 0;
            }
        }
    }
  for (guint i = 0; i < count; i++)
    texts[i] = format_label (values[i], decimals);
  return count;
}

char **
shepard_legend_dup_labels (ShepardLegend *self)
{
  g_return_val_if_fail (SHEPARD_IS_LEGEND (self), NULL);

  double values[MAX (SHEPARD_RENDER_MAX_CLASSES + 1, MAX_TICKS)];
  char **texts = g_new0 (char *, MAX (SHEPARD_RENDER_MAX_CLASSES + 1, MAX_TICKS) + 1);
  collect_labels (self, values, texts);
  return texts;
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
append_text (GtkSnapshot *snapshot, PangoLayout *layout, double x, double y, const GdkRGBA *color)
{
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &GRAPHENE_POINT_INIT (x, y));
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
shepard_legend_snapshot (GtkWidget *widget, GtkSnapshot *snapshot)
{
  ShepardLegend *self = SHEPARD_LEGEND (widget);
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  double top = PADDING + (self->title != NULL ? TITLE_HEIGHT : 0) + 6;
  double bottom = height - PADDING - 6;
  double bar_height = bottom - top;
  double span = self->maximum - self->minimum;
  GdkRGBA foreground;
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &foreground);
  G_GNUC_END_IGNORE_DEPRECATIONS

  if (self->n_classes > 0)
    {
      for (guint i = 0; i < self->n_classes; i++)
        {
          float rgb[3];
          double y0 = bottom - bar_height * i / self->n_classes;
          double y1 = bottom - bar_height * (i + 1) / self->n_classes;
          shepard_color_ramp_evaluate (self->ramp, (i + 0.5) / self->n_classes, rgb);
          gtk_snapshot_append_color (snapshot, &(GdkRGBA) { rgb[0], rgb[1], rgb[2], 1.0 },
                                     &GRAPHENE_RECT_INIT (PADDING, y1, BAR_WIDTH, y0 - y1));
        }
    }
  else
    {
      GskColorStop stops[GRADIENT_STOPS];
      for (int i = 0; i < GRADIENT_STOPS; i++)
        {
          float rgb[3];
          double t = i / (double) (GRADIENT_STOPS - 1);
          shepard_color_ramp_evaluate (self->ramp, t, rgb);
          stops[i] = (GskColorStop) { .offset = t, .color = { rgb[0], rgb[1], rgb[2], 1.0 } };
        }
      gtk_snapshot_append_linear_gradient (snapshot, &GRAPHENE_RECT_INIT (PADDING, top, BAR_WIDTH, bar_height),
                                           &GRAPHENE_POINT_INIT (0, bottom), &GRAPHENE_POINT_INIT (0, top), stops,
                                           GRADIENT_STOPS);
    }

  g_autoptr (PangoLayout) layout = gtk_widget_create_pango_layout (widget, NULL);
  g_autofree char *heading = shepard_legend_dup_heading (self);
  if (heading != NULL)
    {
      PangoAttrList *bold = pango_attr_list_new ();
      pango_attr_list_insert (bold, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
      pango_layout_set_attributes (layout, bold);
      pango_attr_list_unref (bold);
      pango_layout_set_text (layout, heading, -1);
      pango_layout_set_width (layout, (width - PADDING) * PANGO_SCALE);
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      append_text (snapshot, layout, PADDING, PADDING, &foreground);
      pango_layout_set_attributes (layout, NULL);
      pango_layout_set_width (layout, -1);
    }

  double values[MAX (SHEPARD_RENDER_MAX_CLASSES + 1, MAX_TICKS)];
  char *texts[MAX (SHEPARD_RENDER_MAX_CLASSES + 1, MAX_TICKS)];
  guint count = collect_labels (self, values, texts);
  for (guint i = 0; i < count; i++)
    {
      int text_width, text_height;
      /* Classes sit evenly on the bar whatever their breaks; ticks where their value is. */
      double fraction = self->n_classes > 0 ? i / (double) self->n_classes
                                            : (span > 0 ? (values[i] - self->minimum) / span : 0.5);
      double y = bottom - bar_height * fraction;

      gtk_snapshot_append_color (snapshot, &foreground,
                                 &GRAPHENE_RECT_INIT (PADDING + BAR_WIDTH, y - 0.5, TICK_LENGTH, 1));
      pango_layout_set_text (layout, texts[i], -1);
      pango_layout_get_pixel_size (layout, &text_width, &text_height);
      append_text (snapshot, layout, PADDING + BAR_WIDTH + TICK_LENGTH + 4, y - text_height / 2.0, &foreground);
      g_free (texts[i]);
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
  ShepardLegend *self = SHEPARD_LEGEND (object);

  g_free (self->title);
  g_free (self->unit);
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

  properties[PROP_RAMP] = g_param_spec_uint ("ramp", NULL, NULL, 0,
                                             SHEPARD_COLOR_RAMP_REVERSED | (SHEPARD_COLOR_RAMP_COUNT - 1),
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
