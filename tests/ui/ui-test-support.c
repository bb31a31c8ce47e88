/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "ui-test-support.h"

#include "shepard-cv-panel.h"
#include "shepard-display-panel.h"
#include "shepard-explain-panel.h"
#include "shepard-layer-panel.h"
#include "shepard-parameter-panel.h"
#include "shepard-status-bar.h"

#include <epoxy/gl.h>
#include <math.h>
#include <unistd.h>

/* One 8-bit step of rounding on each side, and the ramp's linear interpolation between control points. */
#define COLOR_TOLERANCE 6

char *
screenshot_path (const char *name)
{
  const char *run = g_getenv ("SHEPARD_TEST_RUN");
  g_autofree char *folder = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "screenshots",
                                              run != NULL ? run : "by-hand", NULL);

  g_assert_cmpint (g_mkdir_with_parents (folder, 0755), ==, 0);
  return g_build_filename (folder, name, NULL);
}

gboolean
is_settled (gpointer data)
{
  ShepardWindow *self = data;
  return !shepard_window_is_busy (self) && shepard_window_get_surface (self) != NULL;
}

gboolean
has_message (gpointer data)
{
  return !shepard_window_is_busy (data) && shepard_window_get_message (data) != NULL;
}

const char *
meuse_path (void)
{
  static char *path;
  if (path == NULL)
    path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  return path;
}

gpointer
find_controller (GtkWidget *widget, GType type)
{
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      /* Borrowed: the widget keeps its controllers. */
      if (G_TYPE_CHECK_INSTANCE_TYPE (controller, type))
        return controller;
    }
  g_assert_not_reached ();
}

gpointer
dialog_child (ShepardExportDialog *dialog, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (dialog), SHEPARD_TYPE_EXPORT_DIALOG, name);
  g_assert_nonnull (child);
  return child;
}

gboolean
is_nonzero (gpointer data)
{
  return *(int *) data != 0;
}

void
on_export_finished (ShepardExportDialog *dialog, gboolean written, int *state)
{
  *state = written ? 1 : 2;
}

ShepardWindow *
present_test_window (void)
{
  ShepardWindow *window = shepard_window_new (NULL);

  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

gpointer
window_child (ShepardWindow *window, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window), SHEPARD_TYPE_WINDOW, name);

  /* The window's parts hold their own controls. */
  const struct {
    const char *part;
    GType type;
  } parts[] = {
    { "parameter_panel", SHEPARD_TYPE_PARAMETER_PANEL },
    { "layer_panel", SHEPARD_TYPE_LAYER_PANEL },
    { "display_panel", SHEPARD_TYPE_DISPLAY_PANEL },
    { "status_bar", SHEPARD_TYPE_STATUS_BAR },
    { "cv_panel", SHEPARD_TYPE_CV_PANEL },
    { "explain_panel", SHEPARD_TYPE_EXPLAIN_PANEL },
  };
  for (size_t i = 0; child == NULL && i < G_N_ELEMENTS (parts); i++)
    child = gtk_widget_get_template_child (
      GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (window), SHEPARD_TYPE_WINDOW, parts[i].part)),
      parts[i].type, name);
  g_assert_nonnull (child);
  return child;
}

void
assert_near (double actual, double expected, double tolerance)
{
  if (fabs (actual - expected) > tolerance)
    g_error ("%.17g differs from %.17g by more than %g", actual, expected, tolerance);
}

GdkTexture *
capture_window (ShepardWindow *window)
{
  /* A window that has not been laid out and drawn yet (a slow run, as under the sanitizers) snapshots to nothing:
   * let the main loop run until it draws, for up to 10 s. */
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;
  for (;;)
    {
      int width = gtk_widget_get_width (GTK_WIDGET (window));
      int height = gtk_widget_get_height (GTK_WIDGET (window));
      g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
      GtkSnapshot *snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL && width > 0 && height > 0)
        return gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                            &GRAPHENE_RECT_INIT (0, 0, width, height));
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      g_main_context_iteration (NULL, FALSE);
      g_usleep (10000);
    }
}

void
pixels_from_texture (GdkTexture *texture, Pixels *pixels)
{
  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = (gsize) pixels->width * 4;
  pixels->data = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->data, pixels->stride);
}

/* gdk_texture_download writes CAIRO_FORMAT_ARGB32: B, G, R, A bytes on little-endian machines. */
void
pixel_rgb (const Pixels *pixels, int x, int y, int rgb[3])
{
  const guchar *p = pixels->data + (gsize) y * pixels->stride + (gsize) x * 4;
  guint32 value = *(const guint32 *) p;
  rgb[0] = (value >> 16) & 0xff;
  rgb[1] = (value >> 8) & 0xff;
  rgb[2] = value & 0xff;
}

gboolean
pick_smooth_cell (ShepardWindow *window, const float *values, double lowest, double highest, size_t *cell_row,
                  size_t *cell_col)
{
  ShepardSurface *surface = shepard_window_get_surface (window);
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  ShepardMapView *view = shepard_window_get_map_view (window);
  double best_spread = INFINITY;

  for (size_t row = 2; row + 2 < surface->grid.height; row += 3)
    for (size_t col = 2; col + 2 < surface->grid.width; col += 3)
      {
        double here = values[row * surface->grid.width + col];
        if (!(here >= lowest && here <= highest))
          continue;
        double x = surface->grid.x_min + (col + 0.5) * surface->grid.dx;
        double y = surface->grid.y_max - (row + 0.5) * surface->grid.dy;
        double wx, wy, near = INFINITY;
        shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
        for (size_t i = 0; i < points->count; i++)
          {
            double px, py;
            shepard_map_view_map_to_widget (view, points->x[i], points->y[i], &px, &py);
            near = MIN (near, hypot (px - wx, py - wy));
          }
        if (near < 16)
          continue;
        double lo = INFINITY, hi = -INFINITY;
        for (int dr = -2; dr <= 2; dr++)
          for (int dc = -2; dc <= 2; dc++)
            {
              double v = values[(row + dr) * surface->grid.width + col + dc];
              /* A cell without data nearby (a mask, too few points) rules the cell out. */
              lo = isnan (v) ? -INFINITY : MIN (lo, v);
              hi = isnan (v) ? INFINITY : MAX (hi, v);
            }
        if (hi - lo < best_spread)
          {
            best_spread = hi - lo;
            *cell_row = row;
            *cell_col = col;
          }
      }
  return isfinite (best_spread);
}

void
assert_window_pixel_matches_surface (ShepardWindow *window, const float *values, const char *screenshot_name)
{
  /* Held: the frames let pass below run the main loop, where a newer surface may replace it (values may be its). */
  g_autoptr (ShepardSurface) surface = shepard_surface_ref (shepard_window_get_surface (window));
  ShepardDocument *document = shepard_window_get_document (window);
  ShepardMapView *view = shepard_window_get_map_view (window);
  double min = shepard_document_get_value_min (document), max = shepard_document_get_value_max (document);
  ShepardColorRamp ramp = shepard_window_get_ramp (window);
  size_t best_row = 0, best_col = 0;

  let_frames_pass (300);
  g_assert_true (pick_smooth_cell (window, values, -INFINITY, INFINITY, &best_row, &best_col));

  double x = surface->grid.x_min + (best_col + 0.5) * surface->grid.dx;
  double y = surface->grid.y_max - (best_row + 0.5) * surface->grid.dy;
  double value = values[best_row * surface->grid.width + best_col];
  double wx, wy, window_x, window_y;
  float expected[3];
  int actual[3];

  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &window_x,
                                                   &window_y));
  g_assert_true (shepard_color_ramp_color_for_value (ramp, value, min, max, expected));

  g_autoptr (GdkTexture) texture = capture_window (window);
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  pixel_rgb (&pixels, (int) floor (window_x), (int) floor (window_y), actual);
  g_test_message ("cell (%zu, %zu) at (%.1f, %.1f): value %.3f, expected rgb %.0f %.0f %.0f, read %d %d %d", best_col,
                  best_row, window_x, window_y, value, expected[0] * 255, expected[1] * 255, expected[2] * 255,
                  actual[0], actual[1], actual[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (actual[c] - (int) lround (expected[c] * 255)), <=, COLOR_TOLERANCE);
  g_free (pixels.data);

  g_autofree char *png = screenshot_path (screenshot_name);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

void
assert_map_gl_context (ShepardWindow *window)
{
  GtkGLArea *area = GTK_GL_AREA (shepard_window_get_map_view (window));
  GdkGLContext *context = gtk_gl_area_get_context (area);
  const char *expected = g_getenv ("SHEPARD_TEST_EXPECT_GL");
  int major = 0, minor = 0;

  g_assert_nonnull (context);
  g_assert_null (gtk_gl_area_get_error (area));
  gdk_gl_context_make_current (context);
  gdk_gl_context_get_version (context, &major, &minor);
  g_autofree char *actual = g_strdup_printf ("%s%d.%d", gdk_gl_context_get_use_es (context) ? "es" : "", major,
                                             minor);
  g_test_message ("map GL context %s: %s, %s", actual, glGetString (GL_RENDERER), glGetString (GL_VERSION));
  if (expected == NULL)
    {
      g_test_skip ("SHEPARD_TEST_EXPECT_GL is not set: any context GTK gives is fine");
      return;
    }
  g_assert_cmpstr (actual, ==, expected);
}

static void
on_interpolated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardSurface **surface = user_data;
  g_autoptr (GError) error = NULL;

  *surface = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result, &error);
  g_assert_no_error (error);
}

ShepardSurface *
interpolate_and_wait (ShepardDocument *document, const shepard_params *params, const shepard_grid *grid)
{
  ShepardSurface *surface = NULL;

  shepard_document_interpolate_async (document, params, grid, SHEPARD_SURFACE_IN_HOST_MEMORY, NULL, on_interpolated,
                                      &surface);
  g_assert_true (wait_until (is_set, &surface));
  return surface;
}

void
read_zinc_status (const char *text, double *x, double *y, double *value, double *alpha)
{
  g_auto (GStrv) groups = g_strsplit (text, "\u2009", -1);
  g_autofree char *plain = g_strjoinv ("", groups);
  const char *field = strstr (plain, " zinc ");

  g_assert_nonnull (strstr (plain, "(EPSG:28992) · "));
  g_assert_nonnull (field);
  g_assert_cmpint (sscanf (plain, "%lf, %lf", x, y), ==, 2);
  g_assert_cmpint (sscanf (field, " zinc %lf %*s %lf", value, alpha), ==, 2);
}

void
press_key (GtkWidget *widget, guint keyval)
{
  press_keys (widget, keyval, 0);
}

void
press_keys (GtkWidget *widget, guint keyval, GdkModifierType modifiers)
{
  g_autoptr (GtkShortcutTrigger) wanted = gtk_keyval_trigger_new (keyval, modifiers);
  g_autoptr (GListModel) controllers = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr (GObject) controller = g_list_model_get_item (controllers, i);
      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint j = 0; j < g_list_model_get_n_items (G_LIST_MODEL (controller)); j++)
        {
          g_autoptr (GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), j);
          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), wanted))
            {
              g_assert_true (gtk_shortcut_action_activate (gtk_shortcut_get_action (shortcut), 0, widget,
                                                           gtk_shortcut_get_arguments (shortcut)));
              return;
            }
        }
    }
  g_error ("no shortcut of %s binds %s (modifiers 0x%x)", G_OBJECT_TYPE_NAME (widget), gdk_keyval_name (keyval),
           modifiers);
}

GSettings *
new_settings (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source != NULL ? g_settings_schema_source_lookup (source,
                                                                                        "io.github.shepard.Shepard",
                                                                                        TRUE)
                                                      : NULL;

  g_assert_nonnull (schema);
  return g_settings_new_full (schema, NULL, NULL);
}

void
count_signal (gpointer instance, int *count)
{
  (*count)++;
}

void
enter_text (GtkSpinButton *spin, const char *text)
{
  gtk_editable_set_text (GTK_EDITABLE (spin), text);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, text);
  gtk_spin_button_update (spin);
}

double
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  unsigned long long size = 0, resident = 0;

  g_assert_true (g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL));
  g_assert_cmpint (sscanf (statm, "%llu %llu", &size, &resident), ==, 2);
  return (double) resident * (double) sysconf (_SC_PAGESIZE);
}
