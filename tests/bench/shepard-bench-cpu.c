/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-bench-cpu: query x data point pairs per second of the CPU engine beside gdal_grid on the same random data,
 * the same grid, the same machine and thread count, with the goals of issue 2 next to the ratios and a check that
 * the comparable results agree. Run by hand, never by meson test. */
#include "bench-data.h"
#include "bench-gdal.h"
#include "bench-support.h"
#include "bench-time.h"
#include "shepard-engine.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The float32 path stays within this of float64 and of an exact gdal_grid (docs/METHOD.md). */
#define RELATIVE_TOLERANCE 1e-5
#define NEAREST 16
#define MAX_SIZES 16
/* Each measured run repeats until it has taken this long (at most MAX_REPEATS times); the fastest one counts. */
#define MIN_MEASURE_SECONDS 1.0
#define MAX_REPEATS 5
/* gdal_grid's own work must take at least this long beside its start-up and I/O to be timed by their difference. */
#define MIN_GDAL_COMPUTE_SECONDS 0.5
/* The float64 path weighs at most about this many pairs per variant (a band of rows), to keep the run short. */
#define FLOAT64_PAIR_BUDGET 268435456.0

typedef enum {
  GDAL_INVDIST_P2_AVX,
  GDAL_INVDIST_P2_EXACT,
  GDAL_INVDIST_P3,
  GDAL_INVDISTNN_P2,
  GDAL_RUN_COUNT,
  GDAL_NONE = GDAL_RUN_COUNT,
} gdal_run_kind;

typedef struct {
  const char *label;
  const char *algorithm; /* for invdistnn, less the radius */
  bool exact_path;
  bool nearest;
} gdal_run;

static const gdal_run gdal_runs[GDAL_RUN_COUNT] = {
  [GDAL_INVDIST_P2_AVX] = { "invdist p=2 (AVX)", "invdist:power=2:smoothing=0", false, false },
  [GDAL_INVDIST_P2_EXACT] = { "invdist p=2 (exact)", "invdist:power=2:smoothing=0", true, false },
  [GDAL_INVDIST_P3] = { "invdist p=3", "invdist:power=3:smoothing=0", false, false },
  [GDAL_INVDISTNN_P2] = { "invdistnn p=2, 16", "invdistnn:power=2:smoothing=0:max_points=16", false, true },
};

typedef struct {
  const char *name;
  shepard_method method;
  double power;
  int neighbors;
  gdal_run_kind yardstick; /* the gdal_grid run the goal compares with */
  double goal;             /* ours / gdal_grid pairs per second, at least */
  gdal_run_kind same_result;
} variant;

static const variant variants[] = {
  { "IDW p=2, all points", SHEPARD_METHOD_IDW, 2.0, SHEPARD_NEIGHBORS_ALL, GDAL_INVDIST_P2_AVX, 1.0,
    GDAL_INVDIST_P2_EXACT },
  { "IDW p=3, all points", SHEPARD_METHOD_IDW, 3.0, SHEPARD_NEIGHBORS_ALL, GDAL_INVDIST_P3, 10.0, GDAL_INVDIST_P3 },
  { "AIDW, all points", SHEPARD_METHOD_AIDW, 0.0, SHEPARD_NEIGHBORS_ALL, GDAL_INVDIST_P3, 10.0, GDAL_NONE },
  { "IDW p=2, 16 nearest", SHEPARD_METHOD_IDW, 2.0, NEAREST, GDAL_INVDISTNN_P2, 5.0, GDAL_INVDISTNN_P2 },
  { "IDW p=3, 16 nearest", SHEPARD_METHOD_IDW, 3.0, NEAREST, GDAL_INVDISTNN_P2, 5.0, GDAL_NONE },
  { "AIDW, 16 nearest", SHEPARD_METHOD_AIDW, 0.0, NEAREST, GDAL_INVDISTNN_P2, 5.0, GDAL_NONE },
};
#define VARIANT_COUNT (sizeof variants / sizeof *variants)

typedef struct {
  int sizes_k[MAX_SIZES];
  int size_count;
  int threads;
  bool skip_gdal;
} options;

typedef struct {
  double pairs_per_second;   /* 0 when not measured */
  double float64_pairs_per_second;
  double float64_difference; /* max relative difference of float32 from float64 over the float64 band */
  double *values;            /* float32 path, whole grid */
} our_result;

typedef struct {
  double seconds;  /* start-up and I/O included */
  double overhead; /* the same run on a 1 x 1 grid */
  double pairs_per_second;
  double *values;
} gdal_result;

static bool results_disagree;

static void
usage (FILE *stream)
{
  fprintf (stream,
           "Usage: shepard-bench-cpu [--sizes 10,50,100] [--threads N] [--skip-gdal]\n"
           "  --sizes     data = query point counts in K (1K = 1024), comma-separated\n"
           "  --threads   threads for the engine and for gdal_grid (GDAL_NUM_THREADS); default: every core\n"
           "  --skip-gdal measure the engine only\n");
}

static bool
parse_options (int argc, char **argv, options *opts)
{
  *opts = (options) { .sizes_k = { 10, 50, 100 }, .size_count = 3, .threads = (int) sysconf (_SC_NPROCESSORS_ONLN) };

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--sizes") == 0 && i + 1 < argc)
        {
          if (!bench_parse_sizes (argv[++i], 4096, opts->sizes_k, MAX_SIZES, &opts->size_count))
            {
              fprintf (stderr, "shepard-bench-cpu: --sizes takes sizes in K separated by commas, e.g. 10,50,100\n");
              return false;
            }
        }
      else if (strcmp (argv[i], "--threads") == 0 && i + 1 < argc)
        {
          opts->threads = atoi (argv[++i]);
          if (opts->threads < 1)
            {
              fprintf (stderr, "shepard-bench-cpu: --threads takes a number of threads, 1 or more\n");
              return false;
            }
        }
      else if (strcmp (argv[i], "--skip-gdal") == 0)
        {
          opts->skip_gdal = true;
        }
      else
        {
          fprintf (stderr, "shepard-bench-cpu: unknown argument %s\n", argv[i]);
          usage (stderr);
          return false;
        }
    }
  return true;
}

static void
fail_engine (const shepard_error *error)
{
  fprintf (stderr, "shepard-bench-cpu: engine error (%s): %s\n", shepard_status_name (error->code), error->message);
  exit (2);
}

/* The benchmark is a program, not a library: running out of memory ends it. */
static double *
allocate_doubles (size_t count)
{
  double *values = malloc (count * sizeof *values);

  if (!values)
    {
      fprintf (stderr, "shepard-bench-cpu: out of memory for %zu values; try smaller --sizes\n", count);
      exit (2);
    }
  return values;
}

static void
variant_params (const variant *v, shepard_params *params)
{
  if (v->method == SHEPARD_METHOD_AIDW)
    {
      shepard_params_init_aidw (params);
    }
  else
    {
      shepard_params_init_idw (params);
      params->power = v->power;
    }
  params->neighbors = v->neighbors;
  /* Pairs per second of the brute force: the far field has its own benchmark. */
  params->summation = SHEPARD_SUMMATION_EXACT;
}

static double
pairs_per_query (const variant *v, size_t n_points)
{
  return v->neighbors == SHEPARD_NEIGHBORS_ALL ? (double) n_points : (double) v->neighbors;
}

/* The fastest of a few runs, in seconds. */
static double
time_engine (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid, double *values)
{
  shepard_outputs outputs = { .values = values };
  shepard_error error;
  double best = INFINITY, total = 0.0;

  for (int repeat = 0; repeat < MAX_REPEATS && total < MIN_MEASURE_SECONDS; repeat++)
    {
      double start = bench_now ();
      if (shepard_engine_interpolate_grid (engine, params, grid, &outputs, NULL, NULL, &error) != SHEPARD_OK)
        fail_engine (&error);
      double seconds = bench_now () - start;
      best = fmin (best, seconds);
      total += seconds;
    }
  return best;
}

static double
max_relative_difference (const double *values, const double *reference, size_t count)
{
  double largest = 0.0;

  for (size_t i = 0; i < count; i++)
    {
      double difference = fabs (values[i] - reference[i]) / fabs (reference[i]);
      if (!(difference <= largest))
        largest = difference; /* NaN included */
    }
  return largest;
}

static void
measure_ours (shepard_engine *fast, shepard_engine *reference, const bench_points *points, const shepard_grid *grid,
              int size_k, our_result results[VARIANT_COUNT])
{
  size_t queries = grid->width * grid->height;

  for (size_t v = 0; v < VARIANT_COUNT; v++)
    {
      shepard_params params;
      variant_params (&variants[v], &params);
      double pairs = (double) queries * pairs_per_query (&variants[v], points->n);

      results[v].values = allocate_doubles (queries);
      bench_say ("%dK: ours float32, %s", size_k, variants[v].name);
      results[v].pairs_per_second = pairs / time_engine (fast, &params, grid, results[v].values);

      shepard_grid band = *grid;
      double pairs_per_row = (double) grid->width * pairs_per_query (&variants[v], points->n);
      double band_rows = ceil (FLOAT64_PAIR_BUDGET / pairs_per_row);
      band.height = band_rows < (double) grid->height ? (size_t) band_rows : grid->height;
      double *band_values = allocate_doubles (band.width * band.height);
      bench_say ("%dK: ours float64, %s (%zu of %zu rows)", size_k, variants[v].name, band.height, grid->height);
      double band_pairs = (double) (band.width * band.height) * pairs_per_query (&variants[v], points->n);
      results[v].float64_pairs_per_second = band_pairs / time_engine (reference, &params, &band, band_values);
      results[v].float64_difference = max_relative_difference (results[v].values, band_values,
                                                               band.width * band.height);
      if (results[v].float64_difference > RELATIVE_TOLERANCE)
        results_disagree = true;
      free (band_values);
    }
}

/* A radius within which every grid node has at least NEAREST points, for invdistnn. */
static double
nearest_radius (shepard_engine *engine, const shepard_grid *grid)
{
  size_t queries = grid->width * grid->height;
  double *query_x = allocate_doubles (queries);
  double *query_y = allocate_doubles (queries);
  double *distances = allocate_doubles (queries * NEAREST);
  shepard_error error;

  for (size_t row = 0; row < grid->height; row++)
    for (size_t column = 0; column < grid->width; column++)
      {
        query_x[row * grid->width + column] = grid->x_min + ((double) column + 0.5) * grid->dx;
        query_y[row * grid->width + column] = grid->y_max - ((double) row + 0.5) * grid->dy;
      }
  if (shepard_engine_nearest (engine, query_x, query_y, queries, NEAREST, distances, NULL, &error) != SHEPARD_OK)
    fail_engine (&error);

  double farthest = 0.0;
  for (size_t q = 0; q < queries; q++)
    farthest = fmax (farthest, distances[q * NEAREST + NEAREST - 1]);
  free (query_x);
  free (query_y);
  free (distances);
  /* A margin so that no 16th neighbour sits on the boundary. */
  return 1.01 * sqrt (farthest) + 1e-6;
}

static bool
measure_gdal (const char *directory, const bench_points *points, const shepard_grid *grid, double radius,
              int threads, int size_k, gdal_result results[GDAL_RUN_COUNT])
{
  char csv[4096], geopackage[4096], output[4096], algorithm[256];
  size_t queries = grid->width * grid->height;
  shepard_grid tiny = { grid->x_min, grid->y_max, grid->dx * (double) grid->width, grid->dy * (double) grid->height,
                        1, 1 };

  snprintf (csv, sizeof csv, "%s/points-%dK.csv", directory, size_k);
  snprintf (geopackage, sizeof geopackage, "%s/points-%dK.gpkg", directory, size_k);
  snprintf (output, sizeof output, "%s/gdal-grid.bin", directory);
  bench_say ("%dK: writing the points for gdal_grid (CSV, then a GeoPackage with ogr2ogr)", size_k);
  if (!bench_points_write_csv (points, csv) || !bench_gdal_make_geopackage (csv, geopackage))
    {
      fprintf (stderr, "shepard-bench-cpu: could not write %s or convert it with ogr2ogr\n", csv);
      return false;
    }

  for (int run = 0; run < GDAL_RUN_COUNT; run++)
    {
      const gdal_run *spec = &gdal_runs[run];
      if (spec->nearest)
        snprintf (algorithm, sizeof algorithm, "%s:radius=%.17g", spec->algorithm, radius);
      else
        snprintf (algorithm, sizeof algorithm, "%s", spec->algorithm);

      results[run].values = allocate_doubles (queries);
      double pairs = (double) queries * (spec->nearest ? NEAREST : (double) points->n);
      /* invdist p=3 goes through pow() for every pair: about 1e8 pairs/s on two cores, minutes at 100K. */
      bench_say ("%dK: gdal_grid -a %s%s, %.2g pairs%s", size_k, algorithm, spec->exact_path ? " (exact path)" : "",
                 pairs, run == GDAL_INVDIST_P3 && pairs > 5e9 ? " (its slowest run: a minute or more)" : "");
      /* Short runs are repeated and the fastest taken, as for ours; a run of a minute is run once. */
      results[run].overhead = INFINITY;
      results[run].seconds = INFINITY;
      double total = 0.0;
      for (int repeat = 0; repeat < MAX_REPEATS && total < MIN_MEASURE_SECONDS; repeat++)
        {
          double overhead = bench_gdal_grid (geopackage, algorithm, spec->exact_path, threads, &tiny, output, NULL);
          double seconds = bench_gdal_grid (geopackage, algorithm, spec->exact_path, threads, grid, output,
                                            results[run].values);
          if (seconds < 0.0 || overhead < 0.0)
            {
              fprintf (stderr, "shepard-bench-cpu: gdal_grid -a %s failed\n", algorithm);
              return false;
            }
          results[run].overhead = fmin (results[run].overhead, overhead);
          results[run].seconds = fmin (results[run].seconds, seconds);
          total += seconds;
        }
      bool all_zero = true;
      for (size_t i = 0; i < queries && all_zero; i++)
        all_zero = results[run].values[i] == 0.0;
      if (all_zero)
        {
          fprintf (stderr, "shepard-bench-cpu: gdal_grid -a %s wrote only zeros: it read no points\n", algorithm);
          return false;
        }
      double compute_seconds = results[run].seconds - results[run].overhead;
      bench_say ("%dK:   %.2f s, of which %.2f s start-up and I/O", size_k, results[run].seconds,
                 results[run].overhead);
      /* A run much shorter than gdal_grid's start-up cannot be timed by a difference of two process runs: the pairs
       * per second then come from a finer grid over the same points, enough to take a measurable time. */
      shepard_grid timing_grid = *grid;
      double timing_pairs = pairs;
      while (compute_seconds < MIN_GDAL_COMPUTE_SECONDS && timing_grid.width < ((size_t) 1 << 14))
        {
          timing_grid.width *= 2;
          timing_grid.height *= 2;
          timing_grid.dx /= 2.0;
          timing_grid.dy /= 2.0;
          timing_pairs *= 4.0;
          double seconds = bench_gdal_grid (geopackage, algorithm, spec->exact_path, threads, &timing_grid, output,
                                            NULL);
          if (seconds < 0.0)
            {
              fprintf (stderr, "shepard-bench-cpu: gdal_grid -a %s failed\n", algorithm);
              return false;
            }
          compute_seconds = seconds - results[run].overhead;
          bench_say ("%dK:   timed again on a %zu x %zu grid: %.2f s", size_k, timing_grid.width, timing_grid.height,
                     seconds);
        }
      results[run].pairs_per_second = timing_pairs / fmax (compute_seconds, 1e-3);
    }
  return true;
}

static void
remove_directory (const char *path)
{
  DIR *dir = opendir (path);
  struct dirent *entry;
  char file[4096];

  while (dir && (entry = readdir (dir)))
    {
      if (strcmp (entry->d_name, ".") == 0 || strcmp (entry->d_name, "..") == 0)
        continue;
      snprintf (file, sizeof file, "%s/%s", path, entry->d_name);
      unlink (file);
    }
  if (dir)
    closedir (dir);
  rmdir (path);
}

static void
print_table_header (FILE *table)
{
  fprintf (table, "%-20s %5s  %10s %10s  %-20s %10s %8s  %-12s %10s %10s\n", "variant", "size", "ours f32",
           "ours f64", "gdal_grid", "gdal", "ratio", "goal", "max diff", "max diff");
  fprintf (table, "%-20s %5s  %10s %10s  %-20s %10s %8s  %-12s %10s %10s\n", "", "", "pairs/s", "pairs/s", "",
           "pairs/s", "", "", "vs gdal", "f32 - f64");
}

/* The relative difference of our float32 grid from a gdal_grid run, held to the tolerance when the two compute the
 * same thing; gdal_grid's default invdist p=2 path uses approximate reciprocals, so its difference is only shown. */
static void
format_difference (char *text, size_t size, const our_result *ours, const gdal_result *gdal, gdal_run_kind run,
                   gdal_run_kind same_result, size_t queries)
{
  double difference = max_relative_difference (ours->values, gdal[run].values, queries);

  if (run == same_result)
    {
      snprintf (text, size, "%.2g", difference);
      if (difference > RELATIVE_TOLERANCE)
        results_disagree = true;
    }
  else if (run == GDAL_INVDIST_P2_AVX && same_result == GDAL_INVDIST_P2_EXACT)
    {
      snprintf (text, size, "%.2g*", difference);
    }
  else
    {
      snprintf (text, size, "-");
    }
}

static void
print_rows (FILE *table, int size_k, size_t queries, const our_result ours[VARIANT_COUNT], const gdal_result *gdal)
{
  char size[16];
  snprintf (size, sizeof size, "%dK", size_k);

  for (size_t v = 0; v < VARIANT_COUNT; v++)
    {
      const variant *var = &variants[v];
      if (!gdal)
        {
          fprintf (table, "%-20s %5s  %10.3g %10.3g  %-20s %10s %8s  %-12s %10s %10.2g\n", var->name, size,
                   ours[v].pairs_per_second, ours[v].float64_pairs_per_second, "(skipped)", "-", "-", "-", "-",
                   ours[v].float64_difference);
          continue;
        }

      const gdal_result *yardstick = &gdal[var->yardstick];
      double ratio = ours[v].pairs_per_second / yardstick->pairs_per_second;
      char goal[32], difference[32];
      snprintf (goal, sizeof goal, ">= %gx %s", var->goal, ratio >= var->goal ? "met" : "MISSED");
      format_difference (difference, sizeof difference, &ours[v], gdal, var->yardstick, var->same_result, queries);
      fprintf (table, "%-20s %5s  %10.3g %10.3g  %-20s %10.3g %7.2fx  %-12s %10s %10.2g\n", var->name, size,
               ours[v].pairs_per_second, ours[v].float64_pairs_per_second, gdal_runs[var->yardstick].label,
               yardstick->pairs_per_second, ratio, goal, difference, ours[v].float64_difference);

      if (var->same_result != GDAL_NONE && var->same_result != var->yardstick)
        {
          const gdal_result *same = &gdal[var->same_result];
          format_difference (difference, sizeof difference, &ours[v], gdal, var->same_result, var->same_result,
                             queries);
          fprintf (table, "%-20s %5s  %10s %10s  %-20s %10.3g %7.2fx  %-12s %10s %10s\n", "", "", "", "",
                   gdal_runs[var->same_result].label, same->pairs_per_second,
                   ours[v].pairs_per_second / same->pairs_per_second, "", difference, "");
        }
    }
}

static char *
make_work_directory (void)
{
  const char *tmp = getenv ("TMPDIR");
  char template[4096];

  snprintf (template, sizeof template, "%s/shepard-bench-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  char *directory = mkdtemp (template);
  return directory ? strdup (directory) : NULL;
}

int
main (int argc, char **argv)
{
  options opts;
  shepard_error error;

  if (argc > 1 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      usage (stdout);
      return 0;
    }
  if (!parse_options (argc, argv, &opts))
    return 2;
  bench_start ("shepard-bench-cpu");

  if (!opts.skip_gdal && !bench_gdal_available ())
    {
      fprintf (stderr, "shepard-bench-cpu: gdal_grid or ogr2ogr cannot be run (Debian package gdal-bin): "
                       "measuring the engine only\n");
      opts.skip_gdal = true;
    }
  char *directory = opts.skip_gdal ? NULL : make_work_directory ();
  if (!opts.skip_gdal && !directory)
    {
      fprintf (stderr, "shepard-bench-cpu: cannot make a temporary directory; set TMPDIR\n");
      return 2;
    }

  shepard_engine *fast = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, opts.threads, &error);
  if (!fast)
    fail_engine (&error);
  shepard_engine *reference = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, opts.threads,
                                                  &error);
  if (!reference)
    fail_engine (&error);

  char *table_text = NULL;
  size_t table_size = 0;
  FILE *table = open_memstream (&table_text, &table_size);
  if (!table)
    {
      fprintf (stderr, "shepard-bench-cpu: out of memory\n");
      return 2;
    }
  print_table_header (table);

  bool gdal_failed = false;
  for (int s = 0; s < opts.size_count; s++)
    {
      int size_k = opts.sizes_k[s];
      bench_points points;
      if (!bench_points_generate (&points, (size_t) size_k * 1024, 0x5e9a7d00ULL + (unsigned long long) size_k))
        {
          fprintf (stderr, "shepard-bench-cpu: out of memory for %dK points\n", size_k);
          return 2;
        }
      shepard_grid grid = bench_query_grid (&points);
      size_t queries = grid.width * grid.height;
      bench_say ("%dK: %zu data points, %zu x %zu query grid over their %.0f m square", size_k, points.n, grid.width,
                 grid.height, points.side);

      double start = bench_now ();
      if (shepard_engine_set_points (fast, points.x, points.y, points.z, points.n, &error) != SHEPARD_OK)
        fail_engine (&error);
      double set_points_seconds = bench_now () - start;
      if (shepard_engine_set_points (reference, points.x, points.y, points.z, points.n, &error) != SHEPARD_OK)
        fail_engine (&error);
      bench_say ("%dK: set_points (copy, local origin, even grid) %.3f s, not counted below", size_k,
                 set_points_seconds);

      our_result ours[VARIANT_COUNT] = { 0 };
      measure_ours (fast, reference, &points, &grid, size_k, ours);

      gdal_result gdal[GDAL_RUN_COUNT] = { 0 };
      bool have_gdal = false;
      if (!opts.skip_gdal && !gdal_failed)
        {
          double radius = nearest_radius (fast, &grid);
          have_gdal = measure_gdal (directory, &points, &grid, radius, opts.threads, size_k, gdal);
          gdal_failed = !have_gdal;
        }
      print_rows (table, size_k, queries, ours, have_gdal ? gdal : NULL);

      for (size_t v = 0; v < VARIANT_COUNT; v++)
        free (ours[v].values);
      for (int run = 0; run < GDAL_RUN_COUNT; run++)
        free (gdal[run].values);
      bench_points_free (&points);
    }
  fclose (table);

  printf ("shepard-bench-cpu: %d thread%s; float32: %s; float64: %s\n", opts.threads, opts.threads == 1 ? "" : "s",
          shepard_engine_describe (fast), shepard_engine_describe (reference));
  printf ("Pairs = query points x data points weighed (16 per query for \"16 nearest\"). Ours: the fastest of up to "
          "%d runs of interpolate_grid;\nfloat64 over a band of rows (at most %.3g pairs). gdal_grid: same grid, "
          "GDAL_NUM_THREADS=%d, its time less that of the same\nrun on a 1 x 1 grid (start-up, reading, search "
          "index, writing); runs shorter than %.1f s of that are timed again on finer grids over the same points.\n"
          "invdistnn radius: 1.01 x the largest 16th-neighbour distance.\n",
          MAX_REPEATS, FLOAT64_PAIR_BUDGET, opts.threads, MIN_GDAL_COMPUTE_SECONDS);
  printf ("Goals (issue 2): IDW p=2 all points >= 1x gdal_grid invdist p=2 (its default AVX path); IDW p=3 and AIDW "
          ">= 10x invdist p=3;\n16 nearest >= 5x invdistnn. Max diff: largest relative difference of our float32 grid; "
          "* = gdal_grid's approximate AVX path, shown only.\n\n");
  fputs (table_text, stdout);
  free (table_text);

  shepard_engine_free (fast);
  shepard_engine_free (reference);
  if (directory)
    {
      remove_directory (directory);
      free (directory);
    }

  if (gdal_failed)
    return 2;
  if (results_disagree)
    {
      printf ("\nRESULTS DISAGREE: a float32 grid is more than %g (relative) from float64 or from an exact gdal_grid "
              "run.\n", RELATIVE_TOLERANCE);
      return 1;
    }
  printf ("\nAll compared results agree within %g relative.\n", RELATIVE_TOLERANCE);
  return 0;
}
