/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Preferences: the GPUs group without a GPU (its note, no input) and with three named ones (the key "gpus" written as
 * the checks change and followed when it changes elsewhere, the last GPU kept), and the window's part: Ctrl+comma
 * opens the dialog, and a new choice makes the document's engine again on those GPUs (here: the CPU, saying why),
 * with the status bar and the preview following it. Screenshots for a look by eye go to the build tree. */
#include "shepard-preferences-dialog.h"
#include "shepard-status-bar.h"
#include "ui-test-support.h"

static gpointer
preferences_child (ShepardPreferencesDialog *dialog, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (dialog), SHEPARD_TYPE_PREFERENCES_DIALOG, name);
  g_assert_nonnull (child);
  return child;
}

/* The check of each GPU, in gpu_list's order. */
static GtkCheckButton *
gpu_check (ShepardPreferencesDialog *dialog, guint ordinal)
{
  GtkWidget *check = gtk_widget_get_first_child (preferences_child (dialog, "gpu_list"));

  for (guint i = 0; i < ordinal && check != NULL; i++)
    check = gtk_widget_get_next_sibling (check);
  g_assert_true (GTK_IS_CHECK_BUTTON (check));
  return GTK_CHECK_BUTTON (check);
}

static void
save_screenshot (GtkWidget *widget, const char *name)
{
  /* Drawn once it has been laid out: wait for its size. */
  g_assert_true (wait_until ((Condition) gtk_widget_get_mapped, widget));
  let_frames_pass (200);
  g_autoptr (GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  g_autoptr (GskRenderNode) node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  g_autoptr (GdkTexture) texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (widget)), node,
                                                                NULL);
  g_autofree char *png = screenshot_path (name);
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("screenshot: %s", png);
}

static void
assert_key (GSettings *settings, const char *expected)
{
  g_autofree char *gpus = g_settings_get_string (settings, "gpus");
  g_assert_cmpstr (gpus, ==, expected);
}

static void
test_no_gpu (void)
{
  g_autoptr (GSettings) settings = new_settings ();
  g_settings_reset (settings, "gpus");
  ShepardPreferencesDialog *dialog = shepard_preferences_dialog_new (NULL, settings, NULL);

  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_cmpstr (gtk_label_get_text (preferences_child (dialog, "gpus_note")), ==,
                   "No CUDA GPU found: Shepard runs on the CPU.");
  g_assert_false (gtk_widget_is_sensitive (preferences_child (dialog, "all_gpus_check")));
  g_assert_true (gtk_check_button_get_active (preferences_child (dialog, "all_gpus_check")));
  g_assert_null (gtk_widget_get_first_child (preferences_child (dialog, "gpu_list")));
  save_screenshot (GTK_WIDGET (dialog), "preferences-no-gpu.png");
  assert_key (settings, "all");
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static void
assert_checks (ShepardPreferencesDialog *dialog, gboolean all, const gboolean active[3], const gboolean sensitive[3])
{
  g_assert_cmpint (gtk_check_button_get_active (preferences_child (dialog, "all_gpus_check")), ==, all);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpint (gtk_check_button_get_active (gpu_check (dialog, i)), ==, active[i]);
      g_assert_cmpint (gtk_widget_get_sensitive (GTK_WIDGET (gpu_check (dialog, i))), ==, sensitive[i]);
    }
}

static void
test_choice (void)
{
  const char *const names[] = { "Test GPU A (sm_90, 132 SMs)", "Test GPU B (sm_90, 132 SMs)",
                                "Test GPU C (sm_89, 76 SMs)", NULL };
  g_autoptr (GSettings) settings = new_settings ();
  g_settings_reset (settings, "gpus");
  ShepardPreferencesDialog *dialog = shepard_preferences_dialog_new (NULL, settings, names);

  gtk_window_present (GTK_WINDOW (dialog));
  g_assert_true (gtk_widget_is_sensitive (preferences_child (dialog, "all_gpus_check")));
  g_assert_cmpstr (gtk_check_button_get_label (gpu_check (dialog, 1)), ==, "GPU 1: Test GPU B (sm_90, 132 SMs)");
  assert_checks (dialog, TRUE, (gboolean[]) { TRUE, TRUE, TRUE }, (gboolean[]) { FALSE, FALSE, FALSE });

  gtk_check_button_set_active (preferences_child (dialog, "all_gpus_check"), FALSE);
  assert_key (settings, "0,1,2");
  assert_checks (dialog, FALSE, (gboolean[]) { TRUE, TRUE, TRUE }, (gboolean[]) { TRUE, TRUE, TRUE });
  gtk_check_button_set_active (gpu_check (dialog, 1), FALSE);
  assert_key (settings, "0,2");
  save_screenshot (GTK_WIDGET (dialog), "preferences-gpus.png");
  gtk_check_button_set_active (gpu_check (dialog, 2), FALSE);
  assert_key (settings, "0");
  /* The last one checked cannot go. */
  assert_checks (dialog, FALSE, (gboolean[]) { TRUE, FALSE, FALSE }, (gboolean[]) { FALSE, TRUE, TRUE });

  /* Changed elsewhere (another window's dialog, gsettings): the checks follow. */
  g_settings_set_string (settings, "gpus", "2,1");
  let_frames_pass (50);
  assert_checks (dialog, FALSE, (gboolean[]) { FALSE, TRUE, TRUE }, (gboolean[]) { TRUE, TRUE, TRUE });
  gtk_check_button_set_active (preferences_child (dialog, "all_gpus_check"), TRUE);
  assert_key (settings, "all");
  assert_checks (dialog, TRUE, (gboolean[]) { TRUE, TRUE, TRUE }, (gboolean[]) { FALSE, FALSE, FALSE });
  gtk_window_destroy (GTK_WINDOW (dialog));
}

static ShepardPreferencesDialog *
find_preferences (GtkWindow *parent)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr (GtkWindow) window = g_list_model_get_item (toplevels, i);
      if (SHEPARD_IS_PREFERENCES_DIALOG (window) && gtk_window_get_transient_for (window) == parent)
        return SHEPARD_PREFERENCES_DIALOG (window);
    }
  return NULL;
}

typedef struct {
  ShepardWindow *window;
  const char *gpus;
  ShepardSurface *before; /* the surface shown before the change: the preview starts afresh after it */
} EngineChange;

static gboolean
engine_changed (gpointer data)
{
  EngineChange *change = data;
  g_autofree char *gpus = shepard_document_get_gpus (shepard_window_get_document (change->window));
  return g_strcmp0 (gpus, change->gpus) == 0 && is_settled (change->window)
         && shepard_window_get_surface (change->window) != change->before;
}

static void
test_window (void)
{
  g_autoptr (GSettings) settings = new_settings ();
  g_settings_reset (settings, "gpus");
  ShepardWindow *window = present_test_window ();
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  ShepardDocument *document = shepard_window_get_document (window);
  g_autofree char *loaded_on = shepard_document_get_gpus (document);
  g_assert_cmpstr (loaded_on, ==, "all");
  ShepardSurface *before = shepard_surface_ref (shepard_window_get_surface (window));

  press_keys (GTK_WIDGET (window), GDK_KEY_comma, GDK_CONTROL_MASK);
  ShepardPreferencesDialog *dialog = find_preferences (GTK_WINDOW (window));
  g_assert_nonnull (dialog);
  g_assert_true (gtk_window_get_modal (GTK_WINDOW (dialog)));

  /* On GPU 0, which this machine may not have: the engine then runs on the CPU and says why. */
  g_settings_set_string (settings, "gpus", "0");
  g_assert_true (wait_until (engine_changed, &(EngineChange) { window, "0", before }));
  g_assert_true (shepard_window_get_document (window) == document);
  shepard_gpu_set first = { .count = 1, .ordinals = { 0 } };
  shepard_error error = { 0 };
  shepard_engine *expected = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &first,
                                                         &error);
  g_assert_cmpstr (shepard_document_get_backend (document), ==, shepard_engine_describe (expected));
  g_assert_cmpstr (shepard_document_get_engine_fallback_reason (document), ==,
                   shepard_engine_fallback_reason (expected));
  GtkLabel *engine_label = GTK_LABEL (gtk_widget_get_template_child (window_child (window, "status_bar"),
                                                                     SHEPARD_TYPE_STATUS_BAR, "backend_label"));
  g_autofree char *engine_line = g_strdup_printf ("Engine: %s", shepard_document_get_engine_name (document));
  g_test_message ("%s; tooltip: %s", gtk_label_get_text (engine_label),
                  gtk_widget_get_tooltip_text (GTK_WIDGET (engine_label)));
  g_assert_true (g_str_has_prefix (gtk_label_get_text (engine_label), engine_line));
  if (shepard_engine_fallback_reason (expected) != NULL)
    g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (engine_label)),
                              shepard_engine_fallback_reason (expected)));
  shepard_engine_free (expected);

  /* The preview went on over the same points; on the CPU both engines compute the same cells. Held, so that the
   * next surface cannot take its address and pass for it (the wait below compares addresses). */
  ShepardSurface *after = shepard_surface_ref (shepard_window_get_surface (window));
  g_assert_cmpuint (after->grid.width, ==, before->grid.width);
  g_assert_cmpuint (after->grid.height, ==, before->grid.height);
  if (shepard_gpu_count () == 0)
    g_assert_cmpmem (after->values, sizeof (float) * after->grid.width * after->grid.height, before->values,
                     sizeof (float) * before->grid.width * before->grid.height);
  shepard_surface_unref (before);
  save_screenshot (GTK_WIDGET (dialog), "preferences-window.png");

  gtk_check_button_set_active (preferences_child (dialog, "all_gpus_check"), TRUE);
  g_assert_true (wait_until (engine_changed, &(EngineChange) { window, "all", after }));
  shepard_surface_unref (after);
  gtk_window_destroy (GTK_WINDOW (dialog));
  gtk_window_destroy (GTK_WINDOW (window));
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
  g_test_add_func ("/ui/preferences/no-gpu", test_no_gpu);
  g_test_add_func ("/ui/preferences/choice", test_choice);
  g_test_add_func ("/ui/preferences/window", test_window);
  return g_test_run ();
}
