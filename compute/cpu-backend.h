/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU backend: float64 reference and float32 fast path, on worker threads. */
#ifndef SHEPARD_CPU_BACKEND_H
#define SHEPARD_CPU_BACKEND_H

#include "cpu-kernels.h"
#include "even-grid.h"
#include "point-set.h"

typedef struct {
  const shepard_point_set *points;
  const shepard_even_grid *grid;
  const shepard_cpu_kernels *kernels;
  shepard_precision precision;
  int threads;
} shepard_cpu_backend;

/* Queries are either the cell centres of a grid or explicit coordinates (in given units). */
typedef struct {
  const shepard_grid *grid;
  const double *x, *y;
  size_t count;
} shepard_query_set;

/* params are valid; r_exp is AIDW's expected nearest-neighbour distance in given units (ignored for IDW). */
shepard_status shepard_cpu_interpolate (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                                        const shepard_query_set *queries, const shepard_outputs *outputs,
                                        shepard_progress_fn progress, void *progress_data, shepard_error *error);

shepard_status shepard_cpu_nearest (const shepard_cpu_backend *backend, const double *query_x, const double *query_y,
                                    size_t n_queries, size_t k, double *squared_distances, size_t *indices,
                                    shepard_error *error);

#endif
