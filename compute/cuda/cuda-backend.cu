// SPDX-License-Identifier: GPL-3.0-or-later
// Host side of the CUDA backend: the device, its memory (kept between calls: the points, their search grid, the far
// field's tree, the bands of queries), and every CUDA error turned into a shepard_error. Nothing throws across the C
// API. Interpolations are in cuda-interpolate.cu, result grids kept on the GPU in cuda-device-grid.cu,
// cross-validation in cuda-cross-validation.cu, the k nearest of query points in cuda-nearest.cu.
#include "cuda-internal.cuh"

#include <math.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "../engine-private.h"
#include "../even-grid.h"
}

using namespace shepard_cuda;

shepard_status
shepard_cuda::cuda_failure (shepard_error *error, cudaError_t status, const char *what)
{
  cudaGetLastError (); // clear a sticky launch error so that the next call starts clean
  if (status == cudaErrorMemoryAllocation)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY,
                         "The GPU ran out of memory while %s; use fewer points, a smaller grid or the CPU backend.",
                         what);
  return shepard_fail (error, SHEPARD_ERROR_DEVICE, "CUDA failed while %s: %s (%s).", what, cudaGetErrorString (status),
                       cudaGetErrorName (status));
}

static void
free_points (shepard_cuda_backend *backend)
{
  DevicePoints &p = backend->points;
  release (p.hi_z);
  release (p.lo);
  release (p.x_hi);
  release (p.y_hi);
  release (p.x_lo);
  release (p.y_lo);
  release (p.z);
  p.n = 0;
  p.n_fields = 1;
  DeviceGrid &g = backend->grid;
  release (g.cell_start);
  release (g.sorted);
  release (g.sorted_index);
  release (g.sorted_z);
  // The tree belongs to the points it was built over.
  free_far_field (backend->far_field);
}

// Everything but the sums, which are sized on their own.
static void
free_band_queries (Band &band)
{
  release (band.value);
  release (band.exponent);
  release (band.offset);
  release (band.alpha);
  release (band.r_obs);
  release (band.done);
  release (band.query_x);
  release (band.query_y);
  if (band.host_value)
    cudaFreeHost (band.host_value);
  if (band.host_alpha)
    cudaFreeHost (band.host_alpha);
  if (band.host_r_obs)
    cudaFreeHost (band.host_r_obs);
  if (band.host_query_x)
    cudaFreeHost (band.host_query_x);
  if (band.host_query_y)
    cudaFreeHost (band.host_query_y);
  Band sums_only;
  sums_only.sum_w = band.sum_w;
  sums_only.sum_wz = band.sum_wz;
  sums_only.sum_capacity = band.sum_capacity;
  band = sums_only;
}

static void
free_band (Band &band)
{
  free_band_queries (band);
  release (band.sum_w);
  release (band.sum_wz);
  band = Band ();
}

shepard_status
shepard_cuda::reserve_band (Band &band, size_t queries, size_t fields, shepard_error *error)
{
  if (queries <= band.capacity && queries * fields <= band.value_capacity)
    return SHEPARD_OK;
  free_band_queries (band);
  CHECK (cudaMalloc (&band.value, queries * fields * sizeof (float)), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.exponent, queries * sizeof (float)), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.offset, queries * sizeof (float)), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.alpha, queries * sizeof (float)), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.r_obs, queries * sizeof (float)), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.done, queries), "reserving memory for a band of results");
  CHECK (cudaMalloc (&band.query_x, queries * sizeof (double)), "reserving memory for a band of queries");
  CHECK (cudaMalloc (&band.query_y, queries * sizeof (double)), "reserving memory for a band of queries");
  CHECK (cudaMallocHost (&band.host_value, queries * fields * sizeof (float)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&band.host_alpha, queries * sizeof (float)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&band.host_r_obs, queries * sizeof (float)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&band.host_query_x, queries * sizeof (double)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&band.host_query_y, queries * sizeof (double)), "reserving pinned host memory");
  band.capacity = queries;
  band.value_capacity = queries * fields;
  return SHEPARD_OK;
}

shepard_status
shepard_cuda::reserve_band_sums (Band &band, size_t sums, shepard_error *error)
{
  if (sums <= band.sum_capacity)
    return SHEPARD_OK;
  release (band.sum_w);
  release (band.sum_wz);
  band.sum_capacity = 0;
  CHECK (cudaMalloc (&band.sum_w, sums * sizeof (double)), "reserving memory for a band's sums");
  CHECK (cudaMalloc (&band.sum_wz, sums * sizeof (double)), "reserving memory for a band's sums");
  band.sum_capacity = sums;
  return SHEPARD_OK;
}

extern "C" bool shepard_cuda_device_describe (int device, char *name, size_t size);

static shepard_status
backend_new (int device, shepard_cuda_backend **out, shepard_error *error)
{
  *out = nullptr;
  int count = 0;
  cudaError_t status = cudaGetDeviceCount (&count);
  if (status != cudaSuccess || count == 0)
    {
      cudaGetLastError ();
      return shepard_fail (error, SHEPARD_ERROR_NO_DEVICE, "No CUDA device is usable here (%s).",
                           status != cudaSuccess ? cudaGetErrorString (status) : "no device found");
    }
  if (device < 0 || device >= count)
    return shepard_fail (error, SHEPARD_ERROR_NO_DEVICE,
                         "There is no GPU %d here: this machine has %d (numbered 0 to %d); choose among them or "
                         "\"all\".", device, count, count - 1);
  shepard_cuda_backend *backend = new (std::nothrow) shepard_cuda_backend ();
  if (!backend)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the CUDA backend.");
  backend->device = device;
  status = cudaSetDevice (backend->device);
  if (status == cudaSuccess)
    status = cudaStreamCreateWithFlags (&backend->stream, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaStreamCreateWithFlags (&backend->side_stream, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaEventCreateWithFlags (&backend->side_may_start, cudaEventDisableTiming);
  if (status == cudaSuccess)
    status = cudaEventCreateWithFlags (&backend->side_done, cudaEventDisableTiming);
  for (int i = 0; i < 5 && status == cudaSuccess; i++)
    status = cudaEventCreate (&backend->marks[i]);
  for (cudaStream_t &stream : backend->slice_streams)
    if (status == cudaSuccess)
      status = cudaStreamCreateWithFlags (&stream, cudaStreamNonBlocking);
  if (status == cudaSuccess)
    status = cudaEventCreateWithFlags (&backend->slices_may_start, cudaEventDisableTiming);
  for (cudaEvent_t &done : backend->slice_done)
    if (status == cudaSuccess)
      status = cudaEventCreateWithFlags (&done, cudaEventDisableTiming);
  if (status != cudaSuccess)
    {
      shepard_cuda_backend_free (backend);
      return cuda_failure (error, status, "starting the CUDA device");
    }
  shepard_cuda_device_describe (device, backend->device_name, sizeof backend->device_name);
  *out = backend;
  return SHEPARD_OK;
}

static shepard_status
set_points (shepard_cuda_backend *backend, const shepard_point_set *set, shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  free_points (backend);
  size_t n = set->n, fields = set->n_fields;
  DevicePoints &p = backend->points;
  // Every field's plane of hi_z repeats the coordinates, so that the weighting kernels read one field as before.
  float4 *hi_z = (float4 *) malloc (fields * n * sizeof (float4));
  float2 *lo = (float2 *) malloc (n * sizeof (float2));
  float *z = (float *) malloc (fields * n * sizeof (float));
  if (!hi_z || !lo || !z)
    {
      free (hi_z);
      free (lo);
      free (z);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to stage %zu points for the GPU.", n);
    }
  for (size_t f = 0; f < fields; f++)
    for (size_t i = 0; i < n; i++)
      {
        z[f * n + i] = set->z32[f * set->n_padded + i];
        hi_z[f * n + i] = make_float4 (set->x_hi[i], set->y_hi[i], z[f * n + i], 0.0f);
      }
  for (size_t i = 0; i < n; i++)
    lo[i] = make_float2 (set->x_lo[i], set->y_lo[i]);
  cudaError_t status = cudaMalloc (&p.hi_z, fields * n * sizeof (float4));
  if (status == cudaSuccess)
    status = cudaMalloc (&p.lo, n * sizeof (float2));
  float **soa[] = { &p.x_hi, &p.y_hi, &p.x_lo, &p.y_lo, &p.z };
  const float *host_soa[] = { set->x_hi, set->y_hi, set->x_lo, set->y_lo, z };
  const size_t soa_count[] = { n, n, n, n, fields * n };
  for (int a = 0; a < 5 && status == cudaSuccess; a++)
    status = cudaMalloc (soa[a], soa_count[a] * sizeof (float));
  if (status == cudaSuccess)
    status = cudaMemcpyAsync (p.hi_z, hi_z, fields * n * sizeof (float4), cudaMemcpyHostToDevice, backend->stream);
  if (status == cudaSuccess)
    status = cudaMemcpyAsync (p.lo, lo, n * sizeof (float2), cudaMemcpyHostToDevice, backend->stream);
  for (int a = 0; a < 5 && status == cudaSuccess; a++)
    status = cudaMemcpyAsync (*soa[a], host_soa[a], soa_count[a] * sizeof (float), cudaMemcpyHostToDevice,
                              backend->stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize (backend->stream);
  free (hi_z);
  free (lo);
  free (z);
  if (status != cudaSuccess)
    {
      free_points (backend);
      return cuda_failure (error, status, "copying the points to the GPU");
    }
  p.n = n;
  p.n_fields = (int) fields;

  double x_min = shepard_point_set_local (set->x_min, set->origin_x, set->scale);
  double x_max = shepard_point_set_local (set->x_max, set->origin_x, set->scale);
  double y_min = shepard_point_set_local (set->y_min, set->origin_y, set->scale);
  double y_max = shepard_point_set_local (set->y_max, set->origin_y, set->scale);
  double cell_size;
  size_t nx, ny;
  shepard_even_grid_geometry (x_min, y_min, x_max, y_max, n, &cell_size, &nx, &ny);
  DeviceGrid &g = backend->grid;
  size_t cells = nx * ny;
  status = cudaMalloc (&g.cell_start, (cells + 1) * sizeof (unsigned));
  if (status == cudaSuccess)
    status = cudaMalloc (&g.sorted, n * sizeof (float4));
  if (status == cudaSuccess)
    status = cudaMalloc (&g.sorted_index, n * sizeof (unsigned));
  if (status == cudaSuccess)
    status = cudaMalloc (&g.sorted_z, fields * n * sizeof (float));
  if (status == cudaSuccess)
    status = build_grid (p, g, x_min, y_min, cell_size, (int) nx, (int) ny, &backend->scan_storage,
                         &backend->scan_storage_bytes, backend->stream);
  if (status == cudaSuccess)
    status = cudaStreamSynchronize (backend->stream);
  if (status != cudaSuccess)
    {
      free_points (backend);
      return cuda_failure (error, status, "building the search grid on the GPU");
    }
  return SHEPARD_OK;
}

Neighbourhood
shepard_cuda::neighbourhood_of (const shepard_params *params, double scale)
{
  Neighbourhood hood;
  hood.max_points = params->neighbors == SHEPARD_NEIGHBORS_ALL ? 0 : params->neighbors;
  hood.min_points = params->min_points > 1 ? params->min_points : 1;
  hood.max_per_quadrant = params->max_points_per_quadrant;
  hood.min_per_quadrant = params->min_points_per_quadrant;
  hood.ellipse = params->radius1 > 0.0;
  if (hood.ellipse)
    {
      double angle = params->angle * (3.14159265358979323846 / 180.0), c = cos (angle), s = sin (angle);
      double r1 = params->radius1 * scale, r2 = params->radius2 * scale;
      hood.circle = params->radius1 == params->radius2;
      hood.radius_squared = (float) (r1 * r1);
      hood.cos_angle = (float) c;
      hood.sin_angle = (float) s;
      hood.inverse_r1_squared = (float) (1.0 / (r1 * r1));
      hood.inverse_r2_squared = (float) (1.0 / (r2 * r2));
      // Widened for float rounding: the ellipse test itself decides.
      hood.reach = (float) (fmax (r1, r2) * (1.0 + 1e-5));
      hood.box_x = (float) (sqrt (r1 * r1 * c * c + r2 * r2 * s * s) * (1.0 + 1e-5));
      hood.box_y = (float) (sqrt (r1 * r1 * s * s + r2 * r2 * c * c) * (1.0 + 1e-5));
    }
  hood.smoothed = params->smoothing > 0.0;
  if (hood.smoothed)
    {
      // Beyond these bounds float would lose S^2 against every d2 (or d2 against S^2): the weights are then the
      // same to float precision.
      double local = params->smoothing * scale;
      hood.smoothing2 = (float) fmin (fmax (local * local, 1e-30), 1e30);
    }
  bool quadrant_caps = hood.max_per_quadrant > 0 && (hood.max_points == 0 || hood.max_per_quadrant < hood.max_points);
  bool needs_selection = hood.ellipse || hood.min_per_quadrant > 0;
  if (quadrant_caps)
    hood.mode = kQuadrants;
  else if (hood.max_points > 0)
    hood.mode = needs_selection ? kNearest : kFused;
  else
    hood.mode = needs_selection ? kRadius : kFused;
  return hood;
}

// The C API: every entry point catches whatever C++ might throw.

extern "C" int
shepard_cuda_device_count (void)
{
  int count = 0;
  if (cudaGetDeviceCount (&count) != cudaSuccess)
    {
      cudaGetLastError ();
      return 0;
    }
  return count;
}

extern "C" void
shepard_cuda_device_start (int device)
{
  if (cudaSetDevice (device) != cudaSuccess || cudaFree (nullptr) != cudaSuccess)
    cudaGetLastError ();
}

extern "C" bool
shepard_cuda_device_describe (int device, char *name, size_t size)
{
  cudaDeviceProp properties;
  if (device < 0 || device >= shepard_cuda_device_count ()
      || cudaGetDeviceProperties (&properties, device) != cudaSuccess)
    {
      cudaGetLastError ();
      return false;
    }
  snprintf (name, size, "%.200s (sm_%d%d, %d SMs)", properties.name, properties.major, properties.minor,
            properties.multiProcessorCount);
  return true;
}

extern "C" shepard_status
shepard_cuda_backend_new (int device, shepard_cuda_backend **backend, shepard_error *error)
{
  try
    {
      return backend_new (device, backend, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The CUDA backend failed to start.");
    }
}

extern "C" void
shepard_cuda_backend_free (shepard_cuda_backend *backend)
{
  if (!backend)
    return;
  cudaSetDevice (backend->device);
  free_points (backend);
  free_band (backend->band);
  free_cv_buffers (backend->cv);
  if (backend->scan_storage)
    cudaFree (backend->scan_storage);
  for (cudaEvent_t mark : backend->marks)
    if (mark)
      cudaEventDestroy (mark);
  if (backend->side_may_start)
    cudaEventDestroy (backend->side_may_start);
  if (backend->side_done)
    cudaEventDestroy (backend->side_done);
  for (cudaEvent_t done : backend->slice_done)
    if (done)
      cudaEventDestroy (done);
  if (backend->slices_may_start)
    cudaEventDestroy (backend->slices_may_start);
  for (cudaStream_t stream : backend->slice_streams)
    if (stream)
      cudaStreamDestroy (stream);
  if (backend->side_stream)
    cudaStreamDestroy (backend->side_stream);
  if (backend->stream)
    cudaStreamDestroy (backend->stream);
  delete backend;
}

extern "C" const char *
shepard_cuda_backend_device_name (const shepard_cuda_backend *backend)
{
  return backend->device_name;
}

extern "C" shepard_status
shepard_cuda_backend_set_points (shepard_cuda_backend *backend, const shepard_point_set *points, shepard_error *error)
{
  try
    {
      return set_points (backend, points, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "Copying the points to the GPU failed.");
    }
}

extern "C" shepard_status
shepard_cuda_backend_set_far_field (shepard_cuda_backend *backend, const shepard_far_field *far_field,
                                    shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  cudaError_t status = upload_far_field (far_field, backend->far_field);
  if (status != cudaSuccess)
    return cuda_failure (error, status, "copying the far field's tree to the GPU");
  return SHEPARD_OK;
}

extern "C" void
shepard_cuda_backend_set_variant (shepard_cuda_backend *backend, const shepard_cuda_variant *variant)
{
  backend->variant = *variant;
}

extern "C" void
shepard_cuda_backend_clear_timings (shepard_cuda_backend *backend)
{
  backend->timings = shepard_cuda_timings ();
}

extern "C" void
shepard_cuda_backend_last_timings (const shepard_cuda_backend *backend, shepard_cuda_timings *timings)
{
  *timings = backend->timings;
}

extern "C" int
shepard_cuda_backend_device (const shepard_cuda_backend *backend)
{
  return backend->device;
}
