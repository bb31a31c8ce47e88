/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Mask section: its choices, what it tells and keeps; and the surface it masks, on the screen. */
#include <gdal.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdlib.h>

#include "shepard-mask-section.h"
#include "shepard-parameter-panel.h"
#include "ui-test-support.h"

static ShepardWindow *window;

static gpointer
section_child (ShepardMaskSection *section, const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (section), SHEPARD_TYPE_MASK_SECTION, name);
  g_assert_nonnull (child);
  return child;
}

static ShepardMaskSection *
new_section (int *changes)
{
  ShepardMaskSection *section = g_object_ref_sink (SHEPARD_MASK_SECTION (shepard_mask_section_new ()));

  g_signal_connect (section, "changed", G_CALLBACK (count_signal), changes);
  return section;
}

static void
test_choices (void)
{
  int changes = 0;
  g_autoptr (ShepardMaskSection) section = new_section (&changes);
  GtkDropDown *kind = section_child (section, "kind_dropdown");
  GtkSpinButton *distance = section_child (section, "distance_spin");

  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_NONE);
  g_assert_false (gtk_widget_get_visible (section_child (section, "distance_box")));
  g_assert_false (gtk_widget_get_visible (section_child (section, "cutline_button")));

  gtk_drop_down_set_selected (kind, SHEPARD_MASK_DISTANCE);
  g_assert_cmpint (changes, ==, 1);
  g_assert_true (gtk_widget_get_visible (section_child (section, "distance_box")));
  gtk_editable_set_text (GTK_EDITABLE (distance), "250");
  gtk_spin_button_update (distance);
  g_assert_cmpint (changes, ==, 2);
  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_DISTANCE);
  g_assert_cmpfloat (shepard_mask_section_get_distance (section), ==, 250);

  gtk_drop_down_set_selected (kind, SHEPARD_MASK_HULL);
  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_HULL);
  /* The distance is not in use: its changes change nothing. */
  gtk_spin_button_set_value (distance, 300);
  g_assert_cmpint (changes, ==, 3);

  /* Cutline without a file is no mask yet; the file makes it one. */
  gtk_drop_down_set_selected (kind, SHEPARD_MASK_CUTLINE);
  g_assert_true (gtk_widget_get_visible (section_child (section, "cutline_button")));
  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_NONE);
  shepard_mask_section_set_mask (section, SHEPARD_MASK_CUTLINE, 0, "/data/river.geojson", "banks");
  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_CUTLINE);
  g_assert_cmpstr (shepard_mask_section_get_cutline_path (section), ==, "/data/river.geojson");
  g_assert_cmpstr (shepard_mask_section_get_cutline_layer (section), ==, "banks");
  g_assert_cmpstr (gtk_label_get_text (section_child (section, "cutline_file_label")), ==, "river.geojson");
  g_assert_cmpint (changes, ==, 5);

  /* The layer's name, once entered. */
  gtk_editable_set_text (section_child (section, "cutline_layer_entry"), "");
  g_signal_emit_by_name (section_child (section, "cutline_layer_entry"), "activate");
  g_assert_null (shepard_mask_section_get_cutline_layer (section));
  g_assert_cmpint (changes, ==, 6);

  shepard_mask_section_set_error (section, "The cutline holds lines, not polygons.");
  g_assert_cmpstr (shepard_mask_section_get_error (section), ==, "The cutline holds lines, not polygons.");
  g_assert_true (gtk_widget_has_css_class (section_child (section, "error_label"), "error"));
  gtk_drop_down_set_selected (kind, SHEPARD_MASK_NONE);
  g_assert_null (shepard_mask_section_get_error (section));
}

static void
test_bind_settings (void)
{
  int changes = 0;
  g_autoptr (ShepardMaskSection) section = new_section (&changes);
  g_autoptr (GSettings) settings = new_settings ();

  g_assert_cmpuint (g_settings_get_uint (settings, "mask"), ==, 0);
  g_settings_set_uint (settings, "mask", SHEPARD_MASK_CUTLINE);
  g_settings_set_string (settings, "cutline", "/data/area.gpkg");
  shepard_mask_section_bind_settings (section, settings);
  g_assert_cmpint (changes, ==, 1);
  g_assert_cmpint (shepard_mask_section_get_kind (section), ==, SHEPARD_MASK_CUTLINE);
  g_assert_cmpstr (shepard_mask_section_get_cutline_path (section), ==, "/data/area.gpkg");
  g_assert_null (shepard_mask_section_get_cutline_layer (section));

  shepard_mask_section_set_mask (section, SHEPARD_MASK_DISTANCE, 120, NULL, NULL);
  g_assert_cmpuint (g_settings_get_uint (settings, "mask"), ==, SHEPARD_MASK_DISTANCE);
  g_assert_cmpfloat (g_settings_get_double (settings, "mask-distance"), ==, 120);
  g_settings_reset (settings, "mask");
  g_settings_reset (settings, "mask-distance");
  g_settings_reset (settings, "cutline");
}

/* Distance from (x, y) to the nearest of the layer's points, by brute force. */
static double
nearest_distance (const ShepardPointLayer *points, double x, double y)
{
  double best = INFINITY;

  for (size_t i = 0; i < points->count; i++)
    best = MIN (best, hypot (points->x[i] - x, points->y[i] - y));
  return best;
}

static gboolean
is_settled_masked (gpointer data)
{
  ShepardSurface *surface = is_settled (window) ? shepard_window_get_surface (window) : NULL;

  return surface != NULL && surface->keep != NULL;
}

/* Distance to the nearest point, 300 m: the cells whose centre is farther are NaN in the surface (the others keep
 * their value), the map's background on the screen, and nodata in an export. */
static void
test_masked_surface (void)
{
  ShepardParameterPanel *panel = window_child (window, "parameter_panel");
  ShepardMaskSection *section = shepard_parameter_panel_get_mask_section (panel);
  ShepardMapView *view = shepard_window_get_map_view (window);
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());
  const double distance = 300;

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  g_assert_null (shepard_window_get_surface (window)->keep);
  shepard_mask_section_set_mask (section, SHEPARD_MASK_DISTANCE, distance, NULL, NULL);
  g_assert_true (wait_until (is_settled_masked, NULL));
  g_assert_null (shepard_mask_section_get_error (section));

  g_autoptr (ShepardSurface) surface = shepard_surface_ref (shepard_window_get_surface (window));
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  const shepard_grid *grid = &surface->grid;
  /* From the host or, on the CUDA interop path, from the GPU: the masked cells read as NaN either way. */
  g_autoptr (GError) error = NULL;
  g_autofree float *values = shepard_surface_copy_plane (surface, SHEPARD_PLANE_VALUES, &error);
  g_assert_no_error (error);
  size_t masked = 0, ambiguous = 0;
  gssize deep = -1;
  for (size_t row = 0; row < grid->height; row++)
    for (size_t col = 0; col < grid->width; col++)
      {
        size_t i = row * grid->width + col;
        double d = nearest_distance (points, grid->x_min + (col + 0.5) * grid->dx, grid->y_max - (row + 0.5) * grid->dy);
        /* Centres within a millionth of the distance could go either way in float arithmetic. */
        if (fabs (d - distance) < 1e-6 * distance)
          {
            ambiguous++;
            continue;
          }
        g_assert_cmpint (surface->keep[i] != 0, ==, d < distance);
        g_assert_cmpint (isnan (values[i]), ==, d > distance);
        masked += d > distance;
        if (d > distance + 3 * MAX (grid->dx, grid->dy) && deep < 0)
          deep = (gssize) i;
      }
  g_test_message ("%zu of %zu cells masked (%zu at the distance itself)", masked, grid->width * grid->height,
                  ambiguous);
  g_assert_cmpuint (masked, >, grid->width * grid->height / 10);
  g_assert_cmpint (deep, >=, 0);
  /* Kept cells are weighted means of the data, masked ones left out of the range. Read from the copy: a surface on the
   * GPU has no host range (value_min is NaN there). */
  float kept_min = INFINITY;
  for (size_t i = 0; i < grid->width * grid->height; i++)
    if (!isnan (values[i]))
      kept_min = MIN (kept_min, values[i]);
  g_assert_cmpfloat (kept_min, >=, (float) shepard_document_get_value_min (shepard_window_get_document (window)));

  /* A kept cell shows its colour; a masked one, the background beside the surface. */
  assert_window_pixel_matches_surface (window, values, "mask-distance.png");
  g_autoptr (GdkTexture) texture = capture_window (window);
  Pixels pixels;
  pixels_from_texture (texture, &pixels);
  double x = grid->x_min + ((size_t) deep % grid->width + 0.5) * grid->dx;
  double y = grid->y_max - ((size_t) deep / grid->width + 0.5) * grid->dy;
  double wx, wy, bx, by;
  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), wx, wy, &wx, &wy));
  g_assert_true (gtk_widget_translate_coordinates (GTK_WIDGET (view), GTK_WIDGET (window), 2,
                                                   gtk_widget_get_height (GTK_WIDGET (view)) / 2.0, &bx, &by));
  int cell[3], background[3];
  pixel_rgb (&pixels, (int) wx, (int) wy, cell);
  pixel_rgb (&pixels, (int) bx, (int) by, background);
  g_test_message ("masked cell at (%.0f, %.0f): %d %d %d; background %d %d %d", wx, wy, cell[0], cell[1], cell[2],
                  background[0], background[1], background[2]);
  for (int c = 0; c < 3; c++)
    g_assert_cmpint (abs (cell[c] - background[c]), <=, 2);
  g_free (pixels.data);

  /* The status bar says so. */
  double value, alpha;
  g_assert_true (shepard_surface_lookup (surface, x, y, &value, &alpha));
  g_assert_true (isnan (value));
}

static gboolean
is_settled_with_cutline (gpointer data)
{
  ShepardSurface *surface = is_settled (window) ? shepard_window_get_surface (window) : NULL;

  return surface != NULL && surface->keep != NULL;
}

/* A cutline of lines is refused with the reason, and masks nothing; the river's polygon masks the cells outside it. */
static void
test_cutline (void)
{
  ShepardParameterPanel *panel = window_child (window, "parameter_panel");
  ShepardMaskSection *section = shepard_parameter_panel_get_mask_section (panel);
  ShepardDocument *document = shepard_window_get_document (window);
  g_autofree char *river = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse-river.geojson", NULL);
  g_autofree char *folder = g_dir_make_tmp ("shepard-mask-XXXXXX", NULL);
  g_autofree char *lines = g_build_filename (folder, "lines.geojson", NULL);

  g_assert_true (g_file_set_contents (lines,
                                      "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\","
                                      "\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":"
                                      "[[179000,330000],[181000,333000]]}}]}",
                                      -1, NULL));
  shepard_mask_section_set_mask (section, SHEPARD_MASK_CUTLINE, 0, lines, NULL);
  g_test_message ("%s", shepard_mask_section_get_error (section));
  g_assert_nonnull (shepard_mask_section_get_error (section));
  g_assert_false (shepard_document_has_mask (document));
  g_assert_true (wait_until (is_settled, window));
  g_assert_null (shepard_window_get_surface (window)->keep);

  shepard_mask_section_set_mask (section, SHEPARD_MASK_CUTLINE, 0, river, NULL);
  g_assert_null (shepard_mask_section_get_error (section));
  g_assert_true (shepard_document_has_mask (document));
  g_assert_true (wait_until (is_settled_with_cutline, NULL));
  ShepardSurface *surface = shepard_window_get_surface (window);
  size_t cells = surface->grid.width * surface->grid.height, kept = 0;
  for (size_t i = 0; i < cells; i++)
    kept += surface->keep[i] != 0;
  g_test_message ("the river keeps %zu of %zu cells", kept, cells);
  g_assert_cmpuint (kept, >, 0);
  g_assert_cmpuint (kept, <, cells);

  shepard_mask_section_set_mask (section, SHEPARD_MASK_HULL, 0, NULL, NULL);
  g_assert_null (shepard_mask_section_get_error (section));
  g_assert_true (shepard_document_has_mask (document));
  shepard_mask_section_set_mask (section, SHEPARD_MASK_NONE, 0, NULL, NULL);
  g_assert_false (shepard_document_has_mask (document));
  g_assert_cmpint (g_remove (lines), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

static void
on_finished (ShepardExportDialog *dialog, gboolean written, int *state)
{
  *state = written ? 1 : 2;
}

/* The export takes the mask of the map: nodata exactly where a cell's centre is farther than the distance. */
static void
test_masked_export (void)
{
  ShepardParameterPanel *panel = window_child (window, "parameter_panel");
  ShepardMaskSection *section = shepard_parameter_panel_get_mask_section (panel);
  g_autofree char *folder = g_dir_make_tmp ("shepard-mask-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "masked.tif", NULL);
  const double distance = 250;
  enum { WIDTH = 30, HEIGHT = 40 };
  int state = 0;

  shepard_mask_section_set_mask (section, SHEPARD_MASK_DISTANCE, distance, NULL, NULL);
  ShepardExportDialog *dialog = g_object_ref_sink (shepard_window_new_export_dialog (window));
  gtk_drop_down_set_selected (dialog_child (dialog, "size_dropdown"), 1);
  gtk_spin_button_set_value (dialog_child (dialog, "width_spin"), WIDTH);
  gtk_spin_button_set_value (dialog_child (dialog, "height_spin"), HEIGHT);
  g_signal_connect (dialog, "finished", G_CALLBACK (on_finished), &state);
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  g_assert_true (wait_until (is_nonzero, &state));
  g_assert_cmpint (state, ==, 1);
  g_object_unref (dialog);

  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  g_assert_nonnull (dataset);
  GDALRasterBandH band = GDALGetRasterBand (dataset, 1);
  int has_nodata = FALSE;
  double nodata = GDALGetRasterNoDataValue (band, &has_nodata);
  g_assert_true (has_nodata);
  double geotransform[6];
  g_assert_cmpint (GDALGetGeoTransform (dataset, geotransform), ==, CE_None);
  float cells[WIDTH * HEIGHT];
  g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, WIDTH, HEIGHT, cells, WIDTH, HEIGHT, GDT_Float32, 0, 0), ==,
                   CE_None);
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  size_t masked = 0;
  for (int row = 0; row < HEIGHT; row++)
    for (int col = 0; col < WIDTH; col++)
      {
        double d = nearest_distance (points, geotransform[0] + (col + 0.5) * geotransform[1],
                                     geotransform[3] + (row + 0.5) * geotransform[5]);
        gboolean is_nodata = cells[row * WIDTH + col] == (float) nodata;
        if (fabs (d - distance) > 1e-6 * distance)
          g_assert_cmpint (is_nodata, ==, d > distance);
        masked += is_nodata;
      }
  g_test_message ("%zu of %d cells nodata", masked, WIDTH * HEIGHT);
  g_assert_cmpuint (masked, >, 0);
  GDALClose (dataset);
  shepard_mask_section_set_mask (section, SHEPARD_MASK_NONE, 0, NULL, NULL);
  g_autoptr (GDir) dir = g_dir_open (folder, 0, NULL);
  const char *entry;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (folder, entry, NULL);
      g_assert_cmpint (g_remove (file), ==, 0);
    }
  g_assert_cmpint (g_rmdir (folder), ==, 0);
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
  GDALAllRegister ();
  window = present_test_window ();

  g_test_add_func ("/ui/mask/choices", test_choices);
  g_test_add_func ("/ui/mask/bind-settings", test_bind_settings);
  g_test_add_func ("/ui/mask/masked-surface", test_masked_surface);
  g_test_add_func ("/ui/mask/cutline", test_cutline);
  g_test_add_func ("/ui/mask/export", test_masked_export);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
