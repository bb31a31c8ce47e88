/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU far-field sums (compute/far-field.h) beside the float64 brute force (shepard_all_points_sums) over the same
 * queries, and beside the engine's float32 SIMD brute force: global AIDW-like weighting, alpha varying smoothly between
 * 1 and 5 over the grid, tiles of 8 x 8 cells spread over threads. Issue 15's CPU goal: 100K points over a 1024^2 grid
 * in <= 2 s on 2 cores. The brute forces run on a subsample of rows, scaled to the whole grid; the float64 one gives
 * the error (max |z - z_exact| / value range). The nearest point of each cell comes first, for both.
 *
 * With --engine, the goal itself instead: shepard_engine_interpolate_grid with AIDW's defaults (summation auto, so
 * AIDW's kNN stage and the engine's tiles included), first call (the tree built), then later calls (with --repeat C,
 * the best of C: on a machine shared with other work) over grids moved by up to half a cell (the tree kept, the
 * kNN searched again: another grid of a session) and over the first grid again (the kNN kept too, nearest-cache.h: what
 * a change of alpha or the tolerance costs), beside the engine's own brute force (summation exact) over a few rows
 * scaled to the whole grid; the error against a float64 engine's exact sums over those rows.
 *
 * With --scaling, how the far field grows from 10K to 16M (16,777,216) points over the same --size grid (issue 15).
 *
 * Before the sums, AIDW's 15 nearest of every cell by one search of the far field's tree per tile (as the engine's far
 * field path searches them) beside one search of the even grid per cell, and how many cells' distances differ.
 *
 * Exit status 1 where a far-field value breaks its promise against the float64 brute force (or is NaN where the
 * reference is not) in any mode, or the two searches of the nearest disagree.
 *
 *   build/tests/bench/shepard-bench-far-field [--points N] [--size W] [--threads T] [--brute-rows R]
 *                                             [--engine [--repeat C]] [--scaling]
 */
#include "bench-data.h"
#include "bench-support.h"
#include "bench-time.h"
#include "cpu-kernels.h"
#include "cpu-weighting.h"
#include "even-grid.h"
#include "far-field.h"
#include "parallel.h"
#include "point-set.h"
#include "shepard-engine.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TILE_SIDE = 8 };

typedef struct {
  const shepard_point_set *points;
  const shepard_far_field *far_field;
  const shepard_even_grid *grid;
  size_t width, height;
  double x0, y0, step; /* local frame: cell (col, row) centre at x0 + col step, y0 - row step */
  double coincident_d2;
  double tolerance;
  double *nearest_d2, *exponent, *value; /* per cell; value NaN where the query is coincident (not compared) */
  const size_t *rows;                    /* the brute force's rows */
  shepard_far_field_work work[64];
} bench_job;

static double
cell_x (const bench_job *job, size_t col)
{
  return job->x0 + (double) col * job->step;
}

static double
cell_y (const bench_job *job, size_t row)
{
  return job->y0 - (double) row * job->step;
}

static bool
nearest_rows (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  bench_job *job = context;
  for (size_t row = begin; row < end; row++)
    for (size_t col = 0; col < job->width; col++)
      {
        double d2;
        size_t index;
        shepard_even_grid_nearest (job->grid, cell_x (job, col), cell_y (job, row), 1, &d2, &index);
        size_t cell = row * job->width + col;
        job->nearest_d2[cell] = d2;
        /* AIDW-like: alpha between 1 and 5, smooth over the grid */
        double u = (double) col / (double) job->width, v = (double) row / (double) job->height;
        job->exponent[cell] = -0.5 * (3.0 + 2.0 * sin (6.0 * u + 1.0) * cos (5.0 * v));
      }
  return true;
}

static bool
far_field_tiles (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) error;
  bench_job *job = context;
  size_t tiles_across = (job->width + TILE_SIDE - 1) / TILE_SIDE;
  for (size_t t = begin; t < end; t++)
    {
      size_t col0 = t % tiles_across * TILE_SIDE, row0 = t / tiles_across * TILE_SIDE;
      double x[TILE_SIDE * TILE_SIDE], y[TILE_SIDE * TILE_SIDE], d2[TILE_SIDE * TILE_SIDE],
          exponent[TILE_SIDE * TILE_SIDE], sum_w[TILE_SIDE * TILE_SIDE], sum_wz[TILE_SIDE * TILE_SIDE];
      size_t cell_of[TILE_SIDE * TILE_SIDE], count = 0;
      for (size_t row = row0; row < row0 + TILE_SIDE && row < job->height; row++)
        for (size_t col = col0; col < col0 + TILE_SIDE && col < job->width; col++)
          {
            size_t cell = row * job->width + col;
            job->value[cell] = NAN;
            if (job->nearest_d2[cell] <= job->coincident_d2)
              continue;
            x[count] = cell_x (job, col);
            y[count] = cell_y (job, row);
            d2[count] = job->nearest_d2[cell];
            exponent[count] = job->exponent[cell];
            cell_of[count++] = cell;
          }
      if (count == 0)
        continue;
      shepard_far_field_tile tile = { count, x, y, d2, exponent };
      shepard_far_field_sums (job->far_field, &tile, job->tolerance, 1, sum_w, sum_wz, &job->work[worker]);
      for (size_t q = 0; q < count; q++)
        job->value[cell_of[q]] = sum_wz[q] / sum_w[q];
    }
  return true;
}

typedef struct {
  bench_job *job;
  double *brute; /* brute-force rows * width */
} brute_job;

/* The engine's float32 SIMD brute force (cpu-kernels.h) over the same rows: the speed to beat. */
static bool
float32_rows (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  bench_job *job = context;
  const shepard_point_set *points = job->points;
  shepard_kernel_points kernel_points = {
    points->x_hi, points->x_lo, points->y_hi, points->y_lo, points->z32, NULL, points->n,
  };
  shepard_kernel_query *queries = bench_allocate (job->width, sizeof *queries, "try a smaller --size");
  double *sum_w = bench_allocate (job->width, sizeof (double), "try a smaller --size");
  double *sum_wz = bench_allocate (job->width, sizeof (double), "try a smaller --size");
  for (size_t r = begin; r < end; r++)
    {
      size_t row = job->rows[r];
      for (size_t col = 0; col < job->width; col++)
        {
          double x = cell_x (job, col), y = cell_y (job, row);
          queries[col] = (shepard_kernel_query) {
            (float) x, (float) (x - (double) (float) x), (float) y, (float) (y - (double) (float) y),
            (float) job->exponent[row * job->width + col], 0.0f, 0,
          };
          sum_w[col] = sum_wz[col] = 0.0;
        }
      shepard_cpu_kernels_select ()->weighted_sums (&kernel_points, queries, job->width, SHEPARD_WEIGHT_POWER, sum_w,
                                                    sum_wz);
    }
  free (queries);
  free (sum_w);
  free (sum_wz);
  return true;
}

static bool
brute_rows (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  brute_job *brute = context;
  bench_job *job = brute->job;
  for (size_t r = begin; r < end; r++)
    for (size_t col = 0; col < job->width; col++)
      {
        size_t row = job->rows[r], cell = row * job->width + col;
        double sum_w, sum_wz;
        if (job->nearest_d2[cell] <= job->coincident_d2)
          {
            brute->brute[r * job->width + col] = NAN;
            continue;
          }
        shepard_all_points_sums (job->points, NULL, 0, cell_x (job, col), cell_y (job, row), 0.0,
                                 job->nearest_d2[cell], job->exponent[cell], 1, &sum_w, &sum_wz);
        brute->brute[r * job->width + col] = sum_wz / sum_w;
      }
  return true;
}

static void
run_or_die (shepard_status status, const shepard_error *error, const char *what)
{
  if (status != SHEPARD_OK)
    {
      fprintf (stderr, "shepard-bench-far-field: %s: %s\n", what, error->message);
      exit (2);
    }
}

/* Seconds of CPU time of every thread of the process: on a machine shared with other work, the time this work took
 * whatever else ran, printed beside the wall-clock time. */
static double
cpu_seconds (void)
{
  struct timespec now;
  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &now);
  return (double) now.tv_sec + 1e-9 * (double) now.tv_nsec;
}

/* One interpolation of the bench's grid rows [row0, row0 + rows) through the engine, in seconds (wall clock; *cpu_s
 * gets the CPU time of all threads); the grid moved down and right by a share of a cell. */
static double
engine_rows_of (shepard_engine *engine, const shepard_params *params, const bench_points *data, size_t width,
                size_t row0, size_t rows, double moved_share, double *values, double *cpu_s)
{
  double step = data->side / (double) width, shift = moved_share * step;
  shepard_grid grid = {
    .x_min = shift, .y_max = data->side - (double) row0 * step - shift, .dx = step, .dy = step, .width = width,
    .height = rows,
  };
  shepard_outputs outputs = { .values = values };
  shepard_error error = { 0 };
  double start = bench_now (), cpu_start = cpu_seconds ();
  run_or_die (shepard_engine_interpolate_grid (engine, params, &grid, &outputs, NULL, NULL, &error), &error,
              "engine");
  *cpu_s = cpu_seconds () - cpu_start;
  return bench_now () - start;
}

static double
engine_rows (shepard_engine *engine, const shepard_params *params, const bench_points *data, size_t width,
             size_t row0, size_t rows, double *values, double *cpu_s)
{
  return engine_rows_of (engine, params, data, width, row0, rows, 0.0, values, cpu_s);
}

/* The span of the values: errors are in units of it. */
static double
value_range (const double *z, size_t n)
{
  double z_min = z[0], z_max = z[0];
  for (size_t i = 0; i < n; i++)
    {
      z_min = fmin (z_min, z[i]);
      z_max = fmax (z_max, z[i]);
    }
  return z_max - z_min;
}

/* worst raised by one cell's error against the float64 reference, in units of range: INFINITY where the value is NaN
 * and the reference is not (fmax would drop it); a NaN reference (a coincident cell, not compared) leaves it. */
static double
worse_error (double worst, double value, double exact, double range)
{
  if (isnan (exact))
    return worst;
  double error = fabs (value - exact) / range;
  if (isnan (error))
    return INFINITY;
  return error > worst ? error : worst;
}

/* Prints why and returns true where worst breaks the promise of tolerance. */
static bool
breaks_tolerance (double worst, double tolerance)
{
  if (worst <= tolerance)
    return false;
  printf ("DISAGREES: %.2e of the range beyond tolerance %.0e (inf: a NaN value)\n", worst, tolerance);
  return true;
}

/* A CPU engine of that precision over the bench's points. */
static shepard_engine *
bench_engine (const bench_points *data, shepard_precision precision, int threads)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, precision, threads, &error);
  if (!engine)
    run_or_die (SHEPARD_ERROR_OUT_OF_MEMORY, &error, "engine");
  run_or_die (shepard_engine_set_points (engine, data->x, data->y, data->z, data->n, &error), &error, "points");
  return engine;
}

/* Issue 15's CPU goal as a caller meets it: AIDW's defaults through the engine, far field (auto) beside exact; true
 * where a far-field value breaks its promise against a float64 engine's exact sums. */
static bool
engine_goal (const bench_points *data, size_t width, int threads, size_t brute_row_count, int repeat)
{
  shepard_error error = { 0 };
  shepard_engine *engine = bench_engine (data, SHEPARD_PRECISION_FLOAT32, threads);
  double *values = bench_allocate (width * width, sizeof (double), "try a smaller --size");
  double *exact = bench_allocate (brute_row_count * width, sizeof (double), "try fewer --brute-rows");
  double *reference = bench_allocate (brute_row_count * width, sizeof (double), "try fewer --brute-rows");
  shepard_params params;
  shepard_params_init_aidw (&params);
  printf ("%zu points, %zu x %zu grid, AIDW defaults through shepard_engine_interpolate_grid, %d thread(s), %s\n",
          data->n, width, width, threads, shepard_engine_describe (engine));

  params.summation = SHEPARD_SUMMATION_EXACT;
  double exact_s = 0.0, exact_cpu_s = 0.0;
  for (size_t r = 0; r < brute_row_count; r++)
    {
      double row_cpu_s;
      exact_s += engine_rows (engine, &params, data, width, (2 * r + 1) * width / (2 * brute_row_count), 1,
                              exact + r * width, &row_cpu_s);
      exact_cpu_s += row_cpu_s;
    }
  exact_s *= (double) width / (double) brute_row_count;
  exact_cpu_s *= (double) width / (double) brute_row_count;
  /* The reference: the same rows summed exactly in float64 (the far field sums in float64 whatever the engine's
   * precision, so that its promise holds against these). */
  shepard_engine *engine64 = bench_engine (data, SHEPARD_PRECISION_FLOAT64, threads);
  for (size_t r = 0; r < brute_row_count; r++)
    {
      double row_cpu_s;
      engine_rows (engine64, &params, data, width, (2 * r + 1) * width / (2 * brute_row_count), 1,
                   reference + r * width, &row_cpu_s);
    }
  shepard_engine_free (engine64);
  double range = value_range (data->z, data->n);
  bool disagrees = false;

  static const double tolerances[] = { 1e-3, 1e-6 };
  for (size_t t = 0; t < sizeof tolerances / sizeof *tolerances; t++)
    {
      params.summation = SHEPARD_SUMMATION_AUTO;
      params.tolerance = tolerances[t];
      const char *summation = shepard_engine_summation (engine, &params, width * width)
                                      == SHEPARD_SUMMATION_FAR_FIELD
                                  ? "far field"
                                  : "exact";
      /* the tree is built at the first call only */
      run_or_die (shepard_engine_set_points (engine, data->x, data->y, data->z, data->n, &error), &error, "points");
      double first_cpu_s, second_cpu_s = INFINITY, second_s = INFINITY, moved_cpu_s = INFINITY, moved_s = INFINITY;
      double first_s = engine_rows (engine, &params, data, width, 0, width, values, &first_cpu_s);
      for (int r = 0; r < repeat; r++)
        {
          /* each time another grid, which the engine has not kept */
          double cpu_s, wall_s = engine_rows_of (engine, &params, data, width, 0, width,
                                                 0.5 * (r + 1) / (double) repeat, values, &cpu_s);
          moved_s = fmin (moved_s, wall_s);
          moved_cpu_s = fmin (moved_cpu_s, cpu_s);
        }
      /* Untimed: the moved grids may have pushed the first out of the nearest cache, which keeps a grid from its
       * second time on. After these two the first grid's search is kept whatever --repeat was, and every timed call
       * below reads it. */
      for (int warm = 0; warm < 2; warm++)
        {
          double cpu_s;
          engine_rows (engine, &params, data, width, 0, width, values, &cpu_s);
        }
      for (int r = 0; r < repeat; r++)
        {
          double cpu_s, wall_s = engine_rows (engine, &params, data, width, 0, width, values, &cpu_s);
          second_s = fmin (second_s, wall_s);
          second_cpu_s = fmin (second_cpu_s, cpu_s);
        }
      double worst = 0.0;
      for (size_t r = 0; r < brute_row_count; r++)
        for (size_t col = 0; col < width; col++)
          {
            size_t row = (2 * r + 1) * width / (2 * brute_row_count);
            worst = worse_error (worst, values[row * width + col], reference[r * width + col], range);
          }
      printf ("tolerance %.0e (auto: %s): first call (tree built) %.3f s (cpu %.3f s), a moved grid (tree kept) "
              "%.3f s (cpu %.3f s), the first grid again (kNN kept too) %.3f s (cpu %.3f s%s); "
              "exact (float32 brute force, scaled from %zu rows) %.2f s (cpu %.2f s), %.1fx the moved grid's call; "
              "max |z - z_exact| / range %.2e over those rows (float64 exact)\n",
              tolerances[t], summation, first_s, first_cpu_s, moved_s, moved_cpu_s, second_s, second_cpu_s,
              repeat > 1 ? "; the best of the later calls" : "", brute_row_count, exact_s,
              exact_cpu_s, exact_s / moved_s, worst);
      disagrees = breaks_tolerance (worst, tolerances[t]) || disagrees;
    }
  free (values);
  free (exact);
  free (reference);
  shepard_engine_free (engine);
  return disagrees;
}

/* The local frame of the bench's width x width grid over the points' square. */
static void
set_grid_frame (bench_job *job, const bench_points *data, const shepard_point_set *points, size_t width)
{
  job->width = job->height = width;
  job->step = data->side / (double) width * points->scale;
  job->x0 = shepard_point_set_local (0.5 * data->side / (double) width, points->origin_x, points->scale);
  job->y0 = shepard_point_set_local (data->side - 0.5 * data->side / (double) width, points->origin_y, points->scale);
  job->coincident_d2 = shepard_point_set_coincident_d2_local (points);
}

/* --scaling: issue 15's "the time grows like n log n plus the grid, not like n x m". The same grid for every n; the
 * float32 brute force over about SCALING_BRUTE_PAIRS pairs of whole rows, scaled; the float64 reference over
 * SCALING_CHECKED_CELLS cells of the middle row, for the error. */
static const size_t scaling_counts[] = { 10000, 40000, 160000, 640000, 2560000, 10240000, 16777216 };
#define SCALING_BRUTE_PAIRS 2e9
enum { SCALING_CHECKED_CELLS = 16, SCALING_MAX_BRUTE_ROWS = 16 };

static bool
scaling (size_t width, int threads, double tolerance)
{
  bool disagrees = false;
  size_t cells = width * width, tiles_across = (width + TILE_SIDE - 1) / TILE_SIDE;
  size_t tiles = tiles_across * tiles_across;
  bench_job job = { 0 };
  job.tolerance = tolerance;
  job.nearest_d2 = bench_allocate (cells, sizeof (double), "try a smaller --size");
  job.exponent = bench_allocate (cells, sizeof (double), "try a smaller --size");
  job.value = bench_allocate (cells, sizeof (double), "try a smaller --size");
  size_t rows[SCALING_MAX_BRUTE_ROWS];
  job.rows = rows;

  printf ("far field against n at a fixed %zu x %zu grid (%zu queries), alpha 1..5 (AIDW-like), tolerance %.0e, "
          "%d thread(s), tiles of %d x %d, float64; uniform points (bench_points_generate, seed 42)\n",
          width, width, cells, tolerance, threads, TILE_SIDE, TILE_SIDE);
  printf ("  build: tree and moments (shepard_far_field_new), per n log2 n; sums: shepard_far_field_sums over every "
          "cell, per query and per query log2 n;\n  brute: the engine's float32 %s kernel over whole rows, scaled "
          "to the grid; error: max |z - z_exact| / range over %d cells (float64 reference)\n",
          shepard_cpu_kernels_select ()->isa_name, SCALING_CHECKED_CELLS);
  printf ("%10s | %8s %13s %9s %7s | %8s %8s %12s %6s %7s | %9s %5s %8s | %8s\n", "points", "build s",
          "ns/(n log2n)", "tree MB", "B/point", "sums s", "us/query", "ns/(q log2n)", "far/q", "pairs/q", "brute s",
          "rows", "brute/ff", "error");
  for (size_t c = 0; c < sizeof scaling_counts / sizeof *scaling_counts; c++)
    {
      size_t n = scaling_counts[c];
      double log2_n = log2 ((double) n);
      bench_points data;
      if (!bench_points_generate (&data, n, 42))
        {
          fprintf (stderr, "shepard-bench-far-field: out of memory for %zu points\n", n);
          exit (2);
        }
      shepard_error error = { 0 };
      shepard_point_set points;
      const double *fields[1] = { data.z };
      run_or_die (shepard_point_set_init (&points, data.x, data.y, fields, 1, n, &error), &error, "points");
      bench_say ("%zu points: building the tree", n);
      double start = bench_now ();
      shepard_far_field *far_field;
      run_or_die (shepard_far_field_new (&points, threads, NULL, NULL, &far_field, &error), &error, "far-field tree");
      double build_s = bench_now () - start;
      size_t tree_bytes = shepard_far_field_size (far_field);

      shepard_even_grid grid;
      run_or_die (shepard_even_grid_build (&grid, points.x, points.y, n, &error), &error, "even grid");
      job.points = &points;
      job.far_field = far_field;
      job.grid = &grid;
      set_grid_frame (&job, &data, &points, width);
      run_or_die (shepard_parallel_for (threads, width, 16, nearest_rows, &job, NULL, NULL, NULL, &error), &error,
                  "nearest");

      bench_say ("%zu points: far-field sums", n);
      memset (job.work, 0, sizeof job.work);
      start = bench_now ();
      run_or_die (shepard_parallel_for (threads, tiles, 16, far_field_tiles, &job, NULL, NULL, NULL, &error), &error,
                  "far field");
      double sums_s = bench_now () - start;
      shepard_far_field_work total = { 0 };
      for (int w = 0; w < threads; w++)
        {
          total.far_terms += job.work[w].far_terms;
          total.direct_pairs += job.work[w].direct_pairs;
        }

      bench_say ("%zu points: brute force", n);
      size_t brute_rows_used = (size_t) fmax (1.0, fmin (SCALING_MAX_BRUTE_ROWS,
                                                         SCALING_BRUTE_PAIRS / ((double) n * (double) width)));
      for (size_t r = 0; r < brute_rows_used; r++)
        rows[r] = (2 * r + 1) * width / (2 * brute_rows_used);
      start = bench_now ();
      run_or_die (shepard_parallel_for (threads, brute_rows_used, 1, float32_rows, &job, NULL, NULL, NULL, &error),
                  &error, "float32 brute force");
      double brute_s = (bench_now () - start) * (double) width / (double) brute_rows_used;

      double range = value_range (points.z, points.n), worst = 0.0;
      size_t row = width / 2;
      for (size_t k = 0; k < SCALING_CHECKED_CELLS; k++)
        {
          size_t col = (2 * k + 1) * width / (2 * SCALING_CHECKED_CELLS), cell = row * width + col;
          double sum_w, sum_wz;
          if (job.nearest_d2[cell] <= job.coincident_d2)
            continue; /* coincident: not summed (far_field_tiles) */
          shepard_all_points_sums (&points, NULL, 0, cell_x (&job, col), cell_y (&job, row), 0.0,
                                   job.nearest_d2[cell], job.exponent[cell], 1, &sum_w, &sum_wz);
          worst = worse_error (worst, job.value[cell], sum_wz / sum_w, range);
        }

      printf ("%10zu | %8.3f %13.1f %9.1f %7.1f | %8.3f %8.2f %12.1f %6.1f %7.1f | %9.1f %5zu %8.0f | %8.1e\n", n,
              build_s, build_s * 1e9 / ((double) n * log2_n), (double) tree_bytes / 1e6,
              (double) tree_bytes / (double) n, sums_s, sums_s * 1e6 / (double) cells,
              sums_s * 1e9 / ((double) cells * log2_n), (double) total.far_terms / (double) cells,
              (double) total.direct_pairs / (double) cells, brute_s, brute_rows_used, brute_s / sums_s, worst);
      disagrees = breaks_tolerance (worst, tolerance) || disagrees;
      fflush (stdout);
      shepard_even_grid_clear (&grid);
      shepard_far_field_free (far_field);
      shepard_point_set_clear (&points);
      bench_points_free (&data);
    }
  free (job.nearest_d2);
  free (job.exponent);
  free (job.value);
  return disagrees;
}

/* AIDW's k nearest of every cell, two ways: one search per tile of the far field's tree (shepard_far_field_nearest,
 * as the engine does with the far field) or one search per cell of the even grid (the engine's other path). With
 * check, every SEARCH_CHECK_EVERY-th tile is searched both ways and compared instead. */
enum { SEARCH_K = 15, SEARCH_CHECK_EVERY = 16 };

typedef struct {
  const bench_job *job;
  bool by_tile, check;
  size_t mismatches[64], compared[64]; /* cells, per worker */
} search_job;

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return x < y ? -1 : x > y;
}

static bool
search_tiles (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) error;
  search_job *search = context;
  const bench_job *job = search->job;
  size_t tiles_across = (job->width + TILE_SIDE - 1) / TILE_SIDE;
  double x[TILE_SIDE * TILE_SIDE], y[TILE_SIDE * TILE_SIDE], by_tile[TILE_SIDE * TILE_SIDE * SEARCH_K],
      by_cell[TILE_SIDE * TILE_SIDE * SEARCH_K];
  size_t index[SEARCH_K];
  for (size_t t = begin; t < end; t++)
    {
      if (search->check && t % SEARCH_CHECK_EVERY != 0)
        continue;
      size_t col0 = t % tiles_across * TILE_SIDE, row0 = t / tiles_across * TILE_SIDE, count = 0;
      for (size_t row = row0; row < row0 + TILE_SIDE && row < job->height; row++)
        for (size_t col = col0; col < col0 + TILE_SIDE && col < job->width; col++)
          {
            x[count] = cell_x (job, col);
            y[count++] = cell_y (job, row);
          }
      bool tiled = (search->by_tile || search->check)
                   && shepard_far_field_nearest (job->far_field, count, x, y, SEARCH_K, by_tile);
      if (search->by_tile && !search->check && tiled)
        continue;
      for (size_t q = 0; q < count; q++)
        shepard_even_grid_nearest (job->grid, x[q], y[q], SEARCH_K, by_cell + q * SEARCH_K, index);
      for (size_t q = 0; search->check && q < count; q++)
        {
          double *mine = by_tile + q * SEARCH_K, *theirs = by_cell + q * SEARCH_K;
          if (!tiled)
            continue; /* searched cell by cell, as the engine would */
          double first = mine[0]; /* the nearest comes first (far-field.h) */
          qsort (mine, SEARCH_K, sizeof *mine, compare_doubles);
          qsort (theirs, SEARCH_K, sizeof *theirs, compare_doubles);
          search->mismatches[worker] += first != mine[0] || memcmp (mine, theirs, sizeof by_tile[0] * SEARCH_K) != 0;
          search->compared[worker]++;
        }
    }
  return true;
}

/* Seconds for one way over the whole grid. */
static double
time_search (const bench_job *job, int threads, bool by_tile)
{
  search_job search = { .job = job, .by_tile = by_tile };
  size_t tiles = ((job->width + TILE_SIDE - 1) / TILE_SIDE) * ((job->height + TILE_SIDE - 1) / TILE_SIDE);
  shepard_error error = { 0 };
  double start = bench_now ();
  run_or_die (shepard_parallel_for (threads, tiles, 16, search_tiles, &search, NULL, NULL, NULL, &error), &error,
              "nearest search");
  return bench_now () - start;
}

/* Cells whose k nearest differ between the two ways (or whose nearest does not come first), over every
 * SEARCH_CHECK_EVERY-th tile that the tile search answered; *compared: how many cells those tiles hold. */
static size_t
search_mismatches (const bench_job *job, int threads, size_t *compared)
{
  search_job search = { .job = job, .check = true };
  size_t tiles = ((job->width + TILE_SIDE - 1) / TILE_SIDE) * ((job->height + TILE_SIDE - 1) / TILE_SIDE);
  shepard_error error = { 0 };
  run_or_die (shepard_parallel_for (threads, tiles, 16, search_tiles, &search, NULL, NULL, NULL, &error), &error,
              "nearest search");
  size_t total = 0;
  *compared = 0;
  for (int w = 0; w < threads; w++)
    {
      total += search.mismatches[w];
      *compared += search.compared[w];
    }
  return total;
}

int
main (int argc, char **argv)
{
  size_t n = 100000, width = 1024, brute_row_count = 4;
  int threads = 2, repeat = 1;
  bool engine = false, scaling_mode = false, disagrees = false;
  for (int a = 1; a < argc; a++)
    {
      bool valued = a + 1 < argc;
      if (!strcmp (argv[a], "--engine"))
        engine = true;
      else if (!strcmp (argv[a], "--scaling"))
        scaling_mode = true;
      else if (valued && !strcmp (argv[a], "--points"))
        n = strtoul (argv[++a], NULL, 10);
      else if (valued && !strcmp (argv[a], "--size"))
        width = strtoul (argv[++a], NULL, 10);
      else if (valued && !strcmp (argv[a], "--threads"))
        threads = atoi (argv[++a]);
      else if (valued && !strcmp (argv[a], "--brute-rows"))
        brute_row_count = strtoul (argv[++a], NULL, 10);
      else if (valued && !strcmp (argv[a], "--repeat"))
        repeat = atoi (argv[++a]);
      else
        {
          fprintf (stderr,
                   "usage: %s [--points N] [--size W] [--threads T] [--brute-rows R] [--engine [--repeat C]] "
                   "[--scaling]\n",
                   argv[0]);
          return 2;
        }
    }
  if (n < 1 || width < TILE_SIDE || threads < 1 || threads > 64 || brute_row_count < 1 || brute_row_count > width
      || repeat < 1)
    {
      fprintf (stderr, "shepard-bench-far-field: need --points >= 1, --size >= 8, 1 <= --threads <= 64, "
                       "1 <= --brute-rows <= --size and --repeat >= 1\n");
      return 2;
    }
  bench_start ("shepard-bench-far-field");
  if (scaling_mode)
    {
      return scaling (width, threads, SHEPARD_FAR_FIELD_TOLERANCE) ? 1 : 0;
    }
  bench_points data;
  if (!bench_points_generate (&data, n, 42))
    {
      fprintf (stderr, "shepard-bench-far-field: out of memory for %zu points\n", n);
      return 2;
    }
  if (engine)
    {
      bool broken = engine_goal (&data, width, threads, brute_row_count, repeat);
      bench_points_free (&data);
      return broken ? 1 : 0;
    }
  shepard_error error = { 0 };
  shepard_point_set points;
  const double *fields[1] = { data.z };
  run_or_die (shepard_point_set_init (&points, data.x, data.y, fields, 1, n, &error), &error, "points");

  double start = bench_now ();
  shepard_far_field *far_field;
  run_or_die (shepard_far_field_new (&points, threads, NULL, NULL, &far_field, &error), &error, "far-field tree");
  double build_s = bench_now () - start;

  shepard_even_grid grid;
  run_or_die (shepard_even_grid_build (&grid, points.x, points.y, n, &error), &error, "even grid");

  size_t cells = width * width;
  bench_job job = { .points = &points, .far_field = far_field, .grid = &grid };
  set_grid_frame (&job, &data, &points, width);
  job.nearest_d2 = bench_allocate (cells, sizeof (double), "try a smaller --size");
  job.exponent = bench_allocate (cells, sizeof (double), "try a smaller --size");
  job.value = bench_allocate (cells, sizeof (double), "try a smaller --size");
  size_t *rows = bench_allocate (brute_row_count, sizeof *rows, "try fewer --brute-rows");
  for (size_t r = 0; r < brute_row_count; r++)
    rows[r] = (2 * r + 1) * width / (2 * brute_row_count);
  job.rows = rows;

  start = bench_now ();
  run_or_die (shepard_parallel_for (threads, width, 16, nearest_rows, &job, NULL, NULL, NULL, &error), &error,
              "nearest");
  double nearest_s = bench_now () - start;
  double search_tile_s = time_search (&job, threads, true), search_cell_s = time_search (&job, threads, false);
  size_t search_compared, search_differ = search_mismatches (&job, threads, &search_compared);

  brute_job brute = { .job = &job };
  brute.brute = bench_allocate (brute_row_count * width, sizeof (double), "try fewer --brute-rows");
  start = bench_now ();
  run_or_die (shepard_parallel_for (threads, brute_row_count, 1, brute_rows, &brute, NULL, NULL, NULL, &error),
              &error, "brute force");
  double brute_s = (bench_now () - start) * (double) width / (double) brute_row_count;
  start = bench_now ();
  run_or_die (shepard_parallel_for (threads, brute_row_count, 1, float32_rows, &job, NULL, NULL, NULL, &error),
              &error, "float32 brute force");
  double float32_s = (bench_now () - start) * (double) width / (double) brute_row_count;

  double range = value_range (points.z, points.n);

  printf ("%zu points, %zu x %zu grid, alpha 1..5 (AIDW-like), %d thread(s), tiles of %d x %d, float64\n", n, width,
          width, threads, TILE_SIDE, TILE_SIDE);
  printf ("tree and moments: %.3f s, %.1f MB; nearest point per cell (both need it): %.3f s\n", build_s,
          (double) shepard_far_field_size (far_field) / 1e6, nearest_s);
  printf ("AIDW's %d nearest of every cell: %.3f s by one search of the tree per tile, %.3f s by one search of the "
          "even grid per cell; ",
          SEARCH_K, search_tile_s, search_cell_s);
  if (search_compared > 0)
    printf ("%zu of %zu cells compared differ (every %dth tile, where the tile search answered)\n", search_differ,
            search_compared, SEARCH_CHECK_EVERY);
  else /* dense points: more than SHEPARD_FAR_FIELD_NEAREST_MAX within a tile's reach, searched cell by cell */
    printf ("NOT COMPARED: the tile search declined every %dth tile (more than %d points within reach)\n",
            SEARCH_CHECK_EVERY, SHEPARD_FAR_FIELD_NEAREST_MAX);
  printf ("brute force, whole grid scaled from %zu rows: float64 (shepard_all_points_sums, the reference) %.2f s; "
          "the engine's float32 %s kernel %.2f s\n",
          brute_row_count, brute_s, shepard_cpu_kernels_select ()->isa_name, float32_s);
  static const double tolerances[] = { 1e-3, 1e-6, 1e-9 };
  size_t tiles = ((width + TILE_SIDE - 1) / TILE_SIDE) * ((width + TILE_SIDE - 1) / TILE_SIDE);
  for (size_t t = 0; t < sizeof tolerances / sizeof *tolerances; t++)
    {
      job.tolerance = tolerances[t];
      memset (job.work, 0, sizeof job.work);
      start = bench_now ();
      double cpu_start = cpu_seconds ();
      run_or_die (shepard_parallel_for (threads, tiles, 16, far_field_tiles, &job, NULL, NULL, NULL, &error), &error,
                  "far field");
      double far_s = bench_now () - start, far_cpu_s = cpu_seconds () - cpu_start;
      shepard_far_field_work total = { 0 };
      for (int w = 0; w < threads; w++)
        {
          total.far_terms += job.work[w].far_terms;
          total.direct_pairs += job.work[w].direct_pairs;
          total.moment_terms += job.work[w].moment_terms;
        }
      double worst = 0.0;
      for (size_t r = 0; r < brute_row_count; r++)
        for (size_t col = 0; col < width; col++)
          {
            worst = worse_error (worst, job.value[rows[r] * width + col], brute.brute[r * width + col], range);
          }
      printf ("tolerance %.0e: far field %.3f s (cpu %.3f s; %.1fx faster than float32 brute force, %.0fx than "
              "float64), max |z - z_exact| / range %.2e over the brute-force rows; per query %.1f far nodes (%.0f of "
              "their moments), %.1f direct pairs\n",
              tolerances[t], far_s, far_cpu_s, float32_s / far_s, brute_s / far_s, worst,
              (double) total.far_terms / (double) cells, (double) total.moment_terms / (double) cells,
              (double) total.direct_pairs / (double) cells);
      /* The promise, against float64 over the rows computed both ways. */
      disagrees = breaks_tolerance (worst, tolerances[t]) || disagrees;
    }

  free (brute.brute);
  free (rows);
  free (job.nearest_d2);
  free (job.exponent);
  free (job.value);
  shepard_even_grid_clear (&grid);
  shepard_far_field_free (far_field);
  shepard_point_set_clear (&points);
  bench_points_free (&data);
  if (search_differ > 0)
    {
      printf ("DISAGREES: the nearest of %zu of %zu cells compared differ between the two searches\n", search_differ,
              search_compared);
      disagrees = true;
    }
  return disagrees ? 1 : 0;
}
