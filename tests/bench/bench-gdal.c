/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench-gdal.h"

#include "bench-time.h"

#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Variables the benchmark sets for each gdal_grid run; inherited values would skew the comparison. */
static const char *const controlled_variables[] = { "GDAL_NUM_THREADS=", "GDAL_USE_AVX=", "GDAL_USE_SSE=" };

static bool
is_controlled (const char *entry)
{
  for (size_t i = 0; i < sizeof controlled_variables / sizeof *controlled_variables; i++)
    if (strncmp (entry, controlled_variables[i], strlen (controlled_variables[i])) == 0)
      return true;
  return false;
}

/* Runs argv[0] (searched in PATH) with stdout silenced, this process's environment less the controlled variables
 * plus extra_environment; true when it exited with status 0. */
static bool
run_tool (char *const argv[], char *const extra_environment[])
{
  size_t count = 0, extra = 0;
  while (environ[count])
    count++;
  while (extra_environment && extra_environment[extra])
    extra++;

  char **environment = calloc (count + extra + 1, sizeof *environment);
  if (!environment)
    return false;
  size_t used = 0;
  for (size_t i = 0; i < count; i++)
    if (!is_controlled (environ[i]))
      environment[used++] = environ[i];
  for (size_t i = 0; i < extra; i++)
    environment[used++] = extra_environment[i];

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);

  pid_t pid;
  int spawn_error = posix_spawnp (&pid, argv[0], &actions, NULL, argv, environment);
  posix_spawn_file_actions_destroy (&actions);
  free (environment);
  if (spawn_error != 0)
    return false;

  int status = 0;
  if (waitpid (pid, &status, 0) != pid)
    return false;
  return WIFEXITED (status) && WEXITSTATUS (status) == 0;
}

bool
bench_gdal_available (void)
{
  char *const gdal_grid[] = { "gdal_grid", "--version", NULL };
  char *const ogr2ogr[] = { "ogr2ogr", "--version", NULL };

  return run_tool (gdal_grid, NULL) && run_tool (ogr2ogr, NULL);
}

bool
bench_gdal_make_geopackage (const char *csv_path, const char *geopackage_path)
{
  char *const argv[] = { "ogr2ogr", "-f", "GPKG", "-nln", "points", (char *) geopackage_path, (char *) csv_path,
                         "-oo", "X_POSSIBLE_NAMES=x", "-oo", "Y_POSSIBLE_NAMES=y", "-oo", "AUTODETECT_TYPE=YES",
                         NULL };

  return run_tool (argv, NULL);
}

static bool
read_float64_file (const char *path, double *values, size_t count)
{
  FILE *file = fopen (path, "rb");
  if (!file)
    return false;
  size_t read = fread (values, sizeof *values, count, file);
  return fclose (file) == 0 && read == count;
}

double
bench_gdal_grid (const char *geopackage_path, const char *algorithm, bool exact_path, int threads,
                 const shepard_grid *grid, const char *output_path, double *values)
{
  char x_min[32], x_max[32], y_min[32], y_max[32], width[32], height[32], thread_variable[48];

  snprintf (x_min, sizeof x_min, "%.17g", grid->x_min);
  snprintf (x_max, sizeof x_max, "%.17g", grid->x_min + grid->dx * (double) grid->width);
  snprintf (y_min, sizeof y_min, "%.17g", grid->y_max - grid->dy * (double) grid->height);
  snprintf (y_max, sizeof y_max, "%.17g", grid->y_max);
  snprintf (width, sizeof width, "%zu", grid->width);
  snprintf (height, sizeof height, "%zu", grid->height);
  snprintf (thread_variable, sizeof thread_variable, "GDAL_NUM_THREADS=%d", threads);

  char *const argv[] = { "gdal_grid", "-q", "-l", "points", "-zfield", "z", "-a", (char *) algorithm,
                         "-txe", x_min, x_max, "-tye", y_min, y_max, "-outsize", width, height,
                         "-of", "ENVI", "-ot", "Float64", (char *) geopackage_path, (char *) output_path, NULL };
  char *const exact_environment[] = { thread_variable, "GDAL_USE_AVX=NO", "GDAL_USE_SSE=NO", NULL };
  char *const default_environment[] = { thread_variable, NULL };

  double start = bench_now ();
  bool ran = run_tool (argv, exact_path ? exact_environment : default_environment);
  double seconds = bench_now () - start;

  if (!ran)
    return -1.0;
  /* ENVI Float64 is the raw grid in native byte order, row 0 at the top as gdal_grid 3.6 writes it. */
  if (values && !read_float64_file (output_path, values, grid->width * grid->height))
    return -1.0;
  return seconds;
}
