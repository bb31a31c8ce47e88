// SPDX-License-Identifier: GPL-3.0-or-later
// Cross-validation on the device, in one pass over the points and the even grid that stay on the GPU: every data point
// is a query, predicted from the points outside its fold (cpu-backend.c's semantics). The queries run in the grid's
// sorted order, so that a warp searches neighbouring cells; results go to each point's index as given. A call predicts
// a range of the sorted slots, so that several GPUs can share one cross-validation (gpu-group.c).
//
// Stage 1 (cuda-grid.cu) searches the k nearest outside the fold and finishes the coincident queries and the N-nearest
// weighting. Stage 2 (cuda-cv-weighting.cu) weighs all points for the rest, in fixed point groups whose running sums
// this file's bands of slots and pieces of points continue launch after launch.
#include "cuda-internal.cuh"

#include <math.h>
#include <new>
#include <stdint.h>
#include <string.h>

extern "C" {
#include "../engine-private.h"
}

namespace shepard_cuda {

struct CvBuffers {
  size_t capacity = 0;       // points
  size_t sum_capacity = 0;   // doubles of sum_w and sum_wz: the groups' running sums of one band
  size_t range_capacity = 0; // slots of the range buffers (none until a range short of all the points comes)
  float *value = nullptr, *exponent = nullptr, *offset = nullptr;
  double *alpha = nullptr, *sum_w = nullptr, *sum_wz = nullptr;
  unsigned char *done = nullptr;
  uint32_t *label = nullptr, *sorted_label = nullptr;
  float *host_value = nullptr;  // pinned: every point's prediction, by index
  double *host_alpha = nullptr; // pinned
  // A range short of all the points comes back in slot order, with the points' indices.
  float *range_value = nullptr, *range_host_value = nullptr; // device, pinned
  double *range_alpha = nullptr, *range_host_alpha = nullptr;
  unsigned *range_host_index = nullptr; // pinned
};

namespace {

constexpr const char *kMessage = "Cross-validating on the GPU";
// Point groups by n alone (point_groups). An interpolation takes at most kInterpolationGroups: its slices hold many
// blocks of queries. Here the n queries make few blocks for a moderate n (100K points: 49), and 32 groups keep the
// device full where fewer would leave a wave half empty.
constexpr int kMaxGroups = 32;
// Slots of a band at most, the queries one run of launches weighs: its groups' running sums take at most
// 32 x 2^17 x 16 bytes = 64 MiB, and 64 blocks of queries times 32 groups fill a device's waves several times over.
constexpr size_t kBandSlots = (size_t) 1 << 17;
// Work per launch of stage 2 in query x point pairs: about 5 ms on an H200 (2.2e12 pairs a second). A cancel is
// answered once the launch running ends, and the window cancels the instruments' leave-one-out at every parameter
// change: at 1e11 pairs (45 ms) one of 1M points over all of them held each frame of the live preview back by as much.
constexpr double kPairsPerLaunch = 1e10;
// Several GPUs take slices of an eighth of the slots in turn, so that an uneven machine stays busy.
constexpr size_t kSlicesPerSet = 8;

size_t
round_up (size_t value, size_t granule)
{
  return (value + granule - 1) / granule * granule;
}

// The running sums stage 2 needs for n points: every group's, for a band.
size_t
sum_doubles (size_t n)
{
  return (size_t) point_groups (n, kMaxGroups).count * (n < kBandSlots ? n : kBandSlots);
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
  release (buffers->range_value);
  release (buffers->range_alpha);
  void *pinned[] = { buffers->host_value, buffers->host_alpha, buffers->range_host_value, buffers->range_host_alpha,
                     buffers->range_host_index };
  for (void *host : pinned)
    if (host)
      cudaFreeHost (host);
  delete buffers;
  buffers = nullptr;
}

} // namespace shepard_cuda

using namespace shepard_cuda;
using namespace shepard_cuda::cv_weighting;

// Memory for a cross-validation of n points, and `sums` doubles of each of stage 2's running sums.
static shepard_status
reserve_cv_buffers (shepard_cuda_backend *backend, size_t n, size_t sums, shepard_error *error)
{
  const char *what = "reserving GPU memory for cross-validation";
  if (!backend->cv || n > backend->cv->capacity)
    {
      free_cv_buffers (backend->cv);
      backend->cv = new (std::nothrow) CvBuffers ();
      if (!backend->cv)
        return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to cross-validate on the GPU.");
      CvBuffers &b = *backend->cv;
      CHECK (cudaMalloc (&b.value, n * sizeof (float)), what);
      CHECK (cudaMalloc (&b.alpha, n * sizeof (double)), what);
      CHECK (cudaMalloc (&b.exponent, n * sizeof (float)), what);
      CHECK (cudaMalloc (&b.offset, n * sizeof (float)), what);
      CHECK (cudaMalloc (&b.done, n), what);
      CHECK (cudaMalloc (&b.label, n * sizeof (uint32_t)), what);
      CHECK (cudaMalloc (&b.sorted_label, n * sizeof (uint32_t)), what);
      CHECK (cudaMallocHost (&b.host_value, n * sizeof (float)), "reserving pinned host memory");
      CHECK (cudaMallocHost (&b.host_alpha, n * sizeof (double)), "reserving pinned host memory");
      b.capacity = n;
    }
  CvBuffers &b = *backend->cv;
  if (sums > b.sum_capacity)
    {
      release (b.sum_w);
      release (b.sum_wz);
      b.sum_capacity = 0;
      CHECK (cudaMalloc (&b.sum_w, sums * sizeof (double)), what);
      CHECK (cudaMalloc (&b.sum_wz, sums * sizeof (double)), what);
      b.sum_capacity = sums;
    }
  return SHEPARD_OK;
}

// Staging for ranges of up to `slots` slots short of all the points.
static shepard_status
reserve_range_buffers (CvBuffers &b, size_t slots, shepard_error *error)
{
  if (slots <= b.range_capacity)
    return SHEPARD_OK;
  release (b.range_value);
  release (b.range_alpha);
  void *pinned[] = { b.range_host_value, b.range_host_alpha, b.range_host_index };
  for (void *host : pinned)
    if (host)
      cudaFreeHost (host);
  b.range_host_value = nullptr;
  b.range_host_alpha = nullptr;
  b.range_host_index = nullptr;
  b.range_capacity = 0;
  const char *what = "reserving GPU memory for cross-validation";
  CHECK (cudaMalloc (&b.range_value, slots * sizeof (float)), what);
  CHECK (cudaMalloc (&b.range_alpha, slots * sizeof (double)), what);
  CHECK (cudaMallocHost (&b.range_host_value, slots * sizeof (float)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&b.range_host_alpha, slots * sizeof (double)), "reserving pinned host memory");
  CHECK (cudaMallocHost (&b.range_host_index, slots * sizeof (unsigned)), "reserving pinned host memory");
  b.range_capacity = slots;
  return SHEPARD_OK;
}

// What a cross-validation of params over set runs on the device: the same for every range of its slots.
struct CvPlan {
  CvParams cv;
  bool fused, all_points, inverse_square, clamp;
};

static shepard_status
plan_cross_validation (const shepard_cuda_backend *backend, const shepard_point_set *set,
                       const shepard_params *params, const shepard_holdout *holdout, CvPlan &plan,
                       shepard_error *error)
{
  size_t n = set->n;
  if (n != backend->points.n)
    return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU holds %zu points, not the %zu to cross-validate.",
                         backend->points.n, n);
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  CvParams &cv = plan.cv;
  cv = CvParams ();
  cv.hood = neighbourhood_of (params, set->scale);
  plan.fused = cv.hood.mode == kFused;
  plan.all_points = plan.fused && params->neighbors == SHEPARD_NEIGHBORS_ALL;
  cv.aidw = aidw;
  // As the CPU path: the neighbours found per query may fall short of k_search only when its fold leaves too few.
  // Outside kFused the search finds only alpha's neighbours and the nearest; the selection has its own lists.
  size_t k_search = aidw ? (size_t) params->k : 1;
  if (plan.fused && !plan.all_points && (size_t) params->neighbors > k_search)
    k_search = (size_t) params->neighbors;
  if (k_search > n)
    k_search = n;
  if (k_search > SHEPARD_CUDA_MAX_NEIGHBORS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The CUDA backend searches at most %d neighbours, not %zu; use the CPU backend.",
                         SHEPARD_CUDA_MAX_NEIGHBORS, k_search);
  cv.k_search = (int) k_search;
  cv.k_density = aidw ? params->k : 0;
  cv.n_weighted = plan.fused && !plan.all_points ? params->neighbors : 0;
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
  // The folds go to the device when the cross-validation is readied; leave-one-out needs none (a point's fold is its
  // own slot).
  cv.sorted_label = holdout->fold_of && backend->cv ? backend->cv->sorted_label : nullptr;
  // With smoothing, 1 / (d2 + S^2) is no longer the reciprocal of a plain squared distance.
  plan.inverse_square = !aidw && params->power == 2.0 && !cv.hood.smoothed;
  // The queries are data points, so every squared distance lies within the points' box, and a query weighed over all
  // points has its nearest beyond the coincident tolerance (or, smoothed, its weights are bounded by S^2).
  double width = (set->x_max - set->x_min) * set->scale, height = (set->y_max - set->y_min) * set->scale;
  double smallest_d2 = cv.hood.smoothed ? (double) cv.hood.smoothing2 : coincident_d2;
  plan.clamp = weights_may_underflow (params, width * width + height * height + cv.hood.smoothing2, smallest_d2);
  return SHEPARD_OK;
}

// Memory for every point (and stage 2's sums), and the folds on the device; *prediction (may be NULL): the pinned
// array the predictions of every point may go to.
static shepard_status
prepare (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
         const shepard_holdout *holdout, float **prediction, shepard_error *error)
{
  CvPlan plan;
  shepard_status status = plan_cross_validation (backend, set, params, holdout, plan, error);
  if (status != SHEPARD_OK)
    return status;
  size_t n = set->n;
  status = reserve_cv_buffers (backend, n, plan.all_points ? sum_doubles (n) : 0, error);
  if (status != SHEPARD_OK)
    return status;
  backend->timings = shepard_cuda_timings ();
  CvBuffers &b = *backend->cv;
  if (prediction)
    *prediction = b.host_value;
  if (!holdout->fold_of)
    return SHEPARD_OK;
  cudaStream_t stream = backend->stream;
  cudaEvent_t *marks = backend->marks;
  CHECK (cudaEventRecord (marks[0], stream), "timing the GPU work");
  CHECK (cudaMemcpyAsync (b.label, holdout->fold_of, n * sizeof (uint32_t), cudaMemcpyHostToDevice, stream),
         "copying the folds to the GPU");
  CHECK (gather_sorted_labels (backend->grid, n, b.label, b.sorted_label, stream), "sorting the folds on the GPU");
  CHECK (cudaEventRecord (marks[1], stream), "timing the GPU work");
  CHECK (cudaStreamSynchronize (stream), "copying the folds to the GPU");
  backend->timings.upload_ms = elapsed_ms (marks[0], marks[1]);
  return SHEPARD_OK;
}

// Stage 2 for the open queries of range: bands of slots, each weighed in launches of a piece of every group and then
// finished. progress (may be NULL) is asked between launches.
static shepard_status
weigh_all_points (shepard_cuda_backend *backend, const CvPlan &plan, const CvOutputs &out, SlotRange range,
                  shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  size_t n = backend->points.n;
  PointGroups groups = point_groups (n, kMaxGroups);
  size_t slots = range.end - range.first;
  // Bands of even size in whole blocks: a short last band would leave most of the device idle.
  size_t bands = (slots + kBandSlots - 1) / kBandSlots;
  size_t band_slots = round_up ((slots + bands - 1) / bands, kBlockSlots);
  size_t longest_band = band_slots < slots ? band_slots : slots;
  if ((size_t) groups.count * longest_band > backend->cv->sum_capacity)
    return shepard_fail (error, SHEPARD_ERROR_INTERNAL, "The GPU's cross-validation memory was not readied.");
  // Pieces of even size in whole tiles: about kPairsPerLaunch pairs per launch.
  size_t launches = (size_t) ceil ((double) band_slots * (double) n / kPairsPerLaunch);
  size_t piece_points = round_up ((groups.group_points + launches - 1) / launches, kTilePoints);
  size_t pieces = (groups.group_points + piece_points - 1) / piece_points;
  cudaStream_t stream = backend->stream;
  for (size_t first = range.first; first < range.end; first += band_slots)
    {
      SlotRange band = { first, range.end - first < band_slots ? range.end : first + band_slots };
      for (size_t p = 0; p < pieces; p++)
        {
          PointPiece piece = { groups, p * piece_points,
                               (p + 1) * piece_points < groups.group_points ? (p + 1) * piece_points
                                                                            : groups.group_points,
                               0, groups.count };
          CHECK (launch_cv_all_points (backend->grid, plan.cv, out, band, piece, plan.inverse_square, plan.clamp,
                                       stream),
                 "weighing the points on the GPU");
          if (progress && !(band.end == range.end && p + 1 == pieces))
            {
              CHECK (cudaStreamSynchronize (stream), "weighing the points on the GPU");
              double done = (double) (band.first - range.first)
                            + (double) (band.end - band.first) * (double) (p + 1) / (double) pieces;
              if (!progress (done / (double) slots, kMessage, progress_data))
                return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
            }
        }
      CHECK (finish_cv_all_points (backend->grid, out, band, groups.count, stream), "weighing the points on the GPU");
    }
  return SHEPARD_OK;
}

// The points in sorted slots range: their predictions and alphas into the caller's arrays (by point index).
static shepard_status
predict (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
         const shepard_holdout *holdout, SlotRange range, float *prediction, double *alpha,
         shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  size_t n = set->n;
  if (!backend->cv || backend->cv->capacity < n || range.first % kBlockSlots != 0 || range.first >= range.end
      || range.end > n)
    return shepard_fail (error, SHEPARD_ERROR_INTERNAL,
                         "Slots %zu to %zu are no range of a cross-validation of %zu points readied on the GPU.",
                         range.first, range.end, n);
  CvPlan plan;
  shepard_status status = plan_cross_validation (backend, set, params, holdout, plan, error);
  if (status != SHEPARD_OK)
    return status;
  CvBuffers &b = *backend->cv;
  CvOutputs out = { b.value, alpha ? b.alpha : nullptr, b.done, b.exponent, b.offset, b.sum_w, b.sum_wz };
  cudaStream_t stream = backend->stream;
  cudaEvent_t *marks = backend->marks;

  CHECK (cudaEventRecord (marks[1], stream), "timing the GPU work");
  CHECK (launch_cv_stage1 (backend->grid, backend->points, plan.cv, out, range, stream),
         "searching the nearest neighbours outside each fold on the GPU");
  if (!plan.fused)
    CHECK (launch_cv_neighbourhood (backend->grid, backend->points, plan.cv, out, range, stream),
           "selecting the neighbourhoods outside each fold on the GPU");
  CHECK (cudaEventRecord (marks[2], stream), "timing the GPU work");
  if (plan.all_points)
    {
      status = weigh_all_points (backend, plan, out, range, progress, progress_data, error);
      if (status != SHEPARD_OK)
        return status;
    }
  CHECK (cudaEventRecord (marks[3], stream), "timing the GPU work");
  // All the points come back in their own order; a range, in slot order with the points' indices.
  bool whole = range.first == 0 && range.end == n;
  size_t count = range.end - range.first;
  const char *copying = "copying the predictions from the GPU";
  if (whole)
    {
      CHECK (cudaMemcpyAsync (prediction, b.value, n * sizeof (float), cudaMemcpyDeviceToHost, stream), copying);
      if (alpha)
        CHECK (cudaMemcpyAsync (b.host_alpha, b.alpha, n * sizeof (double), cudaMemcpyDeviceToHost, stream), copying);
    }
  else
    {
      status = reserve_range_buffers (b, count, error);
      if (status != SHEPARD_OK)
        return status;
      CHECK (launch_cv_gather_range (backend->grid, out, range, b.range_value, alpha ? b.range_alpha : nullptr, stream),
             copying);
      CHECK (cudaMemcpyAsync (b.range_host_value, b.range_value, count * sizeof (float), cudaMemcpyDeviceToHost,
                              stream),
             copying);
      if (alpha)
        CHECK (cudaMemcpyAsync (b.range_host_alpha, b.range_alpha, count * sizeof (double), cudaMemcpyDeviceToHost,
                                stream),
               copying);
      CHECK (cudaMemcpyAsync (b.range_host_index, backend->grid.sorted_index + range.first, count * sizeof (unsigned),
                              cudaMemcpyDeviceToHost, stream),
             copying);
    }
  CHECK (cudaEventRecord (marks[4], stream), "timing the GPU work");
  CHECK (cudaStreamSynchronize (stream), "cross-validating on the GPU");

  backend->timings.knn_ms += elapsed_ms (marks[1], marks[2]);
  backend->timings.weighting_ms += elapsed_ms (marks[2], marks[3]);
  backend->timings.download_ms += elapsed_ms (marks[3], marks[4]);
  if (whole && alpha)
    memcpy (alpha, b.host_alpha, n * sizeof (double));
  if (!whole)
    for (size_t s = 0; s < count; s++)
      {
        prediction[b.range_host_index[s]] = b.range_host_value[s];
        if (alpha)
          alpha[b.range_host_index[s]] = b.range_host_alpha[s];
      }
  return SHEPARD_OK;
}

static shepard_status
cross_validate (shepard_cuda_backend *backend, const shepard_point_set *set, const shepard_params *params,
                const shepard_holdout *holdout, const float **prediction, double *alpha,
                shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  if (progress && !progress (0.0, kMessage, progress_data))
    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  float *pinned = nullptr;
  shepard_status status = prepare (backend, set, params, holdout, &pinned, error);
  if (status == SHEPARD_OK)
    status = predict (backend, set, params, holdout, SlotRange { 0, set->n }, pinned, alpha, progress,
                      progress_data, error);
  if (status == SHEPARD_OK)
    *prediction = pinned;
  if (status == SHEPARD_OK && progress && !progress (1.0, kMessage, progress_data))
    return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  return status;
}

static shepard_status
unexpected (shepard_error *error)
{
  return shepard_fail (error, SHEPARD_ERROR_INTERNAL,
                       "The GPU cross-validation failed unexpectedly; run it on the CPU backend (--backend cpu).");
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
      return unexpected (error);
    }
}

extern "C" size_t
shepard_cuda_cv_slice_slots (const shepard_point_set *points)
{
  size_t slice = round_up ((points->n + kSlicesPerSet - 1) / kSlicesPerSet, kBlockSlots);
  return slice < points->n ? slice : points->n;
}

extern "C" shepard_status
shepard_cuda_cv_prepare (shepard_cuda_backend *backend, const shepard_point_set *points,
                         const shepard_params *params, const shepard_holdout *holdout, float **prediction,
                         shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  try
    {
      return prepare (backend, points, params, holdout, prediction, error);
    }
  catch (...)
    {
      return unexpected (error);
    }
}

extern "C" shepard_status
shepard_cuda_cross_validate_slots (shepard_cuda_backend *backend, const shepard_point_set *points,
                                   const shepard_params *params, const shepard_holdout *holdout, size_t first_slot,
                                   size_t end_slot, float *prediction, double *alpha, shepard_progress_fn progress,
                                   void *progress_data, shepard_error *error)
{
  CHECK (cudaSetDevice (backend->device), "selecting the GPU");
  try
    {
      return predict (backend, points, params, holdout, SlotRange { first_slot, end_slot }, prediction, alpha,
                      progress, progress_data, error);
    }
  catch (...)
    {
      return unexpected (error);
    }
}
