/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Running shepard-grid from the tests and keeping their files apart. */
#pragma once

#include <glib.h>

/* The tests' output directories: scratch_directory_new, _list and _remove. */
#include "scratch-directory.h"

G_BEGIN_DECLS

typedef struct {
  gboolean exited; /* FALSE when a signal ended the process */
  int exit_code;
  char *standard_output;
  char *standard_error;
} CliRun;

/* g_test_init, then the tool under test: the first argument left after GLib's own (meson passes the built
 * executable), else the one of the build tree the tests were built in. */
void cli_harness_init (int *argc, char ***argv);

const char *cli_tool_path (void);

/* A file of the source tree ($SHEPARD_SOURCE_ROOT, else the one the tests were built from), e.g. "data/meuse.csv". */
char *cli_source_path (const char *relative);

/* Runs the tool with these arguments (NULL-terminated, without the program name) and waits for it. */
CliRun *cli_run (const char *const *args);
void cli_run_free (CliRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliRun, cli_run_free)

/* The same with the tool's stdout going to the file stdout_path (such as /dev/full); standard_output is NULL. */
CliRun *cli_run_with_stdout (const char *const *args, const char *stdout_path);

/* A run interrupted with SIGINT, as Ctrl-C would. */
typedef struct {
  gboolean ended;         /* the process ended within CLI_INTERRUPT_GRACE_SECONDS of the signal (else it was killed) */
  gboolean exited;        /* FALSE when a signal ended the process */
  int exit_code;
  double seconds_to_exit; /* from the signal to the end of its stderr */
  char *standard_error;
} CliInterruptedRun;

#define CLI_INTERRUPT_GRACE_SECONDS 2.0

/* Runs the tool and, seconds after its first output on stderr (the progress bar, once the work has started: never
 * the start-up), sends it SIGINT and waits for it. Fails the test when the run ends by itself before the signal. */
CliInterruptedRun *cli_run_interrupted (const char *const *args, double seconds);
void cli_interrupted_run_free (CliInterruptedRun *run);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CliInterruptedRun, cli_interrupted_run_free)

/* Fails the test unless the run exited with status 0; shows its stderr when it did not. */
void cli_assert_success (const CliRun *run);

G_END_DECLS
