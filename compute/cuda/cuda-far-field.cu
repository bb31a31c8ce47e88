// SPDX-License-Identifier: GPL-3.0-or-later
// The far field's sums on the device: the CPU's tree (far-field.c) and its acceptance test (far-field-tree.h), so
// that the GPU keeps far-field.h's guarantee; every sum in float64. One warp serves a tile of 8 x 8 neighbouring
// queries, two a lane. It walks the tree together, 32 nodes a step (one a lane; the test is the tile's, so every lane
// agrees), and gathers two lists in shared memory: nodes accepted with the order each needs, and nodes whose points
// are weighed one by one. Then every lane sums both lists for its two queries, without divergence: an accepted node's
// moments pass into shared memory once for the warp, each read serving two queries, and a near node's points pass
// through registers by shuffles, as the tiled brute-force kernel streams its points.
#include "cuda-internal.cuh"

#include "../far-field-tree.h"

namespace shepard_cuda {

namespace {

// A grid band's tile: 8 x 8 cells, two queries a lane (rows r and r + 4), so that each moment read from shared memory
// serves two queries and two chains of sums overlap.
constexpr int kQueriesPerLane = 2;
constexpr int kTileColumns = 8, kTileRows = 4 * kQueriesPerLane;
constexpr int kWarpsPerBlock = 4;
// Registers bound the warps a multiprocessor keeps (128 each at 4 blocks of 4 warps): the float64 sums' latency wants
// many. At 4 a few bytes spill, and it still ran 6 % faster than 3 blocks without spilling
// (shepard-bench-cuda-far-field, H100).
constexpr int kBlocksPerMultiprocessor = 4;
constexpr unsigned kFullMask = 0xffffffffu;
// The walk's stack of nodes still to test: a step pops up to 32 and pushes two children for each node opened. Where
// they would not fit (a tile far larger than the points' spacing), the node's points are weighed one by one instead:
// exact, only slower.
constexpr int kStackCapacity = 768;
// Lists are summed and emptied when full.
constexpr int kFarCapacity = 64, kNearCapacity = 64;
constexpr int kTerms = FAR_FIELD_TERMS_MAX;

struct WarpLists {
  int stack[kStackCapacity];
  int far_node[kFarCapacity];
  int far_order[kFarCapacity];
  int near_node[kNearCapacity];
  // the accepted node's moments being summed, {real, imaginary}: the weights' [0], the field's [1]
  double2 moments[2][kTerms];
  far_field_tile_bounds bounds;
};

// One lane's query and its running sums.
struct LaneQuery {
  bool active; // a query of the band that stage 1 left to the far field
  int index;
  double x, y, nearest_d2, inverse_nearest_d2, s; // s = alpha / 2
  double sum_w, sum_wz;
};

__device__ __forceinline__ double
warp_min (double value)
{
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmin (value, __shfl_xor_sync (kFullMask, value, offset));
  return value;
}

__device__ __forceinline__ double
warp_max (double value)
{
  for (int offset = 16; offset > 0; offset /= 2)
    value = fmax (value, __shfl_xor_sync (kFullMask, value, offset));
  return value;
}

// (nearest_d2 / d2)^s, given 1 / d2 or 1 / nearest_d2 (a multiplication where a division costs a dozen
// instructions): by products where every query of the tile has the same whole 2s (IDW with a whole power), else by
// the series of far-field-power.h, as far-field.c weighs.
__device__ __forceinline__ double
relative_weight (double d2, double inverse_d2, const LaneQuery &q, int whole_power)
{
  if (whole_power > 0)
    {
      double ratio = q.nearest_d2 * inverse_d2;
      double w = whole_power & 1 ? sqrt (ratio) : 1.0;
      for (int i = 0; i < whole_power / 2; i++)
        w *= ratio;
      return w;
    }
  return far_field_exp (-q.s * far_field_log (d2 * q.inverse_nearest_d2));
}

// Where moment (j, l), j <= l, is stored (far-field.c's order).
__host__ __device__ constexpr int
term_index (int j, int l)
{
  return (j + l > 0 ? FAR_FIELD_TERMS_OF_ORDER (j + l - 1) : 0) + j;
}

struct TermTable {
  unsigned char index[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX / 2 + 1]; // [d][j]: moment (j, j + d)
};

constexpr TermTable
term_table ()
{
  TermTable table = {};
  for (int d = 0; d <= FAR_FIELD_ORDER_MAX; d++)
    for (int j = 0; 2 * j + d <= FAR_FIELD_ORDER_MAX; j++)
      table.index[d][j] = (unsigned char) term_index (j, j + d);
  return table;
}

// 1 / k, and where moment (j, j + d) is stored at [d][j]: the same for every lane, from the constant cache.
__constant__ double kInverse[FAR_FIELD_ORDER_MAX + 2] = {
  0.0,        1.0,        1.0 / 2,  1.0 / 3,  1.0 / 4,  1.0 / 5,  1.0 / 6,  1.0 / 7,  1.0 / 8, 1.0 / 9,
  1.0 / 10,   1.0 / 11,   1.0 / 12, 1.0 / 13, 1.0 / 14, 1.0 / 15, 1.0 / 16, 1.0 / 17,
};
__constant__ TermTable kTermIndex = term_table ();

// Every accepted node of the list, from its moments: sum_{j<=l} 2 Re(c_j c_l |v|^2j conj(v)^(l-j) M_jl) (once for
// j = l) with v = radius conj(r) / |r|^2, times (nearest / |r|)^alpha, as far-field.c's sum_far_node.
__device__ __forceinline__ void
sum_far_list (const DeviceFarField &tree, int field, WarpLists &lists, int count, LaneQuery (&qs)[kQueriesPerLane],
              int whole_power)
{
  const far_node *nodes = static_cast<const far_node *> (tree.nodes);
  int lane = threadIdx.x % 32;
  for (int e = 0; e < count; e++)
    {
      int node = lists.far_node[e], order = lists.far_order[e];
      int terms = FAR_FIELD_TERMS_OF_ORDER (order);
      const double *weights = tree.moments + (size_t) node * tree.n_slots * 2 * kTerms;
      const double *values = weights + (size_t) (1 + field) * 2 * kTerms;
      for (int u = lane; u < 2 * terms; u += 32)
        {
          int part = u / terms, t = u - part * terms;
          const double *from = part == 0 ? weights : values;
          lists.moments[part][t] = make_double2 (from[t], from[kTerms + t]);
        }
      __syncwarp ();
      const far_node &n = nodes[node];
      double radius = n.radius > 0.0 ? n.radius : 1.0;
      const double2 *m_w = lists.moments[0], *m_z = lists.moments[1];
      double r2[kQueriesPerLane], inverse_r2[kQueriesPerLane], v_re[kQueriesPerLane], v_im[kQueriesPerLane];
      double modulus2[kQueriesPerLane], p_re[kQueriesPerLane], p_im[kQueriesPerLane], c_d[kQueriesPerLane];
      // Four sums a query, so that chains of additions overlap; the coefficients c_j c_l by their ratios (the
      // divisions are constants), kept in registers.
      double w_re[kQueriesPerLane], w_im[kQueriesPerLane], z_re[kQueriesPerLane], z_im[kQueriesPerLane];
#pragma unroll
      for (int k = 0; k < kQueriesPerLane; k++)
        {
          double r_re = qs[k].x - n.cx, r_im = qs[k].y - n.cy;
          r2[k] = r_re * r_re + r_im * r_im;
          inverse_r2[k] = 1.0 / r2[k];
          v_re[k] = radius * r_re * inverse_r2[k];
          v_im[k] = -radius * r_im * inverse_r2[k];
          modulus2[k] = v_re[k] * v_re[k] + v_im[k] * v_im[k];
          p_re[k] = 1.0;
          p_im[k] = 0.0;
          c_d[k] = 1.0;
          w_re[k] = w_im[k] = z_re[k] = z_im[k] = 0.0;
        }
      // Loops at run time (their bounds are the order): unrolled, they would keep too much in registers.
#pragma unroll 1
      for (int d = 0; d <= order; d++) // d = l - j
        {
          double pair[kQueriesPerLane], modulus_power[kQueriesPerLane]; // c_j c_(j+d) (twice for d > 0), |v|^2j
#pragma unroll
          for (int k = 0; k < kQueriesPerLane; k++)
            {
              pair[k] = d > 0 ? 2.0 * c_d[k] : c_d[k];
              modulus_power[k] = 1.0;
            }
          const unsigned char *terms_of_d = kTermIndex.index[d];
#pragma unroll 1
          for (int j = 0; 2 * j + d <= order; j++)
            {
              int t = terms_of_d[j];
              double2 moment_w = m_w[t], moment_z = m_z[t];
              double ratio = kInverse[j + 1] * kInverse[j + d + 1];
#pragma unroll
              for (int k = 0; k < kQueriesPerLane; k++)
                {
                  double coefficient = pair[k] * modulus_power[k];
                  double a = coefficient * p_re[k], b = coefficient * p_im[k];
                  w_re[k] += a * moment_w.x;
                  w_im[k] += b * moment_w.y;
                  z_re[k] += a * moment_z.x;
                  z_im[k] += b * moment_z.y;
                  modulus_power[k] *= modulus2[k];
                  pair[k] *= (qs[k].s + j) * (qs[k].s + j + d) * ratio;
                }
            }
#pragma unroll
          for (int k = 0; k < kQueriesPerLane; k++)
            {
              double next_re = p_re[k] * v_re[k] - p_im[k] * v_im[k];
              p_im[k] = p_re[k] * v_im[k] + p_im[k] * v_re[k];
              p_re[k] = next_re;
              c_d[k] *= (qs[k].s + d) * kInverse[d + 1];
            }
        }
#pragma unroll
      for (int k = 0; k < kQueriesPerLane; k++)
        if (qs[k].active)
          {
            // (nearest / |r|)^alpha: at most (1 + rho)^alpha, as the nearest point is no farther than this node's
            double factor = relative_weight (r2[k], inverse_r2[k], qs[k], whole_power);
            qs[k].sum_w += factor * (w_re[k] + w_im[k]);
            qs[k].sum_wz += factor * (z_re[k] + z_im[k]);
          }
      __syncwarp ();
    }
}

// The points of every node of the list weighed one by one: lane t loads point base + t, and the warp passes each
// point to every lane.
__device__ __forceinline__ void
sum_near_list (const DeviceFarField &tree, int field, const WarpLists &lists, int count,
               LaneQuery (&qs)[kQueriesPerLane], int whole_power)
{
  const far_node *nodes = static_cast<const far_node *> (tree.nodes);
  const double *z = tree.z + (size_t) field * tree.n;
  int lane = threadIdx.x % 32;
  for (int e = 0; e < count; e++)
    {
      const far_node &n = nodes[lists.near_node[e]];
      for (size_t base = n.begin; base < n.end; base += 32)
        {
          size_t mine = base + lane;
          double px = 0.0, py = 0.0, pz = 0.0;
          if (mine < n.end)
            {
              px = tree.x[mine];
              py = tree.y[mine];
              pz = z[mine];
            }
          int points = n.end - base < 32 ? (int) (n.end - base) : 32;
          for (int t = 0; t < points; t++)
            {
              double x = __shfl_sync (kFullMask, px, t), y = __shfl_sync (kFullMask, py, t);
              double value = __shfl_sync (kFullMask, pz, t);
#pragma unroll
              for (int k = 0; k < kQueriesPerLane; k++)
                if (qs[k].active)
                  {
                    double dx = x - qs[k].x, dy = y - qs[k].y;
                    double d2 = dx * dx + dy * dy;
                    double w = relative_weight (d2, whole_power > 0 ? 1.0 / d2 : 0.0, qs[k], whole_power);
                    qs[k].sum_w += w;
                    qs[k].sum_wz += w * value;
                  }
            }
        }
    }
}

__device__ __forceinline__ int
lanes_below (unsigned mask)
{
  return __popc (mask & ((1u << (threadIdx.x % 32)) - 1u));
}

enum NodeChoice { kNone, kFar, kNear, kOpen };

__global__ void __launch_bounds__ (kWarpsPerBlock * 32, kBlocksPerMultiprocessor)
far_field_kernel (DeviceFarField tree, QuerySource source, Stage1Outputs out, int field, double tolerance,
                  int tiles_across, int tiles)
{
  __shared__ WarpLists all_lists[kWarpsPerBlock];
  int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  int tile = blockIdx.x * kWarpsPerBlock + warp;
  if (tile >= tiles)
    return; // the whole warp
  WarpLists &lists = all_lists[warp];

  // Each lane's queries: column lane % 8 of the tile, rows lane / 8 and lane / 8 + 4 (explicit queries: lane and
  // lane + 32 of the tile's 64).
  LaneQuery qs[kQueriesPerLane] = {};
  bool any_active = false;
#pragma unroll
  for (int k = 0; k < kQueriesPerLane; k++)
    {
      LaneQuery &q = qs[k];
      if (source.is_grid)
        {
          int column = (tile % tiles_across) * kTileColumns + lane % kTileColumns;
          int row = (tile / tiles_across) * kTileRows + lane / kTileColumns + k * (32 / kTileColumns);
          q.index = row * source.width + column;
          q.active = column < source.width && q.index < source.count;
        }
      else
        {
          q.index = (tile * kQueriesPerLane + k) * 32 + lane;
          q.active = q.index < source.count;
        }
      q.active = q.active && !out.done[q.index];
      if (q.active)
        {
          query_position (source, q.index, q.x, q.y);
          q.nearest_d2 = out.offset[q.index];
          q.inverse_nearest_d2 = 1.0 / q.nearest_d2;
          q.s = -(double) out.exponent[q.index];
        }
      any_active = any_active || q.active;
    }
  unsigned active_lanes = __ballot_sync (kFullMask, any_active);
  if (active_lanes == 0)
    return;

  // The tile's box and what the acceptance test needs of its queries.
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  double lane_alpha_min = INFINITY, lane_alpha_max = 0.0, lane_nearest2 = 0.0;
  int whole_power = -1; // -1: no active query yet in this lane; 0: no common whole power
#pragma unroll
  for (int k = 0; k < kQueriesPerLane; k++)
    if (qs[k].active)
      {
        x_min = fmin (x_min, qs[k].x);
        x_max = fmax (x_max, qs[k].x);
        y_min = fmin (y_min, qs[k].y);
        y_max = fmax (y_max, qs[k].y);
        lane_alpha_min = fmin (lane_alpha_min, 2.0 * qs[k].s);
        lane_alpha_max = fmax (lane_alpha_max, 2.0 * qs[k].s);
        lane_nearest2 = fmax (lane_nearest2, qs[k].nearest_d2);
        double p = 2.0 * qs[k].s;
        int whole = p == floor (p) && p >= 1.0 && p <= 16.0 ? (int) p : 0;
        whole_power = whole_power < 0 || whole_power == whole ? whole : 0;
      }
  double box_x_min = warp_min (x_min), box_x_max = warp_max (x_max);
  double box_y_min = warp_min (y_min), box_y_max = warp_max (y_max);
  double alpha_min = warp_min (lane_alpha_min), alpha_max = warp_max (lane_alpha_max);
  // The nearest distances come from stage 1 in float: a little more covers their rounding.
  double nearest_max = sqrt (warp_max (lane_nearest2)) * (1.0 + 1e-6);
  int first_whole = __shfl_sync (kFullMask, whole_power, __ffs (active_lanes) - 1);
  whole_power = __all_sync (kFullMask, !any_active || whole_power == first_whole) ? first_whole : 0;
  if (lane == 0)
    {
      far_field_tile_bounds_init (&lists.bounds, tolerance, alpha_min, alpha_max, nearest_max);
      lists.stack[0] = 0;
    }
  __syncwarp ();

  const far_node *nodes = static_cast<const far_node *> (tree.nodes);
  int top = 1, far_count = 0, near_count = 0;
  while (top > 0)
    {
      int popped = top < 32 ? top : 32;
      int node = lane < popped ? lists.stack[top - 1 - lane] : -1;
      top -= popped;
      __syncwarp ();
      NodeChoice choice = kNone;
      int order = -1;
      if (node >= 0)
        {
          const far_node &n = nodes[node];
          double dx = fmax (0.0, fmax (box_x_min - n.cx, n.cx - box_x_max));
          double dy = fmax (0.0, fmax (box_y_min - n.cy, n.cy - box_y_max));
          order = far_field_accept_order (&lists.bounds, (double) tree.n, n.radius,
                                          tree.spread + (size_t) node * FAR_FIELD_SPREADS, dx * dx + dy * dy);
          choice = order >= 0 ? kFar : n.second_child == 0 ? kNear : kOpen;
        }

      unsigned far_lanes = __ballot_sync (kFullMask, choice == kFar);
      if (far_count + __popc (far_lanes) > kFarCapacity)
        {
          sum_far_list (tree, field, lists, far_count, qs, whole_power);
          far_count = 0;
        }
      if (choice == kFar)
        {
          int slot = far_count + lanes_below (far_lanes);
          lists.far_node[slot] = node;
          lists.far_order[slot] = order;
        }
      far_count += __popc (far_lanes);

      unsigned open_lanes = __ballot_sync (kFullMask, choice == kOpen);
      if (top + 2 * __popc (open_lanes) <= kStackCapacity)
        {
          if (choice == kOpen)
            {
              int slot = top + 2 * lanes_below (open_lanes);
              lists.stack[slot] = (int) nodes[node].second_child;
              lists.stack[slot + 1] = node + 1;
            }
          top += 2 * __popc (open_lanes);
        }
      else if (choice == kOpen)
        choice = kNear;

      unsigned near_lanes = __ballot_sync (kFullMask, choice == kNear);
      if (near_count + __popc (near_lanes) > kNearCapacity)
        {
          __syncwarp ();
          sum_near_list (tree, field, lists, near_count, qs, whole_power);
          near_count = 0;
          __syncwarp (); // every lane has read the list before it is written again
        }
      if (choice == kNear)
        lists.near_node[near_count + lanes_below (near_lanes)] = node;
      near_count += __popc (near_lanes);
      __syncwarp ();
    }
  sum_far_list (tree, field, lists, far_count, qs, whole_power);
  sum_near_list (tree, field, lists, near_count, qs, whole_power);

#pragma unroll
  for (int k = 0; k < kQueriesPerLane; k++)
    if (qs[k].active)
      out.value[(size_t) field * out.value_stride + qs[k].index]
          = (float) (tree.z_min[field] + qs[k].sum_wz / qs[k].sum_w);
}

template <typename T>
cudaError_t
copy_to_device (T *&device, const T *host, size_t count)
{
  cudaError_t status = cudaMalloc (&device, count * sizeof (T));
  if (status == cudaSuccess)
    status = cudaMemcpy (device, host, count * sizeof (T), cudaMemcpyHostToDevice);
  return status;
}

} // namespace

void
free_far_field (DeviceFarField &device)
{
  release (device.x);
  release (device.y);
  release (device.z);
  release (device.spread);
  release (device.moments);
  void *nodes = const_cast<void *> (device.nodes);
  release (nodes);
  device = DeviceFarField ();
}

cudaError_t
upload_far_field (const shepard_far_field *far_field, DeviceFarField &device)
{
  if (device.source == far_field)
    return cudaSuccess;
  free_far_field (device);
  size_t n = far_field->n, n_nodes = far_field->n_nodes;
  DeviceFarField copy;
  copy.n = n;
  copy.n_nodes = n_nodes;
  copy.n_fields = (int) far_field->n_fields;
  copy.n_slots = (int) far_field->n_slots;
  for (size_t f = 0; f < far_field->n_fields; f++)
    copy.z_min[f] = far_field->z_min[f];
  far_node *nodes = nullptr;
  cudaError_t status = copy_to_device (copy.x, far_field->x, n);
  if (status == cudaSuccess)
    status = copy_to_device (copy.y, far_field->y, n);
  if (status == cudaSuccess)
    status = copy_to_device (copy.z, far_field->z, n * far_field->n_fields);
  if (status == cudaSuccess)
    status = copy_to_device (nodes, far_field->nodes, n_nodes);
  copy.nodes = nodes;
  if (status == cudaSuccess)
    status = copy_to_device (copy.spread, far_field->spread, n_nodes * FAR_FIELD_SPREADS);
  if (status == cudaSuccess)
    status = copy_to_device (copy.moments, far_field->moments, n_nodes * far_field->n_slots * 2 * kTerms);
  if (status != cudaSuccess)
    {
      free_far_field (copy);
      return status;
    }
  copy.source = far_field;
  device = copy;
  return cudaSuccess;
}

cudaError_t
launch_far_field (const DeviceFarField &tree, const QuerySource &queries, const Stage1Outputs &out, int field,
                  double tolerance, cudaStream_t stream)
{
  if (queries.count == 0)
    return cudaSuccess;
  int tiles_across = 0, tiles = 0;
  if (queries.is_grid)
    {
      // Bands are whole rows of the raster.
      int rows = (queries.count + queries.width - 1) / queries.width;
      tiles_across = (queries.width + kTileColumns - 1) / kTileColumns;
      tiles = tiles_across * ((rows + kTileRows - 1) / kTileRows);
    }
  else
    tiles = (queries.count + 32 * kQueriesPerLane - 1) / (32 * kQueriesPerLane);
  int blocks = (tiles + kWarpsPerBlock - 1) / kWarpsPerBlock;
  far_field_kernel<<<blocks, kWarpsPerBlock * 32, 0, stream>>> (tree, queries, out, field, tolerance, tiles_across,
                                                                 tiles);
  return cudaGetLastError ();
}

} // namespace shepard_cuda
