/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the window keeps and follows beyond one picture: remembered settings, a cancelled export, dropped files, the
 * desktop's dark style, an empty window, refused parameters, the reset and the status line. The window belongs to a registered ShepardApplication, as when the app runs, so that the
 * application's style sheet and its colour-scheme follower are in place. */
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <string.h>

#include "shepard-application.h"
#include "shepard-cv-panel.h"
#include "shepard-export-dialog.h"
#include "shepard-window.h"
#include "ui-test-support.h"

static ShepardApplication *application;

static ShepardWindow *
new_window (void)
{
  ShepardWindow *window = shepard_window_new (GTK_APPLICATION (application));
  gtk_window_present (GTK_WINDOW (window));
  return window;
}

static ShepardWindow *
new_window_with_meuse (void)
{
  ShepardWindow *window = new_window ();
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  g_assert_null (shepard_window_get_message (window));
  return window;
}

/* As the window manager's close button does: the window saves its size, then goes. */
static void
close_window (ShepardWindow *window)
{
  gtk_window_close (GTK_WINDOW (window));
  let_frames_pass (100);
}

/* A button the template does not name to code, found by its label as a person finds it. */
static GtkWidget *
find_button (GtkWidget *widget, const char *label)
{
  if (GTK_IS_BUTTON (widget) && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_button (child, label);
      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
test_settings_remembered (void)
{
  ShepardWindow *window = new_window ();
  static const double alphas[SHEPARD_AIDW_LEVELS] = { 0.5, 1.25, 2.75, 4, 5.5 };
  char name[16];

  /* AIDW's own inputs first, while they are sensitive; then the method, so both kinds of value travel. */
  gtk_spin_button_set_value (window_child (window, "k_spin"), 9);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      g_snprintf (name, sizeof name, "alpha%d_scale", i + 1);
      gtk_range_set_value (window_child (window, name), alphas[i]);
    }
  gtk_drop_down_set_selected (window_child (window, "method_dropdown"), 0);
  gtk_spin_button_set_value (window_child (window, "power_spin"), 3.5);
  gtk_drop_down_set_selected (window_child (window, "ramp_dropdown"), 2);
  gtk_switch_set_active (window_child (window, "hillshade_switch"), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (window), 900, 640);
  let_frames_pass (200);
  close_window (window);

  window = new_window ();
  shepard_params params;
  shepard_window_get_params (window, &params);
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (params.power, ==, 3.5);
  g_assert_cmpuint (gtk_drop_down_get_selected (window_child (window, "method_dropdown")), ==, 0);
  g_assert_cmpfloat (gtk_spin_button_get_value (window_child (window, "k_spin")), ==, 9);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      g_snprintf (name, sizeof name, "alpha%d_scale", i + 1);
      g_assert_cmpfloat (gtk_range_get_value (window_child (window, name)), ==, alphas[i]);
    }
  g_assert_cmpint (shepard_window_get_ramp (window), ==, 2);
  g_assert_true (gtk_switch_get_active (window_child (window, "hillshade_switch")));
  int width, height;
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_test_message ("remembered size %d × %d", width, height);
  g_assert_cmpint (width, ==, 900);
  g_assert_cmpint (height, ==, 640);

  /* Back to the defaults the other tests expect. */
  gtk_drop_down_set_selected (window_child (window, "method_dropdown"), 1);
  gtk_drop_down_set_selected (window_child (window, "ramp_dropdown"), 0);
  gtk_switch_set_active (window_child (window, "hillshade_switch"), FALSE);
  gtk_window_set_default_size (GTK_WINDOW (window), 1180, 760);
  close_window (window);
}

typedef struct {
  GtkProgressBar *progress;
  int *state;
} ExportWatch;

static gboolean
has_progressed (gpointer data)
{
  ExportWatch *watch = data;
  return *watch->state != 0 || gtk_progress_bar_get_fraction (watch->progress) > 0;
}

static void
test_export_cancel (void)
{
  ShepardWindow *window = new_window_with_meuse ();
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "zinc.tif", NULL);
  static const char existing[] = "an earlier raster the cancelled export must not touch\n";
  shepard_params params;
  int state = 0;

  g_assert_true (g_file_set_contents (path, existing, sizeof existing - 1, NULL));
  shepard_params_init_aidw (&params);
  params.neighbors = SHEPARD_NEIGHBORS_ALL;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));

  /* 25 million cells, each weighing all 155 points: seconds of work, time enough to cancel part-way. */
  ShepardExportDialog *dialog = g_object_ref (shepard_window_new_export_dialog (window));
  GtkProgressBar *progress = dialog_child (dialog, "progress_bar");
  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "width_spin"), 5000);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), 5000);
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (progress)));
  g_assert_false (gtk_widget_get_sensitive (dialog_child (dialog, "export_button")));

  ExportWatch watch = { progress, &state };
  g_assert_true (wait_until (has_progressed, &watch));
  g_test_message ("cancelling at %.0f %%: %s", gtk_progress_bar_get_fraction (progress) * 100,
                  gtk_progress_bar_get_text (progress));
  g_assert_cmpint (state, ==, 0);
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (progress), <, 1);
  gint64 cancelled_at = g_get_monotonic_time ();
  GtkWidget *cancel = find_button (GTK_WIDGET (dialog), "_Cancel");
  g_assert_nonnull (cancel);
  g_assert_true (gtk_widget_get_sensitive (cancel));
  g_signal_emit_by_name (cancel, "clicked");
  g_assert_true (wait_until (is_nonzero, &state));
  g_test_message ("stopped %.2f s after Cancel", (g_get_monotonic_time () - cancelled_at) / 1e6);
  g_assert_cmpint (state, ==, 2);
  GtkLabel *error_label = dialog_child (dialog, "error_label");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (error_label)));
  g_assert_nonnull (strstr (gtk_label_get_text (error_label), "cancelled"));
  /* Still open, ready to start again. */
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (progress)));
  g_assert_true (gtk_widget_get_sensitive (dialog_child (dialog, "export_button")));

  /* The file that was there is untouched and nothing else is left in the folder: no temporary directory. */
  g_autofree char *contents = NULL;
  gsize length;
  g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
  g_assert_cmpmem (contents, length, existing, sizeof existing - 1);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  g_assert_nonnull (dir);
  const char *entry;
  int entries = 0;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_test_message ("left in the folder: %s", entry);
      g_assert_cmpstr (entry, ==, "zinc.tif");
      entries++;
    }
  g_assert_cmpint (entries, ==, 1);

  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);

  /* The window still computes. */
  shepard_window_get_params (window, &params);
  params.power = 3;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  g_assert_cmpfloat (shepard_window_get_surface (window)->params.power, ==, 3);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  close_window (window);
}

static gboolean
drop_file (ShepardWindow *window, const char *path)
{
  g_autoptr (GFile) file = g_file_new_for_path (path);
  GValue value = G_VALUE_INIT;
  gboolean accepted = FALSE;

  g_value_init (&value, G_TYPE_FILE);
  g_value_set_object (&value, file);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (window), GTK_TYPE_DROP_TARGET), "drop", &value, 300.0, 200.0,
                         &accepted);
  g_value_unset (&value);
  return accepted;
}

static void
test_drop_opens (void)
{
  ShepardWindow *window = new_window ();
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-XXXXXX", NULL);
  g_autofree char *broken = g_build_filename (folder, "dropped.gpkg", NULL);

  g_assert_null (shepard_window_get_document (window));
  g_assert_true (drop_file (window, meuse_path ()));
  g_assert_true (wait_until (is_settled, window));
  g_assert_null (shepard_window_get_message (window));
  ShepardDocument *document = shepard_window_get_document (window);
  g_assert_nonnull (document);
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 155);

  g_assert_true (g_file_set_contents (broken, "this is not a GeoPackage\n", -1, NULL));
  g_assert_true (drop_file (window, broken));
  g_assert_true (wait_until (has_message, window));
  g_test_message ("message: %s", shepard_window_get_message (window));
  g_assert_nonnull (strstr (shepard_window_get_message (window), "dropped.gpkg"));
  g_assert_true (shepard_window_get_document (window) == document);
  g_assert_nonnull (shepard_window_get_surface (window));

  g_assert_cmpint (g_remove (broken), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
  close_window (window);
}

static double
luminance (const GdkRGBA *color)
{
  return 0.2126 * color->red + 0.7152 * color->green + 0.0722 * color->blue;
}

/* The map view's background as the application's style sheet paints it: the theme's base colour. */
static double
map_background_luminance (ShepardWindow *window)
{
  GdkRGBA color;

  let_frames_pass (200);
  g_assert_true (gtk_style_context_lookup_color (gtk_widget_get_style_context (
                                                   GTK_WIDGET (shepard_window_get_map_view (window))),
                                                 "theme_base_color", &color));
  return luminance (&color);
}

static void
test_follows_dark_style (void)
{
  g_autoptr (GSettingsSchema) schema = g_settings_schema_source_lookup (g_settings_schema_source_get_default (),
                                                                        "org.gnome.desktop.interface", TRUE);
  if (schema == NULL || !g_settings_schema_has_key (schema, "color-scheme"))
    {
      g_test_skip ("org.gnome.desktop.interface has no color-scheme key here");
      return;
    }
  g_autoptr (GSettings) interface = g_settings_new_full (schema, NULL, NULL);
  ShepardWindow *window = new_window ();
  gboolean dark;

  g_settings_set_string (interface, "color-scheme", "prefer-dark");
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_true (dark);
  double dark_luminance = map_background_luminance (window);

  g_settings_set_string (interface, "color-scheme", "default");
  g_object_get (gtk_settings_get_default (), "gtk-application-prefer-dark-theme", &dark, NULL);
  g_assert_false (dark);
  double light_luminance = map_background_luminance (window);
  g_test_message ("map background luminance: dark %.3f, light %.3f", dark_luminance, light_luminance);
  g_assert_cmpfloat (dark_luminance, <, 0.35);
  g_assert_cmpfloat (light_luminance, >, 0.65);
  close_window (window);
}

static GtkWidget *
export_button (ShepardWindow *window)
{
  GtkWidget *button = find_button (gtk_window_get_titlebar (GTK_WINDOW (window)), "_Export…");
  g_assert_nonnull (button);
  return button;
}

static guint
count_toplevels (void)
{
  return g_list_model_get_n_items (gtk_window_get_toplevels ());
}

/* With no layer open, Export… is greyed out, and neither its key nor its button opens anything. */
static void
test_empty_window_cannot_export (void)
{
  ShepardWindow *window = new_window ();
  let_frames_pass (100);
  guint toplevels = count_toplevels ();

  g_assert_false (gtk_widget_get_sensitive (export_button (window)));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.export", NULL);
  let_frames_pass (100);
  g_assert_cmpuint (count_toplevels (), ==, toplevels);
  close_window (window);
}

static gboolean
stale_label_visible (ShepardWindow *window)
{
  return gtk_widget_get_visible (window_child (window, "stale_label"));
}

/* Parameters the engine refuses (Rmin above Rmax) leave the last surface dimmed under an "Out of date" notice, with
 * Export… greyed out, until they are valid again. */
static void
test_invalid_parameters_mark_stale (void)
{
  ShepardWindow *window = new_window_with_meuse ();
  ShepardMapView *view = shepard_window_get_map_view (window);
  /* Held, so that a new surface cannot take its address and pass for it. */
  g_autoptr (ShepardSurface) shown = shepard_surface_ref (shepard_window_get_surface (window));
  shepard_params params;

  g_assert_false (stale_label_visible (window));
  g_assert_true (gtk_widget_get_sensitive (export_button (window)));
  shepard_window_get_params (window, &params);
  params.r_min = 2.5;
  params.r_max = 1.5;
  shepard_window_set_params (window, &params);
  let_frames_pass (300);
  g_assert_true (stale_label_visible (window));
  const char *notice = gtk_label_get_text (window_child (window, "stale_label"));
  g_test_message ("%s", notice);
  g_assert_true (g_str_has_prefix (notice, "Out of date: "));
  g_assert_nonnull (strstr (notice, "Rmin"));
  g_assert_cmpfloat (gtk_widget_get_opacity (GTK_WIDGET (view)), <, 0.5);
  g_assert_false (gtk_widget_get_sensitive (export_button (window)));
  g_assert_true (shepard_window_get_surface (window) == shown);
  g_assert_false (shepard_window_is_busy (window));

  params.r_min = 0.0;
  params.r_max = 2.0;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
  g_assert_false (stale_label_visible (window));
  g_assert_cmpfloat (gtk_widget_get_opacity (GTK_WIDGET (view)), ==, 1.0);
  g_assert_true (gtk_widget_get_sensitive (export_button (window)));
  close_window (window);
}

/* The menu's "Reset Parameters to Defaults": the papers' AIDW over all points, and the default preview. */
static void
test_reset_parameters (void)
{
  ShepardWindow *window = new_window_with_meuse ();
  shepard_params params, defaults;

  shepard_window_get_params (window, &params);
  params.k = 7;
  params.alpha[2] = 0.5;
  params.r_max = 3.0;
  params.neighbors = 12;
  shepard_window_set_params (window, &params);
  gtk_spin_button_set_value (window_child (window, "preview_cells_spin"), 640);
  g_assert_true (wait_until (is_settled, window));

  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.reset-parameters", NULL));
  g_assert_true (wait_until (is_settled, window));
  shepard_window_get_params (window, &params);
  shepard_params_init_aidw (&defaults);
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (params.k, ==, defaults.k);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    g_assert_cmpfloat (params.alpha[i], ==, defaults.alpha[i]);
  g_assert_cmpfloat (params.r_min, ==, defaults.r_min);
  g_assert_cmpfloat (params.r_max, ==, defaults.r_max);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpfloat (gtk_spin_button_get_value (window_child (window, "preview_cells_spin")), ==, 384);
  /* The surface follows. */
  ShepardSurface *surface = shepard_window_get_surface (window);
  g_assert_cmpfloat (surface->params.alpha[2], ==, defaults.alpha[2]);
  g_assert_cmpuint (MAX (surface->grid.width, surface->grid.height), ==, 384);
  close_window (window);
}

/* The status bar names the engine in a few words; why it is not on the GPU goes in the tooltip, not the line. */
static void
test_status_bar_is_short (void)
{
  ShepardWindow *window = new_window_with_meuse ();
  ShepardDocument *document = shepard_window_get_document (window);
  GtkLabel *engine = window_child (window, "backend_label");
  const char *fallback = shepard_document_get_engine_fallback_reason (document);
  const char *tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (engine));

  g_test_message ("line: %s; tooltip: %s", gtk_label_get_text (engine), tooltip);
  if (shepard_document_get_cuda_device (document) < 0)
    {
      /* Then how the surface shown was summed: meuse's 155 points cost least pair by pair. */
      g_autofree char *expected = g_strdup_printf ("Engine: %s · exact", shepard_document_get_engine_name (document));
      g_assert_cmpstr (gtk_label_get_text (engine), ==, expected);
    }
  g_assert_cmpuint (strlen (gtk_label_get_text (engine)), <, 90);
  if (fallback == NULL)
    g_assert_null (tooltip);
  else
    {
      g_assert_null (strstr (gtk_label_get_text (engine), fallback));
      g_assert_nonnull (tooltip);
      g_assert_nonnull (strstr (tooltip, fallback));
    }
  close_window (window);
}

static double
x_in_window (ShepardWindow *window, const char *name)
{
  graphene_point_t point;

  g_assert_true (gtk_widget_compute_point (window_child (window, name), GTK_WIDGET (window),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  return point.x;
}

/* The layer, method and display sections are separate grids; their value columns still start at one x. */
static void
test_side_panel_columns_line_up (void)
{
  ShepardWindow *window = new_window_with_meuse ();
  double field = x_in_window (window, "field_dropdown");

  g_test_message ("value column at x %.0f", field);
  g_assert_cmpfloat (x_in_window (window, "method_dropdown"), ==, field);
  g_assert_cmpfloat (x_in_window (window, "ramp_dropdown"), ==, field);
  close_window (window);
}

static gboolean
has_document (gpointer data)
{
  return shepard_window_get_document (data) != NULL;
}

/* Is the window's busy sign showing: the spinner, or the still sign of a CPU engine. */
static gboolean
busy_sign_shown (gpointer data)
{
  ShepardWindow *window = data;
  return gtk_widget_get_visible (window_child (window, "busy_spinner"))
         || gtk_widget_get_visible (window_child (window, "busy_still"));
}

static gboolean
cross_validation_started (gpointer data)
{
  return *(guint *) data > 0;
}

/* At each start and end of a leave-one-out: the cross-validation panel's sign as the window has just set it, spinning
 * only where the document's engine is a GPU's. */
static void
check_cv_sign (ShepardInstruments *instruments, GParamSpec *pspec, gpointer data)
{
  ShepardWindow *window = data;
  ShepardCvPanel *panel = window_child (window, "cv_panel");
  GtkSpinner *spinner = GTK_SPINNER (gtk_widget_get_template_child (GTK_WIDGET (panel), SHEPARD_TYPE_CV_PANEL,
                                                                     "spinner"));
  GtkWidget *still = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (panel), SHEPARD_TYPE_CV_PANEL,
                                                                "running_still"));
  gboolean running = shepard_instruments_get_cross_validating (instruments);
  gboolean cpu = shepard_document_get_cuda_device (shepard_window_get_document (window)) < 0;
  g_assert_true (gtk_widget_get_visible (still) == (running && cpu));
  g_assert_true (gtk_spinner_get_spinning (spinner) == (running && !cpu));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (spinner)) == (running && !cpu));
  if (running)
    {
      guint *starts = g_object_get_data (G_OBJECT (window), "cv-starts");
      (*starts)++;
      g_test_message ("a leave-one-out runs on %s: the panel's sign %s", cpu ? "the CPU" : "a GPU",
                      cpu ? "stands still" : "spins");
    }
}

/* Work that outlasts the busy sign's delay (reading 300K points, then their first grids) shows the sign. While the
 * layer is read, or where the engine is the CPU's, the sign stands still, since every frame a spinner asks for takes
 * the cores the work runs on; while a GPU computes, it spins. Either goes once the window is idle. So does the
 * cross-validation panel's sign while a leave-one-out runs. */
static void
test_busy_sign_spares_the_cpu (void)
{
  g_autofree char *folder = g_dir_make_tmp ("shepard-busy-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "many.csv", NULL);
  g_autoptr (GString) text = g_string_new ("x,y,v\n");
  for (int i = 0; i < 300000; i++)
    g_string_append_printf (text, "%d,%d,%d\n", i % 1000, (int) ((gint64) i * 104729 % 997), i % 101);
  g_assert_true (g_file_set_contents (path, text->str, (gssize) text->len, NULL));
  ShepardWindow *window = new_window ();
  g_autoptr (GFile) file = g_file_new_for_path (path);
  guint cv_starts = 0;
  g_object_set_data (G_OBJECT (window), "cv-starts", &cv_starts);
  /* after the window's own handler, which sets the sign */
  gulong cv_handler = g_signal_connect (shepard_window_get_instruments (window), "notify::cross-validating",
                                        G_CALLBACK (check_cv_sign), window);

  shepard_window_open (window, file, "v");
  g_assert_true (wait_until (busy_sign_shown, window));
  g_assert_true (shepard_window_is_busy (window));
  GtkSpinner *spinner = window_child (window, "busy_spinner");
  GtkWidget *still = window_child (window, "busy_still");
  /* no document while the layer is read: that is the CPU's work */
  ShepardDocument *document = shepard_window_get_document (window);
  gboolean cpu = document == NULL || shepard_document_get_cuda_device (document) < 0;
  g_test_message ("the sign shows while %s", document == NULL ? "the layer is read" : cpu ? "the CPU computes"
                                                                                           : "a GPU computes");
  g_assert_true (gtk_widget_get_visible (still) == cpu);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (spinner)) == !cpu);
  g_assert_true (gtk_spinner_get_spinning (spinner) == !cpu);
  g_autoptr (GdkTexture) texture = capture_window (window);
  g_autofree char *png = screenshot_path ("busy-sign.png");
  g_assert_true (gdk_texture_save_to_png (texture, png));

  /* the layer read, its grids computed: the sign follows the engine */
  g_assert_true (wait_until (has_document, window));
  if (busy_sign_shown (window))
    {
      cpu = shepard_document_get_cuda_device (shepard_window_get_document (window)) < 0;
      g_assert_true (gtk_widget_get_visible (still) == cpu);
      g_assert_true (gtk_spinner_get_spinning (spinner) == !cpu);
    }

  g_assert_true (wait_until (is_settled, window));
  g_assert_false (gtk_widget_get_visible (still));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (spinner)));
  g_assert_false (gtk_spinner_get_spinning (spinner));
  /* The layer's leave-one-out, over all of its 300K points, takes a minute on 2 cores and many under a sanitizer: its
   * start is enough. Turned off, it ends there, and its sign goes (check_cv_sign). */
  ShepardInstruments *instruments = shepard_window_get_instruments (window);
  g_assert_true (wait_until (cross_validation_started, &cv_starts));
  shepard_instruments_set_cross_validation_enabled (instruments, FALSE);
  g_assert_false (shepard_instruments_get_cross_validating (instruments));
  g_test_message ("%u leave-one-out runs started", cv_starts);
  g_signal_handler_disconnect (instruments, cv_handler);
  close_window (window);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

int
main (int argc, char *argv[])
{
  g_autoptr (GError) error = NULL;

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  /* Registered as the app does at start-up (its startup handler runs), but not unique: tests need no session bus. */
  application = shepard_application_new ();
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (application), NULL, &error))
    g_error ("cannot register the application: %s", error->message);

  g_test_add_func ("/ui/state/settings-remembered", test_settings_remembered);
  g_test_add_func ("/ui/state/export-cancel", test_export_cancel);
  g_test_add_func ("/ui/state/drop-opens", test_drop_opens);
  g_test_add_func ("/ui/state/follows-dark-style", test_follows_dark_style);
  g_test_add_func ("/ui/state/empty-window-cannot-export", test_empty_window_cannot_export);
  g_test_add_func ("/ui/state/invalid-parameters-mark-stale", test_invalid_parameters_mark_stale);
  g_test_add_func ("/ui/state/reset-parameters", test_reset_parameters);
  g_test_add_func ("/ui/state/status-bar-is-short", test_status_bar_is_short);
  g_test_add_func ("/ui/state/side-panel-columns-line-up", test_side_panel_columns_line_up);
  g_test_add_func ("/ui/state/busy-sign-spares-the-cpu", test_busy_sign_spares_the_cpu);
  int status = g_test_run ();
  g_object_unref (application);
  return status;
}
