/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Standard IDW with CUDA Dynamic Parallelism, as compared by Mei (2014): a parent grid launches one child grid per
 * query point. For the benchmark only; the engine never uses it. */
#ifndef SHEPARD_BENCH_CDP_IDW_H
#define SHEPARD_BENCH_CDP_IDW_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SHEPARD_BENCH_CDP_OK = 0,
  SHEPARD_BENCH_CDP_NO_DEVICE,        /* no usable CUDA device (no driver, no GPU) */
  SHEPARD_BENCH_CDP_INVALID_ARGUMENT, /* empty or too large inputs, power not positive and finite, null pointers */
  SHEPARD_BENCH_CDP_DEVICE_ERROR,     /* a CUDA call or launch failed, on the host or in the parent grid */
} shepard_bench_cdp_status;

/* z(q) = sum w_i z_i / sum w_i with w_i = d_i^-power over all points, for each query; a query on one or more points
 * (d == 0) takes the mean of their values. Coordinates are floats in a local frame (shifted by the caller). Host
 * arrays in, values out; kernel_ms (may be null) receives the device time of the kernels, transfers excluded. On
 * failure, message (size bytes) says why, with the CUDA error's name and description. */
shepard_bench_cdp_status shepard_bench_cdp_idw (const float *x, const float *y, const float *z, size_t n_points,
                                                const float *query_x, const float *query_y, size_t n_queries,
                                                float power, float *values, double *kernel_ms, char *message,
                                                size_t size);

#ifdef __cplusplus
}
#endif

#endif /* SHEPARD_BENCH_CDP_IDW_H */
