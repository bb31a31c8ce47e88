/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gdal.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "shepard-export-dialog.h"
#include "shepard-layer-panel.h"
#include "shepard-window.h"
#include "ui-test-support.h"

static ShepardWindow *window;

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

static void
test_pixel_matches_engine (void)
{
  assert_window_pixel_matches_surface (window, shepard_window_get_surface (window)->values, "shepard-window.png");
}

/* With SHEPARD_TEST_EXPECT_GL set, the map's context is exactly that version: a run meant to draw on OpenGL 3.2 core
 * (MESA_GL_VERSION_OVERRIDE=3.2, as the NVIDIA driver hands GTK 4.8) cannot pass on a newer one. */
static void
test_gl_context (void)
{
  assert_map_gl_context (window);
}

static void
test_parameter_changes_picture (void)
{
  shepard_params params;
  Pixels before, after;
  size_t differing = 0;

  g_autoptr (GdkTexture) first = capture_window (window);
  pixels_from_texture (first, &before);

  shepard_window_get_params (window, &params);
  shepard_params_init_idw (&params);
  params.power = 6;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpint (shepard_window_get_surface (window)->params.method, ==, SHEPARD_METHOD_IDW);
  let_frames_pass (300);

  g_autoptr (GdkTexture) second = capture_window (window);
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
count_notify (GObject *object, GParamSpec *pspec, int *count)
{
  (*count)++;
}

/* A GL context that is not on the engine's CUDA device (here Mesa's, on a machine without CUDA): the view says why
 * interop is off, the preview keeps its grids in host memory, and the map goes on drawing. The interop path
 * itself is proven headless on a GPU by tests/render/test-interop. */
static void
test_interop_unavailable (void)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  const char *reason = NULL;
  int changes = 0;
  shepard_params params;

  gulong handler = g_signal_connect (view, "notify::interop", G_CALLBACK (count_notify), &changes);
  shepard_map_view_set_cuda_device (view, 0);
  g_assert_cmpint (changes, ==, 1);
  g_assert_false (shepard_map_view_get_interop (view, &reason));
  g_assert_nonnull (reason);
  g_test_message ("interop off: %s", reason);
  g_assert_false (shepard_preview_get_keeps_on_gpu (shepard_window_get_preview (window)));

  shepard_window_get_params (window, &params);
  params.power = params.power == 2.0 ? 3.0 : 2.0;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  ShepardSurface *surface = shepard_window_get_surface (window);
  g_assert_nonnull (surface->values);
  g_assert_null (surface->device_grid);

  shepard_map_view_set_cuda_device (view, -1);
  g_assert_cmpint (changes, ==, 2);
  g_assert_false (shepard_map_view_get_interop (view, &reason));
  g_assert_null (reason);
  g_signal_handler_disconnect (view, handler);
}

static void
test_export_geotiff (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "zinc.tif", NULL);
  ShepardExportDialog *dialog = shepard_window_new_export_dialog (window);
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

/* The gestures' own signals, as GTK emits them for a pointer: there is no public way to inject events. */
static void
test_pan_zoom_fit (void)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  double fit_x, fit_y, wx, wy, qx, qy, fitted[4], extent[4];
  gboolean handled = FALSE;

  /* The status bar's read-out appears on the first motion and may change the view's height: let that settle. */
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "motion", 10.0, 10.0);
  let_frames_pass (200);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  shepard_map_view_map_to_widget (view, points->x[0], points->y[0], &fit_x, &fit_y);
  g_assert_true (shepard_map_view_get_visible_extent (view, &fitted[0], &fitted[1], &fitted[2], &fitted[3]));

  GtkGesture *drag = find_controller (GTK_WIDGET (view), GTK_TYPE_GESTURE_DRAG);
  g_signal_emit_by_name (drag, "drag-begin", 200.0, 150.0);
  g_signal_emit_by_name (drag, "drag-update", 40.0, -25.0);
  shepard_map_view_map_to_widget (view, points->x[0], points->y[0], &wx, &wy);
  assert_near (wx, fit_x + 40, 1e-6);
  assert_near (wy, fit_y - 25, 1e-6);

  /* Zoom in one step with the cursor on another data point: that point stays under the cursor, the first one moves
   * away from it by the zoom step. */
  shepard_map_view_map_to_widget (view, points->x[20], points->y[20], &qx, &qy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "motion", qx, qy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_SCROLL), "scroll", 0.0, -1.0,
                         &handled);
  g_assert_true (handled);
  double zx, zy;
  shepard_map_view_map_to_widget (view, points->x[20], points->y[20], &zx, &zy);
  assert_near (zx, qx, 1e-6);
  assert_near (zy, qy, 1e-6);
  shepard_map_view_map_to_widget (view, points->x[0], points->y[0], &fit_x, &fit_y);
  assert_near (hypot (fit_x - qx, fit_y - qy) / hypot (wx - qx, wy - qy), 1.2, 1e-9);
  g_assert_true (shepard_map_view_get_visible_extent (view, &extent[0], &extent[1], &extent[2], &extent[3]));
  assert_near ((extent[2] - extent[0]) * 1.2, fitted[2] - fitted[0], 1e-6);
  let_frames_pass (100);

  /* Fit comes back to the data's extent exactly. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  g_assert_true (shepard_map_view_get_visible_extent (view, &extent[0], &extent[1], &extent[2], &extent[3]));
  for (int i = 0; i < 4; i++)
    assert_near (extent[i], fitted[i], 1e-6);
  double data[4];
  shepard_document_get_bounds (shepard_window_get_document (window), &data[0], &data[1], &data[2], &data[3]);
  g_assert_cmpfloat (extent[0], <, data[0]);
  g_assert_cmpfloat (extent[1], <, data[1]);
  g_assert_cmpfloat (extent[2], >, data[2]);
  g_assert_cmpfloat (extent[3], >, data[3]);
  let_frames_pass (100);
}

static void
test_hover_status (void)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  /* Settled, and held: the engine's own answer below runs the main loop, where a surface of the view that the test
   * before left may still come and replace this one. */
  g_assert_true (wait_until (is_settled, window));
  g_autoptr (ShepardSurface) surface = shepard_surface_ref (shepard_window_get_surface (window));
  GtkLabel *label = window_child (window, "cursor_label");
  size_t col = surface->grid.width / 3, row = surface->grid.height / 2;
  double x = surface->grid.x_min + (col + 0.5) * surface->grid.dx;
  double y = surface->grid.y_max - (row + 0.5) * surface->grid.dy;
  double wx, wy, read_x, read_y, value, alpha;

  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "motion", wx, wy);
  const char *text = gtk_label_get_text (label);
  g_test_message ("status: %s", text);
  read_zinc_status (text, &read_x, &read_y, &value, &alpha);
  assert_near (read_x, x, 0.5);
  assert_near (read_y, y, 0.5);

  /* The engine asked on its own for that one cell centre gives what the status bar shows. */
  shepard_grid cell = { .x_min = x - surface->grid.dx / 2, .y_max = y + surface->grid.dy / 2,
                        .dx = surface->grid.dx, .dy = surface->grid.dy, .width = 1, .height = 1 };
  ShepardSurface *single = interpolate_and_wait (shepard_window_get_document (window), &surface->params, &cell);
  g_test_message ("engine %.6g, alpha %.6g", single->values[0], single->alpha[0]);
  assert_near (value, single->values[0], fabs (single->values[0]) * 5e-4);
  assert_near (alpha, single->alpha[0], 5e-4);
  assert_near (surface->values[row * surface->grid.width + col], single->values[0],
               fabs (single->values[0]) * 1e-5);
  shepard_surface_unref (single);

  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "leave");
  g_assert_cmpstr (gtk_label_get_text (label), ==, "");
}

static size_t
count_changed_pixels (GdkTexture *first, GdkTexture *second)
{
  Pixels before, after;
  size_t differing = 0;

  pixels_from_texture (first, &before);
  pixels_from_texture (second, &after);
  g_assert_cmpint (before.width, ==, after.width);
  g_assert_cmpint (before.height, ==, after.height);
  for (int y = 0; y < before.height; y++)
    for (int x = 0; x < before.width; x++)
      {
        int a[3], b[3];
        pixel_rgb (&before, x, y, a);
        pixel_rgb (&after, x, y, b);
        if (abs (a[0] - b[0]) + abs (a[1] - b[1]) + abs (a[2] - b[2]) > 12)
          differing++;
      }
  g_free (before.data);
  g_free (after.data);
  return differing;
}

static void
test_ramp_and_hillshade_change_picture (void)
{
  GtkDropDown *ramp = window_child (window, "ramp_dropdown");
  GtkSwitch *hillshade = window_child (window, "hillshade_switch");
  guint old_ramp = gtk_drop_down_get_selected (ramp);
  gboolean old_hillshade = gtk_switch_get_active (hillshade);
  size_t changed;

  let_frames_pass (200);
  g_autoptr (GdkTexture) first = capture_window (window);
  gtk_drop_down_set_selected (ramp, (old_ramp + 1) % g_list_model_get_n_items (gtk_drop_down_get_model (ramp)));
  g_assert_cmpint (shepard_window_get_ramp (window), !=, old_ramp);
  let_frames_pass (300);
  g_autoptr (GdkTexture) second = capture_window (window);
  changed = count_changed_pixels (first, second);
  g_test_message ("ramp: %zu pixels changed", changed);
  g_assert_cmpuint (changed, >, 10000);

  gtk_switch_set_active (hillshade, !old_hillshade);
  let_frames_pass (300);
  g_autoptr (GdkTexture) third = capture_window (window);
  changed = count_changed_pixels (second, third);
  g_test_message ("hillshade: %zu pixels changed", changed);
  g_assert_cmpuint (changed, >, 10000);

  gtk_drop_down_set_selected (ramp, old_ramp);
  gtk_switch_set_active (hillshade, old_hillshade);
  let_frames_pass (300);
}

static void
export_and_check (ShepardExportDialog *dialog, const char *path, const double expected[6], int width, int height)
{
  int state = 0;
  double geotransform[6];

  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  shepard_export_dialog_set_path (dialog, path);
  g_assert_true (gtk_widget_get_sensitive (dialog_child (dialog, "export_button")));
  shepard_export_dialog_start (dialog);
  g_assert_true (wait_until (is_nonzero, &state));
  g_assert_cmpint (state, ==, 1);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetRasterXSize (dataset), ==, width);
  g_assert_cmpint (GDALGetRasterYSize (dataset), ==, height);
  g_assert_true (GDALGetGeoTransform (dataset, geotransform) == CE_None);
  for (int i = 0; i < 6; i++)
    assert_near (geotransform[i], expected[i], 1e-6 * MAX (1, fabs (expected[i])));
  GDALClose (dataset);
  g_assert_cmpint (g_remove (path), ==, 0);
}

static void
save_dialog_screenshot (ShepardExportDialog *dialog)
{
  let_frames_pass (500);
  int width = gtk_widget_get_width (GTK_WIDGET (dialog)), height = gtk_widget_get_height (GTK_WIDGET (dialog));
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (GTK_WIDGET (dialog));
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (dialog)), node,
                                                                &GRAPHENE_RECT_INIT (0, 0, width, height));
  g_autofree char *png = screenshot_path ("shepard-export-dialog.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

static void
test_export_extent_and_size (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "extent.tif", NULL);
  ShepardExportDialog *dialog = g_object_ref (shepard_window_new_export_dialog (window));
  GtkWidget *export_button = dialog_child (dialog, "export_button");
  GtkLabel *size_label = dialog_child (dialog, "size_label");

  gtk_drop_down_set_selected (dialog_child (dialog, "extent_dropdown"), 2);
  gtk_spin_button_set_value (dialog_child (dialog, "x_min_spin"), 179000);
  gtk_spin_button_set_value (dialog_child (dialog, "x_max_spin"), 181000);
  gtk_spin_button_set_value (dialog_child (dialog, "y_min_spin"), 330000);
  gtk_spin_button_set_value (dialog_child (dialog, "y_max_spin"), 333000);
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "width_spin"), 40);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), 60);
  g_test_message ("size: %s", gtk_label_get_text (size_label));
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "40 × 60 cells of 50 × 50"));
  g_assert_true (gtk_widget_get_sensitive (export_button));

  /* Invalid entries say what is wrong and block the export until corrected. */
  gtk_spin_button_set_value (dialog_child (dialog, "x_min_spin"), 182000);
  g_test_message ("size: %s", gtk_label_get_text (size_label));
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "give a minimum below the maximum"));
  g_assert_false (gtk_widget_get_sensitive (export_button));
  gtk_spin_button_set_value (dialog_child (dialog, "x_min_spin"), 179000);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), 0);
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "cells in y, not 0"));
  g_assert_false (gtk_widget_get_sensitive (export_button));
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), 60);
  g_assert_true (gtk_widget_get_sensitive (export_button));

  /* By cell size: it starts from the cells just chosen. */
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 0);
  assert_near (gtk_spin_button_get_value (dialog_child (dialog, "resolution_spin")), 50, 1e-9);
  gtk_spin_button_set_value (dialog_child (dialog, "resolution_spin"), 0);
  g_test_message ("size: %s", gtk_label_get_text (size_label));
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "must be a positive number"));
  g_assert_false (gtk_widget_get_sensitive (export_button));
  gtk_spin_button_set_value (dialog_child (dialog, "resolution_spin"), 100);
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "20 × 30 cells of 100 × 100"));

  /* Presented once, for a look by eye at the finished dialog. The focus leaves its entry before it closes: without a
   * window manager, Xvfb would otherwise never send the entry its focus-out, and GTK warns. */
  gtk_window_present (GTK_WINDOW (dialog));
  save_dialog_screenshot (dialog);
  gtk_window_set_focus (GTK_WINDOW (dialog), NULL);

  export_and_check (dialog, path, (double[6]) { 179000, 100, 0, 333000, 0, -100 }, 20, 30);
  g_object_unref (dialog);

  /* The current view, after a zoom, by width x height. */
  ShepardMapView *view = shepard_window_get_map_view (window);
  double extent[4], wx, wy;
  gboolean handled;
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  shepard_map_view_map_to_widget (view, points->x[5], points->y[5], &wx, &wy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "motion", wx, wy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_SCROLL), "scroll", 0.0, -2.0,
                         &handled);
  g_assert_true (shepard_map_view_get_visible_extent (view, &extent[0], &extent[1], &extent[2], &extent[3]));
  dialog = g_object_ref (shepard_window_new_export_dialog (window));
  gtk_drop_down_set_selected (dialog_child (dialog, "extent_dropdown"), 1);
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "width_spin"), 64);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), 48);
  g_test_message ("view: %s", gtk_label_get_text (dialog_child (dialog, "size_label")));
  export_and_check (dialog, path,
                    (double[6]) { extent[0], (extent[2] - extent[0]) / 64, 0, extent[3], 0,
                                  -(extent[3] - extent[1]) / 48 },
                    64, 48);
  g_object_unref (dialog);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
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

/* Two locations hold two points each: one with different values (1 and 5), reported in the layer panel with its
 * spread; one with equal values (7 and 7), which the surface honours, not reported. */
static void
test_duplicates_reported (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-duplicates-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "duplicates.csv", NULL);
  g_assert_true (g_file_set_contents (path, "x,y,v\n0,0,1\n0,0,5\n10,0,2\n0,10,3\n10,10,4\n5,5,7\n5,5,7\n", -1,
                                      NULL));
  g_autoptr (GFile) file = g_file_new_for_path (path);

  shepard_window_open (window, file, "v");
  g_assert_true (wait_until (is_settled, window));
  GtkWidget *panel = window_child (window, "layer_panel");
  GtkLabel *label = GTK_LABEL (gtk_widget_get_template_child (panel, SHEPARD_TYPE_LAYER_PANEL, "duplicates_label"));
  GtkWidget *caption = GTK_WIDGET (gtk_widget_get_template_child (panel, SHEPARD_TYPE_LAYER_PANEL,
                                                                  "duplicates_caption"));
  ShepardDuplicateReport report;
  g_assert_true (shepard_document_get_duplicates (shepard_window_get_document (window), &report));
  g_assert_cmpuint (report.n_locations, ==, 1);
  g_assert_cmpuint (report.n_points, ==, 2);
  g_assert_cmpfloat (report.worst_spread, ==, 4);
  g_autofree char *expected = shepard_duplicate_report_describe (&report);
  g_test_message ("%s", gtk_label_get_text (label));
  g_assert_true (gtk_widget_get_visible (caption));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
  g_assert_cmpstr (gtk_label_get_text (label), ==, expected);

  /* meuse has none: the row goes. */
  g_autoptr (GFile) meuse = g_file_new_for_path (meuse_path ());
  shepard_window_open (window, meuse, "zinc");
  g_assert_true (wait_until (is_settled, window));
  g_assert_false (shepard_document_get_duplicates (shepard_window_get_document (window), &report));
  g_assert_false (gtk_widget_get_visible (caption));
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
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
  window = present_test_window ();

  g_test_add_func ("/ui/shortcuts-window", test_shortcuts_window);
  g_test_add_func ("/ui/window/open-compute", test_open_and_compute);
  g_test_add_func ("/ui/window/gl-context", test_gl_context);
  g_test_add_func ("/ui/window/pixel-matches-engine", test_pixel_matches_engine);
  g_test_add_func ("/ui/window/parameter-changes-picture", test_parameter_changes_picture);
  g_test_add_func ("/ui/window/interop-unavailable", test_interop_unavailable);
  g_test_add_func ("/ui/window/export-geotiff", test_export_geotiff);
  g_test_add_func ("/ui/window/bad-file-shows-error", test_bad_file_shows_error);
  g_test_add_func ("/ui/window/pan-zoom-fit", test_pan_zoom_fit);
  g_test_add_func ("/ui/window/hover-status", test_hover_status);
  g_test_add_func ("/ui/window/ramp-hillshade-change-picture", test_ramp_and_hillshade_change_picture);
  g_test_add_func ("/ui/window/export-extent-size", test_export_extent_and_size);
  g_test_add_func ("/ui/window/duplicates-reported", test_duplicates_reported);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
