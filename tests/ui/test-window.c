/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gdal.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>

#include "shepard-export-dialog.h"
#include "shepard-window.h"

/* Software GL under Xvfb on 2 cores: generous, the usual run takes a few seconds. */
#define WAIT_SECONDS 60
/* One 8-bit step of rounding on each side, and the ramp's linear interpolation between control points. */
#define COLOR_TOLERANCE 6

static ShepardWindow *window;

typedef gboolean (*Condition) (gpointer data);

static gboolean
wait_until (Condition condition, gpointer data)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
  return TRUE;
}

static gboolean
is_settled (gpointer data)
{
  ShepardWindow *self = data;
  return !shepard_window_is_busy (self) && shepard_window_get_surface (self) != NULL;
}

static void
let_frames_pass (int milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static const char *
meuse_path (void)
{
  static char *path;
  if (path == NULL)
    path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  return path;
}

/* What the screen shows: the window drawn by its own renderer, GL view included. */
static GdkTexture *
capture_window (void)
{
  int width = gtk_widget_get_width (GTK_WIDGET (window));
  int height = gtk_widget_get_height (GTK_WIDGET (window));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (window));
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

typedef struct {
  guchar *data;
  int width, height;
  gsize stride;
} Pixels;

static void
pixels_from_texture (GdkTexture *texture, Pixels *pixels)
{
  pixels->width = gdk_texture_get_width (texture);
  pixels->height = gdk_texture_get_height (texture);
  pixels->stride = (gsize) pixels->width * 4;
  pixels->data = g_malloc (pixels->stride * pixels->height);
  gdk_texture_download (texture, pixels->data, pixels->stride);
}

/* gdk_texture_download writes CAIRO_FORMAT_ARGB32: B, G, R, A bytes on little-endian machines. */
static void
pixel_rgb (const Pixels *pixels, int x, int y, int rgb[3])
{
  const guchar *p = pixels->data + (gsize) y * pixels->stride + (gsize) x * 4;
  guint32 value = *(const guint32 *) p;
  rgb[0] = (value >> 16) & 0xff;
  rgb[1] = (value >> 8) & 0xff;
  rgb[2] = value & 0xff;
}

static void
test_open_and_compute (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  gboolean settled = wait_until (is_settled, window);
  if (!settled)
    g_test_message ("not settled: busy %d, surface %p, message %s", shepard_window_is_busy (window),
                    (gpointer) shepard_window_get_surface (window), shepard_window_get_message (window));
  g_assert_true (settled);
  g_assert_null (shepard_window_get_message (window));

  ShepardDocument *document = shepard_window_get_document (window);
  g_assert_nonnull (document);
  const ShepardPointLayer *points = shepard_document_get_points (document);
  g_assert_cmpuint (points->count, ==, 155);
  g_assert_cmpstr (points->field_name, ==, "zinc");
  g_assert_nonnull (strstr (shepard_document_get_crs_name (document), "28992"));
  g_test_message ("engine: %s", shepard_document_get_backend (document));

  ShepardSurface *surface = shepard_window_get_surface (window);
  g_assert_cmpuint (MAX (surface->grid.width, surface->grid.height), ==, 384);
  g_assert_cmpfloat (surface->value_min, >=, shepard_document_get_value_min (document) - 1e-3);
  g_assert_cmpfloat (surface->value_max, <=, shepard_document_get_value_max (document) + 1e-3);
}

/* A cell far from every data dot, where the surface is smooth enough that the texture's filtering cannot move the
 * colour: its pixel must be the ramp's colour of the engine's value. */
static void
test_pixel_matches_engine (void)
{
  ShepardSurface *surface = shepard_window_get_surface (window);
  ShepardDocument *document = shepard_window_get_document (window);
  const ShepardPointLayer *points = shepard_document_get_points (document);
  ShepardMapView *view = shepard_window_get_map_view (window);
  double min = shepard_document_get_value_min (document), max = shepard_document_get_value_max (document);
  ShepardColorRamp ramp = shepard_window_get_ramp (window);
  size_t best_row = 0, best_col = 0;
  double best_spread = INFINITY;

  let_frames_pass (300);
  for (size_t row = 2; row + 2 < surface->grid.height; row += 3)
    for (size_t col = 2; col + 2 < surface->grid.width; col += 3)
      {
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
              double v = surface->values[(row + dr) * surface->grid.width + col + dc];
              lo = MIN (lo, v);
              hi = MAX (hi, v);
            }
        if (hi - lo < best_spread)
          {
            best_spread = hi - lo;
            best_row = row;
            best_col = col;
          }
      }
  g_assert_true (isfinite (best_spread));

  double x = surface->grid.x_min + (best_col + 0.5) * surface->grid.dx;
  double y = surface->grid.y_max - (best_row + 0.5) * surface->grid.dy;
  double value = surface->values[best_row * surface->grid.width + best_col];
  double wx, wy, window_x, window_y;
  float expected[3];
  int actual[3];

  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &window_x,
                                                   &window_y));
  g_assert_true (shepard_color_ramp_color_for_value (ramp, value, min, max, expected));

  g_autoptr (GdkTexture) texture = capture_window ();
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  pixel_rgb (&pixels, (int) floor (window_x), (int) floor (window_y), actual);
  g_test_message ("cell (%zu, %zu) at (%.1f, %.1f): value %.3f, expected rgb %.0f %.0f %.0f, read %d %d %d", best_col,
                  best_row, window_x, window_y, value, expected[0] * 255, expected[1] * 255, expected[2] * 255,
                  actual[0], actual[1], actual[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (actual[c] - (int) lround (expected[c] * 255)), <=, COLOR_TOLERANCE);
  g_free (pixels.data);

  /* The window as a person sees it, for a look by eye. */
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "shepard-window.png", NULL);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

static void
test_parameter_changes_picture (void)
{
  shepard_params params;
  Pixels before, after;
  size_t differing = 0;

  g_autoptr (GdkTexture) first = capture_window ();
  pixels_from_texture (first, &before);

  shepard_window_get_params (window, &params);
  shepard_params_init_idw (&params);
  params.power = 6;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpint (shepard_window_get_surface (window)->params.method, ==, SHEPARD_METHOD_IDW);
  let_frames_pass (300);

  g_autoptr (GdkTexture) second = capture_window ();
  pixels_from_texture (second, &after);
  g_assert_cmpint (before.width, ==, after.width);
  for (int y = 0; y < before.height; y++)
    for (int x = 0; x < before.width; x++)
      {
        int a[3], b[3];
        pixel_rgb (&before, x, y, a);
        pixel_rgb (&after, x, y, b);
        if (abs (a[0] - b[0]) + abs (a[1] - b[1]) + abs (a[2] - b[2]) > 12)
          differing++;
      }
  g_test_message ("%zu pixels changed", differing);
  g_assert_cmpuint (differing, >, 10000);
  g_free (before.data);
  g_free (after.data);
}

static void
on_export_finished (ShepardExportDialog *dialog, gboolean written, int *state)
{
  *state = written ? 1 : 2;
}

static gboolean
is_nonzero (gpointer data)
{
  return *(int *) data != 0;
}

static void
test_export_geotiff (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "zinc.tif", NULL);
  ShepardExportDialog *dialog = shepard_export_dialog_new (window);
  int state = 0;

  g_object_ref (dialog);
  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  /* Not presented: without a window manager, Xvfb's focus hand-over to a destroyed dialog trips a GTK warning. */
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  g_assert_true (wait_until (is_nonzero, &state));
  g_assert_cmpint (state, ==, 1);
  g_object_unref (dialog);
  g_assert_nonnull (shepard_window_get_message (window));
  g_assert_nonnull (strstr (shepard_window_get_message (window), path));

  GDALAllRegister ();
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  g_assert_cmpstr (GDALGetDriverShortName (GDALGetDatasetDriver (dataset)), ==, "GTiff");
  g_assert_nonnull (strstr (GDALGetProjectionRef (dataset), "Amersfoort"));
  g_assert_cmpint (GDALGetRasterXSize (dataset), >, 100);
  GDALClose (dataset);

  g_autofree char *gdalinfo = g_find_program_in_path ("gdalinfo");
  if (gdalinfo != NULL)
    {
      g_autofree char *out = NULL;
      int status;
      const char *argv[] = { gdalinfo, path, NULL };
      g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, NULL, &status,
                                   NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
      g_assert_nonnull (strstr (out, "28992"));
    }
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

static gboolean
has_message (gpointer data)
{
  return !shepard_window_is_busy (data) && shepard_window_get_message (data) != NULL;
}

static void
test_bad_file_shows_error (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "broken.gpkg", NULL);
  ShepardDocument *before = shepard_window_get_document (window);

  g_assert_true (g_file_set_contents (path, "this is not a GeoPackage\n", -1, NULL));
  g_autoptr (GFile) file = g_file_new_for_path (path);
  shepard_window_open (window, file, NULL);
  g_assert_true (wait_until (has_message, window));
  g_test_message ("message: %s", shepard_window_get_message (window));
  g_assert_nonnull (strstr (shepard_window_get_message (window), "broken.gpkg"));
  /* Nothing lost: the layer that was open stays open and still recomputes. */
  g_assert_true (shepard_window_get_document (window) == before);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window)));

  shepard_params params;
  shepard_window_get_params (window, &params);
  params.power = 3;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpfloat (shepard_window_get_surface (window)->params.power, ==, 3);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* GtkApplication loads the shortcuts window itself and aborts on a broken one. */
static void
test_shortcuts_window (void)
{
  g_autoptr (GtkBuilder) builder = gtk_builder_new ();
  g_autoptr (GError) error = NULL;

  g_assert_true (gtk_builder_add_from_resource (builder, "/io/github/shepard/Shepard/gtk/help-overlay.ui", &error));
  g_assert_no_error (error);
  GtkWindow *overlay = GTK_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (overlay));
  gtk_window_destroy (overlay);
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  window = shepard_window_new (NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  gtk_window_present (GTK_WINDOW (window));

  g_test_add_func ("/ui/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/ui/window/open-compute", test_open_and_compute);
  g_test_add_func ("/ui/window/pixel-matches-engine", test_pixel_matches_engine);
  g_test_add_func ("/ui/window/parameter-changes-picture", test_parameter_changes_picture);
  g_test_add_func ("/ui/window/export-geotiff", test_export_geotiff);
  g_test_add_func ("/ui/window/bad-file-shows-error", test_bad_file_shows_error);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
