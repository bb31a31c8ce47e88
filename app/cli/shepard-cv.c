/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-cv: cross-validates IDW or AIDW on a point layer from the command line, and tunes their parameters. */
#include <errno.h>
#include <gdal.h>
#include <glib.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli-run.h"
#include "cv-command-line.h"
#include "engine-autocleanups.h"
#include "file-identity.h"
#include "method-spec.h"
#include "option-parser.h"
#include "point-layer-writer.h"
#include "point-layer.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"
#include "shepard-optimiser.h"
#include "terminal-progress.h"
#include "vector-format.h"

#define PROGRAM "shepard-cv"

/* Share of the progress bar taken by the cross-validation (or the optimisation) when RESIDUALS is written. */
#define COMPUTE_SHARE 0.9

/* What was found: the summary of the parameters reported, and with --optimise where the search started. */
typedef struct {
  shepard_params params;
  shepard_cv_summary summary;
  gboolean optimised;
  ShepardOptimiseResult optimisation;
} CvReport;

static gboolean
check_residuals_path (const ShepardCvOptions *options, GError **error)
{
  if (options->residuals_path == NULL)
    return TRUE;
  if (shepard_paths_name_same_file (options->residuals_path, options->source))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                   "the residuals file \"%s\" is the input SRC: give another output file name",
                   options->residuals_path);
      return FALSE;
    }
  if (shepard_vector_format_find_driver (options->residuals_path, NULL, error) == NULL)
    return FALSE;
  /* Refused before the work rather than after it; the writer finds any other reason it cannot write. */
  g_autofree char *directory = g_path_get_dirname (options->residuals_path);
  if (!g_file_test (directory, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "cannot write the residuals \"%s\": the directory \"%s\" does not exist", options->residuals_path,
                   directory);
      return FALSE;
    }
  return TRUE;
}

static ShepardPointLayer *
read_points (const ShepardCvOptions *options, GError **error)
{
  g_autoptr (ShepardPointLayer) points = shepard_cli_read_points (options->source, options->layer, options->value_field,
                                                                  (const char *const *) options->open_options, error);

  if (points == NULL)
    return NULL;
  if (!options->quiet)
    shepard_cli_report_points (points);
  return g_steal_pointer (&points);
}

static gboolean
cross_validate (shepard_engine *engine, const ShepardCvOptions *options, const shepard_params *params,
                const shepard_cv_outputs *outputs, shepard_cv_summary *summary, ShepardScaledProgress *progress,
                GError **error)
{
  shepard_error engine_error = { 0 };

  if (shepard_engine_cross_validate (engine, params, options->folds, options->seed, outputs, summary,
                                     shepard_scaled_progress_report_engine, progress, &engine_error)
      != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  return TRUE;
}

static gboolean
optimise (shepard_engine *engine, const ShepardCvOptions *options, CvReport *report, ShepardScaledProgress *progress,
          GError **error)
{
  ShepardOptimiseOptions optimise_options;

  shepard_optimise_options_init (&optimise_options);
  optimise_options.objective = options->optimise == SHEPARD_CV_OPTIMISE_MAE ? SHEPARD_OBJECTIVE_MAE
                                                                              : SHEPARD_OBJECTIVE_RMSE;
  optimise_options.folds = options->folds;
  optimise_options.seed = options->seed;
  if (!shepard_optimise (engine, &report->params, &optimise_options, &report->optimisation,
                         shepard_scaled_progress_report_engine, progress, error))
    return FALSE;
  report->optimised = TRUE;
  report->params = report->optimisation.best;
  report->summary = report->optimisation.best_summary;
  return TRUE;
}

/* Cross-validates once more with every point's outcome and writes them with the layer's CRS. */
static gboolean
write_residuals (shepard_engine *engine, const ShepardCvOptions *options, const ShepardPointLayer *points,
                 CvReport *report, ShepardScaledProgress *progress, GError **error)
{
  size_t n = points->count;
  g_autofree double *predicted = g_new (double, n);
  g_autofree double *residual = g_new (double, n);
  g_autofree double *alpha = g_new (double, n);
  g_autofree size_t *fold = g_new (size_t, n);
  g_autofree double *fold_number = g_new (double, n);
  shepard_cv_outputs outputs = { .prediction = predicted, .residual = residual, .alpha = alpha, .fold = fold };
  ShepardScaledProgress compute_progress = *progress;

  if (report->optimised)
    compute_progress.span = 0.0;
  if (!cross_validate (engine, options, &report->params, &outputs, &report->summary, &compute_progress, error))
    return FALSE;
  for (size_t i = 0; i < n; i++)
    fold_number[i] = (double) fold[i];

  const ShepardPointField fields[] = {
    { "observed", points->z },
    { "predicted", predicted },
    { "residual", residual },
    { "alpha", alpha },
    { "fold", fold_number },
  };
  ShepardScaledProgress write_progress = *progress;
  write_progress.start = progress->start + progress->span;
  write_progress.span = 1.0 - write_progress.start;
  return shepard_point_layer_write_full (options->residuals_path, NULL, NULL, points->crs_wkt, points->x, points->y,
                                         n, fields, G_N_ELEMENTS (fields), shepard_scaled_progress_report,
                                         &write_progress, error);
}

static gboolean
run (const ShepardCvOptions *options, ShepardTerminalProgress *bar, CvReport *report, GError **error)
{
  if (!shepard_method_spec_parse_for_cross_validation (options->method, &report->params, error)
      || !check_residuals_path (options, error))
    return FALSE;
  shepard_gpu_set gpus;
  if (!shepard_option_parse_gpus ("--gpus", options->gpus, &gpus, error))
    return FALSE;
  g_auto (ShepardCliGpuStart) gpu_start = { 0 };
  shepard_cli_gpus_start_begin (&gpu_start, options->backend, &gpus);
  g_autoptr (ShepardPointLayer) points = read_points (options, error);
  if (points == NULL)
    return FALSE;
  shepard_cli_gpus_start_end (&gpu_start);
  g_autoptr (shepard_engine) engine = shepard_cli_start_engine (options->backend, SHEPARD_PRECISION_FLOAT32, &gpus,
                                                                points, options->quiet, error);
  if (engine == NULL)
    return FALSE;

  ShepardScaledProgress progress = {
    .progress = shepard_terminal_progress_report,
    .progress_data = bar,
    .span = options->residuals_path != NULL ? COMPUTE_SHARE : 1.0,
  };
  if (options->optimise != SHEPARD_CV_OPTIMISE_NONE)
    {
      if (!optimise (engine, options, report, &progress, error))
        return FALSE;
    }
  else if (options->residuals_path == NULL
           && !cross_validate (engine, options, &report->params, NULL, &report->summary, &progress, error))
    return FALSE;
  /* The writer asks the progress, which watches for Ctrl-C, once more just before it moves the file into place: a
   * signal after that finds the file written, and the run done. */
  if (options->residuals_path != NULL)
    return write_residuals (engine, options, points, report, &progress, error);
  if (shepard_cli_cancelled ())
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
      return FALSE;
    }
  return TRUE;
}

static void
print_number (const char *name, double value)
{
  if (isnan (value))
    printf (" %s nan", name);
  else
    printf (" %s %.4g", name, value);
}

static void
print_text (const CvReport *report, ShepardObjective objective)
{
  const shepard_cv_summary *summary = &report->summary;

  printf ("n %zu", summary->n);
  print_number ("ME", summary->me);
  print_number ("MAE", summary->mae);
  print_number ("RMSE", summary->rmse);
  print_number ("R2", summary->r2);
  putchar ('\n');
  if (report->optimised)
    {
      g_autofree char *method = shepard_method_spec_format (&report->params);
      g_autofree char *objective_name = g_ascii_strup (shepard_objective_name (objective), -1);
      printf ("method %s start %s %.4g evaluations %u\n", method, objective_name,
              report->optimisation.start_score, report->optimisation.evaluations);
    }
}

/* A number, or null where it is undefined (R² of values that are all equal). */
static void
add_number (JsonBuilder *builder, const char *name, double value)
{
  json_builder_set_member_name (builder, name);
  if (isfinite (value))
    json_builder_add_double_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

static void
print_json (const CvReport *report, ShepardObjective objective)
{
  g_autoptr (JsonBuilder) builder = json_builder_new ();
  const shepard_cv_summary *summary = &report->summary;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "n");
  json_builder_add_int_value (builder, (gint64) summary->n);
  add_number (builder, "me", summary->me);
  add_number (builder, "mae", summary->mae);
  add_number (builder, "rmse", summary->rmse);
  add_number (builder, "r2", summary->r2);
  if (report->optimised)
    {
      g_autofree char *method = shepard_method_spec_format (&report->params);
      json_builder_set_member_name (builder, "objective");
      json_builder_add_string_value (builder, shepard_objective_name (objective));
      add_number (builder, "start_rmse", report->optimisation.start_summary.rmse);
      add_number (builder, "start_mae", report->optimisation.start_summary.mae);
      json_builder_set_member_name (builder, "evaluations");
      json_builder_add_int_value (builder, report->optimisation.evaluations);
      json_builder_set_member_name (builder, "method");
      json_builder_add_string_value (builder, method);
    }
  json_builder_end_object (builder);

  g_autoptr (JsonNode) root = json_builder_get_root (builder);
  g_autoptr (JsonGenerator) generator = json_generator_new ();
  json_generator_set_root (generator, root);
  g_autofree char *text = json_generator_to_data (generator, NULL);
  puts (text);
}

int
main (int argc, char **argv)
{
  g_auto (ShepardCvOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  if (!shepard_cv_options_parse (&options, argc, (const char *const *) argv, &error))
    {
      shepard_cli_print_error (PROGRAM, error, NULL);
      return SHEPARD_CLI_EXIT_USAGE;
    }
  if (options.help)
    {
      errno = 0;
      fputs (shepard_cv_usage (), stdout);
      return shepard_cli_finish_stdout (PROGRAM, "the usage");
    }

  shepard_cli_init ();
  ShepardTerminalProgress bar;
  shepard_terminal_progress_init (&bar, options.quiet ? NULL : stderr, shepard_cli_cancel_flag ());
  CvReport report = { 0 };
  int status = EXIT_SUCCESS;
  ShepardObjective objective = options.optimise == SHEPARD_CV_OPTIMISE_MAE ? SHEPARD_OBJECTIVE_MAE
                                                                           : SHEPARD_OBJECTIVE_RMSE;
  if (!run (&options, &bar, &report, &error))
    {
      shepard_terminal_progress_end_line (&bar);
      shepard_cli_print_error (PROGRAM, error,
                               options.residuals_path != NULL ? "no residuals file was written" : NULL);
      status = shepard_cli_exit_status_for (error);
    }
  else
    {
      errno = 0;
      if (options.json)
        print_json (&report, objective);
      else
        print_text (&report, objective);
      status = shepard_cli_finish_stdout (PROGRAM, "the results");
    }
  GDALDestroyDriverManager ();
  return status;
}
