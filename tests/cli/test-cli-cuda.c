/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid --backend cuda end to end, on the bundled meuse layer and on a layer of 1M points: every cell within
 * 1e-5 relative of the float64 CPU engine's raster, the progress bar, and Ctrl-C during the GPU work leaving nothing.
 * Run on the GPU machine by tools/gpu-window-check.sh; where no CUDA device is usable, every case skips with the tool's
 * own message. */
#include "cli-harness.h"
#include "cli-raster.h"

#include <gdal.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>

#define RELATIVE_TOLERANCE 1e-5
#define MILLION (1024 * 1024)

static char *fixtures_directory;
static char *no_cuda_reason; /* set once CUDA was found unusable */
static gboolean cuda_checked;

static const char *
fixtures (void)
{
  if (fixtures_directory == NULL)
    fixtures_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  return fixtures_directory;
}

/* TRUE when the tool runs on CUDA here; otherwise the case is skipped with what the tool said. */
static gboolean
need_cuda (void)
{
  if (!cuda_checked)
    {
      g_autofree char *source = cli_source_path ("data/meuse.csv");
      g_autofree char *output = g_build_filename (fixtures (), "probe.tif", NULL);
      const char *args[] = { "--backend", "cuda", "-zfield", "zinc", "-outsize", "8", "8", "-q", source, output,
                             NULL };
      g_autoptr (CliRun) run = cli_run (args);

      cuda_checked = TRUE;
      if (!run->exited || run->exit_code != 0)
        no_cuda_reason = g_strdup_printf ("shepard-grid --backend cuda cannot run here: %s",
                                          g_strstrip (run->standard_error));
    }
  if (no_cuda_reason != NULL)
    {
      g_test_skip (no_cuda_reason);
      return FALSE;
    }
  return TRUE;
}

/* 1M points over 20 x 20 km in RD New coordinates (large offsets, as real layers have), a smooth field with noise. */
static const char *
million_points (void)
{
  static char *path;

  if (path != NULL)
    return path;
  path = g_build_filename (fixtures (), "million.csv", NULL);
  FILE *file = fopen (path, "w");
  g_assert_nonnull (file);
  g_autoptr (GRand) random = g_rand_new_with_seed (20261123);
  fprintf (file, "x,y,zinc\n");
  for (int i = 0; i < MILLION; i++)
    {
      double x = g_rand_double_range (random, 170000.0, 190000.0);
      double y = g_rand_double_range (random, 320000.0, 340000.0);
      double z = 500 + 300 * sin (x / 1500.0) * cos (y / 2100.0) + g_rand_double_range (random, 0, 50);
      fprintf (file, "%.3f,%.3f,%.4f\n", x, y, z);
    }
  g_assert_cmpint (fclose (file), ==, 0);
  return path;
}

/* The tool on the CUDA engine (float32) and on the CPU engine in float64; every cell compared. */
static void
assert_cuda_equals_cpu (const char *source, const char *method, int width, int height)
{
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *cuda_path = g_build_filename (directory, "cuda.tif", NULL);
  g_autofree char *cpu_path = g_build_filename (directory, "cpu.tif", NULL);
  g_autofree char *w = g_strdup_printf ("%d", width), *h = g_strdup_printf ("%d", height);
  const char *cuda_args[] = { "--backend", "cuda", "-zfield", "zinc", "-a", method, "-outsize", w, h, "-q", source,
                              cuda_path, NULL };
  const char *cpu_args[] = { "--backend", "cpu", "-ot", "Float64", "-zfield", "zinc", "-a", method, "-outsize", w, h,
                             "-q", source, cpu_path, NULL };
  gint64 start = g_get_monotonic_time ();
  g_autoptr (CliRun) cuda = cli_run (cuda_args);
  double cuda_seconds = (g_get_monotonic_time () - start) / 1e6;
  start = g_get_monotonic_time ();
  g_autoptr (CliRun) cpu = cli_run (cpu_args);
  double cpu_seconds = (g_get_monotonic_time () - start) / 1e6;

  cli_assert_success (cuda);
  cli_assert_success (cpu);
  g_autoptr (CliRaster) on_gpu = cli_raster_read (cuda_path);
  g_autoptr (CliRaster) reference = cli_raster_read (cpu_path);
  g_assert_cmpint (on_gpu->width, ==, width);
  g_assert_cmpint (on_gpu->height, ==, height);
  for (int i = 0; i < 6; i++)
    g_assert_cmpfloat (on_gpu->geotransform[i], ==, reference->geotransform[i]);
  g_assert_cmpint (on_gpu->data_type, ==, GDT_Float32);
  g_assert_cmpint (reference->data_type, ==, GDT_Float64);

  double worst = 0;
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      g_assert_true (isfinite (on_gpu->values[i]));
      worst = MAX (worst, fabs (on_gpu->values[i] - reference->values[i]) / MAX (fabs (reference->values[i]), 1e-30));
    }
  g_test_message ("%s, %d x %d: largest difference %.2e relative; tool on CUDA %.2f s, on the CPU in float64 %.2f s",
                  method, width, height, worst, cuda_seconds, cpu_seconds);
  g_assert_cmpfloat (worst, <=, RELATIVE_TOLERANCE);
  scratch_directory_remove (directory);
}

static void
test_meuse (void)
{
  if (!need_cuda ())
    return;
  g_autofree char *source = cli_source_path ("data/meuse.csv");

  assert_cuda_equals_cpu (source, "aidw", 300, 410);
  assert_cuda_equals_cpu (source, "idw:power=2", 300, 410);
  assert_cuda_equals_cpu (source, "aidw:neighbors=16", 300, 410);
}

static void
test_million_local (void)
{
  if (!need_cuda ())
    return;
  assert_cuda_equals_cpu (million_points (), "aidw:neighbors=15", 1024, 1024);
}

static void
test_million_all_points (void)
{
  if (!need_cuda ())
    return;
  assert_cuda_equals_cpu (million_points (), "aidw", 96, 96);
}

static void
test_progress (void)
{
  if (!need_cuda ())
    return;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "progress.tif", NULL);
  const char *args[] = { "--backend", "cuda", "-zfield", "zinc", "-a", "aidw", "-outsize", "1024", "1024",
                         million_points (), output, NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_test_message ("stderr: %s", run->standard_error);
  g_assert_nonnull (strstr (run->standard_error, "0...10...20...30...40...50...60...70...80...90...100"));
  g_assert_nonnull (strstr (run->standard_error, "CUDA"));
  scratch_directory_remove (directory);
}

/* Ctrl-C while the GPU weighs 1M points over a 8192 x 8192 grid (half a minute of work): the tool ends at once, says
 * why in one line, and leaves nothing behind. */
static void
test_cancel (void)
{
  if (!need_cuda ())
    return;
  g_autofree char *directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (directory, "cancelled.tif", NULL);
  const char *args[] = { "--backend", "cuda", "-zfield", "zinc", "-a", "aidw", "-outsize", "8192", "8192",
                         million_points (), output, NULL };
  g_autoptr (CliInterruptedRun) run = cli_run_interrupted (args, 1.0);

  g_assert_true (run->ended);
  g_assert_true (run->exited);
  /* shepard-grid --help: "128+N stopped by signal N". */
  g_assert_cmpint (run->exit_code, ==, 128 + SIGINT);
  const char *last_newline = strrchr (g_strchomp (run->standard_error), '\n');
  const char *last_line = last_newline != NULL ? last_newline + 1 : run->standard_error;
  g_assert_true (g_str_has_prefix (last_line, "shepard-grid: "));
  g_assert_true (g_regex_match_simple ("cancel|interrupt", last_line, G_REGEX_CASELESS, 0));
  g_autofree char *left = scratch_directory_list (directory);
  g_assert_cmpstr (left, ==, "");
  scratch_directory_remove (directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();

  g_test_add_func ("/cli/cuda/meuse", test_meuse);
  g_test_add_func ("/cli/cuda/million-local", test_million_local);
  g_test_add_func ("/cli/cuda/million-all-points", test_million_all_points);
  g_test_add_func ("/cli/cuda/progress", test_progress);
  g_test_add_func ("/cli/cuda/cancel", test_cancel);

  int status = g_test_run ();
  if (fixtures_directory != NULL)
    scratch_directory_remove (fixtures_directory);
  return status;
}
