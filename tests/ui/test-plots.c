/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The instruments' plot widgets: round ticks; where each mark lands, found through the widgets' own mapping from data
 * to widget coordinates; a click on a point; a million points in time; and screenshots of each plot on the meuse
 * sample, light and dark, for a look by eye.
 *
 * Pixels are read from what the widget's snapshot() draws now (called directly, over the window's background, and
 * rendered by the window's renderer), so that a change needs no frame to pass; the screenshots are the windows as
 * their frames drew them. */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "shepard-alpha-plot.h"
#include "shepard-membership-plot.h"
#include "shepard-plot-private.h"
#include "shepard-scatter-plot.h"
#include "ui-test-support.h"

#define PLOT_WIDTH 420
#define PLOT_HEIGHT 300
/* One 8-bit step of rounding on each side, and blending through premultiplied alpha. */
#define COLOR_TOLERANCE 8
#define MILLION 1000000

typedef struct {
  double lo, hi;
  int max_intervals;
  double first, last, step;
  int count;
  const char *labels;
} TickCase;

static const TickCase tick_cases[] = {
  { 17.3, 1391.2, 5, 0, 1500, 500, 4, "0 500 1000 1500" },
  { 113, 1839, 6, 0, 2000, 500, 5, "0 500 1000 1500 2000" },
  { 0, 1, 5, 0, 1, 0.2, 6, "0.0 0.2 0.4 0.6 0.8 1.0" },
  { 0, 1, 2, 0, 1, 0.5, 3, "0.0 0.5 1.0" },
  { -3.7, 12.1, 4, -5, 15, 5, 5, "−5 0 5 10 15" },
  { 0.0013, 0.0087, 5, 0, 0.01, 0.002, 6, "0.000 0.002 0.004 0.006 0.008 0.010" },
  { 0, 10, 4, 0, 10, 2.5, 5, "0.0 2.5 5.0 7.5 10.0" },
  { 1.4, 3.6, 6, 1, 4, 0.5, 7, "1.0 1.5 2.0 2.5 3.0 3.5 4.0" },
  { -0.25, 0.25, 2, -0.25, 0.25, 0.25, 3, "−0.25 0.00 0.25" },
  { 1000003, 1000007, 4, 1000003, 1000007, 1, 5, "1000003 1000004 1000005 1000006 1000007" },
  { 3.2, 3.2, 4, 0, 0, 0, 0, NULL },
  { NAN, 1, 5, 0, 1, 0.2, 6, NULL },
};

static char *
tick_labels (const ShepardPlotTicks *ticks)
{
  GString *labels = g_string_new (NULL);

  for (int i = 0; i < ticks->count; i++)
    {
      char text[64];
      _shepard_plot_format_tick (ticks, _shepard_plot_tick (ticks, i), text, sizeof text);
      g_string_append_printf (labels, "%s%s", i > 0 ? " " : "", text);
    }
  return g_string_free (labels, FALSE);
}

static void
test_nice_ticks (void)
{
  for (size_t c = 0; c < G_N_ELEMENTS (tick_cases); c++)
    {
      const TickCase *expected = &tick_cases[c];
      ShepardPlotTicks ticks;
      _shepard_plot_nice_ticks (expected->lo, expected->hi, expected->max_intervals, &ticks);
      g_autofree char *labels = tick_labels (&ticks);
      g_test_message ("[%g, %g] in %d: %s", expected->lo, expected->hi, expected->max_intervals, labels);
      if (expected->labels != NULL)
        g_assert_cmpstr (labels, ==, expected->labels);
      /* A span of one value is widened around it: only its containing the value is promised. */
      if (expected->lo == expected->hi)
        {
          g_assert_cmpfloat (ticks.first, <, expected->lo);
          g_assert_cmpfloat (ticks.last, >, expected->hi);
          g_assert_cmpint (ticks.count - 1, <=, expected->max_intervals);
          continue;
        }
      assert_near (ticks.first, expected->first, 1e-9 * ticks.step);
      assert_near (ticks.last, expected->last, 1e-9 * ticks.step);
      assert_near (ticks.step, expected->step, 1e-12 * ticks.step);
      g_assert_cmpint (ticks.count, ==, expected->count);
    }

  /* Any span: covered, within the intervals allowed, by a round step, with labels that differ. */
  GRand *rand = g_rand_new_with_seed (7);
  for (int i = 0; i < 2000; i++)
    {
      double magnitude = pow (10, g_rand_double_range (rand, -6, 8));
      double lo = g_rand_double_range (rand, -1, 1) * magnitude, hi = lo + g_rand_double (rand) * magnitude;
      int max_intervals = g_rand_int_range (rand, 1, 12);
      ShepardPlotTicks ticks;
      _shepard_plot_nice_ticks (lo, hi, max_intervals, &ticks);
      g_assert_cmpfloat (ticks.first, <=, lo + 1e-9 * ticks.step);
      g_assert_cmpfloat (ticks.last, >=, hi - 1e-9 * ticks.step);
      g_assert_cmpint (ticks.count - 1, <=, max_intervals);
      g_assert_cmpint (ticks.count, >=, 2);
      double mantissa = ticks.step / pow (10, floor (log10 (ticks.step) + 1e-9));
      g_assert_true (fabs (mantissa - 1) < 1e-6 || fabs (mantissa - 2) < 1e-6 || fabs (mantissa - 2.5) < 1e-6
                     || fabs (mantissa - 5) < 1e-6);
      g_autofree char *text = tick_labels (&ticks);
      g_auto (GStrv) labels = g_strsplit (text, " ", -1);
      for (int j = 1; labels[j] != NULL; j++)
        g_assert_cmpstr (labels[j], !=, labels[j - 1]);
    }
  g_rand_free (rand);
}

static gboolean
is_drawn (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* The plot alone in a window, at width × height, presented and drawn. */
static GtkWidget *
present_plot_sized (GtkWidget *plot, const char *title, int width, int height)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_default_size (GTK_WINDOW (window), width, height);
  gtk_window_set_child (GTK_WINDOW (window), plot);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (is_drawn, plot));
  let_frames_pass (100);
  g_assert_cmpint (gtk_widget_get_width (plot), ==, width);
  g_assert_cmpint (gtk_widget_get_height (plot), ==, height);
  return window;
}

static GtkWidget *
present_plot (GtkWidget *plot, const char *title)
{
  return present_plot_sized (plot, title, PLOT_WIDTH, PLOT_HEIGHT);
}

static void
window_background (GtkWidget *widget, GdkRGBA *background)
{
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "window_bg_color", background))
    g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (widget), "theme_bg_color",
                                                   background));
}

/* What the plot's snapshot() draws now, over the window's background. */
static void
render_plot (GtkWidget *plot, Pixels *pixels)
{
  int width = gtk_widget_get_width (plot), height = gtk_widget_get_height (plot);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GdkRGBA background;

  window_background (plot, &background);
  gtk_snapshot_append_color (snapshot, &background, &GRAPHENE_RECT_INIT (0, 0, width, height));
  GTK_WIDGET_GET_CLASS (plot)->snapshot (plot, snapshot);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (plot)),
                                                                node, &GRAPHENE_RECT_INIT (0, 0, width, height));
  pixels_from_texture (texture, pixels);
}

/* The window as its last frame drew it, at its scale (GDK_SCALE=2 gives twice the pixels), saved as name. */
static void
save_screenshot (GtkWidget *window, const char *name)
{
  let_frames_pass (200);
  int width = gtk_widget_get_width (window), height = gtk_widget_get_height (window);
  int scale = gtk_widget_get_scale_factor (window);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (window);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gtk_snapshot_scale (snapshot, scale, scale);
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                                                &GRAPHENE_RECT_INIT (0, 0, width * scale,
                                                                                     height * scale));
  g_autofree char *png = screenshot_path (name);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

static void
rgb_of (const GdkRGBA *color, int rgb[3])
{
  rgb[0] = (int) lround (color->red * 255);
  rgb[1] = (int) lround (color->green * 255);
  rgb[2] = (int) lround (color->blue * 255);
}

/* color at opacity over background. */
static void
blend (const GdkRGBA *color, double opacity, const int background[3], int rgb[3])
{
  int top[3];

  rgb_of (color, top);
  for (int c = 0; c < 3; c++)
    rgb[c] = (int) lround (background[c] + (top[c] - background[c]) * opacity * color->alpha);
}

static int
distance (const int a[3], const int b[3])
{
  return MAX (abs (a[0] - b[0]), MAX (abs (a[1] - b[1]), abs (a[2] - b[2])));
}

static int
distance_at (const Pixels *pixels, double x, double y, const int rgb[3])
{
  int actual[3];

  pixel_rgb (pixels, (int) floor (x), (int) floor (y), actual);
  return distance (actual, rgb);
}

/* Where colour pixels appear in after that are not in before, within radius of (x, y): their count and centre. */
static int
new_pixels_of (const Pixels *before, const Pixels *after, double x, double y, int radius, const int rgb[3],
               double *centre_x, double *centre_y)
{
  int count = 0;
  double sum_x = 0, sum_y = 0;

  for (int py = (int) floor (y) - radius; py <= (int) floor (y) + radius; py++)
    for (int px = (int) floor (x) - radius; px <= (int) floor (x) + radius; px++)
      {
        int was[3], is[3];
        pixel_rgb (before, px, py, was);
        pixel_rgb (after, px, py, is);
        if (distance (is, rgb) <= 40 && distance (was, rgb) > 40)
          {
            count++;
            sum_x += px + 0.5;
            sum_y += py + 0.5;
          }
      }
  *centre_x = count > 0 ? sum_x / count : NAN;
  *centre_y = count > 0 ? sum_y / count : NAN;
  return count;
}

typedef struct {
  GtkWidget *plot;
  int background[3], foreground[3], accent[3];
  GdkRGBA foreground_color, accent_color;
} Colors;

static void
read_colors (GtkWidget *plot, const Pixels *pixels, Colors *colors)
{
  /* The top right corner is empty in every plot: the window's background as rendered. */
  pixel_rgb (pixels, PLOT_WIDTH - 2, 1, colors->background);
  _shepard_plot_colors (plot, &colors->foreground_color, &colors->accent_color);
  rgb_of (&colors->foreground_color, colors->foreground);
  rgb_of (&colors->accent_color, colors->accent);
}

/* observed 100 .. 1692 predicted as half of it: every point below the 1:1 line; one more far above it (index 200),
 * and a pair with no observed value (index 201). */
enum { SCATTER_N = 202, ISOLATED = 200 };

static void
scatter_data (double *observed, double *predicted)
{
  for (int i = 0; i < 200; i++)
    {
      observed[i] = 100 + 8 * i;
      predicted[i] = 0.5 * observed[i];
    }
  observed[ISOLATED] = 300;
  predicted[ISOLATED] = 1500;
  observed[201] = NAN;
  predicted[201] = 500;
}

static void
test_scatter_pixels (void)
{
  GtkWidget *plot = shepard_scatter_plot_new ();
  GtkWidget *window = present_plot (plot, "shepard-scatter-test");
  double observed[SCATTER_N], predicted[SCATTER_N], wx, wy;
  Pixels pixels;
  Colors colors;

  scatter_data (observed, predicted);
  shepard_scatter_plot_set_points (SHEPARD_SCATTER_PLOT (plot), observed, predicted, SCATTER_N);
  shepard_scatter_plot_set_axis_title (SHEPARD_SCATTER_PLOT (plot), "zinc (ppm)");
  g_assert_cmpuint (shepard_scatter_plot_get_n_points (SHEPARD_SCATTER_PLOT (plot)), ==, SCATTER_N);
  render_plot (plot, &pixels);
  read_colors (plot, &pixels, &colors);

  /* Round axes: the values 100 .. 1692 on 0 .. 2000 (or 1800), both axes alike, so (0, 0) is the frame's corner. */
  double x0, y0, x1, y1;
  shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), 0, 0, &x0, &y0);
  shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), 1000, 1000, &x1, &y1);
  g_test_message ("0 at (%.1f, %.1f), 1000 at (%.1f, %.1f)", x0, y0, x1, y1);
  g_assert_cmpfloat (x0, ==, round (x0));
  g_assert_cmpfloat (y0, ==, round (y0));

  /* The 1:1 line passes through (v, v); a little above and left of it, over no point, is the background. */
  for (double v = 200; v <= 1600; v += 350)
    {
      int ink = 0;
      shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), v, v, &wx, &wy);
      for (int dy = -1; dy <= 1; dy++)
        for (int dx = -1; dx <= 1; dx++)
          ink = MAX (ink, distance_at (&pixels, wx + dx, wy + dy, colors.background));
      g_test_message ("1:1 line at %.0f: (%.1f, %.1f), ink %d", v, wx, wy, ink);
      g_assert_cmpint (ink, >=, 60);
      g_assert_cmpint (distance_at (&pixels, wx - 7, wy - 7, colors.background), <=, 30);
    }

  /* A point is a dot in the accent colour: the isolated one, far from any other mark. */
  shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), observed[ISOLATED], predicted[ISOLATED], &wx, &wy);
  int dot = distance_at (&pixels, wx, wy, colors.accent), away = distance_at (&pixels, wx, wy, colors.background);
  g_test_message ("isolated point at (%.1f, %.1f): %d from the accent, %d from the background", wx, wy, dot, away);
  g_assert_cmpint (dot * 3, <, away);
  g_assert_cmpint (distance_at (&pixels, wx + 8, wy, colors.background), <=, 30);
  g_free (pixels.data);

  /* Selected, it is a larger dot filled with the accent and ringed with the foreground colour. */
  shepard_scatter_plot_set_selected (SHEPARD_SCATTER_PLOT (plot), ISOLATED);
  g_assert_cmpint (shepard_scatter_plot_get_selected (SHEPARD_SCATTER_PLOT (plot)), ==, ISOLATED);
  render_plot (plot, &pixels);
  g_assert_cmpint (distance_at (&pixels, wx, wy, colors.accent), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx + 2.5, wy, colors.accent), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx + 5, wy, colors.foreground),
                   <, distance_at (&pixels, wx + 5, wy, colors.background));
  g_free (pixels.data);

  save_screenshot (window, "scatter-test.png");

  /* An index beyond the points selects nothing. */
  shepard_scatter_plot_set_selected (SHEPARD_SCATTER_PLOT (plot), SCATTER_N);
  g_assert_cmpint (shepard_scatter_plot_get_selected (SHEPARD_SCATTER_PLOT (plot)), ==, -1);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_point_activated (ShepardScatterPlot *plot, guint index, gint64 *activated)
{
  *activated = index;
}

static gboolean
is_activated (gpointer data)
{
  return *(gint64 *) data >= 0;
}

/* xdotool search --name TITLE: the window's X id, or 0. */
static gulong
x_window_id (const char *xdotool, const char *title)
{
  g_autofree char *output = NULL;
  int status = 0;
  const char *argv[] = { xdotool, "search", "--sync", "--name", title, NULL };

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &output, NULL, &status, NULL)
      || !g_spawn_check_wait_status (status, NULL))
    return 0;
  return strtoul (output, NULL, 10);
}

/* A click is a GtkGestureClick's "pressed" at widget coordinates, which is what the gesture emits for a real button
 * press (GTK 4 has no public way to synthesise events): the signal is emitted on the widget's gesture here, and on
 * X11 with xdotool a real click through the X server goes the whole way. */
static void
test_scatter_activate (void)
{
  GtkWidget *plot = shepard_scatter_plot_new ();
  GtkWidget *window = present_plot (plot, "shepard-scatter-click-test");
  GtkGesture *click = find_controller (plot, GTK_TYPE_GESTURE_CLICK);
  double observed[SCATTER_N], predicted[SCATTER_N], wx, wy;
  gint64 activated = -1;

  scatter_data (observed, predicted);
  shepard_scatter_plot_set_points (SHEPARD_SCATTER_PLOT (plot), observed, predicted, SCATTER_N);
  g_signal_connect (plot, "point-activated", G_CALLBACK (on_point_activated), &activated);
  shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), observed[ISOLATED], predicted[ISOLATED], &wx, &wy);

  g_assert_cmpint (shepard_scatter_plot_point_at (SHEPARD_SCATTER_PLOT (plot), wx + 3, wy - 4), ==, ISOLATED);
  g_assert_cmpint (shepard_scatter_plot_point_at (SHEPARD_SCATTER_PLOT (plot), wx + 7, wy), ==, -1);

  g_signal_emit_by_name (click, "pressed", 1, wx + 40.0, wy);
  g_assert_cmpint (activated, ==, -1);
  g_signal_emit_by_name (click, "pressed", 1, wx + 3.0, wy - 4.0);
  g_assert_cmpint (activated, ==, ISOLATED);
  /* The nearest of close points wins. */
  activated = -1;
  double x, y;
  shepard_scatter_plot_data_to_widget (SHEPARD_SCATTER_PLOT (plot), observed[57], predicted[57], &x, &y);
  g_signal_emit_by_name (click, "pressed", 1, x + 0.4, y);
  g_assert_cmpint (activated, ==, 57);
  /* Clicking selects nothing: the caller decides what the activation means. */
  g_assert_cmpint (shepard_scatter_plot_get_selected (SHEPARD_SCATTER_PLOT (plot)), ==, -1);

  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
#ifdef GDK_WINDOWING_X11
  gboolean x11 = GDK_IS_X11_DISPLAY (gdk_display_get_default ());
#else
  gboolean x11 = FALSE;
#endif
  if (xdotool == NULL || !x11)
    {
      g_test_message ("no real click: needs xdotool and an X11 display");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  gulong id = x_window_id (xdotool, "shepard-scatter-click-test");
  double surface_x, surface_y, window_x, window_y;
  int status = 0;
  g_assert_cmpuint (id, !=, 0);
  gtk_native_get_surface_transform (GTK_NATIVE (window), &surface_x, &surface_y);
  g_assert_true (gtk_widget_translate_coordinates (plot, window, wx + 2, wy + 2, &window_x, &window_y));
  g_autofree char *window_id = g_strdup_printf ("%lu", id);
  /* X counts device pixels. */
  int scale = gtk_widget_get_scale_factor (window);
  g_autofree char *px = g_strdup_printf ("%d", (int) ((window_x + surface_x) * scale));
  g_autofree char *py = g_strdup_printf ("%d", (int) ((window_y + surface_y) * scale));
  const char *argv[] = { xdotool, "mousemove", "--window", window_id, px, py, "click", "1", NULL };
  activated = -1;
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_true (wait_until (is_activated, &activated));
  g_assert_cmpint (activated, ==, ISOLATED);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
is_true (gpointer data)
{
  return *(gboolean *) data;
}

static void
on_after_paint (GdkFrameClock *clock, gboolean *painted)
{
  *painted = TRUE;
}

static double
milliseconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* Cross-validation-like pairs: observed lognormal, predicted pulled towards the mean with noise. */
static void
million_points (GRand *rand, double *observed, double *predicted, double shift)
{
  for (size_t i = 0; i < MILLION; i++)
    {
      double u = g_rand_double_range (rand, 1e-12, 1), v = g_rand_double (rand);
      double normal = sqrt (-2 * log (u)) * cos (2 * G_PI * v), other = sqrt (-2 * log (u)) * sin (2 * G_PI * v);
      observed[i] = exp (6 + 0.6 * normal);
      predicted[i] = 0.7 * observed[i] + 0.3 * 480 + 90 * other + shift;
    }
}

/* "Every figure follows the hand": new points reach the screen in well under 100 ms. */
static void
test_scatter_million (void)
{
  GtkWidget *plot = shepard_scatter_plot_new ();
  GtkWidget *window = present_plot (plot, "shepard-scatter-million-test");
  g_autofree double *observed = g_new (double, MILLION), *predicted = g_new (double, MILLION);
  GRand *rand = g_rand_new_with_seed (11);
  gboolean painted = FALSE;

  million_points (rand, observed, predicted, 0);
  gint64 start = g_get_monotonic_time ();
  shepard_scatter_plot_set_points (SHEPARD_SCATTER_PLOT (plot), observed, predicted, MILLION);
  double set_ms = milliseconds_since (start);
  start = g_get_monotonic_time ();
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (plot)->snapshot (plot, snapshot);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  double snapshot_ms = milliseconds_since (start);
  start = g_get_monotonic_time ();
  snapshot = gtk_snapshot_new ();
  GTK_WIDGET_GET_CLASS (plot)->snapshot (plot, snapshot);
  g_autoptr (GskRenderNode) again = gtk_snapshot_free_to_node (snapshot);
  double cached_ms = milliseconds_since (start);
  start = g_get_monotonic_time ();
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                                                &GRAPHENE_RECT_INIT (0, 0, PLOT_WIDTH, PLOT_HEIGHT));
  double render_ms = milliseconds_since (start);
  start = g_get_monotonic_time ();
  gssize hit = shepard_scatter_plot_point_at (SHEPARD_SCATTER_PLOT (plot), PLOT_WIDTH / 2.0, PLOT_HEIGHT / 2.0);
  double hit_ms = milliseconds_since (start);

  /* And through the window's frame clock, as on screen: new points, then the frame that paints them. */
  million_points (rand, observed, predicted, 40);
  let_frames_pass (100);
  g_signal_connect (gtk_widget_get_frame_clock (plot), "after-paint", G_CALLBACK (on_after_paint), &painted);
  start = g_get_monotonic_time ();
  shepard_scatter_plot_set_points (SHEPARD_SCATTER_PLOT (plot), observed, predicted, MILLION);
  g_assert_true (wait_until (is_true, &painted));
  double frame_ms = milliseconds_since (start);
  g_signal_handlers_disconnect_by_func (gtk_widget_get_frame_clock (plot), on_after_paint, &painted);

  g_test_message ("1M points: set_points %.1f ms, snapshot (binning) %.1f ms, again unchanged %.2f ms, rendered "
                  "to a texture %.1f ms, point_at %.1f ms (found %" G_GSSIZE_FORMAT "); set_points to frame painted "
                  "%.1f ms",
                  set_ms, snapshot_ms, cached_ms, render_ms, hit_ms, hit, frame_ms);
  /* Generous: two cores shared with other builds; the plain figure is printed above. */
  g_assert_cmpfloat (set_ms + snapshot_ms, <, 500);
  g_assert_cmpfloat (cached_ms, <, 20);
  save_screenshot (window, "scatter-million.png");
  g_rand_free (rand);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Twenty bins of 0.2 over [0, 4], the last also holding what lies beyond: the largest at [0.8, 1.0], one of half
 * that at [1.6, 1.8]. */
enum { MEMBERSHIP_BINS = 20, MEMBERSHIP_LARGEST = 4, MEMBERSHIP_HALF = 8 };

static void
membership_counts (double *counts)
{
  for (int i = 0; i < MEMBERSHIP_BINS; i++)
    counts[i] = 2;
  counts[MEMBERSHIP_LARGEST] = 40;
  counts[MEMBERSHIP_HALF] = 20;
  counts[MEMBERSHIP_BINS - 1] = 30;
}

static void
test_membership_pixels (void)
{
  GtkWidget *plot = shepard_membership_plot_new ();
  ShepardMembershipPlot *membership = SHEPARD_MEMBERSHIP_PLOT (plot);
  GtkWidget *window = present_plot (plot, "shepard-membership-test");
  double counts[MEMBERSHIP_BINS], below, above, r_min, r_max, wx, wy, top, middle;
  Pixels pixels, without;
  Colors colors;
  int bar[3];

  membership_counts (counts);
  shepard_membership_plot_set_thresholds (membership, 0.5, 2.0);
  shepard_membership_plot_get_thresholds (membership, &r_min, &r_max);
  g_assert_cmpfloat (r_min, ==, 0.5);
  g_assert_cmpfloat (r_max, ==, 2.0);
  shepard_membership_plot_set_histogram (membership, counts, MEMBERSHIP_BINS, 0, 4);
  shepard_membership_plot_set_overflow (membership, TRUE);

  /* 0.5 halves the bin [0.4, 0.6]; 2.0 is an edge. */
  shepard_membership_plot_get_shares (membership, &below, &above);
  assert_near (below, (2 + 2 + 1) / 124.0, 1e-12);
  assert_near (above, (9 * 2 + 30) / 124.0, 1e-12);

  render_plot (plot, &pixels);
  read_colors (plot, &pixels, &colors);
  blend (&colors.foreground_color, 0.3, colors.background, bar);

  /* The largest bar reaches mu = 1 (the frame's top); one of half the count reaches mu = 0.5. */
  shepard_membership_plot_data_to_widget (membership, 0.9, 1, &wx, &top);
  shepard_membership_plot_data_to_widget (membership, 0.9, 0.5, &wx, &middle);
  g_test_message ("largest bar at x %.1f, up to y %.1f", wx, top);
  g_assert_cmpint (distance_at (&pixels, wx, top + 1.5, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx, middle - 3, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx, top - 1.5, bar), >, COLOR_TOLERANCE);
  shepard_membership_plot_data_to_widget (membership, 1.7, 0.5, &wx, &middle);
  g_assert_cmpint (distance_at (&pixels, wx, middle + 3, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx, middle - 3, colors.background), <=, COLOR_TOLERANCE);

  /* The marker: a dot at (R, mu(R)) from the engine's membership, and a vertical line; none for NaN. */
  double r = 1.25, mu = shepard_aidw_membership (r, 0.5, 2.0), line_x, low;
  shepard_membership_plot_data_to_widget (membership, r, mu, &wx, &wy);
  shepard_membership_plot_data_to_widget (membership, r, 0.12, &line_x, &low);
  shepard_membership_plot_set_marker (membership, NAN);
  render_plot (plot, &without);
  g_free (pixels.data);
  shepard_membership_plot_set_marker (membership, r);
  render_plot (plot, &pixels);
  double centre_x, centre_y;
  int count = new_pixels_of (&without, &pixels, wx, wy, 9, colors.accent, &centre_x, &centre_y);
  g_test_message ("marker R %.2f mu %.3f mapped to (%.2f, %.2f): %d new accent pixels around (%.2f, %.2f)", r, mu,
                  wx, wy, count, centre_x, centre_y);
  g_assert_cmpint (count, >=, 20);
  assert_near (centre_x, wx, 1.0);
  assert_near (centre_y, wy, 1.0);
  g_assert_cmpint (distance_at (&without, line_x, low, colors.background), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, line_x, low, colors.background), >=, 60);
  g_free (pixels.data);

  shepard_membership_plot_set_marker (membership, NAN);
  render_plot (plot, &pixels);
  g_assert_cmpint (new_pixels_of (&without, &pixels, wx, wy, 9, colors.accent, &centre_x, &centre_y), ==, 0);
  g_assert_cmpint (distance_at (&pixels, line_x, low, colors.background), <=, COLOR_TOLERANCE);
  g_free (pixels.data);
  g_free (without.data);
  shepard_membership_plot_set_marker (membership, r);
  save_screenshot (window, "membership-test.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Nine bins of 0.25 centred on 1.5, 1.75, ..., 3.5: 95 cells at alpha5 = 3.5, half that at 1.75, one elsewhere. */
enum { ALPHA_BINS = 9, ALPHA_LARGEST = 8, ALPHA_HALF = 1 };

static void
test_alpha_pixels (void)
{
  GtkWidget *plot = shepard_alpha_plot_new ();
  ShepardAlphaPlot *alpha_plot = SHEPARD_ALPHA_PLOT (plot);
  GtkWidget *window = present_plot (plot, "shepard-alpha-test");
  double counts[ALPHA_BINS], levels[SHEPARD_AIDW_LEVELS], wx, wy, end, band;
  shepard_params params;
  Pixels pixels, without;
  Colors colors;
  int bar[3];

  shepard_params_init_aidw (&params);
  shepard_alpha_plot_get_levels (alpha_plot, levels);
  g_assert_cmpmem (levels, sizeof levels, params.alpha, sizeof params.alpha);
  for (int i = 0; i < ALPHA_BINS; i++)
    counts[i] = 1;
  counts[ALPHA_LARGEST] = 95;
  counts[ALPHA_HALF] = 47.5;
  shepard_alpha_plot_set_histogram (alpha_plot, counts, ALPHA_BINS, 1.375, 3.625);
  render_plot (plot, &pixels);
  read_colors (plot, &pixels, &colors);
  blend (&colors.foreground_color, 0.3, colors.background, bar);

  /* The longest bar runs along alpha5's band to mu = 1, the frame's right edge; the half one to mu = 0.5. */
  shepard_alpha_plot_data_to_widget (alpha_plot, 1, 3.58, &end, &band);
  shepard_alpha_plot_data_to_widget (alpha_plot, 0.5, 3.58, &wx, &band);
  g_test_message ("longest bar to x %.1f at y %.1f", end, band);
  g_assert_cmpint (distance_at (&pixels, end - 1.5, band, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, wx, band, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, end + 1.5, band, colors.background), <=, COLOR_TOLERANCE);
  shepard_alpha_plot_data_to_widget (alpha_plot, 0.5, 1.75, &end, &band);
  g_assert_cmpint (distance_at (&pixels, end - 3, band, bar), <=, COLOR_TOLERANCE);
  g_assert_cmpint (distance_at (&pixels, end + 3, band, colors.background), <=, COLOR_TOLERANCE);

  /* The curve passes through each level where the triangular membership reaches it. */
  static const double level_mu[SHEPARD_AIDW_LEVELS] = { 0.1, 0.3, 0.5, 0.7, 0.9 };
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      shepard_alpha_plot_data_to_widget (alpha_plot, level_mu[i], shepard_aidw_alpha (level_mu[i], params.alpha), &wx,
                                         &wy);
      g_assert_cmpint (distance_at (&pixels, wx, wy, colors.accent), <=, COLOR_TOLERANCE);
    }

  /* The marker at (mu, alpha(mu)), and nothing for NaN. */
  double mu = 0.4, alpha = shepard_aidw_alpha (mu, params.alpha), centre_x, centre_y;
  shepard_alpha_plot_data_to_widget (alpha_plot, mu, alpha, &wx, &wy);
  shepard_alpha_plot_set_marker (alpha_plot, NAN, NAN);
  render_plot (plot, &without);
  g_free (pixels.data);
  shepard_alpha_plot_set_marker (alpha_plot, mu, alpha);
  render_plot (plot, &pixels);
  int count = new_pixels_of (&without, &pixels, wx, wy, 9, colors.accent, &centre_x, &centre_y);
  g_test_message ("marker mu %.2f alpha %.3f mapped to (%.2f, %.2f): %d new accent pixels around (%.2f, %.2f)", mu,
                  alpha, wx, wy, count, centre_x, centre_y);
  g_assert_cmpint (count, >=, 20);
  assert_near (centre_x, wx, 1.0);
  assert_near (centre_y, wy, 1.0);
  g_free (pixels.data);
  shepard_alpha_plot_set_marker (alpha_plot, mu, NAN);
  render_plot (plot, &pixels);
  g_assert_cmpint (new_pixels_of (&without, &pixels, wx, wy, 9, colors.accent, &centre_x, &centre_y), ==, 0);
  g_free (pixels.data);
  g_free (without.data);
  shepard_alpha_plot_set_marker (alpha_plot, mu, alpha);
  save_screenshot (window, "alpha-test.png");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The meuse sample as the instruments would show it: zinc cross-validated by AIDW, and R and alpha over a grid. */
typedef struct {
  size_t n;
  double *observed, *predicted;
  gssize worst;
  double r_counts[40], alpha_counts[40], r_last;
  double pinned_r, pinned_mu, pinned_alpha;
  shepard_params params;
} Meuse;

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

static void
load_meuse (Meuse *meuse)
{
  g_autofree char *text = NULL;
  g_autoptr (GError) error = NULL;
  shepard_error engine_error;

  g_assert_true (g_file_get_contents (meuse_path (), &text, NULL, &error));
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree double *x = g_new (double, g_strv_length (lines)), *y = g_new (double, g_strv_length (lines));
  meuse->observed = g_new (double, g_strv_length (lines));
  meuse->n = 0;
  for (int i = 1; lines[i] != NULL; i++)
    {
      g_auto (GStrv) fields = g_strsplit (lines[i], ",", -1);
      if (g_strv_length (fields) < 6)
        continue;
      x[meuse->n] = g_ascii_strtod (fields[0], NULL);
      y[meuse->n] = g_ascii_strtod (fields[1], NULL);
      meuse->observed[meuse->n++] = g_ascii_strtod (fields[5], NULL);
    }
  g_assert_cmpuint (meuse->n, ==, 155);

  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &engine_error);
  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, x, y, meuse->observed, meuse->n, &engine_error), ==, SHEPARD_OK);
  shepard_params_init_aidw (&meuse->params);
  meuse->predicted = g_new (double, meuse->n);
  shepard_cv_outputs cv = { .prediction = meuse->predicted };
  shepard_cv_summary summary;
  g_assert_cmpint (shepard_engine_cross_validate (engine, &meuse->params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, &cv, &summary,
                                                  NULL, NULL, &engine_error),
                   ==, SHEPARD_OK);
  meuse->worst = 0;
  for (size_t i = 0; i < meuse->n; i++)
    if (fabs (meuse->predicted[i] - meuse->observed[i])
        > fabs (meuse->predicted[meuse->worst] - meuse->observed[meuse->worst]))
      meuse->worst = (gssize) i;

  double x_min, y_min, x_max, y_max, r_exp;
  shepard_engine_bounds (engine, &x_min, &y_min, &x_max, &y_max);
  shepard_grid grid = { x_min, y_max, (x_max - x_min) / 80, (y_max - y_min) / 100, 80, 100 };
  g_autofree double *values = g_new (double, 8000), *alpha = g_new (double, 8000), *r_obs = g_new (double, 8000);
  shepard_outputs outputs = { values, alpha, r_obs };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &meuse->params, &grid, &outputs, NULL, NULL,
                                                    &engine_error),
                   ==, SHEPARD_OK);
  g_assert_cmpint (shepard_engine_expected_distance (engine, &meuse->params, &r_exp, &engine_error), ==, SHEPARD_OK);
  /* As the caller does: the R axis to past Rmax and to the R below which 99 % of the cells lie, R beyond the last
   * edge counted into the last bin, the plot told so with set_overflow. */
  g_autofree double *sorted = g_new (double, 8000);
  for (size_t i = 0; i < 8000; i++)
    sorted[i] = r_obs[i] / r_exp;
  qsort (sorted, 8000, sizeof *sorted, compare_doubles);
  meuse->r_last = ceil (2 * MAX (meuse->params.r_max + 1.5, sorted[(size_t) (0.99 * 8000)])) / 2;
  memset (meuse->r_counts, 0, sizeof meuse->r_counts);
  memset (meuse->alpha_counts, 0, sizeof meuse->alpha_counts);
  for (size_t i = 0; i < 8000; i++)
    {
      double r = r_obs[i] / r_exp;
      meuse->r_counts[MIN ((size_t) (r / meuse->r_last * 40), 39)]++;
      meuse->alpha_counts[MIN ((size_t) ((alpha[i] - 1.5) / 2.0 * 40), 39)]++;
    }
  meuse->pinned_r = r_obs[50 * 80 + 40] / r_exp;
  meuse->pinned_mu = shepard_aidw_membership (meuse->pinned_r, meuse->params.r_min, meuse->params.r_max);
  meuse->pinned_alpha = alpha[50 * 80 + 40];
  g_test_message ("meuse: LOO RMSE %.1f, worst point %" G_GSSIZE_FORMAT ", R axis to %.1f, pinned cell R %.2f "
                  "alpha %.2f", summary.rmse, meuse->worst, meuse->r_last, meuse->pinned_r, meuse->pinned_alpha);
  shepard_engine_free (engine);
}

static void
set_dark (gboolean dark)
{
  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", dark, NULL);
  let_frames_pass (200);
}

static void
test_screenshots (void)
{
  Meuse meuse;
  /* Held, so that each plot outlives the windows it is shown in. */
  GtkWidget *scatter = g_object_ref_sink (shepard_scatter_plot_new ());
  GtkWidget *membership = g_object_ref_sink (shepard_membership_plot_new ());
  GtkWidget *alpha = g_object_ref_sink (shepard_alpha_plot_new ());

  load_meuse (&meuse);
  shepard_scatter_plot_set_points (SHEPARD_SCATTER_PLOT (scatter), meuse.observed, meuse.predicted, meuse.n);
  shepard_scatter_plot_set_axis_title (SHEPARD_SCATTER_PLOT (scatter), "zinc (ppm)");
  shepard_scatter_plot_set_selected (SHEPARD_SCATTER_PLOT (scatter), meuse.worst);
  shepard_membership_plot_set_thresholds (SHEPARD_MEMBERSHIP_PLOT (membership), meuse.params.r_min,
                                          meuse.params.r_max);
  shepard_membership_plot_set_histogram (SHEPARD_MEMBERSHIP_PLOT (membership), meuse.r_counts, 40, 0, meuse.r_last);
  shepard_membership_plot_set_overflow (SHEPARD_MEMBERSHIP_PLOT (membership), TRUE);
  shepard_membership_plot_set_marker (SHEPARD_MEMBERSHIP_PLOT (membership), meuse.pinned_r);
  shepard_alpha_plot_set_levels (SHEPARD_ALPHA_PLOT (alpha), meuse.params.alpha);
  shepard_alpha_plot_set_histogram (SHEPARD_ALPHA_PLOT (alpha), meuse.alpha_counts, 40, 1.5, 3.5);
  shepard_alpha_plot_set_marker (SHEPARD_ALPHA_PLOT (alpha), meuse.pinned_mu, meuse.pinned_alpha);

  /* The alpha plot also sits in the parameter panel, whose side panel is narrower. */
  struct {
    GtkWidget *plot;
    const char *name;
    int minimum_width;
  } plots[] = { { scatter, "scatter", 280 }, { membership, "membership", 280 }, { alpha, "alpha", 240 } };
  for (size_t i = 0; i < G_N_ELEMENTS (plots); i++)
    {
      GtkWidget *window = present_plot (plots[i].plot, plots[i].name);
      for (int dark = 0; dark <= 1; dark++)
        {
          g_autofree char *name = g_strdup_printf ("%s-%s.png", plots[i].name, dark ? "dark" : "light");
          GdkRGBA foreground, accent;
          set_dark (dark);
          _shepard_plot_colors (plots[i].plot, &foreground, &accent);
          /* The theme did change: light text on dark, dark on light. */
          g_assert_cmpint (foreground.red + foreground.green + foreground.blue > 1.5, ==, dark);
          save_screenshot (window, name);
        }
      set_dark (FALSE);
      gtk_window_destroy (GTK_WINDOW (window));

      /* At the smallest size the plots ask for, where labels crowd first. */
      int minimum_width, minimum_height;
      gtk_widget_measure (plots[i].plot, GTK_ORIENTATION_HORIZONTAL, -1, &minimum_width, NULL, NULL, NULL);
      gtk_widget_measure (plots[i].plot, GTK_ORIENTATION_VERTICAL, -1, &minimum_height, NULL, NULL, NULL);
      g_assert_cmpint (minimum_width, ==, plots[i].minimum_width);
      g_assert_cmpint (minimum_height, ==, 180);
      window = present_plot_sized (plots[i].plot, plots[i].name, minimum_width, minimum_height);
      g_autofree char *name = g_strdup_printf ("%s-smallest.png", plots[i].name);
      save_screenshot (window, name);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  for (size_t i = 0; i < G_N_ELEMENTS (plots); i++)
    g_object_unref (plots[i].plot);
  g_free (meuse.observed);
  g_free (meuse.predicted);
}

static void
skip_without_display (gconstpointer data)
{
  g_test_skip ("no display");
}

int
main (int argc, char *argv[])
{
  static const struct {
    const char *path;
    GTestFunc test;
  } drawn[] = {
    { "/ui/plots/scatter/pixels", test_scatter_pixels },
    { "/ui/plots/scatter/activate", test_scatter_activate },
    { "/ui/plots/scatter/million", test_scatter_million },
    { "/ui/plots/membership/pixels", test_membership_pixels },
    { "/ui/plots/alpha/pixels", test_alpha_pixels },
    { "/ui/plots/screenshots", test_screenshots },
  };

  g_test_init (&argc, &argv, NULL);
  /* The ticks need no display; each drawn test says it skipped where there is none. */
  gboolean display = gtk_init_check ();
  g_test_add_func ("/ui/plots/nice-ticks", test_nice_ticks);
  for (size_t i = 0; i < G_N_ELEMENTS (drawn); i++)
    if (display)
      g_test_add_func (drawn[i].path, drawn[i].test);
    else
      g_test_add_data_func (drawn[i].path, NULL, skip_without_display);
  return g_test_run ();
}
