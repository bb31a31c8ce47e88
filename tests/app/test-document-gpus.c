/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's engine on chosen GPUs: a layer loads on them, the engine is made again on others with the points it
 * holds (the names and the fallback reason follow, interpolation goes on and gives what a fresh engine on those GPUs
 * gives), an edit of a sandbox's points made while the new engine is being made reaches it, and a choice that names
 * no GPUs is refused with the engine's words and changes nothing. Without a GPU (CI) the GPUs chosen fall back to the
 * CPU, saying why. */
#include <gio/gio.h>
#include <string.h>

#include "main-loop-wait.h"
#include "shepard-app-error.h"
#include "shepard-document.h"

static char *
meuse_path (void)
{
  const char *root = g_getenv ("SHEPARD_SOURCE_ROOT");
  return g_build_filename (root != NULL ? root : ".", "data", "meuse.csv", NULL);
}

static void
on_result (GObject *source, GAsyncResult *result, gpointer data)
{
  *(GAsyncResult **) data = g_object_ref (result);
}

static ShepardDocument *
load_on (const char *gpus, GError **error)
{
  g_autofree char *path = meuse_path ();
  g_autoptr (GAsyncResult) result = NULL;

  shepard_document_load_on_gpus_async (path, "zinc", gpus, NULL, on_result, &result);
  g_assert_true (wait_until (is_set, &result));
  return shepard_document_load_finish (result, error);
}

static gboolean
set_gpus (ShepardDocument *document, const char *gpus, GError **error)
{
  g_autoptr (GAsyncResult) result = NULL;

  shepard_document_set_gpus_async (document, gpus, NULL, on_result, &result);
  g_assert_true (wait_until (is_set, &result));
  return shepard_document_set_gpus_finish (document, result, error);
}

/* What the engine says of itself on gpus: describe() and the fallback reason (NULL: none), as a fresh one says. */
static void
expected_engine (const char *gpus, char **description, char **fallback_reason)
{
  shepard_gpu_set set;
  shepard_error error = { 0 };

  g_assert_cmpint (shepard_gpu_set_parse (gpus, &set, &error), ==, SHEPARD_OK);
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &set,
                                                       &error);
  g_assert_nonnull (engine);
  *description = g_strdup (shepard_engine_describe (engine));
  *fallback_reason = g_strdup (shepard_engine_fallback_reason (engine));
  shepard_engine_free (engine);
}

static void
assert_engine_on (ShepardDocument *document, const char *gpus)
{
  g_autofree char *description = NULL, *fallback_reason = NULL;
  g_autofree char *document_gpus = shepard_document_get_gpus (document);

  expected_engine (gpus, &description, &fallback_reason);
  g_assert_cmpstr (document_gpus, ==, gpus);
  g_assert_cmpstr (shepard_document_get_backend (document), ==, description);
  g_assert_cmpstr (shepard_document_get_engine_fallback_reason (document), ==, fallback_reason);
  g_test_message ("on %s: %s", gpus, description);
}

/* A grid of the document in host memory, with its engine free. */
static ShepardSurface *
interpolate (ShepardDocument *document, const shepard_params *params)
{
  double extent[4];
  g_autoptr (GError) error = NULL;

  shepard_document_get_extent (document, extent);
  shepard_grid grid = { .x_min = extent[0], .y_max = extent[3], .dx = (extent[2] - extent[0]) / 40,
                        .dy = (extent[3] - extent[1]) / 30, .width = 40, .height = 30 };
  ShepardSurface *surface = shepard_document_interpolate_if_idle (document, params, &grid,
                                                                  SHEPARD_SURFACE_IN_HOST_MEMORY, 1.0, &error);
  g_assert_no_error (error);
  return surface;
}

static void
assert_same_values (const ShepardSurface *a, const ShepardSurface *b)
{
  g_assert_cmpuint (a->grid.width * a->grid.height, ==, b->grid.width * b->grid.height);
  g_assert_cmpmem (a->values, sizeof (float) * a->grid.width * a->grid.height, b->values,
                   sizeof (float) * b->grid.width * b->grid.height);
}

static void
test_load_and_change (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = load_on (NULL, &error);
  shepard_params params;

  g_assert_no_error (error);
  assert_engine_on (document, "all");
  shepard_params_init_aidw (&params);
  g_autoptr (ShepardSurface) before = interpolate (document, &params);

  g_assert_true (set_gpus (document, "0", &error));
  g_assert_no_error (error);
  assert_engine_on (document, "0");
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 155);
  g_autoptr (ShepardSurface) after = interpolate (document, &params);
  if (shepard_gpu_count () == 0)
    /* Both on the CPU's float32 engine, which computes the same cells alike. */
    assert_same_values (before, after);

  /* Loaded on them from the start: the same engine. */
  g_autoptr (ShepardDocument) loaded = load_on ("0", &error);
  g_assert_no_error (error);
  assert_engine_on (loaded, "0");
  g_autoptr (ShepardSurface) loaded_surface = interpolate (loaded, &params);
  assert_same_values (after, loaded_surface);

  g_assert_true (set_gpus (document, "all", &error));
  assert_engine_on (document, "all");
}

/* While a cross-validation holds the engine, the new one waits for it, and both results are whole. */
static void
test_change_waits_for_work (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = load_on ("all", &error);
  shepard_params params;
  g_autoptr (GAsyncResult) validated = NULL, changed = NULL;

  g_assert_no_error (error);
  shepard_params_init_aidw (&params);
  shepard_document_cross_validate_async (document, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, on_result,
                                         &validated);
  shepard_document_set_gpus_async (document, "0", NULL, on_result, &changed);
  g_assert_true (wait_until (is_set, &changed));
  g_assert_true (wait_until (is_set, &validated));
  g_autoptr (ShepardCrossValidation) result = shepard_document_cross_validate_finish (document, validated, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (shepard_document_set_gpus_finish (document, changed, &error));
  g_assert_no_error (error);
  assert_engine_on (document, "0");
}

/* An edit that comes between the new engine's making and its swap reaches the new engine. */
static void
test_sandbox_edit_during_change (void)
{
  const double extent[4] = { 0.0, 0.0, 1000.0, 800.0 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, NULL, &error);
  g_autoptr (GAsyncResult) changed = NULL;
  shepard_params params;

  g_assert_no_error (error);
  g_assert_cmpint (shepard_document_add_point (document, 100, 100, 10, &error), ==, 0);
  g_assert_cmpint (shepard_document_add_point (document, 700, 200, 30, &error), ==, 1);
  shepard_document_set_gpus_async (document, "0", NULL, on_result, &changed);
  /* Waits for the engine (the new one may be in the making); the swap comes later, on this thread. */
  g_assert_cmpint (shepard_document_add_point (document, 400, 600, 20, &error), ==, 2);
  g_assert_true (wait_until (is_set, &changed));
  g_assert_true (shepard_document_set_gpus_finish (document, changed, &error));
  assert_engine_on (document, "0");

  shepard_params_init_idw (&params);
  g_autoptr (ShepardSurface) surface = interpolate (document, &params);
  g_autoptr (ShepardDocument) fresh = shepard_document_new_sandbox (extent, NULL, &error);
  g_assert_true (set_gpus (fresh, "0", &error));
  const double xs[] = { 100, 700, 400 }, ys[] = { 100, 200, 600 }, zs[] = { 10, 30, 20 };
  for (int i = 0; i < 3; i++)
    g_assert_cmpint (shepard_document_add_point (fresh, xs[i], ys[i], zs[i], &error), ==, i);
  g_autoptr (ShepardSurface) expected = interpolate (fresh, &params);
  assert_same_values (surface, expected);
}

static void
test_refused (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = load_on ("all", &error);
  shepard_gpu_set set;
  shepard_error engine_error = { 0 };

  g_assert_no_error (error);
  g_assert_cmpint (shepard_gpu_set_parse ("0,0", &set, &engine_error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_assert_false (set_gpus (document, "0,0", &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_assert_cmpstr (error->message, ==, engine_error.message);
  assert_engine_on (document, "all");
  g_clear_error (&error);

  g_autoptr (ShepardDocument) none = load_on ("first", &error);
  g_assert_null (none);
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/document/gpus/load-and-change", test_load_and_change);
  g_test_add_func ("/document/gpus/change-waits-for-work", test_change_waits_for_work);
  g_test_add_func ("/document/gpus/sandbox-edit-during-change", test_sandbox_edit_during_change);
  g_test_add_func ("/document/gpus/refused", test_refused);
  return g_test_run ();
}
