// SPDX-License-Identifier: GPL-3.0-or-later
// Stage 2 on the device: weighted sums over all points, for the queries that stage 1 left open.
//
// Weights are w = 2^(e * log2 (d2 + S^2) + offset) = ((d2 + S^2) / (d2_nearest + S^2))^e with e = -p/2 (or -alpha/2)
// and S the smoothing (0 without), so the nearest point weighs about 1 and no weight overflows; p = 2 without
// smoothing uses one reciprocal instead. Each launch weighs one field (DevicePoints::field). Sums run in float over short runs of
// points and go into double after each: nearly equal weights (a distant cluster) would lose ~1e-5 in a long float
// sum.
//
// Every kernel weighs the point groups of PointGroups (blockIdx.z), each into its own running sums, which it reads
// back when a launch continues a group: no atomics, and a query's sums are the same whatever the launches.
//
// The tiled kernel shifts each tile of points to the origin of the block's patch of the raster while loading it into
// shared memory (hi and lo parts subtracted separately), so nearby points keep their precision without any extra work
// per pair. Patches lie on a lattice of the whole raster, so a cell sees the same origin in any band or window. Two
// transcendental operations per pair would bound the rate at the special-function units' throughput; two queries in
// eight therefore compute their 2^y as a polynomial on the FMA pipes.
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
constexpr int kPatchRows = kRowsOfThreads * kQueriesPerThread;
constexpr int kTilePoints = kThreads;
constexpr int kUnroll = 8;
constexpr int kRun = 64; // points summed in float before going into a float64 sum
// The smallest squared distance the paired reciprocal takes (tiled_grid_kernel): its square, 2^-124, is a normal float.
constexpr float kPairedReciprocalFloor = 0x1p-62f;

// The point group of this block: blockIdx.z counts the piece's groups.
__device__ __forceinline__ size_t
block_group (const PointPiece &piece)
{
  return (size_t) piece.first_group + blockIdx.z;
}

// The points [first, end) of this block's group in this piece: empty when the group ends before the piece starts.
__device__ __forceinline__ void
group_range (const PointPiece &piece, size_t &first, size_t &end)
{
  size_t group_first = block_group (piece) * piece.groups.group_points;
  size_t group_end = group_first + piece.groups.group_points;
  if (group_end > piece.groups.n)
    group_end = piece.groups.n;
  first = group_first + piece.begin;
  end = group_first + piece.end < group_end ? group_first + piece.end : group_end;
}

// Query i's running sums of this block's group: from 0 at the group's first piece, else as the last piece left them.
__device__ __forceinline__ void
load_sums (const Stage1Outputs &stage1, const PointPiece &piece, int i, double &total_w, double &total_wz)
{
  size_t at = block_group (piece) * stage1.sum_stride + (size_t) i;
  total_w = piece.begin > 0 ? stage1.sum_w[at] : 0.0;
  total_wz = piece.begin > 0 ? stage1.sum_wz[at] : 0.0;
}

__device__ __forceinline__ void
store_sums (const Stage1Outputs &stage1, const PointPiece &piece, int i, double total_w, double total_wz)
{
  size_t at = block_group (piece) * stage1.sum_stride + (size_t) i;
  stage1.sum_w[at] = total_w;
  stage1.sum_wz[at] = total_wz;
}

__global__ void
finish_kernel (Stage1Outputs stage1, int groups, int count)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= count || stage1.done[i])
    return;
  double sum_w = 0.0, sum_wz = 0.0;
  for (int g = 0; g < groups; g++)
    {
      sum_w += stage1.sum_w[(size_t) g * stage1.sum_stride + i];
      sum_wz += stage1.sum_wz[(size_t) g * stage1.sum_stride + i];
    }
  stage1.value[i] = (float) (sum_wz / sum_w);
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

// The first row and column of the patch lattice that covers a band: multiples of the patch's size in the whole raster.
__host__ __device__ inline long long
lattice_start (long long first, int patch)
{
  return first - first % patch;
}

// The block's patch, in rows and columns of the whole raster.
__device__ __forceinline__ long long
patch_first_row (const QuerySource &source)
{
  long long band_row = source.first_row + source.first_index / source.width;
  return lattice_start (band_row, kPatchRows) + (long long) blockIdx.y * kPatchRows;
}

__device__ __forceinline__ long long
patch_first_column (const QuerySource &source)
{
  return lattice_start (source.first_column, kPatchColumns) + (long long) blockIdx.x * kPatchColumns;
}

// The band-relative index of the thread's query q, or -1 outside the band. Computed again after the points rather
// than kept: the registers are what limits occupancy, and kept indices spill.
__device__ __forceinline__ int
patch_query_index (const QuerySource &source, int q)
{
  const int tx = threadIdx.x % kPatchColumns, ty = threadIdx.x / kPatchColumns;
  long long band_row = source.first_row + source.first_index / source.width;
  long long row = patch_first_row (source) + ty + q * kRowsOfThreads - band_row;
  long long col = patch_first_column (source) + tx - source.first_column;
  bool inside = col >= 0 && col < source.width && row >= 0 && row < source.count / source.width;
  return inside ? (int) (row * source.width + col) : -1;
}

// Raster queries: a block owns a patch of kPatchColumns x kPatchRows cells of the whole raster's lattice, of which it
// weighs those inside the band; thread (tx, ty) owns column tx and rows ty, ty + kRowsOfThreads, ... of the patch.
template <bool InverseSquare, shepard_cuda_layout Layout, bool Clamp>
__global__ void __launch_bounds__ (kThreads)
tiled_grid_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointPiece piece, float smoothing2)
{
  constexpr int Q = kQueriesPerThread;
  size_t first_point, end_point;
  group_range (piece, first_point, end_point);
  if (first_point >= end_point)
    return;
  __shared__ float4 tile[kTilePoints];
  // The float64 sums live in shared memory, touched once per run of points: registers are what limits occupancy.
  __shared__ double total_w[Q][kThreads], total_wz[Q][kThreads];
  const int tx = threadIdx.x % kPatchColumns, ty = threadIdx.x / kPatchColumns;
  const long long patch_row = patch_first_row (source), patch_col = patch_first_column (source);
  // The reciprocal is shared by two queries (below), so a query sitting on a point (d2 = 0: a coincident query, done
  // in stage 1, or a lattice cell outside the band) would turn its partner's weight into 0 * inf = NaN. Squared
  // distances are floored at kPairedReciprocalFloor instead, added where smoothing would be (the reciprocal weighs
  // without smoothing): the floor's square is still a normal float, and any d2 above 2^-38 (a few 1e-6 of the layer's
  // extent) keeps its bits, so that only pairs far closer than the raster's cells take an error of the floor's size.
  if (InverseSquare)
    smoothing2 = kPairedReciprocalFloor;

  // The patch's centre, in the local frame.
  const double origin_col = (double) patch_col + 0.5 * kPatchColumns;
  const double origin_row = (double) patch_row + 0.5 * kPatchRows;
  float origin_x_hi, origin_x_lo, origin_y_hi, origin_y_lo;
  split (source.x_left + origin_col * source.dx, origin_x_hi, origin_x_lo);
  split (source.y_top - origin_row * source.dy, origin_y_hi, origin_y_lo);

  // The thread's queries share a column: one x, so one dx^2 per point serves all of them.
  const float qx = (float) (((double) (patch_col + tx) + 0.5 - origin_col) * source.dx);
  float qy[Q], exponent[Q], offset[Q];
#pragma unroll
  for (int q = 0; q < Q; q++)
    {
      int index = patch_query_index (source, q);
      qy[q] = (float) ((origin_row - ((double) (patch_row + ty + q * kRowsOfThreads) + 0.5)) * source.dy);
      exponent[q] = index >= 0 ? stage1.exponent[index] : -1.0f;
      offset[q] = index >= 0 ? stage1.offset[index] : 0.0f;
      double w = 0.0, wz = 0.0;
      if (index >= 0)
        load_sums (stage1, piece, index, w, wz);
      total_w[q][threadIdx.x] = w;
      total_wz[q][threadIdx.x] = wz;
    }

  for (size_t base = first_point; base < end_point; base += kTilePoints)
    {
      __syncthreads ();
      for (int slot = threadIdx.x; slot < kTilePoints; slot += kThreads)
        {
          size_t p = base + slot;
          // Past the group's end a point far away with no value: weight 0 through the power path, and a weight of
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
                  // [2^-62, 1e19] in the local frame (the floor above, padding points at 3e9), so the product stays a
                  // normal float.
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
    {
      int index = patch_query_index (source, q);
      if (index >= 0)
        store_sums (stage1, piece, index, total_w[q][threadIdx.x], total_wz[q][threadIdx.x]);
    }
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
tiled_list_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointPiece piece, float smoothing2)
{
  size_t first_point, end_point;
  group_range (piece, first_point, end_point);
  if (first_point >= end_point)
    return;
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
  if (inside)
    load_sums (stage1, piece, i, total_w, total_wz);
  for (size_t base = first_point; base < end_point; base += kThreads)
    {
      size_t p = base + threadIdx.x;
      float4 loaded = make_float4 (INFINITY, 0.0f, 0.0f, 0.0f);
      float z = 0.0f;
      if (p < end_point)
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
    store_sums (stage1, piece, i, total_w, total_wz);
}

// Mei (2014)'s naive kernel: one query per thread, every point read from global memory.
template <bool InverseSquare, shepard_cuda_layout Layout>
__global__ void __launch_bounds__ (kThreads)
naive_kernel (DevicePoints points, QuerySource source, Stage1Outputs stage1, PointPiece piece, float smoothing2)
{
  size_t first_point, end_point;
  group_range (piece, first_point, end_point);
  int i = blockIdx.x * kThreads + threadIdx.x;
  if (first_point >= end_point || i >= source.count || stage1.done[i])
    return;
  double x, y;
  query_position (source, i, x, y);
  float qx_hi, qx_lo, qy_hi, qy_lo;
  split (x, qx_hi, qx_lo);
  split (y, qy_hi, qy_lo);
  float exponent = stage1.exponent[i], offset = stage1.offset[i];
  double total_w, total_wz;
  load_sums (stage1, piece, i, total_w, total_wz);
  for (size_t base = first_point; base < end_point; base += kRun)
    {
      size_t end = base + kRun < end_point ? base + kRun : end_point;
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
  store_sums (stage1, piece, i, total_w, total_wz);
}

// Whether the piece's last tile is partly filled: the last group's end, unless n is a multiple of the tile.
bool
piece_is_padded (const PointPiece &piece)
{
  size_t last_group = piece.groups.n - (size_t) (piece.groups.count - 1) * piece.groups.group_points;
  return piece.first_group + piece.group_count == piece.groups.count && last_group % kTilePoints != 0
         && piece.begin < last_group && piece.end >= last_group;
}

template <bool InverseSquare, shepard_cuda_layout Layout>
cudaError_t
launch_tiled (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
              const PointPiece &piece, float smoothing2, bool clamp, cudaStream_t stream)
{
  // A partly filled last tile is padded with points at infinity, whose 2^-inf the unclamped polynomial would turn
  // into NaN: such a piece takes the clamped kernel too, which gives every other weight to the bit. The reciprocal
  // needs no clamp: one instance serves it.
  auto kernel = InverseSquare || !(clamp || piece_is_padded (piece)) ? tiled_grid_kernel<InverseSquare, Layout, false>
                                                                      : tiled_grid_kernel<InverseSquare, Layout, true>;
  int band_rows = queries.count / queries.width;
  long long band_row = queries.first_row + queries.first_index / queries.width;
  long long first_patch_row = lattice_start (band_row, kPatchRows);
  long long first_patch_col = lattice_start (queries.first_column, kPatchColumns);
  dim3 blocks ((unsigned) ((queries.first_column + queries.width - first_patch_col + kPatchColumns - 1) / kPatchColumns),
               (unsigned) ((band_row + band_rows - first_patch_row + kPatchRows - 1) / kPatchRows),
               (unsigned) piece.group_count);
  kernel<<<blocks, kThreads, 0, stream>>> (points, queries, stage1, piece, smoothing2);
  return cudaGetLastError ();
}

template <bool InverseSquare>
cudaError_t
launch_for (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
            const PointPiece &piece, float smoothing2, shepard_cuda_weighting weighting, shepard_cuda_layout layout,
            bool clamp, cudaStream_t stream)
{
  dim3 list_blocks ((queries.count + kThreads - 1) / kThreads, 1, (unsigned) piece.group_count);
  if (weighting == SHEPARD_CUDA_WEIGHTING_NAIVE)
    {
      if (layout == SHEPARD_CUDA_LAYOUT_SOA)
        naive_kernel<InverseSquare, SHEPARD_CUDA_LAYOUT_SOA>
            <<<list_blocks, kThreads, 0, stream>>> (points, queries, stage1, piece, smoothing2);
      else
        naive_kernel<InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS>
            <<<list_blocks, kThreads, 0, stream>>> (points, queries, stage1, piece, smoothing2);
      return cudaGetLastError ();
    }
  if (!queries.is_grid)
    {
      tiled_list_kernel<InverseSquare><<<list_blocks, kThreads, 0, stream>>> (points, queries, stage1, piece,
                                                                               smoothing2);
      return cudaGetLastError ();
    }
  return layout == SHEPARD_CUDA_LAYOUT_SOA
             ? launch_tiled<InverseSquare, SHEPARD_CUDA_LAYOUT_SOA> (points, queries, stage1, piece, smoothing2, clamp,
                                                                     stream)
             : launch_tiled<InverseSquare, SHEPARD_CUDA_LAYOUT_AOAS> (points, queries, stage1, piece, smoothing2,
                                                                      clamp, stream);
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

PointGroups
point_groups (size_t n, int most)
{
  // Groups of at least four tiles.
  size_t tiles = (n + kTilePoints - 1) / kTilePoints;
  size_t wanted = tiles / 4;
  wanted = wanted < 1 ? 1 : wanted > (size_t) most ? (size_t) most : wanted;
  PointGroups groups;
  groups.n = n;
  groups.group_points = (tiles + wanted - 1) / wanted * kTilePoints;
  groups.count = n == 0 ? 1 : (int) ((n + groups.group_points - 1) / groups.group_points);
  return groups;
}

cudaError_t
finish_stage2 (const Stage1Outputs &stage1, int groups, int count, cudaStream_t stream)
{
  finish_kernel<<<(count + kThreads - 1) / kThreads, kThreads, 0, stream>>> (stage1, groups, count);
  return cudaGetLastError ();
}

cudaError_t
launch_stage2 (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
               const PointPiece &piece, bool inverse_square, float smoothing2, shepard_cuda_weighting weighting,
               shepard_cuda_layout layout, bool clamp, cudaStream_t stream)
{
  return inverse_square
             ? launch_for<true> (points, queries, stage1, piece, smoothing2, weighting, layout, clamp, stream)
             : launch_for<false> (points, queries, stage1, piece, smoothing2, weighting, layout, clamp, stream);
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
