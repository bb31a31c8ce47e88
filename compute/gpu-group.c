/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's GPUs: a CUDA backend on each, the points copied to all of them, and the slices of an interpolation or
 * of a cross-validation handed out to them in turn (shepard-engine.h, "Several GPUs"). */
#include "engine-internal.h"
#include "parallel.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

void
shepard_gpu_group_free (shepard_engine *engine)
{
  for (size_t i = 0; i < engine->n_gpus; i++)
    if (engine->gpus[i] != NULL)
      shepard_cuda_backend_free (engine->gpus[i]);
  engine->n_gpus = 0;
  engine->cuda = NULL;
}

/* "NVIDIA H200 (sm_90, 132 SMs)", "... x 2" where every GPU is of one model, else the names joined by " + ". */
static void
describe (shepard_engine *engine)
{
  const char *first = shepard_cuda_backend_device_name (engine->gpus[0]);
  bool one_model = true;
  for (size_t i = 1; i < engine->n_gpus; i++)
    one_model = one_model && !strcmp (first, shepard_cuda_backend_device_name (engine->gpus[i]));
  size_t size = sizeof engine->description;
  int length = snprintf (engine->description, size, "CUDA: %s", first);
  if (engine->n_gpus > 1 && one_model && length > 0 && (size_t) length < size)
    snprintf (engine->description + length, size - (size_t) length, " x %zu", engine->n_gpus);
  for (size_t i = 1; !one_model && i < engine->n_gpus && length > 0 && (size_t) length < size; i++)
    length += snprintf (engine->description + length, size - (size_t) length, " + %s",
                        shepard_cuda_backend_device_name (engine->gpus[i]));
}

typedef struct {
  shepard_engine *engine;
  const shepard_gpu_set *set;
} start_job;

/* One GPU's start: its CUDA context, streams and events. */
static bool
start_backends (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  start_job *job = context;
  for (size_t i = begin; i < end; i++)
    if (shepard_cuda_backend_new (job->set->ordinals[i], &job->engine->gpus[i], error) != SHEPARD_OK)
      return false;
  return true;
}

/* The GPUs chosen, or every visible one where set is NULL or empty (into every); at_least_one: GPU 0 where none is
 * visible, whose backend then says why. */
static const shepard_gpu_set *
chosen_or_every (const shepard_gpu_set *set, bool at_least_one, shepard_gpu_set *every)
{
  if (set && set->count > 0)
    return set;
  int count = shepard_cuda_device_count ();
  if (count == 0 && at_least_one)
    count = 1;
  *every = (shepard_gpu_set) { 0 };
  for (int i = 0; i < count && i < SHEPARD_MAX_GPUS; i++)
    every->ordinals[every->count++] = i;
  return every;
}

/* A device's context: what starting its backend waits for. */
static bool
start_contexts (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  const shepard_gpu_set *set = context;
  for (size_t i = begin; i < end; i++)
    shepard_cuda_device_start (set->ordinals[i]);
  return true;
}

void
shepard_gpu_group_start_contexts (const shepard_gpu_set *set)
{
  shepard_gpu_set every;
  set = chosen_or_every (set, false, &every);
  if (set->count > 0)
    shepard_parallel_for ((int) set->count, set->count, 1, start_contexts, (void *) set, NULL, NULL, NULL, NULL);
}

shepard_status
shepard_gpu_group_start (shepard_engine *engine, const shepard_gpu_set *set, shepard_error *error)
{
  shepard_gpu_set every;
  set = chosen_or_every (set, true, &every);
  /* Each context takes a few hundred milliseconds to create; on threads of their own, all GPUs start as soon as
   * one does. */
  for (size_t i = 0; i < set->count; i++)
    engine->gpus[i] = NULL;
  start_job job = { engine, set };
  shepard_status status
      = shepard_parallel_for ((int) set->count, set->count, 1, start_backends, &job, NULL, NULL, NULL, error);
  engine->n_gpus = set->count;
  if (status != SHEPARD_OK)
    {
      shepard_gpu_group_free (engine);
      return status;
    }
  engine->cuda = engine->gpus[0];
  describe (engine);
  return SHEPARD_OK;
}

/* One GPU's part of a copy to every GPU. */
typedef struct {
  shepard_engine *engine;
  bool far_field; /* the tree, else the points */
} upload_job;

static bool
upload_to (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  upload_job *job = context;
  for (size_t i = begin; i < end; i++)
    {
      shepard_cuda_backend *gpu = job->engine->gpus[i];
      shepard_status status = job->far_field
                                  ? shepard_cuda_backend_set_far_field (gpu, job->engine->far_field, error)
                                  : shepard_cuda_backend_set_points (gpu, &job->engine->points, error);
      if (status != SHEPARD_OK)
        return false;
    }
  return true;
}

static shepard_status
upload (shepard_engine *engine, bool far_field, shepard_error *error)
{
  upload_job job = { engine, far_field };
  return shepard_parallel_for ((int) engine->n_gpus, engine->n_gpus, 1, upload_to, &job, NULL, NULL, NULL, error);
}

shepard_status
shepard_gpu_group_set_points (shepard_engine *engine, shepard_error *error)
{
  return upload (engine, false, error);
}

shepard_status
shepard_gpu_group_set_far_field (shepard_engine *engine, shepard_error *error)
{
  return upload (engine, true, error);
}

typedef struct {
  shepard_engine *engine;
  const shepard_params *params;
  double r_exp;
  const shepard_query_set *queries;
  shepard_cuda_slices slices;
  const shepard_outputs *outputs;
  /* Shared slices: the next to claim, the queries in the outputs, and whether the caller cancelled or a GPU failed. */
  atomic_size_t next_slice, finished_queries;
  atomic_bool stop;
  shepard_progress_fn progress;
  void *progress_data;
} run_job;

/* Worker w drives GPU w; the runs come in the order they are asked for. */
static bool
interpolate_runs (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  run_job *job = context;
  for (size_t run = begin; run < end; run++)
    if (shepard_cuda_interpolate_run (job->engine->gpus[worker], &job->engine->points, job->params, job->r_exp,
                                      job->queries, &job->slices, run, job->outputs, error)
        != SHEPARD_OK)
      return false;
  return true;
}

static bool
claim_slice (void *data, size_t *slice)
{
  run_job *job = data;
  if (atomic_load (&job->stop))
    return false;
  *slice = atomic_fetch_add (&job->next_slice, 1);
  return *slice < job->slices.count;
}

static void
finish_slice (void *data, size_t queries)
{
  run_job *job = data;
  atomic_fetch_add (&job->finished_queries, queries);
}

/* Worker w drives GPU w, claiming shared slices until none is left: an item is one GPU's share, whatever it holds. */
static bool
interpolate_shared (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  run_job *job = context;
  shepard_cuda_slice_queue queue = { claim_slice, finish_slice, job };
  for (size_t item = begin; item < end; item++)
    if (shepard_cuda_interpolate_shared (job->engine->gpus[worker], &job->engine->points, job->params, job->r_exp,
                                         job->queries, &job->slices, &queue, job->outputs, error)
        != SHEPARD_OK)
      {
        atomic_store (&job->stop, true);
        return false;
      }
  return true;
}

/* The calling thread's progress over shared slices: by queries in the outputs; a cancel stops the claims. */
static bool
report_shared_progress (double fraction, const char *message, void *data)
{
  (void) fraction;
  run_job *job = data;
  size_t count = job->queries->count;
  double done = count > 0 ? (double) atomic_load (&job->finished_queries) / (double) count : 1.0;
  bool go_on = job->progress (done < 1.0 ? done : 1.0, message, job->progress_data);
  if (!go_on)
    atomic_store (&job->stop, true);
  return go_on;
}

shepard_status
shepard_gpu_group_interpolate (shepard_engine *engine, const shepard_params *params, double r_exp,
                               const shepard_query_set *queries, const shepard_outputs *outputs,
                               shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  run_job job = { .engine = engine, .params = params, .r_exp = r_exp, .queries = queries,
                  .slices = shepard_cuda_plan_slices (&engine->points, params, queries, engine->n_gpus),
                  .outputs = outputs, .progress = progress, .progress_data = progress_data };
  atomic_init (&job.next_slice, 0);
  atomic_init (&job.finished_queries, 0);
  atomic_init (&job.stop, false);
  for (size_t i = 0; i < engine->n_gpus; i++)
    shepard_cuda_backend_clear_timings (engine->gpus[i]);
  if (job.slices.shared)
    return shepard_parallel_for ((int) engine->n_gpus, job.slices.runs, 1, interpolate_shared, &job,
                                 progress ? report_shared_progress : NULL, &job, "Interpolating on the GPU", error);
  return shepard_parallel_for ((int) engine->n_gpus, job.slices.runs, 1, interpolate_runs, &job, progress,
                               progress_data, "Interpolating on the GPU", error);
}

/* A cross-validation's slices of sorted slots, handed out as an interpolation's: each GPU readies itself at its first
 * slice, and writes its predictions into the first GPU's pinned array. Between the launches of a slice each worker
 * asks whether the caller has cancelled, so that a cancel stops every GPU within a launch rather than a slice. */
typedef struct {
  shepard_engine *engine;
  const shepard_params *params;
  const shepard_holdout *holdout;
  size_t slice_slots;
  float *prediction;
  double *alpha;
  shepard_progress_fn progress;
  void *progress_data;
  atomic_bool cancelled;
  bool ready[SHEPARD_MAX_GPUS]; /* each touched by its own worker only */
} cv_job;

/* The calling thread's progress: the caller's answer, which the workers see. */
static bool
report_cv_progress (double fraction, const char *message, void *data)
{
  cv_job *job = data;
  bool go_on = job->progress (fraction, message, job->progress_data);
  if (!go_on)
    atomic_store (&job->cancelled, true);
  return go_on;
}

/* A worker's question between launches: the caller's callback is never called from here. */
static bool
not_cancelled (double fraction, const char *message, void *data)
{
  (void) fraction;
  (void) message;
  cv_job *job = data;
  return !atomic_load (&job->cancelled);
}

static bool
cross_validate_slices (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  cv_job *job = context;
  shepard_engine *engine = job->engine;
  shepard_cuda_backend *gpu = engine->gpus[worker];
  if (!job->ready[worker])
    {
      if (shepard_cuda_cv_prepare (gpu, &engine->points, job->params, job->holdout, NULL, error) != SHEPARD_OK)
        return false;
      job->ready[worker] = true;
    }
  size_t n = engine->points.n;
  for (size_t slice = begin; slice < end; slice++)
    {
      size_t first = slice * job->slice_slots, last = n - first < job->slice_slots ? n : first + job->slice_slots;
      if (shepard_cuda_cross_validate_slots (gpu, &engine->points, job->params, job->holdout, first, last,
                                             job->prediction, job->alpha, job->progress ? not_cancelled : NULL, job,
                                             error)
          != SHEPARD_OK)
        return false;
    }
  return true;
}

shepard_status
shepard_gpu_group_cross_validate (shepard_engine *engine, const shepard_params *params,
                                  const shepard_holdout *holdout, const float **prediction, double *alpha,
                                  shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  /* One GPU runs every slot in one go, with no slices' tails. */
  if (engine->n_gpus == 1)
    return shepard_cuda_cross_validate (engine->cuda, &engine->points, params, holdout, prediction, alpha, progress,
                                        progress_data, error);
  size_t slice = shepard_cuda_cv_slice_slots (&engine->points);
  size_t slices = (engine->points.n + slice - 1) / slice;
  cv_job job = { .engine = engine, .params = params, .holdout = holdout, .slice_slots = slice, .alpha = alpha,
                 .progress = progress, .progress_data = progress_data };
  atomic_init (&job.cancelled, false);
  for (size_t i = 0; i < engine->n_gpus; i++)
    shepard_cuda_backend_clear_timings (engine->gpus[i]);
  shepard_status status = shepard_cuda_cv_prepare (engine->cuda, &engine->points, params, holdout, &job.prediction,
                                                   error);
  job.ready[0] = status == SHEPARD_OK;
  if (status == SHEPARD_OK)
    status = shepard_parallel_for ((int) engine->n_gpus, slices, 1, cross_validate_slices, &job,
                                   progress ? report_cv_progress : NULL, &job, "Cross-validating on the GPU", error);
  if (status == SHEPARD_OK)
    *prediction = job.prediction;
  return status;
}
