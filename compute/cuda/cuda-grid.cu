// SPDX-License-Identifier: GPL-3.0-or-later
// Stage 1 on the device: the even grid (cell starts by a counting pass and a scan, the points sorted by cell with a
// stable radix sort), exact kNN by expanding rings (cuda-search.cuh), and what follows from the neighbours: AIDW's
// alpha, coincident points, no data, the N-nearest weighting of every field; or, for a radius or quadrant rules, the
// exponent and nearest distance that cuda-neighbourhood.cu's selection starts from.
#include "cuda-search.cuh"

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <float.h>

#include "../aidw-formulas.h"

namespace shepard_cuda {

namespace {

constexpr int kThreads = 256;

__global__ void
count_cells (DevicePoints points, DeviceGrid grid, unsigned *cell_of, unsigned *point_of, unsigned *cell_count)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= points.n)
    return;
  float4 p = points.hi_z[i];
  float2 lo = points.lo[i];
  int cx = clamp_cell (((p.x - grid.x0) + lo.x) * grid.inverse_cell, grid.nx);
  int cy = clamp_cell (((p.y - grid.y0) + lo.y) * grid.inverse_cell, grid.ny);
  unsigned cell = (unsigned) cy * (unsigned) grid.nx + (unsigned) cx;
  cell_of[i] = cell;
  point_of[i] = (unsigned) i;
  atomicAdd (&cell_count[cell], 1u);
}

// Slot s holds the point grid.sorted_index[s], which a stable sort by cell put there: within a cell the points keep
// their order. So every GPU, in every run, sorts alike, which cross-validation relies on (its slices are ranges of
// slots, and a slot's sums run over the points in slot order), and so does the order of any sum over a cell's points.
__global__ void
gather_by_slot (DevicePoints points, DeviceGrid grid)
{
  size_t slot = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= points.n)
    return;
  unsigned i = grid.sorted_index[slot];
  float4 p = points.hi_z[i];
  float2 lo = points.lo[i];
  grid.sorted[slot] = make_float4 (p.x, p.y, lo.x, lo.y);
  for (int f = 0; f < points.n_fields; f++)
    grid.sorted_z[(size_t) f * points.n + slot] = points.z[(size_t) f * points.n + i];
}

// Grows the backend's scratch for CUB to `needed` bytes.
cudaError_t
reserve_scratch (void **storage, size_t *storage_bytes, size_t needed, cudaStream_t stream)
{
  if (needed <= *storage_bytes)
    return cudaSuccess;
  if (*storage)
    cudaFreeAsync (*storage, stream);
  *storage = nullptr;
  *storage_bytes = 0;
  cudaError_t status = cudaMallocAsync (storage, needed, stream);
  if (status == cudaSuccess)
    *storage_bytes = needed;
  return status;
}

// The original AIDW kNN (Mei 2015): every point for every query, in the thread.
template <int K>
__device__ void
search_brute (const DevicePoints &points, const Query &q, NearestList<K> &list)
{
  for (size_t i = 0; i < points.n; i++)
    {
      float4 p = points.hi_z[i];
      float2 lo = points.lo[i];
      list.offer (squared_distance (q, make_float4 (p.x, p.y, lo.x, lo.y)), (unsigned) i);
    }
}

template <int K, bool Brute>
__device__ __forceinline__ void
find_nearest (const DeviceGrid &grid, const DevicePoints &points, const Query &q, NearestList<K> &list)
{
  list.clear ();
  if (Brute)
    search_brute (points, q, list);
  else
    search_grid (grid, q, list);
}

// IDW over the n_weighted nearest of the list (N-nearest mode), fused with the search, every field (value plane f at
// f * stride). The nearest weighs 1: ((d2 + S^2) / (d2_nearest + S^2))^exponent never overflows. One field keeps its
// sums in registers; several add into local arrays, each weight computed once (kept in registers, K weights would
// spill the list).
template <int K>
__device__ __forceinline__ void
weigh_nearest (const DevicePoints &points, const NearestList<K> &list, int n_weighted, float exponent,
               float smoothing2, int n_fields, float *value, size_t stride, size_t at)
{
  float reference = list.d[0] + smoothing2;
  double sum_w = 0.0;
  if (n_fields == 1)
    {
      double sum_wz = 0.0;
#pragma unroll
      for (int j = 0; j < K; j++)
        if (j < n_weighted)
          {
            float w = exp2f (exponent * log2f ((list.d[j] + smoothing2) / reference));
            sum_w += w;
            sum_wz += (double) w * points.z[list.index[j]];
          }
      value[at] = (float) (sum_wz / sum_w);
      return;
    }
  double sum_wz[SHEPARD_MAX_FIELDS];
  for (int f = 0; f < n_fields; f++)
    sum_wz[f] = 0.0;
#pragma unroll
  for (int j = 0; j < K; j++)
    if (j < n_weighted)
      {
        float w = exp2f (exponent * log2f ((list.d[j] + smoothing2) / reference));
        sum_w += w;
        for (int f = 0; f < n_fields; f++)
          sum_wz[f] += (double) w * points.z[(size_t) f * points.n + list.index[j]];
      }
  for (int f = 0; f < n_fields; f++)
    value[(size_t) f * stride + at] = (float) (sum_wz[f] / sum_w);
}

template <int K, bool Brute>
__global__ void __launch_bounds__ (kThreads)
stage1_kernel (DeviceGrid grid, DevicePoints points, QuerySource source, Stage1Params params, Stage1Outputs out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= source.count)
    return;
  Query q = query_at (source, i);
  NearestList<K> list;
  find_nearest<K, Brute> (grid, points, q, list);

  float exponent = -0.5f * params.power;
  if (params.aidw)
    {
      float sum = 0.0f;
#pragma unroll
      for (int j = 0; j < K; j++)
        if (j < params.k_density)
          sum += sqrtf (list.d[j]);
      double r_obs = (double) sum / (double) params.k_density;
      double mu = shepard_formula_membership (r_obs / params.r_exp_local, params.r_min, params.r_max);
      double alpha = shepard_formula_alpha (mu, params.alpha);
      exponent = (float) (-0.5 * alpha);
      if (out.alpha)
        out.alpha[i] = (float) alpha;
      if (out.r_obs)
        out.r_obs[i] = (float) r_obs * params.local_to_given;
    }
  else if (out.alpha)
    out.alpha[i] = params.power;

  float nearest = list.d[0];
  const Neighbourhood &hood = params.hood;
  if (hood.mode != kFused)
    {
      // The neighbourhood kernel selects and weighs.
      out.done[i] = 0;
      out.exponent[i] = exponent;
      out.offset[i] = nearest;
      return;
    }
  if (params.no_data)
    {
      write_no_data (params.n_fields, out.value, out.value_stride, i);
      out.done[i] = 1;
      return;
    }
  if (!hood.smoothed && nearest <= params.coincident_d2)
    {
      if (Brute)
        for (int f = 0; f < params.n_fields; f++)
          {
            const float *z = points.z + (size_t) f * points.n;
            double sum = 0.0;
            int count = 0;
            for (size_t p = 0; p < points.n; p++)
              {
                float4 hz = points.hi_z[p];
                float2 lo = points.lo[p];
                if (squared_distance (q, make_float4 (hz.x, hz.y, lo.x, lo.y)) <= params.coincident_d2)
                  {
                    sum += z[p];
                    count++;
                  }
              }
            out.value[(size_t) f * out.value_stride + i] = (float) (sum / (double) count);
          }
      else
        coincident_means (grid, points.n, q, params.coincident_d2, params.n_fields, out.value, out.value_stride, i);
      out.done[i] = 1;
      return;
    }

  if (params.n_weighted > 0)
    {
      weigh_nearest (points, list, params.n_weighted, exponent, hood.smoothing2, params.n_fields, out.value,
                     out.value_stride, i);
      out.done[i] = 1;
      return;
    }
  out.done[i] = 0;
  out.exponent[i] = exponent;
  out.offset[i] = params.far_field ? nearest : -exponent * log2f (nearest + hood.smoothing2);
}

template <int K, bool Brute>
__global__ void __launch_bounds__ (kThreads)
nearest_kernel (DeviceGrid grid, DevicePoints points, QuerySource source, int k, float *d2_out, unsigned *index_out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= source.count)
    return;
  Query q = query_at (source, i);
  NearestList<K> list;
  find_nearest<K, Brute> (grid, points, q, list);
#pragma unroll
  for (int j = 0; j < K; j++)
    if (j < k)
      {
        d2_out[(size_t) i * k + j] = list.d[j];
        index_out[(size_t) i * k + j] = list.index[j];
      }
}

__global__ void
gather_labels (DeviceGrid grid, size_t n, const uint32_t *label, uint32_t *sorted_label)
{
  size_t slot = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot < n)
    sorted_label[slot] = label[grid.sorted_index[slot]];
}

// The squared distance in double from the hi and lo parts: as exact as the CPU's float64 search.
__device__ __forceinline__ double
exact_squared_distance (const DevicePoints &points, const Query &q, unsigned index)
{
  float4 hi = points.hi_z[index];
  float2 lo = points.lo[index];
  double dx = ((double) hi.x - (double) q.x_hi) + ((double) lo.x - (double) q.x_lo);
  double dy = ((double) hi.y - (double) q.y_hi) + ((double) lo.y - (double) q.y_lo);
  return dx * dx + dy * dy;
}

// Query slot s is the point in grid slot s, predicted from the points outside its fold: as stage1_kernel, with the
// held-out points left out of the search and of the coincident mean, and min (k, found) and min (N, found) per query.
// alpha is the CPU path's to ~1e-12: the float search ranks the neighbours, r_obs sums their distances in double, and
// where float rounding ranked the (k+1)-th before the k-th, double puts the nearer one in (seen when k is below the
// list's size K; at k = K the swap goes unseen and alpha is the float ranking's, within float rounding). The raster's
// stage1_kernel sums r_obs in float: it is held to float32's 1e-5, cross-validation's alpha to the float64 CPU's.
template <int K, bool Folds>
__global__ void __launch_bounds__ (kThreads)
cv_stage1_kernel (DeviceGrid grid, DevicePoints points, CvParams params, CvOutputs out, SlotRange slots)
{
  size_t slot = slots.first + (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= slots.end)
    return;
  float4 own = grid.sorted[slot];
  Query q = { own.x, own.z, own.y, own.w };
  unsigned index = grid.sorted_index[slot];
  uint32_t label = Folds ? params.sorted_label[slot] : index;
  KeepOtherFolds<Folds> keep = { params.sorted_label, (unsigned) slot, label };
  NearestList<K> list;
  list.clear ();
  search_grid (grid, q, list, keep);
  int found = 0;
#pragma unroll
  for (int j = 0; j < K; j++)
    if (j < params.k_search && list.index[j] != UINT_MAX)
      found++;

  float exponent = (float) (-0.5 * params.power);
  if (params.aidw)
    {
      int k_density = min (params.k_density, found);
      double sum = 0.0, last = 0.0, next = INFINITY;
#pragma unroll
      for (int j = 0; j < K; j++)
        if (j < k_density)
          {
            last = sqrt (exact_squared_distance (points, q, list.index[j]));
            sum += last;
          }
        else if (j == k_density && list.index[j] != UINT_MAX)
          next = sqrt (exact_squared_distance (points, q, list.index[j]));
      if (next < last)
        sum += next - last;
      double r_obs = sum / (double) k_density;
      double r_exp = label < params.large_folds ? params.r_exp_large_local : params.r_exp_small_local;
      double mu = shepard_formula_membership (r_obs / r_exp, params.r_min, params.r_max);
      double alpha = shepard_formula_alpha (mu, params.alpha);
      exponent = (float) (-0.5 * alpha);
      if (out.alpha)
        out.alpha[index] = alpha;
    }
  else if (out.alpha)
    out.alpha[index] = params.power;

  float nearest = list.d[0];
  const Neighbourhood &hood = params.hood;
  if (hood.mode != kFused)
    {
      // The neighbourhood kernel selects and weighs.
      out.done[slot] = 0;
      out.exponent[slot] = exponent;
      out.offset[slot] = nearest;
      return;
    }
  size_t selected = params.n_weighted > 0 ? (size_t) min (params.n_weighted, found)
                                          : label < params.large_folds ? params.train_large_fold
                                                                       : params.train_small_fold;
  if (selected < (size_t) hood.min_points)
    {
      out.value[index] = no_data ();
      out.done[slot] = 1;
      return;
    }
  if (!hood.smoothed && nearest <= params.coincident_d2)
    {
      coincident_means (grid, points.n, q, params.coincident_d2, 1, out.value, 0, index, keep);
      out.done[slot] = 1;
      return;
    }

  if (params.n_weighted > 0)
    {
      weigh_nearest (points, list, min (params.n_weighted, found), exponent, hood.smoothing2, 1, out.value, 0, index);
      out.done[slot] = 1;
      return;
    }
  out.done[slot] = 0;
  out.exponent[slot] = exponent;
  out.offset[slot] = -exponent * log2f (nearest + hood.smoothing2);
}

template <int K>
cudaError_t
launch_cv_stage1_for (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params,
                      const CvOutputs &out, SlotRange slots, cudaStream_t stream)
{
  unsigned blocks = (unsigned) ((slots.end - slots.first + kThreads - 1) / kThreads);
  if (params.sorted_label)
    cv_stage1_kernel<K, true><<<blocks, kThreads, 0, stream>>> (grid, points, params, out, slots);
  else
    cv_stage1_kernel<K, false><<<blocks, kThreads, 0, stream>>> (grid, points, params, out, slots);
  return cudaGetLastError ();
}

template <int K>
cudaError_t
launch_stage1_for (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
                   const Stage1Params &params, const Stage1Outputs &out, shepard_cuda_knn knn, cudaStream_t stream)
{
  int blocks = (queries.count + kThreads - 1) / kThreads;
  if (knn == SHEPARD_CUDA_KNN_BRUTE)
    stage1_kernel<K, true><<<blocks, kThreads, 0, stream>>> (grid, points, queries, params, out);
  else
    stage1_kernel<K, false><<<blocks, kThreads, 0, stream>>> (grid, points, queries, params, out);
  return cudaGetLastError ();
}

template <int K>
cudaError_t
launch_nearest_for (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries, int k,
                    float *d2_out, unsigned *index_out, cudaStream_t stream)
{
  int blocks = (queries.count + kThreads - 1) / kThreads;
  nearest_kernel<K, false><<<blocks, kThreads, 0, stream>>> (grid, points, queries, k, d2_out, index_out);
  return cudaGetLastError ();
}

} // namespace

cudaError_t
gather_sorted_labels (const DeviceGrid &grid, size_t n, const uint32_t *label, uint32_t *sorted_label,
                      cudaStream_t stream)
{
  gather_labels<<<(unsigned) ((n + kThreads - 1) / kThreads), kThreads, 0, stream>>> (grid, n, label, sorted_label);
  return cudaGetLastError ();
}

cudaError_t
launch_cv_stage1 (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params, const CvOutputs &out,
                  SlotRange slots, cudaStream_t stream)
{
  if (params.k_search <= 16)
    return launch_cv_stage1_for<16> (grid, points, params, out, slots, stream);
  if (params.k_search <= 32)
    return launch_cv_stage1_for<32> (grid, points, params, out, slots, stream);
  if (params.k_search <= 64)
    return launch_cv_stage1_for<64> (grid, points, params, out, slots, stream);
  return cudaErrorInvalidValue;
}

cudaError_t
build_grid (const DevicePoints &points, DeviceGrid &grid, double x_min, double y_min, double cell_size, int nx,
            int ny, void **scan_storage, size_t *scan_storage_bytes, cudaStream_t stream)
{
  grid.x0 = (float) x_min;
  grid.y0 = (float) y_min;
  grid.cell_size = (float) cell_size;
  grid.inverse_cell = (float) (1.0 / cell_size);
  grid.nx = nx;
  grid.ny = ny;
  size_t cells = (size_t) nx * (size_t) ny;
  unsigned *cell_of = nullptr, *point_of = nullptr, *sorted_cell_of = nullptr, *cell_count = nullptr;
  cudaError_t status = cudaMallocAsync (&cell_of, points.n * sizeof *cell_of, stream);
  if (status == cudaSuccess)
    status = cudaMallocAsync (&point_of, points.n * sizeof *point_of, stream);
  if (status == cudaSuccess)
    status = cudaMallocAsync (&sorted_cell_of, points.n * sizeof *sorted_cell_of, stream);
  if (status == cudaSuccess)
    status = cudaMallocAsync (&cell_count, (cells + 1) * sizeof *cell_count, stream);
  if (status == cudaSuccess)
    status = cudaMemsetAsync (cell_count, 0, (cells + 1) * sizeof *cell_count, stream);
  int blocks = (int) ((points.n + kThreads - 1) / kThreads);
  if (status == cudaSuccess)
    {
      count_cells<<<blocks, kThreads, 0, stream>>> (points, grid, cell_of, point_of, cell_count);
      status = cudaGetLastError ();
    }
  // Exclusive scan of the counts gives each cell's first slot; the extra zero at the end gives cell_start[cells] = n.
  size_t needed = 0;
  if (status == cudaSuccess)
    status = cub::DeviceScan::ExclusiveSum (nullptr, needed, cell_count, grid.cell_start, (int) (cells + 1), stream);
  if (status == cudaSuccess)
    status = reserve_scratch (scan_storage, scan_storage_bytes, needed, stream);
  if (status == cudaSuccess)
    status = cub::DeviceScan::ExclusiveSum (*scan_storage, needed, cell_count, grid.cell_start, (int) (cells + 1),
                                            stream);
  // The points by cell, stably: a radix sort of the cells over as many bits as the largest cell needs.
  int end_bit = 1;
  while (end_bit < 32 && ((size_t) 1 << end_bit) < cells)
    end_bit++;
  if (status == cudaSuccess)
    status = cub::DeviceRadixSort::SortPairs (nullptr, needed, cell_of, sorted_cell_of, point_of, grid.sorted_index,
                                              points.n, 0, end_bit, stream);
  if (status == cudaSuccess)
    status = reserve_scratch (scan_storage, scan_storage_bytes, needed, stream);
  if (status == cudaSuccess)
    status = cub::DeviceRadixSort::SortPairs (*scan_storage, needed, cell_of, sorted_cell_of, point_of,
                                              grid.sorted_index, points.n, 0, end_bit, stream);
  if (status == cudaSuccess)
    {
      gather_by_slot<<<blocks, kThreads, 0, stream>>> (points, grid);
      status = cudaGetLastError ();
    }
  unsigned *scratch[] = { cell_of, point_of, sorted_cell_of, cell_count };
  for (unsigned *buffer : scratch)
    if (buffer)
      cudaFreeAsync (buffer, stream);
  return status;
}

cudaError_t
launch_stage1 (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
               const Stage1Params &params, const Stage1Outputs &out, shepard_cuda_knn knn, cudaStream_t stream)
{
  if (params.k_search <= 16)
    return launch_stage1_for<16> (grid, points, queries, params, out, knn, stream);
  if (params.k_search <= 32)
    return launch_stage1_for<32> (grid, points, queries, params, out, knn, stream);
  if (params.k_search <= 64)
    return launch_stage1_for<64> (grid, points, queries, params, out, knn, stream);
  return cudaErrorInvalidValue;
}

cudaError_t
launch_nearest (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries, int k, float *d2_out,
                unsigned *index_out, cudaStream_t stream)
{
  if (k <= 16)
    return launch_nearest_for<16> (grid, points, queries, k, d2_out, index_out, stream);
  if (k <= 32)
    return launch_nearest_for<32> (grid, points, queries, k, d2_out, index_out, stream);
  if (k <= 64)
    return launch_nearest_for<64> (grid, points, queries, k, d2_out, index_out, stream);
  return cudaErrorInvalidValue;
}

} // namespace shepard_cuda
