// SPDX-License-Identifier: GPL-3.0-or-later
// Standard IDW with CUDA Dynamic Parallelism, the structure Mei (2014) measured: each thread of a parent grid owns one
// query and launches a child grid that weighs all the data points for it.
//
// CUDA 12 and later (CDP2) have no device-side cudaDeviceSynchronize, so no parent thread waits for its child, and
// none divides. Each child block sums weights and weighted values over its slice of the points and adds them to the
// query's float64 accumulators with atomics; the division runs in a separate kernel that the host launches on the
// same stream after the parent grids. A grid launched from the host completes only when every child grid it launched
// has completed, so stream order alone makes all the children's atomics visible to the division.
// Children go to the fire-and-forget stream: those of one parent block then run concurrently instead of being
// serialised in the block's implicit stream. Each parent grid covers a band of at most the device runtime's
// pending-launch limit of queries, so that no child launch can overflow the launch pool; a child launch that fails
// anyway is recorded in device memory and reported by the host.

#include "cdp-idw.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdarg>
#include <cstdio>

namespace {

constexpr unsigned PARENT_THREADS = 128;
constexpr unsigned CHILD_THREADS = 256;
constexpr unsigned DIVISION_THREADS = 256;
constexpr unsigned WARP_SIZE = 32;
constexpr unsigned CHILD_WARPS = CHILD_THREADS / WARP_SIZE;
// Each child thread weighs about this many points: the child grid of a million points has 1024 blocks.
constexpr unsigned POINTS_PER_CHILD_THREAD = 4;

struct QueryAccumulator {
  double weight_sum;
  double weighted_value_sum;
  double coincident_value_sum; // values of the points at distance 0 from the query
  double coincident_count;
};

__device__ float
warp_sum (float value)
{
  for (unsigned offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    value += __shfl_down_sync (0xffffffffu, value, offset);
  return value;
}

// Sums of one block, valid in thread 0 only.
struct BlockSums {
  float weight, weighted_value, coincident_value, coincident_count;
};

__device__ BlockSums
block_sum (BlockSums sums)
{
  __shared__ BlockSums warp_sums[CHILD_WARPS];
  const unsigned lane = threadIdx.x % WARP_SIZE;
  const unsigned warp = threadIdx.x / WARP_SIZE;

  sums = { warp_sum (sums.weight), warp_sum (sums.weighted_value), warp_sum (sums.coincident_value),
           warp_sum (sums.coincident_count) };
  if (lane == 0)
    warp_sums[warp] = sums;
  __syncthreads ();
  if (warp == 0)
    {
      sums = lane < CHILD_WARPS ? warp_sums[lane] : BlockSums {};
      sums = { warp_sum (sums.weight), warp_sum (sums.weighted_value), warp_sum (sums.coincident_value),
               warp_sum (sums.coincident_count) };
    }
  return sums;
}

template <bool InverseSquare>
__global__ void __launch_bounds__ (CHILD_THREADS)
weigh_points_for_query (const float *__restrict__ x, const float *__restrict__ y, const float *__restrict__ z,
                        unsigned n_points, float query_x, float query_y, float minus_half_power,
                        QueryAccumulator *accumulator)
{
  BlockSums sums {};
  const unsigned stride = gridDim.x * blockDim.x;

  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n_points; i += stride)
    {
      const float dx = query_x - x[i];
      const float dy = query_y - y[i];
      const float d2 = fmaf (dx, dx, dy * dy);
      const float value = z[i];
      const bool coincident = d2 == 0.0f;
      const float weight = coincident ? 0.0f
                           : InverseSquare ? __frcp_rn (d2)
                                           : exp2f (minus_half_power * __log2f (d2));

      sums.weight += weight;
      sums.weighted_value = fmaf (weight, value, sums.weighted_value);
      sums.coincident_value += coincident ? value : 0.0f;
      sums.coincident_count += coincident ? 1.0f : 0.0f;
    }

  sums = block_sum (sums);
  if (threadIdx.x == 0)
    {
      atomicAdd (&accumulator->weight_sum, (double) sums.weight);
      atomicAdd (&accumulator->weighted_value_sum, (double) sums.weighted_value);
      if (sums.coincident_count > 0.0f)
        {
          atomicAdd (&accumulator->coincident_value_sum, (double) sums.coincident_value);
          atomicAdd (&accumulator->coincident_count, (double) sums.coincident_count);
        }
    }
}

template <bool InverseSquare>
__global__ void __launch_bounds__ (PARENT_THREADS)
launch_child_per_query (const float *x, const float *y, const float *z, unsigned n_points, unsigned child_blocks,
                        const float *query_x, const float *query_y, unsigned first_query, unsigned band_queries,
                        float minus_half_power, QueryAccumulator *accumulators, int *launch_error)
{
  const unsigned band_index = blockIdx.x * blockDim.x + threadIdx.x;

  if (band_index >= band_queries)
    return;
  const unsigned query = first_query + band_index;
  weigh_points_for_query<InverseSquare><<<child_blocks, CHILD_THREADS, 0, cudaStreamFireAndForget>>> (
    x, y, z, n_points, query_x[query], query_y[query], minus_half_power, accumulators + query);
  const cudaError_t status = cudaGetLastError ();
  if (status != cudaSuccess)
    atomicCAS (launch_error, 0, (int) status);
}

// A query on data points takes the mean of their values; elsewhere the weighted mean.
__global__ void
divide_sums (const QueryAccumulator *accumulators, unsigned n_queries, float *values)
{
  const unsigned query = blockIdx.x * blockDim.x + threadIdx.x;

  if (query >= n_queries)
    return;
  const QueryAccumulator sums = accumulators[query];
  values[query] = (float) (sums.coincident_count > 0.0 ? sums.coincident_value_sum / sums.coincident_count
                                                       : sums.weighted_value_sum / sums.weight_sum);
}

__attribute__ ((format (printf, 4, 5))) shepard_bench_cdp_status
report (char *message, size_t size, shepard_bench_cdp_status status, const char *format, ...)
{
  if (message && size > 0)
    {
      va_list arguments;
      va_start (arguments, format);
      vsnprintf (message, size, format, arguments);
      va_end (arguments);
    }
  return status;
}

// True when status is an error, which is then described in message and cleared.
bool
cuda_failed (cudaError_t status, const char *doing, char *message, size_t size)
{
  if (status == cudaSuccess)
    return false;
  report (message, size, SHEPARD_BENCH_CDP_DEVICE_ERROR, "CUDA Dynamic Parallelism IDW: %s failed: %s (%s)", doing,
          cudaGetErrorName (status), cudaGetErrorString (status));
  cudaGetLastError ();
  return true;
}

unsigned
blocks_for (size_t items, size_t per_block)
{
  return (unsigned) ((items + per_block - 1) / per_block);
}

// Everything one call allocates on the device, released on every way out.
struct DeviceState {
  float *x = nullptr, *y = nullptr, *z = nullptr;
  float *query_x = nullptr, *query_y = nullptr, *values = nullptr;
  QueryAccumulator *accumulators = nullptr;
  int *launch_error = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;

  DeviceState () = default;
  DeviceState (const DeviceState &) = delete;
  DeviceState &operator= (const DeviceState &) = delete;
  ~DeviceState ()
  {
    if (stream)
      cudaStreamSynchronize (stream);
    for (void *buffer : { (void *) x, (void *) y, (void *) z, (void *) query_x, (void *) query_y, (void *) values,
                          (void *) accumulators, (void *) launch_error })
      cudaFree (buffer);
    if (start)
      cudaEventDestroy (start);
    if (stop)
      cudaEventDestroy (stop);
    if (stream)
      cudaStreamDestroy (stream);
    cudaGetLastError ();
  }
};

} // namespace

extern "C" shepard_bench_cdp_status
shepard_bench_cdp_idw (const float *x, const float *y, const float *z, size_t n_points, const float *query_x,
                       const float *query_y, size_t n_queries, float power, float *values, double *kernel_ms,
                       char *message, size_t size)
{
  if (message && size > 0)
    message[0] = '\0';
  if (!x || !y || !z || !query_x || !query_y || !values)
    return report (message, size, SHEPARD_BENCH_CDP_INVALID_ARGUMENT,
                   "CUDA Dynamic Parallelism IDW: an input or output array is missing");
  if (n_points == 0 || n_queries == 0)
    return report (message, size, SHEPARD_BENCH_CDP_INVALID_ARGUMENT,
                   "CUDA Dynamic Parallelism IDW: %zu data points and %zu queries: both must be at least 1",
                   n_points, n_queries);
  if (n_points > INT_MAX || n_queries > INT_MAX)
    return report (message, size, SHEPARD_BENCH_CDP_INVALID_ARGUMENT,
                   "CUDA Dynamic Parallelism IDW: %zu data points and %zu queries: at most %d of each", n_points,
                   n_queries, INT_MAX);
  if (!(power > 0.0f) || !std::isfinite (power))
    return report (message, size, SHEPARD_BENCH_CDP_INVALID_ARGUMENT,
                   "CUDA Dynamic Parallelism IDW: the power must be positive and finite, not %g", (double) power);

  int device_count = 0;
  const cudaError_t count_status = cudaGetDeviceCount (&device_count);
  if (count_status != cudaSuccess)
    {
      cudaGetLastError ();
      return report (message, size, SHEPARD_BENCH_CDP_NO_DEVICE, "CUDA Dynamic Parallelism IDW: no CUDA device: %s (%s)",
                     cudaGetErrorName (count_status), cudaGetErrorString (count_status));
    }
  if (device_count == 0)
    return report (message, size, SHEPARD_BENCH_CDP_NO_DEVICE,
                   "CUDA Dynamic Parallelism IDW: no CUDA device: the driver lists no GPU");

  size_t pending_launch_limit = 0;
  if (cuda_failed (cudaDeviceGetLimit (&pending_launch_limit, cudaLimitDevRuntimePendingLaunchCount),
                   "reading the pending launch limit", message, size))
    return SHEPARD_BENCH_CDP_DEVICE_ERROR;
  const size_t band = std::max<size_t> (pending_launch_limit, 1);

  const size_t point_bytes = n_points * sizeof (float);
  const size_t query_bytes = n_queries * sizeof (float);
  DeviceState device;
  if (cuda_failed (cudaStreamCreateWithFlags (&device.stream, cudaStreamNonBlocking), "creating a stream", message,
                   size)
      || cuda_failed (cudaEventCreate (&device.start), "creating an event", message, size)
      || cuda_failed (cudaEventCreate (&device.stop), "creating an event", message, size)
      || cuda_failed (cudaMalloc (&device.x, point_bytes), "allocating the points", message, size)
      || cuda_failed (cudaMalloc (&device.y, point_bytes), "allocating the points", message, size)
      || cuda_failed (cudaMalloc (&device.z, point_bytes), "allocating the points", message, size)
      || cuda_failed (cudaMalloc (&device.query_x, query_bytes), "allocating the queries", message, size)
      || cuda_failed (cudaMalloc (&device.query_y, query_bytes), "allocating the queries", message, size)
      || cuda_failed (cudaMalloc (&device.values, query_bytes), "allocating the values", message, size)
      || cuda_failed (cudaMalloc (&device.accumulators, n_queries * sizeof (QueryAccumulator)),
                      "allocating the sums", message, size)
      || cuda_failed (cudaMalloc (&device.launch_error, sizeof (int)), "allocating the launch status", message, size)
      || cuda_failed (cudaMemcpyAsync (device.x, x, point_bytes, cudaMemcpyHostToDevice, device.stream),
                      "copying the points", message, size)
      || cuda_failed (cudaMemcpyAsync (device.y, y, point_bytes, cudaMemcpyHostToDevice, device.stream),
                      "copying the points", message, size)
      || cuda_failed (cudaMemcpyAsync (device.z, z, point_bytes, cudaMemcpyHostToDevice, device.stream),
                      "copying the points", message, size)
      || cuda_failed (cudaMemcpyAsync (device.query_x, query_x, query_bytes, cudaMemcpyHostToDevice, device.stream),
                      "copying the queries", message, size)
      || cuda_failed (cudaMemcpyAsync (device.query_y, query_y, query_bytes, cudaMemcpyHostToDevice, device.stream),
                      "copying the queries", message, size)
      || cuda_failed (cudaMemsetAsync (device.accumulators, 0, n_queries * sizeof (QueryAccumulator), device.stream),
                      "clearing the sums", message, size)
      || cuda_failed (cudaMemsetAsync (device.launch_error, 0, sizeof (int), device.stream),
                      "clearing the launch status", message, size)
      || cuda_failed (cudaEventRecord (device.start, device.stream), "recording an event", message, size))
    return SHEPARD_BENCH_CDP_DEVICE_ERROR;

  const bool inverse_square = power == 2.0f;
  const float minus_half_power = -0.5f * power;
  const unsigned child_blocks = blocks_for (n_points, (size_t) CHILD_THREADS * POINTS_PER_CHILD_THREAD);
  for (size_t first_query = 0; first_query < n_queries; first_query += band)
    {
      const unsigned band_queries = (unsigned) std::min (band, n_queries - first_query);
      const unsigned parent_blocks = blocks_for (band_queries, PARENT_THREADS);
      if (inverse_square)
        launch_child_per_query<true><<<parent_blocks, PARENT_THREADS, 0, device.stream>>> (
          device.x, device.y, device.z, (unsigned) n_points, child_blocks, device.query_x, device.query_y,
          (unsigned) first_query, band_queries, minus_half_power, device.accumulators, device.launch_error);
      else
        launch_child_per_query<false><<<parent_blocks, PARENT_THREADS, 0, device.stream>>> (
          device.x, device.y, device.z, (unsigned) n_points, child_blocks, device.query_x, device.query_y,
          (unsigned) first_query, band_queries, minus_half_power, device.accumulators, device.launch_error);
      if (cuda_failed (cudaGetLastError (), "launching the parent grid", message, size))
        return SHEPARD_BENCH_CDP_DEVICE_ERROR;
    }
  divide_sums<<<blocks_for (n_queries, DIVISION_THREADS), DIVISION_THREADS, 0, device.stream>>> (
    device.accumulators, (unsigned) n_queries, device.values);

  int launch_error = 0;
  float elapsed_ms = 0.0f;
  if (cuda_failed (cudaGetLastError (), "launching the division", message, size)
      || cuda_failed (cudaEventRecord (device.stop, device.stream), "recording an event", message, size)
      || cuda_failed (cudaMemcpyAsync (values, device.values, query_bytes, cudaMemcpyDeviceToHost, device.stream),
                      "copying the values back", message, size)
      || cuda_failed (cudaMemcpyAsync (&launch_error, device.launch_error, sizeof (int), cudaMemcpyDeviceToHost,
                                       device.stream),
                      "copying the launch status back", message, size)
      || cuda_failed (cudaStreamSynchronize (device.stream), "running the kernels", message, size)
      || cuda_failed (cudaEventElapsedTime (&elapsed_ms, device.start, device.stop), "timing the kernels", message,
                      size))
    return SHEPARD_BENCH_CDP_DEVICE_ERROR;
  if (launch_error != 0)
    return report (message, size, SHEPARD_BENCH_CDP_DEVICE_ERROR,
                   "CUDA Dynamic Parallelism IDW: a child grid launch failed in the parent grid: %s (%s)",
                   cudaGetErrorName ((cudaError_t) launch_error), cudaGetErrorString ((cudaError_t) launch_error));
  if (kernel_ms)
    *kernel_ms = elapsed_ms;
  return SHEPARD_BENCH_CDP_OK;
}
