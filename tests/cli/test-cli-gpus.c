/* SPDX-License-Identifier: GPL-3.0-or-later */
/* --gpus all|LIST of shepard-grid and shepard-cv (the tool under test is the argument; meson runs this program once
 * for each): refused with the engine's message where it does not parse or meets --backend cpu, taken by auto with the
 * CPU's result where no GPU is there, and a GPU that is not there fails --backend cuda with nothing written. */
#include "cli-harness.h"
#include "cli-raster.h"

#include <gdal.h>
#include <string.h>

#include "shepard-engine.h"

static gboolean grid_tool; /* shepard-grid; else shepard-cv */
static char *output_directory;

static const char *
program (void)
{
  return grid_tool ? "shepard-grid" : "shepard-cv";
}

/* The tool's arguments for meuse's zinc with extra (NULL-terminated; after the operands with trailing), writing
 * output (a raster for shepard-grid, the residuals for shepard-cv). */
static GPtrArray *
arguments (const char *output, const char *const *extra, gboolean trailing)
{
  GPtrArray *args = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_add (args, g_strdup ("-zfield"));
  g_ptr_array_add (args, g_strdup ("zinc"));
  if (!grid_tool)
    g_ptr_array_add (args, g_strdup ("--json"));
  for (const char *const *word = extra; *word != NULL && !trailing; word++)
    g_ptr_array_add (args, g_strdup (*word));
  if (!grid_tool)
    {
      g_ptr_array_add (args, g_strdup ("-o"));
      g_ptr_array_add (args, g_strdup (output));
    }
  g_ptr_array_add (args, cli_source_path ("data/meuse.csv"));
  if (grid_tool)
    g_ptr_array_add (args, g_strdup (output));
  for (const char *const *word = extra; *word != NULL && trailing; word++)
    g_ptr_array_add (args, g_strdup (*word));
  g_ptr_array_add (args, NULL);
  return args;
}

static char *
output_path (const char *name)
{
  return g_build_filename (output_directory, name, NULL);
}

static CliRun *
run_with (const char *output, const char *const *extra)
{
  g_autoptr (GPtrArray) args = arguments (output, extra, FALSE);
  return cli_run ((const char *const *) args->pdata);
}

/* What the tool's output file is called: a raster, or the residuals of shepard-cv. */
static char *
new_output_path (const char *stem)
{
  g_autofree char *name = g_strconcat (stem, grid_tool ? ".tif" : ".gpkg", NULL);
  return output_path (name);
}

static void
test_usage (void)
{
  const char *const args[] = { "--help", NULL };
  g_autoptr (CliRun) run = cli_run (args);

  cli_assert_success (run);
  g_assert_nonnull (strstr (run->standard_output, "[--gpus all|LIST]"));
  g_assert_nonnull (strstr (run->standard_output, "  --gpus all|LIST      the CUDA devices to spread the work over"));
}

typedef struct {
  const char *name;
  const char *const *extra;
  const char *gpus; /* parsed by the engine for the message expected; NULL: the message is message */
  const char *message;
  gboolean trailing; /* extra after the operands */
} BadLine;

static const BadLine bad_lines[] = {
  { .name = "not-a-number", .extra = (const char *const[]) { "--gpus", "x", NULL }, .gpus = "x" },
  { .name = "empty", .extra = (const char *const[]) { "--gpus", "", NULL }, .gpus = "" },
  { .name = "trailing-comma", .extra = (const char *const[]) { "--gpus", "0,", NULL }, .gpus = "0," },
  { .name = "negative", .extra = (const char *const[]) { "--gpus", "-1", NULL }, .gpus = "-1" },
  { .name = "twice", .extra = (const char *const[]) { "--gpus", "1,0,1", NULL }, .gpus = "1,0,1" },
  { .name = "missing-value", .extra = (const char *const[]) { "--gpus", NULL }, .trailing = TRUE },
  { .name = "with-backend-cpu", .extra = (const char *const[]) { "--gpus", "0", "--backend", "cpu", NULL },
    .message = "--gpus chooses CUDA devices; drop it or use --backend auto|cuda" },
  { .name = "after-backend-cpu", .extra = (const char *const[]) { "--backend", "cpu", "--gpus", "all", NULL },
    .message = "--gpus chooses CUDA devices; drop it or use --backend auto|cuda" },
};

/* Exit status 2, one line naming the mistake, and no output file. */
static void
test_bad_line (gconstpointer data)
{
  const BadLine *bad = data;
  g_autofree char *output = new_output_path (bad->name);
  g_autofree char *expected = NULL;

  if (bad->gpus != NULL)
    {
      shepard_gpu_set set;
      shepard_error error = { 0 };
      g_assert_cmpint (shepard_gpu_set_parse (bad->gpus, &set, &error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
      expected = g_strdup_printf ("%s: --gpus all|LIST: %s\n", program (), error.message);
    }
  else if (bad->message != NULL)
    expected = g_strdup_printf ("%s: %s\n", program (), bad->message);
  else
    expected = g_strdup_printf ("%s: --gpus is missing its value: write --gpus all|LIST\n", program ());
  g_autoptr (GPtrArray) args = arguments (output, bad->extra, bad->trailing);
  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);

  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 2);
  g_assert_cmpstr (run->standard_error, ==, expected);
  g_assert_false (g_file_test (output, G_FILE_TEST_EXISTS));
}

/* Without a GPU, auto on GPU 0 runs on the CPU, says why (the engine's own words), and computes what the CPU backend
 * computes, to the bit. */
static void
test_auto_falls_back (void)
{
  if (shepard_gpu_count () > 0)
    {
      g_test_skip ("a GPU is present: --gpus 0 runs on it");
      return;
    }
  shepard_gpu_set first = { .count = 1, .ordinals = { 0 } };
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, &first,
                                                       &error);
  g_assert_nonnull (engine);
  g_assert_nonnull (shepard_engine_fallback_reason (engine));
  g_autofree char *backend_line = g_strdup_printf ("Backend: %s\n", shepard_engine_describe (engine));
  shepard_engine_free (engine);

  g_autofree char *on_gpu = new_output_path ("auto-gpu-0");
  g_autofree char *on_cpu = new_output_path ("cpu");
  g_autoptr (CliRun) fallback = run_with (on_gpu, (const char *const[]) { "--gpus", "0", NULL });
  g_autoptr (CliRun) cpu = run_with (on_cpu, (const char *const[]) { "--backend", "cpu", NULL });

  cli_assert_success (fallback);
  cli_assert_success (cpu);
  g_test_message ("%s", fallback->standard_error);
  g_assert_nonnull (strstr (fallback->standard_error, backend_line));
  if (grid_tool)
    {
      g_autoptr (CliRaster) fell_back = cli_raster_read (on_gpu);
      g_autoptr (CliRaster) reference = cli_raster_read (on_cpu);
      g_assert_cmpint (fell_back->width, ==, reference->width);
      g_assert_cmpint (fell_back->height, ==, reference->height);
      g_assert_cmpmem (fell_back->geotransform, sizeof fell_back->geotransform, reference->geotransform,
                       sizeof reference->geotransform);
      g_assert_cmpmem (fell_back->values, sizeof (double) * fell_back->width * fell_back->height, reference->values,
                       sizeof (double) * reference->width * reference->height);
    }
  else
    {
      /* The JSON summary's numbers carry every digit of the doubles. */
      g_assert_cmpstr (fallback->standard_output, ==, cpu->standard_output);
      g_assert_true (g_file_test (on_gpu, G_FILE_TEST_IS_REGULAR));
    }
}

/* --backend cuda on a GPU that is not there fails with the engine's message (which names the GPUs there are, or says
 * that there is no CUDA) and writes nothing: a file already there stays as it was. */
static void
test_cuda_missing_gpu (void)
{
  if (shepard_gpu_count () > 3)
    {
      g_test_skip ("GPU 3 is there");
      return;
    }
  shepard_gpu_set fourth = { .count = 1, .ordinals = { 3 } };
  shepard_error error = { 0 };
  g_assert_null (shepard_engine_new_on_gpus (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &fourth, &error));
  g_autofree char *expected = g_strdup_printf ("%s: %s", program (), error.message);

  g_autofree char *absent = new_output_path ("cuda-gpu-3");
  g_autoptr (CliRun) run = run_with (absent, (const char *const[]) { "--backend", "cuda", "--gpus", "3", "-q", NULL });
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 1);
  g_test_message ("%s", run->standard_error);
  g_assert_nonnull (strstr (run->standard_error, expected));
  g_assert_false (g_file_test (absent, G_FILE_TEST_EXISTS));

  g_autofree char *existing = new_output_path ("existing");
  g_autoptr (GError) write_error = NULL;
  g_assert_true (g_file_set_contents (existing, "kept", -1, &write_error));
  g_autoptr (CliRun) again = run_with (existing,
                                       (const char *const[]) { "--backend", "cuda", "--gpus", "3", "-q", NULL });
  g_assert_cmpint (again->exit_code, ==, 1);
  g_autofree char *contents = NULL;
  g_assert_true (g_file_get_contents (existing, &contents, NULL, &write_error));
  g_assert_cmpstr (contents, ==, "kept");
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();
  g_autofree char *tool_name = g_path_get_basename (cli_tool_path ());
  grid_tool = g_str_has_prefix (tool_name, "shepard-grid");
  output_directory = scratch_directory_new ("shepard-cli-gpus-XXXXXX");

  g_test_add_func ("/cli/gpus/usage", test_usage);
  for (gsize i = 0; i < G_N_ELEMENTS (bad_lines); i++)
    {
      g_autofree char *path = g_strconcat ("/cli/gpus/bad/", bad_lines[i].name, NULL);
      g_test_add_data_func (path, &bad_lines[i], test_bad_line);
    }
  g_test_add_func ("/cli/gpus/auto-falls-back", test_auto_falls_back);
  g_test_add_func ("/cli/gpus/cuda-missing-gpu", test_cuda_missing_gpu);
  int status = g_test_run ();
  scratch_directory_remove (output_directory);
  g_free (output_directory);
  return status;
}
