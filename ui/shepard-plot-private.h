/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the plot widgets (scatter, membership, alpha) share: round ticks, the frame of a plot with its axes, text,
 * and lines and rectangles that stay crisp at any scale. Widgets only: no data is computed here. */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct {
  double first, last; /* the axis runs from the first tick to the last */
  double step;
  int count;    /* ticks first + i * step, i = 0 .. count - 1 */
  int decimals; /* digits after the point that write every tick exactly */
} ShepardPlotTicks;

/* The finest round ticks (1, 2, 2.5 or 5 times a power of ten apart) whose span covers [lo, hi] in at most
 * max_intervals steps. A span of one value, or a non-finite one, gets a span around it. */
void _shepard_plot_nice_ticks (double lo, double hi, int max_intervals, ShepardPlotTicks *ticks);
double _shepard_plot_tick (const ShepardPlotTicks *ticks, int i);
/* "1500", "0.25", "−3": the ticks' decimals, a minus sign, never "−0". */
void _shepard_plot_format_tick (const ShepardPlotTicks *ticks, double value, char *text, size_t size);

/* A share of cells as the plots write it, "96 %": neither "0 %" for a few cells nor "100 %" while some are
 * elsewhere. */
void _shepard_plot_format_share (double share, char *text, size_t size);

/* A plot's geometry: the plotting area in widget coordinates and the ticks of its two axes, whose first and last
 * ticks are its edges. */
typedef struct {
  graphene_rect_t frame;
  ShepardPlotTicks x, y;
} ShepardPlotAxes;

double _shepard_plot_map_x (const ShepardPlotAxes *axes, double x);
double _shepard_plot_map_y (const ShepardPlotAxes *axes, double y);
double _shepard_plot_unmap_x (const ShepardPlotAxes *axes, double wx);
double _shepard_plot_unmap_y (const ShepardPlotAxes *axes, double wy);

/* Lays out a width × height widget: the x title and the tick labels below the frame, the y title above the y tick
 * labels, ticks over [x_lo, x_hi] and [y_lo, y_hi] about 60 and 30 pixels apart. */
void _shepard_plot_layout_axes (ShepardPlotAxes *axes, PangoLayout *layout, int width, int height, double x_lo,
                                double x_hi, double y_lo, double y_hi);

/* The widget's foreground colour, and the theme's accent colour (Adwaita's blue where the theme names none). */
void _shepard_plot_colors (GtkWidget *widget, GdkRGBA *foreground, GdkRGBA *accent);
GdkRGBA _shepard_plot_fade (const GdkRGBA *color, double opacity);
/* The window's background colour, slightly see-through: under text that sits on marks. */
void _shepard_plot_backdrop (GtkWidget *widget, GdkRGBA *backdrop);
/* A layout in a smaller size of the widget's font, with tabular figures so that tick labels line up; lines centred. */
PangoLayout *_shepard_plot_layout_new (GtkWidget *widget);
void _shepard_plot_text_size (PangoLayout *layout, const char *text, int *width, int *height);
/* Text placed by its box: xalign and yalign 0 put (x, y) at its left or top, 0.5 at its centre, 1 at its right or
 * bottom; the box is moved to whole pixels. */
void _shepard_plot_text (GtkSnapshot *snapshot, PangoLayout *layout, const char *text, double x, double y,
                         double xalign, double yalign, const GdkRGBA *color);
/* The same on a rounded backdrop of the given colour, readable over marks. */
void _shepard_plot_text_on (GtkSnapshot *snapshot, PangoLayout *layout, const char *text, double x, double y,
                            double xalign, double yalign, const GdkRGBA *color, const GdkRGBA *backdrop);

/* A rectangle whose edges lie on device pixels (at least one device pixel wide and high), and lines of a given
 * width built from them, so that axes and bars stay crisp at scale 1 and 2. */
void _shepard_plot_rect (GtkSnapshot *snapshot, double x, double y, double width, double height, int scale,
                         const GdkRGBA *color);
void _shepard_plot_hline (GtkSnapshot *snapshot, double x0, double x1, double y, double width, int scale,
                          const GdkRGBA *color);
void _shepard_plot_vline (GtkSnapshot *snapshot, double x, double y0, double y1, double width, int scale,
                          const GdkRGBA *color);

/* The bottom of the row of text above the frame (the y title's), clear of the top tick label. */
double _shepard_plot_top_row (const ShepardPlotAxes *axes, PangoLayout *layout);
/* Grid lines at the ticks, the left and bottom axes, their tick marks and labels, and the titles (may be NULL). */
void _shepard_plot_draw_axes (GtkSnapshot *snapshot, PangoLayout *layout, const ShepardPlotAxes *axes,
                              const char *x_title, const char *y_title, int scale, const GdkRGBA *foreground);

G_END_DECLS
