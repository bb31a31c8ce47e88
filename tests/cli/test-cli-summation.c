/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid's summation=auto|exact|farfield and tolerance=T (issue 15): a far-field surface keeps every cell
 * within tolerance x the field's value range of the exact one, both read back with GDAL, and the tool says which
 * summation it used. */
#include "cli-harness.h"
#include "cli-points.h"
#include "cli-raster.h"

#include <gdal.h>
#include <math.h>
#include <string.h>

#define MEUSE_GRID "-txe", "178600", "181600", "-tye", "329600", "333600", "-outsize", "60", "80"

#define FAR_FIELD_LINE "Summation: far field, every cell within "
#define EXACT_LINE "Summation: exact (every pair)\n"

static char *directory;

/* Runs the tool on the meuse zinc sample with this method, not quiet, into a Float64 raster; its stderr in
 * standard_error. */
static CliRaster *
run_meuse (const char *method, const char *name, char **standard_error)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, name, NULL);
  const char *const args[] = { "-zfield", "zinc", "-a", method, MEUSE_GRID, "-ot", "Float64", source, output, NULL };

  g_autoptr (CliRun) run = cli_run (args);
  cli_assert_success (run);
  *standard_error = g_strdup (run->standard_error);
  return cli_raster_read (output);
}

static double
zinc_range (void)
{
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autoptr (CliPoints) points = cli_points_read_csv (source, "zinc");
  return cli_points_value_range (points);
}

/* The summation's line is this one, and there is one. */
static void
assert_summation_line (const char *standard_error, const char *line)
{
  g_auto (GStrv) lines = g_strsplit (standard_error, "\n", -1);
  int summation_lines = 0;

  g_test_message ("stderr: %s", standard_error);
  for (char **each = lines; *each != NULL; each++)
    summation_lines += g_str_has_prefix (*each, "Summation: ");
  g_assert_cmpint (summation_lines, ==, 1);
  g_autofree char *whole_line = g_strconcat ("\n", line, NULL);
  g_assert_nonnull (strstr (standard_error, whole_line));
}

/* Every cell of the far-field surface within tolerance x the value range of the exact one. */
static void
assert_far_field_within (const char *far_method, const char *exact_method, double tolerance,
                         const char *expected_line)
{
  g_autofree char *far_stderr = NULL, *exact_stderr = NULL;
  g_autoptr (CliRaster) far = run_meuse (far_method, "far.tif", &far_stderr);
  g_autoptr (CliRaster) exact = run_meuse (exact_method, "exact.tif", &exact_stderr);
  double bound = tolerance * zinc_range ();
  double largest = 0.0;
  size_t differing = 0;

  assert_summation_line (far_stderr, expected_line);
  assert_summation_line (exact_stderr, EXACT_LINE);
  cli_raster_assert_grid (far, 178600, 181600, 329600, 333600, 60, 80);
  cli_raster_assert_grid (exact, 178600, 181600, 329600, 333600, 60, 80);
  for (int row = 0; row < far->height; row++)
    for (int column = 0; column < far->width; column++)
      {
        double value = cli_raster_value (far, row, column), expected = cli_raster_value (exact, row, column);
        g_assert_true (isfinite (value) && isfinite (expected));
        g_assert_cmpfloat (fabs (value - expected), <=, bound);
        largest = fmax (largest, fabs (value - expected));
        differing += value != expected;
      }
  g_test_message ("%s: largest difference from %s %.3g (%.3g of the range, bound %.3g), %zu cells differ",
                  far_method, exact_method, largest, largest / zinc_range (), tolerance, differing);
}

static void
test_aidw_far_field (void)
{
  assert_far_field_within ("aidw:summation=farfield:tolerance=1e-4", "aidw:summation=exact", 1e-4,
                           FAR_FIELD_LINE "0.0001 x its field's value range of the exact value\n");
}

static void
test_idw_far_field_default_tolerance (void)
{
  assert_far_field_within ("idw:power=2:summation=farfield", "idw:power=2:summation=exact", 1e-6,
                           FAR_FIELD_LINE "1e-06 x its field's value range of the exact value\n");
}

/* Where the far field does not apply, the tool says so and why. */
static void
test_far_field_does_not_apply (void)
{
  g_autofree char *local_stderr = NULL, *smooth_stderr = NULL, *auto_stderr = NULL;
  g_autoptr (CliRaster) local = run_meuse ("idw:summation=farfield:max_points=12", "local.tif", &local_stderr);
  g_autoptr (CliRaster) smooth = run_meuse ("idw:summation=farfield:smoothing=10", "smooth.tif", &smooth_stderr);
  g_autoptr (CliRaster) automatic = run_meuse ("idw", "auto.tif", &auto_stderr);

  assert_summation_line (local_stderr, "Summation: exact (the neighbourhood's points one by one): the far field "
                                       "weighs all points (no radius, max_points or quadrant limits)\n");
  assert_summation_line (smooth_stderr, "Summation: exact (every pair): the far field needs no smoothing and powers "
                                        "up to 64\n");
  /* auto chooses by the expected cost: either line, once. */
  const char *line = strstr (auto_stderr, "Summation: ");
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, EXACT_LINE) || g_str_has_prefix (line, FAR_FIELD_LINE "1e-06 x"));
}

static void
test_refused (void)
{
  static const struct {
    const char *method;
    const char *message;
  } refused[] = {
    { "idw:summation=fast", "shepard-grid: method option summation needs \"auto\" (the far field where it costs "
                            "less), \"exact\" (every pair) or \"farfield\" (the far field wherever it applies), not "
                            "\"fast\"\n" },
    { "aidw:tolerance=1", "shepard-grid: method option tolerance needs a number from 1e-11 to 0.1 (a share of each "
                          "field's value range), not \"1\"\n" },
  };
  g_autofree char *source = cli_source_path ("data/meuse.csv");
  g_autofree char *output = g_build_filename (directory, "refused.tif", NULL);

  for (size_t i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      const char *const args[] = { "-zfield", "zinc", "-a", refused[i].method, source, output, NULL };
      g_autoptr (CliRun) run = cli_run (args);
      g_assert_true (run->exited);
      g_assert_cmpint (run->exit_code, ==, 2);
      g_assert_cmpstr (run->standard_error, ==, refused[i].message);
      g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
    }
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();
  directory = scratch_directory_new ("shepard-cli-summation-XXXXXX");

  g_test_add_func ("/cli/summation/aidw-far-field", test_aidw_far_field);
  g_test_add_func ("/cli/summation/idw-far-field-default-tolerance", test_idw_far_field_default_tolerance);
  g_test_add_func ("/cli/summation/does-not-apply", test_far_field_does_not_apply);
  g_test_add_func ("/cli/summation/refused", test_refused);

  int status = g_test_run ();
  scratch_directory_remove (directory);
  g_free (directory);
  return status;
}
