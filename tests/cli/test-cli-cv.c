/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-cv end to end: the text and JSON summaries against the engine, k-fold seeds, the residuals file read back
 * with OGR, --optimise (whose method shepard-grid takes), bad input and cancel. The tools come as arguments:
 * shepard-cv, then shepard-grid. */
#include "cli-harness.h"
#include "cli-points.h"

#include <gdal.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <signal.h>
#include <string.h>

#include "shepard-engine.h"

#define ERROR_PREFIX "shepard-cv:"
#define MEUSE_ZINC_IDW_LINE "n 155 ME -1.159 MAE 204.4 RMSE 278.3 R2 0.4216\n"

static char *grid_tool_path;
static char *fixtures_directory;

static void
find_grid_tool (int argc, char **argv)
{
  int operands = 0;

  for (int i = 1; i < argc; i++)
    if (argv[i][0] != '-' && ++operands == 2)
      grid_tool_path = g_strdup (argv[i]);
  if (grid_tool_path == NULL)
    {
      const char *build_root = g_getenv ("SHEPARD_BUILD_ROOT");
      grid_tool_path = g_build_filename (build_root != NULL ? build_root : ".", "app", "shepard-grid", NULL);
    }
}

static char *
meuse_path (void)
{
  return cli_source_path ("data/meuse.csv");
}

/* A fixture layer, made with the others on first use: "flat.gpkg" (equal values), "pair.gpkg" (two points). */
static char *
fixture (const char *name)
{
  if (fixtures_directory == NULL)
    {
      fixtures_directory = scratch_directory_new ("shepard-cli-XXXXXX");
      g_autofree char *csv = meuse_path ();
      g_autoptr (CliPoints) meuse = cli_points_read_csv (csv, "zinc");
      g_autoptr (CliPoints) flat = cli_points_new (20);
      g_autoptr (CliPoints) pair = cli_points_new (2);
      for (gsize i = 0; i < flat->n; i++)
        {
          flat->x[i] = meuse->x[i];
          flat->y[i] = meuse->y[i];
          flat->z[i] = 7.0;
        }
      for (gsize i = 0; i < pair->n; i++)
        {
          pair->x[i] = meuse->x[i];
          pair->y[i] = meuse->y[i];
          pair->z[i] = meuse->z[i];
        }
      g_autofree char *flat_path = g_build_filename (fixtures_directory, "flat.gpkg", NULL);
      g_autofree char *pair_path = g_build_filename (fixtures_directory, "pair.gpkg", NULL);
      cli_points_write_gpkg_layer (flat, flat_path, "flat", "zinc", CLI_GEOMETRY_POINTS);
      cli_points_write_gpkg_layer (pair, pair_path, "pair", "zinc", CLI_GEOMETRY_POINTS);
    }
  return g_build_filename (fixtures_directory, name, NULL);
}

/* The engine's cross-validation of the meuse zinc values with params, as the tool runs it (float32 on the CPU). */
static shepard_cv_summary
engine_cross_validation_with (const shepard_params *params, size_t folds, guint64 seed, double *prediction,
                              double *alpha, size_t *fold)
{
  g_autofree char *csv = meuse_path ();
  g_autoptr (CliPoints) points = cli_points_read_csv (csv, "zinc");
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, 0, &error);
  shepard_cv_summary summary;
  shepard_cv_outputs outputs = { .prediction = prediction, .alpha = alpha, .fold = fold };

  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, points->x, points->y, points->z, points->n, &error), ==,
                   SHEPARD_OK);
  g_assert_cmpint (shepard_engine_cross_validate (engine, params, folds, seed, &outputs, &summary, NULL, NULL,
                                                  &error),
                   ==, SHEPARD_OK);
  shepard_engine_free (engine);
  return summary;
}

/* The same with the method's defaults ("idw" or "aidw"). */
static shepard_cv_summary
engine_cross_validation (const char *method, size_t folds, guint64 seed, double *prediction, double *alpha,
                         size_t *fold)
{
  shepard_params params;

  if (strcmp (method, "aidw") == 0)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  return engine_cross_validation_with (&params, folds, seed, prediction, alpha, fold);
}

/* An AIDW method as the tool prints it ("aidw:k=12:alpha=1,2,2.5,3,4:rmin=0.1:rmax=3", defaults left out), read
 * here on its own rather than by the tool's parser: a key the test does not know fails it. */
static void
parse_printed_aidw (const char *method, shepard_params *params)
{
  g_auto (GStrv) parts = g_strsplit (method, ":", -1);

  shepard_params_init_aidw (params);
  g_assert_cmpstr (parts[0], ==, "aidw");
  for (char **part = parts + 1; *part != NULL; part++)
    {
      const char *equals = strchr (*part, '=');
      g_assert_nonnull (equals);
      g_autofree char *key = g_strndup (*part, (gsize) (equals - *part));
      const char *value = equals + 1;
      if (strcmp (key, "k") == 0)
        params->k = (int) g_ascii_strtoll (value, NULL, 10);
      else if (strcmp (key, "rmin") == 0)
        params->r_min = g_ascii_strtod (value, NULL);
      else if (strcmp (key, "rmax") == 0)
        params->r_max = g_ascii_strtod (value, NULL);
      else if (strcmp (key, "alpha") == 0)
        {
          g_auto (GStrv) alphas = g_strsplit (value, ",", -1);
          g_assert_cmpuint (g_strv_length (alphas), ==, SHEPARD_AIDW_LEVELS);
          for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
            params->alpha[level] = g_ascii_strtod (alphas[level], NULL);
        }
      else
        g_error ("the printed method %s has the key %s, which this test does not read", method, key);
    }
}

static void
assert_close (double actual, double expected)
{
  g_assert_cmpfloat (fabs (actual - expected), <=, 1e-12 * fabs (expected));
}

static JsonObject *
parse_json (const char *text, JsonParser *parser)
{
  g_autoptr (GError) error = NULL;

  g_test_message ("JSON: %s", text);
  /* One object, on one line. */
  g_assert_true (g_str_has_suffix (text, "}\n"));
  g_assert_true (strchr (text, '\n')[1] == '\0');
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);
  JsonNode *root = json_parser_get_root (parser);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (root));
  return json_node_get_object (root);
}

static void
test_text_output (void)
{
  g_autofree char *source = meuse_path ();
  const char *quiet_args[] = { "-zfield", "zinc", "-a", "idw:power=2", "-q", source, NULL };
  const char *loud_args[] = { "-zfield", "zinc", source, NULL };
  g_autoptr (CliRun) quiet = cli_run (quiet_args);
  g_autoptr (CliRun) loud = cli_run (loud_args);

  cli_assert_success (quiet);
  cli_assert_success (loud);
  g_assert_cmpstr (quiet->standard_output, ==, MEUSE_ZINC_IDW_LINE);
  g_assert_cmpstr (quiet->standard_error, ==, "");
  g_assert_cmpstr (loud->standard_output, ==, MEUSE_ZINC_IDW_LINE);
  g_assert_nonnull (strstr (loud->standard_error, "Input: 155 points of layer \"meuse\", field \"zinc\"\n"));
  g_assert_nonnull (strstr (loud->standard_error, "Backend: "));
  g_assert_nonnull (strstr (loud->standard_error, "0...10...20...30...40...50...60...70...80...90...100 - done.\n"));
}

/* Cross-validation says too where points at one location hold different values: leaving one of them out predicts it
 * from its twins. */
static void
test_duplicates_reported (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = g_build_filename (directory, "duplicates.gpkg", NULL);
  const double x[] = { 0, 0, 0, 5, 5, 10, 10, 3 }, y[] = { 0, 0, 0, 5, 5, 0, 0, 8 };
  const double z[] = { 1, 5, 3, 2, 2, 7, 7.5, 4 };
  g_autoptr (CliPoints) points = cli_points_new_from (x, y, z, G_N_ELEMENTS (x));

  cli_points_write_gpkg_layer (points, source, "duplicates", "value", CLI_GEOMETRY_POINTS);
  const char *args[] = { "-zfield", "value", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);
  g_test_message ("%s", run->standard_error);
  /* (5, 5) holds two points of one value: nothing to report there. */
  g_assert_nonnull (strstr (run->standard_error,
                            "Input: 8 points of layer \"duplicates\", field \"value\"\n"
                            "Duplicates in field \"value\": 2 locations hold 5 points with different values (the "
                            "widest spread, 4, at x 0, y 0: 3 points); the surface takes their mean there (3 at "
                            "the widest)\n"));
  scratch_directory_remove (directory);
}

static void
test_json_output (gconstpointer data)
{
  const char *method = data;
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", method, "--json", "--backend", "cpu", "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (JsonParser) parser = json_parser_new ();

  cli_assert_success (run);
  JsonObject *object = parse_json (run->standard_output, parser);
  shepard_cv_summary expected = engine_cross_validation (method, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, NULL, NULL);

  g_assert_cmpuint (json_object_get_size (object), ==, 5);
  g_assert_cmpint (json_object_get_int_member (object, "n"), ==, 155);
  assert_close (json_object_get_double_member (object, "me"), expected.me);
  assert_close (json_object_get_double_member (object, "mae"), expected.mae);
  assert_close (json_object_get_double_member (object, "rmse"), expected.rmse);
  assert_close (json_object_get_double_member (object, "r2"), expected.r2);
}

/* Values all equal: R² is undefined, null in JSON and nan in the text. */
static void
test_undefined_r2 (void)
{
  g_autofree char *flat = fixture ("flat.gpkg");
  const char *json_args[] = { "-zfield", "zinc", "--json", "-q", flat, NULL };
  const char *text_args[] = { "-zfield", "zinc", "-q", flat, NULL };
  g_autoptr (CliRun) json = cli_run (json_args);
  g_autoptr (CliRun) text = cli_run (text_args);
  g_autoptr (JsonParser) parser = json_parser_new ();

  cli_assert_success (json);
  cli_assert_success (text);
  JsonObject *object = parse_json (json->standard_output, parser);
  g_assert_true (json_object_get_null_member (object, "r2"));
  /* float32 predicts a constant within its rounding. */
  g_assert_cmpfloat (json_object_get_double_member (object, "rmse"), <, 1e-6 * 7.0);
  g_test_message ("%s", text->standard_output);
  g_assert_true (g_regex_match_simple ("^n 20 ME \\S+ MAE \\S+ RMSE \\S+ R2 nan\n$", text->standard_output, 0, 0));
}

static void
test_k_fold (void)
{
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", "--folds", "5", "--seed", "7", "--json", "--backend",
                         "cpu", "-q", source, NULL };
  const char *other_seed[] = { "-zfield", "zinc", "-a", "aidw", "--folds", "5", "--seed", "8", "--json", "--backend",
                               "cpu", "-q", source, NULL };
  g_autoptr (CliRun) first = cli_run (args);
  g_autoptr (CliRun) second = cli_run (args);
  g_autoptr (CliRun) third = cli_run (other_seed);
  g_autoptr (JsonParser) parser = json_parser_new ();

  cli_assert_success (first);
  cli_assert_success (second);
  cli_assert_success (third);
  g_assert_cmpstr (first->standard_output, ==, second->standard_output);
  g_assert_cmpstr (first->standard_output, !=, third->standard_output);
  JsonObject *object = parse_json (first->standard_output, parser);
  shepard_cv_summary expected = engine_cross_validation ("aidw", 5, 7, NULL, NULL, NULL);
  assert_close (json_object_get_double_member (object, "rmse"), expected.rmse);
  assert_close (json_object_get_double_member (object, "me"), expected.me);
}

static const char *
authority_code (OGRLayerH layer)
{
  OGRSpatialReferenceH crs = OGR_L_GetSpatialRef (layer);

  g_assert_nonnull (crs);
  OSRAutoIdentifyEPSG (crs);
  return OSRGetAuthorityCode (crs, NULL);
}

/* What a residuals file must hold: the engine's outcome for every meuse point, where the points are. */
typedef struct {
  const double *prediction, *alpha;
  const size_t *fold;
  double tolerance;          /* relative, of the numbers a format writes as text; 0: exactly */
  const char *epsg;          /* the file's CRS */
  const double *x, *y;       /* the points in that CRS */
  double position_tolerance; /* absolute, in its units */
} ExpectedResiduals;

/* Every point in order with its observed value, the engine's prediction, residual = predicted - observed, alpha and
 * fold, read back with OGR. */
static void
assert_residuals_file (const char *path, const ExpectedResiduals *expected)
{
  g_autofree char *source = meuse_path ();
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  const char *const csv_options[] = { "X_POSSIBLE_NAMES=X", "Y_POSSIBLE_NAMES=Y", "AUTODETECT_TYPE=YES", NULL };
  GDALDatasetH dataset = GDALOpenEx (path, GDAL_OF_VECTOR, NULL, g_str_has_suffix (path, ".csv") ? csv_options : NULL,
                                     NULL);

  g_assert_cmpuint (points->n, ==, 155);
  g_assert_nonnull (dataset);
  OGRLayerH layer = GDALDatasetGetLayer (dataset, 0);
  g_assert_cmpint (OGR_L_GetFeatureCount (layer, TRUE), ==, 155);
  g_assert_cmpstr (authority_code (layer), ==, expected->epsg);
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);
  const char *names[] = { "observed", "predicted", "residual", "alpha", "fold" };
  int index[G_N_ELEMENTS (names)];
  for (gsize f = 0; f < G_N_ELEMENTS (names); f++)
    {
      index[f] = OGR_FD_GetFieldIndex (definition, names[f]);
      g_assert_cmpint (index[f], >=, 0);
    }
  double tolerance = expected->tolerance;
  OGRFeatureH feature;
  gsize i = 0;
  OGR_L_ResetReading (layer);
  while ((feature = OGR_L_GetNextFeature (layer)) != NULL)
    {
      OGRGeometryH point = OGR_F_GetGeometryRef (feature);
      double observed = OGR_F_GetFieldAsDouble (feature, index[0]);
      double predicted = OGR_F_GetFieldAsDouble (feature, index[1]);
      double residual = OGR_F_GetFieldAsDouble (feature, index[2]);
      g_assert_cmpuint (i, <, 155);
      g_assert_cmpfloat (fabs (OGR_G_GetX (point, 0) - expected->x[i]), <=, expected->position_tolerance);
      g_assert_cmpfloat (fabs (OGR_G_GetY (point, 0) - expected->y[i]), <=, expected->position_tolerance);
      g_assert_cmpfloat (fabs (observed - points->z[i]), <=, tolerance * points->z[i]);
      g_assert_cmpfloat (fabs (predicted - expected->prediction[i]), <=, tolerance * fabs (expected->prediction[i]));
      g_assert_cmpfloat (fabs (residual - (predicted - observed)), <=, 1e-12 * fabs (observed));
      g_assert_cmpfloat (fabs (OGR_F_GetFieldAsDouble (feature, index[3]) - expected->alpha[i]), <=,
                         tolerance * expected->alpha[i]);
      g_assert_cmpfloat (OGR_F_GetFieldAsDouble (feature, index[4]), ==, (double) expected->fold[i]);
      OGR_F_Destroy (feature);
      i++;
    }
  GDALClose (dataset);
  g_assert_cmpuint (i, ==, 155);
}

/* k-fold residuals, in RD New as the source. */
static void
test_residuals (gconstpointer data)
{
  const char *file_name = data;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, file_name, NULL);
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", "--folds", "4", "--seed", "11", "--backend", "cpu",
                         "-o", output, "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  double prediction[155], alpha[155];
  size_t fold[155];

  cli_assert_success (run);
  engine_cross_validation ("aidw", 4, 11, prediction, alpha, fold);
  /* CSV keeps 15 significant digits, GeoPackage every bit. */
  ExpectedResiduals expected = {
    .prediction = prediction, .alpha = alpha, .fold = fold,
    .tolerance = g_str_has_suffix (file_name, ".csv") ? 1e-14 : 0.0,
    .epsg = "28992", .x = points->x, .y = points->y, .position_tolerance = 0.0,
  };
  assert_residuals_file (output, &expected);
  scratch_directory_remove (directory);
}

/* Leave-one-out, by default or asked for by name (in any case): each point is its own fold, its index. */
static void
test_residuals_leave_one_out (gconstpointer data)
{
  const char *folds = data;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "loo.gpkg", NULL);
  g_autofree char *source = meuse_path ();
  const char *default_args[] = { "-zfield", "zinc", "-a", "aidw", "--backend", "cpu", "--json", "-o", output, "-q",
                                 source, NULL };
  const char *named_args[] = { "-zfield", "zinc", "-a", "aidw", "--folds", folds, "--backend", "cpu", "--json", "-o",
                               output, "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (folds != NULL ? named_args : default_args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  g_autoptr (JsonParser) parser = json_parser_new ();
  double prediction[155], alpha[155];
  size_t fold[155], own_index[155];

  cli_assert_success (run);
  shepard_cv_summary summary = engine_cross_validation ("aidw", SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, prediction, alpha,
                                                        fold);
  JsonObject *object = parse_json (run->standard_output, parser);
  assert_close (json_object_get_double_member (object, "rmse"), summary.rmse);
  assert_close (json_object_get_double_member (object, "me"), summary.me);
  for (gsize i = 0; i < 155; i++)
    own_index[i] = i;
  ExpectedResiduals expected = {
    .prediction = prediction, .alpha = alpha, .fold = own_index, .tolerance = 0.0,
    .epsg = "28992", .x = points->x, .y = points->y, .position_tolerance = 0.0,
  };
  assert_residuals_file (output, &expected);
  scratch_directory_remove (directory);
}

/* With --optimise the residuals are those of the best parameters, which the tool prints: the engine run here with
 * that method gives every prediction bit for bit. */
static void
test_residuals_optimised (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "best.gpkg", NULL);
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", "--optimise", "--folds", "5", "--seed", "3", "--backend",
                         "cpu", "--json", "-o", output, "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  g_autoptr (JsonParser) parser = json_parser_new ();
  double prediction[155], alpha[155];
  size_t fold[155];

  cli_assert_success (run);
  JsonObject *object = parse_json (run->standard_output, parser);
  const char *method = json_object_get_string_member (object, "method");
  shepard_params best, start;
  parse_printed_aidw (method, &best);
  shepard_params_init_aidw (&start);
  shepard_cv_summary summary = engine_cross_validation_with (&best, 5, 3, prediction, alpha, fold);
  shepard_cv_summary start_summary = engine_cross_validation_with (&start, 5, 3, NULL, NULL, NULL);
  g_test_message ("best %s: RMSE %.9g; the start's %.9g", method, summary.rmse, start_summary.rmse);
  /* The best, not the start: the method moved, and so did the residuals. */
  g_assert_cmpstr (method, !=, "aidw");
  g_assert_cmpfloat (summary.rmse, <, start_summary.rmse);
  assert_close (json_object_get_double_member (object, "rmse"), summary.rmse);
  assert_close (json_object_get_double_member (object, "start_rmse"), start_summary.rmse);
  ExpectedResiduals expected = {
    .prediction = prediction, .alpha = alpha, .fold = fold, .tolerance = 0.0,
    .epsg = "28992", .x = points->x, .y = points->y, .position_tolerance = 0.0,
  };
  assert_residuals_file (output, &expected);
  scratch_directory_remove (directory);
}

/* An extension outside the writer's own list: GDAL's driver for it (KML), which keeps WGS 84 whatever the source's
 * CRS, so the points come back as OGR transforms the source's. */
static void
test_residuals_gdal_extension (void)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "residuals.kml", NULL);
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw", "--backend", "cpu", "-o", output, "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  double prediction[155], alpha[155];
  size_t fold[155];

  cli_assert_success (run);
  g_autofree char *files = scratch_directory_list (directory);
  g_assert_cmpstr (files, ==, "residuals.kml");
  engine_cross_validation ("aidw", SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, prediction, alpha, fold);

  /* The source's CRS as GDAL reads it (meuse.prj), to WGS 84 in longitude, latitude order. */
  const char *const meuse_options[] = { "X_POSSIBLE_NAMES=x", "Y_POSSIBLE_NAMES=y", NULL };
  GDALDatasetH meuse = GDALOpenEx (source, GDAL_OF_VECTOR, NULL, meuse_options, NULL);
  g_assert_nonnull (meuse);
  OGRSpatialReferenceH rd_new = OGR_L_GetSpatialRef (GDALDatasetGetLayer (meuse, 0));
  g_assert_nonnull (rd_new);
  OGRSpatialReferenceH wgs84 = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (wgs84, 4326), ==, OGRERR_NONE);
  OSRSetAxisMappingStrategy (wgs84, OAMS_TRADITIONAL_GIS_ORDER);
  OGRCoordinateTransformationH to_wgs84 = OCTNewCoordinateTransformation (rd_new, wgs84);
  g_assert_nonnull (to_wgs84);
  double longitude[155], latitude[155];
  memcpy (longitude, points->x, sizeof longitude);
  memcpy (latitude, points->y, sizeof latitude);
  g_assert_true (OCTTransform (to_wgs84, 155, longitude, latitude, NULL));
  OCTDestroyCoordinateTransformation (to_wgs84);
  OSRRelease (wgs84);
  GDALClose (meuse);

  /* KML writes 15 significant digits: about 1e-14 of a degree. */
  ExpectedResiduals expected = {
    .prediction = prediction, .alpha = alpha, .fold = fold, .tolerance = 1e-14,
    .epsg = "4326", .x = longitude, .y = latitude, .position_tolerance = 1e-12,
  };
  assert_residuals_file (output, &expected);
  scratch_directory_remove (directory);
}

/* "method M start RMSE x evaluations N": M and the numbers. */
static void
parse_method_line (const char *line, char **method, double *start, guint *evaluations)
{
  g_auto (GStrv) words = g_strsplit (line, " ", -1);

  g_assert_cmpuint (g_strv_length (words), ==, 7);
  g_assert_cmpstr (words[0], ==, "method");
  g_assert_cmpstr (words[2], ==, "start");
  g_assert_true (strcmp (words[3], "RMSE") == 0 || strcmp (words[3], "MAE") == 0);
  g_assert_cmpstr (words[5], ==, "evaluations");
  *method = g_strdup (words[1]);
  *start = g_ascii_strtod (words[4], NULL);
  *evaluations = (guint) g_ascii_strtoull (words[6], NULL, 10);
}

/* The method shepard-cv found grids the layer with shepard-grid. */
static void
assert_grid_takes (const char *method)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "best.tif", NULL);
  g_autofree char *source = meuse_path ();
  const char *grid_args[] = { grid_tool_path, "-zfield", "zinc", "-a", method, "-outsize", "16", "16", "-q",
                              source, output, NULL };
  g_autofree char *standard_error = NULL;
  int wait_status = 0;
  g_autoptr (GError) error = NULL;

  g_test_message ("shepard-grid -a %s", method);
  g_spawn_sync (NULL, (char **) grid_args, NULL, G_SPAWN_STDOUT_TO_DEV_NULL, NULL, NULL, NULL, &standard_error,
                &wait_status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (wait_status, NULL))
    g_test_message ("shepard-grid: %s", standard_error);
  g_assert_true (g_spawn_check_wait_status (wait_status, NULL));
  g_assert_true (g_file_test (output, G_FILE_TEST_IS_REGULAR));
  scratch_directory_remove (directory);
}

static void
test_optimise_text (gconstpointer data)
{
  const char *method = data;
  g_autofree char *source = meuse_path ();
  /* The word after --optimise is the source here, not an objective. */
  const char *args[] = { "-zfield", "zinc", "-a", method, "-q", "--optimise", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_test_message ("%s", run->standard_output);
  g_auto (GStrv) lines = g_strsplit (run->standard_output, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);
  g_assert_cmpstr (lines[2], ==, "");
  g_assert_true (g_str_has_prefix (lines[0], "n 155 ME "));
  double best = g_ascii_strtod (strstr (lines[0], " RMSE ") + strlen (" RMSE "), NULL);

  g_autofree char *best_method = NULL;
  double start = 0.0;
  guint evaluations = 0;
  parse_method_line (lines[1], &best_method, &start, &evaluations);
  g_assert_nonnull (strstr (lines[1], " start RMSE "));
  g_assert_true (g_str_has_prefix (best_method, method));
  g_assert_cmpfloat (start, ==, strcmp (method, "idw") == 0 ? 278.3 : 257.2);
  g_assert_cmpfloat (best, <, start);
  g_assert_cmpuint (evaluations, >, 1);
  assert_grid_takes (best_method);
}

static void
test_optimise_json (gconstpointer data)
{
  const char *objective = data;
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "-a", "aidw:k=10", "--optimise", objective, "--json", "-q", source,
                         NULL };
  g_autoptr (CliRun) run = cli_run (args);
  g_autoptr (JsonParser) parser = json_parser_new ();

  cli_assert_success (run);
  JsonObject *object = parse_json (run->standard_output, parser);
  const char *score = strcmp (objective, "mae") == 0 ? "mae" : "rmse";
  g_autofree char *start_score = g_strconcat ("start_", score, NULL);
  g_assert_cmpstr (json_object_get_string_member (object, "objective"), ==, score);
  g_assert_cmpfloat (json_object_get_double_member (object, score), <,
                     json_object_get_double_member (object, start_score));
  g_assert_true (json_object_has_member (object, "start_rmse"));
  g_assert_cmpint (json_object_get_int_member (object, "evaluations"), >, 1);
  g_assert_cmpint (json_object_get_int_member (object, "n"), ==, 155);
  const char *method = json_object_get_string_member (object, "method");
  g_assert_true (g_str_has_prefix (method, "aidw:"));
  assert_grid_takes (method);
}

static void
test_optimise_mae_text (void)
{
  g_autofree char *source = meuse_path ();
  const char *args[] = { "-zfield", "zinc", "--optimise", "MAE", "-q", source, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_assert_nonnull (strstr (run->standard_output, " start MAE 204.4 evaluations "));
}

/* The whole of stderr is one line "shepard-cv: <reason>" whose reason matches pattern (case-insensitive). */
static void
assert_one_error_line (const char *standard_error, const char *pattern)
{
  g_test_message ("stderr: %s", standard_error);
  g_assert_true (g_str_has_prefix (standard_error, ERROR_PREFIX));
  const char *newline = strchr (standard_error, '\n');
  g_assert_nonnull (newline);
  g_assert_true (newline[1] == '\0');
  g_assert_true (g_regex_match_simple (pattern, standard_error + strlen (ERROR_PREFIX), G_REGEX_CASELESS, 0));
}

enum { MAX_CASE_ARGS = 12 };

typedef struct {
  const char *name;
  int exit_code;
  const char *pattern;
  const char *args[MAX_CASE_ARGS]; /* {meuse}, {flat}, {pair} for the layers, {out} for the output directory */
} BadInput;

static const BadInput bad_inputs[] = {
  { "missing-zfield", 2, "-zfield", { "{meuse}" } },
  { "missing-source", 2, "SRC", { "-zfield", "zinc" } },
  { "two-sources", 2, "unexpected.*meuse", { "-zfield", "zinc", "{meuse}", "{meuse}" } },
  { "unknown-field", 1, "nickel", { "-zfield", "nickel", "{meuse}" } },
  { "text-field", 1, "landuse", { "-zfield", "landuse", "{meuse}" } },
  { "two-points", 2, "at least 3", { "-zfield", "zinc", "{pair}" } },
  { "one-fold", 2, "folds.*\"1\"", { "-zfield", "zinc", "--folds", "1", "{meuse}" } },
  { "zero-folds", 2, "folds.*\"0\"", { "-zfield", "zinc", "--folds", "0", "{meuse}" } },
  { "folds-above-n", 2, "2 to 155 folds", { "-zfield", "zinc", "--folds", "156", "{meuse}" } },
  { "folds-text", 2, "folds.*\"some\"", { "-zfield", "zinc", "--folds", "some", "{meuse}" } },
  { "k-too-large", 2, "k must be below 154", { "-zfield", "zinc", "-a", "aidw:k=154", "{meuse}" } },
  { "k-fold-k-too-large", 2, "lower k or use more folds",
    { "-zfield", "zinc", "-a", "aidw:k=100", "--folds", "2", "{meuse}" } },
  { "negative-seed", 2, "seed.*\"-1\"", { "-zfield", "zinc", "--seed", "-1", "{meuse}" } },
  { "seed-text", 2, "seed.*\"abc\"", { "-zfield", "zinc", "--seed", "abc", "{meuse}" } },
  { "seed-overflow", 2, "seed", { "-zfield", "zinc", "--seed", "18446744073709551616", "{meuse}" } },
  { "unknown-option", 2, "frobnicate", { "-zfield", "zinc", "--frobnicate", "{meuse}" } },
  { "unknown-method", 2, "kriging", { "-zfield", "zinc", "-a", "kriging", "{meuse}" } },
  { "bad-rexp", 2, "rexp|nearest", { "-zfield", "zinc", "-a", "aidw:rexp=far", "{meuse}" } },
  { "bad-backend", 2, "backend", { "-zfield", "zinc", "--backend", "tpu", "{meuse}" } },
  { "missing-folds-value", 2, "--folds", { "-zfield", "zinc", "{meuse}", "--folds" } },
  { "residuals-missing-directory", 1, "missing", { "-zfield", "zinc", "-o", "{out}/missing/r.gpkg", "{meuse}" } },
  { "residuals-unknown-extension", 1, "extension.*gpkg", { "-zfield", "zinc", "-o", "{out}/r.nope", "{meuse}" } },
  { "residuals-is-source", 1, "input", { "-zfield", "zinc", "-o", "{meuse}", "{meuse}" } },
};

static char *
expand (const char *arg, const char *output_directory)
{
  if (strcmp (arg, "{meuse}") == 0)
    return meuse_path ();
  if (strcmp (arg, "{pair}") == 0)
    return fixture ("pair.gpkg");
  if (g_str_has_prefix (arg, "{out}"))
    return g_strconcat (output_directory, arg + strlen ("{out}"), NULL);
  return g_strdup (arg);
}

static void
test_bad_input (gconstpointer data)
{
  const BadInput *bad = data;
  g_autofree char *output_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (args, g_strdup ("-q"));
  for (gsize i = 0; i < MAX_CASE_ARGS && bad->args[i] != NULL; i++)
    g_ptr_array_add (args, expand (bad->args[i], output_directory));
  g_ptr_array_add (args, NULL);
  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);

  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, bad->exit_code);
  g_assert_cmpstr (run->standard_output, ==, "");
  assert_one_error_line (run->standard_error, bad->pattern);
  g_autofree char *left = scratch_directory_list (output_directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (output_directory);
}

/* 100,000 random points: one leave-one-out over all of them is seconds of work, and --optimise runs hundreds. */
static const char *
large_fixture (void)
{
  static char *path;

  if (path == NULL)
    {
      path = fixture ("large.gpkg");
      cli_points_write_random_gpkg (path, 100000, 20261124);
    }
  return path;
}

static void
test_cancel (void)
{
  g_autofree char *output_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (output_directory, "residuals.gpkg", NULL);
  const char *args[] = { "-zfield", "zinc", "--optimise", "--backend", "cpu", "-o", output, large_fixture (), NULL };
  g_autoptr (CliInterruptedRun) run = cli_run_interrupted (args, 0.5);

  g_assert_true (run->ended);
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 128 + SIGINT);
  const char *message = strstr (run->standard_error, "\n" ERROR_PREFIX);
  g_assert_nonnull (message);
  assert_one_error_line (message + 1, "cancelled by SIGINT.*no residuals file");
  g_autofree char *left = scratch_directory_list (output_directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (output_directory);
}

/* Results that cannot be written (a full disk: /dev/full) are a failure, not a success that printed nothing: "text",
 * "json" or the usage of "--help". */
static void
test_stdout_full (gconstpointer data)
{
  const char *output = data;
  g_autofree char *source = meuse_path ();
  const char *text_args[] = { "-zfield", "zinc", "-q", source, NULL };
  const char *json_args[] = { "-zfield", "zinc", "--json", "-q", source, NULL };
  const char *help_args[] = { "--help", NULL };
  gboolean help = strcmp (output, "--help") == 0;
  const char *const *args = help ? help_args : strcmp (output, "json") == 0 ? json_args : text_args;

  if (!g_file_test ("/dev/full", G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no /dev/full here");
      return;
    }
  g_autoptr (CliRun) run = cli_run_with_stdout (args, "/dev/full");
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 1);
  assert_one_error_line (run->standard_error, help ? "cannot write the usage to standard output"
                                                   : "cannot write the results to standard output");
}

static void
test_help (void)
{
  const char *args[] = { "--help", NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_assert_true (g_str_has_prefix (run->standard_output, "Usage: shepard-cv [-l LAYER] -zfield FIELD"));
  g_assert_nonnull (strstr (run->standard_output, "[:rexp=nearest|knn]"));
  g_assert_nonnull (strstr (run->standard_output, "method METHOD start RMSE"));
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  find_grid_tool (argc, argv);
  GDALAllRegister ();

  g_test_add_func ("/cli/cv/help", test_help);
  g_test_add_func ("/cli/cv/text", test_text_output);
  g_test_add_func ("/cli/cv/duplicates-reported", test_duplicates_reported);
  g_test_add_data_func ("/cli/cv/json/idw", "idw", test_json_output);
  g_test_add_data_func ("/cli/cv/json/aidw", "aidw", test_json_output);
  g_test_add_func ("/cli/cv/undefined-r2", test_undefined_r2);
  g_test_add_func ("/cli/cv/k-fold", test_k_fold);
  g_test_add_data_func ("/cli/cv/residuals/gpkg", "residuals.gpkg", test_residuals);
  g_test_add_data_func ("/cli/cv/residuals/csv", "residuals.csv", test_residuals);
  g_test_add_data_func ("/cli/cv/residuals/leave-one-out", NULL, test_residuals_leave_one_out);
  g_test_add_data_func ("/cli/cv/residuals/leave-one-out-named", "LOO", test_residuals_leave_one_out);
  g_test_add_func ("/cli/cv/residuals/optimised", test_residuals_optimised);
  g_test_add_func ("/cli/cv/residuals/gdal-extension", test_residuals_gdal_extension);
  g_test_add_data_func ("/cli/cv/optimise/idw", "idw", test_optimise_text);
  g_test_add_data_func ("/cli/cv/optimise/aidw", "aidw", test_optimise_text);
  g_test_add_data_func ("/cli/cv/optimise/json-rmse", "rmse", test_optimise_json);
  g_test_add_data_func ("/cli/cv/optimise/json-mae", "mae", test_optimise_json);
  g_test_add_func ("/cli/cv/optimise/mae-text", test_optimise_mae_text);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_inputs); i++)
    {
      g_autofree char *path = g_strconcat ("/cli/cv/bad-input/", bad_inputs[i].name, NULL);
      g_test_add_data_func (path, &bad_inputs[i], test_bad_input);
    }
  g_test_add_func ("/cli/cv/cancel", test_cancel);
  g_test_add_data_func ("/cli/cv/stdout-full/text", "text", test_stdout_full);
  g_test_add_data_func ("/cli/cv/stdout-full/json", "json", test_stdout_full);
  g_test_add_data_func ("/cli/cv/stdout-full/help", "--help", test_stdout_full);

  int status = g_test_run ();
  if (fixtures_directory != NULL)
    scratch_directory_remove (fixtures_directory);
  return status;
}
