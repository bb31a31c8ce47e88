/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The export dialog on meuse: its default extent is the points' bounding box (as shepard-grid's), a margin is an
 * explicit choice, creation options are checked as they are typed, the raster carries nodata, GeoTIFF's default
 * layout and where it comes from, the choices are remembered, and a cancel is no error. */
#include <gdal.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "method-spec.h"
#include "point-layer.h"
#include "shepard-application.h"
#include "shepard-export-dialog.h"
#include "shepard-window.h"
#include "ui-test-support.h"

/* The bounding box of data/meuse.csv, read off the file by hand. */
#define MEUSE_X_MIN 178605.0
#define MEUSE_X_MAX 181390.0
#define MEUSE_Y_MIN 329714.0
#define MEUSE_Y_MAX 333611.0

static ShepardApplication *application;
static ShepardWindow *window;

static char *
scratch_folder (void)
{
  char *folder = g_dir_make_tmp ("shepard-export-XXXXXX", NULL);

  g_assert_nonnull (folder);
  return folder;
}

static void
remove_folder (const char *folder)
{
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *entry;

  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (folder, entry, NULL);
      g_assert_cmpint (g_remove (path), ==, 0);
    }
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

static gboolean
export_to (ShepardExportDialog *dialog, const char *path)
{
  int state = 0;

  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  g_assert_true (wait_until (is_nonzero, &state));
  return state == 1;
}

static void
use_cells (ShepardExportDialog *dialog, int width, int height)
{
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "width_spin"), width);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), height);
}

static void
assert_geotransform (GDALDatasetH dataset, const double expected[6])
{
  double geotransform[6];

  g_assert_cmpint (GDALGetGeoTransform (dataset, geotransform), ==, CE_None);
  for (int i = 0; i < 6; i++)
    assert_near (geotransform[i], expected[i], 1e-9 * MAX (1, fabs (expected[i])));
}

/* A new dialog writes where the user keeps documents (or home), never beside the input by default. */
static void
test_default_folder (void)
{
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  const char *path = gtk_editable_get_text (GTK_EDITABLE (dialog_child (dialog, "path_entry")));
  const char *documents = g_get_user_special_dir (G_USER_DIRECTORY_DOCUMENTS);
  g_autofree char *folder = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);

  if (documents != NULL && g_file_test (documents, G_FILE_TEST_IS_DIR))
    g_assert_cmpstr (folder, ==, documents);
  else
    g_assert_cmpstr (folder, ==, g_get_home_dir ());
  g_assert_cmpstr (name, ==, "meuse-zinc-aidw.tif");
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

/* The default extent is the points' bounding box, as shepard-grid's (tests/cli checks that one against the same
 * file); the raster has nodata, GeoTIFF's tiled DEFLATE layout and metadata whose method parses back to the
 * window's parameters. */
static void
test_default_extent_and_raster (void)
{
  g_autofree char *folder = scratch_folder ();
  g_autofree char *path = g_build_filename (folder, "default.tif", NULL);
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  GtkLabel *size_label = dialog_child (dialog, "size_label");

  g_assert_cmpuint (gtk_drop_down_get_selected (dialog_child (dialog, "extent_dropdown")), ==, 0);
  g_assert_cmpfloat (gtk_spin_button_get_value (dialog_child (dialog, "margin_spin")), ==, 0);
  assert_near (gtk_spin_button_get_value (dialog_child (dialog, "x_min_spin")), MEUSE_X_MIN, 1e-9);
  assert_near (gtk_spin_button_get_value (dialog_child (dialog, "y_max_spin")), MEUSE_Y_MAX, 1e-9);
  use_cells (dialog, 50, 60);
  g_test_message ("size: %s", gtk_label_get_text (size_label));
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "x 178605 to 181390, y 329714 to 333611"));
  g_assert_true (export_to (dialog, path));
  g_object_unref (dialog);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  assert_geotransform (dataset, (double[6]) { MEUSE_X_MIN, (MEUSE_X_MAX - MEUSE_X_MIN) / 50, 0, MEUSE_Y_MAX, 0,
                                              -(MEUSE_Y_MAX - MEUSE_Y_MIN) / 60 });
  int has_nodata = FALSE, block_width = 0, block_height = 0;
  g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, 1), &has_nodata), ==, -9999.0);
  g_assert_true (has_nodata);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, "DEFLATE");
  GDALGetBlockSize (GDALGetRasterBand (dataset, 1), &block_width, &block_height);
  g_assert_cmpint (block_width, ==, 256);
  g_assert_cmpint (block_height, ==, 256);

  g_autofree char *source = g_canonicalize_filename (meuse_path (), NULL);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_SOURCE", NULL), ==, source);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_LAYER", NULL), ==, "meuse");
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_FIELD", NULL), ==, "zinc");
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "SHEPARD_POINTS", NULL), ==, "155");
  const char *engine = GDALGetMetadataItem (dataset, "SHEPARD_ENGINE", NULL);
  g_assert_true (g_strcmp0 (engine, "cpu float32") == 0 || g_strcmp0 (engine, "cuda float32") == 0);
  g_assert_nonnull (GDALGetMetadataItem (dataset, "SHEPARD_VERSION", NULL));
  shepard_params window_params, parsed;
  g_autoptr (GError) error = NULL;
  shepard_window_get_params (window, &window_params);
  g_assert_true (shepard_method_spec_parse (GDALGetMetadataItem (dataset, "SHEPARD_METHOD", NULL), &parsed, &error));
  g_assert_no_error (error);
  /* The panel keeps values the method does not use (IDW's power, a given area while the area is the bounding box):
   * the string is of those it uses, and they come back from it. */
  const char *method = GDALGetMetadataItem (dataset, "SHEPARD_METHOD", NULL);
  g_autofree char *window_method = shepard_method_spec_format (&window_params);
  g_autofree char *parsed_method = shepard_method_spec_format (&parsed);
  g_assert_cmpstr (method, ==, window_method);
  g_assert_cmpstr (parsed_method, ==, method);
  g_assert_cmpint (parsed.method, ==, window_params.method);
  g_assert_cmpint (parsed.k, ==, window_params.k);
  g_assert_cmpmem (parsed.alpha, sizeof parsed.alpha, window_params.alpha, sizeof window_params.alpha);
  g_assert_cmpfloat (parsed.r_max, ==, window_params.r_max);
  GDALClose (dataset);
  remove_folder (folder);
}

/* Margin (%) means what shepard-grid --margin means: 5 % of the longer side (3897 m) on every side. */
static void
test_margin (void)
{
  g_autofree char *folder = scratch_folder ();
  g_autofree char *path = g_build_filename (folder, "margin.tif", NULL);
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  GtkLabel *size_label = dialog_child (dialog, "size_label");
  double margin = 0.05 * (MEUSE_Y_MAX - MEUSE_Y_MIN);

  gtk_spin_button_set_value (dialog_child (dialog, "margin_spin"), 5);
  use_cells (dialog, 50, 60);
  g_test_message ("size: %s", gtk_label_get_text (size_label));
  g_assert_nonnull (strstr (gtk_label_get_text (size_label), "x 178410.15 to 181584.85, y 329519.15 to 333805.85"));
  assert_near (gtk_spin_button_get_value (dialog_child (dialog, "x_max_spin")), MEUSE_X_MAX + margin, 1e-9);
  /* The view and custom extents take no margin. */
  gtk_drop_down_set_selected (dialog_child (dialog, "extent_dropdown"), 2);
  g_assert_false (gtk_widget_is_sensitive (dialog_child (dialog, "margin_spin")));
  gtk_drop_down_set_selected (dialog_child (dialog, "extent_dropdown"), 0);
  g_assert_true (gtk_widget_is_sensitive (dialog_child (dialog, "margin_spin")));
  g_assert_true (export_to (dialog, path));
  g_object_unref (dialog);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  double width = MEUSE_X_MAX - MEUSE_X_MIN + 2 * margin, height = MEUSE_Y_MAX - MEUSE_Y_MIN + 2 * margin;
  assert_geotransform (dataset, (double[6]) { MEUSE_X_MIN - margin, width / 50, 0, MEUSE_Y_MAX + margin, 0,
                                              -height / 60 });
  GDALClose (dataset);
  remove_folder (folder);
}

/* Creation options are checked by GDAL as they are typed; what is wrong is said under the entry and blocks Export. */
static void
test_creation_options_checked (void)
{
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  GtkEditable *entry = dialog_child (dialog, "options_entry");
  GtkLabel *label = dialog_child (dialog, "options_label");
  GtkWidget *export_button = dialog_child (dialog, "export_button");
  const struct {
    const char *text, *message;
  } refused[] = {
    { "TILED=maybe", "'maybe' is an unexpected value for TILED" },
    { "COMPRESS=DEFLATE NOT_AN_OPTION=1", "does not support creation option NOT_AN_OPTION" },
    { "COMPRESS", "\"COMPRESS\" must be written NAME=VALUE" },
  };

  g_assert_true (gtk_widget_get_sensitive (export_button));
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (entry)), ==,
                   "Default: TILED=YES COMPRESS=DEFLATE PREDICTOR=3 NUM_THREADS=ALL_CPUS");
  /* Wider than the entry: the tooltip holds them whole. */
  const char *tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (entry));
  g_assert_true (g_str_has_suffix (tooltip, "\nDefault: TILED=YES COMPRESS=DEFLATE PREDICTOR=3 NUM_THREADS=ALL_CPUS"));
  for (gsize i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      gtk_editable_set_text (entry, refused[i].text);
      g_test_message ("%s: %s", refused[i].text, gtk_label_get_text (label));
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (label)));
      g_assert_nonnull (strstr (gtk_label_get_text (label), refused[i].message));
      g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
      g_assert_false (gtk_widget_get_sensitive (export_button));
    }
  gtk_editable_set_text (entry, "COMPRESS=LZW BIGTIFF=IF_SAFER");
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (label)));
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_true (gtk_widget_get_sensitive (export_button));

  gtk_window_present (GTK_WINDOW (dialog));
  gtk_editable_set_text (entry, "TILED=maybe");
  let_frames_pass (300);
  gtk_window_set_focus (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
}

/* The last folder, format options, bands and margin come back in the next dialog. */
static void
test_choices_remembered (void)
{
  g_autofree char *folder = scratch_folder ();
  g_autofree char *path = g_build_filename (folder, "remembered.tif", NULL);
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));

  gtk_editable_set_text (dialog_child (dialog, "options_entry"), "COMPRESS=LZW");
  gtk_drop_down_set_selected (dialog_child (dialog, "type_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "margin_spin"), 2.5);
  gtk_check_button_set_active (dialog_child (dialog, "alpha_check"), TRUE);
  use_cells (dialog, 20, 30);
  g_assert_true (export_to (dialog, path));
  g_object_unref (dialog);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_cmpstr (GDALGetMetadataItem (dataset, "COMPRESSION", "IMAGE_STRUCTURE"), ==, "LZW");
  g_assert_cmpint (GDALGetRasterCount (dataset), ==, 2);
  g_assert_cmpint (GDALGetRasterDataType (GDALGetRasterBand (dataset, 2)), ==, GDT_Float64);
  for (int band = 1; band <= 2; band++)
    {
      int has_nodata = FALSE;
      g_assert_cmpfloat (GDALGetRasterNoDataValue (GDALGetRasterBand (dataset, band), &has_nodata), ==, -9999.0);
      g_assert_true (has_nodata);
    }
  GDALClose (dataset);

  dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  g_autofree char *next_folder
    = g_path_get_dirname (gtk_editable_get_text (GTK_EDITABLE (dialog_child (dialog, "path_entry"))));
  g_autofree char *canonical = g_canonicalize_filename (folder, NULL);
  g_assert_cmpstr (next_folder, ==, canonical);
  g_assert_cmpstr (gtk_editable_get_text (dialog_child (dialog, "options_entry")), ==, "COMPRESS=LZW");
  g_assert_cmpuint (gtk_drop_down_get_selected (dialog_child (dialog, "type_dropdown")), ==, 1);
  g_assert_cmpfloat (gtk_spin_button_get_value (dialog_child (dialog, "margin_spin")), ==, 2.5);
  g_assert_true (gtk_check_button_get_active (dialog_child (dialog, "alpha_check")));
  g_assert_false (gtk_check_button_get_active (dialog_child (dialog, "r_check")));

  /* Back to the defaults for the other tests. */
  gtk_editable_set_text (dialog_child (dialog, "options_entry"), "");
  gtk_drop_down_set_selected (dialog_child (dialog, "type_dropdown"), 0);
  gtk_spin_button_set_value (dialog_child (dialog, "margin_spin"), 0);
  gtk_check_button_set_active (dialog_child (dialog, "alpha_check"), FALSE);
  g_autofree char *again = g_build_filename (folder, "again.tif", NULL);
  use_cells (dialog, 4, 4);
  g_assert_true (export_to (dialog, again));
  g_object_unref (dialog);
  remove_folder (folder);
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

/* A cancel says so plainly, without an error's styling. */
static void
test_cancel_is_no_error (void)
{
  g_autofree char *folder = scratch_folder ();
  g_autofree char *path = g_build_filename (folder, "cancelled.tif", NULL);
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  GtkProgressBar *progress = dialog_child (dialog, "progress_bar");
  GtkWidget *label = dialog_child (dialog, "error_label");
  int state = 0;

  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  use_cells (dialog, 5000, 5000);
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  ExportWatch watch = { progress, &state };
  g_assert_true (wait_until (has_progressed, &watch));
  g_assert_cmpint (state, ==, 0);
  g_signal_emit_by_name (find_button (GTK_WIDGET (dialog), "_Cancel"), "clicked");
  g_assert_true (wait_until (is_nonzero, &state));
  g_assert_cmpint (state, ==, 2);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (label)), ==, "Export cancelled: nothing was written.");
  g_assert_false (gtk_widget_has_css_class (label, "error"));
  g_assert_true (gtk_widget_has_css_class (label, "dim-label"));
  gtk_window_destroy (GTK_WINDOW (dialog));
  g_object_unref (dialog);
  remove_folder (folder);
}

static void
check_field (ShepardExportDialog *dialog, const char *name, gboolean active)
{
  GtkWidget *list = dialog_child (dialog, "fields_list");

  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row)));
      if (g_strcmp0 (gtk_check_button_get_label (check), name) == 0)
        {
          gtk_check_button_set_active (check, active);
          return;
        }
    }
  g_error ("no field %s in the dialog", name);
}

static float *
read_band (GDALDatasetH dataset, int band, int width, int height)
{
  float *cells = g_new (float, (size_t) width * height);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, band), GF_Read, 0, 0, width, height, cells, width, height,
                                 GDT_Float32, 0, 0),
                   ==, CE_None);
  return cells;
}

/* Several fields: one band each, in the layer's order, described by name; each band is what one field alone gives
 * (the map's field as its own export, another field as the engine computes it from that field's points alone). */
static void
test_several_fields (void)
{
  g_autofree char *folder = scratch_folder ();
  g_autofree char *fields_path = g_build_filename (folder, "fields.tif", NULL);
  g_autofree char *zinc_path = g_build_filename (folder, "zinc.tif", NULL);
  enum { WIDTH = 40, HEIGHT = 50 };

  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  /* The map's field alone by default, and it cannot be unchecked while alone. */
  GtkWidget *list = dialog_child (dialog, "fields_list");
  guint n_rows = 0, n_checked = 0;
  for (GtkWidget *row = gtk_widget_get_first_child (list); row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GtkCheckButton *check = GTK_CHECK_BUTTON (gtk_list_box_row_get_child (GTK_LIST_BOX_ROW (row)));
      n_rows++;
      if (gtk_check_button_get_active (check))
        {
          n_checked++;
          g_assert_cmpstr (gtk_check_button_get_label (check), ==, "zinc");
          g_assert_false (gtk_widget_get_sensitive (GTK_WIDGET (check)));
        }
    }
  g_assert_cmpuint (n_rows, >=, 4);
  g_assert_cmpuint (n_checked, ==, 1);
  use_cells (dialog, WIDTH, HEIGHT);
  g_assert_true (export_to (dialog, zinc_path));
  g_object_unref (dialog);

  dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  check_field (dialog, "lead", TRUE);
  check_field (dialog, "copper", TRUE);
  use_cells (dialog, WIDTH, HEIGHT);
  g_assert_true (export_to (dialog, fields_path));
  g_object_unref (dialog);

  GDALDatasetH fields = GDALOpen (fields_path, GA_ReadOnly);
  GDALDatasetH zinc = GDALOpen (zinc_path, GA_ReadOnly);
  g_assert_nonnull (fields);
  g_assert_nonnull (zinc);
  g_assert_cmpint (GDALGetRasterCount (fields), ==, 3);
  g_assert_cmpstr (GDALGetDescription (GDALGetRasterBand (fields, 1)), ==, "copper");
  g_assert_cmpstr (GDALGetDescription (GDALGetRasterBand (fields, 2)), ==, "lead");
  g_assert_cmpstr (GDALGetDescription (GDALGetRasterBand (fields, 3)), ==, "zinc");
  g_assert_cmpstr (GDALGetMetadataItem (fields, "SHEPARD_FIELD", NULL), ==, "copper,lead,zinc");

  g_autofree float *zinc_alone = read_band (zinc, 1, WIDTH, HEIGHT);
  g_autofree float *zinc_band = read_band (fields, 3, WIDTH, HEIGHT);
  for (size_t i = 0; i < (size_t) WIDTH * HEIGHT; i++)
    assert_near (zinc_band[i], zinc_alone[i], 1e-5 * fabs (zinc_alone[i]));

  /* Copper from its own points through a new engine, with the window's parameters over the raster's grid. */
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardPointLayer) copper = shepard_point_layer_read (meuse_path (), NULL, "copper", NULL, NULL, NULL,
                                                                   &error);
  g_assert_no_error (error);
  shepard_error engine_error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &engine_error);
  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, copper->x, copper->y, copper->z, copper->count, &engine_error),
                   ==, SHEPARD_OK);
  double geotransform[6];
  g_assert_cmpint (GDALGetGeoTransform (fields, geotransform), ==, CE_None);
  shepard_grid grid = { .x_min = geotransform[0], .y_max = geotransform[3], .dx = geotransform[1],
                        .dy = -geotransform[5], .width = WIDTH, .height = HEIGHT };
  shepard_params params;
  shepard_window_get_params (window, &params);
  g_autofree double *expected = g_new (double, (size_t) WIDTH * HEIGHT);
  shepard_outputs outputs = { .values = expected };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &engine_error), ==,
                   SHEPARD_OK);
  shepard_engine_free (engine);
  g_autofree float *copper_band = read_band (fields, 1, WIDTH, HEIGHT);
  for (size_t i = 0; i < (size_t) WIDTH * HEIGHT; i++)
    assert_near (copper_band[i], expected[i], 1e-5 * fabs (expected[i]));
  GDALClose (fields);
  GDALClose (zinc);
  remove_folder (folder);
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
  GDALAllRegister ();
  application = shepard_application_new ();
  g_application_set_flags (G_APPLICATION (application),
                           g_application_get_flags (G_APPLICATION (application)) | G_APPLICATION_NON_UNIQUE);
  if (!g_application_register (G_APPLICATION (application), NULL, &error))
    g_error ("cannot register the application: %s", error->message);
  window = shepard_window_new (GTK_APPLICATION (application));
  gtk_window_present (GTK_WINDOW (window));
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());
  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));

  g_test_add_func ("/ui/export/default-folder", test_default_folder);
  g_test_add_func ("/ui/export/default-extent-and-raster", test_default_extent_and_raster);
  g_test_add_func ("/ui/export/margin", test_margin);
  g_test_add_func ("/ui/export/creation-options-checked", test_creation_options_checked);
  g_test_add_func ("/ui/export/choices-remembered", test_choices_remembered);
  g_test_add_func ("/ui/export/cancel-is-no-error", test_cancel_is_no_error);
  g_test_add_func ("/ui/export/several-fields", test_several_fields);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (application);
  return status;
}
