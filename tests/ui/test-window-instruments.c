/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The instruments in the real window, under Xvfb: the cross-validation figures shown are the engine's, the explain
 * panel's numbers are the engine's diagnostics, the surface switch draws alpha in its ramp, the residual map colours
 * a dot by its residual, the optimiser applies (or, cancelled, leaves the panel alone), and the classroom sandbox
 * follows clicks, drags and Delete. */
#include <math.h>
#include <string.h>

#include "shepard-cv-panel.h"
#include "shepard-legend.h"
#include "ui-test-support.h"

/* Rounding of colours through the GL texture and GSK: a few levels of 255. */
#define COLOR_TOLERANCE 3

static ShepardWindow *window;

static gboolean
is_quiet (gpointer data)
{
  ShepardWindow *self = data;
  return is_settled (self) && !shepard_instruments_get_busy (shepard_window_get_instruments (self));
}

static const char *
label_text (const char *name)
{
  return gtk_label_get_text (GTK_LABEL (window_child (window, name)));
}

/* An engine of the window's kind (the CPU here) over the window's points. */
static shepard_engine *
direct_engine (void)
{
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &error);

  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error), ==,
                   SHEPARD_OK);
  return engine;
}

static void
set_params_and_wait (const shepard_params *params)
{
  shepard_window_set_params (window, params);
  g_assert_true (wait_until (is_quiet, window));
}

static char *
figure (double value)
{
  return g_strdup_printf ("%.4g", value);
}

static void
test_figures_are_the_engines (void)
{
  shepard_params params;
  shepard_params_init_idw (&params);
  set_params_and_wait (&params);

  shepard_engine *engine = direct_engine ();
  shepard_cv_summary summary;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, &summary,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  g_autofree char *rmse = figure (summary.rmse), *mae = figure (summary.mae);
  g_autofree char *me = figure (summary.me), *r2 = figure (summary.r2);
  g_test_message ("shown: RMSE %s MAE %s ME %s R² %s", label_text ("rmse_label"), label_text ("mae_label"),
                  label_text ("me_label"), label_text ("r2_label"));
  g_assert_cmpstr (label_text ("rmse_label"), ==, rmse);
  g_assert_cmpstr (label_text ("mae_label"), ==, mae);
  g_assert_cmpstr (label_text ("me_label"), ==, me);
  g_assert_cmpstr (label_text ("r2_label"), ==, r2);
  /* shepard-cv's line for meuse zinc with IDW p2: n 155 ME -1.159 MAE 204.4 RMSE 278.3 R2 0.4216 */
  g_assert_cmpstr (rmse, ==, "278.3");
  g_assert_cmpstr (r2, ==, "0.4216");

  /* The change that follows: the figures follow it. */
  shepard_params_init_aidw (&params);
  set_params_and_wait (&params);
  g_assert_cmpint (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, &summary,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  g_free (rmse);
  rmse = figure (summary.rmse);
  g_assert_cmpstr (label_text ("rmse_label"), ==, rmse);
  shepard_engine_free (engine);
}

/* Activating the first of the largest errors centres the map on that point. */
static void
test_worst_point_is_shown (void)
{
  ShepardCvPanel *panel = window_child (window, "cv_panel");
  ShepardCrossValidation *validation = shepard_cv_panel_get_validation (panel);
  GtkListBox *list = window_child (window, "worst_list");
  size_t worst;

  g_assert_nonnull (validation);
  g_assert_cmpuint (shepard_cross_validation_worst (validation, &worst, 1), ==, 1);
  GtkListBoxRow *row = gtk_list_box_get_row_at_index (list, 0);
  g_assert_nonnull (row);
  g_autofree char *prefix = g_strdup_printf ("#%zu ", worst + 1);
  const char *text = gtk_label_get_text (GTK_LABEL (gtk_list_box_row_get_child (row)));
  g_test_message ("largest error: %s", text);
  g_assert_true (g_str_has_prefix (text, prefix));

  g_signal_emit_by_name (list, "row-activated", row);
  let_frames_pass (200);
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  ShepardMapView *view = shepard_window_get_map_view (window);
  double wx, wy;
  shepard_map_view_map_to_widget (view, points->x[worst], points->y[worst], &wx, &wy);
  assert_near (wx, gtk_widget_get_width (GTK_WIDGET (view)) / 2.0, 1.0);
  assert_near (wy, gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, 1.0);
}

static gboolean
has_explanation (gpointer data)
{
  ShepardExplanation *explanation = shepard_instruments_get_explanation (shepard_window_get_instruments (data));
  return explanation != NULL;
}

/* A click pins a cell: the panel shows the engine's diagnostics of it, and follows a parameter change. */
static void
test_explain_panel_shows_the_diagnostics (void)
{
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  ShepardMapView *view = shepard_window_get_map_view (window);
  shepard_params params;
  shepard_window_get_params (window, &params);
  /* Between two data points, so that several share the weight. */
  double x = 0.5 * (points->x[10] + points->x[11]), y = 0.5 * (points->y[10] + points->y[11]);

  g_signal_emit_by_name (view, "clicked", x, y, 0u);
  g_assert_true (wait_until (has_explanation, window));
  g_assert_true (wait_until (is_quiet, window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (window_child (window, "instrument_stack")), ==, "explain");

  shepard_engine *engine = direct_engine ();
  shepard_contribution listed[64];
  shepard_explanation expected;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_engine_explain (engine, &params, x, y, listed, shepard_explanation_capacity_for (&params),
                                           &expected, &error),
                   ==, SHEPARD_OK);
  g_autofree char *value = g_strdup_printf ("%s %.6g", points->field_name, expected.value);
  g_test_message ("explained: %s; %s", label_text ("value_label"), label_text ("sum_label"));
  g_assert_cmpstr (label_text ("value_label"), ==, value);
  g_autofree char *first_term = g_strdup_printf ("= %.4f × %.4g", listed[0].share, listed[0].value);
  g_assert_true (g_str_has_prefix (label_text ("sum_label"), first_term));

  /* The steps: r_obs, r_exp, R, mu, alpha in rows 0 to 4, the value in column 1. */
  GtkGrid *steps = window_child (window, "steps_grid");
  const double numbers[] = { expected.r_obs, expected.r_exp, expected.r, expected.mu, expected.alpha };
  for (int row = 0; row < 5; row++)
    {
      g_autofree char *wanted = row < 2 ? g_strdup_printf ("%.4g", numbers[row]) : g_strdup_printf ("%.3f", numbers[row]);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (steps, 1, row))), ==, wanted);
    }

  /* The table: point, distance, z, share, share x z, from row 1. */
  GtkGrid *table = window_child (window, "neighbours_grid");
  for (size_t j = 0; j < expected.n_listed; j++)
    {
      g_autofree char *point = g_strdup_printf ("%zu", listed[j].index + 1);
      g_autofree char *distance = g_strdup_printf ("%.4g", listed[j].distance);
      g_autofree char *share = g_strdup_printf ("%.2f %%", 100.0 * listed[j].share);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (table, 0, (int) j + 1))), ==, point);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (table, 1, (int) j + 1))), ==, distance);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (table, 3, (int) j + 1))), ==, share);
    }

  /* The pin follows a change of the parameters. */
  params.rexp = SHEPARD_REXP_KNN;
  set_params_and_wait (&params);
  g_assert_cmpint (shepard_engine_explain (engine, &params, x, y, listed, shepard_explanation_capacity_for (&params),
                                           &expected, &error),
                   ==, SHEPARD_OK);
  ShepardExplanation *shown = shepard_instruments_get_explanation (shepard_window_get_instruments (window));
  g_assert_cmpint (shown->params.rexp, ==, SHEPARD_REXP_KNN);
  g_free (value);
  value = g_strdup_printf ("%s %.6g", points->field_name, expected.value);
  g_assert_cmpstr (label_text ("value_label"), ==, value);

  let_frames_pass (300);
  g_autoptr (GdkTexture) texture = capture_window (window);
  g_autofree char *png = screenshot_path ("explain.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.unpin", NULL);
  g_assert_null (shepard_instruments_get_explanation (shepard_window_get_instruments (window)));
  shepard_engine_free (engine);
}

/* The window pixel of map position (x, y). */
static void
window_pixel (double x, double y, int rgb[3])
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  double wx, wy, window_x, window_y;

  let_frames_pass (200);
  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &window_x,
                                                   &window_y));
  g_autoptr (GdkTexture) texture = capture_window (window);
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  pixel_rgb (&pixels, (int) floor (window_x), (int) floor (window_y), rgb);
  g_free (pixels.data);
}

static void
assert_color (const int actual[3], const float expected[3])
{
  g_test_message ("read %d %d %d, expected %.0f %.0f %.0f", actual[0], actual[1], actual[2], expected[0] * 255,
                  expected[1] * 255, expected[2] * 255);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (actual[c] - (int) lround (expected[c] * 255)), <=, COLOR_TOLERANCE);
}

/* With rexp=knn alpha varies over meuse; the switch draws it in its own ramp over the levels' span, far from the
 * dots where a cell's colour cannot depend on rounding. */
static void
test_surface_switch_draws_alpha (void)
{
  shepard_params params;
  shepard_params_init_aidw (&params);
  params.rexp = SHEPARD_REXP_KNN;
  set_params_and_wait (&params);
  gtk_drop_down_set_selected (window_child (window, "surface_dropdown"), 1);
  let_frames_pass (300);

  ShepardSurface *surface = shepard_window_get_surface (window);
  g_autoptr (GError) error = NULL;
  g_autofree float *alpha = shepard_surface_copy_plane (surface, SHEPARD_PLANE_ALPHA, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (shepard_legend_get_title (window_child (window, "legend")), ==, "α");

  /* A cell mid-way between the levels, not one sitting on alpha5, where the colour cannot depend on rounding. */
  size_t row, col;
  g_assert_true (pick_smooth_cell (window, alpha, 2.0, 3.3, &row, &col));
  size_t best = row * surface->grid.width + col;
  double x = surface->grid.x_min + (col + 0.5) * surface->grid.dx;
  double y = surface->grid.y_max - (row + 0.5) * surface->grid.dy;
  float expected[3];
  int actual[3];
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_PLASMA, alpha[best], 1.5, 3.5, expected));
  window_pixel (x, y, actual);
  g_test_message ("alpha %.4f at cell (%zu, %zu)", alpha[best], col, row);
  assert_color (actual, expected);

  g_autoptr (GdkTexture) texture = capture_window (window);
  g_autofree char *png = screenshot_path ("surface-alpha.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  gtk_drop_down_set_selected (window_child (window, "surface_dropdown"), 0);
  let_frames_pass (100);
}

/* The residual map: the dot of the point with the largest error, in the diverging ramp's colour of its residual. */
static void
test_residual_map (void)
{
  ShepardCvPanel *panel = window_child (window, "cv_panel");
  gtk_switch_set_active (window_child (window, "residual_switch"), TRUE);
  let_frames_pass (300);
  ShepardCrossValidation *validation = shepard_cv_panel_get_validation (panel);
  double largest = 0.0;
  for (size_t i = 0; i < validation->n; i++)
    largest = fmax (largest, fabs (validation->residual[i]));

  /* A point whose dot no other dot overlaps. */
  ShepardMapView *view = shepard_window_get_map_view (window);
  size_t lonely = 0;
  double lonely_distance = 0.0;
  for (size_t i = 0; i < validation->n; i++)
    {
      double wx, wy, near = INFINITY;
      shepard_map_view_map_to_widget (view, validation->x[i], validation->y[i], &wx, &wy);
      for (size_t j = 0; j < validation->n; j++)
        if (j != i)
          {
            double px, py;
            shepard_map_view_map_to_widget (view, validation->x[j], validation->y[j], &px, &py);
            near = MIN (near, hypot (px - wx, py - wy));
          }
      if (near > lonely_distance)
        {
          lonely_distance = near;
          lonely = i;
        }
    }
  float expected[3];
  int actual[3];
  g_assert_true (shepard_color_ramp_color_for_value (SHEPARD_COLOR_RAMP_DIVERGING, validation->residual[lonely],
                                                     -largest, largest, expected));
  window_pixel (validation->x[lonely], validation->y[lonely], actual);
  g_test_message ("point %zu, residual %.4g of at most %.4g", lonely + 1, validation->residual[lonely], largest);
  assert_color (actual, expected);
  gtk_switch_set_active (window_child (window, "residual_switch"), FALSE);
}

static gboolean
result_shown (gpointer data)
{
  return gtk_widget_get_visible (window_child (data, "result_box"));
}

static gboolean
optimiser_idle (gpointer data)
{
  return gtk_widget_get_sensitive (window_child (data, "optimise_button"));
}

/* Optimise, then Apply: the panel holds the best parameters and the figures are theirs. Cancelled, it leaves the
 * panel as it was. */
static void
test_optimise (void)
{
  shepard_params start, now;
  shepard_params_init_idw (&start);
  set_params_and_wait (&start);
  shepard_window_get_params (window, &start);
  double start_rmse = shepard_cv_panel_get_validation (window_child (window, "cv_panel"))->summary.rmse;

  g_signal_emit_by_name (window_child (window, "cv_panel"), "optimise");
  g_signal_emit_by_name (window_child (window, "cv_panel"), "cancel-optimise");
  g_assert_true (wait_until (optimiser_idle, window));
  shepard_window_get_params (window, &now);
  g_assert_true (shepard_params_equal (&now, &start));
  g_assert_false (result_shown (window));

  g_signal_emit_by_name (window_child (window, "optimise_button"), "clicked");
  g_assert_true (wait_until (result_shown, window));
  g_test_message ("%s", label_text ("result_label"));
  g_signal_emit_by_name (window_child (window, "apply_button"), "clicked");
  g_assert_true (wait_until (is_quiet, window));
  shepard_window_get_params (window, &now);
  g_assert_cmpint (now.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (now.power, !=, start.power);
  double best_rmse = shepard_cv_panel_get_validation (window_child (window, "cv_panel"))->summary.rmse;
  g_test_message ("IDW power %.4g -> %.6g: RMSE %.6g -> %.6g", start.power, now.power, start_rmse, best_rmse);
  g_assert_cmpfloat (best_rmse, <, start_rmse);
}

static gboolean
has_sandbox (gpointer data)
{
  ShepardDocument *document = shepard_window_get_document (data);
  return document != NULL && shepard_document_is_sandbox (document);
}

/* The value popover the sandbox opens on the map: its entry gets text, then Enter. */
static void
enter_value (const char *text)
{
  ShepardMapView *view = shepard_window_get_map_view (window);
  GtkWidget *popover = NULL;
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (view)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      popover = child;
  g_assert_nonnull (popover);
  GtkWidget *box = gtk_popover_get_child (GTK_POPOVER (popover));
  GtkWidget *row = gtk_widget_get_next_sibling (gtk_widget_get_first_child (box));
  GtkWidget *entry = gtk_widget_get_first_child (row);
  g_assert_true (GTK_IS_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
  let_frames_pass (50);
}

static void
test_sandbox (void)
{
  gtk_widget_activate_action (GTK_WIDGET (window), "win.new-sandbox", NULL);
  let_frames_pass (200);
  GtkWindow *dialog = NULL;
  GListModel *toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) candidate = g_list_model_get_item (toplevels, i);
      if (g_str_equal (G_OBJECT_TYPE_NAME (candidate), "ShepardSandboxDialog"))
        dialog = candidate;
    }
  g_assert_nonnull (dialog);
  g_signal_emit_by_name (dialog, "create");
  g_assert_true (wait_until (has_sandbox, window));
  ShepardDocument *sandbox = shepard_window_get_document (window);
  g_assert_true (gtk_widget_get_visible (window_child (window, "sandbox_hint_label")));

  /* The sandbox starts over the layer's extent: four clicks inside it, each with a value. */
  double extent[4];
  shepard_document_get_extent (sandbox, extent);
  const double fx[] = { 0.2, 0.8, 0.5, 0.3 }, fy[] = { 0.2, 0.3, 0.8, 0.6 };
  const char *values[] = { "100", "400", "250,5", "50" };
  ShepardMapView *view = shepard_window_get_map_view (window);
  for (int i = 0; i < 4; i++)
    {
      double x = extent[0] + fx[i] * (extent[2] - extent[0]), y = extent[1] + fy[i] * (extent[3] - extent[1]);
      g_signal_emit_by_name (view, "clicked", x, y, 0u);
      enter_value (values[i]);
    }
  const ShepardPointLayer *points = shepard_document_get_points (sandbox);
  g_assert_cmpuint (points->count, ==, 4);
  g_assert_cmpfloat (points->z[2], ==, 250.5);
  g_assert_true (wait_until (is_quiet, window));
  g_assert_nonnull (shepard_window_get_surface (window));
  ShepardCrossValidation *validation = shepard_cv_panel_get_validation (window_child (window, "cv_panel"));
  g_assert_nonnull (validation);
  g_assert_cmpuint (validation->n, ==, 4);

  /* A drag moves a point, and the surface follows. */
  double moved_x = extent[0] + 0.6 * (extent[2] - extent[0]), moved_y = extent[1] + 0.5 * (extent[3] - extent[1]);
  g_signal_emit_by_name (view, "point-dragged", 3u, moved_x, moved_y);
  g_assert_cmpfloat (points->x[3], ==, moved_x);
  g_assert_true (wait_until (is_quiet, window));
  g_assert_true (shepard_cv_panel_get_validation (window_child (window, "cv_panel"))->points_generation
                 == shepard_document_get_points_generation (sandbox));

  /* Delete removes the selected (last dragged) point. */
  g_signal_emit_by_name (view, "delete-requested");
  g_assert_cmpuint (points->count, ==, 3);
  g_assert_true (wait_until (is_quiet, window));
  g_assert_cmpuint (shepard_cv_panel_get_validation (window_child (window, "cv_panel"))->n, ==, 3);

  let_frames_pass (300);
  g_autoptr (GdkTexture) texture = capture_window (window);
  g_autofree char *png = screenshot_path ("sandbox.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
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

  g_test_add_func ("/ui/instruments/figures-are-the-engines", test_figures_are_the_engines);
  g_test_add_func ("/ui/instruments/worst-point-is-shown", test_worst_point_is_shown);
  g_test_add_func ("/ui/instruments/explain-panel-shows-the-diagnostics", test_explain_panel_shows_the_diagnostics);
  g_test_add_func ("/ui/instruments/surface-switch-draws-alpha", test_surface_switch_draws_alpha);
  g_test_add_func ("/ui/instruments/residual-map", test_residual_map);
  g_test_add_func ("/ui/instruments/optimise", test_optimise);
  g_test_add_func ("/ui/instruments/sandbox", test_sandbox);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
