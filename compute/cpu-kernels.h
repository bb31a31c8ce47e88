/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The float32 all-points weighting kernels: sums of w and w*z over every data point for a batch of queries. One
 * source (cpu-kernels.c) is compiled once per instruction set; shepard_cpu_kernels_select() picks the best one that
 * the running CPU supports. */
#ifndef SHEPARD_CPU_KERNELS_H
#define SHEPARD_CPU_KERNELS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
  const float *x_hi, *x_lo, *y_hi, *y_lo, *z; /* 64-byte aligned, readable up to a multiple of 16 points */
  /* Cross-validation: each point's fold, as aligned and readable as the coordinates; a query weighs no point of its
   * own fold. NULL: every point weighs. */
  const uint32_t *labels;
  size_t n;
} shepard_kernel_points;

typedef struct {
  float x_hi, x_lo, y_hi, y_lo;
  float exponent;   /* w = (d^2 + S^2)^exponent, that is -p/2 */
  float smoothing2; /* S^2 */
  uint32_t label; /* the fold the query leaves out, when points->labels is set */
} shepard_kernel_query;

typedef enum {
  SHEPARD_WEIGHT_INVERSE_SQUARE, /* p = 2: one reciprocal per pair */
  SHEPARD_WEIGHT_POWER,          /* any p: exp2 (exponent * log2 (d^2)) */
} shepard_weight_form;

/* Adds each query's sums to sum_w[q] and sum_wz[q]. Partial sums run in float32 over tiles of points that stay in the
 * L1 cache and are added into float64 per tile, which keeps a million-term sum within 1e-5 of float64. */
typedef void (*shepard_weighted_sums_fn) (const shepard_kernel_points *points, const shepard_kernel_query *queries,
                                          size_t n_queries, shepard_weight_form form, double *sum_w,
                                          double *sum_wz);

typedef struct {
  const char *isa_name;
  shepard_weighted_sums_fn weighted_sums;
} shepard_cpu_kernels;

const shepard_cpu_kernels *shepard_cpu_kernels_select (void);

void shepard_weighted_sums_baseline (const shepard_kernel_points *, const shepard_kernel_query *, size_t,
                                     shepard_weight_form, double *, double *);
void shepard_weighted_sums_avx2 (const shepard_kernel_points *, const shepard_kernel_query *, size_t,
                                 shepard_weight_form, double *, double *);
void shepard_weighted_sums_avx512 (const shepard_kernel_points *, const shepard_kernel_query *, size_t,
                                   shepard_weight_form, double *, double *);

#endif
