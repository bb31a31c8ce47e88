/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-run.h"

#include <errno.h>
#include <gdal.h>
#include <stdio.h>
#include <stdlib.h>

#include "duplicate-points.h"
#include "engine-autocleanups.h"
#include "shepard-app-error.h"
#include "terminal-progress.h"

static volatile sig_atomic_t cancel_signal = 0;

static void
request_cancel (int signal_number)
{
  cancel_signal = signal_number;
}

void
shepard_cli_init (void)
{
  struct sigaction action = { .sa_handler = request_cancel, .sa_flags = SA_RESTART };

  sigemptyset (&action.sa_mask);
  sigaction (SIGINT, &action, NULL);
  sigaction (SIGTERM, &action, NULL);
  GDALAllRegister ();
  CPLSetErrorHandler (CPLQuietErrorHandler);
}

const volatile sig_atomic_t *
shepard_cli_cancel_flag (void)
{
  return &cancel_signal;
}

gboolean
shepard_cli_cancelled (void)
{
  return cancel_signal != 0;
}

ShepardPointLayer *
shepard_cli_read_points (const char *source, const char *layer, const char *value_field,
                         const char *const *open_options, GError **error)
{
  ShepardTerminalProgress watch_cancel;

  shepard_terminal_progress_init (&watch_cancel, NULL, &cancel_signal);
  return shepard_point_layer_read (source, layer, value_field, open_options, shepard_terminal_progress_report,
                                   &watch_cancel, error);
}

GPtrArray *
shepard_cli_read_fields (const char *source, const char *layer, const char *const *value_fields,
                         const char *const *open_options, GError **error)
{
  ShepardTerminalProgress watch_cancel;

  shepard_terminal_progress_init (&watch_cancel, NULL, &cancel_signal);
  return shepard_point_layer_read_fields (source, layer, value_fields, open_options, shepard_terminal_progress_report,
                                          &watch_cancel, error);
}

void
shepard_cli_report_points (const ShepardPointLayer *points)
{
  g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
  ShepardDuplicateReport duplicates;

  fprintf (stderr, "Input: %zu points of layer \"%s\", field \"%s\"%s%s%s\n", points->count, points->layer_name,
           points->field_name, skipped != NULL ? " (skipped " : "", skipped != NULL ? skipped : "",
           skipped != NULL ? ")" : "");
  if (shepard_duplicate_points_find (points->x, points->y, points->z, points->count, &duplicates))
    {
      g_autofree char *description = shepard_duplicate_report_describe (&duplicates);
      fprintf (stderr, "Duplicates in field \"%s\": %s\n", points->field_name, description);
    }
}

static gpointer
start_gpus (gpointer gpus)
{
  shepard_gpus_start (gpus);
  return NULL;
}

void
shepard_cli_gpus_start_begin (ShepardCliGpuStart *start, shepard_backend backend, const shepard_gpu_set *gpus)
{
  start->thread = NULL;
  if (backend == SHEPARD_BACKEND_CPU)
    return;
  start->gpus = *gpus;
  /* Without a thread the engine starts the GPUs itself, later. */
  start->thread = g_thread_try_new ("shepard-gpu-start", start_gpus, &start->gpus, NULL);
}

void
shepard_cli_gpus_start_end (ShepardCliGpuStart *start)
{
  if (start->thread != NULL)
    g_thread_join (g_steal_pointer (&start->thread));
}

shepard_engine *
shepard_cli_start_engine (shepard_backend backend, shepard_precision precision, const shepard_gpu_set *gpus,
                          const ShepardPointLayer *points, gboolean quiet, GError **error)
{
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new_on_gpus (backend, precision, 0, gpus, &engine_error);

  if (engine == NULL
      || shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &engine_error)
           != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  if (!quiet)
    fprintf (stderr, "Backend: %s\n", shepard_engine_describe (engine));
  return g_steal_pointer (&engine);
}

int
shepard_cli_exit_status_for (const GError *error)
{
  if (cancel_signal != 0)
    return SHEPARD_CLI_EXIT_SIGNAL_BASE + cancel_signal;
  if (g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE)
      || g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER))
    return SHEPARD_CLI_EXIT_USAGE;
  return EXIT_FAILURE;
}

void
shepard_cli_print_error (const char *program, const GError *error, const char *not_written)
{
  g_autofree char *message = NULL;

  if (cancel_signal != 0)
    message = g_strdup_printf ("cancelled by %s%s%s", cancel_signal == SIGINT ? "SIGINT (Ctrl-C)" : "SIGTERM",
                               not_written != NULL ? ": " : "", not_written != NULL ? not_written : "");
  else
    message = g_strdelimit (g_strdup (error->message), "\r\n", ' ');
  fprintf (stderr, "%s: %s\n", program, message);
}

int
shepard_cli_finish_stdout (const char *program, const char *what)
{
  /* Text longer than stdout's buffer was partly written before: the reason of a write that failed then is in errno. */
  int earlier_reason = ferror (stdout) ? errno : 0;

  errno = 0;
  if (fflush (stdout) == 0 && !ferror (stdout))
    return EXIT_SUCCESS;
  int reason = errno != 0 ? errno : earlier_reason;
  fprintf (stderr, "%s: cannot write %s to standard output: %s\n", program, what,
           reason != 0 ? g_strerror (reason) : "a write failed");
  return EXIT_FAILURE;
}
