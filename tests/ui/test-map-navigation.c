/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The map under the keyboard and the preview that follows it: + / − zoom about the centre, the arrows pan by a tenth,
 * Home and 0 fit; a zoomed view gets a surface of exactly the part of the layer in view, finer than the whole
 * layer's; a layer too slow for the live preview is told at once, with a button that takes the advice. */
#include <gtk/gtk.h>
#include <math.h>

#include "shepard-preview-private.h"
#include "shepard-window.h"
#include "ui-test-support.h"

static ShepardWindow *window;

static void
visible_extent (double extent[4])
{
  g_assert_true (shepard_map_view_get_visible_extent (shepard_window_get_map_view (window), &extent[0], &extent[1],
                                                      &extent[2], &extent[3]));
}

/* What pressing keyval on the focused map does. */
static void
press (guint keyval)
{
  press_key (GTK_WIDGET (shepard_window_get_map_view (window)), keyval);
}

/* before is held, so that a new surface cannot come at its address. */
typedef struct {
  ShepardSurface *before;
} Replaced;

/* Condition: the window is settled on a surface other than before. */
static gboolean
is_settled_anew (gpointer data)
{
  Replaced *replaced = data;
  return is_settled (window) && shepard_window_get_surface (window) != replaced->before;
}

static void
test_open (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  let_frames_pass (200);
  g_assert_true (wait_until (is_settled, window));
}

static void
test_keyboard (void)
{
  GtkWidget *view = GTK_WIDGET (shepard_window_get_map_view (window));
  double fitted[4], extent[4];

  g_assert_true (gtk_widget_get_focusable (view));
  gtk_widget_grab_focus (view);
  g_assert_true (gtk_widget_has_focus (view));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  visible_extent (fitted);
  double width = fitted[2] - fitted[0], height = fitted[3] - fitted[1];
  double centre_x = (fitted[0] + fitted[2]) / 2, centre_y = (fitted[1] + fitted[3]) / 2;

  /* + and = zoom in by 2 about the centre, − zooms out by 2. */
  const guint zoom_in[] = { GDK_KEY_plus, GDK_KEY_equal, GDK_KEY_KP_Add };
  for (guint i = 0; i < G_N_ELEMENTS (zoom_in); i++)
    {
      press (zoom_in[i]);
      visible_extent (extent);
      assert_near (extent[2] - extent[0], width / 2, 1e-6 * width);
      assert_near (extent[3] - extent[1], height / 2, 1e-6 * height);
      assert_near ((extent[0] + extent[2]) / 2, centre_x, 1e-6 * width);
      assert_near ((extent[1] + extent[3]) / 2, centre_y, 1e-6 * height);
      press (GDK_KEY_minus);
      visible_extent (extent);
      assert_near (extent[2] - extent[0], width, 1e-6 * width);
    }

  /* The arrows move the view by a tenth of its width or height. */
  const struct {
    guint keyval;
    double right, up;
  } arrows[] = {
    { GDK_KEY_Left, -0.1, 0 }, { GDK_KEY_Right, 0.1, 0 }, { GDK_KEY_Up, 0, 0.1 }, { GDK_KEY_Down, 0, -0.1 },
  };
  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    {
      double before[4];
      visible_extent (before);
      press (arrows[i].keyval);
      visible_extent (extent);
      assert_near (extent[0] - before[0], arrows[i].right * width, 1e-6 * width);
      assert_near (extent[1] - before[1], arrows[i].up * height, 1e-6 * height);
      assert_near (extent[2] - extent[0], width, 1e-6 * width);
    }

  /* Home and 0 bring the fitted view back. */
  const guint fit[] = { GDK_KEY_Home, GDK_KEY_0 };
  for (guint i = 0; i < G_N_ELEMENTS (fit); i++)
    {
      press (GDK_KEY_plus);
      press (GDK_KEY_Right);
      press (fit[i]);
      visible_extent (extent);
      for (int j = 0; j < 4; j++)
        assert_near (extent[j], fitted[j], 1e-6 * width);
    }
  g_assert_true (wait_until (is_settled, window));
}

/* Zoomed in 4 and 16 times, the surface covers exactly the part of the layer's extent in view, at one cell per device
 * pixel up to the panel's cell count: cells much smaller than the whole layer's, sharper, not enlarged. */
static void
test_zoomed_surface_follows_the_view (void)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  ShepardDocument *document = shepard_window_get_document (window);
  double whole[4], visible[4];

  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  let_frames_pass (100);
  g_assert_true (wait_until (is_settled, window));
  shepard_document_get_extent (document, whole);
  const shepard_grid full = shepard_window_get_surface (window)->grid;
  assert_near (full.x_min, whole[0], 1e-9);
  assert_near (full.y_max, whole[3], 1e-9);

  for (int zoom = 4; zoom <= 16; zoom *= 4)
    {
      Replaced replaced = { shepard_surface_ref (shepard_window_get_surface (window)) };
      shepard_map_view_zoom (view, 4.0);
      g_assert_true (wait_until (is_settled_anew, &replaced));
      shepard_surface_unref (replaced.before);
      visible_extent (visible);
      const shepard_grid *grid = &shepard_window_get_surface (window)->grid;
      double part[4] = { MAX (visible[0], whole[0]), MAX (visible[1], whole[1]), MIN (visible[2], whole[2]),
                         MIN (visible[3], whole[3]) };
      g_test_message ("zoom %d: %zu x %zu cells of %.3f x %.3f (whole: %.3f x %.3f)", zoom, grid->width,
                      grid->height, grid->dx, grid->dy, full.dx, full.dy);
      assert_near (grid->x_min, part[0], 1e-9 * full.dx);
      assert_near (grid->y_max, part[3], 1e-9 * full.dy);
      assert_near (grid->x_min + grid->dx * (double) grid->width, part[2], 1e-6 * full.dx);
      assert_near (grid->y_max - grid->dy * (double) grid->height, part[1], 1e-6 * full.dy);
      /* One cell per device pixel, up to the panel's 384 cells along the longer side. */
      double part_side = MAX (part[2] - part[0], part[3] - part[1]);
      double pixels = ceil (part_side / shepard_map_view_get_pixel_size (view));
      g_assert_cmpuint (MAX (grid->width, grid->height), ==, (guint) MIN (pixels, 384.0));
      /* The view holds more than the layer's extent over its shorter side: the part in view is longer than a zoomth
       * of the extent, yet its cells are far smaller than the whole layer's. */
      g_assert_cmpfloat (grid->dx, <, full.dx / (zoom / 3.0));
      g_assert_cmpfloat (grid->dy, <, full.dy / (zoom / 3.0));
      g_autofree char *name = g_strdup_printf ("shepard-zoom-%d.png", zoom);
      assert_window_pixel_matches_surface (window, shepard_window_get_surface (window)->values, name);
    }

  /* Back to the whole layer. */
  Replaced replaced = { shepard_surface_ref (shepard_window_get_surface (window)) };
  gtk_widget_activate_action (GTK_WIDGET (window), "win.fit", NULL);
  g_assert_true (wait_until (is_settled_anew, &replaced));
  shepard_surface_unref (replaced.before);
  const shepard_grid *grid = &shepard_window_get_surface (window)->grid;
  g_assert_cmpuint (grid->width, ==, full.width);
  g_assert_cmpuint (grid->height, ==, full.height);
  assert_near (grid->x_min, whole[0], 1e-9);
}

/* All-points weighting the preview expects to be too slow: the warning shows before any grid comes, its button sets
 * the advised neighbourhood, and the warning goes. */
static void
test_slow_layer_advice (void)
{
  ShepardPreview *preview = shepard_window_get_preview (window);
  GtkInfoBar *info_bar = window_child (window, "info_bar");
  shepard_params params;

  shepard_window_get_params (window, &params);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  _shepard_preview_set_pairs_per_second (preview, TRUE, 1e3);
  params.power = params.power + 0.5;
  shepard_window_set_params (window, &params);
  g_assert_cmpstr (shepard_window_get_message (window), ==,
                   "All-points weighting of 155 points is slow on the CPU: use the 32 nearest neighbourhood");

  gtk_info_bar_response (info_bar, 1);
  shepard_window_get_params (window, &params);
  g_assert_cmpint (params.neighbors, ==, 32);
  g_assert_null (shepard_window_get_message (window));
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpint (shepard_window_get_surface (window)->params.neighbors, ==, 32);
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

  g_test_add_func ("/ui/map-navigation/open", test_open);
  g_test_add_func ("/ui/map-navigation/keyboard", test_keyboard);
  g_test_add_func ("/ui/map-navigation/zoomed-surface-follows-the-view", test_zoomed_surface_follows_the_view);
  g_test_add_func ("/ui/map-navigation/slow-layer-advice", test_slow_layer_advice);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
