// SPDX-License-Identifier: GPL-3.0-or-later
// How an interpolation's queries go to the GPUs: slices of whole tiles and patches, the runs that group them, and for
// the far field's shared slices how many a GPU runs at once (shepard_cuda_plan_slices, far_field_depth). Arithmetic
// only; cuda-interpolate.cu runs what this plans.
#include "cuda-internal.cuh"

extern "C" {
#include "../shepard-engine.h"
}

namespace shepard_cuda {

namespace {

// Slices (the bands of queries run in one go) of the brute force and the local methods. One GPU takes the largest,
// which keep its kernels full: the brute force's point groups hold float64 sums per query (16 planes of 16 bytes), so
// its slices stay smaller. Several GPUs take slices below about this many pairs of the brute force (~450 ms on an
// H100) or queries of local neighbourhoods, so that an uneven machine can still share them, and of those the largest
// that keep the GPUs evenly busy (slice_queries): each slice ends in a tail that leaves part of its GPU idle.
constexpr double kSlicePairs = 1e12;
constexpr size_t kLightSliceQueries = (size_t) 1 << 21;
// The far field's slices. One GPU takes slices of about half a wave of its tiles on an H100 (2,112 warps of 64
// queries), four at once: on two H200s, 64K made 1M over 1024^2 1.84-1.86x one GPU's where 128K made 1.82x
// (tests/bench/results/h200x2-stop34-*), and the one GPU's time stayed with four at once instead of all. Several GPUs
// claim smaller slices as each can start one, so that the last claims leave them within a small slice of each other,
// and each runs about kFarFieldInFlightQueries at once (kMinSlicesInFlight slices at least, each on a stream of its
// own): enough to keep it full while the host takes a slice's results and starts the next, few enough that the rest
// stay to be shared. On two H200s, 1M over 1024^2: 16K slices, 16 at once, 1.89-1.90x; 32K, 8 or 16 at once,
// 1.84-1.86x; 64K, 4 at once, 1.85-1.86x; the old fixed halves 1.86-1.87x
// (tests/bench/results/stop35-shared-far-field-slices-*).
constexpr size_t kFarFieldSliceQueries = (size_t) 1 << 16;
constexpr size_t kSharedFarFieldSliceQueries = (size_t) 1 << 14;
constexpr size_t kFarFieldInFlightQueries = (size_t) 1 << 18;
constexpr size_t kFarFieldSlicesPerGpu = 2;
constexpr size_t kMaxBruteForceSliceQueries = (size_t) 1 << 20;
// A slice of a raster is whole rows, a multiple of the far field's tile rows (the brute force's: of its patch rows),
// and of a list whole tiles, so that every query's tile, hence its value, is the same however the slices are handed
// out; the brute force gives the same values in any slices (PointGroups), and its patch rows only keep them full.
constexpr size_t kSliceRowGranule = 8;
constexpr size_t kBruteForceRowGranule = 64;
constexpr size_t kSliceListGranule = 64;

/* The most queries any of `gpus` GPUs weighs when `count` go in slices of `slice` (the last one short), handed out in
 * turn: some GPU takes one more slice than another where they do not divide evenly, and the one that takes the short
 * last slice is the busiest only where it is the one GPU with an extra slice. */
static size_t
busiest_gpu_queries (size_t count, size_t slice, size_t gpus)
{
  size_t slices = divide_up (count, slice), most = divide_up (slices, gpus);
  size_t short_last = count - (slices - 1) * slice;
  if (slices == 1)
    return count;
  return slices % gpus == 1 && most > 1 ? (most - 1) * slice + short_last : most * slice;
}

/* Queries per slice, for `gpus` GPUs sharing the slices. No value depends on it. A slice is a whole number of units
 * (granules of rows of a raster, of queries of a list). One GPU takes the largest slices; several take the largest
 * of those that leave no GPU busier than need be, by a unit or more: 32 units in slices of 6 keep one GPU busy with
 * 18 while the other has 14, where slices of 4 give each 16. */
static size_t
slice_queries (const shepard_point_set *set, const shepard_params *params, const shepard_query_set *queries,
               size_t gpus)
{
  if (queries->count == 0)
    return 0;
  bool brute_force = shepard_params_weight_all_points (params) && params->summation != SHEPARD_SUMMATION_FAR_FIELD;
  size_t unit = queries->grid ? (brute_force ? kBruteForceRowGranule : kSliceRowGranule) * queries->grid->width
                              : kSliceListGranule;
  size_t units = divide_up (queries->count, unit);
  size_t largest = (brute_force ? kMaxBruteForceSliceQueries : kMaxSliceQueries) / unit;
  if (gpus > 1)
    {
      // Short enough that an uneven machine can still share them.
      double per_query = brute_force ? (double) set->n * (double) set->n_fields : 1.0;
      double per_slice = brute_force ? kSlicePairs : (double) kLightSliceQueries;
      double shareable = per_slice / (per_query * (double) unit);
      if (shareable < (double) largest)
        largest = (size_t) shareable;
      size_t even = divide_up (units, gpus); // no GPU can do less than this
      size_t slice = largest < 1 ? 1 : largest < even ? largest : even;
      // The busiest GPU's work in whole units: a smaller slice must spare it a unit at least.
      size_t best = slice, best_busiest = divide_up (busiest_gpu_queries (queries->count, slice * unit, gpus), unit);
      for (; slice > 1 && best_busiest > even; slice--)
        {
          size_t busiest = divide_up (busiest_gpu_queries (queries->count, (slice - 1) * unit, gpus), unit);
          if (busiest < best_busiest)
            {
              best = slice - 1;
              best_busiest = busiest;
            }
        }
      largest = best;
    }
  size_t slice = (largest < 1 ? 1 : largest) * unit;
  return slice < queries->count ? slice : queries->count;
}

static bool
sums_far_field (const shepard_params *params)
{
  return shepard_params_weight_all_points (params) && params->summation == SHEPARD_SUMMATION_FAR_FIELD;
}

} // namespace

shepard_cuda_slices
plan_slices (const shepard_point_set *set, const shepard_params *params, const shepard_query_set *queries,
             size_t gpus)
{
  shepard_cuda_slices plan = {};
  if (queries->count == 0)
    return plan;
  if (sums_far_field (params))
    {
      size_t unit = queries->grid ? kSliceRowGranule * queries->grid->width : kSliceListGranule;
      size_t units = divide_up (queries->count, unit);
      size_t slice = (gpus > 1 ? kSharedFarFieldSliceQueries : kFarFieldSliceQueries) / unit;
      size_t fewest = divide_up (units, kFarFieldSlicesPerGpu * gpus);
      slice = slice < 1 ? 1 : slice < fewest ? slice : fewest;
      plan.size = slice * unit;
      plan.size = plan.size < queries->count ? plan.size : queries->count;
      plan.count = divide_up (queries->count, plan.size);
      plan.runs = gpus < plan.count ? gpus : plan.count;
      plan.shared = true;
      return plan;
    }
  plan.size = slice_queries (set, params, queries, gpus);
  plan.count = divide_up (queries->count, plan.size);
  plan.runs = plan.count;
  return plan;
}

shepard_cuda_slices
one_run (const shepard_point_set *set, const shepard_params *params, const shepard_query_set *queries)
{
  shepard_cuda_slices plan = plan_slices (set, params, queries, 1);
  plan.runs = plan.count > 0 ? 1 : 0;
  return plan;
}

size_t
far_field_depth (const shepard_cuda_slices &plan)
{
  size_t depth = plan.size > 0 ? kFarFieldInFlightQueries / plan.size : 1;
  depth = depth < (size_t) kMinSlicesInFlight ? (size_t) kMinSlicesInFlight : depth;
  return depth < (size_t) kSliceStreams ? depth : (size_t) kSliceStreams;
}

size_t
slice_span (const shepard_cuda_slices &plan, size_t count, size_t slice, size_t *first)
{
  *first = slice * plan.size;
  return count - *first < plan.size ? count - *first : plan.size;
}

size_t
run_queries (const shepard_cuda_slices &plan, size_t count, size_t run)
{
  size_t queries = 0;
  for (size_t slice = run; slice < plan.count; slice += plan.runs)
    {
      size_t first;
      queries += slice_span (plan, count, slice, &first);
    }
  return queries;
}

} // namespace shepard_cuda

extern "C" shepard_cuda_slices
shepard_cuda_plan_slices (const shepard_point_set *points, const shepard_params *params,
                          const shepard_query_set *queries, size_t gpus)
{
  return shepard_cuda::plan_slices (points, params, queries, gpus);
}
