// SPDX-License-Identifier: GPL-3.0-or-later
// The weighting neighbourhood on the device (shepard-engine.h's "The weighting neighbourhood"): after stage 1 has
// found each query's exponent and nearest point of all, one thread per query selects its points (the N nearest in
// the search ellipse, per-quadrant lists merged nearest first, or every point of the ellipse), decides no data, and
// weighs the selection for every field. Rasters and point lists, and cross-validation with its folds left out.
#include "cuda-search.cuh"

#include <type_traits>

namespace shepard_cuda {

namespace {

constexpr int kThreads = 128;
// The longest selection a thread keeps (local memory): max_points, or four quadrant lists.
constexpr int kMaxSelected = SHEPARD_CUDA_MAX_NEIGHBORS;

// The selected points, nearest first (ties by index).
struct Selection {
  float d[kMaxSelected];
  unsigned index[kMaxSelected];
  int count;
};

// The cap (<= QK) nearest kept points of each quadrant inside the ellipse (when hood has one), for search_rings.
// Quadrant lists are indexed at run time: they live in local memory.
template <int QK, typename Keep> struct QuadrantVisitor {
  float d[4 * QK];
  unsigned index[4 * QK];
  int cap;
  Keep keep;
  const Neighbourhood *hood;

  __device__ void
  clear ()
  {
    for (int j = 0; j < 4 * QK; j++)
      {
        d[j] = INFINITY;
        index[j] = UINT_MAX;
      }
  }

  __device__ void
  visit (const Query &q, unsigned slot, float4 p, unsigned point_index)
  {
    if (!keep.keeps (slot))
      return;
    float2 offset = offset_of (q, p);
    if (hood->ellipse && !inside_ellipse (*hood, offset))
      return;
    float cd = fmaf (offset.x, offset.x, offset.y * offset.y);
    int base = quadrant_of (offset) * QK;
    if (!before (cd, point_index, d[base + cap - 1], index[base + cap - 1]))
      return;
    int j = cap - 1;
    while (j > 0 && before (cd, point_index, d[base + j - 1], index[base + j - 1]))
      {
        d[base + j] = d[base + j - 1];
        index[base + j] = index[base + j - 1];
        j--;
      }
    d[base + j] = cd;
    index[base + j] = point_index;
  }

  // A quadrant is complete when its list is full of points nearer than any unvisited cell, or when the search
  // square has reached the grid's edges on its side (the points' box holds nothing more there).
  __device__ bool
  finished (float clear, unsigned reached) const
  {
    if (clear > hood->reach)
      return true;
    for (int quadrant = 0; quadrant < 4; quadrant++)
      {
        unsigned edges = edges_of_quadrant (quadrant);
        bool complete = (reached & edges) == edges || (clear > 0.0f && d[quadrant * QK + cap - 1] < clear * clear);
        if (!complete)
          return false;
      }
    return true;
  }

  // Nearest first over the four lists, up to limit (<= 4 cap); per_quadrant counts what each gave.
  __device__ void
  merge (int limit, Selection &selection, int per_quadrant[4]) const
  {
    int head[4] = { 0, 0, 0, 0 };
    selection.count = 0;
    while (selection.count < limit)
      {
        int best = -1;
        float best_d = INFINITY;
        unsigned best_index = UINT_MAX;
        for (int quadrant = 0; quadrant < 4; quadrant++)
          {
            if (head[quadrant] >= cap)
              continue;
            int j = quadrant * QK + head[quadrant];
            if (index[j] != UINT_MAX && (best < 0 || before (d[j], index[j], best_d, best_index)))
              {
                best = quadrant;
                best_d = d[j];
                best_index = index[j];
              }
          }
        if (best < 0)
          break;
        selection.d[selection.count] = best_d;
        selection.index[selection.count] = best_index;
        selection.count++;
        head[best]++;
      }
    for (int quadrant = 0; quadrant < 4; quadrant++)
      per_quadrant[quadrant] = head[quadrant];
  }
};

// The point's {x_hi, y_hi, x_lo, y_lo} by its index as given.
__device__ __forceinline__ float4
point_at (const DevicePoints &points, unsigned index)
{
  float4 hi = points.hi_z[index];
  float2 lo = points.lo[index];
  return make_float4 (hi.x, hi.y, lo.x, lo.y);
}

// Where a query's values go: field f's at value[f * stride + at].
struct Target {
  float *value;
  size_t stride, at;
  int n_fields;
};

// Every kept point inside the ellipse (or every kept point): how many per quadrant, and the smallest squared distance.
template <typename Keep>
__device__ void
scan_radius (const DeviceGrid &grid, const Query &q, const Neighbourhood &hood, const Keep &keep, int per_quadrant[4],
             float *nearest)
{
  CellBox box = cell_box (grid, q, hood.box_x, hood.box_y);
  float smallest = INFINITY;
  for (int j = box.j_first; j <= box.j_last; j++)
    for (int i = box.i_first; i <= box.i_last; i++)
      {
        unsigned cell = (unsigned) j * (unsigned) grid.nx + (unsigned) i;
        for (unsigned slot = grid.cell_start[cell]; slot < grid.cell_start[cell + 1]; slot++)
          {
            if (!keep.keeps (slot))
              continue;
            float2 offset = offset_of (q, grid.sorted[slot]);
            if (hood.ellipse && !inside_ellipse (hood, offset))
              continue;
            per_quadrant[quadrant_of (offset)]++;
            smallest = fminf (smallest, fmaf (offset.x, offset.x, offset.y * offset.y));
          }
      }
  *nearest = smallest;
}

// The weighted mean over the same points as scan_radius, for each field: one pass over the cells per field.
template <typename Keep>
__device__ void
weigh_radius (const DeviceGrid &grid, size_t n, const Query &q, const Neighbourhood &hood, const Keep &keep,
              float exponent, float reference, const Target &target)
{
  CellBox box = cell_box (grid, q, hood.box_x, hood.box_y);
  for (int f = 0; f < target.n_fields; f++)
    {
      const float *z = grid.sorted_z + (size_t) f * n;
      double sum_w = 0.0, sum_wz = 0.0;
      for (int j = box.j_first; j <= box.j_last; j++)
        for (int i = box.i_first; i <= box.i_last; i++)
          {
            unsigned cell = (unsigned) j * (unsigned) grid.nx + (unsigned) i;
            for (unsigned slot = grid.cell_start[cell]; slot < grid.cell_start[cell + 1]; slot++)
              {
                if (!keep.keeps (slot))
                  continue;
                float2 offset = offset_of (q, grid.sorted[slot]);
                if (hood.ellipse && !inside_ellipse (hood, offset))
                  continue;
                float d2 = fmaf (offset.x, offset.x, offset.y * offset.y);
                float w = exp2f (exponent * log2f ((d2 + hood.smoothing2) / reference));
                sum_w += w;
                sum_wz += (double) w * z[slot];
              }
          }
      target.value[(size_t) f * target.stride + target.at] = (float) (sum_wz / sum_w);
    }
}

// The weighted mean over a selection, for each field (weights overwrite the squared distances).
__device__ void
weigh_selection (const DevicePoints &points, Selection &selection, const Neighbourhood &hood, float exponent,
                 const Target &target)
{
  float reference = selection.d[0] + hood.smoothing2;
  for (int j = 0; j < selection.count; j++)
    selection.d[j] = exp2f (exponent * log2f ((selection.d[j] + hood.smoothing2) / reference));
  for (int f = 0; f < target.n_fields; f++)
    {
      const float *z = points.z + (size_t) f * points.n;
      double sum_w = 0.0, sum_wz = 0.0;
      for (int j = 0; j < selection.count; j++)
        {
          sum_w += selection.d[j];
          sum_wz += (double) selection.d[j] * z[selection.index[j]];
        }
      target.value[(size_t) f * target.stride + target.at] = (float) (sum_wz / sum_w);
    }
}

// One query: selection, no data, the coincident rule, weighting. KS: the list's length (kNearest) or each
// quadrant's (kQuadrants); unused by kRadius.
template <NeighbourhoodMode M, int KS, typename Keep>
__device__ void
evaluate (const DeviceGrid &grid, const DevicePoints &points, const Query &q, const Neighbourhood &hood,
          float exponent, float nearest_all, float coincident_d2, const Keep &keep, const Target &target)
{
  int per_quadrant[4] = { 0, 0, 0, 0 };
  int count = 0;
  float nearest_selected = INFINITY;
  Selection selection;
  selection.count = 0;
  if constexpr (M == kRadius)
    {
      scan_radius (grid, q, hood, keep, per_quadrant, &nearest_selected);
      count = per_quadrant[0] + per_quadrant[1] + per_quadrant[2] + per_quadrant[3];
    }
  else if constexpr (M == kQuadrants)
    {
      QuadrantVisitor<KS, Keep> visitor;
      visitor.clear ();
      visitor.cap = hood.max_per_quadrant < KS ? hood.max_per_quadrant : KS;
      visitor.keep = keep;
      visitor.hood = &hood;
      search_rings (grid, q, visitor);
      int limit = hood.max_points > 0 && hood.max_points < 4 * visitor.cap ? hood.max_points : 4 * visitor.cap;
      visitor.merge (limit, selection, per_quadrant);
      count = selection.count;
    }
  else
    {
      NearestList<KS> list;
      list.clear ();
      NearestVisitor<KS, Keep, true> visitor = { list, keep, &hood };
      search_rings (grid, q, visitor);
      int limit = hood.max_points < KS ? hood.max_points : KS;
#pragma unroll
      for (int j = 0; j < KS; j++)
        if (j < limit && list.index[j] != UINT_MAX)
          {
            selection.d[j] = list.d[j];
            selection.index[j] = list.index[j];
            selection.count = j + 1;
          }
      count = selection.count;
      if (hood.min_per_quadrant > 0)
        for (int j = 0; j < count; j++)
          per_quadrant[quadrant_of (offset_of (q, point_at (points, selection.index[j])))]++;
    }
  if (M != kRadius && count > 0)
    nearest_selected = selection.d[0];

  bool data = count >= hood.min_points;
  for (int quadrant = 0; quadrant < 4; quadrant++)
    data = data && per_quadrant[quadrant] >= hood.min_per_quadrant;
  if (!data)
    {
      write_no_data (target.n_fields, target.value, target.stride, target.at);
      return;
    }
  if (!hood.smoothed && nearest_all <= coincident_d2)
    {
      coincident_means (grid, points.n, q, coincident_d2, target.n_fields, target.value, target.stride, target.at,
                        keep);
      return;
    }
  if constexpr (M == kRadius)
    weigh_radius (grid, points.n, q, hood, keep, exponent, nearest_selected + hood.smoothing2, target);
  else
    weigh_selection (points, selection, hood, exponent, target);
}

template <NeighbourhoodMode M, int KS>
__global__ void __launch_bounds__ (kThreads)
neighbourhood_kernel (DeviceGrid grid, DevicePoints points, QuerySource source, Stage1Params params,
                      Stage1Outputs out)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= source.count)
    return;
  Query q = query_at (source, i);
  Target target = { out.value, out.value_stride, (size_t) i, params.n_fields };
  evaluate<M, KS> (grid, points, q, params.hood, out.exponent[i], out.offset[i], params.coincident_d2, KeepAll (),
                   target);
  out.done[i] = 1;
}

// Query slot s is the point in grid slot s, from the points outside its fold (field 0).
template <NeighbourhoodMode M, int KS, bool Folds>
__global__ void __launch_bounds__ (kThreads)
cv_neighbourhood_kernel (DeviceGrid grid, DevicePoints points, CvParams params, CvOutputs out, SlotRange slots)
{
  size_t slot = slots.first + (size_t) blockIdx.x * blockDim.x + threadIdx.x;
  if (slot >= slots.end)
    return;
  float4 own = grid.sorted[slot];
  Query q = { own.x, own.z, own.y, own.w };
  unsigned index = grid.sorted_index[slot];
  uint32_t label = Folds ? params.sorted_label[slot] : index;
  KeepOtherFolds<Folds> keep = { params.sorted_label, (unsigned) slot, label };
  Target target = { out.value, 0, index, 1 };
  evaluate<M, KS> (grid, points, q, params.hood, out.exponent[slot], out.offset[slot], params.coincident_d2, keep,
                   target);
  out.done[slot] = 1;
}

template <NeighbourhoodMode M, int KS>
cudaError_t
launch_for (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
            const Stage1Params &params, const Stage1Outputs &out, cudaStream_t stream)
{
  int blocks = (queries.count + kThreads - 1) / kThreads;
  neighbourhood_kernel<M, KS><<<blocks, kThreads, 0, stream>>> (grid, points, queries, params, out);
  return cudaGetLastError ();
}

template <NeighbourhoodMode M, int KS>
cudaError_t
launch_cv_for (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params, const CvOutputs &out,
               SlotRange slots, cudaStream_t stream)
{
  unsigned blocks = (unsigned) ((slots.end - slots.first + kThreads - 1) / kThreads);
  if (params.sorted_label)
    cv_neighbourhood_kernel<M, KS, true><<<blocks, kThreads, 0, stream>>> (grid, points, params, out, slots);
  else
    cv_neighbourhood_kernel<M, KS, false><<<blocks, kThreads, 0, stream>>> (grid, points, params, out, slots);
  return cudaGetLastError ();
}

// The list lengths the kernels are built for; Launch (mode, list length) runs one of them.
template <typename Launch>
cudaError_t
dispatch (const Neighbourhood &hood, const Launch &launch)
{
  switch (hood.mode)
    {
    case kNearest:
      if (hood.max_points <= 16)
        return launch (std::integral_constant<int, kNearest> (), std::integral_constant<int, 16> ());
      if (hood.max_points <= 32)
        return launch (std::integral_constant<int, kNearest> (), std::integral_constant<int, 32> ());
      if (hood.max_points <= 64)
        return launch (std::integral_constant<int, kNearest> (), std::integral_constant<int, 64> ());
      return cudaErrorInvalidValue;
    case kQuadrants:
      if (hood.max_per_quadrant <= 4)
        return launch (std::integral_constant<int, kQuadrants> (), std::integral_constant<int, 4> ());
      if (hood.max_per_quadrant <= 8)
        return launch (std::integral_constant<int, kQuadrants> (), std::integral_constant<int, 8> ());
      if (hood.max_per_quadrant <= kMaxSelected / 4)
        return launch (std::integral_constant<int, kQuadrants> (), std::integral_constant<int, kMaxSelected / 4> ());
      return cudaErrorInvalidValue;
    case kRadius:
      return launch (std::integral_constant<int, kRadius> (), std::integral_constant<int, 1> ());
    case kFused:
    default:
      return cudaErrorInvalidValue;
    }
}

} // namespace

cudaError_t
launch_neighbourhood (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
                      const Stage1Params &params, const Stage1Outputs &out, cudaStream_t stream)
{
  return dispatch (params.hood, [&] (auto mode, auto length) {
    return launch_for<(NeighbourhoodMode) decltype (mode)::value, decltype (length)::value> (grid, points, queries,
                                                                                              params, out, stream);
  });
}

cudaError_t
launch_cv_neighbourhood (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params,
                         const CvOutputs &out, SlotRange slots, cudaStream_t stream)
{
  return dispatch (params.hood, [&] (auto mode, auto length) {
    return launch_cv_for<(NeighbourhoodMode) decltype (mode)::value, decltype (length)::value> (grid, points, params,
                                                                                                 out, slots, stream);
  });
}

} // namespace shepard_cuda
