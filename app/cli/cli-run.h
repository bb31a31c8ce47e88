/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <signal.h>

#include "point-layer.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

/* What the command-line tools do alike around their own work: Ctrl-C, GDAL's set-up, reading the points, starting
 * the engine, and ending on an error with a status that says why. */

enum {
  SHEPARD_CLI_EXIT_USAGE = 2, /* a wrong command line or wrong parameters */
  SHEPARD_CLI_EXIT_SIGNAL_BASE = 128,
};

/* Makes SIGINT and SIGTERM ask the work to stop rather than end the process, registers GDAL's drivers and keeps
 * GDAL's messages off the terminal (they reach the user through the errors they cause, in one line). */
void shepard_cli_init (void);

/* The number of the signal that asked the work to stop, 0 until one has: the flag for ShepardTerminalProgress. */
const volatile sig_atomic_t *shepard_cli_cancel_flag (void);

gboolean shepard_cli_cancelled (void);

/* shepard_point_layer_read, stopped by a signal; prints nothing. */
ShepardPointLayer *shepard_cli_read_points (const char *source, const char *layer, const char *value_field,
                                            const char *const *open_options, GError **error);

/* shepard_point_layer_read_fields, stopped by a signal; prints nothing. */
GPtrArray *shepard_cli_read_fields (const char *source, const char *layer, const char *const *value_fields,
                                    const char *const *open_options, GError **error);

/* "Input: N points of layer ..., field ..." and what was skipped, on stderr; then "Duplicates in field ...: ..." when
 * the field has points at one location with different values. */
void shepard_cli_report_points (const ShepardPointLayer *points);

/* The GPUs' CUDA contexts, started on a thread of its own while the tool reads its points (shepard_gpus_start):
 * shepard_cli_gpus_start_end (or leaving the scope, with g_auto) waits for it. */
typedef struct {
  GThread *thread;
  shepard_gpu_set gpus;
} ShepardCliGpuStart;

/* Nothing for the CPU backend. */
void shepard_cli_gpus_start_begin (ShepardCliGpuStart *start, shepard_backend backend, const shepard_gpu_set *gpus);
void shepard_cli_gpus_start_end (ShepardCliGpuStart *start);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardCliGpuStart, shepard_cli_gpus_start_end)

/* An engine on backend (on the GPUs of gpus where it runs on CUDA; NULL: every visible GPU) holding the points;
 * unless quiet, says on stderr which backend it runs on. */
shepard_engine *shepard_cli_start_engine (shepard_backend backend, shepard_precision precision,
                                          const shepard_gpu_set *gpus, const ShepardPointLayer *points,
                                          gboolean quiet, GError **error);

/* 128 + N after signal N; SHEPARD_CLI_EXIT_USAGE for SHEPARD_APP_ERROR_USAGE and _INVALID_PARAMETER; else 1. */
int shepard_cli_exit_status_for (const GError *error);

/* "PROGRAM: MESSAGE" on one line of stderr; after a signal "PROGRAM: cancelled by SIGNAL: NOT_WRITTEN" instead
 * (not_written NULL: without it). */
void shepard_cli_print_error (const char *program, const GError *error, const char *not_written);

/* Flushes stdout, where the tool printed what (its results, its usage; set errno to 0 before printing, so that the
 * reason of a write that failed while printing is known); when any of it could not be written (a full
 * disk...), says so on stderr as "PROGRAM: cannot write WHAT to standard output: REASON" and returns EXIT_FAILURE,
 * so that the tool does not end with 0 having lost what it printed; else EXIT_SUCCESS. */
int shepard_cli_finish_stdout (const char *program, const char *what);

G_END_DECLS
