/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-bench-multi-gpu: an engine on every GPU beside one on the first GPU (issues 16 and 17), in one run through
 * the engine (shepard_engine_interpolate_grid):
 * - global AIDW by brute force (summation exact) and through the far field (auto), 1M points over a 1024^2 grid;
 * - the work of a 16384^2 export: the grid in windows of 512 rows, as app/io/grid-export.c computes its bands (the
 *   writing, GDAL's, is left out), AIDW with summation auto.
 * Each line gives the best wall time of --repeat runs on one GPU and on all, their ratio, and whether every cell
 * (value and alpha) is equal bit for bit. Issue 16's goal on two GPUs: >= 1.9x, equal bit for bit. With --pair, the
 * "all GPUs" engine is two backends on GPU 0 (the multi-GPU path on a machine with one GPU: equal, and no faster).
 *
 * Exit status 1 where a result differs by a bit.
 *
 *   build/tests/bench/shepard-bench-multi-gpu [--points K] [--size W] [--export-size E] [--repeat N] [--pair]
 */
#include "bench-data.h"
#include "bench-support.h"
#include "bench-time.h"
#include "shepard-engine.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPORT_BAND_ROWS 512

typedef struct {
  int points_k, size, export_size, repeat;
  bool pair;
} options;

static shepard_engine *
engine_on (const shepard_gpu_set *gpus, const bench_points *points)
{
  shepard_error error = { SHEPARD_OK, "" };
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, gpus,
                                                       &error);
  if (!engine || shepard_engine_set_points (engine, points->x, points->y, points->z, points->n, &error) != SHEPARD_OK)
    {
      fprintf (stderr, "shepard-bench-multi-gpu: %s\n", error.message);
      exit (2);
    }
  return engine;
}

/* FNV-1a over the bytes: the export's planes are compared band by band through it, not kept whole. */
static uint64_t
hash_bytes (uint64_t hash, const void *data, size_t size)
{
  const unsigned char *bytes = data;
  for (size_t i = 0; i < size; i++)
    hash = (hash ^ bytes[i]) * 0x100000001b3ULL;
  return hash;
}

typedef struct {
  double seconds;
  uint64_t hash;
} timed_run;

/* The grid in windows of band_rows (all of it in one when band_rows is 0), best of repeat; the hash of every value and
 * alpha. */
static timed_run
run_grid (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid, size_t band_rows,
          int repeat)
{
  size_t rows = band_rows > 0 && band_rows < grid->height ? band_rows : grid->height;
  size_t cells = rows * grid->width;
  double *values = bench_allocate (cells, sizeof *values, "use a smaller --size or --export-size");
  double *alpha = bench_allocate (cells, sizeof *alpha, "use a smaller --size or --export-size");
  timed_run best = { INFINITY, 0 };
  /* The summation is the whole grid's, as grid-export.c resolves it, so that every band takes the same. */
  shepard_params resolved = *params;
  resolved.summation = shepard_engine_summation (engine, params, grid->width * grid->height);
  for (int r = 0; r < repeat; r++)
    {
      uint64_t hash = 0xcbf29ce484222325ULL;
      double start = bench_now ();
      for (size_t first = 0; first < grid->height; first += rows)
        {
          shepard_grid window = *grid;
          window.first_row = first;
          window.height = grid->height - first < rows ? grid->height - first : rows;
          shepard_outputs outputs = { values, alpha, NULL };
          shepard_error error = { SHEPARD_OK, "" };
          if (shepard_engine_interpolate_grid (engine, &resolved, &window, &outputs, NULL, NULL, &error) != SHEPARD_OK)
            {
              fprintf (stderr, "shepard-bench-multi-gpu: %s\n", error.message);
              exit (2);
            }
          size_t window_cells = window.width * window.height;
          hash = hash_bytes (hash_bytes (hash, values, window_cells * sizeof *values), alpha,
                             window_cells * sizeof *alpha);
        }
      double seconds = bench_now () - start;
      if (seconds < best.seconds)
        best.seconds = seconds;
      best.hash = hash;
    }
  free (values);
  free (alpha);
  return best;
}

static bool
compare (const char *what, shepard_engine *one, shepard_engine *every, const shepard_params *params,
         const shepard_grid *grid, size_t band_rows, int repeat)
{
  timed_run single = run_grid (one, params, grid, band_rows, repeat);
  timed_run all = run_grid (every, params, grid, band_rows, repeat);
  bool equal = single.hash == all.hash;
  printf ("%-44s %10.1f ms %10.1f ms %7.2fx   %s\n", what, 1e3 * single.seconds, 1e3 * all.seconds,
          single.seconds / all.seconds, equal ? "equal bit for bit" : "DIFFERENT");
  fflush (stdout);
  return equal;
}

int
main (int argc, char **argv)
{
  options o = { .points_k = 1024, .size = 1024, .export_size = 16384, .repeat = 3 };
  for (int a = 1; a < argc; a++)
    {
      bool valued = a + 1 < argc;
      if (!strcmp (argv[a], "--pair"))
        o.pair = true;
      else if (valued && !strcmp (argv[a], "--points"))
        o.points_k = atoi (argv[++a]);
      else if (valued && !strcmp (argv[a], "--size"))
        o.size = atoi (argv[++a]);
      else if (valued && !strcmp (argv[a], "--export-size"))
        o.export_size = atoi (argv[++a]);
      else if (valued && !strcmp (argv[a], "--repeat"))
        o.repeat = atoi (argv[++a]);
      else
        {
          fprintf (stderr, "usage: %s [--points K] [--size W] [--export-size E] [--repeat N] [--pair]\n", argv[0]);
          return 2;
        }
    }
  if (o.points_k < 1 || o.size < 1 || o.export_size < 0 || o.repeat < 1)
    {
      fprintf (stderr, "shepard-bench-multi-gpu: sizes and --repeat must be positive\n");
      return 2;
    }
  bench_start ("shepard-bench-multi-gpu");
  int count = shepard_gpu_count ();
  if (count < 1)
    {
      fprintf (stderr, "shepard-bench-multi-gpu: no CUDA device here\n");
      return 2;
    }
  bench_points points;
  if (!bench_points_generate (&points, (size_t) o.points_k * 1024, 2026))
    {
      fprintf (stderr, "shepard-bench-multi-gpu: out of memory for the points\n");
      return 2;
    }
  shepard_gpu_set first = { 1, { 0 } }, pair = { 2, { 0, 0 } };
  shepard_engine *one = engine_on (&first, &points), *every = engine_on (o.pair ? &pair : NULL, &points);
  printf ("%zu points; one GPU: %s; all: %s\n", points.n, shepard_engine_describe (one),
          shepard_engine_describe (every));
  printf ("%-44s %13s %13s %8s\n", "", "one GPU", "all", "ratio");

  shepard_grid grid = { .x_min = 0.0, .y_max = points.side, .dx = points.side / o.size, .dy = points.side / o.size,
                        .width = (size_t) o.size, .height = (size_t) o.size };
  shepard_params aidw;
  shepard_params_init_aidw (&aidw);
  bool equal = true;
  char what[96];
  aidw.summation = SHEPARD_SUMMATION_EXACT;
  snprintf (what, sizeof what, "AIDW brute force, %d^2", o.size);
  equal = compare (what, one, every, &aidw, &grid, 0, o.repeat) && equal;
  aidw.summation = SHEPARD_SUMMATION_AUTO;
  /* The tree is built (and copied to every GPU) before the timings, as a window's layer load does. */
  shepard_error error = { SHEPARD_OK, "" };
  if (shepard_engine_prepare_far_field (one, &error) != SHEPARD_OK
      || shepard_engine_prepare_far_field (every, &error) != SHEPARD_OK)
    {
      fprintf (stderr, "shepard-bench-multi-gpu: %s\n", error.message);
      return 2;
    }
  snprintf (what, sizeof what, "AIDW auto (far field), %d^2", o.size);
  equal = compare (what, one, every, &aidw, &grid, 0, o.repeat) && equal;
  if (o.export_size > 0)
    {
      shepard_grid export_grid = grid;
      export_grid.dx = export_grid.dy = points.side / o.export_size;
      export_grid.width = export_grid.height = (size_t) o.export_size;
      snprintf (what, sizeof what, "export's work, AIDW auto, %d^2 in %d-row bands", o.export_size, EXPORT_BAND_ROWS);
      equal = compare (what, one, every, &aidw, &export_grid, EXPORT_BAND_ROWS, o.repeat > 1 ? 2 : 1) && equal;
    }
  shepard_engine_free (one);
  shepard_engine_free (every);
  bench_points_free (&points);
  return equal ? 0 : 1;
}
