/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "fuzz-support.h"

#include <cpl_error.h>
#include <gdal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A command line longer than this says nothing more to a parser, and only slows the search down. */
#define MAX_WORDS 256

void
shepard_fuzz_init (void)
{
  /* GLib 2.74 reads these once, at the first GSlice allocation: before any input. */
  g_setenv ("G_SLICE", "always-malloc", TRUE);
  g_setenv ("G_DEBUG", "gc-friendly", TRUE);
  g_log_set_always_fatal (G_LOG_FATAL_MASK | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  GDALAllRegister ();
  CPLSetErrorHandler (CPLQuietErrorHandler);
}

void
shepard_fuzz_fail (const char *file, int line, const char *condition, const char *format, ...)
{
  va_list arguments;

  fprintf (stderr, "%s:%d: invariant broken: %s\n  ", file, line, condition);
  va_start (arguments, format);
  vfprintf (stderr, format, arguments);
  va_end (arguments);
  fputc ('\n', stderr);
  fflush (stderr);
  __builtin_trap ();
}

char **
shepard_fuzz_split_words (const uint8_t *data, size_t size, const char *program, int *argc)
{
  GPtrArray *words = g_ptr_array_new ();
  size_t start = 0;

  g_ptr_array_add (words, g_strdup (program));
  for (size_t i = 0; i <= size && words->len < MAX_WORDS; i++)
    {
      gboolean separator = i == size || data[i] == '\0' || data[i] == '\n';
      if (!separator)
        continue;
      if (i < size || i > start)
        g_ptr_array_add (words, g_strndup ((const char *) data + start, i - start));
      start = i + 1;
    }
  *argc = (int) words->len;
  g_ptr_array_add (words, NULL);
  return (char **) g_ptr_array_free (words, FALSE);
}

gboolean
shepard_fuzz_same_double (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}
