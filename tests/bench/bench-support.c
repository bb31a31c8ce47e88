/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench-support.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench-time.h"

static const char *program_name = "shepard-bench";
static double start_time;

void
bench_start (const char *program)
{
  program_name = program;
  start_time = bench_now ();
}

void
bench_say (const char *format, ...)
{
  va_list args;

  fprintf (stderr, "[%7.1f s] ", bench_now () - start_time);
  va_start (args, format);
  vfprintf (stderr, format, args);
  va_end (args);
  fputc ('\n', stderr);
}

void *
bench_allocate (size_t count, size_t size, const char *hint)
{
  void *memory = calloc (count, size);

  if (!memory)
    {
      fprintf (stderr, "%s: out of memory for %zu items; %s\n", program_name, count, hint);
      exit (2);
    }
  return memory;
}

static int
compare_ints (const void *a, const void *b)
{
  int left = *(const int *) a, right = *(const int *) b;
  return (left > right) - (left < right);
}

bool
bench_parse_sizes (const char *text, int max_size, int *sizes, int capacity, int *count)
{
  *count = 0;
  while (*text)
    {
      char *end;
      long size = strtol (text, &end, 10);
      if (end == text || size < 1 || size > max_size || *count == capacity || (*end != ',' && *end != '\0'))
        return false;
      sizes[(*count)++] = (int) size;
      text = *end == ',' ? end + 1 : end;
    }
  qsort (sizes, (size_t) *count, sizeof *sizes, compare_ints);
  int unique = 0;
  for (int i = 0; i < *count; i++)
    if (unique == 0 || sizes[unique - 1] != sizes[i])
      sizes[unique++] = sizes[i];
  *count = unique;
  return *count > 0;
}

int
bench_compare_doubles (const void *a, const void *b)
{
  double left = *(const double *) a, right = *(const double *) b;
  return (left > right) - (left < right);
}

double
bench_median (double *values, int count)
{
  if (count == 0)
    return NAN;
  qsort (values, (size_t) count, sizeof *values, bench_compare_doubles);
  return count % 2 ? values[count / 2] : 0.5 * (values[count / 2 - 1] + values[count / 2]);
}
