/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The widgets the window is built from: the parameter panel, the legend and the side panel's wheel guard. */
#include <gtk/gtk.h>
#include <locale.h>
#include <math.h>
#include <stdlib.h>
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

#include "shepard-legend.h"
#include "shepard-parameter-panel.h"
#include "shepard-wheel-guard-private.h"
#include "ui-test-support.h"

/* A control of the panel's template, or of its Neighbourhood section's. */
static gpointer
panel_child (ShepardParameterPanel *panel, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (panel), SHEPARD_TYPE_PARAMETER_PANEL, name);
  if (child == NULL)
    child = gtk_widget_get_template_child (GTK_WIDGET (shepard_parameter_panel_get_neighbourhood_section (panel)),
                                           SHEPARD_TYPE_NEIGHBOURHOOD_SECTION, name);
  g_assert_nonnull (child);
  return child;
}

static void
count_notify (GObject *object, GParamSpec *pspec, int *count)
{
  (*count)++;
}

/* A panel with "changed" counted into *changes; unref it with g_object_unref. */
static ShepardParameterPanel *
new_panel (int *changes)
{
  ShepardParameterPanel *panel = g_object_ref_sink (SHEPARD_PARAMETER_PANEL (shepard_parameter_panel_new ()));

  g_signal_connect (panel, "changed", G_CALLBACK (count_signal), changes);
  return panel;
}

static void
assert_params_equal (const shepard_params *a, const shepard_params *b)
{
  g_assert_cmpint (a->method, ==, b->method);
  g_assert_cmpfloat (a->power, ==, b->power);
  g_assert_cmpint (a->k, ==, b->k);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    g_assert_cmpfloat (a->alpha[i], ==, b->alpha[i]);
  g_assert_cmpfloat (a->r_min, ==, b->r_min);
  g_assert_cmpfloat (a->r_max, ==, b->r_max);
  g_assert_cmpint (a->area_mode, ==, b->area_mode);
  if (a->area_mode == SHEPARD_AREA_GIVEN)
    g_assert_cmpfloat (a->area, ==, b->area);
  g_assert_cmpint (a->neighbors, ==, b->neighbors);
  g_assert_cmpfloat (a->radius1, ==, b->radius1);
  g_assert_cmpfloat (a->radius2, ==, b->radius2);
  g_assert_cmpfloat (a->angle, ==, b->angle);
  g_assert_cmpint (a->min_points, ==, b->min_points);
  g_assert_cmpint (a->max_points_per_quadrant, ==, b->max_points_per_quadrant);
  g_assert_cmpint (a->min_points_per_quadrant, ==, b->min_points_per_quadrant);
  g_assert_cmpfloat (a->smoothing, ==, b->smoothing);
}

/* The engine's defaults, the schema's and the panel's (its template's) are one set. */
static void
assert_defaults (ShepardParameterPanel *panel)
{
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params, engine;

  shepard_parameter_panel_get_params (panel, &params);
  shepard_params_init_aidw (&engine);
  assert_params_equal (&params, &engine);

  g_assert_cmpuint (g_settings_get_uint (settings, "method"), ==, 1);
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpfloat (g_settings_get_double (settings, "power"), ==, params.power);
  g_assert_cmpfloat (g_settings_get_double (settings, "k"), ==, params.k);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      char key[16];
      g_snprintf (key, sizeof key, "alpha-%d", i + 1);
      g_assert_cmpfloat (g_settings_get_double (settings, key), ==, params.alpha[i]);
    }
  g_assert_cmpfloat (g_settings_get_double (settings, "r-min"), ==, params.r_min);
  g_assert_cmpfloat (g_settings_get_double (settings, "r-max"), ==, params.r_max);
  g_assert_cmpuint (g_settings_get_uint (settings, "area-mode"), ==, 0);
  g_assert_cmpint (params.area_mode, ==, SHEPARD_AREA_BOUNDING_BOX);
  g_assert_cmpfloat (g_settings_get_double (settings, "area"), ==, params.area);
  g_assert_cmpuint (g_settings_get_uint (settings, "neighbourhood"), ==, 0);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpfloat (g_settings_get_double (settings, "neighbours"),
                     ==, gtk_spin_button_get_value (panel_child (panel, "neighbors_spin")));
  g_assert_cmpfloat (g_settings_get_double (settings, "preview-cells"),
                     ==, shepard_parameter_panel_get_preview_cells (panel));
  g_assert_cmpuint (shepard_parameter_panel_get_preview_cells (panel), ==, 384);
}

static void
test_defaults (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);

  assert_defaults (panel);
  g_assert_false (gtk_widget_get_visible (panel_child (panel, "alpha_warning")));
  g_assert_cmpint (changes, ==, 0);
}

static void
test_set_params_changes_once (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  shepard_params params, read;

  shepard_params_init_aidw (&params);
  params.k = 30;
  params.alpha[0] = 1.0;
  params.alpha[4] = 5.0;
  params.r_min = 0.5;
  params.r_max = 3.0;
  params.area_mode = SHEPARD_AREA_GIVEN;
  params.area = 250000;
  params.neighbors = 12;
  shepard_parameter_panel_set_params (panel, &params);
  g_assert_cmpint (changes, ==, 1);
  shepard_parameter_panel_get_params (panel, &read);
  assert_params_equal (&read, &params);
  g_assert_cmpfloat (read.area, ==, 250000);

  /* The same set again changes nothing, so nothing is announced. */
  shepard_parameter_panel_set_params (panel, &params);
  g_assert_cmpint (changes, ==, 1);

  shepard_params_init_idw (&params);
  params.power = 3.25;
  shepard_parameter_panel_set_params (panel, &params);
  g_assert_cmpint (changes, ==, 2);
  shepard_parameter_panel_get_params (panel, &read);
  assert_params_equal (&read, &params);
  /* The area and N the last set used are still there for the next time they are chosen. */
  g_assert_cmpfloat (read.area, ==, 250000);
  g_assert_cmpfloat (gtk_spin_button_get_value (panel_child (panel, "neighbors_spin")), ==, 12);
}

static void
test_sensitivity (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  GtkWidget *power = panel_child (panel, "power_spin"), *k = panel_child (panel, "k_spin");
  GtkWidget *alpha3 = panel_child (panel, "alpha3_scale"), *plot = panel_child (panel, "alpha_plot");
  GtkWidget *rmin = panel_child (panel, "rmin_spin"), *area_mode = panel_child (panel, "area_dropdown");
  GtkWidget *area = panel_child (panel, "area_spin"), *neighbors = panel_child (panel, "neighbors_spin");
  shepard_params params;

  g_assert_false (gtk_widget_get_sensitive (power));
  g_assert_true (gtk_widget_get_sensitive (k));
  g_assert_true (gtk_widget_get_sensitive (alpha3));
  g_assert_true (gtk_widget_get_sensitive (plot));
  g_assert_true (gtk_widget_get_sensitive (rmin));
  g_assert_true (gtk_widget_get_sensitive (area_mode));
  g_assert_false (gtk_widget_get_sensitive (area));
  g_assert_false (gtk_widget_get_sensitive (neighbors));

  gtk_drop_down_set_selected (GTK_DROP_DOWN (area_mode), 2);
  g_assert_true (gtk_widget_get_sensitive (area));
  gtk_drop_down_set_selected (panel_child (panel, "neighbors_dropdown"), 1);
  g_assert_true (gtk_widget_get_sensitive (neighbors));
  g_assert_cmpint (changes, ==, 2);

  shepard_parameter_panel_get_params (panel, &params);
  params.method = SHEPARD_METHOD_IDW;
  shepard_parameter_panel_set_params (panel, &params);
  g_assert_true (gtk_widget_get_sensitive (power));
  g_assert_false (gtk_widget_get_sensitive (k));
  g_assert_false (gtk_widget_get_sensitive (alpha3));
  g_assert_false (gtk_widget_get_sensitive (plot));
  g_assert_false (gtk_widget_get_sensitive (rmin));
  g_assert_false (gtk_widget_get_sensitive (area_mode));
  g_assert_false (gtk_widget_get_sensitive (area));
  g_assert_true (gtk_widget_get_sensitive (neighbors));
}

typedef struct {
  const char *spin, *error, *text, *message;
} RefusedEntry;

static const RefusedEntry refused_entries[] = {
  { "power_spin", "power_error", "abc", "Power: “abc” is not a number; kept 2.00" },
  { "power_spin", "power_error", "50", "Power: 50 is above the largest allowed, 10; kept 2.00" },
  { "power_spin", "power_error", "0", "Power: 0 is below the smallest allowed, 0.1; kept 2.00" },
  { "power_spin", "power_error", "", "Power: the entry is empty; kept 2.00" },
  { "power_spin", "power_error", "2.5x", "Power: “2.5x” is not a number; kept 2.00" },
  { "power_spin", "power_error", "nan", "Power: “nan” is not a number; kept 2.00" },
  { "k_spin", "k_error", "2000", "k: 2000 is above the largest allowed, 1024; kept 15" },
  { "rmin_spin", "rmin_error", "-1", "Rmin: -1 is below the smallest allowed, 0; kept 0.00" },
  { "rmax_spin", "rmax_error", "1e9", "Rmax: 1e9 is above the largest allowed, 20; kept 2.00" },
  { "area_spin", "area_error", "big", "Area: “big” is not a number; kept 1000000" },
  { "neighbors_spin", "neighbors_error", "-3", "N: -3 is below the smallest allowed, 1; kept 32" },
  { "preview_cells_spin", "preview_cells_error", "9999",
    "Preview cells: 9999 is above the largest allowed, 2048; kept 384" },
};

static void
test_refused_entries (void)
{
  for (gsize i = 0; i < G_N_ELEMENTS (refused_entries); i++)
    {
      const RefusedEntry *entry = &refused_entries[i];
      int changes = 0;
      g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
      GtkSpinButton *spin = panel_child (panel, entry->spin);
      GtkWidget *error = panel_child (panel, entry->error);
      double before = gtk_spin_button_get_value (spin);
      g_autofree char *shown = g_strdup (gtk_editable_get_text (GTK_EDITABLE (spin)));

      g_test_message ("%s ← “%s”", entry->spin, entry->text);
      enter_text (spin, entry->text);
      g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, before);
      g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (spin)), ==, shown);
      g_assert_cmpint (changes, ==, 0);
      g_assert_true (gtk_widget_get_visible (error));
      g_assert_true (gtk_widget_has_css_class (error, "error"));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error)), ==, entry->message);

      /* Leaving the field again, the entry now shows the kept value: nothing new, the message stays. */
      gtk_spin_button_update (spin);
      g_assert_true (gtk_widget_get_visible (error));

      /* The next valid entry clears it. */
      g_autofree char *valid = g_strdup_printf ("%g", gtk_adjustment_get_lower (gtk_spin_button_get_adjustment (spin))
                                                        + 1);
      enter_text (spin, valid);
      g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, g_ascii_strtod (valid, NULL));
      g_assert_cmpint (changes, ==, 1);
      g_assert_false (gtk_widget_get_visible (error));
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (error)), ==, "");
    }
}

static void
test_accepted_entries (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  GtkSpinButton *power = panel_child (panel, "power_spin"), *k = panel_child (panel, "k_spin");

  enter_text (power, " 3.5 ");
  g_assert_cmpfloat (gtk_spin_button_get_value (power), ==, 3.5);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (power)), ==, "3.50");
  g_assert_cmpint (changes, ==, 1);

  /* Rounded to what the entry shows, so that the engine gets what the user sees. */
  enter_text (power, "3.456");
  g_assert_cmpfloat (gtk_spin_button_get_value (power), ==, 3.46);
  enter_text (k, "2.6");
  g_assert_cmpfloat (gtk_spin_button_get_value (k), ==, 3);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (k)), ==, "3");
  g_assert_cmpint (changes, ==, 3);

  /* The value an upper bound rounds to is allowed. */
  enter_text (power, "10.004");
  g_assert_cmpfloat (gtk_spin_button_get_value (power), ==, 10);
  g_assert_false (gtk_widget_get_visible (panel_child (panel, "power_error")));
}

/* GTK writes values with the locale's decimal separator; entries with it or with '.' both read. Needs a locale with a
 * decimal comma installed. */
static void
test_locale_decimal_comma (void)
{
  static const char *const locales[] = { "de_DE.UTF-8", "fr_FR.UTF-8", "nl_NL.UTF-8", "de_DE.utf8", "fr_FR.utf8" };
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  const char *found = NULL;

  for (gsize i = 0; i < G_N_ELEMENTS (locales) && found == NULL; i++)
    if (setlocale (LC_NUMERIC, locales[i]) != NULL)
      found = locales[i];
  if (found == NULL)
    {
      g_test_skip ("no locale with a decimal comma is installed");
      return;
    }

  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  GtkSpinButton *power = panel_child (panel, "power_spin");

  enter_text (power, "2,5");
  g_assert_cmpfloat (gtk_spin_button_get_value (power), ==, 2.5);
  enter_text (power, "3.5");
  g_assert_cmpfloat (gtk_spin_button_get_value (power), ==, 3.5);
  g_assert_cmpint (changes, ==, 2);
  setlocale (LC_NUMERIC, saved);
}

static void
test_alpha_order_warning (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  GtkWidget *warning = panel_child (panel, "alpha_warning");
  GtkLabel *text = panel_child (panel, "alpha_warning_label");
  shepard_params params;

  gtk_range_set_value (panel_child (panel, "alpha3_scale"), 2.8);
  g_assert_false (gtk_widget_get_visible (warning));
  gtk_range_set_value (panel_child (panel, "alpha4_scale"), 2.6);
  g_assert_cmpint (changes, ==, 2);
  g_assert_true (gtk_widget_get_visible (warning));
  g_assert_true (gtk_widget_has_css_class (warning, "warning"));
  g_assert_cmpstr (gtk_label_get_text (text), ==,
                   "α levels out of order: α3 2.80 is above α4 2.60. Denser areas usually take the smaller powers; "
                   "the surface is still computed as set.");
  /* Not refused: the engine gets the levels as set. */
  shepard_parameter_panel_get_params (panel, &params);
  g_assert_cmpfloat (params.alpha[2], ==, 2.8);
  g_assert_cmpfloat (params.alpha[3], ==, 2.6);

  /* About AIDW only. */
  gtk_drop_down_set_selected (panel_child (panel, "method_dropdown"), 0);
  g_assert_false (gtk_widget_get_visible (warning));
  gtk_drop_down_set_selected (panel_child (panel, "method_dropdown"), 1);
  g_assert_true (gtk_widget_get_visible (warning));

  gtk_range_set_value (panel_child (panel, "alpha4_scale"), 3.0);
  g_assert_false (gtk_widget_get_visible (warning));

  /* Set as a whole, the first pair out of order is named. */
  params.alpha[0] = 4.0;
  params.alpha[3] = 1.0;
  shepard_parameter_panel_set_params (panel, &params);
  g_assert_true (gtk_widget_get_visible (warning));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (text),
                                   "α levels out of order: α1 4.00 is above α2 2.00."));
}

static void
test_reset (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  shepard_params params;

  shepard_params_init_idw (&params);
  params.power = 4;
  params.alpha[2] = 5.5;
  params.area_mode = SHEPARD_AREA_GIVEN;
  params.area = 5000;
  params.neighbors = 10;
  shepard_parameter_panel_set_params (panel, &params);
  shepard_parameter_panel_set_preview_cells (panel, 512);
  enter_text (panel_child (panel, "k_spin"), "oops");
  g_assert_true (gtk_widget_get_visible (panel_child (panel, "k_error")));
  changes = 0;

  shepard_parameter_panel_reset (panel);
  g_assert_cmpint (changes, ==, 1);
  assert_defaults (panel);
  g_assert_false (gtk_widget_get_visible (panel_child (panel, "k_error")));
  g_assert_false (gtk_widget_get_sensitive (panel_child (panel, "area_spin")));

  /* Already at the defaults: nothing to announce. */
  shepard_parameter_panel_reset (panel);
  g_assert_cmpint (changes, ==, 1);

  /* The action the panel's button and the window's menu use. */
  gtk_range_set_value (panel_child (panel, "alpha1_scale"), 0.5);
  changes = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (panel), "panel.reset", NULL));
  g_assert_cmpint (changes, ==, 1);
  assert_defaults (panel);
}

static void
test_preview_cells (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);

  shepard_parameter_panel_set_preview_cells (panel, 512);
  g_assert_cmpuint (shepard_parameter_panel_get_preview_cells (panel), ==, 512);
  g_assert_cmpint (changes, ==, 1);
  shepard_parameter_panel_set_preview_cells (panel, 512);
  g_assert_cmpint (changes, ==, 1);
  enter_text (panel_child (panel, "preview_cells_spin"), "1000");
  g_assert_cmpuint (shepard_parameter_panel_get_preview_cells (panel), ==, 1000);
  g_assert_cmpint (changes, ==, 2);
}

static void
test_bind_settings (void)
{
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params;

  g_settings_set_uint (settings, "method", 0);
  g_settings_set_double (settings, "power", 3.5);
  g_settings_set_double (settings, "alpha-2", 2.25);
  g_settings_set_uint (settings, "neighbourhood", 1);
  g_settings_set_double (settings, "neighbours", 20);
  g_settings_set_double (settings, "preview-cells", 256);

  shepard_parameter_panel_bind_settings (panel, settings);
  g_assert_cmpint (changes, ==, 1);
  shepard_parameter_panel_get_params (panel, &params);
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (params.power, ==, 3.5);
  g_assert_cmpfloat (params.alpha[1], ==, 2.25);
  g_assert_cmpint (params.neighbors, ==, 20);
  g_assert_cmpuint (shepard_parameter_panel_get_preview_cells (panel), ==, 256);
  g_assert_true (gtk_widget_get_sensitive (panel_child (panel, "power_spin")));

  /* And back: the user's entries and a reset are kept. */
  enter_text (panel_child (panel, "k_spin"), "40");
  g_assert_cmpfloat (g_settings_get_double (settings, "k"), ==, 40);
  shepard_parameter_panel_reset (panel);
  g_assert_cmpuint (g_settings_get_uint (settings, "method"), ==, 1);
  g_assert_cmpfloat (g_settings_get_double (settings, "power"), ==, 2);
  g_assert_cmpfloat (g_settings_get_double (settings, "preview-cells"), ==, 384);

  /* A change from elsewhere (another window) reaches the panel. */
  changes = 0;
  g_settings_set_double (settings, "r-max", 4);
  g_assert_cmpfloat (gtk_spin_button_get_value (panel_child (panel, "rmax_spin")), ==, 4);
  g_assert_cmpint (changes, ==, 1);
}

static GdkTexture *
render_widget (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, width, height);
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  return gsk_renderer_render_texture (gtk_native_get_renderer (gtk_widget_get_native (widget)), node,
                                      &GRAPHENE_RECT_INIT (0, 0, width, height));
}

static gboolean
is_mapped (gpointer data)
{
  return gtk_widget_get_mapped (data) && gtk_widget_get_width (data) > 0;
}

/* The panel in a window as wide as the window's side panel, with a refused entry and the α warning showing; saved
 * for a look by eye. It must fit that width without a horizontal scroll bar, and Tab must walk through it. */
static void
test_panel_fits_side_panel (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller = gtk_scrolled_window_new ();
  int changes = 0;
  g_autoptr (ShepardParameterPanel) panel = new_panel (&changes);
  int minimum, natural;

  gtk_widget_set_margin_start (GTK_WIDGET (panel), 18);
  gtk_widget_set_margin_end (GTK_WIDGET (panel), 18);
  gtk_widget_set_margin_bottom (GTK_WIDGET (panel), 18);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (panel));
  gtk_window_set_child (GTK_WINDOW (window), scroller);
  gtk_window_set_default_size (GTK_WINDOW (window), 340, 1000);
  gtk_widget_measure (GTK_WIDGET (panel), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, &natural, NULL, NULL);
  g_test_message ("panel width: minimum %d, natural %d", minimum, natural);
  g_assert_cmpint (minimum, <=, 340 - 2 * 18);

  enter_text (panel_child (panel, "power_spin"), "abc");
  gtk_range_set_value (panel_child (panel, "alpha4_scale"), 2.4);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (is_mapped, panel));
  let_frames_pass (300);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (panel)), <=, 340 - 2 * 18);

  g_autoptr (GdkTexture) texture = render_widget (window);
  g_autofree char *png = screenshot_path ("parameter-panel.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);

  /* The window's first focus is the method; Tab goes on to k, power being off with AIDW. */
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (focus != NULL && gtk_widget_is_ancestor (focus, panel_child (panel, "method_dropdown")));
  g_assert_true (gtk_widget_child_focus (GTK_WIDGET (panel), GTK_DIR_TAB_FORWARD));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), panel_child (panel, "k_spin")));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_legend_properties (void)
{
  g_autoptr (ShepardLegend) legend = g_object_ref_sink (SHEPARD_LEGEND (shepard_legend_new ()));
  int ramp = 0, minimum = 0, maximum = 0, natural_width, natural_height;
  guint value;

  g_signal_connect (legend, "notify::ramp", G_CALLBACK (count_notify), &ramp);
  g_signal_connect (legend, "notify::minimum", G_CALLBACK (count_notify), &minimum);
  g_signal_connect (legend, "notify::maximum", G_CALLBACK (count_notify), &maximum);

  shepard_legend_set_ramp (legend, SHEPARD_COLOR_RAMP_TERRAIN);
  shepard_legend_set_ramp (legend, SHEPARD_COLOR_RAMP_TERRAIN);
  g_assert_cmpint (ramp, ==, 1);
  g_assert_cmpint (shepard_legend_get_ramp (legend), ==, SHEPARD_COLOR_RAMP_TERRAIN);
  g_object_set (legend, "ramp", (guint) SHEPARD_COLOR_RAMP_GRAYSCALE, "minimum", -5.0, "maximum", 12.5, NULL);
  g_object_get (legend, "ramp", &value, NULL);
  g_assert_cmpuint (value, ==, SHEPARD_COLOR_RAMP_GRAYSCALE);
  g_assert_cmpint (ramp, ==, 2);
  g_assert_cmpfloat (shepard_legend_get_minimum (legend), ==, -5.0);
  g_assert_cmpfloat (shepard_legend_get_maximum (legend), ==, 12.5);
  shepard_legend_set_minimum (legend, -5.0);
  shepard_legend_set_maximum (legend, 12.5);
  g_assert_cmpint (minimum, ==, 1);
  g_assert_cmpint (maximum, ==, 1);

  /* Room beside the map for the bar and labels such as "1750". */
  gtk_widget_measure (GTK_WIDGET (legend), GTK_ORIENTATION_HORIZONTAL, -1, NULL, &natural_width, NULL, NULL);
  gtk_widget_measure (GTK_WIDGET (legend), GTK_ORIENTATION_VERTICAL, -1, NULL, &natural_height, NULL, NULL);
  g_assert_cmpint (natural_width, ==, 120);
  g_assert_cmpint (natural_height, ==, 260);
}

static void
assert_bar_colour (const Pixels *pixels, int y, ShepardColorRamp ramp, double t)
{
  float expected[3];
  int actual[3];

  shepard_color_ramp_evaluate (ramp, t, expected);
  /* The bar is 18 pixels wide from x 6. */
  pixel_rgb (pixels, 6 + 9, y, actual);
  g_test_message ("bar at y %d: expected %.0f %.0f %.0f, read %d %d %d", y, expected[0] * 255, expected[1] * 255,
                  expected[2] * 255, actual[0], actual[1], actual[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (actual[c] - (int) lround (expected[c] * 255)), <=, 6);
}

static void
test_legend_pixels (void)
{
  GtkWidget *window = gtk_window_new ();
  GtkWidget *legend = shepard_legend_new ();
  Pixels pixels;

  gtk_widget_set_halign (legend, GTK_ALIGN_START);
  gtk_widget_set_valign (legend, GTK_ALIGN_START);
  gtk_window_set_child (GTK_WINDOW (window), legend);
  g_object_set (legend, "minimum", 113.0, "maximum", 1839.0, NULL);
  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (wait_until (is_mapped, legend));
  let_frames_pass (200);
  g_assert_cmpint (gtk_widget_get_width (legend), ==, 120);
  g_assert_cmpint (gtk_widget_get_height (legend), ==, 260);

  for (ShepardColorRamp ramp = 0; ramp < SHEPARD_COLOR_RAMP_COUNT; ramp++)
    {
      shepard_legend_set_ramp (SHEPARD_LEGEND (legend), ramp);
      /* A widget's paintable shows what it last drew: let the frame clock draw the new ramp first. */
      let_frames_pass (200);
      g_autoptr (GdkTexture) texture = render_widget (legend);
      pixels_from_texture (texture, &pixels);
      g_assert_cmpint (pixels.height, ==, 260);
      /* The bar runs from y 12 (the top colour) to 248 (the bottom one); one pixel in from each end. */
      assert_bar_colour (&pixels, 13, ramp, 1.0 - 1.5 / 236);
      assert_bar_colour (&pixels, 246, ramp, 1.5 / 236);
      assert_bar_colour (&pixels, 130, ramp, 0.5);
      if (ramp == SHEPARD_COLOR_RAMP_VIRIDIS)
        {
          g_autofree char *png = screenshot_path ("legend.png");
          g_assert_true (gdk_texture_save_to_png (texture, png));
          g_test_message ("screenshot: %s", png);
        }
      g_free (pixels.data);
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

typedef struct {
  GtkWidget *window, *scroller, *scale, *spin, *button, *label;
} WheelFixture;

/* A scroller over a column taller than itself: a label, a scale, a spin button and a button, spaced out. */
static void
wheel_fixture_set_up (WheelFixture *fixture, gconstpointer data)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 40);

  fixture->window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (fixture->window), "shepard-wheel-guard-test");
  fixture->scroller = gtk_scrolled_window_new ();
  fixture->label = gtk_label_new ("Not a control");
  fixture->scale = gtk_scale_new_with_range (GTK_ORIENTATION_HORIZONTAL, 0, 10, 0.5);
  fixture->spin = gtk_spin_button_new_with_range (0, 10, 1);
  fixture->button = gtk_button_new_with_label ("Focus here");
  gtk_range_set_value (GTK_RANGE (fixture->scale), 5);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (fixture->spin), 5);
  gtk_widget_set_size_request (fixture->label, -1, 100);
  gtk_box_append (GTK_BOX (box), fixture->label);
  gtk_box_append (GTK_BOX (box), fixture->scale);
  gtk_box_append (GTK_BOX (box), fixture->spin);
  gtk_box_append (GTK_BOX (box), fixture->button);
  gtk_widget_set_size_request (box, 200, 1500);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (fixture->scroller), box);
  gtk_window_set_child (GTK_WINDOW (fixture->window), fixture->scroller);
  gtk_window_set_default_size (GTK_WINDOW (fixture->window), 240, 400);
  gtk_window_present (GTK_WINDOW (fixture->window));
  g_assert_true (wait_until (is_mapped, fixture->button));
  let_frames_pass (200);
  gtk_widget_grab_focus (fixture->button);
}

static void
wheel_fixture_tear_down (WheelFixture *fixture, gconstpointer data)
{
  gtk_window_destroy (GTK_WINDOW (fixture->window));
}

static void
centre_in (GtkWidget *widget, GtkWidget *target, double *x, double *y)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (widget, target,
                                           &GRAPHENE_POINT_INIT (gtk_widget_get_width (widget) / 2.0,
                                                                 gtk_widget_get_height (widget) / 2.0),
                                           &point));
  *x = point.x;
  *y = point.y;
}

static void
test_wheel_guard_decision (WheelFixture *fixture, gconstpointer data)
{
  GtkScrolledWindow *scroller = GTK_SCROLLED_WINDOW (fixture->scroller);
  GtkAdjustment *vadjustment = gtk_scrolled_window_get_vadjustment (scroller);
  double page = gtk_adjustment_get_page_size (vadjustment);

  g_assert_cmpfloat (page, >, 0);
  g_assert_true (_shepard_wheel_guard_handle (scroller, fixture->scale, 1, GDK_SCROLL_UNIT_WHEEL));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (fixture->scale)), ==, 5);
  assert_near (gtk_adjustment_get_value (vadjustment), pow (page, 2.0 / 3.0), 1e-9);

  /* Smooth deltas are pixels; and back up. */
  gtk_adjustment_set_value (vadjustment, 50);
  g_assert_true (_shepard_wheel_guard_handle (scroller, fixture->spin, -20, GDK_SCROLL_UNIT_SURFACE));
  assert_near (gtk_adjustment_get_value (vadjustment), 30, 1e-9);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (fixture->spin)), ==, 5);

  /* A control with the focus, in the spin button's case in its text, takes the wheel. */
  gtk_adjustment_set_value (vadjustment, 0);
  gtk_widget_grab_focus (fixture->scale);
  g_assert_false (_shepard_wheel_guard_handle (scroller, fixture->scale, 1, GDK_SCROLL_UNIT_WHEEL));
  gtk_widget_grab_focus (fixture->spin);
  /* The focus is in the spin button's text, not on the spin button. */
  g_assert_false (gtk_widget_is_focus (fixture->spin));
  g_assert_false (_shepard_wheel_guard_handle (scroller, fixture->spin, 1, GDK_SCROLL_UNIT_WHEEL));
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);
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

/* Moves the X pointer to the centre of widget and turns the wheel down by detents, 0.3 s apart, without moving the
 * pointer again, as a person would. */
static void
wheel_over (const char *xdotool, gulong window_id, GtkWidget *widget, GtkWidget *root, int detents)
{
  GtkNative *native = gtk_widget_get_native (widget);
  double x, y, native_x, native_y;
  int status = 0;

  centre_in (widget, root, &x, &y);
  gtk_native_get_surface_transform (native, &native_x, &native_y);
  g_autofree char *id = g_strdup_printf ("%lu", window_id);
  g_autofree char *px = g_strdup_printf ("%d", (int) (x + native_x));
  g_autofree char *py = g_strdup_printf ("%d", (int) (y + native_y));
  g_autofree char *repeat = g_strdup_printf ("%d", detents);
  const char *argv[] = { xdotool, "mousemove", "--window", id, px, py, "click", "--repeat", repeat,
                         "--delay", "300", "5", NULL };
  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, NULL));
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  let_frames_pass (300);
}

/* The real event path: X server, GDK, the capture phase. Without the guard the wheel moves the scale (the fault);
 * with it the page scrolls and the scale keeps its value. */
static void
test_wheel_guard_real_wheel (WheelFixture *fixture, gconstpointer data)
{
  g_autofree char *xdotool = g_find_program_in_path ("xdotool");
  GtkAdjustment *vadjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (fixture->scroller));

#ifdef GDK_WINDOWING_X11
  gboolean x11 = GDK_IS_X11_DISPLAY (gdk_display_get_default ());
#else
  gboolean x11 = FALSE;
#endif
  if (xdotool == NULL || !x11)
    {
      g_test_skip ("needs xdotool and an X11 display");
      return;
    }
  gulong id = x_window_id (xdotool, "shepard-wheel-guard-test");
  g_assert_cmpuint (id, !=, 0);

  wheel_over (xdotool, id, fixture->scale, fixture->window, 1);
  g_test_message ("unguarded: scale %.2f, scroll %.1f", gtk_range_get_value (GTK_RANGE (fixture->scale)),
                  gtk_adjustment_get_value (vadjustment));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (fixture->scale)), !=, 5);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), ==, 0);

  gtk_range_set_value (GTK_RANGE (fixture->scale), 5);
  shepard_wheel_guard_attach (GTK_SCROLLED_WINDOW (fixture->scroller));
  wheel_over (xdotool, id, fixture->scale, fixture->window, 1);
  g_test_message ("guarded: scale %.2f, scroll %.1f", gtk_range_get_value (GTK_RANGE (fixture->scale)),
                  gtk_adjustment_get_value (vadjustment));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (fixture->scale)), ==, 5);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 0);

  /* Several detents in a row carry the spin button under the still pointer: GTK then sends the wheel to the control
   * it last saw there, and neither control may move. */
  gtk_adjustment_set_value (vadjustment, 0);
  let_frames_pass (100);
  wheel_over (xdotool, id, fixture->scale, fixture->window, 4);
  g_test_message ("four detents: scale %.2f, spin %.2f, scroll %.1f", gtk_range_get_value (GTK_RANGE (fixture->scale)),
                  gtk_spin_button_get_value (GTK_SPIN_BUTTON (fixture->spin)), gtk_adjustment_get_value (vadjustment));
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (fixture->scale)), ==, 5);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (fixture->spin)), ==, 5);
  g_assert_cmpfloat (gtk_adjustment_get_value (vadjustment), >, 150);

  /* Focused, the scale has the wheel again. */
  gtk_adjustment_set_value (vadjustment, 0);
  let_frames_pass (100);
  gtk_widget_grab_focus (fixture->scale);
  wheel_over (xdotool, id, fixture->scale, fixture->window, 1);
  g_assert_cmpfloat (gtk_range_get_value (GTK_RANGE (fixture->scale)), !=, 5);
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

  g_test_add_func ("/ui/parameter-panel/defaults", test_defaults);
  g_test_add_func ("/ui/parameter-panel/set-params-changes-once", test_set_params_changes_once);
  g_test_add_func ("/ui/parameter-panel/sensitivity", test_sensitivity);
  g_test_add_func ("/ui/parameter-panel/refused-entries", test_refused_entries);
  g_test_add_func ("/ui/parameter-panel/accepted-entries", test_accepted_entries);
  g_test_add_func ("/ui/parameter-panel/locale-decimal-comma", test_locale_decimal_comma);
  g_test_add_func ("/ui/parameter-panel/alpha-order-warning", test_alpha_order_warning);
  g_test_add_func ("/ui/parameter-panel/reset", test_reset);
  g_test_add_func ("/ui/parameter-panel/preview-cells", test_preview_cells);
  g_test_add_func ("/ui/parameter-panel/bind-settings", test_bind_settings);
  g_test_add_func ("/ui/parameter-panel/fits-side-panel", test_panel_fits_side_panel);
  g_test_add_func ("/ui/legend/properties", test_legend_properties);
  g_test_add_func ("/ui/legend/pixels", test_legend_pixels);
  g_test_add ("/ui/wheel-guard/decision", WheelFixture, NULL, wheel_fixture_set_up, test_wheel_guard_decision,
              wheel_fixture_tear_down);
  g_test_add ("/ui/wheel-guard/real-wheel", WheelFixture, NULL, wheel_fixture_set_up, test_wheel_guard_real_wheel,
              wheel_fixture_tear_down);
  return g_test_run ();
}
