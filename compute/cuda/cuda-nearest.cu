// SPDX-License-Identifier: GPL-3.0-or-later
// The k nearest data points of explicit query points on the device (shepard_cuda_nearest): stage 1's search of the
// even grid, in bands of the backend's query buffers, the distances back in given units.
#include "cuda-internal.cuh"

#include <limits.h>
#include <stdint.h>

extern "C" {
#include "../engine-private.h"
}

using namespace shepard_cuda;

static shepard_status
nearest (shepard_cuda_backend *backend, const shepard_point_set *set, const double *query_x, const double *query_y,
         size_t n_queries, size_t k, double *squared_distances, size_t *indices, shepard_error *error)
{
  if (k > SHEPARD_CUDA_MAX_NEIGHBORS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The CUDA backend searches at most %d neighbours, not %zu; use the CPU backend.",
                         SHEPARD_CUDA_MAX_NEIGHBORS, k);
  size_t band_queries = n_queries < ((size_t) 1 << 20) ? n_queries : ((size_t) 1 << 20);
  if (band_queries == 0)
    return SHEPARD_OK;
  shepard_status reserved = reserve_band (backend->band, band_queries, 1, error);
  if (reserved != SHEPARD_OK)
    return reserved;
  Band &band = backend->band;
  float *d2 = nullptr, *host_d2 = nullptr;
  unsigned *index = nullptr, *host_index = nullptr;
  size_t entries = band_queries * k;
  cudaError_t status = cudaMalloc (&d2, entries * sizeof (float));
  if (status == cudaSuccess)
    status = cudaMalloc (&index, entries * sizeof (unsigned));
  if (status == cudaSuccess)
    status = cudaMallocHost (&host_d2, entries * sizeof (float));
  if (status == cudaSuccess)
    status = cudaMallocHost (&host_index, entries * sizeof (unsigned));
  double to_given = 1.0 / (set->scale * set->scale);
  for (size_t first = 0; first < n_queries && status == cudaSuccess; first += band_queries)
    {
      size_t count = n_queries - first < band_queries ? n_queries - first : band_queries;
      for (size_t i = 0; i < count; i++)
        {
          band.host_query_x[i] = shepard_point_set_local (query_x[first + i], set->origin_x, set->scale);
          band.host_query_y[i] = shepard_point_set_local (query_y[first + i], set->origin_y, set->scale);
        }
      QuerySource source;
      source.x = band.query_x;
      source.y = band.query_y;
      source.count = (int) count;
      status = cudaMemcpyAsync (band.query_x, band.host_query_x, count * sizeof (double), cudaMemcpyHostToDevice,
                                backend->stream);
      if (status == cudaSuccess)
        status = cudaMemcpyAsync (band.query_y, band.host_query_y, count * sizeof (double), cudaMemcpyHostToDevice,
                                  backend->stream);
      if (status == cudaSuccess)
        status = launch_nearest (backend->grid, backend->points, source, (int) k, d2, index, backend->stream);
      if (status == cudaSuccess)
        status = cudaMemcpyAsync (host_d2, d2, count * k * sizeof (float), cudaMemcpyDeviceToHost, backend->stream);
      if (status == cudaSuccess)
        status = cudaMemcpyAsync (host_index, index, count * k * sizeof (unsigned), cudaMemcpyDeviceToHost,
                                  backend->stream);
      if (status == cudaSuccess)
        status = cudaStreamSynchronize (backend->stream);
      if (status != cudaSuccess)
        break;
      for (size_t e = 0; e < count * k; e++)
        {
          bool found = host_index[e] != UINT_MAX;
          squared_distances[first * k + e] = found ? host_d2[e] * to_given : INFINITY;
          if (indices)
            indices[first * k + e] = found ? host_index[e] : SIZE_MAX;
        }
    }
  release (d2);
  release (index);
  if (host_d2)
    cudaFreeHost (host_d2);
  if (host_index)
    cudaFreeHost (host_index);
  if (status != cudaSuccess)
    return cuda_failure (error, status, "searching the nearest neighbours on the GPU");
  return SHEPARD_OK;
}


extern "C" shepard_status
shepard_cuda_nearest (shepard_cuda_backend *backend, const shepard_point_set *points, const double *query_x,
                      const double *query_y, size_t n_queries, size_t k, double *squared_distances, size_t *indices,
                      shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  try
    {
      return nearest (backend, points, query_x, query_y, n_queries, k, squared_distances, indices, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU neighbour search failed.");
    }
}
