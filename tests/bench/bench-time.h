/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Wall-clock time for the benchmark. */
#ifndef SHEPARD_BENCH_TIME_H
#define SHEPARD_BENCH_TIME_H

#include <time.h>

/* Seconds on the monotonic clock. */
static inline double
bench_now (void)
{
  struct timespec now;

  clock_gettime (CLOCK_MONOTONIC, &now);
  return (double) now.tv_sec + 1e-9 * (double) now.tv_nsec;
}

#endif /* SHEPARD_BENCH_TIME_H */
