/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The benchmark's data: random points in a square, and a query grid of about as many cells over the same square. */
#ifndef SHEPARD_BENCH_DATA_H
#define SHEPARD_BENCH_DATA_H

#include "shepard-engine.h"

#include <stdbool.h>
#include <stddef.h>

typedef struct {
  size_t n;
  double side; /* the points lie in [0, side] x [0, side] */
  double *x;
  double *y;
  double *z;
} bench_points;

/* Uniform random points with a smooth, positive value field plus noise; the same seed gives the same points. */
bool bench_points_generate (bench_points *points, size_t n, unsigned long long seed);
void bench_points_free (bench_points *points);

/* A width x height grid over the points' square with width * height = n when n has a divisor near its square root
 * (10K: 128 x 80), as close to n as the divisors allow otherwise. */
shepard_grid bench_query_grid (const bench_points *points);

/* "x,y,z" with a header row, every digit of each double. */
bool bench_points_write_csv (const bench_points *points, const char *path);

#endif /* SHEPARD_BENCH_DATA_H */
