/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Neighbourhood section (each control into the parameters, the engine's defaults and messages, the settings) and
 * the search ellipse it draws on the map, to scale and turned as the engine reads the angle. */
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shepard-neighbourhood-section.h"
#include "shepard-parameter-panel.h"
#include "shepard-search-shape-overlay.h"
#include "ui-test-support.h"

static ShepardWindow *window;

static gpointer
section_child (ShepardNeighbourhoodSection *section, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (section), SHEPARD_TYPE_NEIGHBOURHOOD_SECTION, name);
  g_assert_nonnull (child);
  return child;
}

static ShepardNeighbourhoodSection *
new_section (int *changes)
{
  ShepardNeighbourhoodSection *section = g_object_ref_sink (
    SHEPARD_NEIGHBOURHOOD_SECTION (shepard_neighbourhood_section_new ()));

  g_signal_connect (section, "changed", G_CALLBACK (count_signal), changes);
  return section;
}

static void
read_params (ShepardNeighbourhoodSection *section, shepard_params *params)
{
  shepard_params_init_aidw (params);
  shepard_neighbourhood_section_get_params (section, params);
}

static void
test_defaults (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params, engine;

  read_params (section, &params);
  shepard_params_init_aidw (&engine);
  g_assert_cmpint (params.neighbors, ==, engine.neighbors);
  g_assert_cmpfloat (params.radius1, ==, engine.radius1);
  g_assert_cmpfloat (params.radius2, ==, engine.radius2);
  g_assert_cmpfloat (params.angle, ==, engine.angle);
  g_assert_cmpint (params.min_points, ==, engine.min_points);
  g_assert_cmpint (params.max_points_per_quadrant, ==, engine.max_points_per_quadrant);
  g_assert_cmpint (params.min_points_per_quadrant, ==, engine.min_points_per_quadrant);
  g_assert_cmpfloat (params.smoothing, ==, engine.smoothing);
  g_assert_true (shepard_params_weight_all_points (&params));

  /* The schema's defaults are the template's. */
  g_assert_cmpuint (g_settings_get_uint (settings, "search-shape"), ==, 0);
  g_assert_cmpuint (g_settings_get_uint (settings, "neighbourhood"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "neighbours"), ==,
                     gtk_spin_button_get_value (section_child (section, "neighbors_spin")));
  g_assert_cmpfloat (g_settings_get_double (settings, "radius"), ==,
                     gtk_spin_button_get_value (section_child (section, "radius_spin")));
  g_assert_cmpfloat (g_settings_get_double (settings, "radius-1"), ==,
                     gtk_spin_button_get_value (section_child (section, "radius1_spin")));
  g_assert_cmpfloat (g_settings_get_double (settings, "radius-2"), ==,
                     gtk_spin_button_get_value (section_child (section, "radius2_spin")));
  g_assert_cmpfloat (g_settings_get_double (settings, "angle"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "min-points"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "max-points-per-quadrant"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "min-points-per-quadrant"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "smoothing"), ==, 0);

  /* No radius: its rows are hidden; N is off with all points. */
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "radius_spin"))));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "angle_spin"))));
  g_assert_false (gtk_widget_get_sensitive (section_child (section, "neighbors_spin")));
  g_assert_null (shepard_neighbourhood_section_get_validation_message (section));
  g_assert_false (shepard_neighbourhood_section_get_shape_shown (section));
  g_assert_cmpint (changes, ==, 0);
}

/* Each control, as the user sets it, reaches its parameter and only that one. */
static void
test_each_control (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  shepard_params params;

  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 1);
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "radius_spin"))));
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "radius1_spin"))));
  enter_text (section_child (section, "radius_spin"), "250");
  read_params (section, &params);
  g_assert_cmpfloat (params.radius1, ==, 250);
  g_assert_cmpfloat (params.radius2, ==, 250);
  g_assert_cmpfloat (params.angle, ==, 0);
  g_assert_cmpint (changes, ==, 2);

  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 2);
  g_assert_false (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "radius_spin"))));
  g_assert_true (gtk_widget_get_visible (gtk_widget_get_parent (section_child (section, "angle_spin"))));
  enter_text (section_child (section, "radius1_spin"), "400");
  enter_text (section_child (section, "radius2_spin"), "150");
  enter_text (section_child (section, "angle_spin"), "37.5");
  read_params (section, &params);
  g_assert_cmpfloat (params.radius1, ==, 400);
  g_assert_cmpfloat (params.radius2, ==, 150);
  g_assert_cmpfloat (params.angle, ==, 37.5);
  g_assert_cmpint (changes, ==, 6);

  gtk_drop_down_set_selected (section_child (section, "neighbors_dropdown"), 1);
  g_assert_true (gtk_widget_get_sensitive (section_child (section, "neighbors_spin")));
  enter_text (section_child (section, "neighbors_spin"), "24");
  enter_text (section_child (section, "min_points_spin"), "3");
  enter_text (section_child (section, "max_per_quadrant_spin"), "6");
  enter_text (section_child (section, "min_per_quadrant_spin"), "1");
  enter_text (section_child (section, "smoothing_spin"), "12");
  read_params (section, &params);
  g_assert_cmpint (params.neighbors, ==, 24);
  g_assert_cmpint (params.min_points, ==, 3);
  g_assert_cmpint (params.max_points_per_quadrant, ==, 6);
  g_assert_cmpint (params.min_points_per_quadrant, ==, 1);
  g_assert_cmpfloat (params.smoothing, ==, 12);
  g_assert_cmpint (changes, ==, 12);
  /* The rest of the parameters is left as it was. */
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (params.k, ==, 15);
  g_assert_null (shepard_neighbourhood_section_get_validation_message (section));

  /* Back to no radius: the engine gets none, the entries stay for the next time. */
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 0);
  read_params (section, &params);
  g_assert_cmpfloat (params.radius1, ==, 0);
  g_assert_cmpfloat (params.radius2, ==, 0);
  g_assert_cmpfloat (gtk_spin_button_get_value (section_child (section, "radius1_spin")), ==, 400);
}

static void
test_set_params (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  shepard_params params, read;

  shepard_params_init_idw (&params);
  params.radius1 = 500;
  params.radius2 = 200;
  params.angle = 45;
  params.neighbors = 16;
  params.min_points = 4;
  params.max_points_per_quadrant = 3;
  params.min_points_per_quadrant = 1;
  params.smoothing = 2.5;
  shepard_neighbourhood_section_set_params (section, &params);
  g_assert_cmpint (changes, ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (section_child (section, "shape_dropdown")), ==, 2);
  read_params (section, &read);
  g_assert_cmpfloat (read.radius1, ==, 500);
  g_assert_cmpfloat (read.radius2, ==, 200);
  g_assert_cmpfloat (read.angle, ==, 45);
  g_assert_cmpint (read.neighbors, ==, 16);
  g_assert_cmpint (read.min_points, ==, 4);
  g_assert_cmpint (read.max_points_per_quadrant, ==, 3);
  g_assert_cmpint (read.min_points_per_quadrant, ==, 1);
  g_assert_cmpfloat (read.smoothing, ==, 2.5);
  /* A set_params moves no hand: the map draws no shape for it. */
  g_assert_false (shepard_neighbourhood_section_get_shape_shown (section));

  shepard_neighbourhood_section_set_params (section, &params);
  g_assert_cmpint (changes, ==, 1);

  /* Equal radii are a circle. */
  params.radius2 = 500;
  params.angle = 0;
  shepard_neighbourhood_section_set_params (section, &params);
  g_assert_cmpuint (gtk_drop_down_get_selected (section_child (section, "shape_dropdown")), ==, 1);
  g_assert_cmpfloat (gtk_spin_button_get_value (section_child (section, "radius_spin")), ==, 500);
  g_assert_cmpint (changes, ==, 2);

  shepard_neighbourhood_section_reset (section);
  read_params (section, &read);
  g_assert_true (shepard_params_weight_all_points (&read));
  g_assert_cmpint (read.min_points, ==, 0);
  g_assert_cmpfloat (read.smoothing, ==, 0);
  g_assert_cmpint (changes, ==, 3);
}

/* min points above max points: the engine's own message shows in the section, and the panel still passes the values
 * on (the preview marks its surface out of date). */
static void
test_validation_message (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  shepard_params params;
  shepard_error error = { 0 };

  gtk_drop_down_set_selected (section_child (section, "neighbors_dropdown"), 1);
  enter_text (section_child (section, "neighbors_spin"), "8");
  enter_text (section_child (section, "min_points_spin"), "10");
  read_params (section, &params);
  g_assert_cmpint (params.min_points, ==, 10);
  g_assert_cmpint (shepard_params_validate (&params, &error), !=, SHEPARD_OK);
  const char *message = shepard_neighbourhood_section_get_validation_message (section);
  g_assert_cmpstr (message, ==, error.message);
  GtkWidget *label = section_child (section, "validation_label");
  g_assert_true (gtk_widget_get_visible (label));
  g_assert_true (gtk_widget_has_css_class (label, "error"));

  enter_text (section_child (section, "min_points_spin"), "8");
  g_assert_null (shepard_neighbourhood_section_get_validation_message (section));
  g_assert_false (gtk_widget_get_visible (label));
}

static void
test_refused_entry (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  GtkWidget *error = section_child (section, "smoothing_error");

  enter_text (section_child (section, "smoothing_spin"), "-1");
  g_assert_true (gtk_widget_get_visible (error));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error)), ==,
                   "Smoothing: -1 is below the smallest allowed, 0; kept 0");
  g_assert_cmpint (changes, ==, 0);
}

static void
test_units (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  GtkSpinButton *radius = section_child (section, "radius_spin");
  double step, page;

  /* Meuse: metres, about 4 km across. */
  shepard_neighbourhood_section_set_units (section, 1.0, 4000);
  g_assert_cmpstr (shepard_neighbourhood_section_get_unit (section), ==, "m");
  g_assert_cmpstr (gtk_label_get_text (section_child (section, "radius_unit")), ==, "m");
  g_assert_cmpstr (gtk_label_get_text (section_child (section, "smoothing_unit")), ==, "m");
  gtk_spin_button_get_increments (radius, &step, &page);
  g_assert_cmpfloat (step, ==, 10);
  g_assert_cmpuint (gtk_spin_button_get_digits (radius), ==, 0);
  g_assert_cmpfloat (gtk_spin_button_get_value (radius), ==, 1000);

  /* Degrees over 2.5°: steps of 0.01, shown to 3 decimals, a quarter of the side ready. */
  shepard_neighbourhood_section_set_units (section, 0.0, 2.5);
  g_assert_cmpstr (gtk_label_get_text (section_child (section, "radius1_unit")), ==, "°");
  gtk_spin_button_get_increments (radius, &step, &page);
  g_assert_cmpfloat (fabs (step - 0.01), <, 1e-12);
  g_assert_cmpuint (gtk_spin_button_get_digits (radius), ==, 3);
  g_assert_cmpfloat (fabs (gtk_spin_button_get_value (radius) - 0.63), <, 1e-9);

  /* A radius in use is the user's: a new layer leaves it. */
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 1);
  enter_text (radius, "0.2");
  shepard_neighbourhood_section_set_units (section, 0.3048, 10000);
  g_assert_cmpstr (shepard_neighbourhood_section_get_unit (section), ==, "ft");
  g_assert_cmpfloat (fabs (gtk_spin_button_get_value (radius) - 0.2), <, 1e-9);
}

static void
test_bind_settings (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params;

  g_settings_set_uint (settings, "search-shape", 2);
  g_settings_set_double (settings, "radius-1", 700);
  g_settings_set_double (settings, "radius-2", 350);
  g_settings_set_double (settings, "angle", 60);
  g_settings_set_double (settings, "min-points", 2);
  g_settings_set_double (settings, "smoothing", 5);
  shepard_neighbourhood_section_bind_settings (section, settings);
  g_assert_cmpint (changes, ==, 1);
  read_params (section, &params);
  g_assert_cmpfloat (params.radius1, ==, 700);
  g_assert_cmpfloat (params.radius2, ==, 350);
  g_assert_cmpfloat (params.angle, ==, 60);
  g_assert_cmpint (params.min_points, ==, 2);
  g_assert_cmpfloat (params.smoothing, ==, 5);

  enter_text (section_child (section, "max_per_quadrant_spin"), "4");
  g_assert_cmpfloat (g_settings_get_double (settings, "max-points-per-quadrant"), ==, 4);
  shepard_neighbourhood_section_reset (section);
  g_assert_cmpuint (g_settings_get_uint (settings, "search-shape"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "max-points-per-quadrant"), ==, 0);
  g_settings_reset (settings, "search-shape");
  g_settings_reset (settings, "radius-1");
  g_settings_reset (settings, "radius-2");
}

static gboolean
is_false (gpointer data)
{
  return !*(gboolean *) data;
}

static void
on_shape_shown (ShepardNeighbourhoodSection *section, GParamSpec *pspec, gboolean *shown)
{
  *shown = shepard_neighbourhood_section_get_shape_shown (section);
}

/* The shape shows on an edit of the radius and goes a moment after; no radius, no shape. */
static void
test_shape_shown (void)
{
  int changes = 0;
  g_autoptr (ShepardNeighbourhoodSection) section = new_section (&changes);
  gboolean shown = FALSE;

  g_signal_connect (section, "notify::shape-shown", G_CALLBACK (on_shape_shown), &shown);
  enter_text (section_child (section, "smoothing_spin"), "3");
  g_assert_false (shown);
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 1);
  g_assert_true (shown);
  g_assert_true (wait_until (is_false, &shown));
  enter_text (section_child (section, "radius_spin"), "300");
  g_assert_true (shown);
  g_assert_true (wait_until (is_false, &shown));
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 0);
  g_assert_false (shown);
}

static gboolean
is_overlay_shown (gpointer data)
{
  return shepard_search_shape_overlay_get_shown (data);
}

static gboolean
is_overlay_hidden (gpointer data)
{
  return !shepard_search_shape_overlay_get_shown (data);
}

/* The ellipse on the map: its outline against the view's own scale (the visible extent over the widget's size), and
 * its white line in the window's pixels. */
static void
test_overlay_geometry (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());
  ShepardSearchShapeOverlay *overlay = window_child (window, "search_shape_overlay");
  ShepardMapView *view = shepard_window_get_map_view (window);
  ShepardParameterPanel *panel = window_child (window, "parameter_panel");
  ShepardNeighbourhoodSection *section = shepard_parameter_panel_get_neighbourhood_section (panel);
  double x_min, y_min, x_max, y_max, cx, cy;

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpstr (shepard_neighbourhood_section_get_unit (section), ==, "m");

  /* The user edits the ellipse: the window shows it. */
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 2);
  enter_text (section_child (section, "radius1_spin"), "800");
  enter_text (section_child (section, "radius2_spin"), "300");
  enter_text (section_child (section, "angle_spin"), "30");
  g_assert_true (shepard_search_shape_overlay_get_shown (overlay));
  g_assert_true (shepard_map_view_get_visible_extent (view, &x_min, &y_min, &x_max, &y_max));
  g_assert_true (shepard_search_shape_overlay_get_center (overlay, &cx, &cy));
  assert_near (cx, (x_min + x_max) / 2, 1e-6 * (x_max - x_min));
  assert_near (cy, (y_min + y_max) / 2, 1e-6 * (y_max - y_min));

  /* Four points of the outline: the ends of radius 1 (30° counter-clockwise from east) and of radius 2 (120°). */
  double wx[4], wy[4];
  g_assert_true (shepard_search_shape_overlay_get_outline (overlay, 4, wx, wy));
  double width = gtk_widget_get_width (GTK_WIDGET (view)), height = gtk_widget_get_height (GTK_WIDGET (view));
  double units_per_pixel = (x_max - x_min) / width;
  assert_near ((y_max - y_min) / height, units_per_pixel, 1e-6 * units_per_pixel);
  double view_x, view_y;
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (overlay), 0, 0, &view_x, &view_y));
  const double expected[4][2] = {
    { 800 * cos (G_PI / 6), 800 * sin (G_PI / 6) },
    { 300 * cos (2 * G_PI / 3), 300 * sin (2 * G_PI / 3) },
    { -800 * cos (G_PI / 6), -800 * sin (G_PI / 6) },
    { -300 * cos (2 * G_PI / 3), -300 * sin (2 * G_PI / 3) },
  };
  for (int i = 0; i < 4; i++)
    {
      double ex = view_x + (cx + expected[i][0] - x_min) / units_per_pixel;
      double ey = view_y + (y_max - (cy + expected[i][1])) / units_per_pixel;
      g_test_message ("outline point %d: (%.2f, %.2f), expected (%.2f, %.2f)", i, wx[i], wy[i], ex, ey);
      assert_near (wx[i], ex, 0.01);
      assert_near (wy[i], ey, 0.01);
    }

  /* Drawn: the line's white at the end of radius 2 (away from radius 1's dashed axis), and not so just outside. */
  let_frames_pass (100);
  g_autoptr (GdkTexture) texture = capture_window (window);
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  double ox, oy;
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (overlay), GTK_WIDGET (window), wx[1], wy[1], &ox, &oy));
  int on[3] = { 0 }, off[3];
  /* The line is 2 px wide and antialiased: the whitest pixel next to the point. */
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      {
        int rgb[3];
        pixel_rgb (&pixels, (int) round (ox) + dx, (int) round (oy) + dy, rgb);
        if (MIN (rgb[0], MIN (rgb[1], rgb[2])) > MIN (on[0], MIN (on[1], on[2])))
          memcpy (on, rgb, sizeof on);
      }
  double axis = hypot (wx[1] - wx[3], wy[1] - wy[3]);
  double out_x = ox + 12 * (wx[1] - wx[3]) / axis, out_y = oy + 12 * (wy[1] - wy[3]) / axis;
  pixel_rgb (&pixels, (int) round (out_x), (int) round (out_y), off);
  g_test_message ("on the line (%.0f, %.0f): %d %d %d; 12 px out: %d %d %d", ox, oy, on[0], on[1], on[2], off[0],
                  off[1], off[2]);
  g_assert_cmpint (MIN (on[0], MIN (on[1], on[2])), >=, 200);
  g_assert_cmpint (MIN (off[0], MIN (off[1], off[2])), <, 200);
  g_autofree char *png = screenshot_path ("search-ellipse.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  g_free (pixels.data);

  /* A moment after the last change, with the focus elsewhere, it goes. */
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  g_assert_true (wait_until (is_overlay_hidden, overlay));
  gtk_widget_grab_focus (section_child (section, "angle_spin"));
  g_assert_true (wait_until (is_overlay_shown, overlay));
  gtk_window_set_focus (GTK_WINDOW (window), NULL);
  g_assert_true (wait_until (is_overlay_hidden, overlay));
  shepard_neighbourhood_section_reset (section);
}

static gboolean
is_settled_with_nodata (gpointer data)
{
  ShepardSurface *surface = is_settled (window) ? shepard_window_get_surface (window) : NULL;

  return surface != NULL && surface->params.radius1 == *(double *) data;
}

/* Cells beyond the radius of every point have no data: NaN in the surface, and the map's background on the screen
 * (the value range and legend ignore them). */
static void
test_nodata_transparent (void)
{
  ShepardParameterPanel *panel = window_child (window, "parameter_panel");
  ShepardNeighbourhoodSection *section = shepard_parameter_panel_get_neighbourhood_section (panel);
  ShepardMapView *view = shepard_window_get_map_view (window);
  double radius = 150;

  g_assert_nonnull (shepard_window_get_document (window));
  gtk_drop_down_set_selected (section_child (section, "shape_dropdown"), 1);
  enter_text (section_child (section, "radius_spin"), "150");
  g_assert_true (wait_until (is_settled_with_nodata, &radius));
  ShepardSurface *surface = shepard_window_get_surface (window);
  const shepard_grid *grid = &surface->grid;
  /* From the host or, on the CUDA interop path, from the GPU. */
  g_autoptr (GError) error = NULL;
  g_autofree float *values = shepard_surface_copy_plane (surface, SHEPARD_PLANE_VALUES, &error);
  g_assert_no_error (error);

  /* A no-data cell with no data two cells around it, so that no rounding of its position reaches a cell with data. */
  gssize found = -1;
  size_t n_nodata = 0;
  for (size_t row = 2; row + 2 < grid->height; row++)
    for (size_t col = 2; col + 2 < grid->width; col++)
      {
        gboolean all = TRUE;
        for (int dr = -2; dr <= 2 && all; dr++)
          for (int dc = -2; dc <= 2 && all; dc++)
            all = isnan (values[(row + dr) * grid->width + col + dc]);
        if (all && found < 0)
          found = (gssize) (row * grid->width + col);
      }
  /* The cells with data span a finite range, the no-data ones left out. Read from the copy: a surface on the GPU has
   * no host range (value_min is NaN there). */
  float data_min = INFINITY, data_max = -INFINITY;
  for (size_t i = 0; i < grid->width * grid->height; i++)
    {
      n_nodata += isnan (values[i]);
      if (!isnan (values[i]))
        {
          data_min = MIN (data_min, values[i]);
          data_max = MAX (data_max, values[i]);
        }
    }
  g_test_message ("%zu of %zu cells without data", n_nodata, grid->width * grid->height);
  g_assert_cmpint (found, >=, 0);
  g_assert_true (isfinite (data_min) && isfinite (data_max) && data_min <= data_max);

  let_frames_pass (100);
  g_autoptr (GdkTexture) texture = capture_window (window);
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  double x = grid->x_min + ((size_t) found % grid->width + 0.5) * grid->dx;
  double y = grid->y_max - ((size_t) found / grid->width + 0.5) * grid->dy;
  double wx, wy, bx, by;
  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &wx, &wy));
  /* The background: the map's left edge, beside the surface (the extent is taller than wide). */
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), 2,
                                                   gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, &bx, &by));
  int cell[3], background[3];
  pixel_rgb (&pixels, (int) wx, (int) wy, cell);
  pixel_rgb (&pixels, (int) bx, (int) by, background);
  g_test_message ("no-data cell at (%.0f, %.0f): %d %d %d; background %d %d %d", wx, wy, cell[0], cell[1], cell[2],
                  background[0], background[1], background[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (cell[c] - background[c]), <=, 2);
  g_autofree char *png = screenshot_path ("nodata.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
  g_free (pixels.data);
  shepard_neighbourhood_section_reset (section);
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

  g_test_add_func ("/ui/neighbourhood/defaults", test_defaults);
  g_test_add_func ("/ui/neighbourhood/each-control", test_each_control);
  g_test_add_func ("/ui/neighbourhood/set-params", test_set_params);
  g_test_add_func ("/ui/neighbourhood/validation-message", test_validation_message);
  g_test_add_func ("/ui/neighbourhood/refused-entry", test_refused_entry);
  g_test_add_func ("/ui/neighbourhood/units", test_units);
  g_test_add_func ("/ui/neighbourhood/bind-settings", test_bind_settings);
  g_test_add_func ("/ui/neighbourhood/shape-shown", test_shape_shown);
  g_test_add_func ("/ui/neighbourhood/overlay-geometry", test_overlay_geometry);
  g_test_add_func ("/ui/neighbourhood/nodata-transparent", test_nodata_transparent);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
