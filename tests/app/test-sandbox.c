/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classroom sandbox's document: points placed, moved, changed and removed by hand reach the engine at once (the
 * surface is the one a fresh engine computes over the same points), edits are refused with a reason where they make
 * no sense, and the points save as a GeoPackage that opens again like any layer. */
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <math.h>

#include "main-loop-wait.h"
#include "shepard-app-error.h"
#include "shepard-document.h"

static const double extent[4] = { 0.0, 0.0, 1000.0, 800.0 };

static void
on_points_changed (ShepardDocument *document, guint *changes)
{
  (*changes)++;
}

/* The value the document's engine gives at (x, y), against a new float64 engine over its points. */
static void
assert_engine_has_points (ShepardDocument *document)
{
  const ShepardPointLayer *points = shepard_document_get_points (document);
  shepard_grid grid = { extent[0], extent[3], 100.0, 100.0, 10, 8 };
  shepard_params params;
  shepard_params_init_idw (&params);
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_if_idle (document, &params, &grid,
                                                                             SHEPARD_SURFACE_IN_HOST_MEMORY, &error);
  g_assert_no_error (error);
  shepard_error engine_error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 1, &engine_error);
  g_assert_cmpint (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &engine_error),
                   ==, SHEPARD_OK);
  double expected[80];
  shepard_outputs outputs = { .values = expected };
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &engine_error), ==,
                   SHEPARD_OK);
  for (size_t i = 0; i < 80; i++)
    g_assert_cmpfloat_with_epsilon (surface->values[i], expected[i], 1e-4 * fmax (1.0, fabs (expected[i])));
  shepard_engine_free (engine);
}

static void
test_edits (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, "EPSG:28992", &error);
  guint changes = 0;

  g_assert_no_error (error);
  g_assert_true (shepard_document_is_sandbox (document));
  g_assert_cmpstr (shepard_document_get_crs_name (document), ==, "Amersfoort / RD New (EPSG:28992)");
  g_signal_connect (document, "points-changed", G_CALLBACK (on_points_changed), &changes);
  double bounds[4];
  shepard_document_get_bounds (document, &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
  for (int i = 0; i < 4; i++)
    g_assert_cmpfloat (bounds[i], ==, extent[i]);
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 0);

  /* An empty sandbox says what is missing, rather than computing anything. */
  shepard_grid grid = { 0, 800, 100, 100, 10, 8 };
  shepard_params params;
  shepard_params_init_idw (&params);
  g_autoptr (ShepardSurface) none = shepard_document_interpolate_if_idle (document, &params, &grid,
                                                                          SHEPARD_SURFACE_IN_HOST_MEMORY, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_test_message ("empty sandbox: %s", error->message);
  g_clear_error (&error);

  const double xs[] = { 100, 700, 400, 900 }, ys[] = { 100, 200, 600, 700 }, zs[] = { 10, 30, 20, 50 };
  for (int i = 0; i < 4; i++)
    g_assert_cmpint (shepard_document_add_point (document, xs[i], ys[i], zs[i], &error), ==, i);
  g_assert_no_error (error);
  g_assert_cmpuint (changes, ==, 4);
  g_assert_cmpuint (shepard_document_get_points_generation (document), ==, 4);
  g_assert_cmpfloat (shepard_document_get_value_max (document), ==, 50);
  assert_engine_has_points (document);

  g_assert_true (shepard_document_move_point (document, 2, 450, 550, &error));
  g_assert_true (shepard_document_set_point_value (document, 0, 5, &error));
  g_assert_cmpfloat (shepard_document_get_value_min (document), ==, 5);
  assert_engine_has_points (document);
  g_assert_true (shepard_document_remove_point (document, 1, &error));
  const ShepardPointLayer *points = shepard_document_get_points (document);
  g_assert_cmpuint (points->count, ==, 3);
  g_assert_cmpfloat (points->x[1], ==, 450);
  g_assert_cmpfloat (points->z[2], ==, 50);
  assert_engine_has_points (document);
  g_assert_cmpuint (changes, ==, 7);

  /* Refused, with nothing changed. */
  g_assert_false (shepard_document_move_point (document, 3, 1, 1, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_cmpint (shepard_document_add_point (document, NAN, 1, 1, &error), ==, -1);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_clear_error (&error);
  g_assert_false (shepard_document_set_point_value (document, 0, INFINITY, &error));
  g_clear_error (&error);
  g_assert_cmpuint (changes, ==, 7);
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 3);

  /* Down to none: the engine has nothing again. */
  for (int i = 2; i >= 0; i--)
    g_assert_true (shepard_document_remove_point (document, (size_t) i, &error));
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 0);
}

static void
test_refusals (void)
{
  g_autoptr (GError) error = NULL;
  const double upside_down[4] = { 0, 10, 100, 5 };

  g_assert_null (shepard_document_new_sandbox (upside_down, NULL, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_null (shepard_document_new_sandbox (extent, "EPSG:not-a-code", &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
}

static void
on_loaded (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(ShepardDocument **) user_data = shepard_document_load_finish (result, &error);
  g_assert_no_error (error);
}

static void
on_cross_validated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(ShepardCrossValidation **) user_data = shepard_document_cross_validate_finish (SHEPARD_DOCUMENT (source), result,
                                                                                   &error);
  g_assert_no_error (error);
}

/* Saved as a GeoPackage, the sandbox opens again like any layer: the same points, values and CRS; and it
 * cross-validates as one. */
static void
test_save_and_open_again (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) sandbox = shepard_document_new_sandbox (extent, "EPSG:28992", &error);
  const double xs[] = { 120, 640, 380, 900, 500 }, ys[] = { 90, 210, 620, 710, 400 };
  const double zs[] = { 1.5, 30, 22.25, 50, -4 };

  for (int i = 0; i < 5; i++)
    shepard_document_add_point (sandbox, xs[i], ys[i], zs[i], &error);
  g_assert_no_error (error);
  g_autofree char *folder = g_dir_make_tmp ("shepard-sandbox-XXXXXX", &error);
  g_autofree char *path = g_build_filename (folder, "lesson.gpkg", NULL);
  g_assert_true (shepard_document_save_points (sandbox, path, &error));
  g_assert_no_error (error);

  ShepardDocument *opened = NULL;
  shepard_document_load_async (path, NULL, NULL, on_loaded, &opened);
  g_assert_true (wait_until (is_set, &opened));
  g_assert_false (shepard_document_is_sandbox (opened));
  const ShepardPointLayer *points = shepard_document_get_points (opened);
  g_assert_cmpuint (points->count, ==, 5);
  g_assert_cmpstr (points->field_name, ==, "value");
  g_assert_cmpstr (shepard_document_get_crs_name (opened), ==, "Amersfoort / RD New (EPSG:28992)");
  for (int i = 0; i < 5; i++)
    {
      g_assert_cmpfloat (points->x[i], ==, xs[i]);
      g_assert_cmpfloat (points->y[i], ==, ys[i]);
      g_assert_cmpfloat (points->z[i], ==, zs[i]);
    }

  shepard_params params;
  shepard_params_init_idw (&params);
  ShepardCrossValidation *validation = NULL;
  shepard_document_cross_validate_async (sandbox, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, on_cross_validated,
                                         &validation);
  g_assert_true (wait_until (is_set, &validation));
  g_assert_cmpuint (validation->n, ==, 5);
  g_assert_cmpuint (validation->points_generation, ==, 5);
  shepard_cross_validation_unref (validation);

  g_object_unref (opened);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* A layer read from a file is not a sandbox: its points stay as they are. */
static void
test_layers_are_not_editable (void)
{
  g_autofree char *path = g_build_filename (g_getenv ("SHEPARD_SOURCE_ROOT"), "data", "meuse.csv", NULL);
  g_autoptr (GError) error = NULL;
  ShepardDocument *document = NULL;

  shepard_document_load_async (path, "zinc", NULL, on_loaded, &document);
  g_assert_true (wait_until (is_set, &document));
  g_assert_cmpint (shepard_document_add_point (document, 1, 2, 3, &error), ==, -1);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 155);
  g_object_unref (document);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/app/sandbox/edits", test_edits);
  g_test_add_func ("/app/sandbox/refusals", test_refusals);
  g_test_add_func ("/app/sandbox/save-and-open-again", test_save_and_open_again);
  g_test_add_func ("/app/sandbox/layers-are-not-editable", test_layers_are_not_editable);
  return g_test_run ();
}
