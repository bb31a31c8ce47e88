/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-bench-optimise: the optimiser (app/analysis) on random points with local AIDW (k 15 over the 15 nearest),
 * minimising the leave-one-out RMSE, on the CPU and, when a GPU is present, on CUDA: the time, the evaluations and
 * the RMSE before and after side by side, with the goal (at most 2 s on the GPU for 10K points). GLib, the
 * engine and NLopt only, so that it runs on the GPU machine. Run by hand, never by meson test. */
#include "bench-data.h"
#include "bench-support.h"
#include "bench-time.h"
#include "shepard-engine.h"
#include "shepard-optimiser.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_POINTS 10000
#define DEFAULT_REPEAT 3
#define LOCAL_K 15
#define LOCAL_NEIGHBORS 15
#define GOAL_SECONDS 2.0
#define DATA_SEED 20261124ULL

typedef struct {
  size_t points;
  int repeat;
  int threads;
  unsigned evaluations; /* 0: the optimiser's default */
  bool skip_cpu;
} options;

typedef struct {
  bool measured;
  char description[256];
  double seconds;           /* the fastest run */
  double cv_seconds;        /* one cross-validation of the start, the fastest */
  ShepardOptimiseResult result;
} row;

static void
usage (FILE *stream)
{
  fprintf (stream,
           "Usage: shepard-bench-optimise [--points N] [--repeat R] [--evaluations B] [--threads T] [--skip-cpu]\n"
           "  --points N        random data points (default %d)\n"
           "  --repeat R        optimisations per backend; the fastest counts (default %d)\n"
           "  --evaluations B   the optimiser's budget of cross-validations (default %d)\n"
           "  --threads T       CPU threads (default: every core)\n"
           "  --skip-cpu        only CUDA\n",
           DEFAULT_POINTS, DEFAULT_REPEAT, SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS);
}

static bool
parse_count (const char *text, long max, long *value)
{
  char *end = NULL;
  long parsed = strtol (text, &end, 10);

  if (end == text || *end != '\0' || parsed < 1 || parsed > max)
    return false;
  *value = parsed;
  return true;
}

static bool
parse_options (int argc, char **argv, options *opts)
{
  *opts = (options) { .points = DEFAULT_POINTS, .repeat = DEFAULT_REPEAT };
  for (int i = 1; i < argc; i++)
    {
      long value = 0;
      bool has_value = i + 1 < argc;
      if (strcmp (argv[i], "--skip-cpu") == 0)
        opts->skip_cpu = true;
      else if (strcmp (argv[i], "--points") == 0 && has_value && parse_count (argv[++i], 100000000, &value))
        opts->points = (size_t) value;
      else if (strcmp (argv[i], "--repeat") == 0 && has_value && parse_count (argv[++i], 100, &value))
        opts->repeat = (int) value;
      else if (strcmp (argv[i], "--evaluations") == 0 && has_value && parse_count (argv[++i], 100000, &value))
        opts->evaluations = (unsigned) value;
      else if (strcmp (argv[i], "--threads") == 0 && has_value && parse_count (argv[++i], 4096, &value))
        opts->threads = (int) value;
      else
        {
          usage (stderr);
          return false;
        }
    }
  return true;
}

static void
fail_engine (const char *what, const shepard_error *error)
{
  fprintf (stderr, "shepard-bench-optimise: %s failed: %s\n", what, error->message);
  exit (1);
}

static bool
measure (shepard_backend backend, const options *opts, const bench_points *points, row *out)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (backend, SHEPARD_PRECISION_FLOAT32, opts->threads, &error);

  if (!engine)
    {
      if (error.code == SHEPARD_ERROR_NO_DEVICE)
        {
          bench_say ("no CUDA device: %s", error.message);
          return false;
        }
      fail_engine ("shepard_engine_new", &error);
    }
  if (shepard_engine_set_points (engine, points->x, points->y, points->z, points->n, &error) != SHEPARD_OK)
    fail_engine ("shepard_engine_set_points", &error);
  snprintf (out->description, sizeof out->description, "%s", shepard_engine_describe (engine));
  bench_say ("%s", out->description);

  shepard_params start;
  shepard_params_init_aidw (&start);
  start.k = LOCAL_K;
  start.neighbors = LOCAL_NEIGHBORS;
  ShepardOptimiseOptions optimise_options;
  shepard_optimise_options_init (&optimise_options);
  optimise_options.max_evaluations = opts->evaluations;

  /* The first cross-validation also sets up what the engine keeps between calls: leave it out of the timings. */
  out->cv_seconds = 1e300;
  for (int run = 0; run <= opts->repeat; run++)
    {
      shepard_cv_summary summary;
      double started = bench_now ();
      if (shepard_engine_cross_validate (engine, &start, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0, NULL, &summary, NULL, NULL,
                                         &error)
          != SHEPARD_OK)
        fail_engine ("shepard_engine_cross_validate", &error);
      if (run > 0 && bench_now () - started < out->cv_seconds)
        out->cv_seconds = bench_now () - started;
    }

  out->seconds = 1e300;
  for (int run = 0; run < opts->repeat; run++)
    {
      ShepardOptimiseResult result;
      g_autoptr (GError) optimise_error = NULL;
      double started = bench_now ();
      if (!shepard_optimise (engine, &start, &optimise_options, &result, NULL, NULL, &optimise_error))
        {
          fprintf (stderr, "shepard-bench-optimise: the optimiser failed: %s\n", optimise_error->message);
          exit (1);
        }
      double seconds = bench_now () - started;
      bench_say ("run %d: %.3f s, %u evaluations, RMSE %.6g -> %.6g", run + 1, seconds, result.evaluations,
                 result.start_score, result.best_score);
      if (seconds < out->seconds)
        {
          out->seconds = seconds;
          out->result = result;
        }
    }
  out->measured = true;
  shepard_engine_free (engine);
  return true;
}

static void
print_row (const row *r)
{
  const ShepardOptimiseResult *result = &r->result;

  printf ("%-52.52s %7.3f s %6u %8.2f ms %8.2f ms %11.6g %11.6g %6.2f %%\n", r->description, r->seconds,
          result->evaluations, 1e3 * r->seconds / result->evaluations, 1e3 * r->cv_seconds, result->start_score,
          result->best_score, 100.0 * (result->start_score - result->best_score) / result->start_score);
}

static void
print_best (const char *name, const row *r)
{
  const shepard_params *best = &r->result.best;

  printf ("%s best: k %d, alpha %.4g %.4g %.4g %.4g %.4g, Rmin %.4g, Rmax %.4g\n", name, best->k, best->alpha[0],
          best->alpha[1], best->alpha[2], best->alpha[3], best->alpha[4], best->r_min, best->r_max);
}

int
main (int argc, char **argv)
{
  options opts;
  bench_points points;
  row cpu = { 0 }, gpu = { 0 };

  if (argc > 1 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      usage (stdout);
      return 0;
    }
  if (!parse_options (argc, argv, &opts))
    return 2;
  bench_start ("shepard-bench-optimise");
  if (!bench_points_generate (&points, opts.points, DATA_SEED))
    {
      fprintf (stderr, "shepard-bench-optimise: out of memory for %zu points\n", opts.points);
      return 2;
    }

  if (!opts.skip_cpu)
    measure (SHEPARD_BACKEND_CPU, &opts, &points, &cpu);
  measure (SHEPARD_BACKEND_CUDA, &opts, &points, &gpu);

  printf ("\nOptimiser: %zu random points, AIDW k %d over the %d nearest, leave-one-out RMSE, budget %u "
          "cross-validations; fastest of %d runs\n\n",
          opts.points, LOCAL_K, LOCAL_NEIGHBORS,
          opts.evaluations > 0 ? opts.evaluations : SHEPARD_OPTIMISE_DEFAULT_EVALUATIONS, opts.repeat);
  printf ("%-52s %9s %6s %11s %11s %11s %11s %8s\n", "backend", "time", "evals", "per eval", "one CV", "start RMSE",
          "best RMSE", "better");
  if (cpu.measured)
    print_row (&cpu);
  if (gpu.measured)
    print_row (&gpu);
  printf ("\n");
  if (cpu.measured)
    print_best ("CPU", &cpu);
  if (gpu.measured)
    print_best ("CUDA", &gpu);
  if (gpu.measured)
    printf ("\nGoal: the optimiser on %zu points in <= %.0f s on the GPU: %s (%.3f s)\n", opts.points, GOAL_SECONDS,
            gpu.seconds <= GOAL_SECONDS ? "met" : "MISSED", gpu.seconds);
  else
    printf ("\nGoal: the optimiser on %zu points in <= %.0f s on the GPU: not measured (no CUDA device)\n",
            opts.points, GOAL_SECONDS);
  bench_points_free (&points);
  return 0;
}
