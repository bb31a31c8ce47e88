// SPDX-License-Identifier: GPL-3.0-or-later
// An interpolation on the device: a run of slices of the queries, or the far field's slices as a queue shared by the
// GPUs hands them out (cuda-slices.cu plans them), each band's stage 1 (the k nearest, the neighbourhoods), stage 2
// (the far field's slices on several streams, or every point in fixed groups on two streams) and copies back, with
// progress and cancel between launches. The backend's device and memory are in cuda-backend.cu.
#include "cuda-internal.cuh"

#include <math.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern "C" {
#include "../engine-private.h"
#include "../even-grid.h"
#include "../parallel.h"
}

using namespace shepard_cuda;

namespace {

// Work per launch of stage 2, in query x point pairs: well under 100 ms of device time, so progress and cancel stay
// prompt. A launch weighs a piece of every point group for every query of the band, which keeps the device full.
constexpr double kTiledPairsPerLaunch = 1e11;
constexpr double kNaivePairsPerLaunch = 1e10;
constexpr size_t kPieceGranule = 256;
// A band's results go from float32 to the caller's float64 on up to this many threads, in chunks of this many cells:
// on one thread, 1M cells took 3 ms beside 19 ms of a far field's work on an H100, while the GPU waited.
constexpr size_t kResultThreads = 8;
constexpr size_t kResultChunk = (size_t) 1 << 14;

} // namespace

static QuerySource
grid_source (const shepard_point_set *set, const shepard_grid *grid)
{
  QuerySource source;
  source.is_grid = true;
  source.x_left = shepard_point_set_local (grid->x_min, set->origin_x, set->scale);
  source.y_top = shepard_point_set_local (grid->y_max, set->origin_y, set->scale);
  source.dx = grid->dx * set->scale;
  source.dy = grid->dy * set->scale;
  source.width = (int) grid->width;
  source.first_row = (long long) grid->first_row;
  source.first_column = (long long) grid->first_column;
  return source;
}

/* Whether a weight may underflow where the polynomial 2^y needs its clamp: over the box of the raster and the data
 * points; explicit query points may lie anywhere, so they always take the clamp. smallest_d2: the smallest d2 + S^2
 * a weight is taken relative to. */
static bool
queries_need_clamp (const shepard_point_set *set, const shepard_params *params, const shepard_query_set *queries,
                    double smoothing2, double smallest_d2)
{
  if (!queries->grid)
    return true;
  const shepard_grid *grid = queries->grid;
  double x_min = fmin (set->x_min, grid->x_min + grid->dx * (double) grid->first_column);
  double x_max = fmax (set->x_max, grid->x_min + grid->dx * (double) (grid->first_column + grid->width));
  double y_min = fmin (set->y_min, grid->y_max - grid->dy * (double) (grid->first_row + grid->height));
  double y_max = fmax (set->y_max, grid->y_max - grid->dy * (double) grid->first_row);
  double width = (x_max - x_min) * set->scale, height = (y_max - y_min) * set->scale;
  return weights_may_underflow (params, width * width + height * height + smoothing2, smallest_d2);
}

/* A band's results on the host, each to its place in the outputs: cell i of [begin, end) at band_offset + i of the
 * band, and at first + i of the outputs. */
typedef struct {
  const shepard_point_set *set;
  const Band *band;
  size_t band_queries, band_offset, fields, n_queries, first;
  const shepard_outputs *outputs;
  bool alpha, r_obs;
} BandResults;

/* Cells [begin, end) of a band's results: local values back to given ones (no data: NaN stays NaN), in float64, so
 * that any finite input stays finite; alpha and r_obs as they are. */
static bool
copy_band_results (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  const BandResults *results = (const BandResults *) context;
  const shepard_outputs *outputs = results->outputs;
  const Band *band = results->band;
  size_t at = results->band_offset;
  for (size_t f = 0; f < results->fields; f++)
    {
      const float *local = band->host_value + f * results->band_queries + at;
      double *given = outputs->values + f * results->n_queries + results->first;
      for (size_t i = begin; i < end; i++)
        given[i] = shepard_point_set_value (results->set, f, local[i]);
    }
  for (size_t i = begin; results->alpha && i < end; i++)
    outputs->alpha[results->first + i] = band->host_alpha[at + i];
  for (size_t i = begin; results->r_obs && i < end; i++)
    outputs->r_obs[results->first + i] = band->host_r_obs[at + i];
  return true;
}

/* count cells of the band's results, on up to kResultThreads threads. */
static void
deliver_band_results (const BandResults &results, size_t count)
{
  BandResults context = results;
  size_t threads = divide_up (count, kResultChunk), cpus = (size_t) shepard_cpu_count ();
  threads = threads < kResultThreads ? threads : kResultThreads;
  threads = threads < cpus ? threads : cpus;
  // Where no thread could start (nothing copied then), the copy runs here.
  if (threads <= 1
      || shepard_parallel_for ((int) threads, count, kResultChunk, copy_band_results, &context, nullptr, nullptr,
                               nullptr, nullptr)
             != SHEPARD_OK)
    copy_band_results (&context, 0, count, 0, nullptr);
}

/* What every band of an interpolation shares: stage 1's parameters and the stages to run. */
struct Setup {
  Stage1Params stage1;
  bool aidw, fused, weigh_all, far_field, inverse_square, clamp;
  size_t fields;
};

static shepard_status
set_up (const shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
        double r_exp, const shepard_query_set *queries, bool to_device, Setup &setup, shepard_error *error)
{
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t n = set->n;
  Stage1Params &stage1 = setup.stage1;
  stage1 = {};
  stage1.hood = neighbourhood_of (params, set->scale);
  const Neighbourhood &hood = stage1.hood;
  bool fused = hood.mode == kFused;
  bool all_points = fused && params->neighbors == SHEPARD_NEIGHBORS_ALL;
  stage1.aidw = aidw;
  stage1.k_density = aidw ? (int) ((size_t) params->k < n ? (size_t) params->k : n) : 0;
  // Outside kFused the search finds alpha's neighbours and the nearest point; the selection has its own lists.
  stage1.n_weighted = fused && !all_points ? (int) ((size_t) params->neighbors < n ? (size_t) params->neighbors : n)
                                           : 0;
  stage1.k_search = stage1.k_density > stage1.n_weighted ? stage1.k_density : stage1.n_weighted;
  if (stage1.k_search < 1)
    stage1.k_search = 1;
  if (stage1.k_search > SHEPARD_CUDA_MAX_NEIGHBORS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The CUDA backend searches at most %d neighbours, not %d; use the CPU backend.",
                         SHEPARD_CUDA_MAX_NEIGHBORS, stage1.k_search);
  if ((hood.mode == kNearest && hood.max_points > SHEPARD_CUDA_MAX_NEIGHBORS)
      || (hood.mode == kQuadrants && hood.max_per_quadrant > SHEPARD_CUDA_MAX_NEIGHBORS / 4))
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The CUDA backend selects at most %d points, or %d per quadrant; use the CPU backend.",
                         SHEPARD_CUDA_MAX_NEIGHBORS, SHEPARD_CUDA_MAX_NEIGHBORS / 4);
  stage1.power = (float) params->power;
  for (int a = 0; a < 5; a++)
    stage1.alpha[a] = params->alpha[a];
  stage1.r_min = params->r_min;
  stage1.r_max = params->r_max;
  stage1.r_exp_local = r_exp * set->scale;
  double coincident_d2 = shepard_point_set_coincident_d2_local (set);
  stage1.coincident_d2 = (float) coincident_d2;
  stage1.local_to_given = (float) (1.0 / set->scale);
  // kFused selects the same count everywhere: all n points, or the N nearest.
  stage1.no_data = fused && (all_points ? n : (size_t) stage1.n_weighted) < (size_t) hood.min_points;
  setup.fields = to_device ? 1 : set->n_fields;
  stage1.n_fields = (int) setup.fields;
  setup.aidw = aidw;
  setup.fused = fused;
  // With smoothing, 1 / (d2 + S^2) is no longer the reciprocal of a plain squared distance.
  setup.inverse_square = !aidw && params->power == 2.0 && !hood.smoothed;
  setup.clamp = queries_need_clamp (set, params, queries, hood.smoothing2,
                                    hood.smoothed ? (double) hood.smoothing2 : coincident_d2);
  setup.weigh_all = all_points && !stage1.no_data;
  // The engine resolves the summation and hands over the tree (shepard_cuda_backend_set_far_field) before it asks.
  setup.far_field = setup.weigh_all && params->summation == SHEPARD_SUMMATION_FAR_FIELD;
  if (setup.far_field && backend->far_field.source == nullptr)
    return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The far field's tree is not on the GPU.");
  stage1.far_field = setup.far_field;
  return SHEPARD_OK;
}

/* Explicit queries [first, first + count) into the band's pinned coordinates from band offset `at`, in the local
 * frame. */
static void
stage_query_points (const shepard_point_set *set, const shepard_query_set *queries, Band &band, size_t first,
                    size_t count, size_t at)
{
  for (size_t i = 0; i < count; i++)
    {
      band.host_query_x[at + i] = shepard_point_set_local (queries->x[first + i], set->origin_x, set->scale);
      band.host_query_y[at + i] = shepard_point_set_local (queries->y[first + i], set->origin_y, set->scale);
    }
}

/* Queries [first, first + count) written straight into the device grid; IDW has no r_obs: all bits set, a NaN. */
static cudaError_t
aim_at_device_grid (Stage1Outputs &out, shepard_device_grid *target, size_t first, size_t count, bool aidw,
                    cudaStream_t stream)
{
  out.value = target->values + first;
  out.alpha = target->alpha + first;
  if (aidw)
    {
      out.r_obs = target->r_obs + first;
      return cudaSuccess;
    }
  return cudaMemsetAsync (target->r_obs + first, 0xff, count * sizeof (float), stream);
}

/* Waits for every slice stream: what a band leaves running when it stops early. */
static void
drain_slice_streams (shepard_cuda_backend *backend)
{
  for (cudaStream_t stream : backend->slice_streams)
    cudaStreamSynchronize (stream);
}

/* One backend's far field on its own: every slice in order, with the caller's progress and cancel. */
struct LocalSlices {
  size_t next, count, finished, total;
  shepard_progress_fn progress;
  void *progress_data;
  bool cancelled;

  static bool
  claim (void *data, size_t *slice)
  {
    LocalSlices *local = (LocalSlices *) data;
    if (local->cancelled || local->next >= local->count)
      return false;
    *slice = local->next++;
    return true;
  }

  // Once the caller has cancelled, the slices still running finish without asking it again.
  static void
  finish (void *data, size_t queries)
  {
    LocalSlices *local = (LocalSlices *) data;
    local->finished += queries;
    if (local->progress && !local->cancelled
        && !local->progress ((double) local->finished / (double) local->total, "Interpolating on the GPU",
                             local->progress_data))
      local->cancelled = true;
  }
};

/* Slot `slot` of the band (slice queries at slot * plan.size): slice `slice`'s stage 1, sums and copies back on
 * `slice_stream`, then its event. */
static shepard_status
launch_slice (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
              const Setup &setup, const shepard_query_set *queries, const QuerySource &whole,
              const shepard_cuda_slices &plan, size_t slice, size_t slot, size_t band_queries, bool want_alpha,
              bool want_r_obs, shepard_device_grid *target, cudaStream_t slice_stream, shepard_error *error)
{
  Band &band = backend->band;
  size_t first, count = slice_span (plan, queries->count, slice, &first);
  size_t at = slot * plan.size;
  QuerySource source = whole;
  if (!queries->grid)
    {
      stage_query_points (set, queries, band, first, count, at);
      CHECK (cudaMemcpyAsync (band.query_x + at, band.host_query_x + at, count * sizeof (double),
                              cudaMemcpyHostToDevice, slice_stream), "copying query points to the GPU");
      CHECK (cudaMemcpyAsync (band.query_y + at, band.host_query_y + at, count * sizeof (double),
                              cudaMemcpyHostToDevice, slice_stream), "copying query points to the GPU");
      source.x = band.query_x + at;
      source.y = band.query_y + at;
    }
  source.first_index = (long long) first;
  source.count = (int) count;
  Stage1Outputs out = { band.value + at, band_queries, band.done + at, band.exponent + at, band.offset + at,
                        want_alpha ? band.alpha + at : nullptr, want_r_obs ? band.r_obs + at : nullptr,
                        nullptr, nullptr, 0 };
  if (target)
    CHECK (aim_at_device_grid (out, target, first, count, setup.aidw, slice_stream),
           "clearing the result grid on the GPU");
  CHECK (launch_stage1 (backend->grid, backend->points, source, setup.stage1, out, backend->variant.knn,
                        slice_stream), "searching the nearest neighbours on the GPU");
  // The fields share stage 1's alphas and exponents.
  for (size_t f = 0; f < setup.fields; f++)
    CHECK (launch_far_field (backend->far_field, source, out, (int) f, params->tolerance, slice_stream),
           "summing the far field on the GPU");
  if (target)
    CHECK (launch_values_to_given (out.value, count, set->z_origin[0], set->z_scale[0], slice_stream),
           "mapping the values on the GPU");
  else
    {
      for (size_t f = 0; f < setup.fields; f++)
        CHECK (cudaMemcpyAsync (band.host_value + f * band_queries + at, band.value + f * band_queries + at,
                                count * sizeof (float), cudaMemcpyDeviceToHost, slice_stream),
               "copying results from the GPU");
      if (out.alpha)
        CHECK (cudaMemcpyAsync (band.host_alpha + at, out.alpha, count * sizeof (float), cudaMemcpyDeviceToHost,
                                slice_stream), "copying results from the GPU");
      if (out.r_obs)
        CHECK (cudaMemcpyAsync (band.host_r_obs + at, out.r_obs, count * sizeof (float), cudaMemcpyDeviceToHost,
                                slice_stream), "copying results from the GPU");
    }
  CHECK (cudaEventRecord (backend->slice_done[slot], slice_stream), "running the far field on the GPU");
  return SHEPARD_OK;
}

/* The far field's slices as the queue hands them out: up to far_field_depth of them at once, on the slice streams in
 * turn, each in a slot of a ring in the band. As the oldest is done, the next is claimed and started, then the
 * oldest's results go to the caller while the others run; a GPU that goes faster claims more. */
static shepard_status
interpolate_far_field (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
                       const Setup &setup, const shepard_query_set *queries, const shepard_cuda_slices &plan,
                       const shepard_cuda_slice_queue &queue, const shepard_outputs *outputs,
                       shepard_device_grid *target, shepard_error *error)
{
  size_t depth = far_field_depth (plan), slots = depth + 1, band_queries = slots * plan.size;
  shepard_status reserved = reserve_band (backend->band, band_queries, setup.fields, error);
  if (reserved != SHEPARD_OK)
    return reserved;
  Band &band = backend->band;
  QuerySource whole;
  if (queries->grid)
    whole = grid_source (set, queries->grid);
  bool want_alpha = target || outputs->alpha, want_r_obs = (target || outputs->r_obs) && setup.aidw;
  cudaStream_t stream = backend->stream;
  cudaEvent_t *marks = backend->marks;
  size_t slice_of[kMaxBandSlices];

  CHECK (cudaEventRecord (marks[1], stream), "timing the GPU work");
  CHECK (cudaEventRecord (backend->slices_may_start, stream), "starting the far field on the GPU");
  for (cudaStream_t slice_stream : backend->slice_streams)
    CHECK (cudaStreamWaitEvent (slice_stream, backend->slices_may_start, 0), "starting the far field on the GPU");
  // Launch k goes into slot k % slots on stream k % kSliceStreams. At most depth are running (no more than the
  // streams, so that each runs beside the others), and one more is started before the oldest's results are taken, so
  // a slot is free again (its results delivered) before it is taken.
  size_t launched = 0, delivered = 0;
  bool claims_left = true, end_marked = false;
  auto start_next = [&] () -> shepard_status {
    size_t slice;
    if (!queue.claim (queue.data, &slice))
      {
        claims_left = false;
        return SHEPARD_OK;
      }
    size_t slot = launched % slots;
    cudaStream_t slice_stream = backend->slice_streams[launched % kSliceStreams];
    slice_of[slot] = slice;
    launched++;
    return launch_slice (backend, set, params, setup, queries, whole, plan, slice, slot, band_queries, want_alpha,
                         want_r_obs, target, slice_stream, error);
  };
  shepard_status status = SHEPARD_OK;
  while (status == SHEPARD_OK)
    {
      while (status == SHEPARD_OK && claims_left && launched - delivered < depth)
        status = start_next ();
      if (status != SHEPARD_OK)
        break;
      if (!claims_left && !end_marked)
        {
          // The end of the GPU's work on the stream, before the host waits: its timing is the device's alone.
          cudaError_t marked = cudaSuccess;
          for (size_t k = delivered; k < launched && marked == cudaSuccess; k++)
            marked = cudaStreamWaitEvent (stream, backend->slice_done[k % slots], 0);
          if (marked == cudaSuccess)
            marked = cudaEventRecord (marks[3], stream);
          if (marked != cudaSuccess)
            {
              status = cuda_failure (error, marked, "timing the GPU work");
              break;
            }
          end_marked = true;
        }
      if (delivered == launched)
        break;
      size_t slot = delivered % slots;
      cudaError_t waited = cudaEventSynchronize (backend->slice_done[slot]);
      if (waited != cudaSuccess)
        {
          status = cuda_failure (error, waited, "running the far field on the GPU");
          break;
        }
      // The next slice starts before this one's results go to the caller.
      if (claims_left && (status = start_next ()) != SHEPARD_OK)
        break;
      size_t first, count = slice_span (plan, queries->count, slice_of[slot], &first);
      if (!target)
        deliver_band_results ({ set, &band, band_queries, slot * plan.size, setup.fields, queries->count, first,
                                outputs, want_alpha, want_r_obs },
                              count);
      delivered++;
      queue.finish (queue.data, count);
    }
  if (status != SHEPARD_OK)
    {
      drain_slice_streams (backend);
      return status;
    }
  CHECK (cudaEventSynchronize (marks[3]), "running the far field on the GPU");
  backend->timings.weighting_ms += elapsed_ms (marks[1], marks[3]);
  return SHEPARD_OK;
}

/* The run's slices, one band at a time, into the host outputs (every field, mapped back to given values), or (target
 * not null) into a device grid that keeps field 0's values and the alphas on the GPU. The far field takes its slices
 * from `queue` where several GPUs share them, else every slice of the plan in turn. */
static shepard_status
interpolate (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params, double r_exp,
             const shepard_query_set *queries, const shepard_cuda_slices &plan, size_t run,
             const shepard_cuda_slice_queue *queue, const shepard_outputs *outputs, shepard_device_grid *target,
             shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  Setup setup;
  shepard_status status = set_up (backend, set, params, r_exp, queries, target != nullptr, setup, error);
  if (status != SHEPARD_OK)
    return status;
  if (setup.far_field && queue)
    return interpolate_far_field (backend, set, params, setup, queries, plan, *queue, outputs, target, error);
  if (setup.far_field)
    {
      if (progress && !progress (0.0, "Interpolating on the GPU", progress_data))
        return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
      LocalSlices local = { 0, plan.count, 0, queries->count, progress, progress_data, false };
      shepard_cuda_slice_queue every = { LocalSlices::claim, LocalSlices::finish, &local };
      status = interpolate_far_field (backend, set, params, setup, queries, plan, every, outputs, target, error);
      if (status == SHEPARD_OK && local.cancelled)
        return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
      return status;
    }
  const Stage1Params &stage1 = setup.stage1;
  const Neighbourhood &hood = stage1.hood;
  size_t n = set->n, fields = setup.fields, band_queries = plan.size;
  bool weigh_all = setup.weigh_all;

  // Bands: the slices; stage 2 then goes through the point groups in pieces.
  double pairs_per_launch = backend->variant.weighting == SHEPARD_CUDA_WEIGHTING_NAIVE ? kNaivePairsPerLaunch
                                                                                        : kTiledPairsPerLaunch;
  PointGroups groups = point_groups (n, kInterpolationGroups);
  size_t piece_points = (size_t) (pairs_per_launch / ((double) band_queries * (double) groups.count));
  piece_points = (piece_points / kPieceGranule + 1) * kPieceGranule;
  shepard_status reserved = reserve_band (backend->band, band_queries, fields, error);
  if (reserved == SHEPARD_OK && weigh_all)
    reserved = reserve_band_sums (backend->band, band_queries * (size_t) groups.count, error);
  if (reserved != SHEPARD_OK)
    return reserved;
  Band &band = backend->band;

  QuerySource source;
  if (queries->grid)
    source = grid_source (set, queries->grid);
  else
    {
      source.x = band.query_x;
      source.y = band.query_y;
    }
  bool want_alpha = target || outputs->alpha, want_r_obs = (target || outputs->r_obs) && setup.aidw;
  Stage1Outputs out = { band.value, band_queries, band.done, band.exponent, band.offset,
                        want_alpha ? band.alpha : nullptr, want_r_obs ? band.r_obs : nullptr, band.sum_w,
                        band.sum_wz, band_queries };
  size_t total_queries = run_queries (plan, queries->count, run);
  double total_work = (double) total_queries * (weigh_all ? (double) n * (double) fields : 1.0);
  cudaStream_t stream = backend->stream;
  cudaEvent_t *marks = backend->marks;

  if (progress && !progress (0.0, "Interpolating on the GPU", progress_data))
    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  size_t done_queries = 0, slice = run;
  // A shared plan's slices (the far field's, where no point is weighed: no data) come from the queue.
  bool have_slice = queue ? queue->claim (queue->data, &slice) : slice < plan.count;
  for (; have_slice; have_slice = queue ? queue->claim (queue->data, &slice) : (slice += plan.runs) < plan.count)
    {
      size_t first, count = slice_span (plan, queries->count, slice, &first);
      source.first_index = (long long) first;
      source.count = (int) count;
      if (target)
        CHECK (aim_at_device_grid (out, target, first, count, setup.aidw, stream),
               "clearing the result grid on the GPU");
      CHECK (cudaEventRecord (marks[0], stream), "timing the GPU work");
      if (!queries->grid)
        {
          stage_query_points (set, queries, band, first, count, 0);
          CHECK (cudaMemcpyAsync (band.query_x, band.host_query_x, count * sizeof (double), cudaMemcpyHostToDevice,
                                  stream), "copying query points to the GPU");
          CHECK (cudaMemcpyAsync (band.query_y, band.host_query_y, count * sizeof (double), cudaMemcpyHostToDevice,
                                  stream), "copying query points to the GPU");
        }
      CHECK (cudaEventRecord (marks[1], stream), "timing the GPU work");
      CHECK (launch_stage1 (backend->grid, backend->points, source, stage1, out, backend->variant.knn, stream),
             "searching the nearest neighbours on the GPU");
      if (!setup.fused)
        CHECK (launch_neighbourhood (backend->grid, backend->points, source, stage1, out, stream),
               "selecting the neighbourhoods on the GPU");
      CHECK (cudaEventRecord (marks[2], stream), "timing the GPU work");
      // The fields share stage 1's alphas and exponents; stage 2 weighs all points once per field.
      for (size_t f = 0; weigh_all && f < fields; f++)
        {
          Stage1Outputs field_out = out;
          field_out.value = out.value + f * out.value_stride;
          DevicePoints field_points = backend->points.field ((int) f);
          // The first half of the groups on the stream, the rest on the side stream once stage 1 is done.
          int main_groups = (groups.count + 1) / 2;
          cudaStream_t side = backend->side_stream;
          CHECK (cudaEventRecord (backend->side_may_start, stream), "weighing the points on the GPU");
          CHECK (cudaStreamWaitEvent (side, backend->side_may_start, 0), "weighing the points on the GPU");
          for (size_t offset = 0; offset < groups.group_points; offset += piece_points)
            {
              size_t piece_end = offset + piece_points;
              PointPiece piece = { groups, offset, piece_end < groups.group_points ? piece_end : groups.group_points,
                                   0, main_groups };
              CHECK (launch_stage2 (field_points, source, field_out, piece, setup.inverse_square, hood.smoothing2,
                                    backend->variant.weighting, backend->variant.layout, setup.clamp, stream),
                     "weighing the points on the GPU");
              if (groups.count > main_groups)
                {
                  PointPiece rest = piece;
                  rest.first_group = main_groups;
                  rest.group_count = groups.count - main_groups;
                  CHECK (launch_stage2 (field_points, source, field_out, rest, setup.inverse_square, hood.smoothing2,
                                        backend->variant.weighting, backend->variant.layout, setup.clamp, side),
                         "weighing the points on the GPU");
                }
              if (progress && (piece.end < groups.group_points || f + 1 < fields))
                {
                  CHECK (cudaStreamSynchronize (side), "weighing the points on the GPU");
                  CHECK (cudaStreamSynchronize (stream), "weighing the points on the GPU");
                  double weighed = (double) n * (double) piece.end / (double) groups.group_points;
                  double done = ((double) done_queries * (double) fields + (double) f * (double) count) * (double) n
                                + (double) count * weighed;
                  if (!progress (done / total_work, "Interpolating on the GPU", progress_data))
                    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
                }
            }
          CHECK (cudaEventRecord (backend->side_done, side), "weighing the points on the GPU");
          CHECK (cudaStreamWaitEvent (stream, backend->side_done, 0), "weighing the points on the GPU");
          CHECK (finish_stage2 (field_out, groups.count, source.count, stream), "weighing the points on the GPU");
        }
      if (target)
        CHECK (launch_values_to_given (out.value, count, set->z_origin[0], set->z_scale[0], stream),
               "mapping the values on the GPU");
      CHECK (cudaEventRecord (marks[3], stream), "timing the GPU work");
      // Field f's plane of the band starts at f * band_queries: one copy takes them all.
      size_t value_floats = (fields - 1) * band_queries + count;
      if (!target)
        {
          CHECK (cudaMemcpyAsync (band.host_value, band.value, value_floats * sizeof (float), cudaMemcpyDeviceToHost,
                                  stream), "copying results from the GPU");
          if (out.alpha)
            CHECK (cudaMemcpyAsync (band.host_alpha, band.alpha, count * sizeof (float), cudaMemcpyDeviceToHost,
                                    stream), "copying results from the GPU");
          if (out.r_obs)
            CHECK (cudaMemcpyAsync (band.host_r_obs, band.r_obs, count * sizeof (float), cudaMemcpyDeviceToHost,
                                    stream), "copying results from the GPU");
        }
      CHECK (cudaEventRecord (marks[4], stream), "timing the GPU work");
      CHECK (cudaStreamSynchronize (stream), "running the interpolation on the GPU");

      backend->timings.upload_ms += elapsed_ms (marks[0], marks[1]);
      backend->timings.knn_ms += elapsed_ms (marks[1], marks[2]);
      backend->timings.weighting_ms += elapsed_ms (marks[2], marks[3]);
      backend->timings.download_ms += elapsed_ms (marks[3], marks[4]);
      if (!target)
        deliver_band_results ({ set, &band, band_queries, 0, fields, queries->count, first, outputs,
                                out.alpha != nullptr, out.r_obs != nullptr },
                              count);

      done_queries += count;
      if (queue)
        queue->finish (queue->data, count);
      if (progress
          && !progress ((double) done_queries / (double) total_queries, "Interpolating on the GPU", progress_data))
        return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
    }
  return SHEPARD_OK;
}

// The C API: every entry point catches whatever C++ might throw.

extern "C" shepard_status
shepard_cuda_interpolate (shepard_cuda_backend *backend, const shepard_point_set *points,
                          const shepard_params *params, double r_exp, const shepard_query_set *queries,
                          const shepard_outputs *outputs, shepard_progress_fn progress, void *progress_data,
                          shepard_error *error)
{
  try
    {
      backend->timings = shepard_cuda_timings ();
      return interpolate (backend, points, params, r_exp, queries, one_run (points, params, queries), 0, nullptr,
                          outputs, nullptr, progress, progress_data, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU interpolation failed.");
    }
}

extern "C" shepard_status
shepard_cuda_interpolate_run (shepard_cuda_backend *backend, const shepard_point_set *points,
                              const shepard_params *params, double r_exp, const shepard_query_set *queries,
                              const shepard_cuda_slices *slices, size_t run, const shepard_outputs *outputs,
                              shepard_error *error)
{
  try
    {
      if (slices->size == 0 || run >= slices->runs || slices->shared)
        return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "Run %zu of %zu does not exist%s.", run, slices->runs,
                             slices->shared ? ": the far field's slices are shared" : "");
      return interpolate (backend, points, params, r_exp, queries, *slices, run, nullptr, outputs, nullptr, nullptr,
                          nullptr, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU interpolation failed.");
    }
}

extern "C" shepard_status
shepard_cuda_interpolate_shared (shepard_cuda_backend *backend, const shepard_point_set *points,
                                 const shepard_params *params, double r_exp, const shepard_query_set *queries,
                                 const shepard_cuda_slices *slices, const shepard_cuda_slice_queue *queue,
                                 const shepard_outputs *outputs, shepard_error *error)
{
  try
    {
      if (!slices->shared)
        return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "These slices are not shared: they go in runs.");
      return interpolate (backend, points, params, r_exp, queries, *slices, 0, queue, outputs, nullptr, nullptr,
                          nullptr, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU interpolation failed.");
    }
}

extern "C" shepard_status
shepard_cuda_interpolate_to_device (shepard_cuda_backend *backend, const shepard_point_set *points,
                                    const shepard_params *params, double r_exp, const shepard_query_set *queries,
                                    shepard_device_grid *target, shepard_progress_fn progress, void *progress_data,
                                    shepard_error *error)
{
  try
    {
      shepard_outputs none = {};
      backend->timings = shepard_cuda_timings ();
      return interpolate (backend, points, params, r_exp, queries, one_run (points, params, queries), 0, nullptr,
                          &none, target, progress, progress_data, error);
    }
  catch (...)
    {
      return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU interpolation failed.");
    }
}
