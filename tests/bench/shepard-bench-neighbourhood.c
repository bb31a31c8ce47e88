/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdal_grid's neighbourhood options against gdal_grid invdistnn itself: the same radius, max_points, min_points,
 * quadrant and smoothing options over the same points and grid, timed side by side in one run on this machine's
 * cores, with the values compared cell by cell (issue 14's goals: >= 5x faster, values within 1e-5 relative wherever
 * neither side has a tie at the cut, nodata in exactly the same cells).
 *
 *   build/tests/bench/shepard-bench-neighbourhood [--points N] [--size W] [--threads T] [--repeat R]
 */
#include "bench-data.h"
#include "bench-gdal.h"
#include "bench-support.h"
#include "bench-time.h"
#include "shepard-engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define GDAL_NODATA -9999.0
#define RELATIVE_TOLERANCE 1e-5
/* Neighbours fetched per cell to find ties at the cut: more than any configuration below selects or skips. */
#define TIE_SEARCH 128
/* Two distances (or a distance and the radius, or an offset and a quadrant's axis) this close, relative to the
 * radius, are a tie: the two programs may break it differently. */
#define TIE_FRACTION 1e-9

typedef struct {
  const char *name;
  double power;
  double smoothing_fraction; /* of the radius */
  double mean_in_radius;     /* points expected in the search circle on average */
  int max_points, min_points;
  int max_per_quadrant, min_per_quadrant;
} configuration;

static const configuration configurations[] = {
  { "p=2, 12 nearest, min 3", 2.0, 0.0, 24.0, 12, 3, 0, 0 },
  { "p=2, 12 nearest, quadrants 3/1", 2.0, 0.0, 24.0, 12, 3, 3, 1 },
  { "p=3, 24 nearest, smoothing", 3.0, 0.1, 48.0, 24, 6, 0, 0 },
};
enum { CONFIGURATION_COUNT = sizeof configurations / sizeof *configurations };

static void
fail_engine (const char *what, const shepard_error *error)
{
  fprintf (stderr, "shepard-bench-neighbourhood: %s: %s\n", what, error->message);
  exit (2);
}

static double
radius_of (const configuration *config, const bench_points *points)
{
  return sqrt (config->mean_in_radius * points->side * points->side / (3.14159265358979323846 * (double) points->n));
}

static void
params_of (const configuration *config, double radius, shepard_params *params)
{
  shepard_params_init_idw (params);
  params->power = config->power;
  params->smoothing = config->smoothing_fraction * radius;
  params->radius1 = params->radius2 = radius;
  params->neighbors = config->max_points;
  params->min_points = config->min_points;
  params->max_points_per_quadrant = config->max_per_quadrant;
  params->min_points_per_quadrant = config->min_per_quadrant;
}

static void
gdal_algorithm_of (const configuration *config, double radius, char *text, size_t size)
{
  int used = snprintf (text, size, "invdistnn:power=%.17g:smoothing=%.17g:radius=%.17g:max_points=%d:min_points=%d"
                       ":nodata=%.17g", config->power, config->smoothing_fraction * radius, radius,
                       config->max_points, config->min_points, GDAL_NODATA);
  if (config->max_per_quadrant > 0)
    used += snprintf (text + used, size - (size_t) used, ":max_points_per_quadrant=%d", config->max_per_quadrant);
  if (config->min_per_quadrant > 0)
    snprintf (text + used, size - (size_t) used, ":min_points_per_quadrant=%d", config->min_per_quadrant);
}

/* Cells where the selection depends on how a tie is broken: two candidates at the same distance near the cut, a
 * candidate on the circle, or (with quadrants) one on a quadrant's axis. */
static bool *
find_ties (shepard_engine *engine, const bench_points *points, const shepard_grid *grid, const configuration *config,
           double radius, size_t *tie_count)
{
  size_t cells = grid->width * grid->height;
  bool *tie = bench_allocate (cells, sizeof *tie, "try a smaller --size");
  double *qx = bench_allocate (grid->width, sizeof *qx, "");
  double *qy = bench_allocate (grid->width, sizeof *qy, "");
  double *d2 = bench_allocate (grid->width * TIE_SEARCH, sizeof *d2, "try a smaller --size");
  size_t *index = bench_allocate (grid->width * TIE_SEARCH, sizeof *index, "try a smaller --size");
  double r2 = radius * radius, eps = TIE_FRACTION * radius;
  shepard_error error;

  *tie_count = 0;
  for (size_t row = 0; row < grid->height; row++)
    {
      for (size_t col = 0; col < grid->width; col++)
        {
          qx[col] = grid->x_min + ((double) col + 0.5) * grid->dx;
          qy[col] = grid->y_max - ((double) row + 0.5) * grid->dy;
        }
      if (shepard_engine_nearest (engine, qx, qy, grid->width, TIE_SEARCH, d2, index, &error) != SHEPARD_OK)
        fail_engine ("nearest", &error);
      for (size_t col = 0; col < grid->width; col++)
        {
          const double *cd2 = d2 + col * TIE_SEARCH;
          const size_t *cindex = index + col * TIE_SEARCH;
          bool t = false;
          for (int j = 0; j < TIE_SEARCH && !t && cd2[j] <= r2 * (1.0 + 4.0 * TIE_FRACTION); j++)
            {
              double d = sqrt (cd2[j]);
              if (fabs (d - radius) <= eps)
                t = true;
              if (j > 0 && sqrt (cd2[j]) - sqrt (cd2[j - 1]) <= eps)
                t = true;
              if (config->max_per_quadrant > 0 || config->min_per_quadrant > 0)
                {
                  double dx = points->x[cindex[j]] - qx[col], dy = points->y[cindex[j]] - qy[col];
                  if (fabs (dx) <= eps || fabs (dy) <= eps)
                    t = true;
                }
            }
          /* Candidates beyond the search: the cut cannot be checked, so the cell is not compared. */
          if (cd2[TIE_SEARCH - 1] <= r2)
            t = true;
          tie[row * grid->width + col] = t;
          *tie_count += t;
        }
    }
  free (qx);
  free (qy);
  free (d2);
  free (index);
  return tie;
}

typedef struct {
  double ours_f32, ours_f32_whole, ours_f64, ours_f64_whole, gdal_total, gdal_overhead;
  double max_difference, max_difference_f64;
  size_t compared, ties, nodata_ours, nodata_gdal, nodata_mismatch;
} outcome;

/* The best of `repeat` runs: the whole (a new engine, the points given: its search grid built, as gdal_grid builds
 * its quadtree, then the grid interpolated) into *whole, the interpolation alone returned. */
static double
time_ours (const bench_points *points, shepard_precision precision, int threads, const shepard_params *params,
           const shepard_grid *grid, double *values, int repeat, double *whole)
{
  double best = INFINITY;
  shepard_outputs outputs = { .values = values };
  shepard_error error;
  *whole = INFINITY;
  for (int r = 0; r < repeat; r++)
    {
      double start = bench_now ();
      shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, precision, threads, &error);
      if (!engine)
        fail_engine ("engine", &error);
      if (shepard_engine_set_points (engine, points->x, points->y, points->z, points->n, &error) != SHEPARD_OK)
        fail_engine ("set_points", &error);
      double interpolation_start = bench_now ();
      if (shepard_engine_interpolate_grid (engine, params, grid, &outputs, NULL, NULL, &error) != SHEPARD_OK)
        fail_engine ("interpolate", &error);
      double end = bench_now ();
      best = fmin (best, end - interpolation_start);
      *whole = fmin (*whole, end - start);
      shepard_engine_free (engine);
    }
  return best;
}

static void
compare (const double *ours, const double *gdal, const bool *tie, size_t cells, double *max_difference,
         outcome *result, bool count_nodata)
{
  *max_difference = 0.0;
  for (size_t i = 0; i < cells; i++)
    {
      bool ours_nodata = isnan (ours[i]), gdal_nodata = gdal[i] == GDAL_NODATA;
      if (count_nodata)
        {
          result->nodata_ours += ours_nodata;
          result->nodata_gdal += gdal_nodata;
          result->nodata_mismatch += ours_nodata != gdal_nodata;
          result->compared += !tie[i] && !ours_nodata && !gdal_nodata;
        }
      if (tie[i] || ours_nodata || gdal_nodata)
        continue;
      double difference = fabs (ours[i] - gdal[i]) / fmax (fabs (gdal[i]), 1e-300);
      *max_difference = fmax (*max_difference, difference);
    }
}

int
main (int argc, char **argv)
{
  size_t n_points = 100000, size = 1024;
  int threads = (int) sysconf (_SC_NPROCESSORS_ONLN), repeat = 3;
  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--points") == 0 && i + 1 < argc)
        n_points = strtoull (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--size") == 0 && i + 1 < argc)
        size = strtoull (argv[++i], NULL, 10);
      else if (strcmp (argv[i], "--threads") == 0 && i + 1 < argc)
        threads = atoi (argv[++i]);
      else if (strcmp (argv[i], "--repeat") == 0 && i + 1 < argc)
        repeat = atoi (argv[++i]);
      else
        {
          fprintf (stderr, "usage: %s [--points N] [--size W] [--threads T] [--repeat R]\n", argv[0]);
          return 2;
        }
    }
  if (n_points < 100 || size < 8 || threads < 1 || repeat < 1)
    {
      fprintf (stderr, "shepard-bench-neighbourhood: --points >= 100, --size >= 8, --threads and --repeat >= 1\n");
      return 2;
    }
  bench_start ("shepard-bench-neighbourhood");
  if (!bench_gdal_available ())
    {
      printf ("gdal_grid or ogr2ogr is not on PATH: nothing to compare with.\n");
      return 0;
    }

  bench_points points;
  if (!bench_points_generate (&points, n_points, 20261125ULL))
    {
      fprintf (stderr, "shepard-bench-neighbourhood: out of memory for %zu points\n", n_points);
      return 2;
    }
  /* The grid reaches 5 % beyond the points on every side, so edge cells meet min_points and empty quadrants. */
  double margin = 0.05 * points.side, side = points.side + 2.0 * margin;
  shepard_grid grid = { -margin, points.side + margin, side / (double) size, side / (double) size, size, size };
  size_t cells = grid.width * grid.height;

  char directory[] = "/tmp/shepard-bench-neighbourhood-XXXXXX";
  if (!mkdtemp (directory))
    {
      perror ("mkdtemp");
      return 2;
    }
  char csv[4096], geopackage[4096], output[4096];
  snprintf (csv, sizeof csv, "%s/points.csv", directory);
  snprintf (geopackage, sizeof geopackage, "%s/points.gpkg", directory);
  snprintf (output, sizeof output, "%s/gdal.bin", directory);
  bench_say ("writing %zu points for gdal_grid", n_points);
  if (!bench_points_write_csv (&points, csv) || !bench_gdal_make_geopackage (csv, geopackage))
    {
      fprintf (stderr, "shepard-bench-neighbourhood: could not write %s\n", geopackage);
      return 2;
    }

  shepard_error error;
  shepard_engine *reference = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, threads, &error);
  if (!reference
      || shepard_engine_set_points (reference, points.x, points.y, points.z, points.n, &error) != SHEPARD_OK)
    fail_engine ("reference engine", &error);

  double *ours = bench_allocate (cells, sizeof *ours, "try a smaller --size");
  double *ours64 = bench_allocate (cells, sizeof *ours64, "try a smaller --size");
  double *gdal = bench_allocate (cells, sizeof *gdal, "try a smaller --size");
  outcome results[CONFIGURATION_COUNT] = { 0 };
  bool all_met = true;

  for (int c = 0; c < CONFIGURATION_COUNT; c++)
    {
      const configuration *config = &configurations[c];
      outcome *result = &results[c];
      double radius = radius_of (config, &points);
      shepard_params params;
      char algorithm[512];
      params_of (config, radius, &params);
      gdal_algorithm_of (config, radius, algorithm, sizeof algorithm);

      bench_say ("%s: ours (CPU float32, %d threads)", config->name, threads);
      result->ours_f32 = time_ours (&points, SHEPARD_PRECISION_FLOAT32, threads, &params, &grid, ours, repeat,
                                    &result->ours_f32_whole);
      bench_say ("%s: ours (CPU float64)", config->name);
      result->ours_f64 = time_ours (&points, SHEPARD_PRECISION_FLOAT64, threads, &params, &grid, ours64, 1,
                                    &result->ours_f64_whole);

      bench_say ("%s: gdal_grid -a %s", config->name, algorithm);
      shepard_grid tiny = { grid.x_min, grid.y_max, side, side, 1, 1 };
      result->gdal_total = INFINITY;
      result->gdal_overhead = INFINITY;
      for (int r = 0; r < repeat; r++)
        {
          double overhead = bench_gdal_grid (geopackage, algorithm, false, threads, &tiny, output, NULL);
          double seconds = bench_gdal_grid (geopackage, algorithm, false, threads, &grid, output, gdal);
          if (overhead < 0.0 || seconds < 0.0)
            {
              fprintf (stderr, "shepard-bench-neighbourhood: gdal_grid -a %s failed\n", algorithm);
              return 2;
            }
          result->gdal_overhead = fmin (result->gdal_overhead, overhead);
          result->gdal_total = fmin (result->gdal_total, seconds);
        }

      bool *tie = find_ties (reference, &points, &grid, config, radius, &result->ties);
      compare (ours, gdal, tie, cells, &result->max_difference, result, true);
      compare (ours64, gdal, tie, cells, &result->max_difference_f64, result, false);
      free (tie);
    }

  printf ("\nshepard-bench-neighbourhood: %zu uniform points, %zu x %zu grid reaching 5 %% beyond them, %d threads, "
          "best of %d\n", n_points, grid.width, grid.height, threads, repeat);
  printf ("gdal net: gdal_grid invdistnn with the same options, its time less a 1 x 1 run's (start-up, reading the "
          "points,\nbuilding its quadtree); gdal all: the whole run. ours: the interpolation, with (whole) the engine made "
          "and the points\ngiven (its search grid built). ratio: gdal net over ours, like for like; whole ratio: gdal all "
          "over ours whole.\n\n");
  printf ("%-32s %9s %9s %9s %9s %9s %7s %7s  %9s %9s  %8s %6s %7s %8s\n", "configuration", "ours f32", "whole",
          "ours f64", "gdal net", "gdal all", "ratio", "whole", "diff f32", "diff f64", "compared", "ties", "nodata",
          "mismatch");
  for (int c = 0; c < CONFIGURATION_COUNT; c++)
    {
      const outcome *r = &results[c];
      double gdal_net = fmax (r->gdal_total - r->gdal_overhead, 1e-3);
      double ratio = gdal_net / r->ours_f32;
      bool met = ratio >= 5.0 && r->max_difference <= RELATIVE_TOLERANCE
                 && r->max_difference_f64 <= RELATIVE_TOLERANCE && r->nodata_mismatch == 0;
      all_met = all_met && met;
      printf ("%-32s %8.3fs %8.3fs %8.3fs %8.3fs %8.3fs %6.1fx %6.1fx  %9.2g %9.2g  %8zu %6zu %7zu %8zu%s\n",
              configurations[c].name, r->ours_f32, r->ours_f32_whole, r->ours_f64, gdal_net, r->gdal_total, ratio,
              r->gdal_total / r->ours_f32_whole, r->max_difference, r->max_difference_f64, r->compared, r->ties,
              r->nodata_ours, r->nodata_mismatch, met ? "" : "  (goal missed)");
    }
  printf ("\nGoals (issue 14): ratio >= 5x; diff <= 1e-5 relative on every compared cell; nodata mismatch 0.\n%s\n",
          all_met ? "All goals met." : "Some goals missed.");

  shepard_engine_free (reference);
  free (ours);
  free (ours64);
  free (gdal);
  bench_points_free (&points);
  unlink (csv);
  unlink (geopackage);
  unlink (output);
  char header[4200];
  snprintf (header, sizeof header, "%s.hdr", output);
  unlink (header);
  snprintf (header, sizeof header, "%s.aux.xml", output);
  unlink (header);
  rmdir (directory);
  return all_met ? 0 : 1;
}
