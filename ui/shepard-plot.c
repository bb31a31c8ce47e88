/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-plot-private.h"

#include <math.h>
#include <string.h>

#define TICK_LENGTH 4
#define LABEL_GAP 3
#define X_TICK_SPACING 60
#define Y_TICK_SPACING 30
#define PADDING 4

void
_shepard_plot_nice_ticks (double lo, double hi, int max_intervals, ShepardPlotTicks *ticks)
{
  static const double mantissas[] = { 1, 2, 2.5, 5 };

  if (!isfinite (hi - lo))
    {
      lo = 0;
      hi = 1;
    }
  if (lo > hi)
    {
      double swap = lo;
      lo = hi;
      hi = swap;
    }
  if (hi - lo <= 1e-9 * MAX (fabs (lo), fabs (hi)))
    {
      double half = lo != 0 ? 0.1 * fabs (lo) : 0.5;
      lo -= half;
      hi += half;
    }
  max_intervals = MAX (max_intervals, 1);

  /* Starting a decade below the plain estimate, the first step that fits is the finest. */
  for (int exponent = (int) floor (log10 ((hi - lo) / max_intervals)) - 1;; exponent++)
    for (size_t i = 0; i < G_N_ELEMENTS (mantissas); i++)
      {
        /* Dividing by a power of ten rather than multiplying by its inverse keeps 0.1, 0.25 ... exact. */
        double step = exponent >= 0 ? mantissas[i] * pow (10, exponent) : mantissas[i] / pow (10, -exponent);
        double first = floor (lo / step + 1e-9), last = ceil (hi / step - 1e-9);
        if (last - first > max_intervals)
          continue;
        /* A span within rounding of one tick still gets an interval, so that the axis has a length. */
        last = MAX (last, first + 1);
        ticks->step = step;
        ticks->first = first * step;
        ticks->last = last * step;
        ticks->count = (int) (last - first) + 1;
        ticks->decimals = MAX (0, -exponent + (mantissas[i] == 2.5 ? 1 : 0));
        return;
      }
}

double
_shepard_plot_tick (const ShepardPlotTicks *ticks, int i)
{
  return (round (ticks->first / ticks->step) + i) * ticks->step;
}

void
_shepard_plot_format_tick (const ShepardPlotTicks *ticks, double value, char *text, size_t size)
{
  char plain[64];

  g_snprintf (plain, sizeof plain, "%.*f", MIN (ticks->decimals, 12), value);
  gboolean negative = plain[0] == '-' && strspn (plain + 1, "0.") < strlen (plain + 1);
  g_snprintf (text, size, "%s%s", negative ? "−" : "", plain[0] == '-' ? plain + 1 : plain);
}

void
_shepard_plot_format_share (double share, char *text, size_t size)
{
  if (share > 0 && share < 0.005)
    g_snprintf (text, size, "< 1 %%");
  else if (share < 1 && share >= 0.995)
    g_snprintf (text, size, "> 99 %%");
  else
    g_snprintf (text, size, "%.0f %%", 100 * share);
}

double
_shepard_plot_map_x (const ShepardPlotAxes *axes, double x)
{
  return axes->frame.origin.x + (x - axes->x.first) / (axes->x.last - axes->x.first) * axes->frame.size.width;
}

double
_shepard_plot_map_y (const ShepardPlotAxes *axes, double y)
{
  return axes->frame.origin.y + axes->frame.size.height
         - (y - axes->y.first) / (axes->y.last - axes->y.first) * axes->frame.size.height;
}

double
_shepard_plot_unmap_x (const ShepardPlotAxes *axes, double wx)
{
  return axes->x.first + (wx - axes->frame.origin.x) / axes->frame.size.width * (axes->x.last - axes->x.first);
}

double
_shepard_plot_unmap_y (const ShepardPlotAxes *axes, double wy)
{
  return axes->y.first
         + (axes->frame.origin.y + axes->frame.size.height - wy) / axes->frame.size.height
             * (axes->y.last - axes->y.first);
}

void
_shepard_plot_layout_axes (ShepardPlotAxes *axes, PangoLayout *layout, int width, int height, double x_lo,
                           double x_hi, double y_lo, double y_hi)
{
  int line_height, label_width = 0, last_width;
  char text[64];

  _shepard_plot_text_size (layout, "0", NULL, &line_height);
  /* The row above the frame clears the top tick label, which stands half a line above the frame. */
  int top = line_height + line_height / 2 + 2 * PADDING;
  int bottom = TICK_LENGTH + LABEL_GAP + 2 * line_height + 2 * PADDING;
  double frame_height = MAX (height - top - bottom, 1);
  _shepard_plot_nice_ticks (y_lo, y_hi, (int) (frame_height / Y_TICK_SPACING), &axes->y);
  for (int i = 0; i < axes->y.count; i++)
    {
      int text_width;
      _shepard_plot_format_tick (&axes->y, _shepard_plot_tick (&axes->y, i), text, sizeof text);
      _shepard_plot_text_size (layout, text, &text_width, NULL);
      label_width = MAX (label_width, text_width);
    }
  int left = PADDING + label_width + LABEL_GAP + TICK_LENGTH;

  /* The x labels' widths depend on the ticks, and the ticks on the room the last label leaves: once more is enough,
   * as a label only grows by a digit or two between the two. */
  int right = 2 * PADDING;
  for (int pass = 0; pass < 2; pass++)
    {
      double frame_width = MAX (width - left - right, 1);
      _shepard_plot_nice_ticks (x_lo, x_hi, (int) (frame_width / X_TICK_SPACING), &axes->x);
      _shepard_plot_format_tick (&axes->x, axes->x.last, text, sizeof text);
      _shepard_plot_text_size (layout, text, &last_width, NULL);
      right = MAX (right, last_width / 2 + PADDING);
    }
  axes->frame = GRAPHENE_RECT_INIT (left, top, MAX (width - left - right, 1), frame_height);
}

void
_shepard_plot_colors (GtkWidget *widget, GdkRGBA *foreground, GdkRGBA *accent)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);

  gtk_style_context_get_color (context, foreground);
  if (!gtk_style_context_lookup_color (context, "accent_color", accent))
    gdk_rgba_parse (accent, "#3584e4");
}

GdkRGBA
_shepard_plot_fade (const GdkRGBA *color, double opacity)
{
  return (GdkRGBA) { color->red, color->green, color->blue, color->alpha * opacity };
}

void
_shepard_plot_backdrop (GtkWidget *widget, GdkRGBA *backdrop)
{
  GtkStyleContext *context = gtk_widget_get_style_context (widget);
  GdkRGBA foreground;

  if (!gtk_style_context_lookup_color (context, "window_bg_color", backdrop)
      && !gtk_style_context_lookup_color (context, "theme_bg_color", backdrop))
    {
      gtk_style_context_get_color (context, &foreground);
      gdk_rgba_parse (backdrop, foreground.red + foreground.green + foreground.blue > 1.5 ? "#242424" : "#fafafa");
    }
  backdrop->alpha *= 0.85;
}

PangoLayout *
_shepard_plot_layout_new (GtkWidget *widget)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (widget, NULL);
  PangoFontDescription *font = pango_font_description_copy (pango_context_get_font_description (
    pango_layout_get_context (layout)));
  PangoAttrList *attributes = pango_attr_list_new ();

  int size = (int) (0.85 * pango_font_description_get_size (font));
  if (pango_font_description_get_size_is_absolute (font))
    pango_font_description_set_absolute_size (font, size);
  else
    pango_font_description_set_size (font, size);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_attr_list_insert (attributes, pango_attr_font_features_new ("tnum=1"));
  pango_layout_set_attributes (layout, attributes);
  pango_layout_set_alignment (layout, PANGO_ALIGN_CENTER);
  pango_attr_list_unref (attributes);
  return layout;
}

void
_shepard_plot_text_size (PangoLayout *layout, const char *text, int *width, int *height)
{
  int text_width, text_height;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &text_width, &text_height);
  if (width != NULL)
    *width = text_width;
  if (height != NULL)
    *height = text_height;
}

static graphene_point_t
text_origin (PangoLayout *layout, const char *text, double x, double y, double xalign, double yalign, int *width,
             int *height)
{
  _shepard_plot_text_size (layout, text, width, height);
  return GRAPHENE_POINT_INIT (round (x - xalign * *width), round (y - yalign * *height));
}

void
_shepard_plot_text (GtkSnapshot *snapshot, PangoLayout *layout, const char *text, double x, double y, double xalign,
                    double yalign, const GdkRGBA *color)
{
  int width, height;
  graphene_point_t origin = text_origin (layout, text, x, y, xalign, yalign, &width, &height);

  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &origin);
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

void
_shepard_plot_text_on (GtkSnapshot *snapshot, PangoLayout *layout, const char *text, double x, double y,
                       double xalign, double yalign, const GdkRGBA *color, const GdkRGBA *backdrop)
{
  int width, height;
  graphene_point_t origin = text_origin (layout, text, x, y, xalign, yalign, &width, &height);
  GskRoundedRect box;

  gsk_rounded_rect_init_from_rect (&box, &GRAPHENE_RECT_INIT (origin.x - 4, origin.y - 1, width + 8, height + 2), 4);
  gtk_snapshot_push_rounded_clip (snapshot, &box);
  gtk_snapshot_append_color (snapshot, backdrop, &box.bounds);
  gtk_snapshot_pop (snapshot);
  gtk_snapshot_save (snapshot);
  gtk_snapshot_translate (snapshot, &origin);
  gtk_snapshot_append_layout (snapshot, layout, color);
  gtk_snapshot_restore (snapshot);
}

static void
snap (double from, double to, int scale, double *start, double *end)
{
  *start = round (from * scale) / scale;
  *end = round (to * scale) / scale;
  if (*end <= *start)
    *end = *start + 1.0 / scale;
}

void
_shepard_plot_rect (GtkSnapshot *snapshot, double x, double y, double width, double height, int scale,
                    const GdkRGBA *color)
{
  double x0, x1, y0, y1;

  snap (x, x + width, scale, &x0, &x1);
  snap (y, y + height, scale, &y0, &y1);
  gtk_snapshot_append_color (snapshot, color, &GRAPHENE_RECT_INIT (x0, y0, x1 - x0, y1 - y0));
}

void
_shepard_plot_hline (GtkSnapshot *snapshot, double x0, double x1, double y, double width, int scale,
                     const GdkRGBA *color)
{
  _shepard_plot_rect (snapshot, x0, y - width / 2, x1 - x0, width, scale, color);
}

void
_shepard_plot_vline (GtkSnapshot *snapshot, double x, double y0, double y1, double width, int scale,
                     const GdkRGBA *color)
{
  _shepard_plot_rect (snapshot, x - width / 2, y0, width, y1 - y0, scale, color);
}

void
_shepard_plot_draw_axes (GtkSnapshot *snapshot, PangoLayout *layout, const ShepardPlotAxes *axes,
                         const char *x_title, const char *y_title, int scale, const GdkRGBA *foreground)
{
  const graphene_rect_t *frame = &axes->frame;
  double left = frame->origin.x, top = frame->origin.y;
  double right = left + frame->size.width, bottom = top + frame->size.height;
  GdkRGBA grid = _shepard_plot_fade (foreground, 0.1), axis = _shepard_plot_fade (foreground, 0.55);
  GdkRGBA label = _shepard_plot_fade (foreground, 0.75), title = _shepard_plot_fade (foreground, 0.9);
  int line_height;
  char text[64];

  _shepard_plot_text_size (layout, "0", NULL, &line_height);
  for (int i = 0; i < axes->y.count; i++)
    {
      double value = _shepard_plot_tick (&axes->y, i), y = _shepard_plot_map_y (axes, value);
      if (i > 0)
        _shepard_plot_hline (snapshot, left, right, y, 1, scale, &grid);
      _shepard_plot_hline (snapshot, left - TICK_LENGTH, left, y, 1, scale, &axis);
      _shepard_plot_format_tick (&axes->y, value, text, sizeof text);
      _shepard_plot_text (snapshot, layout, text, left - TICK_LENGTH - LABEL_GAP, y, 1, 0.5, &label);
    }
  for (int i = 0; i < axes->x.count; i++)
    {
      double value = _shepard_plot_tick (&axes->x, i), x = _shepard_plot_map_x (axes, value);
      if (i > 0)
        _shepard_plot_vline (snapshot, x, top, bottom, 1, scale, &grid);
      _shepard_plot_vline (snapshot, x, bottom, bottom + TICK_LENGTH, 1, scale, &axis);
      _shepard_plot_format_tick (&axes->x, value, text, sizeof text);
      _shepard_plot_text (snapshot, layout, text, x, bottom + TICK_LENGTH + LABEL_GAP, 0.5, 0, &label);
    }
  _shepard_plot_vline (snapshot, left, top, bottom, 1, scale, &axis);
  _shepard_plot_hline (snapshot, left - 0.5, right, bottom, 1, scale, &axis);

  if (x_title != NULL)
    _shepard_plot_text (snapshot, layout, x_title, left + frame->size.width / 2,
                        bottom + TICK_LENGTH + LABEL_GAP + line_height + PADDING, 0.5, 0, &title);
  if (y_title != NULL)
    _shepard_plot_text (snapshot, layout, y_title, PADDING, _shepard_plot_top_row (axes, layout), 0, 1, &title);
}

double
_shepard_plot_top_row (const ShepardPlotAxes *axes, PangoLayout *layout)
{
  int line_height;

  _shepard_plot_text_size (layout, "0", NULL, &line_height);
  return axes->frame.origin.y - line_height / 2 - PADDING;
}
