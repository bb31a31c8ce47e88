/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "grid-command-line.h"
#include "shepard-app-error.h"

static gboolean
parse_line (const char *command_line, ShepardGridOptions *options, GError **error)
{
  g_auto (GStrv) argv = NULL;
  g_assert_true (g_shell_parse_argv (command_line, NULL, &argv, NULL));
  return shepard_grid_options_parse (options, (int) g_strv_length (argv), (const char *const *) argv, error);
}

static void
test_defaults (void)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_line ("shepard-grid -zfield zinc in.csv out.tif", &options, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (options.source, ==, "in.csv");
  g_assert_cmpstr (options.destination, ==, "out.tif");
  g_assert_cmpstr (options.value_field, ==, "zinc");
  g_assert_null (options.layer);
  g_assert_cmpstr (options.method, ==, "idw");
  g_assert_cmpstr (options.format, ==, "GTiff");
  g_assert_false (options.has_extent);
  g_assert_false (options.has_resolution);
  g_assert_cmpuint (options.width, ==, 256);
  g_assert_cmpuint (options.height, ==, 256);
  g_assert_false (options.float64);
  g_assert_false (options.has_nodata);
  g_assert_cmpint (options.backend, ==, SHEPARD_BACKEND_AUTO);
  g_assert_null (options.gpus);
  g_assert_null (options.alpha_path);
  g_assert_false (options.quiet);
  g_assert_false (options.help);
  g_assert_cmpuint (g_strv_length (options.open_options), ==, 0);
  g_assert_cmpuint (g_strv_length (options.creation_options), ==, 0);
}

static void
test_every_option (void)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_line ("shepard-grid -l 1 -zfield v -oo X_POSSIBLE_NAMES=e -oo Y_POSSIBLE_NAMES=n "
                             "-a aidw:k=8 -txe -10 10.5 -tye 100 200 -outsize 30 20 -of COG -co COMPRESS=DEFLATE "
                             "-ot Float64 -a_nodata -9999 --backend cpu --alpha-out alpha.tif -q pts.gpkg grid.tif",
                             &options, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (options.layer, ==, "1");
  g_assert_cmpstr (options.value_field, ==, "v");
  g_assert_cmpuint (g_strv_length (options.open_options), ==, 2);
  g_assert_cmpstr (options.open_options[1], ==, "Y_POSSIBLE_NAMES=n");
  g_assert_cmpstr (options.method, ==, "aidw:k=8");
  g_assert_true (options.has_extent);
  g_assert_cmpfloat (options.x_min, ==, -10.0);
  g_assert_cmpfloat (options.x_max, ==, 10.5);
  g_assert_cmpfloat (options.y_min, ==, 100.0);
  g_assert_cmpfloat (options.y_max, ==, 200.0);
  g_assert_cmpuint (options.width, ==, 30);
  g_assert_cmpuint (options.height, ==, 20);
  g_assert_cmpstr (options.format, ==, "COG");
  g_assert_cmpstr (options.creation_options[0], ==, "COMPRESS=DEFLATE");
  g_assert_true (options.float64);
  g_assert_true (options.has_nodata);
  g_assert_cmpfloat (options.nodata, ==, -9999.0);
  g_assert_cmpint (options.backend, ==, SHEPARD_BACKEND_CPU);
  g_assert_cmpstr (options.alpha_path, ==, "alpha.tif");
  g_assert_true (options.quiet);
  g_assert_cmpstr (options.source, ==, "pts.gpkg");
  g_assert_cmpstr (options.destination, ==, "grid.tif");
}

static void
test_resolution_and_nan_nodata (void)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_line ("shepard-grid -tr 2.5 40 -a_nodata nan -zfield z a.csv b.tif", &options, &error));
  g_assert_no_error (error);
  g_assert_true (options.has_resolution);
  g_assert_cmpfloat (options.x_resolution, ==, 2.5);
  g_assert_cmpfloat (options.y_resolution, ==, 40.0);
  g_assert_true (isnan (options.nodata));
}

static void
test_help (void)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_line ("shepard-grid -outsize 0 0 --help", &options, &error));
  g_assert_no_error (error);
  g_assert_true (options.help);
  g_assert_nonnull (strstr (shepard_grid_usage (), "shepard-grid [-l LAYER] -zfield FIELD[,FIELD...]"));
  g_assert_nonnull (strstr (shepard_grid_usage (), "[-outsize W H | -tr XRES YRES [-tap]]"));
  g_assert_nonnull (strstr (shepard_grid_usage (), "[:max_points=all|N][:min_points=0]"));
  g_assert_nonnull (strstr (shepard_grid_usage (), "aidw[:k=15][:alpha=1.5,2,2.5,3,3.5]"));
  g_assert_nonnull (strstr (shepard_grid_usage (), "[--backend auto|cpu|cuda] [--gpus all|LIST]"));
}

typedef struct {
  const char *command_line;
  const char *message_part;
} BadLine;

static const BadLine bad_lines[] = {
  { "shepard-grid", "give the point layer SRC" },
  { "shepard-grid -zfield z in.csv", "give the point layer SRC" },
  { "shepard-grid in.csv out.tif", "-zfield FIELD is missing" },
  { "shepard-grid -zfield z in.csv out.tif extra.tif", "unexpected argument \"extra.tif\"" },
  { "shepard-grid -zfield z -frobnicate in.csv out.tif", "unknown option \"-frobnicate\"" },
  { "shepard-grid -zfield z in.csv out.tif -zfield", "-zfield is missing its value" },
  { "shepard-grid -zfield z -txe 0 10 in.csv out.tif", "-tye YMIN YMAX go together" },
  { "shepard-grid -zfield z -tye 0 10 in.csv out.tif", "-tye YMIN YMAX go together" },
  { "shepard-grid -zfield z -txe 10 0 -tye 0 10 in.csv out.tif", "XMIN below XMAX" },
  { "shepard-grid -zfield z -txe 0 10 -tye 5 5 in.csv out.tif", "YMIN below YMAX" },
  { "shepard-grid -zfield z -txe 0 ten -tye 0 10 in.csv out.tif", "\"ten\"" },
  { "shepard-grid -zfield z in.csv out.tif -txe 0 10 -tye 0", "-tye is missing values: write -tye YMIN YMAX" },
  { "shepard-grid -zfield z -outsize 0 10 in.csv out.tif", "whole numbers from 1" },
  { "shepard-grid -zfield z -outsize 10 -3 in.csv out.tif", "whole numbers from 1" },
  { "shepard-grid -zfield z -outsize 10.5 10 in.csv out.tif", "10.5" },
  { "shepard-grid -zfield z -outsize 10 10 -tr 1 1 in.csv out.tif", "exclude each other" },
  { "shepard-grid -zfield z -tr 0 1 in.csv out.tif", "above zero" },
  { "shepard-grid -zfield z -tr 1 -1 in.csv out.tif", "above zero" },
  { "shepard-grid -zfield z -ot Int16 in.csv out.tif", "Float32 or Float64, not \"Int16\"" },
  { "shepard-grid -zfield z -a_nodata none in.csv out.tif", "\"none\"" },
  { "shepard-grid -zfield z --backend gpu in.csv out.tif", "auto, cpu or cuda, not \"gpu\"" },
  { "shepard-grid -zfield z --gpus 0 --backend cpu in.csv out.tif", "--gpus chooses CUDA devices; drop it or use "
                                                                    "--backend auto|cuda" },
  { "shepard-grid -zfield z --gpus 0,x in.csv out.tif", "--gpus all|LIST: \"0,x\" is not a choice of GPUs" },
  { "shepard-grid -zfield z -oo X_POSSIBLE_NAMES in.csv out.tif", "NAME=VALUE" },
  { "shepard-grid -zfield z -co =YES in.csv out.tif", "NAME=VALUE" },
  { "shepard-grid -zfield z -tap in.csv out.tif", "-tap aligns the extent to multiples of the cell size: give -tr" },
  { "shepard-grid -zfield z -outsize 10 10 -tap in.csv out.tif", "give -tr XRES YRES too" },
  { "shepard-grid -zfield a,,b in.csv out.tif", "-zfield needs field names separated by commas, not \"a,,b\"" },
  { "shepard-grid -zfield a, in.csv out.tif", "separated by commas" },
  { "shepard-grid -zfield a,b,a in.csv out.tif", "-zfield names \"a\" twice" },
};

/* --gpus as given, with auto or cuda; "all" is a choice too. */
static void
test_gpus (void)
{
  const struct {
    const char *command_line;
    const char *gpus;
    shepard_backend backend;
  } lines[] = {
    { "shepard-grid -zfield z --gpus 1,0 in.csv out.tif", "1,0", SHEPARD_BACKEND_AUTO },
    { "shepard-grid -zfield z --backend cuda --gpus all in.csv out.tif", "all", SHEPARD_BACKEND_CUDA },
    { "shepard-grid -zfield z --gpus 0 --gpus 2 --backend auto in.csv out.tif", "2", SHEPARD_BACKEND_AUTO },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (lines); i++)
    {
      g_auto (ShepardGridOptions) options = { 0 };
      g_autoptr (GError) error = NULL;
      g_assert_true (parse_line (lines[i].command_line, &options, &error));
      g_assert_no_error (error);
      g_assert_cmpstr (options.gpus, ==, lines[i].gpus);
      g_assert_cmpint (options.backend, ==, lines[i].backend);
    }
}

/* -zfield a,b,c: the fields in order; -tap with -tr. */
static void
test_fields_and_tap (void)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_true (parse_line ("shepard-grid -zfield zinc,om,cadmium -tr 40 40 -tap in.csv out.tif", &options,
                             &error));
  g_assert_no_error (error);
  g_assert_cmpstr (options.value_field, ==, "zinc,om,cadmium");
  g_assert_cmpuint (g_strv_length (options.value_fields), ==, 3);
  g_assert_cmpstr (options.value_fields[0], ==, "zinc");
  g_assert_cmpstr (options.value_fields[1], ==, "om");
  g_assert_cmpstr (options.value_fields[2], ==, "cadmium");
  g_assert_true (options.target_aligned);
  g_assert_true (options.has_resolution);

  g_auto (ShepardGridOptions) one = { 0 };
  g_assert_true (parse_line ("shepard-grid -zfield zinc in.csv out.tif", &one, &error));
  g_assert_cmpuint (g_strv_length (one.value_fields), ==, 1);
  g_assert_cmpstr (one.value_fields[0], ==, "zinc");
  g_assert_false (one.target_aligned);
}

static void
test_bad_line (gconstpointer data)
{
  const BadLine *bad = data;
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  g_assert_false (parse_line (bad->command_line, &options, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE);
  g_test_message ("%s: %s", bad->command_line, error->message);
  g_assert_nonnull (strstr (error->message, bad->message_part));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/command-line/defaults", test_defaults);
  g_test_add_func ("/app/command-line/every-option", test_every_option);
  g_test_add_func ("/app/command-line/resolution-and-nan-nodata", test_resolution_and_nan_nodata);
  g_test_add_func ("/app/command-line/help", test_help);
  g_test_add_func ("/app/command-line/fields-and-tap", test_fields_and_tap);
  g_test_add_func ("/app/command-line/gpus", test_gpus);
  for (size_t i = 0; i < G_N_ELEMENTS (bad_lines); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/command-line/bad/%zu", i);
      g_test_add_data_func (path, &bad_lines[i], test_bad_line);
    }
  return g_test_run ();
}
