/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The keyboard's way through the window: F1 opens the help page, which names every control, and Tab visits controls
 * only, never a read-only label. And the context layer the help describes: a river drawn under the points. */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "context-layer.h"
#include "shepard-app-error.h"

#include "shepard-help-window.h"
#include "shepard-instruments.h"
#include "ui-test-support.h"

static ShepardWindow *window;

static gboolean
is_quiet (gpointer data)
{
  return is_settled (data) && !shepard_instruments_get_busy (shepard_window_get_instruments (data));
}

static GPtrArray *
help_windows (void)
{
  GPtrArray *found = g_ptr_array_new ();
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GObject) toplevel = g_list_model_get_item (toplevels, i);
      if (SHEPARD_IS_HELP_WINDOW (toplevel))
        g_ptr_array_add (found, toplevel);
    }
  return found;
}

static void
collect_text (GtkWidget *widget, GString *text)
{
  if (GTK_IS_LABEL (widget))
    g_string_append_printf (text, "%s\n", gtk_label_get_text (GTK_LABEL (widget)));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_text (child, text);
}

static GtkWidget *
first_label (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = first_label (child);
      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The names a person reads on the window's controls, as shown (mnemonics taken out): labels that name a control
 * (their mnemonic widget), and the labels of buttons and check boxes. */
static void
collect_control_names (GtkWidget *widget, GPtrArray *names)
{
  GtkWidget *label = NULL;

  if (GTK_IS_LABEL (widget) && gtk_label_get_mnemonic_widget (GTK_LABEL (widget)) != NULL)
    label = widget;
  else if ((GTK_IS_BUTTON (widget) && gtk_button_get_label (GTK_BUTTON (widget)) != NULL)
           || (GTK_IS_CHECK_BUTTON (widget) && gtk_check_button_get_label (GTK_CHECK_BUTTON (widget)) != NULL))
    label = first_label (widget);
  if (label != NULL)
    {
      g_autoptr (GString) name = g_string_new (gtk_label_get_text (GTK_LABEL (label)));
      g_string_replace (name, "…", "", 0);
      g_ptr_array_add (names, g_string_free (g_steal_pointer (&name), FALSE));
      return;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect_control_names (child, names);
}

static void
test_f1_opens_help (void)
{
  press_key (GTK_WIDGET (window), GDK_KEY_F1);
  let_frames_pass (100);
  g_autoptr (GPtrArray) helps = help_windows ();
  g_assert_cmpuint (helps->len, ==, 1);
  GtkWindow *help = helps->pdata[0];
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (help)));
  g_assert_true (gtk_window_get_transient_for (help) == GTK_WINDOW (window));

  /* Every control of the window, the method's quantities and the papers. */
  g_autoptr (GString) text = g_string_new (NULL);
  collect_text (GTK_WIDGET (help), text);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  collect_control_names (GTK_WIDGET (window), names);
  g_assert_cmpuint (names->len, >, 20);
  g_autoptr (GString) missing = g_string_new (NULL);
  for (guint i = 0; i < names->len; i++)
    if (strstr (text->str, names->pdata[i]) == NULL)
      g_string_append_printf (missing, " “%s”", (const char *) names->pdata[i]);
  if (missing->len > 0)
    g_error ("the help does not explain the controls%s", missing->str);
  const char *method[] = { "α1", "α5", "r_obs", "r_exp", "Rmin", "Rmax", "μ", "R = r_obs / r_exp",
                           "Cross-validation", "Optimiser", "Explain", "Distributions", "Sandbox", "Export",
                           "A two-dimensional interpolation function for irregularly-spaced data",
                           "An adaptive inverse-distance weighting spatial interpolation technique",
                           "Improving GPU-accelerated adaptive IDW interpolation algorithm using fast kNN search" };
  for (size_t i = 0; i < G_N_ELEMENTS (method); i++)
    if (strstr (text->str, method[i]) == NULL)
      g_error ("the help does not mention “%s”", method[i]);

  GtkWidget *page = GTK_WIDGET (help);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (page);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (page), gtk_widget_get_height (page));
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (
    gtk_native_get_renderer (GTK_NATIVE (help)), node,
    &GRAPHENE_RECT_INIT (0, 0, gtk_widget_get_width (page), gtk_widget_get_height (page)));
  g_autofree char *png = screenshot_path ("help.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);

  /* F1 again brings the same page forward rather than a second one. */
  press_key (GTK_WIDGET (window), GDK_KEY_F1);
  let_frames_pass (50);
  g_autoptr (GPtrArray) again = help_windows ();
  g_assert_cmpuint (again->len, ==, 1);
  g_assert_true (again->pdata[0] == (gpointer) help);
  gtk_window_destroy (help);
}

/* Tabs from the start of the window until the focus comes back to where it first went, asserting at each stop that
 * no label holds it; returns the number of stops. */
static guint
tab_round (void)
{
  GtkWidget *first = NULL;
  guint stops = 0;

  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  for (guint step = 0; step < 1000; step++)
    {
      /* As GtkWindow does at the end of the chain: start again from the top. */
      if (!gtk_widget_child_focus (GTK_WIDGET (window), GTK_DIR_TAB_FORWARD))
        {
          gtk_window_set_focus (GTK_WINDOW (window), NULL);
          continue;
        }
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
      /* A Tab that moved the focus nowhere: a widget claimed it without taking it (as a selectable label does). */
      if (focus == NULL)
        g_error ("Tab %u, after %u stops, left no widget focused", step, stops);
      if (GTK_IS_LABEL (focus))
        g_error ("Tab stopped on the read-only label “%s” (%s)", gtk_label_get_text (GTK_LABEL (focus)),
                 gtk_buildable_get_buildable_id (GTK_BUILDABLE (focus)) ?: "no id");
      if (focus == first)
        return stops;
      if (first == NULL)
        first = focus;
      stops++;
    }
  g_error ("Tab never came back to %s", G_OBJECT_TYPE_NAME (first));
}

static void
test_tab_skips_labels (void)
{
  GtkStack *instruments = window_child (window, "instrument_stack");

  /* The cross-validation page, then the explain page with a cell pinned, whose figures are labels too. */
  gtk_stack_set_visible_child_name (instruments, "cross-validation");
  let_frames_pass (50);
  guint with_cv = tab_round ();
  g_test_message ("%u Tab stops with the cross-validation page", with_cv);
  g_assert_cmpuint (with_cv, >, 20);

  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  g_signal_emit_by_name (shepard_window_get_map_view (window), "clicked", 0.5 * (points->x[10] + points->x[11]),
                         0.5 * (points->y[10] + points->y[11]), 0u);
  g_assert_true (wait_until (is_quiet, window));
  g_assert_nonnull (shepard_instruments_get_explanation (shepard_window_get_instruments (window)));
  gtk_stack_set_visible_child_name (instruments, "explain");
  let_frames_pass (50);
  g_test_message ("%u Tab stops with a cell explained", tab_round ());
  gtk_widget_activate_action (GTK_WIDGET (window), "win.unpin", NULL);
}

/* The colour of a context line's middle (render/shepard-renderer-lines.c), in 8 bits. */
static const int line_rgb[3] = { 20, 41, 92 };

/* Whether a pixel within LINE_SEARCH of (x, y) has the line's colour. The pixel holding a point of the line may sit on
 * its antialiased edge, but one of its 3 x 3 block lies within half a pixel of the line's middle, which is solid; and
 * the captured window draws the map's picture up to 3 pixels from where shepard_map_view_map_to_widget() places it
 * (the GL area's frame is about 1.5 % taller than the part of it shown: seen on the surface's edges too). The river's
 * banks lie 6 pixels or more apart. */
#define LINE_SEARCH 4

static gboolean
is_line_colour (const Pixels *pixels, double x, double y)
{
  for (int dy = -LINE_SEARCH; dy <= LINE_SEARCH; dy++)
    for (int dx = -LINE_SEARCH; dx <= LINE_SEARCH; dx++)
      {
        int rgb[3];
        gboolean same = TRUE;
        pixel_rgb (pixels, (int) floor (x) + dx, (int) floor (y) + dy, rgb);
        for (int c = 0; c < 3; c++)
          same = same && abs (rgb[c] - line_rgb[c]) <= 3;
        if (same)
          return TRUE;
      }
  return FALSE;
}

/* Counts the river's segments whose middle shows the line's colour, among those on the map and clear of the dots
 * and the legend; those are asserted to be the most. */
static void
count_drawn_segments (const ShepardContextLayer *river, const Pixels *pixels, guint *drawn, guint *checked)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  GtkWidget *legend = window_child (window, "legend");
  graphene_rect_t legend_bounds;

  g_assert_true (gtk_widget_compute_bounds (legend, GTK_WIDGET (window), &legend_bounds));
  *drawn = *checked = 0;
  for (size_t i = 0; i + 1 < river->n_vertices; i++)
    {
      double x = 0.5 * (river->x[i] + river->x[i + 1]), y = 0.5 * (river->y[i] + river->y[i + 1]);
      double wx, wy, window_x, window_y, near = INFINITY;
      shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
      if (wx < 10 || wy < 10 || wx > gtk_widget_get_width (GTK_WIDGET (view)) - 10
          || wy > gtk_widget_get_height (GTK_WIDGET (view)) - 10)
        continue;
      /* Segments too short to hold their middle clear of their neighbours' joints. */
      double ax, ay, bx, by;
      shepard_map_view_map_to_widget (view, river->x[i], river->y[i], &ax, &ay);
      shepard_map_view_map_to_widget (view, river->x[i + 1], river->y[i + 1], &bx, &by);
      if (hypot (bx - ax, by - ay) < 12)
        continue;
      for (size_t j = 0; j < points->count; j++)
        {
          double px, py;
          shepard_map_view_map_to_widget (view, points->x[j], points->y[j], &px, &py);
          near = MIN (near, hypot (px - wx, py - wy));
        }
      g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &window_x,
                                                       &window_y));
      if (near < 10 || graphene_rect_contains_point (&legend_bounds, &GRAPHENE_POINT_INIT (window_x, window_y)))
        continue;
      (*checked)++;
      if (is_line_colour (pixels, window_x, window_y))
        (*drawn)++;
    }
}

/* The river Meuse beside the meuse samples: drawn where its outline runs, gone once removed; a point layer refused. */
static void
test_context_layer (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse-river.geojson", NULL);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  g_autoptr (GError) error = NULL;
  Pixels pixels;
  guint drawn, checked;

  g_assert_true (shepard_window_add_context_layer (window, file, &error));
  g_assert_no_error (error);
  let_frames_pass (200);

  g_autoptr (ShepardContextLayer) river = shepard_context_layer_read (
    path, NULL, shepard_document_get_points (shepard_window_get_document (window))->crs_wkt, &error);
  g_assert_no_error (error);
  g_autoptr (GdkTexture) texture = capture_window (window);
  g_autofree char *png = screenshot_path ("meuse-river.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  pixels_from_texture (texture, &pixels);
  count_drawn_segments (river, &pixels, &drawn, &checked);
  g_free (pixels.data);
  g_test_message ("%u of %u river segments on the map show the line's colour at their middle", drawn, checked);
  g_assert_cmpuint (checked, >=, 10);
  g_assert_cmpuint (drawn, ==, checked);

  gtk_widget_activate_action (GTK_WIDGET (window), "win.remove-context-layers", NULL);
  let_frames_pass (100);
  g_autoptr (GdkTexture) after = capture_window (window);
  pixels_from_texture (after, &pixels);
  count_drawn_segments (river, &pixels, &drawn, &checked);
  g_free (pixels.data);
  g_assert_cmpuint (drawn, ==, 0);

  g_autoptr (GFile) points = g_file_new_for_path (meuse_path ());
  g_assert_false (shepard_window_add_context_layer (window, points, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY);
  g_test_message ("%s", error->message);
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
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());
  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_quiet, window));

  g_test_add_func ("/ui/help/f1-opens-help", test_f1_opens_help);
  g_test_add_func ("/ui/focus/tab-skips-labels", test_tab_skips_labels);
  g_test_add_func ("/ui/context-layer/meuse-river", test_context_layer);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
