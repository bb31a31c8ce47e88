// SPDX-License-Identifier: GPL-3.0-or-later
// Cross-validation's stage 2 on the device (cuda-cross-validation.cu cuts it into bands and launches): the queries
// that stage 1 left open, weighed over all the points outside their fold. As the raster kernel, several queries per
// thread share each point read from shared memory, and float sums go into double every 64 points. The points are
// weighed in fixed groups (blockIdx.z), each summed in point order into running sums of its own that the next launch
// continues, and the groups are added in order at the end: no atomics, so a slot's prediction is the same bit for bit
// in any range, band or launch, on any GPU. The queries lie on no raster, so each pair subtracts hi and lo parts (exact
// for nearby points, which weigh the most) instead of shifting tiles to a patch. Leave-one-out tests the held-out point
// only in the few tiles that hold the block's own queries; k-fold compares the folds of every pair.
#include "cuda-fast-math.cuh"
#include "cuda-internal.cuh"

#include <stdint.h>

namespace shepard_cuda {

using namespace cv_weighting;

namespace {

// With hi and lo parts per pair the issue slots come close to the special-function units' bound: only one query in
// eight takes the polynomial 2^y.
constexpr unsigned kPolynomialMask = 0x80;
constexpr int kUnroll = 8;
constexpr int kRun = 64; // points summed in float before going into a float64 sum

// Adds one tile of points to the float64 sums of the thread's Q queries. Checked: some point of the tile may be left
// out (past the chunk, the query's own slot, its fold), which a select turns into weight 0, whatever the weight was
// (the held-out point at the query's own place weighs infinity).
template <int Q, bool InverseSquare, bool Folds, bool Clamp, bool Checked>
__device__ __forceinline__ void
tile_sums (const float4 *tile, const float *tile_z, const uint32_t *tile_label, int valid_points,
           const float (&qx_hi)[Q], const float (&qx_lo)[Q], const float (&qy_hi)[Q], const float (&qy_lo)[Q],
           const float (&exponent)[Q], const float (&offset)[Q], const uint32_t (&label)[Q], const int (&own)[Q],
           float smoothing2, double (*total_w)[kThreads], double (*total_wz)[kThreads])
{
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
          float z = tile_z[j];
          bool valid = !Checked || j < valid_points;
          uint32_t point_label = Folds ? tile_label[j] : 0;
#pragma unroll
          for (int q = 0; q < Q; q++)
            {
              float dx = (qx_hi[q] - point.x) + (qx_lo[q] - point.z);
              float dy = (qy_hi[q] - point.y) + (qy_lo[q] - point.w);
              float d2 = fmaf (dx, dx, fmaf (dy, dy, smoothing2));
              float w;
              if (InverseSquare)
                w = fast_reciprocal (d2);
              else
                {
                  float y = fmaf (exponent[q], fast_log2 (d2), offset[q]);
                  w = (kPolynomialMask >> q & 1u) ? polynomial_exp2<Clamp> (y) : fast_exp2 (y);
                }
              if (Checked)
                {
                  bool kept = valid && (Folds ? point_label != label[q] : j != own[q]);
                  w = kept ? w : 0.0f;
                }
              run_w[q] += w;
              run_wz[q] = fmaf (w, z, run_wz[q]);
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

// Thread t of block b takes the query slots band.first + b * Q * kThreads + q * kThreads + t, and blockIdx.z the
// points of its group that this launch's piece holds, in the grid's sorted order as the queries. The group's running
// sums of slot s lie at blockIdx.z * (band.end - band.first) + s - band.first.
template <int Q, bool InverseSquare, bool Folds, bool Clamp>
__global__ void __launch_bounds__ (kThreads)
all_points_kernel (DeviceGrid grid, CvParams params, CvOutputs out, SlotRange band, PointPiece piece)
{
  const size_t group_first = (size_t) blockIdx.z * piece.groups.group_points;
  const size_t group_end = group_first + piece.groups.group_points < piece.groups.n
                               ? group_first + piece.groups.group_points
                               : piece.groups.n;
  const size_t first_point = group_first + piece.begin;
  const size_t end_point = group_first + piece.end < group_end ? group_first + piece.end : group_end;
  // The group ends before the piece starts (the same for every thread of the block).
  if (first_point >= end_point)
    return;

  __shared__ float4 tile[kTilePoints];
  __shared__ float tile_z[kTilePoints];
  __shared__ uint32_t tile_label[Folds ? kTilePoints : 1];
  // The float64 sums live in shared memory, touched once per run of points: registers are what limits occupancy.
  __shared__ double total_w[Q][kThreads], total_wz[Q][kThreads];

  const size_t stride = band.end - band.first;
  const size_t first_query = band.first + (size_t) blockIdx.x * Q * kThreads;
  const size_t end_query = first_query + (size_t) Q * kThreads;
  float qx_hi[Q], qx_lo[Q], qy_hi[Q], qy_lo[Q], exponent[Q], offset[Q];
  uint32_t label[Q];
  bool open[Q];
#pragma unroll
  for (int q = 0; q < Q; q++)
    {
      size_t slot = first_query + (size_t) q * kThreads + threadIdx.x;
      open[q] = slot < band.end && !out.done[slot];
      float4 own = open[q] ? grid.sorted[slot] : make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
      qx_hi[q] = own.x;
      qy_hi[q] = own.y;
      qx_lo[q] = own.z;
      qy_lo[q] = own.w;
      // A query that stage 1 finished weighs along harmlessly, and adds nothing at the end.
      exponent[q] = open[q] ? out.exponent[slot] : -1.0f;
      offset[q] = open[q] ? out.offset[slot] : 0.0f;
      label[q] = Folds && open[q] ? params.sorted_label[slot] : 0;
      // The group's first piece starts the sums, a later one continues them.
      double w = 0.0, wz = 0.0;
      if (open[q] && piece.begin > 0)
        {
          size_t at = (size_t) blockIdx.z * stride + (slot - band.first);
          w = out.sum_w[at];
          wz = out.sum_wz[at];
        }
      total_w[q][threadIdx.x] = w;
      total_wz[q][threadIdx.x] = wz;
    }

  for (size_t base = first_point; base < end_point; base += kTilePoints)
    {
      __syncthreads ();
      size_t p = base + threadIdx.x;
      bool valid = p < end_point;
      tile[threadIdx.x] = valid ? grid.sorted[p] : make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
      tile_z[threadIdx.x] = valid ? grid.sorted_z[p] : 0.0f;
      if (Folds)
        tile_label[threadIdx.x] = valid ? params.sorted_label[p] : 0;
      __syncthreads ();

      int valid_points = end_point - base < (size_t) kTilePoints ? (int) (end_point - base) : kTilePoints;
      int own[Q];
#pragma unroll
      for (int q = 0; q < Q; q++)
        {
          size_t slot = first_query + (size_t) q * kThreads + threadIdx.x;
          own[q] = slot >= base && slot < base + kTilePoints ? (int) (slot - base) : -1;
        }
      // Leave-one-out: a whole tile away from the block's own query slots holds no held-out point. The test is the
      // same for every thread of the block, so the branch does not diverge.
      bool plain = !Folds && valid_points == kTilePoints && (base >= end_query || base + kTilePoints <= first_query);
      if (plain)
        tile_sums<Q, InverseSquare, Folds, Clamp, false> (tile, tile_z, tile_label, valid_points, qx_hi, qx_lo, qy_hi,
                                                          qy_lo, exponent, offset, label, own, params.hood.smoothing2,
                                                          total_w, total_wz);
      else
        tile_sums<Q, InverseSquare, Folds, Clamp, true> (tile, tile_z, tile_label, valid_points, qx_hi, qx_lo, qy_hi,
                                                         qy_lo, exponent, offset, label, own, params.hood.smoothing2,
                                                         total_w, total_wz);
    }

#pragma unroll
  for (int q = 0; q < Q; q++)
    if (open[q])
      {
        size_t at = (size_t) blockIdx.z * stride + (first_query + (size_t) q * kThreads + threadIdx.x - band.first);
        out.sum_w[at] = total_w[q][threadIdx.x];
        out.sum_wz[at] = total_wz[q][threadIdx.x];
      }
}

// Adds the groups' sums of each open slot of the band in group order, and divides.
__global__ void
finish_kernel (DeviceGrid grid, CvOutputs out, SlotRange band, int groups)
{
  size_t slot = band.first + (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= band.end || out.done[slot])
    return;
  size_t stride = band.end - band.first, at = slot - band.first;
  double sum_w = 0.0, sum_wz = 0.0;
  for (int g = 0; g < groups; g++)
    {
      sum_w += out.sum_w[(size_t) g * stride + at];
      sum_wz += out.sum_wz[(size_t) g * stride + at];
    }
  out.value[grid.sorted_index[slot]] = (float) (sum_wz / sum_w);
}

// The predictions (and alphas: alpha not null) of the range's points, in slot order.
__global__ void
gather_range (DeviceGrid grid, CvOutputs out, SlotRange range, float *value, double *alpha)
{
  size_t slot = range.first + (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= range.end)
    return;
  unsigned index = grid.sorted_index[slot];
  value[slot - range.first] = out.value[index];
  if (alpha)
    alpha[slot - range.first] = out.alpha[index];
}

template <bool InverseSquare, bool Folds>
cudaError_t
launch_all_points_for (const DeviceGrid &grid, const CvParams &params, const CvOutputs &out, SlotRange band,
                       const PointPiece &piece, bool clamp, cudaStream_t stream)
{
  constexpr int Q = kQueriesPerThread;
  // The reciprocal needs no clamp: one instance serves it.
  auto kernel = InverseSquare || !clamp ? all_points_kernel<Q, InverseSquare, Folds, false>
                                        : all_points_kernel<Q, InverseSquare, Folds, true>;
  dim3 blocks ((unsigned) ((band.end - band.first + kBlockSlots - 1) / kBlockSlots), 1, (unsigned) piece.groups.count);
  kernel<<<blocks, kThreads, 0, stream>>> (grid, params, out, band, piece);
  return cudaGetLastError ();
}

} // namespace

cudaError_t
launch_cv_all_points (const DeviceGrid &grid, const CvParams &params, const CvOutputs &out, SlotRange band,
                      const PointPiece &piece, bool inverse_square, bool clamp, cudaStream_t stream)
{
  bool folds = params.sorted_label != nullptr;
  if (inverse_square)
    return folds ? launch_all_points_for<true, true> (grid, params, out, band, piece, clamp, stream)
                 : launch_all_points_for<true, false> (grid, params, out, band, piece, clamp, stream);
  return folds ? launch_all_points_for<false, true> (grid, params, out, band, piece, clamp, stream)
               : launch_all_points_for<false, false> (grid, params, out, band, piece, clamp, stream);
}

cudaError_t
finish_cv_all_points (const DeviceGrid &grid, const CvOutputs &out, SlotRange band, int groups, cudaStream_t stream)
{
  finish_kernel<<<(unsigned) ((band.end - band.first + kThreads - 1) / kThreads), kThreads, 0, stream>>> (
      grid, out, band, groups);
  return cudaGetLastError ();
}

cudaError_t
launch_cv_gather_range (const DeviceGrid &grid, const CvOutputs &out, SlotRange range, float *value, double *alpha,
                        cudaStream_t stream)
{
  gather_range<<<(unsigned) ((range.end - range.first + kThreads - 1) / kThreads), kThreads, 0, stream>>> (
      grid, out, range, value, alpha);
  return cudaGetLastError ();
}

} // namespace shepard_cuda
