/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-harness.h"

#include <gio/gio.h>
#include <signal.h>
#include <sys/wait.h>

static char *tool_path;

void
cli_harness_init (int *argc, char ***argv)
{
  g_test_init (argc, argv, NULL);

  for (int i = 1; i < *argc; i++)
    {
      if ((*argv)[i][0] != '-')
        {
          tool_path = g_strdup ((*argv)[i]);
          return;
        }
    }

  tool_path = g_strdup (CLI_DEFAULT_TOOL_PATH);
}

const char *
cli_tool_path (void)
{
  return tool_path;
}

char *
cli_source_path (const char *relative)
{
  const char *source_root = g_getenv ("SHEPARD_SOURCE_ROOT");

  return g_build_filename (source_root != NULL ? source_root : CLI_DEFAULT_SOURCE_ROOT, relative, NULL);
}

/* The tool followed by args, NULL-terminated, logged as "what: command line". */
static GPtrArray *
tool_argv (const char *const *args, const char *what)
{
  GPtrArray *argv = g_ptr_array_new ();

  g_ptr_array_add (argv, tool_path);
  for (const char *const *arg = args; *arg != NULL; arg++)
    g_ptr_array_add (argv, (gpointer) *arg);
  g_ptr_array_add (argv, NULL);
  g_autofree char *command_line = g_strjoinv (" ", (char **) argv->pdata);
  g_test_message ("%s: %s", what, command_line);
  return argv;
}

CliRun *
cli_run (const char *const *args)
{
  g_autoptr (GPtrArray) argv = tool_argv (args, "running");
  g_autoptr (GError) error = NULL;
  CliRun *run = g_new0 (CliRun, 1);
  int wait_status = 0;

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &run->standard_output,
                &run->standard_error, &wait_status, &error);
  g_assert_no_error (error);

  run->exited = WIFEXITED (wait_status);
  run->exit_code = run->exited ? WEXITSTATUS (wait_status) : -1;
  return run;
}

CliRun *
cli_run_with_stdout (const char *const *args, const char *stdout_path)
{
  g_autofree char *what = g_strdup_printf ("running, stdout to %s", stdout_path);
  g_autoptr (GPtrArray) argv = tool_argv (args, what);
  g_autoptr (GError) error = NULL;
  g_autoptr (GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDERR_PIPE);

  g_subprocess_launcher_set_stdout_file_path (launcher, stdout_path);
  g_autoptr (GSubprocess) process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv->pdata, &error);
  g_assert_no_error (error);
  CliRun *run = g_new0 (CliRun, 1);
  g_subprocess_communicate_utf8 (process, NULL, NULL, NULL, &run->standard_error, &error);
  g_assert_no_error (error);
  run->exited = g_subprocess_get_if_exited (process);
  run->exit_code = run->exited ? g_subprocess_get_exit_status (process) : -1;
  return run;
}

void
cli_run_free (CliRun *run)
{
  g_free (run->standard_output);
  g_free (run->standard_error);
  g_free (run);
}

void
cli_assert_success (const CliRun *run)
{
  if (!run->exited || run->exit_code != 0)
    g_test_message ("stderr of the failed run:\n%s", run->standard_error);
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, ==, 0);
}

/* Collects a child's stderr on a thread, so that the test can wait for its first byte and for its end. */
typedef struct {
  GMutex mutex;
  GCond changed;
  GString *text;
  gboolean ended;
  GInputStream *stream;
} StderrReader;

static gpointer
read_stderr (gpointer data)
{
  StderrReader *reader = data;
  char buffer[256];
  gssize count;

  while ((count = g_input_stream_read (reader->stream, buffer, sizeof buffer, NULL, NULL)) > 0)
    {
      g_mutex_lock (&reader->mutex);
      g_string_append_len (reader->text, buffer, count);
      g_cond_broadcast (&reader->changed);
      g_mutex_unlock (&reader->mutex);
    }
  g_mutex_lock (&reader->mutex);
  reader->ended = TRUE;
  g_cond_broadcast (&reader->changed);
  g_mutex_unlock (&reader->mutex);
  return NULL;
}

/* Waits until stderr has some text (or has ended, with ended_only) or the deadline passes. */
static gboolean
wait_for_stderr (StderrReader *reader, gboolean ended_only, gint64 deadline)
{
  gboolean reached;

  g_mutex_lock (&reader->mutex);
  while (!(reached = reader->ended || (!ended_only && reader->text->len > 0)))
    {
      if (!g_cond_wait_until (&reader->changed, &reader->mutex, deadline))
        break;
    }
  g_mutex_unlock (&reader->mutex);
  return reached;
}

CliInterruptedRun *
cli_run_interrupted (const char *const *args, double seconds)
{
  g_autoptr (GPtrArray) argv = tool_argv (args, "running, to interrupt");
  g_autoptr (GError) error = NULL;
  CliInterruptedRun *run = g_new0 (CliInterruptedRun, 1);

  g_autoptr (GSubprocess) process = g_subprocess_newv ((const char *const *) argv->pdata,
                                                       G_SUBPROCESS_FLAGS_STDOUT_SILENCE
                                                         | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                                                       &error);
  g_assert_no_error (error);

  StderrReader reader = { .text = g_string_new (NULL), .stream = g_subprocess_get_stderr_pipe (process) };
  g_mutex_init (&reader.mutex);
  g_cond_init (&reader.changed);
  GThread *thread = g_thread_new ("stderr", read_stderr, &reader);

  /* The progress bar starts when the work does; interrupt the work, not the start-up. */
  if (!wait_for_stderr (&reader, FALSE, g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND))
    g_test_message ("no progress within 60 s; interrupting anyway");
  g_usleep ((gulong) (seconds * G_USEC_PER_SEC));
  g_assert_false (wait_for_stderr (&reader, TRUE, g_get_monotonic_time ()));

  gint64 interrupted_at = g_get_monotonic_time ();
  g_subprocess_send_signal (process, SIGINT);
  run->ended = wait_for_stderr (&reader, TRUE,
                                interrupted_at + (gint64) (CLI_INTERRUPT_GRACE_SECONDS * G_TIME_SPAN_SECOND));
  run->seconds_to_exit = (g_get_monotonic_time () - interrupted_at) / (double) G_TIME_SPAN_SECOND;
  if (!run->ended)
    g_subprocess_force_exit (process);
  g_subprocess_wait (process, NULL, &error);
  g_assert_no_error (error);
  g_thread_join (thread);

  run->exited = g_subprocess_get_if_exited (process);
  run->exit_code = run->exited ? g_subprocess_get_exit_status (process) : -1;
  run->standard_error = g_string_free (reader.text, FALSE);
  g_mutex_clear (&reader.mutex);
  g_cond_clear (&reader.changed);
  g_test_message ("exited %.3f s after SIGINT; stderr: %s", run->seconds_to_exit, run->standard_error);
  return run;
}

void
cli_interrupted_run_free (CliInterruptedRun *run)
{
  if (run == NULL)
    return;
  g_free (run->standard_error);
  g_free (run);
}
