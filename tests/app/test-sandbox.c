/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classroom sandbox's document: points placed, moved, changed and removed by hand reach the engine at once (the
 * surface is the one a fresh engine computes over the same points), a cross-validation in flight while the points
 * are edited belongs to one set of them, edits are refused with a reason where they make no sense (or while the
 * optimiser runs), the study area is the extent, and the points save as a GeoPackage that opens again like any
 * layer, with a CRS the sandbox dialog takes back. */
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
                                                                             SHEPARD_SURFACE_IN_HOST_MEMORY, 0.0,
                                                                             &error);
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
                                                                          SHEPARD_SURFACE_IN_HOST_MEMORY, 0.0, &error);
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
  g_assert_cmpstr (shepard_document_get_crs_definition (opened), ==, "EPSG:28992");
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

/* The points of one generation, as an edit left them. */
typedef struct {
  guint generation;
  GArray *x, *y, *z;
} Snapshot;

static void
snapshot_free (gpointer data)
{
  Snapshot *snapshot = data;

  g_array_unref (snapshot->x);
  g_array_unref (snapshot->y);
  g_array_unref (snapshot->z);
  g_free (snapshot);
}

static Snapshot *
snapshot_new (ShepardDocument *document)
{
  const ShepardPointLayer *points = shepard_document_get_points (document);
  Snapshot *snapshot = g_new0 (Snapshot, 1);

  snapshot->generation = shepard_document_get_points_generation (document);
  snapshot->x = g_array_new (FALSE, FALSE, sizeof (double));
  snapshot->y = g_array_new (FALSE, FALSE, sizeof (double));
  snapshot->z = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_vals (snapshot->x, points->x, points->count);
  g_array_append_vals (snapshot->y, points->y, points->count);
  g_array_append_vals (snapshot->z, points->z, points->count);
  return snapshot;
}

static void
on_cross_validated_into (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;
  ShepardCrossValidation *validation = shepard_document_cross_validate_finish (SHEPARD_DOCUMENT (source), result,
                                                                               &error);

  g_assert_no_error (error);
  g_ptr_array_add (user_data, validation);
}

typedef struct {
  GPtrArray *array;
  guint length;
} Count;

static gboolean
has_count (gpointer data)
{
  Count *count = data;
  return count->array->len >= count->length;
}

/* The sandbox's AIDW over all points, with its study area (the extent) given explicitly. */
static void
sandbox_engine_params (shepard_params *params)
{
  shepard_params_init_aidw (params);
  params->k = 4;
  params->area_mode = SHEPARD_AREA_GIVEN;
  params->area = (extent[2] - extent[0]) * (extent[3] - extent[1]);
}

/* Leave-one-out of a new engine over points, as the document's engine computes it. */
static void
cross_validate_directly (const shepard_params *params, const double *x, const double *y, const double *z, size_t n,
                         double *prediction)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &error);
  shepard_cv_outputs outputs = { .prediction = prediction };
  shepard_cv_summary summary;

  g_assert_cmpint (shepard_engine_set_points (engine, x, y, z, n, &error), ==, SHEPARD_OK);
  g_assert_cmpint (shepard_engine_cross_validate (engine, params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, &outputs, &summary,
                                                  NULL, NULL, &error),
                   ==, SHEPARD_OK);
  shepard_engine_free (engine);
}

/* Edits made while cross-validations are in flight: each result holds exactly the points of the generation it
 * names, and its predictions are those of a new engine over them. */
static void
test_edits_during_cross_validation (void)
{
  enum { POINTS = 1500, ROUNDS = 24 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, NULL, &error);
  g_autoptr (GRand) rand = g_rand_new_with_seed (42);
  g_autoptr (GPtrArray) validations = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_cross_validation_unref);
  g_autoptr (GPtrArray) snapshots = g_ptr_array_new_with_free_func (snapshot_free);
  shepard_params params, engine_params;

  for (int i = 0; i < POINTS; i++)
    {
      double x = g_rand_double_range (rand, extent[0], extent[2]), y = g_rand_double_range (rand, extent[1], extent[3]);
      g_assert_cmpint (shepard_document_add_point (document, x, y, sin (x / 90.0) + cos (y / 70.0), &error), ==, i);
    }
  g_ptr_array_add (snapshots, snapshot_new (document));
  shepard_params_init_aidw (&params);
  params.k = 4;
  sandbox_engine_params (&engine_params);

  for (int round = 0; round < ROUNDS; round++)
    {
      shepard_document_cross_validate_async (document, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL,
                                             on_cross_validated_into, validations);
      size_t count = shepard_document_get_points (document)->count;
      size_t index = g_rand_int_range (rand, 0, (gint32) count);
      switch (round % 4)
        {
        case 0:
          g_assert_true (shepard_document_move_point (document, index, g_rand_double_range (rand, 0, 1000),
                                                      g_rand_double_range (rand, 0, 800), &error));
          break;
        case 1:
          g_assert_true (shepard_document_set_point_value (document, index, g_rand_double (rand), &error));
          break;
        case 2:
          g_assert_cmpint (shepard_document_add_point (document, g_rand_double_range (rand, 0, 1000),
                                                       g_rand_double_range (rand, 0, 800), 0.5, &error),
                           ==, (gssize) count);
          break;
        default:
          g_assert_true (shepard_document_remove_point (document, index, &error));
        }
      g_ptr_array_add (snapshots, snapshot_new (document));
    }
  Count all = { validations, ROUNDS };
  g_assert_true (wait_until (has_count, &all));

  g_autofree double *prediction = g_new (double, POINTS + ROUNDS);
  guint before_edit = 0;
  for (guint i = 0; i < validations->len; i++)
    {
      ShepardCrossValidation *validation = g_ptr_array_index (validations, i);
      const Snapshot *snapshot = NULL;
      for (guint j = 0; j < snapshots->len; j++)
        if (((Snapshot *) g_ptr_array_index (snapshots, j))->generation == validation->points_generation)
          snapshot = g_ptr_array_index (snapshots, j);
      g_assert_nonnull (snapshot);
      /* The round's own edit came before or after its cross-validation took the engine: either is right. */
      before_edit += validation->points_generation == POINTS + i;
      g_assert_cmpuint (validation->n, ==, snapshot->x->len);
      g_assert_cmpmem (validation->x, validation->n * sizeof (double), snapshot->x->data, snapshot->x->len * sizeof (double));
      g_assert_cmpmem (validation->y, validation->n * sizeof (double), snapshot->y->data, snapshot->y->len * sizeof (double));
      g_assert_cmpmem (validation->observed, validation->n * sizeof (double), snapshot->z->data,
                       snapshot->z->len * sizeof (double));
      cross_validate_directly (&engine_params, (double *) snapshot->x->data, (double *) snapshot->y->data,
                               (double *) snapshot->z->data, validation->n, prediction);
      for (size_t k = 0; k < validation->n; k++)
        g_assert_cmpfloat (validation->prediction[k], ==, prediction[k]);
    }
  g_test_message ("%u of %d cross-validations ran before their round's edit", before_edit, ROUNDS);
}

typedef struct {
  gboolean delivered;
  GError *error;
} Outcome;

static void
on_optimised (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Outcome *outcome = user_data;
  ShepardOptimiseResult optimised;

  shepard_document_optimise_finish (SHEPARD_DOCUMENT (source), result, &optimised, &outcome->error);
  outcome->delivered = TRUE;
}

static gboolean
is_delivered (gpointer data)
{
  return ((Outcome *) data)->delivered;
}

/* While the optimiser has the engine, an edit is refused at once with a reason to show, and nothing changes; once
 * it is done, edits go through again. */
typedef struct {
  ShepardSurface *surface;
  GError *error;
  gboolean delivered;
} Interpolated;

static void
on_interpolated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Interpolated *interpolated = user_data;

  interpolated->surface = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result, &interpolated->error);
  interpolated->delivered = TRUE;
}

static gboolean
is_interpolated (gpointer data)
{
  return ((Interpolated *) data)->delivered;
}

/* After an edit the far field's tree is gone; the preview still plans its grids as the document says they will be
 * summed (shepard_document_get_summation), and the grid is summed so: the worker builds the tree again. */
static void
test_edited_points_sum_as_planned (void)
{
  enum { POINTS = 5000 };
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, NULL, &error);
  g_autoptr (GRand) rand = g_rand_new_with_seed (7);
  for (int i = 0; i < POINTS; i++)
    {
      double x = g_rand_double_range (rand, extent[0], extent[2]), y = g_rand_double_range (rand, extent[1], extent[3]);
      g_assert_cmpint (shepard_document_add_point (document, x, y, sin (x / 90.0) + cos (y / 70.0), &error), ==, i);
    }
  shepard_params params;
  shepard_params_init_aidw (&params);
  /* A small grid, which alone would not pay for the tree's build: the engine then takes the far field only with the
   * tree built, as the preview planned. */
  shepard_grid grid = { extent[0], extent[3], 1000.0 / 16, 800.0 / 16, 16, 16 };
  shepard_summation planned = shepard_document_get_summation (document, &params, grid.width * grid.height);
  g_assert_cmpint (planned, ==, SHEPARD_SUMMATION_FAR_FIELD);

  Interpolated interpolated = { 0 };
  shepard_document_interpolate_async (document, &params, &grid, SHEPARD_SURFACE_IN_HOST_MEMORY, NULL, on_interpolated,
                                      &interpolated);
  g_assert_true (wait_until (is_interpolated, &interpolated));
  g_assert_no_error (interpolated.error);
  g_assert_cmpint (interpolated.surface->summation, ==, planned);
  shepard_surface_unref (interpolated.surface);
}

static void
test_edits_wait_for_the_optimiser (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, NULL, &error);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  const double xs[] = { 100, 700, 400, 900, 250, 600 }, ys[] = { 100, 200, 600, 700, 450, 350 };
  shepard_params params;
  ShepardOptimiseOptions options;

  for (int i = 0; i < 6; i++)
    shepard_document_add_point (document, xs[i], ys[i], i * 10.0, &error);
  g_assert_no_error (error);
  guint generation = shepard_document_get_points_generation (document);
  shepard_params_init_idw (&params);
  shepard_optimise_options_init (&options);
  Outcome outcome = { 0 };
  shepard_document_optimise_async (document, &params, &options, NULL, NULL, cancellable, on_optimised, &outcome);

  g_assert_cmpint (shepard_document_add_point (document, 500, 500, 1, &error), ==, -1);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_test_message ("%s", error->message);
  g_clear_error (&error);
  g_assert_false (shepard_document_move_point (document, 0, 10, 10, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_BUSY);
  g_clear_error (&error);
  g_assert_cmpuint (shepard_document_get_points (document)->count, ==, 6);
  g_assert_cmpuint (shepard_document_get_points_generation (document), ==, generation);

  g_cancellable_cancel (cancellable);
  g_assert_true (wait_until (is_delivered, &outcome));
  /* Cancelled, or done before the cancel: either way the points are the sandbox's again. */
  g_assert_true (outcome.error == NULL || g_error_matches (outcome.error, G_IO_ERROR, G_IO_ERROR_CANCELLED));
  g_clear_error (&outcome.error);
  g_assert_cmpint (shepard_document_add_point (document, 500, 500, 1, &error), ==, 6);
  g_assert_no_error (error);
}

static void
on_explained (GObject *source, GAsyncResult *result, gpointer user_data)
{
  g_autoptr (GError) error = NULL;

  *(ShepardExplanation **) user_data = shepard_document_explain_finish (SHEPARD_DOCUMENT (source), result, &error);
  g_assert_no_error (error);
}

/* A sandbox's study area is its extent, not the box of the few points placed so far: AIDW's r_exp comes from the
 * extent's area in the surface, the explanation and the cross-validation, whatever the parameters' area mode, and
 * what comes back keeps the parameters as asked (nothing for a window to store). */
static void
test_study_area_is_the_extent (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_new_sandbox (extent, NULL, &error);
  const double xs[] = { 100, 300, 180, 260, 120, 220, 150, 290 };
  const double ys[] = { 100, 120, 250, 180, 200, 110, 160, 240 };
  shepard_params params, engine_params, bounding_box;

  for (int i = 0; i < 8; i++)
    shepard_document_add_point (document, xs[i], ys[i], 10.0 + i * i, &error);
  g_assert_no_error (error);
  shepard_params_init_aidw (&params);
  params.k = 4;
  sandbox_engine_params (&engine_params);
  double r_exp = shepard_aidw_expected_distance (8, engine_params.area);
  /* The points' box is 200 x 150: a far smaller area. */
  g_assert_cmpfloat (fabs (r_exp - shepard_aidw_expected_distance (8, 200.0 * 150.0)), >, 0.5 * r_exp);

  shepard_grid grid = { extent[0], extent[3], 100.0, 100.0, 10, 8 };
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_if_idle (document, &params, &grid,
                                                                             SHEPARD_SURFACE_IN_HOST_MEMORY, 0.0,
                                                                             &error);
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (surface->r_exp, r_exp, 1e-12 * r_exp);
  g_assert_true (shepard_params_equal (&surface->params, &params));

  ShepardExplanation *explanation = NULL;
  shepard_document_explain_async (document, &params, 500, 400, NULL, on_explained, &explanation);
  g_assert_true (wait_until (is_set, &explanation));
  g_assert_cmpfloat_with_epsilon (explanation->explanation.r_exp, r_exp, 1e-12 * r_exp);
  g_assert_true (shepard_params_equal (&explanation->params, &params));
  shepard_explanation_unref (explanation);

  ShepardCrossValidation *validation = NULL;
  shepard_document_cross_validate_async (document, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, on_cross_validated,
                                         &validation);
  g_assert_true (wait_until (is_set, &validation));
  g_assert_true (shepard_params_equal (&validation->params, &params));
  double with_extent[8], with_box[8];
  cross_validate_directly (&engine_params, xs, ys, validation->observed, 8, with_extent);
  bounding_box = params;
  cross_validate_directly (&bounding_box, xs, ys, validation->observed, 8, with_box);
  double largest_change = 0.0;
  for (int i = 0; i < 8; i++)
    {
      g_assert_cmpfloat (validation->prediction[i], ==, with_extent[i]);
      largest_change = fmax (largest_change, fabs (with_extent[i] - with_box[i]));
    }
  g_assert_cmpfloat (largest_change, >, 0.0);
  shepard_cross_validation_unref (validation);
}

/* The CRS as the sandbox dialog takes it back: an authority's code when there is one, else the WKT. */
static void
test_crs_definition (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) coded = shepard_document_new_sandbox (extent, "EPSG:28992", &error);
  g_autoptr (ShepardDocument) none = shepard_document_new_sandbox (extent, NULL, &error);
  g_autoptr (ShepardDocument) custom = shepard_document_new_sandbox (
    extent, "+proj=tmerc +lat_0=10 +lon_0=7.5 +k=0.9995 +x_0=400000 +y_0=0 +ellps=GRS80 +units=m +no_defs", &error);

  g_assert_no_error (error);
  g_assert_cmpstr (shepard_document_get_crs_definition (coded), ==, "EPSG:28992");
  g_assert_null (shepard_document_get_crs_definition (none));
  const char *definition = shepard_document_get_crs_definition (custom);
  g_assert_nonnull (definition);
  g_test_message ("custom CRS: %s", shepard_document_get_crs_name (custom));
  g_assert_false (g_str_has_prefix (definition, "EPSG:"));
  g_autoptr (ShepardDocument) again = shepard_document_new_sandbox (extent, definition, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (shepard_document_get_crs_name (again), ==, shepard_document_get_crs_name (custom));
  g_assert_cmpstr (shepard_document_get_crs_definition (again), ==, definition);
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
  g_test_add_func ("/app/sandbox/edits-during-cross-validation", test_edits_during_cross_validation);
  g_test_add_func ("/app/sandbox/edits-wait-for-the-optimiser", test_edits_wait_for_the_optimiser);
  g_test_add_func ("/app/sandbox/edited-points-sum-as-planned", test_edited_points_sum_as_planned);
  g_test_add_func ("/app/sandbox/study-area-is-the-extent", test_study_area_is_the_extent);
  g_test_add_func ("/app/sandbox/crs-definition", test_crs_definition);
  return g_test_run ();
}
