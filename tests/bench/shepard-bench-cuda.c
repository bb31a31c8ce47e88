/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-bench-cuda: the CUDA backend on the papers' experiments (Mei 2014; Mei, Xu & Xu 2016, Tables 1-3): for each
 * size, the kNN and weighting stage times of every kernel variant, the end-to-end time, pairs per second and the
 * speedups over the CPU paths, with issue 3's goals beside them; every timed result is checked against float64.
 * Run by hand, never by meson test. */
#include "bench-data.h"
#include "bench-support.h"
#include "bench-time.h"
#include "cuda-backend.h"
#include "point-set.h"
#include "shepard-engine.h"
#if SHEPARD_HAVE_CDP_BENCH
#include "cdp-idw.h"
#endif

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RELATIVE_TOLERANCE 1e-5
#define SAMPLE_CELLS 256
#define MAX_SIZES 16
#define DEFAULT_REPEAT 5
#define LOCAL_NEIGHBORS 15
#define LOCAL_SIZE_K 1024 /* local AIDW: a 1024 x 1024 grid over 1024K points */
/* The CPU paths are measured up to this size and extrapolated as O(n m) beyond; the slow GPU variants (brute-force
 * kNN, dynamic parallelism) are estimated so beyond it, and wherever their runs would take longer than this. */
#define MEASURED_MAX_K 100
#define SLOW_VARIANT_MAX_SECONDS 20.0
/* A band of rows of about this many pairs (queries for local AIDW) keeps each CPU run near a few tenths of a second. */
#define SERIAL_PAIR_BUDGET 2e7
#define PARALLEL_PAIR_BUDGET 2e9
#define SERIAL_LOCAL_QUERY_BUDGET 65536.0
#define PARALLEL_LOCAL_QUERY_BUDGET 1048576.0
#define CPU_RUNS 3

#define GOAL_AIDW_PAIRS_PER_SECOND 2.2e12
#define GOAL_IDW_PAIRS_PER_SECOND 3.5e12
#define GOAL_KNN_MS 2.0
#define GOAL_LOCAL_MS 3.0
#define GOAL_SIZE_K 1024

typedef enum {
  METHOD_IDW,
  METHOD_AIDW,
  METHOD_LOCAL_AIDW,
  METHOD_COUNT,
} method_id;

static const char *const method_names[METHOD_COUNT] = {
  [METHOD_IDW] = "IDW p=2, all",
  [METHOD_AIDW] = "AIDW, all",
  [METHOD_LOCAL_AIDW] = "AIDW, 15 nearest",
};

typedef struct {
  const char *name;
  shepard_cuda_variant variant;
} gpu_variant;

static const gpu_variant weighting_variants[] = {
  { "tiled AoaS", { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_GRID } },
  { "tiled SoA", { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_SOA, SHEPARD_CUDA_KNN_GRID } },
  { "naive AoaS", { SHEPARD_CUDA_WEIGHTING_NAIVE, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_GRID } },
  { "naive SoA", { SHEPARD_CUDA_WEIGHTING_NAIVE, SHEPARD_CUDA_LAYOUT_SOA, SHEPARD_CUDA_KNN_GRID } },
};
#define WEIGHTING_VARIANT_COUNT (sizeof weighting_variants / sizeof *weighting_variants)

static const gpu_variant brute_variant = {
  "brute kNN, tiled AoaS", { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_BRUTE },
};

typedef enum {
  CPU_NONE,
  CPU_MEASURED,     /* on a band of rows of this grid, scaled to all rows */
  CPU_EXTRAPOLATED, /* pairs per second of a smaller size, scaled as O(n m) */
} cpu_basis;

static const char *const cpu_basis_names[] = {
  [CPU_NONE] = "",
  [CPU_MEASURED] = "measured",
  [CPU_EXTRAPOLATED] = "extrapolated",
};

/* One line of the table. Times in milliseconds; NAN where not measured. */
typedef struct {
  method_id method;
  int size_k;
  size_t n_points, n_queries;
  const char *variant;
  double knn_ms;
  double weighting_ms;
  bool estimated; /* the time shown was estimated, not measured */
  double end_to_end_ms;
  double pairs_per_second;
  double cpu_serial_ms, cpu_parallel_ms;
  cpu_basis cpu;
  double max_difference;
  char note[96];
} result_row;

/* The CPU paths' pairs per second at the largest size measured so far, per method. */
typedef struct {
  int size_k;
  double serial, parallel;
} cpu_rate;

/* The largest measured run of a slow variant, from which larger sizes are estimated. */
typedef struct {
  int size_k;
  double pairs;
  double ms;
} slow_record;

typedef struct {
  int sizes_k[MAX_SIZES];
  int size_count;
  int repeat;
  const char *csv_path;
  bool skip_local;
  bool skip_cdp;
} options;

typedef struct {
  options opts;
  shepard_cuda_backend *gpu;
  shepard_engine *serial;    /* float64, 1 thread */
  shepard_engine *parallel;  /* float32, every core */
  shepard_engine *reference; /* float64, every core: the sampled cells */
  cpu_rate cpu_rates[METHOD_COUNT];
  slow_record brute, cdp;
  result_row *rows;
  size_t row_count, row_capacity;
  bool disagree;
} bench;


static void
usage (FILE *stream)
{
  fprintf (stream,
           "Usage: shepard-bench-cuda [--sizes 10,50,100,500,1000,1024] [--repeat N] [--csv FILE] [--skip-local]\n"
           "                          [--skip-cdp]\n"
           "  --sizes       data = query point counts in K (1K = 1024), comma-separated\n"
           "  --repeat      timed runs per variant after one warm-up; the median counts (default %d)\n"
           "  --csv         also write the table to FILE as CSV\n"
           "  --skip-local  leave out local AIDW (15 nearest) on a 1024 x 1024 grid over 1024K points\n"
           "  --skip-cdp    leave out the dynamic-parallelism variant (compute-sanitizer cannot follow it)\n",
           DEFAULT_REPEAT);
}

static void
fail_engine (const char *what, const shepard_error *error)
{
  fprintf (stderr, "shepard-bench-cuda: %s failed (%s): %s\n", what, shepard_status_name (error->code),
           error->message);
  exit (2);
}

static bool
parse_options (int argc, char **argv, options *opts)
{
  /* 10K to 1000K as the papers' tables (1K = 1024), and 1024K: a 1024 x 1024 grid over 1048576 points, the 1M x 1M of
   * docs/METHOD.md's reference figure (1M x 1M in 0.59 s at 1.85e12 pairs/s), at which the goals are read. */
  *opts = (options) { .sizes_k = { 10, 50, 100, 500, 1000, GOAL_SIZE_K }, .size_count = 6, .repeat = DEFAULT_REPEAT };

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--sizes") == 0 && i + 1 < argc)
        {
          if (!bench_parse_sizes (argv[++i], 4096, opts->sizes_k, MAX_SIZES, &opts->size_count))
            {
              fprintf (stderr, "shepard-bench-cuda: --sizes takes sizes in K separated by commas, e.g. 10,50,100\n");
              return false;
            }
        }
      else if (strcmp (argv[i], "--repeat") == 0 && i + 1 < argc)
        {
          char *end;
          long repeat = strtol (argv[++i], &end, 10);
          if (*end != '\0' || repeat < 1 || repeat > 1000)
            {
              fprintf (stderr, "shepard-bench-cuda: --repeat takes a number of runs from 1 to 1000\n");
              return false;
            }
          opts->repeat = (int) repeat;
        }
      else if (strcmp (argv[i], "--csv") == 0 && i + 1 < argc)
        {
          opts->csv_path = argv[++i];
        }
      else if (strcmp (argv[i], "--skip-local") == 0)
        {
          opts->skip_local = true;
        }
      else if (strcmp (argv[i], "--skip-cdp") == 0)
        {
          opts->skip_cdp = true;
        }
      else
        {
          fprintf (stderr, "shepard-bench-cuda: unknown argument %s\n", argv[i]);
          usage (stderr);
          return false;
        }
    }
  return true;
}

static result_row *
add_row (bench *b, method_id method, int size_k, size_t n_points, size_t n_queries, const char *variant)
{
  if (b->row_count == b->row_capacity)
    {
      size_t capacity = b->row_capacity ? 2 * b->row_capacity : 64;
      result_row *rows = realloc (b->rows, capacity * sizeof *rows);
      if (!rows)
        {
          fprintf (stderr, "shepard-bench-cuda: out of memory for the table\n");
          exit (2);
        }
      b->rows = rows;
      b->row_capacity = capacity;
    }
  result_row *row = &b->rows[b->row_count++];
  *row = (result_row) {
    .method = method,
    .size_k = size_k,
    .n_points = n_points,
    .n_queries = n_queries,
    .variant = variant,
    .knn_ms = NAN,
    .weighting_ms = NAN,
    .end_to_end_ms = NAN,
    .pairs_per_second = NAN,
    .cpu_serial_ms = NAN,
    .cpu_parallel_ms = NAN,
    .max_difference = NAN,
  };
  return row;
}

static void
method_params (method_id method, shepard_params *params)
{
  if (method == METHOD_IDW)
    {
      shepard_params_init_idw (params);
      params->power = 2.0;
    }
  else
    {
      shepard_params_init_aidw (params);
    }
  params->neighbors = method == METHOD_LOCAL_AIDW ? LOCAL_NEIGHBORS : SHEPARD_NEIGHBORS_ALL;
  /* Pairs per second of the brute force on both sides: the far field has its own benchmark. */
  params->summation = SHEPARD_SUMMATION_EXACT;
}

static double
pairs_per_query (method_id method, size_t n_points)
{
  return method == METHOD_LOCAL_AIDW ? (double) LOCAL_NEIGHBORS : (double) n_points;
}

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/* Cells whose GPU values are checked against float64, and the float64 values of each method there. */
typedef struct {
  size_t count;
  size_t *cells;
  double *x, *y;
  double *reference[METHOD_COUNT];
} sample;

static void
sample_init (sample *s, const shepard_grid *grid, unsigned long long seed)
{
  size_t cells = grid->width * grid->height;
  uint64_t state = seed;

  *s = (sample) { .count = cells < SAMPLE_CELLS ? cells : SAMPLE_CELLS };
  s->cells = bench_allocate (s->count, sizeof *s->cells, "try smaller --sizes");
  s->x = bench_allocate (s->count, sizeof *s->x, "try smaller --sizes");
  s->y = bench_allocate (s->count, sizeof *s->y, "try smaller --sizes");
  for (size_t i = 0; i < s->count; i++)
    {
      size_t cell = s->count == cells ? i : (size_t) (splitmix64 (&state) % cells);
      s->cells[i] = cell;
      s->x[i] = grid->x_min + ((double) (cell % grid->width) + 0.5) * grid->dx;
      s->y[i] = grid->y_max - ((double) (cell / grid->width) + 0.5) * grid->dy;
    }
}

static void
sample_clear (sample *s)
{
  free (s->cells);
  free (s->x);
  free (s->y);
  for (int m = 0; m < METHOD_COUNT; m++)
    free (s->reference[m]);
}

static const double *
sample_reference (bench *b, sample *s, method_id method)
{
  if (!s->reference[method])
    {
      shepard_params params;
      shepard_error error;
      method_params (method, &params);
      s->reference[method] = bench_allocate (s->count, sizeof (double), "try smaller --sizes");
      shepard_outputs outputs = { .values = s->reference[method] };
      if (shepard_engine_interpolate_points (b->reference, &params, s->x, s->y, s->count, &outputs, NULL, NULL,
                                             &error) != SHEPARD_OK)
        fail_engine ("the float64 reference", &error);
    }
  return s->reference[method];
}

/* Largest relative difference from float64 over the sample; +inf when any value of the grid is not finite (the
 * output is poisoned with NaN before each run, so this also finds cells that were never written). */
static double
max_relative_difference (const double *values, size_t count, const sample *s, const double *reference)
{
  for (size_t i = 0; i < count; i++)
    if (!isfinite (values[i]))
      return INFINITY;
  double largest = 0.0;
  for (size_t i = 0; i < s->count; i++)
    {
      double difference = fabs (values[s->cells[i]] - reference[i]) / fabs (reference[i]);
      if (!(difference <= largest))
        largest = difference;
    }
  return largest;
}

static void
record_difference (bench *b, result_row *row, double difference)
{
  row->max_difference = difference;
  if (!(difference <= RELATIVE_TOLERANCE))
    b->disagree = true;
  if (isinf (difference))
    snprintf (row->note, sizeof row->note, "a value is not finite (or was never written)");
}

static void
poison (double *values, size_t count)
{
  for (size_t i = 0; i < count; i++)
    values[i] = NAN;
}

typedef struct {
  double knn_ms, weighting_ms, end_to_end_ms;
} gpu_times;

/* Medians of opts.repeat runs after one warm-up; values holds the last run's grid. */
static void
time_gpu (bench *b, const shepard_point_set *points, const shepard_params *params, double r_exp,
          const shepard_grid *grid, double *values, gpu_times *times)
{
  size_t cells = grid->width * grid->height;
  shepard_query_set queries = { .grid = grid, .count = cells };
  shepard_outputs outputs = { .values = values };
  int repeat = b->opts.repeat;
  double *knn = bench_allocate ((size_t) repeat, sizeof *knn, "try smaller --sizes");
  double *weighting = bench_allocate ((size_t) repeat, sizeof *weighting, "try smaller --sizes");
  double *end_to_end = bench_allocate ((size_t) repeat, sizeof *end_to_end, "try smaller --sizes");
  shepard_error error;

  for (int run = -1; run < repeat; run++)
    {
      poison (values, cells);
      double start = bench_now ();
      if (shepard_cuda_interpolate (b->gpu, points, params, r_exp, &queries, &outputs, NULL, NULL, &error)
          != SHEPARD_OK)
        fail_engine ("shepard_cuda_interpolate", &error);
      double seconds = bench_now () - start;
      if (run < 0)
        continue;
      shepard_cuda_timings timings;
      shepard_cuda_backend_last_timings (b->gpu, &timings);
      knn[run] = timings.knn_ms;
      weighting[run] = timings.weighting_ms;
      end_to_end[run] = 1e3 * seconds;
    }
  times->knn_ms = bench_median (knn, repeat);
  times->weighting_ms = bench_median (weighting, repeat);
  times->end_to_end_ms = bench_median (end_to_end, repeat);
  free (knn);
  free (weighting);
  free (end_to_end);
}

/* Milliseconds for the whole grid from the median of a few runs over a band of its top rows. */
static double
time_cpu (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid, double work_per_row,
          double work_budget, size_t *band_rows)
{
  shepard_grid band = *grid;
  double rows = ceil (work_budget / work_per_row);
  band.height = rows < (double) grid->height ? (size_t) rows : grid->height;
  double *values = bench_allocate (band.width * band.height, sizeof *values, "try smaller --sizes");
  shepard_outputs outputs = { .values = values };
  shepard_error error;
  double seconds[CPU_RUNS];

  shepard_grid first_row = band;
  first_row.height = 1;
  if (shepard_engine_interpolate_grid (engine, params, &first_row, &outputs, NULL, NULL, &error) != SHEPARD_OK)
    fail_engine ("the CPU engine", &error);
  for (int run = 0; run < CPU_RUNS; run++)
    {
      double start = bench_now ();
      if (shepard_engine_interpolate_grid (engine, params, &band, &outputs, NULL, NULL, &error) != SHEPARD_OK)
        fail_engine ("the CPU engine", &error);
      seconds[run] = bench_now () - start;
    }
  free (values);
  *band_rows = band.height;
  return 1e3 * bench_median (seconds, CPU_RUNS) * (double) grid->height / (double) band.height;
}

/* Times both CPU paths for one method on this grid; the local method is measured only at its own size. */
static void
measure_cpu (bench *b, method_id method, const bench_points *data, const shepard_grid *grid, int size_k,
             double *serial_ms, double *parallel_ms)
{
  shepard_params params;
  size_t serial_rows, parallel_rows;
  double pairs_per_row = (double) grid->width * pairs_per_query (method, data->n);
  double pairs = pairs_per_row * (double) grid->height;

  method_params (method, &params);
  bench_say ("%dK, %s: CPU float64 serial and float32 on every core", size_k, method_names[method]);
  if (method == METHOD_LOCAL_AIDW)
    {
      /* The nearest-neighbour search, not the 15 pairs, is most of the work of a query. */
      *serial_ms = time_cpu (b->serial, &params, grid, (double) grid->width, SERIAL_LOCAL_QUERY_BUDGET, &serial_rows);
      *parallel_ms = time_cpu (b->parallel, &params, grid, (double) grid->width, PARALLEL_LOCAL_QUERY_BUDGET,
                               &parallel_rows);
    }
  else
    {
      *serial_ms = time_cpu (b->serial, &params, grid, pairs_per_row, SERIAL_PAIR_BUDGET, &serial_rows);
      *parallel_ms = time_cpu (b->parallel, &params, grid, pairs_per_row, PARALLEL_PAIR_BUDGET, &parallel_rows);
    }
  bench_say ("%dK, %s: float64 serial %.4g s (%zu of %zu rows, scaled), float32 parallel %.4g s (%zu rows, scaled)",
             size_k, method_names[method], 1e-3 * *serial_ms, serial_rows, grid->height, 1e-3 * *parallel_ms,
             parallel_rows);
  b->cpu_rates[method] = (cpu_rate) { size_k, pairs / (1e-3 * *serial_ms), pairs / (1e-3 * *parallel_ms) };
}

static void
set_cpu_points (bench *b, const bench_points *data)
{
  shepard_error error;

  if (shepard_engine_set_points (b->serial, data->x, data->y, data->z, data->n, &error) != SHEPARD_OK
      || shepard_engine_set_points (b->parallel, data->x, data->y, data->z, data->n, &error) != SHEPARD_OK)
    fail_engine ("setting the CPU engines' points", &error);
}

static void
generate_points (bench_points *data, int size_k)
{
  if (!bench_points_generate (data, (size_t) size_k * 1024, 0x5e9a7d00ULL + (unsigned long long) size_k))
    {
      fprintf (stderr, "shepard-bench-cuda: out of memory for %dK points\n", size_k);
      exit (2);
    }
}

/* When every size asked for is above the measured range, the CPU rates are measured at its top for them. */
static void
measure_cpu_basis (bench *b)
{
  bench_points data;

  generate_points (&data, MEASURED_MAX_K);
  shepard_grid grid = bench_query_grid (&data);
  set_cpu_points (b, &data);
  double serial_ms, parallel_ms;
  measure_cpu (b, METHOD_IDW, &data, &grid, MEASURED_MAX_K, &serial_ms, &parallel_ms);
  measure_cpu (b, METHOD_AIDW, &data, &grid, MEASURED_MAX_K, &serial_ms, &parallel_ms);
  bench_points_free (&data);
}

static void
fill_cpu_columns (result_row *row, cpu_basis basis, double serial_ms, double parallel_ms)
{
  row->cpu = basis;
  row->cpu_serial_ms = serial_ms;
  row->cpu_parallel_ms = parallel_ms;
}

static void
fill_gpu_columns (result_row *row, const gpu_times *times, double pairs)
{
  row->knn_ms = times->knn_ms;
  row->weighting_ms = times->weighting_ms;
  row->end_to_end_ms = times->end_to_end_ms;
  double busy_ms = row->method == METHOD_LOCAL_AIDW ? times->knn_ms + times->weighting_ms : times->weighting_ms;
  row->pairs_per_second = pairs / (1e-3 * busy_ms);
}

/* Whether a slow variant is left out at this size; if so, its time goes into *estimate_ms, scaled as O(n m) from its
 * largest measured run. */
static bool
leave_out (const bench *b, const slow_record *last, double pairs, result_row *row, double *estimate_ms)
{
  double estimate = last->pairs > 0.0 ? last->ms * pairs / last->pairs : NAN;

  if (row->size_k <= MEASURED_MAX_K && !((1.0 + b->opts.repeat) * estimate > 1e3 * SLOW_VARIANT_MAX_SECONDS))
    return false;
  *estimate_ms = estimate;
  row->estimated = !isnan (estimate);
  if (row->estimated)
    snprintf (row->note, sizeof row->note, "not run; estimated from %dK as O(n m)", last->size_k);
  else
    snprintf (row->note, sizeof row->note, "not run above %dK", MEASURED_MAX_K);
  return true;
}

static void
run_brute_knn (bench *b, const shepard_point_set *points, const shepard_params *params, double r_exp,
               const shepard_grid *grid, double *values, const sample *s, const double *reference, result_row *row)
{
  double pairs = (double) (grid->width * grid->height) * (double) points->n;

  if (leave_out (b, &b->brute, pairs, row, &row->knn_ms))
    return;
  gpu_times times;
  shepard_cuda_backend_set_variant (b->gpu, &brute_variant.variant);
  bench_say ("%dK, %s: GPU %s", row->size_k, method_names[row->method], brute_variant.name);
  time_gpu (b, points, params, r_exp, grid, values, &times);
  fill_gpu_columns (row, &times, pairs);
  record_difference (b, row, max_relative_difference (values, grid->width * grid->height, s, reference));
  b->brute = (slow_record) { row->size_k, pairs, times.knn_ms };
}

#if SHEPARD_HAVE_CDP_BENCH
/* Mei (2014)'s dynamic-parallelism IDW takes float coordinates in a local frame: the point set's, as the engine's. */
static void
run_cdp_idw (bench *b, const shepard_point_set *points, const shepard_grid *grid, double *values, const sample *s,
             const double *reference, result_row *row)
{
  size_t cells = grid->width * grid->height;
  double pairs = (double) cells * (double) points->n;

  if (leave_out (b, &b->cdp, pairs, row, &row->weighting_ms))
    return;

  float *x = bench_allocate (points->n, sizeof *x, "try smaller --sizes");
  float *y = bench_allocate (points->n, sizeof *y, "try smaller --sizes");
  float *z = bench_allocate (points->n, sizeof *z, "try smaller --sizes");
  float *query_x = bench_allocate (cells, sizeof *query_x, "try smaller --sizes");
  float *query_y = bench_allocate (cells, sizeof *query_y, "try smaller --sizes");
  float *cdp_values = bench_allocate (cells, sizeof *cdp_values, "try smaller --sizes");
  for (size_t i = 0; i < points->n; i++)
    {
      x[i] = (float) points->x[i];
      y[i] = (float) points->y[i];
      z[i] = (float) points->z[i];
    }
  for (size_t cell = 0; cell < cells; cell++)
    {
      double given_x = grid->x_min + ((double) (cell % grid->width) + 0.5) * grid->dx;
      double given_y = grid->y_max - ((double) (cell / grid->width) + 0.5) * grid->dy;
      query_x[cell] = (float) ((given_x - points->origin_x) * points->scale);
      query_y[cell] = (float) ((given_y - points->origin_y) * points->scale);
    }

  bench_say ("%dK, %s: GPU %s", row->size_k, method_names[row->method], row->variant);
  int repeat = b->opts.repeat;
  double *kernel = bench_allocate ((size_t) repeat, sizeof *kernel, "try smaller --sizes");
  double *end_to_end = bench_allocate ((size_t) repeat, sizeof *end_to_end, "try smaller --sizes");
  char message[SHEPARD_ERROR_MESSAGE_SIZE];
  bool failed = false;
  for (int run = -1; run < repeat && !failed; run++)
    {
      double kernel_ms = NAN;
      for (size_t cell = 0; cell < cells; cell++)
        cdp_values[cell] = NAN;
      double start = bench_now ();
      failed = shepard_bench_cdp_idw (x, y, z, points->n, query_x, query_y, cells, 2.0f, cdp_values, &kernel_ms,
                                      message, sizeof message) != SHEPARD_BENCH_CDP_OK;
      if (run >= 0)
        {
          end_to_end[run] = 1e3 * (bench_now () - start);
          kernel[run] = kernel_ms;
        }
    }

  if (failed)
    {
      snprintf (row->note, sizeof row->note, "failed: %.80s", message);
      fprintf (stderr, "shepard-bench-cuda: %s\n", message);
      b->disagree = true;
    }
  else
    {
      row->weighting_ms = bench_median (kernel, repeat);
      row->end_to_end_ms = bench_median (end_to_end, repeat);
      row->pairs_per_second = pairs / (1e-3 * row->weighting_ms);
      snprintf (row->note, sizeof row->note, "e2e includes its own upload of the points");
      /* The kernel weighed the point set's local values: back to given units. */
      for (size_t cell = 0; cell < cells; cell++)
        values[cell] = shepard_point_set_value (points, 0, cdp_values[cell]);
      record_difference (b, row, max_relative_difference (values, cells, s, reference));
      b->cdp = (slow_record) { row->size_k, pairs, row->weighting_ms };
    }
  free (x);
  free (y);
  free (z);
  free (query_x);
  free (query_y);
  free (cdp_values);
  free (kernel);
  free (end_to_end);
}
#endif

static void
run_size (bench *b, int size_k, method_id first_method, method_id last_method)
{
  bench_points data;
  shepard_point_set points;
  shepard_error error;

  generate_points (&data, size_k);
  shepard_grid grid = bench_query_grid (&data);
  size_t cells = grid.width * grid.height;
  bench_say ("%dK: %zu data points, %zu x %zu query grid over their %.0f m square", size_k, data.n, grid.width,
             grid.height, data.side);

  if (shepard_point_set_init (&points, data.x, data.y, (const double *const[]) { data.z }, 1, data.n, &error)
      != SHEPARD_OK)
    fail_engine ("shepard_point_set_init", &error);
  double start = bench_now ();
  if (shepard_cuda_backend_set_points (b->gpu, &points, &error) != SHEPARD_OK)
    fail_engine ("shepard_cuda_backend_set_points", &error);
  bench_say ("%dK: GPU set_points (upload, even grid) %.1f ms, not counted below", size_k,
             1e3 * (bench_now () - start));
  if (shepard_engine_set_points (b->reference, data.x, data.y, data.z, data.n, &error) != SHEPARD_OK)
    fail_engine ("setting the reference engine's points", &error);

  bool cpu_measured = size_k <= MEASURED_MAX_K || first_method == METHOD_LOCAL_AIDW;
  if (cpu_measured)
    set_cpu_points (b, &data);
  else if (b->cpu_rates[METHOD_IDW].size_k == 0)
    measure_cpu_basis (b);

  sample s;
  sample_init (&s, &grid, 0xce115ULL + (unsigned long long) size_k);
  double *values = bench_allocate (cells, sizeof *values, "try smaller --sizes");
  double area = (points.x_max - points.x_min) * (points.y_max - points.y_min);
  double r_exp = shepard_aidw_expected_distance (points.n, area);

  for (method_id method = first_method; method <= last_method; method++)
    {
      shepard_params params;
      method_params (method, &params);
      if (shepard_params_validate (&params, &error) != SHEPARD_OK)
        fail_engine ("shepard_params_validate", &error);
      double pairs = (double) cells * pairs_per_query (method, data.n);
      const double *reference = sample_reference (b, &s, method);

      double serial_ms, parallel_ms;
      cpu_basis basis = cpu_measured ? CPU_MEASURED : CPU_EXTRAPOLATED;
      if (cpu_measured)
        {
          measure_cpu (b, method, &data, &grid, size_k, &serial_ms, &parallel_ms);
        }
      else
        {
          serial_ms = 1e3 * pairs / b->cpu_rates[method].serial;
          parallel_ms = 1e3 * pairs / b->cpu_rates[method].parallel;
        }

      size_t variant_count = method == METHOD_LOCAL_AIDW ? 1 : WEIGHTING_VARIANT_COUNT;
      for (size_t v = 0; v < variant_count; v++)
        {
          const gpu_variant *variant = &weighting_variants[v];
          result_row *row = add_row (b, method, size_k, data.n, cells,
                                     method == METHOD_LOCAL_AIDW ? "grid kNN, fused" : variant->name);
          gpu_times times;
          shepard_cuda_backend_set_variant (b->gpu, &variant->variant);
          bench_say ("%dK, %s: GPU %s", size_k, method_names[method], row->variant);
          time_gpu (b, &points, &params, r_exp, &grid, values, &times);
          fill_gpu_columns (row, &times, pairs);
          fill_cpu_columns (row, basis, serial_ms, parallel_ms);
          record_difference (b, row, max_relative_difference (values, cells, &s, reference));
        }

      if (method == METHOD_AIDW)
        {
          result_row *row = add_row (b, method, size_k, data.n, cells, brute_variant.name);
          fill_cpu_columns (row, basis, serial_ms, parallel_ms);
          run_brute_knn (b, &points, &params, r_exp, &grid, values, &s, reference, row);
        }
#if SHEPARD_HAVE_CDP_BENCH
      if (method == METHOD_IDW && !b->opts.skip_cdp)
        {
          result_row *row = add_row (b, method, size_k, data.n, cells, "CDP (Mei 2014)");
          fill_cpu_columns (row, basis, serial_ms, parallel_ms);
          run_cdp_idw (b, &points, &grid, values, &s, reference, row);
        }
#endif
    }

  free (values);
  sample_clear (&s);
  shepard_point_set_clear (&points);
  bench_points_free (&data);
}

static void
format_ms (char *text, size_t size, double ms, bool estimated)
{
  if (isnan (ms))
    snprintf (text, size, "-");
  else
    snprintf (text, size, ms < 100.0 ? "%s%.3f" : "%s%.1f", estimated ? "~" : "", ms);
}

static void
format_speedup (char *text, size_t size, double cpu_ms, double gpu_ms, cpu_basis basis)
{
  double speedup = cpu_ms / gpu_ms;

  if (isnan (speedup))
    snprintf (text, size, "-");
  else
    snprintf (text, size, speedup < 100.0 ? "%.1fx%s" : "%.0fx%s", speedup, basis == CPU_EXTRAPOLATED ? " e" : "");
}

static void
format_number (char *text, size_t size, int digits, double value)
{
  if (isnan (value))
    snprintf (text, size, "-");
  else
    snprintf (text, size, "%.*g", digits, value);
}

/* The table groups the rows by method, as the papers' tables do; rows of one method keep their order. */
static size_t *
rows_by_method (const bench *b)
{
  size_t *order = bench_allocate (b->row_count ? b->row_count : 1, sizeof *order, "try smaller --sizes");
  size_t count = 0;

  for (method_id method = 0; method < METHOD_COUNT; method++)
    for (size_t i = 0; i < b->row_count; i++)
      if (b->rows[i].method == method)
        order[count++] = i;
  return order;
}

static void
print_table (const bench *b, FILE *out)
{
  size_t *order = rows_by_method (b);

  fprintf (out, "%-16s %6s  %-21s %10s %10s %10s  %13s %13s %12s %9s  %s\n", "method", "size", "variant", "kNN ms",
           "weight ms", "e2e ms", "pairs/s", "vs f64 serial", "vs f32 all", "max diff", "note");
  for (size_t i = 0; i < b->row_count; i++)
    {
      const result_row *row = &b->rows[order[i]];
      char size[16], knn[24], weighting[24], end_to_end[24], rate[24], serial[24], parallel[24], difference[24];
      snprintf (size, sizeof size, "%dK", row->size_k);
      format_ms (knn, sizeof knn, row->knn_ms, row->estimated);
      format_ms (weighting, sizeof weighting, row->weighting_ms, row->estimated);
      format_ms (end_to_end, sizeof end_to_end, row->end_to_end_ms, false);
      format_number (rate, sizeof rate, 3, row->pairs_per_second);
      format_speedup (serial, sizeof serial, row->cpu_serial_ms, row->end_to_end_ms, row->cpu);
      format_speedup (parallel, sizeof parallel, row->cpu_parallel_ms, row->end_to_end_ms, row->cpu);
      format_number (difference, sizeof difference, 2, row->max_difference);
      fprintf (out, "%-16s %6s  %-21s %10s %10s %10s  %13s %13s %12s %9s%s%s\n", method_names[row->method], size,
               row->variant, knn, weighting, end_to_end, rate, serial, parallel, difference, *row->note ? "  " : "",
               row->note);
    }
  free (order);
}

static void
csv_number (FILE *out, double value)
{
  if (isnan (value))
    fputc (',', out);
  else
    fprintf (out, ",%.6g", value);
}

static bool
write_csv (const bench *b, const char *path)
{
  FILE *out = fopen (path, "w");
  if (!out)
    return false;

  size_t *order = rows_by_method (b);
  fprintf (out, "method,size_k,points,queries,variant,knn_ms,estimated,weighting_ms,end_to_end_ms,pairs_per_s,"
                "cpu_f64_serial_ms,cpu_f32_parallel_ms,cpu_basis,speedup_f64_serial,speedup_f32_parallel,"
                "max_rel_diff,note\n");
  for (size_t i = 0; i < b->row_count; i++)
    {
      const result_row *row = &b->rows[order[i]];
      fprintf (out, "\"%s\",%d,%zu,%zu,\"%s\"", method_names[row->method], row->size_k, row->n_points,
               row->n_queries, row->variant);
      csv_number (out, row->knn_ms);
      fprintf (out, ",%s", row->estimated ? "yes" : "no");
      csv_number (out, row->weighting_ms);
      csv_number (out, row->end_to_end_ms);
      csv_number (out, row->pairs_per_second);
      csv_number (out, row->cpu_serial_ms);
      csv_number (out, row->cpu_parallel_ms);
      fprintf (out, ",%s", cpu_basis_names[row->cpu]);
      csv_number (out, row->cpu_serial_ms / row->end_to_end_ms);
      csv_number (out, row->cpu_parallel_ms / row->end_to_end_ms);
      csv_number (out, row->max_difference);
      fprintf (out, ",\"%s\"\n", row->note);
    }
  free (order);
  return fclose (out) == 0;
}

static const result_row *
find_row (const bench *b, method_id method, int size_k, const char *variant)
{
  for (size_t i = 0; i < b->row_count; i++)
    if (b->rows[i].method == method && b->rows[i].size_k == size_k && strcmp (b->rows[i].variant, variant) == 0)
      return &b->rows[i];
  return NULL;
}

/* One goal line: the number, the goal and whether it was met; "not measured" when the run did not include it. */
static void
print_goal (FILE *out, const char *what, const result_row *row, double value, bool at_most, double goal,
            const char *unit, const char *paper)
{
  if (!row || isnan (value))
    {
      fprintf (out, "  %-58s not measured in this run\n", what);
      return;
    }
  bool met = at_most ? value <= goal : value >= goal;
  fprintf (out, "  %-58s %9.3g %-7s goal %s %-7g %s%s%s\n", what, value, unit, at_most ? "<=" : ">=", goal,
           met ? "met" : "MISSED", *paper ? "  " : "", paper);
}

static void
print_goals (const bench *b, FILE *out)
{
  const char *best = weighting_variants[0].name;
  const result_row *aidw = find_row (b, METHOD_AIDW, GOAL_SIZE_K, best);
  const result_row *idw = find_row (b, METHOD_IDW, GOAL_SIZE_K, best);
  const result_row *local = find_row (b, METHOD_LOCAL_AIDW, LOCAL_SIZE_K, "grid kNN, fused");

  fprintf (out, "Goals (issue 3), 1M x 1M = 1024 x 1024 queries over 1048576 points (1024K), %s:\n", best);
  print_goal (out, "global AIDW weighting, pairs/s", aidw, aidw ? aidw->pairs_per_second : NAN, false,
              GOAL_AIDW_PAIRS_PER_SECOND, "pairs/s", "(paper: 1M x 1M tiled in 65.4 s, GT730M)");
  print_goal (out, "global IDW p=2 weighting, pairs/s", idw, idw ? idw->pairs_per_second : NAN, false,
              GOAL_IDW_PAIRS_PER_SECOND, "pairs/s", "");
  print_goal (out, "kNN stage, k = 15 (AIDW all points, sum over its bands), ms", aidw, aidw ? aidw->knn_ms : NAN,
              true, GOAL_KNN_MS, "ms", "(paper: 917 ms, GT730M)");
  print_goal (out, "local AIDW 1024 x 1024 over 1024K points, kNN included, ms", local,
              local ? local->knn_ms + local->weighting_ms : NAN, true, GOAL_LOCAL_MS, "ms", "");
}

static void
print_legend (const bench *b, FILE *out)
{
  fprintf (out,
           "GPU: %s. CPU float64 serial: %s; float32 all: %s.\n"
           "Times: median of %d runs after a warm-up. kNN ms and weight ms: device events on the backend's stream "
           "(kNN: stage 1 with k = 15,\nand for 15 nearest the fused weighting); e2e ms: host clock around the whole "
           "call, transfers included. pairs/s: queries x points\nover the weighting time (15 per query over kNN + "
           "weighting for 15 nearest). vs ...: CPU time for the whole grid over the GPU e2e time;\nthe CPU is "
           "measured up to %dK on a band of rows (median of %d) and scaled to all rows, beyond that extrapolated as "
           "O(n m)\nfrom the largest measured size (\"e\"). ~: estimated, not run. max diff: largest relative "
           "difference from float64 over %d sampled cells.\n\n",
           shepard_cuda_backend_device_name (b->gpu), shepard_engine_describe (b->serial),
           shepard_engine_describe (b->parallel), b->opts.repeat, MEASURED_MAX_K, CPU_RUNS, SAMPLE_CELLS);
}

int
main (int argc, char **argv)
{
  bench b = { 0 };
  shepard_error error;

  if (argc > 1 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0))
    {
      usage (stdout);
      return 0;
    }
  if (!parse_options (argc, argv, &b.opts))
    return 2;
  bench_start ("shepard-bench-cuda");

  if (shepard_cuda_backend_new (0, &b.gpu, &error) != SHEPARD_OK)
    {
      if (error.code == SHEPARD_ERROR_NO_DEVICE)
        {
          printf ("no CUDA device: %s\n", error.message);
          return 0;
        }
      fail_engine ("shepard_cuda_backend_new", &error);
    }
  bench_say ("GPU: %s", shepard_cuda_backend_device_name (b.gpu));

  b.serial = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 1, &error);
  if (!b.serial)
    fail_engine ("shepard_engine_new", &error);
  b.parallel = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, 0, &error);
  if (!b.parallel)
    fail_engine ("shepard_engine_new", &error);
  b.reference = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  if (!b.reference)
    fail_engine ("shepard_engine_new", &error);

  for (int s = 0; s < b.opts.size_count; s++)
    run_size (&b, b.opts.sizes_k[s], METHOD_IDW, METHOD_AIDW);
  if (!b.opts.skip_local)
    run_size (&b, LOCAL_SIZE_K, METHOD_LOCAL_AIDW, METHOD_LOCAL_AIDW);

  bool csv_failed = b.opts.csv_path && !write_csv (&b, b.opts.csv_path);

  printf ("\n");
  print_legend (&b, stdout);
  print_table (&b, stdout);
  printf ("\n");
  print_goals (&b, stdout);

  shepard_cuda_backend_free (b.gpu);
  shepard_engine_free (b.serial);
  shepard_engine_free (b.parallel);
  shepard_engine_free (b.reference);
  free (b.rows);

  if (csv_failed)
    {
      fprintf (stderr, "shepard-bench-cuda: could not write %s\n", b.opts.csv_path);
      return 2;
    }
  if (b.disagree)
    {
      printf ("\nRESULTS DISAGREE: a GPU result is more than %g (relative) from float64, has a value that is not "
              "finite, or failed.\n", RELATIVE_TOLERANCE);
      return 1;
    }
  printf ("\nEvery GPU result agrees with float64 within %g relative on %d sampled cells.\n", RELATIVE_TOLERANCE,
          SAMPLE_CELLS);
  return 0;
}
