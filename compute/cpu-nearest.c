/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The k nearest data points of given queries (shepard_engine_nearest) on the CPU backend's threads. */
#include "cpu-backend.h"

#include "engine-private.h"
#include "parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Queries per chunk handed to a thread: a few milliseconds, so cancel is answered quickly. */
#define NEAREST_QUERIES_PER_CHUNK 256

typedef struct {
  const shepard_cpu_backend *backend;
  const double *query_x, *query_y;
  size_t k;
  double *squared_distances;
  size_t *indices;
  size_t *index_scratch; /* per worker, k each, when the caller wants no indices */
} nearest_job;

static bool
nearest_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  const nearest_job *job = context;
  const shepard_point_set *points = job->backend->points;
  double to_given = 1.0 / (points->scale * points->scale);
  for (size_t i = begin; i < end; i++)
    {
      double *d2 = job->squared_distances + i * job->k;
      size_t *index = job->indices ? job->indices + i * job->k : job->index_scratch + (size_t) worker * job->k;
      double qx = shepard_point_set_local (job->query_x[i], points->origin_x, points->scale);
      double qy = shepard_point_set_local (job->query_y[i], points->origin_y, points->scale);
      size_t found = shepard_even_grid_nearest (job->backend->grid, qx, qy, job->k, d2, index);
      for (size_t j = 0; j < found; j++)
        d2[j] *= to_given;
      for (size_t j = found; j < job->k; j++)
        {
          d2[j] = INFINITY;
          index[j] = SIZE_MAX;
        }
    }
  (void) error;
  return true;
}

shepard_status
shepard_cpu_nearest (const shepard_cpu_backend *backend, const double *query_x, const double *query_y,
                     size_t n_queries, size_t k, double *squared_distances, size_t *indices, shepard_error *error)
{
  size_t *index_scratch = NULL;
  if (!indices)
    {
      size_t count;
      if (!shepard_size_mul ((size_t) backend->threads, k, &count)
          || !(index_scratch = malloc (count * sizeof *index_scratch)))
        return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the neighbour search.");
    }
  nearest_job job = { backend, query_x, query_y, k, squared_distances, indices, index_scratch };
  shepard_status status = shepard_parallel_for (backend->threads, n_queries, NEAREST_QUERIES_PER_CHUNK, nearest_chunk,
                                                &job, NULL, NULL, "Searching neighbours", error);
  free (index_scratch);
  return status;
}
