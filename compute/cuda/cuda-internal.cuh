// SPDX-License-Identifier: GPL-3.0-or-later
// Device data and kernel launchers shared by the CUDA backend's .cu files. C++ stays behind cuda-backend.h.
#pragma once

#include <cuda_runtime.h>
#include <math.h>
#include <stdint.h>

#include "../cuda-backend.h"

namespace shepard_cuda {

// Points in the engine's local frame, each coordinate as hi + lo floats (lo = the rounding error of hi), and their
// values in the point set's scaled value frame, n_fields planes of n (field f's plane at f * n).
struct DevicePoints {
  size_t n = 0;
  int n_fields = 1;
  // AoaS layout: {x_hi, y_hi, z, 0} (one plane of n per field) and {x_lo, y_lo}
  float4 *hi_z = nullptr;
  float2 *lo = nullptr;
  // SoA layout (z: one plane of n per field)
  float *x_hi = nullptr, *y_hi = nullptr, *x_lo = nullptr, *y_lo = nullptr, *z = nullptr;

  // The same points with field f's values where the weighting kernels read z.
  DevicePoints
  field (int f) const
  {
    DevicePoints view = *this;
    view.hi_z = hi_z + (size_t) f * n;
    view.z = z + (size_t) f * n;
    view.n_fields = 1;
    return view;
  }
};

// The even grid: points sorted by cell. sorted[i] = {x_hi, y_hi, x_lo, y_lo} of the point in slot i; sorted_z holds
// one plane of n values per field.
struct DeviceGrid {
  float x0 = 0, y0 = 0, cell_size = 1, inverse_cell = 1;
  int nx = 1, ny = 1;
  unsigned *cell_start = nullptr; // nx * ny + 1
  float4 *sorted = nullptr;
  unsigned *sorted_index = nullptr;
  float *sorted_z = nullptr;
};

// Local query coordinates are kept within +-kFarQuery, where float squared distances stay finite: from that far, the
// data points (local extent <= 1) differ in distance by a relative 2^-60, far below float rounding.
constexpr double kFarQuery = 0x1p60;

// Where the queries of one band come from: cell centres of a grid (rows [first_row, first_row + rows) of the whole
// raster), or explicit local coordinates already on the device.
struct QuerySource {
  bool is_grid = false;
  // grid, in the local frame: x = x_left + (first_column + col + 0.5) * dx, y = y_top - (first_row + row + 0.5) * dy
  // (shepard_grid's window)
  double x_left = 0, y_top = 0, dx = 0, dy = 0;
  long long first_row = 0, first_column = 0;
  int width = 0;
  long long first_index = 0; // index of the band's first query in the whole set
  // explicit queries (local frame, double), band-relative
  const double *x = nullptr, *y = nullptr;
  int count = 0; // queries in the band
};

// Query i of the band in the local frame, kept within +-kFarQuery.
__device__ __forceinline__ void
query_position (const QuerySource &source, int i, double &x, double &y)
{
  if (source.is_grid)
    {
      long long index = source.first_index + i;
      long long row = source.first_row + index / source.width, col = source.first_column + index % source.width;
      x = source.x_left + ((double) col + 0.5) * source.dx;
      y = source.y_top - ((double) row + 0.5) * source.dy;
    }
  else
    {
      x = source.x[i];
      y = source.y[i];
    }
  x = fmin (fmax (x, -kFarQuery), kFarQuery);
  y = fmin (fmax (y, -kFarQuery), kFarQuery);
}

// How stage 1 treats a query's neighbourhood (shepard-engine.h's "The weighting neighbourhood").
enum NeighbourhoodMode {
  // Every point (stage 2), or the max_points nearest of all points, weighed in the search kernel: the search that
  // finds AIDW's k nearest also selects.
  kFused,
  // The max_points nearest inside the ellipse, or of all points when only min_points_per_quadrant needs the
  // selected points' quadrants.
  kNearest,
  // Per-quadrant lists of max_points_per_quadrant, merged nearest first up to max_points.
  kQuadrants,
  // Every point inside the ellipse (or every point), however many: accumulated over the cells the ellipse's box
  // covers, no list.
  kRadius,
};

// The selection and weighting rules in the local frame.
struct Neighbourhood {
  NeighbourhoodMode mode = kFused;
  int max_points = 0;       // 0: no cap
  int min_points = 1;       // max (min_points, 1)
  int max_per_quadrant = 0; // 0: no cap
  int min_per_quadrant = 0;
  bool ellipse = false;
  bool circle = false;               // radius1 == radius2: d2 <= radius^2, as gdal_grid's radius
  float radius_squared = 0;          // circle
  float cos_angle = 1, sin_angle = 0, inverse_r1_squared = 0, inverse_r2_squared = 0;
  float reach = INFINITY;            // the larger semi-axis: no candidate lies farther
  float box_x = INFINITY, box_y = INFINITY; // half-sides of the ellipse's bounding box
  bool smoothed = false;             // S > 0: w = (d2 + S^2)^(-p/2), no coincident rule
  float smoothing2 = 0;              // S^2, clamped to [1e-30, 1e30] when smoothed, 0 otherwise
};

struct Stage1Params {
  int k_search;      // neighbours to find (max of k and N, at most n)
  int k_density;     // AIDW: neighbours averaged into r_obs (0 for IDW)
  int n_weighted;    // kFused: > 0: weigh the N nearest in stage 1; 0: all points in stage 2
  bool aidw;
  float power;       // IDW
  double alpha[5];
  double r_min, r_max;
  double r_exp_local;
  float coincident_d2;
  float local_to_given; // 1 / scale, for r_obs
  Neighbourhood hood;
  bool no_data;      // kFused: every query has fewer than min_points (n or N below it): NaN everywhere
  bool far_field;    // kFused, all points: stage 2 is the far field, which takes the nearest d2 in out.offset
  int n_fields;      // values written per query (planes of out.value)
};

// Per-query results of stage 1, band-relative, and stage 2's running sums.
struct Stage1Outputs {
  float *value;       // written when the query is coincident or weighted over the N nearest; field f at f * stride
  size_t value_stride;
  unsigned char *done;// 1 when value is final after stage 1
  float *exponent;    // w = 2^(exponent * log2 (d2 + S^2) + offset) = ((d2 + S^2) / (d2_nearest + S^2))^exponent
  float *offset;      // (the neighbourhood kernel and the far field find d2_nearest here)
  float *alpha;       // may be null
  float *r_obs;       // may be null
  double *sum_w, *sum_wz; // stage 2's running sums: group g's of query i at g * sum_stride + i
  size_t sum_stride;
};

// Stage 2 weighs the points in fixed groups of whole tiles, each summed in point order into its own float64 running
// sums, and finish_stage2 adds the groups in order. The groups depend on n alone, so a query's value never depends on
// how the queries are sliced, on how many launches the points take, or on which GPU runs them: one GPU and several
// give the same raster bit for bit.
struct PointGroups {
  size_t n;
  size_t group_points; // a multiple of the tile; the last group may be shorter
  int count;
};
// At most `most` groups of at least four tiles each.
PointGroups point_groups (size_t n, int most);
// An interpolation's groups: with a slice's blocks of queries, enough blocks to fill a device several times over.
constexpr int kInterpolationGroups = 16;

// One launch of stage 2: the points [begin, end) (offsets within the group, multiples of the tile) of the groups
// [first_group, first_group + group_count). A piece after a group's first adds to the group's sums so far; the first
// starts them. Launches of different groups may run at once (streams), one group's one after another.
struct PointPiece {
  PointGroups groups;
  size_t begin, end;
  int first_group, group_count;
};

cudaError_t build_grid (const DevicePoints &points, DeviceGrid &grid, double x_min, double y_min, double cell_size,
                        int nx, int ny, void **scan_storage, size_t *scan_storage_bytes, cudaStream_t stream);

cudaError_t launch_stage1 (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
                           const Stage1Params &params, const Stage1Outputs &out, shepard_cuda_knn knn,
                           cudaStream_t stream);

// After launch_stage1 of a params.hood.mode other than kFused (which leaves each query's exponent and the squared
// distance to its nearest point of all in out): selects each query's neighbourhood and weighs it, every field.
cudaError_t launch_neighbourhood (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries,
                                  const Stage1Params &params, const Stage1Outputs &out, cudaStream_t stream);

// Local values to given ones in place: origin + v / scale (device grids, which hold float32 given values).
cudaError_t launch_values_to_given (float *values, size_t count, double origin, double scale, cudaStream_t stream);

cudaError_t launch_nearest (const DeviceGrid &grid, const DevicePoints &points, const QuerySource &queries, int k,
                            float *d2_out, unsigned *index_out, cudaStream_t stream);

// points: one field's view (DevicePoints::field). smoothing2: S^2 added to every squared distance (0: none).
cudaError_t launch_stage2 (const DevicePoints &points, const QuerySource &queries, const Stage1Outputs &stage1,
                           const PointPiece &piece, bool inverse_square, float smoothing2,
                           shepard_cuda_weighting weighting, shepard_cuda_layout layout, bool clamp,
                           cudaStream_t stream);

// Adds the groups' sums in order and writes the values of the queries stage 1 left open.
cudaError_t finish_stage2 (const Stage1Outputs &stage1, int groups, int count, cudaStream_t stream);

// The far field's tree (far-field-tree.h) on the device: the CPU builds it, upload_far_field copies it.
struct DeviceFarField {
  const shepard_far_field *source = nullptr; // the host tree copied here; null: none
  size_t n = 0, n_nodes = 0;
  int n_fields = 0, n_slots = 0;
  double *x = nullptr, *y = nullptr, *z = nullptr; // tree order; z: n_fields planes of shifted values
  double z_min[SHEPARD_MAX_FIELDS] = {};
  const void *nodes = nullptr; // far_node[n_nodes]
  double *spread = nullptr, *moments = nullptr;
};

cudaError_t upload_far_field (const shepard_far_field *far_field, DeviceFarField &device);
void free_far_field (DeviceFarField &device);

// The far field's sums for field `field` of every query of the band that stage 1 left undone (its exponent and, in
// offset, its nearest squared distance), written as local values into out.value's plane `field`.
cudaError_t launch_far_field (const DeviceFarField &tree, const QuerySource &queries, const Stage1Outputs &out,
                              int field, double tolerance, cudaStream_t stream);

// Cross-validation: the queries are the data points themselves, taken in the even grid's sorted order (query slot s is
// the point in grid slot s) so that neighbouring threads search neighbouring cells. Each leaves out its own slot
// (leave-one-out) or every slot of its fold.
struct CvParams {
  int k_search;   // neighbours to find (max of k and N, at most n)
  int k_density;  // AIDW: k (0 for IDW); min (k, found) per query
  int n_weighted; // kFused: > 0: weigh the N nearest in stage 1 (min (N, found) per query); 0: all points in stage 2
  bool aidw;
  double power;
  double alpha[5];
  double r_min, r_max;
  double r_exp_large_local, r_exp_small_local; // by the query's fold: label < large_folds takes the first
  uint32_t large_folds;
  float coincident_d2;
  const uint32_t *sorted_label; // the fold of each grid slot; null: leave-one-out (a point's label is its index)
  Neighbourhood hood;
  // kFused with all points: the training set's size by the query's fold (as r_exp), against min_points
  size_t train_large_fold, train_small_fold;
};

// Results by the point's index as given (value, alpha) or by its grid slot (the rest). Values of field 0, local.
struct CvOutputs {
  float *value;
  double *alpha;       // may be null
  unsigned char *done; // 1 when value is final after stage 1
  float *exponent, *offset;
  double *sum_w, *sum_wz; // group g's running sums of a band's slot s at g * band length + (s - band start)
};

// sorted_label[slot] = label[sorted_index[slot]] for the n points.
cudaError_t gather_sorted_labels (const DeviceGrid &grid, size_t n, const uint32_t *label, uint32_t *sorted_label,
                                  cudaStream_t stream);

// Query slots [first, end) of the grid's sorted order: several GPUs share a cross-validation's slots.
struct SlotRange {
  size_t first, end;
};

cudaError_t launch_cv_stage1 (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params,
                              const CvOutputs &out, SlotRange slots, cudaStream_t stream);

// As launch_neighbourhood, for cross-validation after launch_cv_stage1 (params.hood.mode other than kFused).
cudaError_t launch_cv_neighbourhood (const DeviceGrid &grid, const DevicePoints &points, const CvParams &params,
                                     const CvOutputs &out, SlotRange slots, cudaStream_t stream);

// The shapes of cross-validation's stage 2 (cuda-cv-weighting.cu), by which cuda-cross-validation.cu cuts its bands and
// pieces. A namespace of their own: other .cu files have constants of these names.
namespace cv_weighting {
constexpr int kThreads = 256;
// 8 queries per thread share each point read from shared memory.
constexpr int kQueriesPerThread = 8;
constexpr int kTilePoints = kThreads;
// A block's query slots: ranges start at multiples of it, so that a slot sits at the same place in its block (and
// takes the same polynomial-or-not 2^y, the same tiles unchecked) whatever the range.
constexpr size_t kBlockSlots = (size_t) kQueriesPerThread * kThreads;
} // namespace cv_weighting

// Stage 2 of cross-validation after launch_cv_stage1 (all points, params.hood.mode kFused): one piece of every point
// group (piece.groups.count of them) for the open slots of band, whose first slot is a multiple of kBlockSlots. The
// group's sums of slot s lie at g * (band.end - band.first) + s - band.first.
cudaError_t launch_cv_all_points (const DeviceGrid &grid, const CvParams &params, const CvOutputs &out, SlotRange band,
                                  const PointPiece &piece, bool inverse_square, bool clamp, cudaStream_t stream);

// Adds the band's `groups` groups' sums in order and writes the prediction of each open slot (by the point's index).
cudaError_t finish_cv_all_points (const DeviceGrid &grid, const CvOutputs &out, SlotRange band, int groups,
                                  cudaStream_t stream);

// The predictions (and alphas: alpha not null) of the range's points, in slot order.
cudaError_t launch_cv_gather_range (const DeviceGrid &grid, const CvOutputs &out, SlotRange range, float *value,
                                    double *alpha, cudaStream_t stream);

// Memory of cross-validation, kept between calls (cuda-cross-validation.cu).
struct CvBuffers;
void free_cv_buffers (CvBuffers *&buffers);

// Query bands of an interpolation: device results, stage 2's sums and pinned staging, kept between calls.
struct Band {
  size_t capacity = 0;       // queries
  size_t value_capacity = 0; // floats of value and host_value: capacity times the fields
  float *value = nullptr, *exponent = nullptr, *offset = nullptr, *alpha = nullptr, *r_obs = nullptr;
  size_t sum_capacity = 0; // doubles of sum_w and sum_wz: stage 2's point groups times the queries
  double *sum_w = nullptr, *sum_wz = nullptr;
  unsigned char *done = nullptr;
  double *query_x = nullptr, *query_y = nullptr;
  float *host_value = nullptr, *host_alpha = nullptr, *host_r_obs = nullptr; // pinned
  double *host_query_x = nullptr, *host_query_y = nullptr;                    // pinned
};

// The far field's slices run each on a stream of its own, taken in turn: at least kMinSlicesInFlight and at most
// kSliceStreams at once, and a band holds at most kMaxBandSlices of them (one more than run at once).
constexpr int kSliceStreams = 16;
constexpr int kMinSlicesInFlight = 4;
constexpr int kMaxBandSlices = kSliceStreams + 1;
// The most queries of a band of the brute force or the local methods (cuda-slices.cu).
constexpr size_t kMaxSliceQueries = (size_t) 1 << 22;

inline size_t
divide_up (size_t a, size_t b)
{
  return (a + b - 1) / b;
}

// The slices and runs of shepard_cuda_plan_slices (cuda-slices.cu): the far field's slices are a multiple of its
// tiles' rows (of its tiles of a list), so that each query's tile is the same in any plan.
shepard_cuda_slices plan_slices (const shepard_point_set *set, const shepard_params *params,
                                 const shepard_query_set *queries, size_t gpus);
// One backend's plan: every slice in one run.
shepard_cuda_slices one_run (const shepard_point_set *set, const shepard_params *params,
                             const shepard_query_set *queries);
// How many of the far field's slices a GPU runs at once (a band holds one more).
size_t far_field_depth (const shepard_cuda_slices &plan);
// Queries of slice `slice` of count queries: [*first, *first + return value).
size_t slice_span (const shepard_cuda_slices &plan, size_t count, size_t slice, size_t *first);
// The queries of run `run`'s slices.
size_t run_queries (const shepard_cuda_slices &plan, size_t count, size_t run);

// Sizes a band for `queries` queries and `fields` value planes, growing its memory when needed (cuda-backend.cu).
shepard_status reserve_band (Band &band, size_t queries, size_t fields, shepard_error *error);
// Sizes stage 2's sums of a band for `sums` doubles each.
shepard_status reserve_band_sums (Band &band, size_t sums, shepard_error *error);

// Frees device memory and forgets it.
template <typename T>
inline void
release (T *&pointer)
{
  if (pointer)
    cudaFree (pointer);
  pointer = nullptr;
}

// Milliseconds between two recorded events (NaN when the driver cannot tell): timings for benchmarks only.
inline double
elapsed_ms (cudaEvent_t from, cudaEvent_t to)
{
  float ms = 0.0f;
  return cudaEventElapsedTime (&ms, from, to) == cudaSuccess ? ms : NAN;
}

// Whether some weight (d2 / d2_nearest)^e could fall below 2^-126, where the polynomial 2^y needs its clamp: the
// largest |e| of params times log2 of the widest ratio of squared distances the queries can see (local frame).
bool weights_may_underflow (const shepard_params *params, double largest_d2, double smallest_d2);

// The neighbourhood rules of params for points of the given local scale, and the mode that runs them.
Neighbourhood neighbourhood_of (const shepard_params *params, double scale);

// Clears a sticky launch error and fills error with a message for the person using the program.
shepard_status cuda_failure (shepard_error *error, cudaError_t status, const char *what);

} // namespace shepard_cuda

struct shepard_cuda_backend {
  int device = 0;
  char device_name[256] = "";
  cudaStream_t stream = nullptr;
  // Stage 2 weighs half the point groups on a second stream: a launch's last wave of blocks leaves multiprocessors
  // idle, which the other stream's blocks take.
  cudaStream_t side_stream = nullptr;
  cudaEvent_t side_may_start = nullptr, side_done = nullptr;
  cudaEvent_t marks[5] = {};
  // The far field's slices (cuda-interpolate.cu): streams taken in turn, and when each slice of a band is done.
  cudaStream_t slice_streams[shepard_cuda::kSliceStreams] = {};
  cudaEvent_t slices_may_start = nullptr;
  cudaEvent_t slice_done[shepard_cuda::kMaxBandSlices] = {};
  shepard_cuda::DevicePoints points;
  shepard_cuda::DeviceGrid grid;
  void *scan_storage = nullptr;
  size_t scan_storage_bytes = 0;
  shepard_cuda::Band band;
  shepard_cuda::DeviceFarField far_field;
  shepard_cuda::CvBuffers *cv = nullptr;
  shepard_cuda_variant variant = { SHEPARD_CUDA_WEIGHTING_TILED, SHEPARD_CUDA_LAYOUT_AOAS, SHEPARD_CUDA_KNN_GRID };
  shepard_cuda_timings timings = {};
};

#define CHECK(call, what)                                                                                             \
  do                                                                                                                  \
    {                                                                                                                 \
      cudaError_t status_ = (call);                                                                                   \
      if (status_ != cudaSuccess)                                                                                     \
        return shepard_cuda::cuda_failure (error, status_, what);                                                     \
    }                                                                                                                 \
  while (0)
