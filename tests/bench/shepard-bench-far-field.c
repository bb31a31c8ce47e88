/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU far-field sums (compute/far-field.h) beside the float64 brute force (shepard_all_points_sums) over the same
 * queries, and beside the engine's float32 SIMD brute force: global AIDW-like weighting, alpha varying smoothly between
 * 1 and 5 over the grid, tiles of 8 x 8 cells spread over threads. Issue 15's CPU goal: 100K points over a 1024^2 grid
 * in <= 2 s on 2 cores. The brute forces run on a subsample of rows, scaled to the whole grid; the float64 one gives
 * the error (max |z - z_exact| / value range). The nearest point of each cell comes first, for both.
 *
 *   build/tests/bench/shepard-bench-far-field [--points N] [--size W] [--threads T] [--brute-rows R]
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

int
main (int argc, char **argv)
{
  size_t n = 100000, width = 1024, brute_row_count = 4;
  int threads = 2;
  for (int a = 1; a + 1 < argc; a += 2)
    {
      if (!strcmp (argv[a], "--points"))
        n = strtoul (argv[a + 1], NULL, 10);
      else if (!strcmp (argv[a], "--size"))
        width = strtoul (argv[a + 1], NULL, 10);
      else if (!strcmp (argv[a], "--threads"))
        threads = atoi (argv[a + 1]);
      else if (!strcmp (argv[a], "--brute-rows"))
        brute_row_count = strtoul (argv[a + 1], NULL, 10);
      else
        {
          fprintf (stderr, "usage: %s [--points N] [--size W] [--threads T] [--brute-rows R]\n", argv[0]);
          return 2;
        }
    }
  if (n < 1 || width < TILE_SIDE || threads < 1 || threads > 64 || brute_row_count < 1 || brute_row_count > width)
    {
      fprintf (stderr, "shepard-bench-far-field: need --points >= 1, --size >= 8, 1 <= --threads <= 64 and "
                       "1 <= --brute-rows <= --size\n");
      return 2;
    }
  bench_start ("shepard-bench-far-field");
  bench_points data;
  if (!bench_points_generate (&data, n, 42))
    {
      fprintf (stderr, "shepard-bench-far-field: out of memory for %zu points\n", n);
      return 2;
    }
  shepard_error error = { 0 };
  shepard_point_set points;
  const double *fields[1] = { data.z };
  run_or_die (shepard_point_set_init (&points, data.x, data.y, fields, 1, n, &error), &error, "points");

  double start = bench_now ();
  shepard_far_field *far_field;
  run_or_die (shepard_far_field_new (&points, &far_field, &error), &error, "far-field tree");
  double build_s = bench_now () - start;

  shepard_even_grid grid;
  run_or_die (shepard_even_grid_build (&grid, points.x, points.y, n, &error), &error, "even grid");

  size_t cells = width * width;
  bench_job job = { .points = &points, .far_field = far_field, .grid = &grid, .width = width, .height = width };
  job.step = data.side / (double) width * points.scale;
  job.x0 = shepard_point_set_local (0.5 * data.side / (double) width, points.origin_x, points.scale);
  job.y0 = shepard_point_set_local (data.side - 0.5 * data.side / (double) width, points.origin_y, points.scale);
  job.coincident_d2 = shepard_point_set_coincident_d2_local (&points);
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

  double z_min = points.z[0], z_max = points.z[0];
  for (size_t i = 0; i < n; i++)
    {
      z_min = fmin (z_min, points.z[i]);
      z_max = fmax (z_max, points.z[i]);
    }

  printf ("%zu points, %zu x %zu grid, alpha 1..5 (AIDW-like), %d thread(s), tiles of %d x %d, float64\n", n, width,
          width, threads, TILE_SIDE, TILE_SIDE);
  printf ("tree and moments: %.3f s, %.1f MB; nearest point per cell (both need it): %.3f s\n", build_s,
          (double) shepard_far_field_size (far_field) / 1e6, nearest_s);
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
      run_or_die (shepard_parallel_for (threads, tiles, 16, far_field_tiles, &job, NULL, NULL, NULL, &error), &error,
                  "far field");
      double far_s = bench_now () - start;
      shepard_far_field_work total = { 0 };
      for (int w = 0; w < threads; w++)
        {
          total.far_terms += job.work[w].far_terms;
          total.direct_pairs += job.work[w].direct_pairs;
        }
      double worst = 0.0;
      for (size_t r = 0; r < brute_row_count; r++)
        for (size_t col = 0; col < width; col++)
          {
            double exact = brute.brute[r * width + col], got = job.value[rows[r] * width + col];
            if (!isnan (exact))
              worst = fmax (worst, fabs (got - exact) / (z_max - z_min));
          }
      printf ("tolerance %.0e: far field %.3f s (%.1fx faster than float32 brute force, %.0fx than float64), "
              "max |z - z_exact| / range %.2e over the brute-force rows; per query %.1f far nodes, %.1f direct pairs\n",
              tolerances[t], far_s, float32_s / far_s, brute_s / far_s, worst,
              (double) total.far_terms / (double) cells, (double) total.direct_pairs / (double) cells);
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
  return 0;
}
