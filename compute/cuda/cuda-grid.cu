// SPDX-License-Identifier: GPL-3.0-or-later
// Stage 1 on the device: the even grid (points sorted by cell with a counting pass, cell starts by a scan), exact kNN
// by expanding rings, and what follows from the neighbours: AIDW's alpha, coincident points, the N-nearest weighting.
#include "cuda-internal.cuh"

#include <cub/device/device_scan.cuh>
#include <float.h>
#include <limits.h>

#include "../aidw-formulas.h"

namespace shepard_cuda {

namespace {

constexpr int kThreads = 256;

__device__ __forceinline__ int
clamp_cell (float position, int cells)
{
  if (!(position > 0.0f))
    return 0;
  if (position >= (float) (cells - 1))
    return cells - 1;
  return (int) position;
}

__global__ void
count_cells (DevicePoints points, DeviceGrid grid, unsigned *cell_of, unsigned *cell_count)
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
  atomicAdd (&cell_count[cell], 1u);
}

// Slots within a cell are taken in whatever order the atomics give; neighbour ties are broken by point index, so the
// search results do not depend on it.
__global__ void
scatter_by_cell (DevicePoints points, DeviceGrid grid, const unsigned *cell_of, unsigned *cell_fill)
{
  size_t i = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= points.n)
    return;
  unsigned cell = cell_of[i];
  unsigned slot = grid.cell_start[cell] + atomicAdd (&cell_fill[cell], 1u);
  float4 p = points.hi_z[i];
  float2 lo = points.lo[i];
  grid.sorted[slot] = make_float4 (p.x, p.y, lo.x, lo.y);
  grid.sorted_index[slot] = (unsigned) i;
  grid.sorted_z[slot] = p.z;
}

struct Query {
  float x_hi, x_lo, y_hi, y_lo;
};

__device__ __forceinline__ Query
query_at (const QuerySource &source, int i)
{
  double x, y;
  if (source.is_grid)
    {
      long long index = source.first_index + i;
      long long row = index / source.width, col = index % source.width;
      x = source.x_left + ((double) col + 0.5) * source.dx;
      y = source.y_top - ((double) row + 0.5) * source.dy;
    }
  else
    {
      x = source.x[i];
      y = source.y[i];
    }
  Query q;
  q.x_hi = (float) x;
  q.x_lo = (float) (x - (double) q.x_hi);
  q.y_hi = (float) y;
  q.y_lo = (float) (y - (double) q.y_hi);
  return q;
}

// hi and lo parts subtracted separately: exact for nearby points, whose distances matter most.
__device__ __forceinline__ float
squared_distance (const Query &q, float4 p)
{
  float dx = (q.x_hi - p.x) + (q.x_lo - p.z);
  float dy = (q.y_hi - p.y) + (q.y_lo - p.w);
  return fmaf (dx, dx, dy * dy);
}

__device__ __forceinline__ bool
before (float d_a, unsigned i_a, float d_b, unsigned i_b)
{
  return d_a < d_b || (d_a == d_b && i_a < i_b);
}

// The K nearest so far, ascending, in registers (every index below is a compile-time constant after unrolling).
template <int K> struct NearestList {
  float d[K];
  unsigned index[K];

  __device__ void
  clear ()
  {
#pragma unroll
    for (int j = 0; j < K; j++)
      {
        d[j] = INFINITY;
        index[j] = UINT_MAX;
      }
  }

  __device__ float last () const { return d[K - 1]; }

  __device__ void
  offer (float cd, unsigned ci)
  {
    if (!before (cd, ci, d[K - 1], index[K - 1]))
      return;
#pragma unroll
    for (int j = K - 1; j > 0; j--)
      {
        bool shift = before (cd, ci, d[j - 1], index[j - 1]);
        bool place = !shift && before (cd, ci, d[j], index[j]);
        float nd = shift ? d[j - 1] : (place ? cd : d[j]);
        unsigned ni = shift ? index[j - 1] : (place ? ci : index[j]);
        d[j] = nd;
        index[j] = ni;
      }
    if (before (cd, ci, d[0], index[0]))
      {
        d[0] = cd;
        index[0] = ci;
      }
  }
};

// Which grid slots a search sees: all of them, or (cross-validation) those outside the query's own fold.
struct KeepAll {
  __device__ bool keeps (unsigned) const { return true; }
};

template <bool Folds> struct KeepOtherFolds {
  const uint32_t *sorted_label;
  unsigned own_slot;
  uint32_t label;

  // Leave-one-out compares slots: the point in the query's own slot is the held-out one, and only that one.
  __device__ bool keeps (unsigned slot) const { return Folds ? sorted_label[slot] != label : slot != own_slot; }
};

template <int K, typename Keep>
__device__ __forceinline__ void
visit_cell (const DeviceGrid &grid, const Query &q, unsigned cell, NearestList<K> &list, const Keep &keep)
{
  unsigned end = grid.cell_start[cell + 1];
  for (unsigned slot = grid.cell_start[cell]; slot < end; slot++)
    if (keep.keeps (slot))
      list.offer (squared_distance (q, grid.sorted[slot]), grid.sorted_index[slot]);
}

// Expanding rings around the query's cell until no unvisited cell can hold a point nearer than the K-th found: exact,
// and it covers the paper's "one more ring" and queries outside the grid alike.
template <int K, typename Keep = KeepAll>
__device__ void
search_grid (const DeviceGrid &grid, const Query &q, NearestList<K> &list, const Keep &keep = Keep ())
{
  float qx = q.x_hi + q.x_lo, qy = q.y_hi + q.y_lo;
  int cx = clamp_cell ((qx - grid.x0) * grid.inverse_cell, grid.nx);
  int cy = clamp_cell ((qy - grid.y0) * grid.inverse_cell, grid.ny);
  // Cell edges are computed in float; allow for their rounding before calling a ring clear.
  const float slack = 1e-6f + 1e-5f * grid.cell_size;
  for (int r = 0;; r++)
    {
      int i_lo = cx - r, i_hi = cx + r, j_lo = cy - r, j_hi = cy + r;
      int j_first = max (j_lo, 0), j_last = min (j_hi, grid.ny - 1);
      int i_first = max (i_lo, 0), i_last = min (i_hi, grid.nx - 1);
      for (int j = j_first; j <= j_last; j++)
        {
          if (j == j_lo || j == j_hi)
            for (int i = i_first; i <= i_last; i++)
              visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i, list, keep);
          else
            {
              if (i_lo >= 0)
                visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i_lo, list, keep);
              if (i_hi < grid.nx)
                visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i_hi, list, keep);
            }
        }
      if (i_lo <= 0 && j_lo <= 0 && i_hi >= grid.nx - 1 && j_hi >= grid.ny - 1)
        return;
      float clear = INFINITY;
      if (i_lo > 0)
        clear = fminf (clear, qx - (grid.x0 + (float) i_lo * grid.cell_size));
      if (i_hi < grid.nx - 1)
        clear = fminf (clear, grid.x0 + (float) (i_hi + 1) * grid.cell_size - qx);
      if (j_lo > 0)
        clear = fminf (clear, qy - (grid.y0 + (float) j_lo * grid.cell_size));
      if (j_hi < grid.ny - 1)
        clear = fminf (clear, grid.y0 + (float) (j_hi + 1) * grid.cell_size - qy);
      clear -= slack;
      if (clear > 0.0f && list.last () < clear * clear)
        return;
    }
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

template <typename Keep = KeepAll>
__device__ double
coincident_sum (const DeviceGrid &grid, const Query &q, float radius2, int *count, const Keep &keep = Keep ())
{
  float qx = q.x_hi + q.x_lo, qy = q.y_hi + q.y_lo;
  float radius = sqrtf (radius2) + 1e-6f + 1e-5f * grid.cell_size;
  int i_first = clamp_cell ((qx - radius - grid.x0) * grid.inverse_cell, grid.nx);
  int i_last = clamp_cell ((qx + radius - grid.x0) * grid.inverse_cell, grid.nx);
  int j_first = clamp_cell ((qy - radius - grid.y0) * grid.inverse_cell, grid.ny);
  int j_last = clamp_cell ((qy + radius - grid.y0) * grid.inverse_cell, grid.ny);
  double sum = 0.0;
  int found = 0;
  for (int j = j_first; j <= j_last; j++)
    for (int i = i_first; i <= i_last; i++)
      {
        unsigned cell = (unsigned) j * (unsigned) grid.nx + (unsigned) i;
        for (unsigned slot = grid.cell_start[cell]; slot < grid.cell_start[cell + 1]; slot++)
          if (keep.keeps (slot) && squared_distance (q, grid.sorted[slot]) <= radius2)
            {
              sum += grid.sorted_z[slot];
              found++;
            }
      }
  *count = found;
  return sum;
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

// IDW over the n_weighted nearest of the list (N-nearest mode), fused with the search. The nearest weighs 1:
// (d2 / d2_nearest)^exponent never overflows.
template <int K>
__device__ __forceinline__ float
weigh_nearest (const DevicePoints &points, const NearestList<K> &list, int n_weighted, float exponent, float nearest)
{
  double sum_w = 0.0, sum_wz = 0.0;
#pragma unroll
  for (int j = 0; j < K; j++)
    if (j < n_weighted)
      {
        float w = exp2f (exponent * log2f (list.d[j] / nearest));
        float z = points.hi_z[list.index[j]].z;
        sum_w += w;
        sum_wz += (double) w * z;
      }
  return (float) (sum_wz / sum_w);
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
  if (nearest <= params.coincident_d2)
    {
      double sum;
      int count = 0;
      if (Brute)
        {
          sum = 0.0;
          for (size_t p = 0; p < points.n; p++)
            {
              float4 hz = points.hi_z[p];
              float2 lo = points.lo[p];
              if (squared_distance (q, make_float4 (hz.x, hz.y, lo.x, lo.y)) <= params.coincident_d2)
                {
                  sum += hz.z;
                  count++;
                }
            }
        }
      else
        sum = coincident_sum (grid, q, params.coincident_d2, &count);
      out.value[i] = (float) (sum / (double) count);
      out.done[i] = 1;
      return;
    }

  if (params.n_weighted > 0)
    {
      out.value[i] = weigh_nearest (points, list, params.n_weighted, exponent, nearest);
      out.done[i] = 1;
      return;
    }
  out.done[i] = 0;
  out.exponent[i] = exponent;
  out.offset[i] = -exponent * log2f (nearest);
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
cv_stage1_kernel (DeviceGrid grid, DevicePoints points, CvParams params, CvOutputs out)
{
  size_t slot = (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= points.n)
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
  if (nearest <= params.coincident_d2)
    {
      int count = 0;
      double sum = coincident_sum (grid, q, params.coincident_d2, &count, keep);
      out.value[index] = (float) (sum / (double) count);
      out.done[slot] = 1;
      return;
    }

  if (params.n_weighted > 0)
    {
      out.value[index] = weigh_nearest (points, list, min (params.n_weighted, found), exponent, nearest);
      out.done[slot] = 1;
      return;
    }
  out.done[slot] = 0;
  out.exponent[slot] = exponent;
  out.offset[slot] = -exponent * log2f (nearest);
}

template <int K>
cudaError_t
launch_cv_stage1_for (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params,
                      const CvOutputs &out, cudaStream_t stream)
{
  unsigned blocks = (unsigned) ((points.n + kThreads - 1) / kThreads);
  if (params.sorted_label)
    cv_stage1_kernel<K, true><<<blocks, kThreads, 0, stream>>> (grid, points, params, out);
  else
    cv_stage1_kernel<K, false><<<blocks, kThreads, 0, stream>>> (grid, points, params, out);
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
                  cudaStream_t stream)
{
  if (params.k_search <= 16)
    return launch_cv_stage1_for<16> (grid, points, params, out, stream);
  if (params.k_search <= 32)
    return launch_cv_stage1_for<32> (grid, points, params, out, stream);
  if (params.k_search <= 64)
    return launch_cv_stage1_for<64> (grid, points, params, out, stream);
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
  unsigned *cell_of = nullptr, *cell_count = nullptr;
  cudaError_t status = cudaMallocAsync (&cell_of, points.n * sizeof *cell_of, stream);
  if (status == cudaSuccess)
    status = cudaMallocAsync (&cell_count, (cells + 1) * sizeof *cell_count, stream);
  if (status == cudaSuccess)
    status = cudaMemsetAsync (cell_count, 0, (cells + 1) * sizeof *cell_count, stream);
  int blocks = (int) ((points.n + kThreads - 1) / kThreads);
  if (status == cudaSuccess)
    {
      count_cells<<<blocks, kThreads, 0, stream>>> (points, grid, cell_of, cell_count);
      status = cudaGetLastError ();
    }
  // Exclusive scan of the counts gives each cell's first slot; the extra zero at the end gives cell_start[cells] = n.
  size_t needed = 0;
  if (status == cudaSuccess)
    status = cub::DeviceScan::ExclusiveSum (nullptr, needed, cell_count, grid.cell_start, (int) (cells + 1), stream);
  if (status == cudaSuccess && needed > *scan_storage_bytes)
    {
      if (*scan_storage)
        cudaFreeAsync (*scan_storage, stream);
      *scan_storage = nullptr;
      *scan_storage_bytes = 0;
      status = cudaMallocAsync (scan_storage, needed, stream);
      if (status == cudaSuccess)
        *scan_storage_bytes = needed;
    }
  if (status == cudaSuccess)
    status = cub::DeviceScan::ExclusiveSum (*scan_storage, needed, cell_count, grid.cell_start, (int) (cells + 1),
                                            stream);
  if (status == cudaSuccess)
    status = cudaMemsetAsync (cell_count, 0, (cells + 1) * sizeof *cell_count, stream);
  if (status == cudaSuccess)
    {
      scatter_by_cell<<<blocks, kThreads, 0, stream>>> (points, grid, cell_of, cell_count);
      status = cudaGetLastError ();
    }
  if (cell_of)
    cudaFreeAsync (cell_of, stream);
  if (cell_count)
    cudaFreeAsync (cell_count, stream);
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
