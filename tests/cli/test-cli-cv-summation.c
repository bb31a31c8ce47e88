/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-cv and the method string's summation and tolerance (issue 15): cross-validation weighs every pair exactly,
 * so summation=auto|exact are taken and change nothing (the errors equal a float64 leave-one-out computed here),
 * while summation=farfield and tolerance=T, which would promise a far field, are refused before anything is read, and
 * so is nodata=V, which sets nothing without a raster. */
#include "cli-harness.h"
#include "cli-points.h"

#include <json-glib/json-glib.h>
#include <math.h>

static char *
meuse_path (void)
{
  return cli_source_path ("data/meuse.csv");
}

/* Cross-validates the meuse zinc values with method (leave-one-out), with the arguments extra (NULL-terminated; NULL:
 * none) before SRC. */
static CliRun *
run_meuse (const char *method, const char *const *extra)
{
  g_autofree char *source = meuse_path ();
  g_autoptr (GPtrArray) args = g_ptr_array_new ();
  const char *const leading[] = { "-zfield", "zinc", "-a", method };

  for (size_t i = 0; i < G_N_ELEMENTS (leading); i++)
    g_ptr_array_add (args, (gpointer) leading[i]);
  for (; extra != NULL && *extra != NULL; extra++)
    g_ptr_array_add (args, (gpointer) *extra);
  g_ptr_array_add (args, source);
  g_ptr_array_add (args, NULL);
  return cli_run ((const char *const *) args->pdata);
}

typedef struct {
  double me, mae, rmse;
} Errors;

/* Leave-one-out IDW with power 2 over all points, in float64, point by point. */
static Errors
float64_leave_one_out (void)
{
  g_autofree char *source = meuse_path ();
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  double sum = 0.0, sum_absolute = 0.0, sum_squared = 0.0;

  for (gsize held = 0; held < points->n; held++)
    {
      double weights = 0.0, weighted = 0.0;
      for (gsize i = 0; i < points->n; i++)
        {
          if (i == held)
            continue;
          double dx = points->x[i] - points->x[held], dy = points->y[i] - points->y[held];
          double squared = dx * dx + dy * dy;
          /* meuse has no two samples at one place: the coincident rule never applies here. */
          g_assert_cmpfloat (squared, >, 0.0);
          weights += 1.0 / squared;
          weighted += points->z[i] / squared;
        }
      double error = weighted / weights - points->z[held];
      sum += error;
      sum_absolute += fabs (error);
      sum_squared += error * error;
    }
  return (Errors) { sum / points->n, sum_absolute / points->n, sqrt (sum_squared / points->n) };
}

static double
zinc_range (void)
{
  g_autofree char *source = meuse_path ();
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  return cli_points_value_range (points);
}

/* summation=auto and summation=exact: the same errors as without the key, and those of every pair weighed in float64
 * within 1e-6 of the value range (the tool computes in float32; it lands about 1e-9 of the range away). A far field
 * within its default tolerance could pass that bound too: the equality with the run without the key is what shows
 * that nothing changed. */
static void
test_auto_and_exact_are_every_pair (void)
{
  static const char *const methods[] = { "idw:power=2:summation=auto", "idw:power=2:summation=exact" };
  static const char *const json[] = { "--backend", "cpu", "--json", "-q", NULL };
  g_autoptr (CliRun) plain = run_meuse ("idw:power=2", json);
  Errors expected = float64_leave_one_out ();
  double bound = 1e-6 * zinc_range ();

  cli_assert_success (plain);
  for (size_t i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      g_autoptr (CliRun) run = run_meuse (methods[i], json);
      g_autoptr (JsonParser) parser = json_parser_new ();
      g_autoptr (GError) error = NULL;

      cli_assert_success (run);
      g_test_message ("%s: %s", methods[i], run->standard_output);
      g_assert_cmpstr (run->standard_output, ==, plain->standard_output);
      g_assert_cmpstr (run->standard_error, ==, "");
      g_assert_true (json_parser_load_from_data (parser, run->standard_output, -1, &error));
      g_assert_no_error (error);
      JsonObject *summary = json_node_get_object (json_parser_get_root (parser));
      g_assert_cmpint (json_object_get_int_member (summary, "n"), ==, 155);
      g_assert_cmpfloat (fabs (json_object_get_double_member (summary, "me") - expected.me), <=, bound);
      g_assert_cmpfloat (fabs (json_object_get_double_member (summary, "mae") - expected.mae), <=, bound);
      g_assert_cmpfloat (fabs (json_object_get_double_member (summary, "rmse") - expected.rmse), <=, bound);
    }
}

/* AIDW and the text output: the key changes nothing there either. */
static void
test_aidw_exact_changes_nothing (void)
{
  static const char *const text[] = { "--backend", "cpu", "-q", NULL };
  g_autoptr (CliRun) plain = run_meuse ("aidw:k=10", text);
  g_autoptr (CliRun) exact = run_meuse ("aidw:k=10:summation=exact", text);

  cli_assert_success (plain);
  cli_assert_success (exact);
  g_assert_true (g_str_has_prefix (plain->standard_output, "n 155 ME "));
  g_assert_cmpstr (exact->standard_output, ==, plain->standard_output);
}

#define DROP_IT "does not apply to cross-validation, which weighs every pair exactly: drop it from the method\n"

typedef struct {
  const char *name;
  const char *method;
  const char *extra;          /* one more argument, or NULL */
  gboolean writes_residuals;  /* with -o RESIDUALS in the test's directory */
  const char *message;        /* the whole of stderr */
} Refusal;

static const Refusal refusals[] = {
  { "far-field", "idw:power=2:summation=farfield", NULL, FALSE,
    "shepard-cv: method option summation=farfield " DROP_IT },
  { "far-field-any-case", "aidw:k=10:summation=FarField", NULL, FALSE,
    "shepard-cv: method option summation=farfield " DROP_IT },
  { "tolerance", "aidw:tolerance=1e-4", NULL, FALSE, "shepard-cv: method option tolerance " DROP_IT },
  /* The default value too: the key alone says a far field is meant. */
  { "default-tolerance", "idw:summation=exact:tolerance=1e-6", NULL, FALSE,
    "shepard-cv: method option tolerance " DROP_IT },
  { "both", "idw:summation=farfield:tolerance=0.001", NULL, FALSE,
    "shepard-cv: method options summation=farfield and tolerance do not apply to cross-validation, which weighs "
    "every pair exactly: drop them from the method\n" },
  { "optimise", "idw:summation=farfield", "--optimise", FALSE,
    "shepard-cv: method option summation=farfield " DROP_IT },
  /* Refused before anything is written. */
  { "residuals", "aidw:summation=farfield", NULL, TRUE,
    "shepard-cv: method option summation=farfield " DROP_IT },
  /* Cross-validation writes no raster, so a nodata value has nothing to set. */
  { "nodata", "aidw:max_points=8:nodata=-1", NULL, FALSE,
    "shepard-cv: method option nodata sets the value of a raster's empty cells, and cross-validation writes no "
    "raster: drop it from the method\n" },
  /* An invalid tolerance is named as such first. */
  { "tolerance-out-of-range", "idw:tolerance=1", NULL, FALSE,
    "shepard-cv: method option tolerance needs a number from 1e-11 to 0.1 (a share of each field's value range), "
    "not \"1\"\n" },
};

static void
test_refused (gconstpointer data)
{
  const Refusal *refusal = data;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-cv-summation-XXXXXX");
  g_autofree char *residuals = g_build_filename (directory, "residuals.gpkg", NULL);
  const char *const with_residuals[] = { "-o", residuals, NULL };
  const char *const with_extra[] = { refusal->extra, NULL };
  g_autoptr (CliRun) run = run_meuse (refusal->method, refusal->writes_residuals ? with_residuals : with_extra);

  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 2);
  g_assert_cmpstr (run->standard_output, ==, "");
  g_assert_cmpstr (run->standard_error, ==, refusal->message);
  g_autofree char *left = scratch_directory_list (directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);

  g_test_add_func ("/cli/cv-summation/auto-and-exact-are-every-pair", test_auto_and_exact_are_every_pair);
  g_test_add_func ("/cli/cv-summation/aidw-exact-changes-nothing", test_aidw_exact_changes_nothing);
  for (size_t i = 0; i < G_N_ELEMENTS (refusals); i++)
    {
      g_autofree char *path = g_strdup_printf ("/cli/cv-summation/refused/%s", refusals[i].name);
      g_test_add_data_func (path, &refusals[i], test_refused);
    }
  return g_test_run ();
}
