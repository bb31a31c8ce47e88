/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every benchmark program does the same way: progress lines on stderr, allocations that end the program when
 * memory runs out (a benchmark is a program, not a library), and the --sizes list. */
#ifndef SHEPARD_BENCH_SUPPORT_H
#define SHEPARD_BENCH_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>

/* Names the program in messages and starts the clock of bench_say's time stamps. */
void bench_start (const char *program);

/* A line on stderr, stamped with the seconds since bench_start. */
void bench_say (const char *format, ...) __attribute__ ((format (printf, 1, 2)));

/* calloc, or the program ends (exit 2) saying what ran out and what to try (hint, e.g. "try smaller --sizes"). */
void *bench_allocate (size_t count, size_t size, const char *hint);

/* "10,100,1000": counts from 1 to max_size, at most capacity of them, into sizes in ascending order without
 * repeats; false for anything else. */
/* qsort's comparison of doubles, ascending. */
int bench_compare_doubles (const void *a, const void *b);
/* The median of count values (sorted in place); NAN for none. */
double bench_median (double *values, int count);

bool bench_parse_sizes (const char *text, int max_size, int *sizes, int capacity, int *count);

#endif /* SHEPARD_BENCH_SUPPORT_H */
