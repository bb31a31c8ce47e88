/* SPDX-License-Identifier: GPL-3.0-or-later */
/* cdp-idw-check: the CUDA Dynamic Parallelism IDW against a float64 CPU IDW on the same float inputs, for p = 2 (the
 * reciprocal path) and p = 2.5 (the exp2/log2 path), with queries on single and on duplicated data points. Prints
 * the largest relative difference; exits 0 when it is within 1e-5, 77 without a CUDA device, 1 otherwise. Built,
 * never registered as a test: run it by hand on the GPU machine. */
#include "cdp-idw.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define N_POINTS 2000
#define N_QUERIES 500
#define HALF_SIDE 1000.0
#define RELATIVE_TOLERANCE 1e-5
/* Queries 0, 1, ... sit on data points; point 1 is a duplicate of point 0 with another value. */
#define QUERIES_ON_POINTS 8
#define EXIT_SKIP 77

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t mixed = (*state += 0x9e3779b97f4a7c15ULL);
  mixed = (mixed ^ (mixed >> 30)) * 0xbf58476d1ce4e5b9ULL;
  mixed = (mixed ^ (mixed >> 27)) * 0x94d049bb133111ebULL;
  return mixed ^ (mixed >> 31);
}

static double
uniform (uint64_t *state, double low, double high)
{
  return low + (high - low) * ((double) (splitmix64 (state) >> 11) * 0x1.0p-53);
}

typedef struct {
  float x[N_POINTS], y[N_POINTS], z[N_POINTS];
  float query_x[N_QUERIES], query_y[N_QUERIES];
} check_data;

static void
generate (check_data *data)
{
  uint64_t state = 20140601;

  for (size_t i = 0; i < N_POINTS; i++)
    {
      data->x[i] = (float) uniform (&state, -HALF_SIDE, HALF_SIDE);
      data->y[i] = (float) uniform (&state, -HALF_SIDE, HALF_SIDE);
      data->z[i] = (float) (50.0 + 20.0 * sin (data->x[i] / 300.0) * cos (data->y[i] / 200.0)
                            + uniform (&state, -5.0, 5.0));
    }
  data->x[1] = data->x[0];
  data->y[1] = data->y[0];
  for (size_t q = 0; q < N_QUERIES; q++)
    {
      if (q < QUERIES_ON_POINTS)
        {
          data->query_x[q] = data->x[q * 97 % N_POINTS];
          data->query_y[q] = data->y[q * 97 % N_POINTS];
        }
      else
        {
          data->query_x[q] = (float) uniform (&state, -HALF_SIDE, HALF_SIDE);
          data->query_y[q] = (float) uniform (&state, -HALF_SIDE, HALF_SIDE);
        }
    }
}

static double
reference_idw (const check_data *data, size_t query, double power)
{
  double weight_sum = 0.0, weighted_sum = 0.0, coincident_sum = 0.0;
  size_t coincident_count = 0;

  for (size_t i = 0; i < N_POINTS; i++)
    {
      const double dx = (double) data->query_x[query] - (double) data->x[i];
      const double dy = (double) data->query_y[query] - (double) data->y[i];
      const double d2 = dx * dx + dy * dy;
      if (d2 == 0.0)
        {
          coincident_sum += data->z[i];
          coincident_count++;
          continue;
        }
      const double weight = pow (d2, -0.5 * power);
      weight_sum += weight;
      weighted_sum += weight * data->z[i];
    }
  return coincident_count > 0 ? coincident_sum / (double) coincident_count : weighted_sum / weight_sum;
}

/* The largest relative difference over the queries, or a negative number when the CDP run fails. */
static double
compare (const check_data *data, float power, shepard_bench_cdp_status *status)
{
  static float values[N_QUERIES];
  char message[512];
  double kernel_ms = 0.0;
  double largest = 0.0;

  *status = shepard_bench_cdp_idw (data->x, data->y, data->z, N_POINTS, data->query_x, data->query_y, N_QUERIES,
                                   power, values, &kernel_ms, message, sizeof message);
  if (*status != SHEPARD_BENCH_CDP_OK)
    {
      fprintf (stderr, "cdp-idw-check: %s\n", message);
      return -1.0;
    }
  for (size_t q = 0; q < N_QUERIES; q++)
    {
      const double expected = reference_idw (data, q, power);
      const double difference = fabs ((double) values[q] - expected) / fmax (fabs (expected), 1e-30);
      if (!(difference <= largest))
        largest = isnan (difference) ? INFINITY : difference;
    }
  printf ("p = %.1f: %d points x %d queries, kernels %.3f ms, max relative difference %.3g (%s)\n", (double) power,
          N_POINTS, N_QUERIES, kernel_ms, largest, largest <= RELATIVE_TOLERANCE ? "ok" : "TOO LARGE");
  return largest;
}

int
main (void)
{
  static check_data data;
  static const float powers[] = { 2.0f, 2.5f };
  bool all_within = true;

  generate (&data);
  for (size_t i = 0; i < sizeof powers / sizeof powers[0]; i++)
    {
      shepard_bench_cdp_status status;
      const double largest = compare (&data, powers[i], &status);
      if (status == SHEPARD_BENCH_CDP_NO_DEVICE)
        return EXIT_SKIP;
      if (!(largest >= 0.0 && largest <= RELATIVE_TOLERANCE))
        all_within = false;
    }
  return all_within ? EXIT_SUCCESS : EXIT_FAILURE;
}
