// SPDX-License-Identifier: GPL-3.0-or-later
// Result grids kept on the GPU (shepard_device_grid): their memory on one device, and copies in and out of it.
#include "cuda-internal.cuh"

#include <math.h>
#include <stdlib.h>

extern "C" {
#include "../engine-private.h"
}

using namespace shepard_cuda;

static void
release_planes (shepard_device_grid *grid)
{
  // A caller on another thread has its own current device; the memory belongs to the grid's.
  cudaSetDevice (grid->device);
  release (grid->values);
  release (grid->alpha);
  release (grid->r_obs);
  grid->capacity = 0;
}

extern "C" shepard_status
shepard_cuda_device_grid_new (const shepard_cuda_backend *backend, shepard_device_grid **out, shepard_error *error)
{
  shepard_device_grid *grid = (shepard_device_grid *) calloc (1, sizeof *grid);
  if (!grid)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for a GPU result grid.");
  grid->device = backend->device;
  *out = grid;
  return SHEPARD_OK;
}

extern "C" void
shepard_cuda_device_grid_free (shepard_device_grid *grid)
{
  if (!grid)
    return;
  release_planes (grid);
  free (grid);
}

extern "C" shepard_status
shepard_cuda_device_grid_reserve (shepard_device_grid *grid, size_t width, size_t height, shepard_error *error)
{
  size_t cells = width * height;
  grid->width = grid->height = 0;
  if (cells > grid->capacity)
    {
      release_planes (grid);
      CHECK (cudaSetDevice (grid->device), "selecting the GPU of the result grid");
      CHECK (cudaMalloc (&grid->values, cells * sizeof (float)), "reserving GPU memory for the result grid");
      CHECK (cudaMalloc (&grid->alpha, cells * sizeof (float)), "reserving GPU memory for the result grid");
      CHECK (cudaMalloc (&grid->r_obs, cells * sizeof (float)), "reserving GPU memory for the result grid");
      grid->capacity = cells;
    }
  grid->width = width;
  grid->height = height;
  return SHEPARD_OK;
}

extern "C" shepard_status
shepard_cuda_device_grid_upload (shepard_device_grid *grid, const double *values, const double *alpha,
                                 const double *r_obs, shepard_error *error)
{
  size_t cells = grid->width * grid->height;
  float *staging = (float *) malloc (cells * sizeof (float));
  if (!staging)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to stage %zu cells for the GPU.",
                         cells);
  cudaError_t status = cudaSetDevice (grid->device);
  const double *sources[] = { values, alpha, r_obs };
  float *targets[] = { grid->values, grid->alpha, grid->r_obs };
  for (int a = 0; a < 3 && status == cudaSuccess; a++)
    {
      for (size_t i = 0; i < cells; i++)
        staging[i] = sources[a] ? (float) sources[a][i] : NAN;
      status = cudaMemcpy (targets[a], staging, cells * sizeof (float), cudaMemcpyHostToDevice);
    }
  free (staging);
  if (status != cudaSuccess)
    return cuda_failure (error, status, "copying the result grid to the GPU");
  return SHEPARD_OK;
}

extern "C" shepard_status
shepard_cuda_device_grid_read_plane (const shepard_device_grid *grid, shepard_plane plane, size_t first, size_t count,
                                     float *values, shepard_error *error)
{
  size_t cells = grid->width * grid->height;
  if (first > cells || count > cells - first)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "Cells %zu to %zu are outside the %zu x %zu result grid.", first, first + count,
                         grid->width, grid->height);
  if (count == 0)
    return SHEPARD_OK;
  const float *source = plane == SHEPARD_PLANE_ALPHA ? grid->alpha : plane == SHEPARD_PLANE_R_OBS ? grid->r_obs
                                                                                                 : grid->values;
  CHECK (cudaSetDevice (grid->device), "selecting the GPU of the result grid");
  CHECK (cudaMemcpy (values, source + first, count * sizeof (float), cudaMemcpyDeviceToHost),
         "copying results from the GPU");
  return SHEPARD_OK;
}

extern "C" shepard_status
shepard_cuda_device_grid_read (const shepard_device_grid *grid, size_t first, size_t count, float *values,
                               float *alpha, shepard_error *error)
{
  shepard_status status = shepard_cuda_device_grid_read_plane (grid, SHEPARD_PLANE_VALUES, first, count, values,
                                                               error);
  if (status == SHEPARD_OK && alpha)
    status = shepard_cuda_device_grid_read_plane (grid, SHEPARD_PLANE_ALPHA, first, count, alpha, error);
  return status;
}
