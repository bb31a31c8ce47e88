/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Summation section (each control into the parameters, the engine's message, the settings, the note on a
 * weighting the far field does not cover) and what the window makes of it: a far-field preview within its promise of
 * the exact one, and the status bar's word on how the surface was summed. */
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "shepard-parameter-panel.h"
#include "shepard-summation-section.h"
#include "ui-test-support.h"

static ShepardWindow *window;

static gpointer
section_child (ShepardSummationSection *section, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (section), SHEPARD_TYPE_SUMMATION_SECTION, name);
  g_assert_nonnull (child);
  return child;
}

static ShepardSummationSection *
new_section (int *changes)
{
  ShepardSummationSection *section = g_object_ref_sink (SHEPARD_SUMMATION_SECTION (shepard_summation_section_new ()));

  g_signal_connect (section, "changed", G_CALLBACK (count_signal), changes);
  return section;
}

static void
read_params (ShepardSummationSection *section, shepard_params *params)
{
  shepard_params_init_aidw (params);
  shepard_summation_section_get_params (section, params);
}

static const char *
tolerance_text (ShepardSummationSection *section)
{
  return gtk_editable_get_text (GTK_EDITABLE (section_child (section, "tolerance_spin")));
}

static void
test_defaults (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params, engine;

  read_params (section, &params);
  shepard_params_init_aidw (&engine);
  g_assert_cmpint (params.summation, ==, engine.summation);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpfloat (params.tolerance, ==, engine.tolerance);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE);
  g_assert_cmpstr (tolerance_text (section), ==, "1e-6");
  g_assert_true (gtk_widget_get_sensitive (section_child (section, "tolerance_spin")));
  g_assert_null (shepard_summation_section_get_note (section));
  g_assert_null (shepard_summation_section_get_error (section));

  /* The schema's defaults are the engine's. */
  g_assert_cmpuint (g_settings_get_uint (settings, "summation"), ==, 0);
  g_assert_cmpfloat (g_settings_get_double (settings, "far-field-tolerance"), ==, SHEPARD_FAR_FIELD_TOLERANCE);

  /* The tooltip states the promise and where it holds, with the engine's limit on the power. */
  const char *tooltip = gtk_widget_get_tooltip_text (section_child (section, "summation_dropdown"));
  g_assert_nonnull (strstr (tooltip, "within tolerance × the field's value range"));
  g_assert_nonnull (strstr (tooltip, "powers up to 64"));
  g_assert_nonnull (strstr (tooltip, "cross-validation stay exact"));
  g_assert_cmpint (changes, ==, 0);
}

/* Each control, as the user sets it, reaches its parameter; the tolerance is off under Exact. */
static void
test_each_control (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  GtkDropDown *summation = section_child (section, "summation_dropdown");
  GtkSpinButton *tolerance = section_child (section, "tolerance_spin");
  shepard_params params;

  gtk_drop_down_set_selected (summation, 1);
  read_params (section, &params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (tolerance)));
  g_assert_cmpint (changes, ==, 1);

  gtk_drop_down_set_selected (summation, 2);
  read_params (section, &params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_true (gtk_widget_get_sensitive (GTK_WIDGET (tolerance)));
  g_assert_cmpint (changes, ==, 2);

  enter_text (tolerance, "2.5e-7");
  read_params (section, &params);
  g_assert_cmpfloat (params.tolerance, ==, 2.5e-7);
  g_assert_cmpstr (tolerance_text (section), ==, "2.5e-7");
  g_assert_cmpint (changes, ==, 3);

  /* The arrows step by decades. */
  gtk_spin_button_spin (tolerance, GTK_SPIN_STEP_FORWARD, 0);
  read_params (section, &params);
  g_assert_cmpfloat (params.tolerance, ==, 2.5e-6);
  g_assert_cmpstr (tolerance_text (section), ==, "2.5e-6");

  /* Both ends of the engine's range are taken as typed, in any notation. */
  enter_text (tolerance, "0.1");
  read_params (section, &params);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE_MAX);
  g_assert_cmpstr (tolerance_text (section), ==, "0.1");
  enter_text (tolerance, "0.00000000001");
  read_params (section, &params);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE_MIN);
  g_assert_cmpstr (tolerance_text (section), ==, "1e-11");
  g_assert_cmpint (changes, ==, 6);

  gtk_drop_down_set_selected (summation, 0);
  read_params (section, &params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE_MIN);
  /* The rest of the parameters is left as it was. */
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
}

static void
test_set_params (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  shepard_params params, read;

  shepard_params_init_idw (&params);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  params.tolerance = 1e-4;
  shepard_summation_section_set_params (section, &params);
  g_assert_cmpint (changes, ==, 1);
  g_assert_cmpuint (gtk_drop_down_get_selected (section_child (section, "summation_dropdown")), ==, 2);
  g_assert_cmpstr (tolerance_text (section), ==, "0.0001");
  read_params (section, &read);
  g_assert_cmpint (read.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpfloat (read.tolerance, ==, 1e-4);

  shepard_summation_section_set_params (section, &params);
  g_assert_cmpint (changes, ==, 1);

  params.summation = SHEPARD_SUMMATION_EXACT;
  params.tolerance = 3e-9;
  shepard_summation_section_set_params (section, &params);
  g_assert_cmpint (changes, ==, 2);
  g_assert_cmpstr (tolerance_text (section), ==, "3e-9");
  g_assert_false (gtk_widget_get_sensitive (section_child (section, "tolerance_spin")));
  read_params (section, &read);
  g_assert_cmpint (read.summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_cmpfloat (read.tolerance, ==, 3e-9);
}

/* An entry out of the engine's range keeps the last tolerance and shows the engine's own message. */
static void
test_refused_entry (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  GtkSpinButton *tolerance = section_child (section, "tolerance_spin");
  GtkWidget *error_label = section_child (section, "tolerance_error");
  shepard_params params;
  shepard_error error = { 0 };

  shepard_params_init_idw (&params);
  params.tolerance = 0.5;
  g_assert_cmpint (shepard_params_validate (&params, &error), !=, SHEPARD_OK);
  enter_text (tolerance, "0.5");
  g_assert_true (gtk_widget_get_visible (error_label));
  g_assert_true (gtk_widget_has_css_class (error_label, "error"));
  g_assert_cmpstr (shepard_summation_section_get_error (section), ==, error.message);
  g_assert_cmpstr (tolerance_text (section), ==, "1e-6");
  read_params (section, &params);
  g_assert_cmpfloat (params.tolerance, ==, 1e-6);
  g_assert_cmpint (changes, ==, 0);

  enter_text (tolerance, "tight");
  g_assert_cmpstr (shepard_summation_section_get_error (section), ==, "Tolerance: “tight” is not a number; kept 1e-6");
  g_assert_cmpint (changes, ==, 0);

  /* A tolerance taken clears the message. */
  enter_text (tolerance, "1e-3");
  g_assert_null (shepard_summation_section_get_error (section));
  g_assert_false (gtk_widget_get_visible (error_label));
  g_assert_cmpint (changes, ==, 1);
}

/* The note says why a far-field choice still sums exactly, for the weightings the far field does not cover. */
static void
test_note (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  GtkDropDown *summation = section_child (section, "summation_dropdown");
  shepard_params params;

  shepard_params_init_idw (&params);
  shepard_summation_section_show_weighting (section, &params);
  g_assert_null (shepard_summation_section_get_note (section));

  params.radius1 = params.radius2 = 400;
  shepard_summation_section_show_weighting (section, &params);
  g_assert_cmpstr (shepard_summation_section_get_note (section), ==,
                   "Exact: the far field weighs all points, without smoothing");
  GtkWidget *note = section_child (section, "exact_note");
  g_assert_true (gtk_widget_has_css_class (note, "dim-label"));
  /* The controls stay. */
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (summation)));
  g_assert_true (gtk_widget_get_sensitive (section_child (section, "tolerance_spin")));

  /* Exact needs no reason. */
  gtk_drop_down_set_selected (summation, 1);
  g_assert_null (shepard_summation_section_get_note (section));
  gtk_drop_down_set_selected (summation, 2);
  g_assert_nonnull (shepard_summation_section_get_note (section));

  params.radius1 = params.radius2 = 0;
  params.neighbors = 12;
  shepard_summation_section_show_weighting (section, &params);
  g_assert_nonnull (shepard_summation_section_get_note (section));
  params.neighbors = SHEPARD_NEIGHBORS_ALL;
  params.smoothing = 5;
  shepard_summation_section_show_weighting (section, &params);
  g_assert_nonnull (shepard_summation_section_get_note (section));
  params.smoothing = 0;
  shepard_summation_section_show_weighting (section, &params);
  g_assert_null (shepard_summation_section_get_note (section));
  /* The note is no parameter. */
  g_assert_cmpint (changes, ==, 2);
}

/* The panel carries both parameters and feeds the section its own weighting. */
static void
test_in_panel (void)
{
  g_autoptr (ShepardParameterPanel) panel = g_object_ref_sink (
    SHEPARD_PARAMETER_PANEL (shepard_parameter_panel_new ()));
  ShepardSummationSection *section = SHEPARD_SUMMATION_SECTION (
    gtk_widget_get_template_child (GTK_WIDGET (panel), SHEPARD_TYPE_PARAMETER_PANEL, "summation_section"));
  shepard_params params, read;

  shepard_params_init_aidw (&params);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  params.tolerance = 1e-5;
  params.smoothing = 2;
  shepard_parameter_panel_set_params (panel, &params);
  shepard_parameter_panel_get_params (panel, &read);
  g_assert_cmpint (read.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpfloat (read.tolerance, ==, 1e-5);
  g_assert_nonnull (shepard_summation_section_get_note (section));

  /* Reset: the engine's defaults. */
  shepard_parameter_panel_reset (panel);
  shepard_parameter_panel_get_params (panel, &read);
  g_assert_cmpint (read.summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpfloat (read.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE);
  g_assert_null (shepard_summation_section_get_note (section));
}

static void
test_bind_settings (void)
{
  int changes = 0;
  g_autoptr (ShepardSummationSection) section = new_section (&changes);
  g_autoptr (GSettings) settings = new_settings ();
  shepard_params params;

  g_settings_set_uint (settings, "summation", 2);
  g_settings_set_double (settings, "far-field-tolerance", 1e-4);
  shepard_summation_section_bind_settings (section, settings);
  g_assert_cmpint (changes, ==, 1);
  read_params (section, &params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpfloat (params.tolerance, ==, 1e-4);
  g_assert_cmpstr (tolerance_text (section), ==, "0.0001");

  enter_text (section_child (section, "tolerance_spin"), "3e-8");
  g_assert_cmpfloat (g_settings_get_double (settings, "far-field-tolerance"), ==, 3e-8);
  gtk_drop_down_set_selected (section_child (section, "summation_dropdown"), 1);
  g_assert_cmpuint (g_settings_get_uint (settings, "summation"), ==, 1);

  /* A second section bound to the same settings takes what the first left there. */
  int other_changes = 0;
  g_autoptr (ShepardSummationSection) other = new_section (&other_changes);
  shepard_summation_section_bind_settings (other, settings);
  read_params (other, &params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_cmpfloat (params.tolerance, ==, 3e-8);
  g_settings_reset (settings, "summation");
  g_settings_reset (settings, "far-field-tolerance");
}

static gboolean
is_settled_with (gpointer data)
{
  const shepard_params *params = data;
  ShepardSurface *surface = is_settled (window) ? shepard_window_get_surface (window) : NULL;

  return surface != NULL && surface->params.summation == params->summation
         && surface->params.tolerance == params->tolerance;
}

static const char *
engine_line (void)
{
  return gtk_label_get_text (window_child (window, "backend_label"));
}

/* Meuse with Far field: the preview's every cell within tolerance × the zinc range of the exact surface on the same
 * grid, and the status bar says which summation made it. */
static void
test_far_field_preview (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());
  ShepardSummationSection *section = window_child (window, "summation_section");
  shepard_params wanted;

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  ShepardDocument *document = shepard_window_get_document (window);

  enter_text (section_child (section, "tolerance_spin"), "1e-3");
  gtk_drop_down_set_selected (section_child (section, "summation_dropdown"), 2);
  shepard_params_init_aidw (&wanted);
  wanted.summation = SHEPARD_SUMMATION_FAR_FIELD;
  wanted.tolerance = 1e-3;
  g_assert_true (wait_until (is_settled_with, &wanted));
  ShepardSurface *far = shepard_window_get_surface (window);
  g_assert_cmpint (far->summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_true (g_str_has_suffix (engine_line (), " · far field (0.001)"));
  g_test_message ("status: %s", engine_line ());

  shepard_params exact_params = far->params;
  exact_params.summation = SHEPARD_SUMMATION_EXACT;
  g_autoptr (ShepardSurface) exact = interpolate_and_wait (document, &exact_params, &far->grid);
  g_assert_cmpint (exact->summation, ==, SHEPARD_SUMMATION_EXACT);
  g_autoptr (GError) error = NULL;
  g_autofree float *far_values = shepard_surface_copy_plane (far, SHEPARD_PLANE_VALUES, &error);
  g_assert_no_error (error);
  g_autofree float *exact_values = shepard_surface_copy_plane (exact, SHEPARD_PLANE_VALUES, &error);
  g_assert_no_error (error);

  double range = shepard_document_get_value_max (document) - shepard_document_get_value_min (document);
  /* Both surfaces are stored in float32: half a unit in the last place of the largest zinc value each. */
  double storage = ldexp (shepard_document_get_value_max (document), -24) * 2;
  double largest = 0.0;
  size_t cells = far->grid.width * far->grid.height;
  for (size_t i = 0; i < cells; i++)
    {
      g_assert_true (isfinite (far_values[i]) && isfinite (exact_values[i]));
      largest = fmax (largest, fabs ((double) far_values[i] - exact_values[i]));
    }
  g_test_message ("%zu cells: largest difference %.6g, promise %.6g (zinc range %.6g)", cells, largest,
                  wanted.tolerance * range, range);
  g_assert_cmpfloat (largest, <=, wanted.tolerance * range + storage);

  /* Exact: the status bar follows the new surface. */
  gtk_drop_down_set_selected (section_child (section, "summation_dropdown"), 1);
  wanted.summation = SHEPARD_SUMMATION_EXACT;
  g_assert_true (wait_until (is_settled_with, &wanted));
  g_assert_cmpint (shepard_window_get_surface (window)->summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_true (g_str_has_suffix (engine_line (), " · exact"));
  g_test_message ("status: %s", engine_line ());
  gtk_drop_down_set_selected (section_child (section, "summation_dropdown"), 0);
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

  g_test_add_func ("/ui/summation/defaults", test_defaults);
  g_test_add_func ("/ui/summation/each-control", test_each_control);
  g_test_add_func ("/ui/summation/set-params", test_set_params);
  g_test_add_func ("/ui/summation/refused-entry", test_refused_entry);
  g_test_add_func ("/ui/summation/note", test_note);
  g_test_add_func ("/ui/summation/in-panel", test_in_panel);
  g_test_add_func ("/ui/summation/bind-settings", test_bind_settings);
  g_test_add_func ("/ui/summation/far-field-preview", test_far_field_preview);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
