/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The map's furniture: legend labels and title, the scale bar's length, the display panel's ramp, and the status
 * bar's coordinates, against values worked by hand. */
#include <gtk/gtk.h>
#include <math.h>

#include "shepard-display-panel.h"
#include "shepard-legend.h"
#include "shepard-scale-bar.h"
#include "shepard-status-bar.h"

static void
assert_labels (ShepardLegend *legend, const char *const *expected)
{
  g_auto (GStrv) labels = shepard_legend_dup_labels (legend);

  g_assert_cmpstrv (labels, expected);
}

static void
test_legend_labels (void)
{
  GtkWidget *widget = g_object_ref_sink (shepard_legend_new ());
  ShepardLegend *legend = SHEPARD_LEGEND (widget);

  /* meuse zinc, 113 to 1839 ppm: round steps of 250. */
  shepard_legend_set_minimum (legend, 113);
  shepard_legend_set_maximum (legend, 1839);
  assert_labels (legend, (const char *const[]) { "250", "500", "750", "1000", "1250", "1500", "1750", NULL });
  shepard_legend_set_title (legend, "zinc");
  g_autofree char *heading = shepard_legend_dup_heading (legend);
  g_assert_cmpstr (heading, ==, "zinc");
  shepard_legend_set_unit (legend, "ppm");
  g_autofree char *with_unit = shepard_legend_dup_heading (legend);
  g_assert_cmpstr (with_unit, ==, "zinc (ppm)");

  /* Never 18.1 / 13.62 / 4.675. */
  shepard_legend_set_minimum (legend, 4.675);
  shepard_legend_set_maximum (legend, 18.1);
  assert_labels (legend, (const char *const[]) { "6", "8", "10", "12", "14", "16", "18", NULL });
  /* alpha 1.5 to 3.5. */
  shepard_legend_set_minimum (legend, 1.5);
  shepard_legend_set_maximum (legend, 3.5);
  assert_labels (legend, (const char *const[]) { "1.5", "2.0", "2.5", "3.0", "3.5", NULL });

  /* Classes: the breaks, to the round step's decimals (250 → none), decimals more where two would print alike. */
  shepard_legend_set_minimum (legend, 113);
  shepard_legend_set_maximum (legend, 1839);
  shepard_legend_set_classes (legend, (const double[]) { 113, 558.2, 1003.4, 1448.6, 1839 }, 4);
  assert_labels (legend, (const char *const[]) { "113", "558", "1003", "1449", "1839", NULL });
  shepard_legend_set_classes (legend, (const double[]) { 113, 198.04, 326.4, 1839 }, 3);
  assert_labels (legend, (const char *const[]) { "113", "198", "326", "1839", NULL });
  shepard_legend_set_minimum (legend, 1);
  shepard_legend_set_maximum (legend, 2);
  shepard_legend_set_classes (legend, (const double[]) { 1, 1.04, 1.08, 2 }, 3);
  assert_labels (legend, (const char *const[]) { "1.00", "1.04", "1.08", "2.00", NULL });
  /* A break just below zero prints as 0, not -0. */
  shepard_legend_set_minimum (legend, -1);
  shepard_legend_set_maximum (legend, 1);
  shepard_legend_set_classes (legend, (const double[]) { -1, -0.001, 1 }, 2);
  assert_labels (legend, (const char *const[]) { "-1.0", "0.0", "1.0", NULL });
  shepard_legend_set_classes (legend, NULL, 0);
  assert_labels (legend, (const char *const[]) { "-1.0", "-0.5", "0.0", "0.5", "1.0", NULL });

  /* Any ramp reversed. */
  shepard_legend_set_ramp (legend, SHEPARD_COLOR_RAMP_BROWN_TEAL | SHEPARD_COLOR_RAMP_REVERSED);
  g_assert_cmpuint (shepard_legend_get_ramp (legend), ==, SHEPARD_COLOR_RAMP_BROWN_TEAL | SHEPARD_COLOR_RAMP_REVERSED);
  g_object_unref (widget);
}

static void
test_scale_bar_length (void)
{
  g_autofree char *a = NULL, *b = NULL, *c = NULL, *d = NULL, *e = NULL;

  /* A map 600 px wide over 3 km of RD New: 5 m a pixel, 120 px at most is 600 m: a bar of 500 m, 100 px. */
  g_assert_cmpfloat_with_epsilon (shepard_scale_bar_choose (3000.0 / 600, 1, 120, &a), 100, 1e-9);
  g_assert_cmpstr (a, ==, "500 m");
  /* Zoomed out to 20 m a pixel: 2400 m at most, a bar of 2 km, 100 px. */
  g_assert_cmpfloat_with_epsilon (shepard_scale_bar_choose (20, 1, 120, &b), 100, 1e-9);
  g_assert_cmpstr (b, ==, "2 km");
  /* A CRS in US survey feet: 10 ft a pixel is 3.048 m; 120 px is 365.8 m: 200 m, 65.6 px. */
  g_assert_cmpfloat_with_epsilon (shepard_scale_bar_choose (10, 0.3048, 120, &c), 200 / 3.048, 1e-9);
  g_assert_cmpstr (c, ==, "200 m");
  /* Degrees. */
  g_assert_cmpfloat_with_epsilon (shepard_scale_bar_choose (0.001, 0, 120, &d), 100, 1e-9);
  g_assert_cmpstr (d, ==, "0.1°");
  /* Unknown units. */
  g_assert_cmpfloat_with_epsilon (shepard_scale_bar_choose (0.5, -1, 120, &e), 100, 1e-9);
  g_assert_cmpstr (e, ==, "50 units");
}

static gpointer
panel_child (GtkWidget *panel, const char *name)
{
  return gtk_widget_get_template_child (panel, SHEPARD_TYPE_DISPLAY_PANEL, name);
}

static void
test_display_panel (void)
{
  GtkWidget *widget = g_object_ref_sink (shepard_display_panel_new ());
  ShepardDisplayPanel *panel = SHEPARD_DISPLAY_PANEL (widget);
  int changes = 0;

  g_signal_connect_swapped (panel, "changed", G_CALLBACK (g_atomic_int_inc), &changes);
  g_assert_cmpint (shepard_display_panel_get_ramp (panel), ==, SHEPARD_COLOR_RAMP_VIRIDIS);
  g_assert_cmpint (shepard_display_panel_get_stretch (panel), ==, SHEPARD_STRETCH_DATA_RANGE);
  g_assert_cmpint (shepard_display_panel_get_classes (panel), ==, SHEPARD_CLASSES_CONTINUOUS);
  g_assert_cmpfloat (shepard_display_panel_get_opacity (panel), ==, 1.0);

  GtkDropDown *ramp = panel_child (widget, "ramp_dropdown");
  GtkSwitch *reversed = panel_child (widget, "reversed_switch");
  gtk_drop_down_set_selected (ramp, SHEPARD_COLOR_RAMP_MAGMA);
  gtk_switch_set_active (reversed, TRUE);
  g_assert_cmpint (shepard_display_panel_get_ramp (panel), ==, SHEPARD_COLOR_RAMP_MAGMA | SHEPARD_COLOR_RAMP_REVERSED);
  g_assert_cmpint (changes, ==, 2);
  /* Every ramp has its row. */
  g_assert_cmpuint (g_list_model_get_n_items (gtk_drop_down_get_model (ramp)), ==, SHEPARD_COLOR_RAMP_COUNT);

  /* A suggested custom range is no change; it stays once the user chose custom. */
  shepard_display_panel_suggest_custom_range (panel, 113, 1839);
  g_assert_cmpint (changes, ==, 2);
  gtk_drop_down_set_selected (panel_child (widget, "stretch_dropdown"),
                              SHEPARD_STRETCH_CUSTOM);
  shepard_display_panel_suggest_custom_range (panel, 0, 1);
  double min, max;
  shepard_display_panel_get_custom_range (panel, &min, &max);
  g_assert_cmpfloat (min, ==, 113);
  g_assert_cmpfloat (max, ==, 1839);

  gtk_range_set_value (panel_child (widget, "opacity_scale"), 40);
  g_assert_cmpfloat_with_epsilon (shepard_display_panel_get_opacity (panel), 0.4, 1e-12);
  g_object_unref (widget);
}

static void
test_status_bar_position (void)
{
  GtkWidget *widget = g_object_ref_sink (shepard_status_bar_new ());
  ShepardStatusBar *bar = SHEPARD_STATUS_BAR (widget);
  g_autofree char *prj_path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.prj", NULL);
  g_autofree char *wkt = NULL;

  g_assert_true (g_file_get_contents (prj_path, &wkt, NULL, NULL));
  g_autofree char *plain = shepard_status_bar_format_position (bar, 179800.25, 330100.5);
  g_assert_cmpstr (plain, ==, "179\u2009800.25, 330\u2009100.50");
  shepard_status_bar_set_crs (bar, wkt);
  /* gdaltransform -s_srs EPSG:28992 -t_srs EPSG:4326 gives 5.740178 50.960060 for this point. */
  g_autofree char *text = shepard_status_bar_format_position (bar, 179800, 330100);
  g_assert_cmpstr (text, ==, "179\u2009800, 330\u2009100 (EPSG:28992) · 50.96006°N 5.74018°E");
  g_object_unref (widget);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  g_test_add_func ("/legend/labels", test_legend_labels);
  g_test_add_func ("/scale-bar/length", test_scale_bar_length);
  g_test_add_func ("/display-panel/controls", test_display_panel);
  g_test_add_func ("/status-bar/position", test_status_bar_position);
  return g_test_run ();
}
