// SPDX-License-Identifier: GPL-3.0-or-later
// Cross-validation on the device, in one pass over the points and the even grid that stay on the GPU: every data point
// is a query, predicted from the points outside its fold (cpu-backend.c's semantics). The queries run in the grid's
// sorted order, so that a warp searches neighbouring cells; results go to each point's index as given.
//
// Stage 1 (cuda-grid.cu) searches the k nearest outside the fold and finishes the coincident queries and the N-nearest
// weighting. Stage 2 here weighs all points for the rest: as the raster kernel, several queries per thread share each
// point read from shared memory, the points are split over blocks (blockIdx.z) that add into float64 sums, and float
// sums go into double every 64 points. The queries lie on no raster, so each pair subtracts hi and lo parts (exact for
// nearby points, which weigh the most) instead of shifting tiles to a patch. Leave-one-out tests the held-out point
// only in the few tiles that hold the block's own queries; k-fold compares the folds of every pair.
#include "cuda-fast-math.cuh"
#include "cuda-internal.cuh"

#include <math.h>
#include <new>
#include <stdint.h>

extern "C" {
#include "../engine-private.h"
}

namespace shepard_cuda {

struct CvBuffers {
  size_t capacity = 0;
  float *value = nullptr, *exponent = nullptr, *offset = nullptr;
  double *alpha = nullptr, *sum_w = nullptr, *sum_wz = nullptr;
  unsigned char *done = nullptr;
  uint32_t *label = nullptr, *sorted_label = nullptr;
  float *host_value = nullptr;  // pinned
  double *host_alpha = nullptr; // pinned
};

namespace {

constexpr int kThreads = 256;
// 8 queries per thread share each point read from shared memory. With hi and lo parts per pair the issue slots come
// close to the special-function units' bound: only one query in eight takes the polynomial 2^y.
constexpr int kQueriesPerThread = 8;
constexpr unsigned kPolynomialMask = 0x80;
constexpr int kTilePoints = kThreads;
constexpr int kUnroll = 8;
constexpr int kRun = 64; // points summed in float before going into a float64 sum
constexpr int kMaxSplits = 32;
// Work per launch of stage 2 in query x point pairs: tens of milliseconds, so progress and cancel stay prompt.
constexpr double kPairsPerLaunch = 1e11;
constexpr size_t kChunkGranule = kTilePoints;

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

// Thread t of block b takes the query slots b * Q * kThreads + q * kThreads + t; blockIdx.z picks its share of the
// chunk of points, in the grid's sorted order as the queries.
template <int Q, bool InverseSquare, bool Folds, bool Clamp>
__global__ void __launch_bounds__ (kThreads)
all_points_kernel (DeviceGrid grid, size_t n, CvParams params, CvOutputs out, PointChunk chunk)
{
  __shared__ float4 tile[kTilePoints];
  __shared__ float tile_z[kTilePoints];
  __shared__ uint32_t tile_label[Folds ? kTilePoints : 1];
  // The float64 sums live in shared memory, touched once per run of points: registers are what limits occupancy.
  __shared__ double total_w[Q][kThreads], total_wz[Q][kThreads];

  const size_t first_query = (size_t) blockIdx.x * Q * kThreads;
  const size_t end_query = first_query + (size_t) Q * kThreads;
  float qx_hi[Q], qx_lo[Q], qy_hi[Q], qy_lo[Q], exponent[Q], offset[Q];
  uint32_t label[Q];
  bool open[Q];
#pragma unroll
  for (int q = 0; q < Q; q++)
    {
      size_t slot = first_query + (size_t) q * kThreads + threadIdx.x;
      open[q] = slot < n && !out.done[slot];
      float4 own = open[q] ? grid.sorted[slot] : make_float4 (0.0f, 0.0f, 0.0f, 0.0f);
      qx_hi[q] = own.x;
      qy_hi[q] = own.y;
      qx_lo[q] = own.z;
      qy_lo[q] = own.w;
      // A query that stage 1 finished weighs along harmlessly, and adds nothing at the end.
      exponent[q] = open[q] ? out.exponent[slot] : -1.0f;
      offset[q] = open[q] ? out.offset[slot] : 0.0f;
      label[q] = Folds && open[q] ? params.sorted_label[slot] : 0;
      total_w[q][threadIdx.x] = 0.0;
      total_wz[q][threadIdx.x] = 0.0;
    }

  size_t share = (chunk.end - chunk.begin + gridDim.z - 1) / gridDim.z;
  share = (share + kTilePoints - 1) / kTilePoints * kTilePoints;
  const size_t first_point = chunk.begin + blockIdx.z * share;
  const size_t end_point = first_point + share < chunk.end ? first_point + share : chunk.end;
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
        size_t slot = first_query + (size_t) q * kThreads + threadIdx.x;
        atomicAdd (&out.sum_w[slot], total_w[q][threadIdx.x]);
        atomicAdd (&out.sum_wz[slot], total_wz[q][threadIdx.x]);
      }
}

__global__ void
finish_kernel (DeviceGrid grid, size_t n, CvOutputs out)
{
  size_t slot = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < n && !out.done[slot])
    out.value[grid.sorted_index[slot]] = (float) (out.sum_wz[slot] / out.sum_w[slot]);
}

// As the raster kernel's launch: the points are split over as many blocks as fill whole waves of the device best.
template <bool InverseSquare, bool Folds>
cudaError_t
launch_all_points_for (const DeviceGrid &grid, size_t n, const CvParams &params, const CvOutputs &out,
                       const PointChunk &chunk, bool clamp, int multiprocessors, cudaStream_t stream)
{
  constexpr int Q = kQueriesPerThread;
  // The reciprocal needs no clamp: one instance serves it.
  auto kernel = InverseSquare || !clamp ? all_points_kernel<Q, InverseSquare, Folds, false>
                                        : all_points_kernel<Q, InverseSquare, Folds, true>;
  long long query_blocks = (long long) ((n + (size_t) Q * kThreads - 1) / ((size_t) Q * kThreads));
  int splits = 1;
  cudaError_t status = choose_point_splits ((const void *) kernel, kThreads, multiprocessors, query_blocks,
                                            chunk.end - chunk.begin, kTilePoints, kMaxSplits, &splits);
  if (status != cudaSuccess)
    return status;
  dim3 blocks ((unsigned) query_blocks, 1, (unsigned) splits);
  kernel<<<blocks, kThreads, 0, stream>>> (grid, n, params, out, chunk);
  return cudaGetLastError ();
}

cudaError_t
launch_all_points (const DeviceGrid &grid, size_t n, const CvParams &params, const CvOutputs &out,
                   const PointChunk &chunk, bool inverse_square, bool clamp, int multiprocessors, cudaStream_t stream)
{
  bool folds = params.sorted_label != nullptr;
  if (inverse_square)
    return folds ? launch_all_points_for<true, true> (grid, n, params, out, chunk, clamp, multiprocessors, stream)
                 : launch_all_points_for<true, false> (grid, n, params, out, chunk, clamp, multiprocessors, stream);
  return folds ? launch_all_points_for<false, true> (grid, n, params, out, chunk, clamp, multiprocessors, stream)
               : launch_all_points_for<false, false> (grid, n, params, out, chunk, clamp, multiprocessors, stream);
}

cudaError_t
finish_all_points (const DeviceGrid &grid, size_t n, const CvOutputs &out, cudaStream_t stream)
{
  finish_kernel<<<(unsigned) ((n + kThreads - 1) / kThreads), kThreads, 0, stream>>> (grid, n, out);
  return cudaGetLastError ();
}

} // namespace

void
free_cv_buffers (CvBuffers *&buffers)
{
  if (!buffers)
    return;
  release (buffers->value);
  release (buffers->alpha);
  release (buffers->exponent);
  release (buffers->offset);
  release (buffers->done);
  release (buffers->sum_w);
  release (buffers->sum_wz);
  release (buffers->label);
  release (buffers->sorted_label);
  if (buffers->host_value)
    cudaFreeHost (buffers->host_value);
  if (buffers->host_alpha)
    cudaFreeHost (buffers->host_alpha);
  delete buffers;
  buffers = nullptr;
}

} // namespace shepard_cuda

using namespace shepard_cuda;

static shepard_status
reserve_cv_buffers (shepard_cuda_backend *backend, size_t n, shepard_error *error)
{
  if (backend->cv && n <= backend->cv->capacity)
    return SHEPARD_OK;
  free_cv_buffers (backend->cv);
  backend->cv = new (std::nothrow) CvBuffers ();
  if (!backend->cv)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to cross-validate on the GPU.");
  CvBuffers &b = *backend->cv;
  const char *what = "reserving GPU memory for cross-validation";
  CHECK (cudaMalloc (&b.value, n * sizeof (float)), what);
  CHECK (cudaMalloc (&b.alpha, n * sizeof (double)), what);
  CHECK (cudaMalloc (&b.exponent, n * sizeof (float)), what);
  CHECK (cudaMalloc (&b.offset, n * sizeof (float)), what);
  CHECK (cudaMalloc (&b.done, n), what);
  CHECK (cudaMalloc (&b.sum_w, n * sizeof (double)), what);
  CHECK (cudaMalloc (&b.sum_wz, n * sizeof (double)), what);
  CHECK (cudaMalloc (&b.label, n * sizeof (uint32_t)), what);
  CHECK (cudaMalloc (&b.sorted_label, n * sizeof (uint32_t)), what);
  CHECK (cudaMallocHost (&b.host_value, n * sizeof (float)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&b.host_alpha, n * sizeof (double)), "reserving pinned host memory");
  b.capacity = n;
  return SHEPARD_OK;
}

static shepard_status
cross_validate (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
                const shepard_holdout *holdout, const float **prediction, double *alpha,
                shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  const char *message = "Cross-validating on the GPU";
  size_t n = set->n;
  if (n != backend->points.n)
    return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU holds %zu points, not the %zu to cross-validate.",
                         backend->points.n, n);
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  CvParams cv = {};
  cv.hood = neighbourhood_of (params, set->scale);
  bool fused = cv.hood.mode == kFused;
  bool all_points = fused && params->neighbors == SHEPARD_NEIGHBORS_ALL;
  cv.aidw = aidw;
  // As the CPU path: the neighbours found per query may fall short of k_search only when its fold leaves too few.
  // Outside kFused the search finds only alpha's neighbours and the nearest; the selection has its own lists.
  size_t k_search = aidw ? (size_t) params->k : 1;
  if (fused && !all_points && (size_t) params->neighbors > k_search)
    k_search = (size_t) params->neighbors;
  if (k_search > n)
    k_search = n;
  if (k_search > SHEPARD_CUDA_MAX_NEIGHBORS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The CUDA backend searches at most %d neighbours, not %zu; use the CPU backend.",
                         SHEPARD_CUDA_MAX_NEIGHBORS, k_search);
  cv.k_search = (int) k_search;
  cv.k_density = aidw ? params->k : 0;
  cv.n_weighted = fused && !all_points ? params->neighbors : 0;
  cv.power = params->power;
  for (int a = 0; a < 5; a++)
    cv.alpha[a] = params->alpha[a];
  cv.r_min = params->r_min;
  cv.r_max = params->r_max;
  cv.r_exp_large_local = holdout->r_exp_large_fold * set->scale;
  cv.r_exp_small_local = holdout->r_exp_small_fold * set->scale;
  cv.large_folds = holdout->large_folds;
  // Training-set sizes: n minus the size of the query's fold (folds [0, large_folds) hold one point more).
  size_t small_fold = holdout->fold_of && holdout->folds > 0 ? n / holdout->folds : 1;
  cv.train_small_fold = n - small_fold;
  cv.train_large_fold = n - small_fold - (holdout->fold_of ? 1 : 0);
  // The tolerance of all n points, as the CPU path.
  double coincident_d2 = shepard_point_set_coincident_d2_local (set);
  cv.coincident_d2 = (float) coincident_d2;
  // With smoothing, 1 / (d2 + S^2) is no longer the reciprocal of a plain squared distance.
  bool inverse_square = !aidw && params->power == 2.0 && !cv.hood.smoothed;
  // The queries are data points, so every squared distance lies within the points' box, and a query weighed over all
  // points has its nearest beyond the coincident tolerance (or, smoothed, its weights are bounded by S^2).
  double width = (set->x_max - set->x_min) * set->scale, height = (set->y_max - set->y_min) * set->scale;
  double smallest_d2 = cv.hood.smoothed ? (double) cv.hood.smoothing2 : coincident_d2;
  bool clamp = weights_may_underflow (params, width * width + height * height + cv.hood.smoothing2, smallest_d2);

  shepard_status reserved = reserve_cv_buffers (backend, n, error);
  if (reserved != SHEPARD_OK)
    return reserved;
  CvBuffers &b = *backend->cv;
  CvOutputs out = { b.value, alpha ? b.alpha : nullptr, b.done, b.exponent, b.offset, b.sum_w, b.sum_wz };
  cudaStream_t stream = backend->stream;
  cudaEvent_t *marks = backend->marks;
  backend->timings = shepard_cuda_timings ();

  if (progress && !progress (0.0, message, progress_data))
    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  CHECK (cudaEventRecord (marks[0], stream), "timing the GPU work");
  // Leave-one-out needs no labels: a point's fold is its own slot.
  if (holdout->fold_of)
    {
      CHECK (cudaMemcpyAsync (b.label, holdout->fold_of, n * sizeof (uint32_t), cudaMemcpyHostToDevice, stream),
             "copying the folds to the GPU");
      CHECK (gather_sorted_labels (backend->grid, n, b.label, b.sorted_label, stream), "sorting the folds on the GPU");
      cv.sorted_label = b.sorted_label;
    }
  CHECK (cudaEventRecord (marks[1], stream), "timing the GPU work");
  CHECK (launch_cv_stage1 (backend->grid, backend->points, cv, out, stream),
         "searching the nearest neighbours outside each fold on the GPU");
  if (!fused)
    CHECK (launch_cv_neighbourhood (backend->grid, backend->points, cv, out, stream),
           "selecting the neighbourhoods outside each fold on the GPU");
  CHECK (cudaEventRecord (marks[2], stream), "timing the GPU work");
  if (all_points)
    {
      CHECK (cudaMemsetAsync (b.sum_w, 0, n * sizeof (double), stream), "weighing the points on the GPU");
      CHECK (cudaMemsetAsync (b.sum_wz, 0, n * sizeof (double), stream), "weighing the points on the GPU");
      size_t chunk_points = (size_t) (kPairsPerLaunch / (double) n);
      chunk_points = (chunk_points / kChunkGranule + 1) * kChunkGranule;
      for (size_t begin = 0; begin < n; begin += chunk_points)
        {
          PointChunk chunk = { begin, begin + chunk_points < n ? begin + chunk_points : n };
          CHECK (launch_all_points (backend->grid, n, cv, out, chunk, inverse_square, clamp, backend->multiprocessors,
                                    stream),
                 "weighing the points on the GPU");
          if (progress && chunk.end < n)
            {
              CHECK (cudaStreamSynchronize (stream), "weighing the points on the GPU");
              if (!progress ((double) chunk.end / (double) n, message, progress_data))
                return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
            }
        }
      CHECK (finish_all_points (backend->grid, n, out, stream), "weighing the points on the GPU");
    }
  CHECK (cudaEventRecord (marks[3], stream), "timing the GPU work");
  CHECK (cudaMemcpyAsync (b.host_value, b.value, n * sizeof (float), cudaMemcpyDeviceToHost, stream),
         "copying the predictions from the GPU");
  if (alpha)
    CHECK (cudaMemcpyAsync (b.host_alpha, b.alpha, n * sizeof (double), cudaMemcpyDeviceToHost, stream),
           "copying the predictions from the GPU");
  CHECK (cudaEventRecord (marks[4], stream), "timing the GPU work");
  CHECK (cudaStreamSynchronize (stream), "cross-validating on the GPU");

  backend->timings.upload_ms = elapsed_ms (marks[0], marks[1]);
  backend->timings.knn_ms = elapsed_ms (marks[1], marks[2]);
  backend->timings.weighting_ms = elapsed_ms (marks[2], marks[3]);
  backend->timings.download_ms = elapsed_ms (marks[3], marks[4]);
  *prediction = b.host_value;
  if (alpha)
    for (size_t i = 0; i < n; i++)
      alpha[i] = b.host_alpha[i];
  if (progress && !progress (1.0, message, progress_data))
    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  return SHEPARD_OK;
}

extern "C" shepard_status
shepard_cuda_cross_validate (shepard_cuda_backend *backend, const shepard_point_set *points,
                             const shepard_params *params, const shepard_holdout *holdout, const float **prediction,
                             double *alpha, shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  try
    {
      return cross_validate (backend, points, params, holdout, prediction, alpha, progress, progress_data, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL,
                           "The GPU cross-validation failed unexpectedly; run it on the CPU backend (--backend cpu).");
    }
}
