// SPDX-License-Identifier: GPL-3.0-or-later
// Device-side search through the even grid, shared by stage 1 (cuda-grid.cu) and the neighbourhood selection
// (cuda-neighbourhood.cu): queries as hi + lo floats, exact squared distances of nearby points, sorted neighbour
// lists with ties by index, and the expanding-ring search that feeds them.
#pragma once

#include "cuda-internal.cuh"

#include <limits.h>

namespace shepard_cuda {

namespace {

__device__ __forceinline__ int
clamp_cell (float position, int cells)
{
  if (!(position > 0.0f))
    return 0;
  if (position >= (float) (cells - 1))
    return cells - 1;
  return (int) position;
}

struct Query {
  float x_hi, x_lo, y_hi, y_lo;
};

__device__ __forceinline__ Query
query_at (const QuerySource &source, int i)
{
  double x, y;
  query_position (source, i, x, y);
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

// (x_i - x_q, y_i - y_q) of a point {x_hi, y_hi, x_lo, y_lo}: the negation of squared_distance's terms, so that both
// give the same squared distance to the bit.
__device__ __forceinline__ float2
offset_of (const Query &q, float4 p)
{
  return make_float2 ((p.x - q.x_hi) + (p.z - q.x_lo), (p.y - q.y_hi) + (p.w - q.y_lo));
}

// gdal_grid's quadrants on the map's axes: bit 0 set west of the query (dx < 0), bit 1 south (dy < 0); a point on an
// axis counts as east or north.
__device__ __forceinline__ int
quadrant_of (float2 offset)
{
  return (offset.x < 0.0f ? 1 : 0) | (offset.y < 0.0f ? 2 : 0);
}

// The edges of the grid a search square has reached.
enum : unsigned { kWestReached = 1, kEastReached = 2, kSouthReached = 4, kNorthReached = 8 };

// The edges past which a quadrant holds no unvisited cell once the search square has reached them.
__device__ __forceinline__ unsigned
edges_of_quadrant (int quadrant)
{
  return ((quadrant & 1) ? kWestReached : kEastReached) | ((quadrant & 2) ? kSouthReached : kNorthReached);
}

__device__ __forceinline__ bool
inside_ellipse (const Neighbourhood &hood, float2 offset)
{
  if (hood.circle)
    return fmaf (offset.x, offset.x, offset.y * offset.y) <= hood.radius_squared;
  float u = fmaf (offset.x, hood.cos_angle, offset.y * hood.sin_angle);
  float v = fmaf (offset.y, hood.cos_angle, -offset.x * hood.sin_angle);
  return fmaf (u * u, hood.inverse_r1_squared, v * v * hood.inverse_r2_squared) <= 1.0f;
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

// The K nearest kept points (and, with Ellipse, inside hood's search ellipse when it has one), for search_rings.
template <int K, typename Keep, bool Ellipse = false> struct NearestVisitor {
  NearestList<K> &list;
  Keep keep;
  const Neighbourhood *hood; // Ellipse only

  __device__ void
  visit (const Query &q, unsigned slot, float4 p, unsigned index)
  {
    if (!keep.keeps (slot))
      return;
    if (Ellipse)
      {
        float2 offset = offset_of (q, p);
        if (!hood->ellipse || inside_ellipse (*hood, offset))
          list.offer (fmaf (offset.x, offset.x, offset.y * offset.y), index);
      }
    else
      list.offer (squared_distance (q, p), index);
  }

  // clear: no unvisited cell holds a point nearer than this.
  __device__ bool
  finished (float clear, unsigned) const
  {
    return clear > 0.0f && (list.last () < clear * clear || (Ellipse && clear > hood->reach));
  }
};

template <typename Visitor>
__device__ __forceinline__ void
visit_cell (const DeviceGrid &grid, const Query &q, unsigned cell, Visitor &visitor)
{
  unsigned end = grid.cell_start[cell + 1];
  for (unsigned slot = grid.cell_start[cell]; slot < end; slot++)
    visitor.visit (q, slot, grid.sorted[slot], grid.sorted_index[slot]);
}

// Expanding rings around the query's cell until the visitor has all it needs: exact, and it covers the paper's "one
// more ring" and queries outside the grid alike.
template <typename Visitor>
__device__ void
search_rings (const DeviceGrid &grid, const Query &q, Visitor &visitor)
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
              visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i, visitor);
          else
            {
              if (i_lo >= 0)
                visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i_lo, visitor);
              if (i_hi < grid.nx)
                visit_cell (grid, q, (unsigned) j * (unsigned) grid.nx + (unsigned) i_hi, visitor);
            }
        }
      unsigned reached = (i_lo <= 0 ? kWestReached : 0u) | (i_hi >= grid.nx - 1 ? kEastReached : 0u)
                         | (j_lo <= 0 ? kSouthReached : 0u) | (j_hi >= grid.ny - 1 ? kNorthReached : 0u);
      if (reached == (kWestReached | kEastReached | kSouthReached | kNorthReached))
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
      if (visitor.finished (clear, reached))
        return;
    }
}

template <int K, typename Keep = KeepAll>
__device__ __forceinline__ void
search_grid (const DeviceGrid &grid, const Query &q, NearestList<K> &list, const Keep &keep = Keep ())
{
  NearestVisitor<K, Keep> visitor = { list, keep, nullptr };
  search_rings (grid, q, visitor);
}

// The cells of the box [qx - half_x, qx + half_x] x [qy - half_y, qy + half_y], widened by the float rounding of cell
// edges; infinite halves cover the whole grid.
struct CellBox {
  int i_first, i_last, j_first, j_last;
};

__device__ __forceinline__ CellBox
cell_box (const DeviceGrid &grid, const Query &q, float half_x, float half_y)
{
  float qx = q.x_hi + q.x_lo, qy = q.y_hi + q.y_lo;
  float slack = 1e-6f + 1e-5f * grid.cell_size;
  CellBox box;
  box.i_first = clamp_cell ((qx - half_x - slack - grid.x0) * grid.inverse_cell, grid.nx);
  box.i_last = clamp_cell ((qx + half_x + slack - grid.x0) * grid.inverse_cell, grid.nx);
  box.j_first = clamp_cell ((qy - half_y - slack - grid.y0) * grid.inverse_cell, grid.ny);
  box.j_last = clamp_cell ((qy + half_y + slack - grid.y0) * grid.inverse_cell, grid.ny);
  return box;
}

// The sum of z (one field's plane of sorted values) over the kept points within radius2 of q, and their count.
template <typename Keep = KeepAll>
__device__ double
coincident_sum (const DeviceGrid &grid, const float *sorted_z, const Query &q, float radius2, int *count,
                const Keep &keep = Keep ())
{
  float radius = sqrtf (radius2);
  CellBox box = cell_box (grid, q, radius, radius);
  double sum = 0.0;
  int found = 0;
  for (int j = box.j_first; j <= box.j_last; j++)
    for (int i = box.i_first; i <= box.i_last; i++)
      {
        unsigned cell = (unsigned) j * (unsigned) grid.nx + (unsigned) i;
        for (unsigned slot = grid.cell_start[cell]; slot < grid.cell_start[cell + 1]; slot++)
          if (keep.keeps (slot) && squared_distance (q, grid.sorted[slot]) <= radius2)
            {
              sum += sorted_z[slot];
              found++;
            }
      }
  *count = found;
  return sum;
}

__device__ __forceinline__ float
no_data ()
{
  return __int_as_float (0x7fc00000);
}

// The mean of the coincident points, every field.
template <typename Keep = KeepAll>
__device__ __forceinline__ void
coincident_means (const DeviceGrid &grid, size_t n, const Query &q, float coincident_d2, int n_fields, float *value,
                  size_t stride, size_t at, const Keep &keep = Keep ())
{
  for (int f = 0; f < n_fields; f++)
    {
      int count = 0;
      double sum = coincident_sum (grid, grid.sorted_z + (size_t) f * n, q, coincident_d2, &count, keep);
      value[(size_t) f * stride + at] = (float) (sum / (double) count);
    }
}

__device__ __forceinline__ void
write_no_data (int n_fields, float *value, size_t stride, size_t at)
{
  for (int f = 0; f < n_fields; f++)
    value[(size_t) f * stride + at] = no_data ();
}

} // namespace

} // namespace shepard_cuda
