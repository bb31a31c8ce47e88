// SPDX-License-Identifier: GPL-3.0-or-later
// Stage 2 on the device: weighted sums over all points, for the queries that stage 1 left open.
//
// Weights are w = 2^(e * log2 (d2 + S^2) + offset) = ((d2 + S^2) / (d2_nearest + S^2))^e with e = -p/2 (or -alpha/2)
// and S the smoothing (0 without), so the nearest point weighs about 1 and no weight overflows; p = 2 without
// smoothing uses one reciprocal instead. Each launch weighs one field (DevicePoints::field). Sums run in float over short runs of
// points and go into double after each: nearly equal weights (a distant cluster) would lose ~1e-5 in a long float
// sum.
//
// The tiled kernel shifts each tile of points to the origin of the block's patch of the raster while loading it into
// shared memory (hi and lo parts subtracted separately), so nearby points keep their precision without any extra work
// per pair. Two transcendental operations per pair would bound the rate at the special-function units' throughput;
// two queries in eight therefore compute their 2^y as a polynomial on the FMA pipes.
#include "cuda-fast-math.cuh"
#include "cuda-internal.cuh"

namespace shepard_cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kPatchColumns = 32;
constexpr int kRowsOfThreads = kThreads / kPatchColumns;
// Tuned on an H200 (1M x 1M AIDW): 8 queries per thread share each point read from shared memory, queries 3 and 7
// of a thread take the polynomial 2^y, sums go into double every 64 points, the inner loop unrolled 8 times.
constexpr int kQueriesPerThread = 8;
constexpr unsigned kPolynomialMask = 0x88; // query q uses the polynomial when bit q is set
constexpr int kTilePoints = kThreads;
constexpr int kUnroll = 8;
constexpr int kRun = 64; // points summed in float before going into a float64 sum
constexpr int kMaxSplits = 16;

// Several blocks (and launches) add into one query's sums.
__device__ __forceinline__ void
add_sums (const Stage1Outputs &stage1, int i, double total_w, double total_wz)
{
  atomicAdd (&stage1.sum_w[i], total_w);
  atomicAdd (&stage1.sum_wz[i], total_wz);
}

__global__ void
finish_kernel (Stage1Outputs stage1, int count)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count && !stage1.done[i])
    stage1.value[i] = (float) (stage1.sum_wz[i] / stage1.sum_w[i]);
}

// NaN (no data) stays NaN.
__global__ void
values_to_given_kernel (float *values, size_t count, double origin, double scale)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count)
    values[i] = (float) (origin + (double) values[i] / scale);
}

template <bool InverseSquare, bool Polynomial, bool Clamp = true>
__device__ __forceinline__ float
weight (float d2, float exponent, float offset)
{
  if (InverseSquare)
    return fast_reciprocal (d2);
  float y = fmaf (exponent, fast_log2 (d2), offset);
  return Polynomial ? polynomial_exp2<Clamp> (y) : fast_exp2 (y);
}

struct PointHiLo {
  float x_hi, y_hi, x_lo, y_lo, z;
};

template <shepard_cuda_layout Layout>
__device__ __forceinline__ PointHiLo
load_point (const DevicePoints &points, size_t p)
{
  if (Layout == SHEPARD_CUDA_LAYOUT_AOAS)
    {
      float4 hz = points.hi_z[p];
      float2 lo = points.lo[p];
      return { hz.x, hz.y, lo.x, lo.y, hz.z };
    }
  return { points.x_hi[p], points.y_hi[p], points.x_lo[p], points.y_lo[p], points.z[p] };
}

__device__ __forceinline__ void
split (double value, float &hi, float &lo)
{
  hi = (float) value;
  lo = (float) (value - (double) hi);
}

// Raster queries: a block owns a patch of kPatchColumns x (kRowsOfThreads * Q) cells of the band; thread (tx, ty)
// owns column tx and rows ty, ty + kRowsOfThreads, ... of the patch.
template <int Q, bool InverseSquare, shepard_cuda_layout Layout, bool Clamp>
__global__ void __launch_bounds__ (kThreads)
tiled_grid_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointChunk chunk, float smoothing2)
{
  __shared__ float4 tile[kTilePoints];
  // The float64 sums live in shared memory, touched once per run of points: registers are what limits occupancy.
  __shared__ double total_w[Q][kThreads], total_wz[Q][kThreads];
  const int tx = threadIdx.x % kPatchColumns, ty = threadIdx.x / kPatchColumns;
  const int band_rows = source.count / source.width;
  const int patch_col = blockIdx.x * kPatchColumns, patch_row = blockIdx.y * kRowsOfThreads * Q;
  const long long band_first_row = source.first_index / source.width;

  // The patch's centre, in the local frame.
  const double origin_col = (double) (source.first_column + patch_col) + 0.5 * kPatchColumns;
  const double origin_row = (double) (source.first_row + band_first_row + patch_row) + 0.5 * kRowsOfThreads * Q;
  float origin_x_hi, origin_x_lo, origin_y_hi, origin_y_lo;
  split (source.x_left + origin_col * source.dx, origin_x_hi, origin_x_lo);
  split (source.y_top - origin_row * source.dy, origin_y_hi, origin_y_lo);

  const int col = patch_col + tx;
  // The thread's queries share a column: one x, so one dx^2 per point serves all of them.
  const float qx = (float) (((double) (source.first_column + col) + 0.5 - origin_col) * source.dx);
  float qy[Q], exponent[Q], offset[Q];
  int index[Q];
#pragma unroll
  for (int q = 0; q < Q; q++)
    {
      int row = patch_row + ty + q * kRowsOfThreads;
      bool inside = col < source.width && row < band_rows;
      index[q] = inside ? row * source.width + col : -1;
      qy[q] = (float) ((origin_row - ((double) (source.first_row + band_first_row + row) + 0.5)) * source.dy);
      exponent[q] = inside ? stage1.exponent[index[q]] : -1.0f;
      offset[q] = inside ? stage1.offset[index[q]] : 0.0f;
      total_w[q][threadIdx.x] = 0.0;
      total_wz[q][threadIdx.x] = 0.0;
    }

  // blockIdx.z picks this block's share of the chunk: splitting the points evens the blocks out over the device.
  size_t share = (chunk.end - chunk.begin + gridDim.z - 1) / gridDim.z;
  share = (share + kTilePoints - 1) / kTilePoints * kTilePoints;
  const size_t first_point = chunk.begin + blockIdx.z * share;
  const size_t end_point = first_point + share < chunk.end ? first_point + share : chunk.end;
  for (size_t base = first_point; base < end_point; base += kTilePoints)
    {
      __syncthreads ();
      for (int slot = threadIdx.x; slot < kTilePoints; slot += kThreads)
        {
          size_t p = base + slot;
          // Past the share's end a point far away with no value: weight 0 through the power path, and a weight of
          // about 1e-19 (whose paired product stays finite) through the reciprocal.
          float4 shifted = make_float4 (InverseSquare ? 3e9f : INFINITY, 0.0f, 0.0f, 0.0f);
          if (p < end_point)
            {
              PointHiLo point = load_point<Layout> (points, p);
              shifted = make_float4 ((point.x_hi - origin_x_hi) + (point.x_lo - origin_x_lo),
                                     (point.y_hi - origin_y_hi) + (point.y_lo - origin_y_lo), point.z, 0.0f);
            }
          tile[slot] = shifted;
        }
      __syncthreads ();

      for (int run = 0; run < kTilePoints; run += kRun)
        {
          float run_w[Q], run_wz[Q];
#pragma unroll
          for (int q = 0; q < Q; q++)
            run_w[q] = run_wz[q] = 0.0f;
#pragma unroll kUnroll
          for (int j = run; j < run + kRun; j++)
            {
              float4 point = tile[j];
              float dx = qx - point.x;
              float dx2 = fmaf (dx, dx, smoothing2);
              float d2[Q];
#pragma unroll
              for (int q = 0; q < Q; q++)
                {
                  float dy = qy[q] - point.y;
                  d2[q] = fmaf (dy, dy, dx2);
                }
              float w[Q];
              if (InverseSquare)
                {
                  // One reciprocal for two pairs: 1/a = b / (a b) and 1/b = a / (a b). Squared distances lie within
                  // [1e-14, 1e6] in the local frame, so the product stays a normal float.
#pragma unroll
                  for (int q = 0; q + 1 < Q; q += 2)
                    {
                      float r = fast_reciprocal (d2[q] * d2[q + 1]);
                      w[q] = d2[q + 1] * r;
                      w[q + 1] = d2[q] * r;
                    }
                  if (Q % 2)
                    w[Q - 1] = fast_reciprocal (d2[Q - 1]);
                }
              else
                {
#pragma unroll
                  for (int q = 0; q < Q; q++)
                    w[q] = (kPolynomialMask >> q & 1u)
                               ? weight<false, true, Clamp> (d2[q], exponent[q], offset[q])
                               : weight<false, false> (d2[q], exponent[q], offset[q]);
                }
#pragma unroll
              for (int q = 0; q < Q; q++)
                {
                  run_w[q] += w[q];
                  run_wz[q] = fmaf (w[q], point.z, run_wz[q]);
                }
            }
#pragma unroll
          for (int q = 0; q < Q; q++)
            {
              total_w[q][threadIdx.x] += run_w[q];
              total_wz[q][threadIdx.x] += run_wz[q];
            }
        }
    }

#pragma unroll
  for (int q = 0; q < Q; q++)
    if (index[q] >= 0)
      add_sums (stage1, index[q], total_w[q][threadIdx.x], total_wz[q][threadIdx.x]);
}

// d2 + S^2 (S^2 = 0 without smoothing), at the cost of d2 alone.
__device__ __forceinline__ float
pair_squared_distance (float qx_hi, float qx_lo, float qy_hi, float qy_lo, float x_hi, float x_lo, float y_hi,
                       float y_lo, float smoothing2)
{
  float dx = (qx_hi - x_hi) + (qx_lo - x_lo);
  float dy = (qy_hi - y_hi) + (qy_lo - y_lo);
  return fmaf (dx, dx, fmaf (dy, dy, smoothing2));
}

// Arbitrary query points, in no spatial order: tiles in shared memory, but each pair subtracts hi and lo parts.
template <bool InverseSquare>
__global__ void __launch_bounds__ (kThreads)
tiled_list_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointChunk chunk, float smoothing2)
{
  __shared__ float4 tile[kThreads];
  __shared__ float tile_z[kThreads];
  int i = blockIdx.x * kThreads + threadIdx.x;
  bool inside = i < source.count;
  double x = 0.0, y = 0.0;
  if (inside)
    query_position (source, i, x, y);
  float qx_hi, qx_lo, qy_hi, qy_lo;
  split (x, qx_hi, qx_lo);
  split (y, qy_hi, qy_lo);
  float exponent = inside ? stage1.exponent[i] : -1.0f, offset = inside ? stage1.offset[i] : 0.0f;
  double total_w = 0.0, total_wz = 0.0;
  for (size_t base = chunk.begin; base < chunk.end; base += kThreads)
    {
      size_t p = base + threadIdx.x;
      float4 loaded = make_float4 (INFINITY, 0.0f, 0.0f, 0.0f);
      float z = 0.0f;
      if (p < chunk.end)
        {
          float4 hz = points.hi_z[p];
          float2 lo = points.lo[p];
          loaded = make_float4 (hz.x, hz.y, lo.x, lo.y);
          z = hz.z;
        }
      __syncthreads ();
      tile[threadIdx.x] = loaded;
      tile_z[threadIdx.x] = z;
      __syncthreads ();
      float tile_w = 0.0f, tile_wz = 0.0f;
      for (int run = 0; run < kThreads; run += kRun)
        {
          float run_w = 0.0f, run_wz = 0.0f;
          for (int j = run; j < run + kRun; j++)
            {
              float4 point = tile[j];
              float d2 = pair_squared_distance (qx_hi, qx_lo, qy_hi, qy_lo, point.x, point.z, point.y, point.w,
                                                smoothing2);
              float w = weight<InverseSquare, false> (d2, exponent, offset);
              run_w += w;
              run_wz = fmaf (w, tile_z[j], run_wz);
            }
          tile_w += run_w;
          tile_wz += run_wz;
        }
      total_w += tile_w;
      total_wz += tile_wz;
    }
  if (inside)
    add_sums (stage1, i, total_w, total_wz);
}

// Mei (2014)'s naive kernel: one query per thread, every point read from global memory.
template <bool InverseSquare, shepard_cuda_layout Layout>
__global__ void __launch_bounds__ (kThreads)
naive_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointChunk chunk, float smoothing2)
{
  int i = blockIdx.x * kThreads + threadIdx.x;
  if (i >= source.count || stage1.done[i])
    return;
  double x, y;
  query_position (source, i, x, y);
  float qx_hi, qx_lo, qy_hi, qy_lo;
  split (x, qx_hi, qx_lo);
  split (y, qy_hi, qy_lo);
  float exponent = stage1.exponent[i], offset = stage1.offset[i];
  double total_w = 0.0, total_wz = 0.0;
  for (size_t base = chunk.begin; base < chunk.end; base += kRun)
    {
      size_t end = base + kRun < chunk.end ? base + kRun : chunk.end;
      float run_w = 0.0f, run_wz = 0.0f;
      for (size_t p = base; p < end; p++)
        {
          PointHiLo point = load_point<Layout> (points, p);
          float d2 = pair_squared_distance (qx_hi, qx_lo, qy_hi, qy_lo, point.x_hi, point.x_lo, point.y_hi,
                                            point.y_lo, smoothing2);
          float w = weight<InverseSquare, false> (d2, exponent, offset);
          run_w += w;
          run_wz = fmaf (w, point.z, run_wz);
        }
      total_w += run_w;
      total_wz += run_wz;
    }
  add_sums (stage1, i, total_w, total_wz);
}

// Splits each patch's points over several blocks (blockIdx.z), as choose_point_splits finds best.
template <int Q, bool InverseSquare, shepard_cuda_layout Layout>
cudaError_t
launch_tiled (dim3 blocks, const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
              const PointChunk &chunk, float smoothing2, bool clamp, int multiprocessors, cudaStream_t stream)
{
  // A partly filled last tile is padded with points at infinity, whose 2^-inf the unclamped polynomial would turn
  // into NaN: such a chunk takes the clamped kernel too. The reciprocal needs no clamp: one instance serves it.
  bool padded = (chunk.end - chunk.begin) % kTilePoints != 0;
  auto kernel = InverseSquare || !(clamp || padded) ? tiled_grid_kernel<Q, InverseSquare, Layout, false>
                                                    : tiled_grid_kernel<Q, InverseSquare, Layout, true>;
  int splits = 1;
  cudaError_t status = choose_point_splits ((const void *) kernel, kThreads, multiprocessors,
                                            (long long) blocks.x * blocks.y, chunk.end - chunk.begin, kTilePoints,
                                            kMaxSplits, &splits);
  if (status != cudaSuccess)
    return status;
  blocks.z = (unsigned) splits;
  kernel<<<blocks, kThreads, 0, stream>>> (points, queries, stage1, chunk, smoothing2);
  return cudaGetLastError ();
}

template <bool InverseSquare>
cudaError_t
launch_for (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
            const PointChunk &chunk, float smoothing2, shepard_cuda_weighting weighting, shepard_cuda_layout layout,
            bool clamp, int multiprocessors, cudaStream_t stream)
{
  if (weighting == SHEPARD_CUDA_WEIGHTING_NAIVE)
    {
      int blocks = (queries.count + kThreads - 1) / kThreads;
      if (layout == SHEPARD_CUDA_LAYOUT_SOA)
        naive_kernel<InverseSquare, SHEPARD_CUDA_LAYOUT_SOA>
            <<<blocks, kThreads, 0, stream>>> (points, queries, stage1, chunk, smoothing2);
      else
        naive_kernel<InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS>
            <<<blocks, kThreads, 0, stream>>> (points, queries, stage1, chunk, smoothing2);
      return cudaGetLastError ();
    }
  if (!queries.is_grid)
    {
      int blocks = (queries.count + kThreads - 1) / kThreads;
      tiled_list_kernel<InverseSquare><<<blocks, kThreads, 0, stream>>> (points, queries, stage1, chunk,
                                                                          smoothing2);
      return cudaGetLastError ();
    }
  // Eight queries per thread share each point read, but a small raster then makes too few blocks to fill the
  // device: take the most queries per thread that still give every multiprocessor two blocks.
  int band_rows = queries.count / queries.width;
  int columns = (queries.width + kPatchColumns - 1) / kPatchColumns;
  auto blocks_for = [&] (int q) { return dim3 (columns, (band_rows + kRowsOfThreads * q - 1) / (kRowsOfThreads * q)); };
  auto enough = [&] (int q) { dim3 b = blocks_for (q); return (long long) b.x * b.y >= 2LL * multiprocessors; };
  int q = enough (kQueriesPerThread) ? kQueriesPerThread : enough (2) ? 2 : 1;
  dim3 blocks = blocks_for (q);
  if (layout == SHEPARD_CUDA_LAYOUT_SOA)
    {
      if (q == kQueriesPerThread)
        return launch_tiled<kQueriesPerThread, InverseSquare, SHEPARD_CUDA_LAYOUT_SOA> (
            blocks, points, queries, stage1, chunk, smoothing2, clamp, multiprocessors, stream);
      if (q == 2)
        return launch_tiled<2, InverseSquare, SHEPARD_CUDA_LAYOUT_SOA> (blocks, points, queries, stage1, chunk,
                                                                       smoothing2, clamp, multiprocessors, stream);
      return launch_tiled<1, InverseSquare, SHEPARD_CUDA_LAYOUT_SOA> (blocks, points, queries, stage1, chunk,
                                                                     smoothing2, clamp, multiprocessors, stream);
    }
  if (q == kQueriesPerThread)
    return launch_tiled<kQueriesPerThread, InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS> (
        blocks, points, queries, stage1, chunk, smoothing2, clamp, multiprocessors, stream);
  if (q == 2)
    return launch_tiled<2, InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS> (blocks, points, queries, stage1, chunk,
                                                                    smoothing2, clamp, multiprocessors, stream);
  return launch_tiled<1, InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS> (blocks, points, queries, stage1, chunk,
                                                                  smoothing2, clamp, multiprocessors, stream);
}

} // namespace

bool
weights_may_underflow (const shepard_params *params, double largest_d2, double smallest_d2)
{
  double largest_exponent = 0.5 * params->power;
  if (params->method == SHEPARD_METHOD_AIDW)
    for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
      largest_exponent = fmax (largest_exponent, 0.5 * params->alpha[level]);
  return !(largest_exponent * log2 (largest_d2 / smallest_d2) < 120.0);
}

cudaError_t
choose_point_splits (const void *kernel, int threads, int multiprocessors, long long blocks_per_split, size_t points,
                     int tile_points, int max_splits, int *splits)
{
  int per_multiprocessor = 0;
  cudaError_t status = cudaOccupancyMaxActiveBlocksPerMultiprocessor (&per_multiprocessor, kernel, threads, 0);
  if (status != cudaSuccess)
    return status;
  long long slots = (long long) (per_multiprocessor > 0 ? per_multiprocessor : 1) * multiprocessors;
  long long tiles = (long long) ((points + (size_t) tile_points - 1) / (size_t) tile_points);
  int most = (int) (tiles < max_splits ? tiles : max_splits);
  int best = 1;
  double best_use = 0.0;
  for (int candidate = 1; candidate <= most; candidate++)
    {
      long long work = blocks_per_split * candidate, waves = (work + slots - 1) / slots;
      double use = (double) work / (double) (waves * slots);
      // More splits only when they fill the waves clearly better: each adds a pass of atomics.
      if (use > best_use + 0.02)
        {
          best_use = use;
          best = candidate;
        }
    }
  *splits = best;
  return cudaSuccess;
}

cudaError_t
finish_stage2 (const Stage1Outputs &stage1, int count, cudaStream_t stream)
{
  finish_kernel<<<(count + kThreads - 1) / kThreads, kThreads, 0, stream>>> (stage1, count);
  return cudaGetLastError ();
}

cudaError_t
launch_stage2 (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
               const PointChunk &chunk, bool inverse_square, float smoothing2, shepard_cuda_weighting weighting,
               shepard_cuda_layout layout, bool clamp, int multiprocessors, cudaStream_t stream)
{
  return inverse_square ? launch_for<true> (points, queries, stage1, chunk, smoothing2, weighting, layout, clamp,
                                            multiprocessors, stream)
                        : launch_for<false> (points, queries, stage1, chunk, smoothing2, weighting, layout, clamp,
                                             multiprocessors, stream);
}

cudaError_t
launch_values_to_given (float *values, size_t count, double origin, double scale, cudaStream_t stream)
{
  if (count == 0)
    return cudaSuccess;
  values_to_given_kernel<<<(unsigned) ((count + kThreads - 1) / kThreads), kThreads, 0, stream>>> (values, count,
                                                                                                  origin, scale);
  return cudaGetLastError ();
}

} // namespace shepard_cuda
