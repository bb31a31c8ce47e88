/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cpu-backend.h"

#include "engine-private.h"
#include "parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Work per chunk handed to a thread, in query x point pairs: a few milliseconds, so cancel is answered quickly. */
#define FLOAT32_PAIRS_PER_CHUNK 4000000.0
#define FLOAT64_PAIRS_PER_CHUNK 200000.0
#define LOCAL_QUERIES_PER_CHUNK 256
#define MAX_QUERIES_PER_CHUNK 1024
#define FLOAT64_SUM_BLOCK 1024

/* Float32 weight sums outside this range may hold a clamped or overflowed weight: recompute those in float64. */
#define FLOAT32_SUM_MIN 0x1p-100
#define FLOAT32_SUM_MAX 0x1p+126

typedef struct {
  double *d2;
  size_t *index;
  shepard_kernel_query *batch;
  size_t *batch_query;
  double *batch_nearest_d2;
  double *batch_exponent;
  double *sum_w, *sum_wz;
} worker_scratch;

/* Cross-validation's side of a job: query i is data point i, which leaves out every point of its fold. */
typedef struct {
  const shepard_holdout *holdout;
  const uint32_t *labels;        /* the fold of each data point, padded and aligned as the float copies */
  const uint32_t *sorted_labels; /* the same in the even grid's sorted order */
  double r_exp_large_local, r_exp_small_local;
} holdout_job;

typedef struct {
  const shepard_cpu_backend *backend;
  const shepard_params *params;
  const shepard_query_set *queries;
  const shepard_outputs *outputs;
  const holdout_job *holdout; /* NULL: interpolation */
  double r_exp_local;
  double coincident_d2_local;
  size_t k_search; /* neighbours each query needs from the grid */
  worker_scratch *scratch;
} interpolation_job;

static void
query_local (const shepard_query_set *queries, const shepard_point_set *points, size_t i, double *qx, double *qy)
{
  double x, y;
  if (queries->grid)
    {
      const shepard_grid *grid = queries->grid;
      size_t row = i / grid->width, col = i % grid->width;
      x = grid->x_min + ((double) col + 0.5) * grid->dx;
      y = grid->y_max - ((double) row + 0.5) * grid->dy;
    }
  else
    {
      x = queries->x[i];
      y = queries->y[i];
    }
  *qx = (x - points->origin_x) * points->scale;
  *qy = (y - points->origin_y) * points->scale;
}

/* (d2 / d2_nearest)^exponent: the nearest point weighs 1, so no weight overflows whatever the power. The common factor
 * cancels in the weighted mean. Whole powers p = -2 * exponent avoid pow(): ratio^(p/2) is a product of ratios and,
 * for odd p, one square root. */
static inline double
relative_weight (double d2, double d2_nearest, double exponent, int whole_power)
{
  double ratio = d2_nearest / d2;
  if (whole_power > 0)
    {
      double w = whole_power & 1 ? sqrt (ratio) : 1.0;
      for (int i = 0; i < whole_power / 2; i++)
        w *= ratio;
      return w;
    }
  return pow (ratio, -exponent);
}

/* p = -2 * exponent when it is a whole number from 1 to 16, else 0: the relative_weight fast path. */
static int
whole_power_of (double exponent)
{
  double p = -2.0 * exponent;
  return p == floor (p) && p >= 1.0 && p <= 16.0 ? (int) p : 0;
}

/* The sums of w and w z over every point, or (labels set) every point whose label differs from `excluded`. */
static inline __attribute__ ((always_inline)) void
all_points_sums (const shepard_point_set *points, const uint32_t *labels, uint32_t excluded, double qx, double qy,
                 double d2_nearest, double exponent, double *sum_w_out, double *sum_wz_out)
{
  int whole_power = whole_power_of (exponent);
  double sum_w = 0.0, sum_wz = 0.0;
  /* Summed in blocks, then the block sums: small weights are not lost against a large running total. */
  for (size_t block = 0; block < points->n; block += FLOAT64_SUM_BLOCK)
    {
      size_t end = block + FLOAT64_SUM_BLOCK < points->n ? block + FLOAT64_SUM_BLOCK : points->n;
      double block_w = 0.0, block_wz = 0.0;
      for (size_t i = block; i < end; i++)
        {
          if (labels && labels[i] == excluded)
            continue;
          double dx = points->x[i] - qx, dy = points->y[i] - qy;
          double w = relative_weight (dx * dx + dy * dy, d2_nearest, exponent, whole_power);
          block_w += w;
          block_wz += w * points->z[i];
        }
      sum_w += block_w;
      sum_wz += block_wz;
    }
  *sum_w_out = sum_w;
  *sum_wz_out = sum_wz;
}

static double
all_points_float64 (const shepard_point_set *points, double qx, double qy, double d2_nearest, double exponent)
{
  double sum_w, sum_wz;
  all_points_sums (points, NULL, 0, qx, qy, d2_nearest, exponent, &sum_w, &sum_wz);
  return sum_wz / sum_w;
}

static double
all_points_float64_excluding (const shepard_point_set *points, const uint32_t *labels, uint32_t excluded, double qx,
                              double qy, double d2_nearest, double exponent)
{
  double sum_w, sum_wz;
  all_points_sums (points, labels, excluded, qx, qy, d2_nearest, exponent, &sum_w, &sum_wz);
  return sum_wz / sum_w;
}

/* Where query i is, in the local frame: a cell centre, a given point, or (cross-validation) data point i. */
static void
query_position (const interpolation_job *job, size_t i, double *qx, double *qy)
{
  const shepard_point_set *points = job->backend->points;
  if (job->holdout)
    {
      *qx = points->x[i];
      *qy = points->y[i];
    }
  else
    query_local (job->queries, points, i, qx, qy);
}

static double
all_points_for_query (const interpolation_job *job, size_t i, uint32_t label, double d2_nearest, double exponent)
{
  double qx, qy;
  query_position (job, i, &qx, &qy);
  if (job->holdout)
    return all_points_float64_excluding (job->backend->points, job->holdout->labels, label, qx, qy, d2_nearest,
                                         exponent);
  return all_points_float64 (job->backend->points, qx, qy, d2_nearest, exponent);
}

static double
nearest_float64 (const shepard_point_set *points, const double *d2, const size_t *index, size_t count,
                 double exponent)
{
  int whole_power = whole_power_of (exponent);
  double sum_w = 0.0, sum_wz = 0.0;
  for (size_t j = 0; j < count; j++)
    {
      double w = relative_weight (d2[j], d2[0], exponent, whole_power);
      sum_w += w;
      sum_wz += w * points->z[index[j]];
    }
  return sum_wz / sum_w;
}

static void
finish_float32_batch (const interpolation_job *job, worker_scratch *scratch, size_t batch_size)
{
  const shepard_cpu_backend *backend = job->backend;
  for (size_t b = 0; b < batch_size; b++)
    {
      scratch->sum_w[b] = 0.0;
      scratch->sum_wz[b] = 0.0;
    }
  shepard_kernel_points kernel_points = {
    backend->points->x_hi, backend->points->x_lo, backend->points->y_hi, backend->points->y_lo, backend->points->z32,
    job->holdout ? job->holdout->labels : NULL, backend->points->n,
  };
  bool inverse_square = job->params->method == SHEPARD_METHOD_IDW && job->params->power == 2.0;
  backend->kernels->weighted_sums (&kernel_points, scratch->batch, batch_size,
                                   inverse_square ? SHEPARD_WEIGHT_INVERSE_SQUARE : SHEPARD_WEIGHT_POWER,
                                   scratch->sum_w, scratch->sum_wz);
  for (size_t b = 0; b < batch_size; b++)
    {
      size_t i = scratch->batch_query[b];
      double sum_w = scratch->sum_w[b];
      if (sum_w >= FLOAT32_SUM_MIN && sum_w <= FLOAT32_SUM_MAX && isfinite (scratch->sum_wz[b]))
        job->outputs->values[i] = scratch->sum_wz[b] / sum_w;
      else
        job->outputs->values[i] = all_points_for_query (job, i, scratch->batch[b].label, scratch->batch_nearest_d2[b],
                                                        scratch->batch_exponent[b]);
    }
}

/* AIDW's adaptive power at a query, from the squared distances to its nearest (local frame, ascending): r_obs, the
 * mean distance to the k_density nearest, then R = r_obs / r_exp, the membership mu and alpha. */
static double
adaptive_alpha (const double *d2, size_t k_density, double r_exp_local, const shepard_params *params,
                double *r_obs_local, double *mu)
{
  double r_obs = 0.0;
  for (size_t j = 0; j < k_density; j++)
    r_obs += sqrt (d2[j]);
  r_obs /= (double) k_density;
  *r_obs_local = r_obs;
  *mu = shepard_aidw_membership (r_obs / r_exp_local, params->r_min, params->r_max);
  return shepard_aidw_alpha (*mu, params->alpha);
}

static bool
interpolate_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  const interpolation_job *job = context;
  const shepard_cpu_backend *backend = job->backend;
  const shepard_point_set *points = backend->points;
  const shepard_params *params = job->params;
  const holdout_job *holdout = job->holdout;
  worker_scratch *scratch = &job->scratch[worker];
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t batch_size = 0;

  for (size_t i = begin; i < end; i++)
    {
      double qx, qy, r_exp_local = job->r_exp_local;
      uint32_t label = 0;
      size_t found;
      query_position (job, i, &qx, &qy);
      if (holdout)
        {
          label = holdout->labels[i];
          r_exp_local = label < holdout->holdout->large_folds ? holdout->r_exp_large_local
                                                              : holdout->r_exp_small_local;
          found = shepard_even_grid_nearest_excluding (backend->grid, holdout->sorted_labels, label, qx, qy,
                                                       job->k_search, scratch->d2, scratch->index);
        }
      else
        found = shepard_even_grid_nearest (backend->grid, qx, qy, job->k_search, scratch->d2, scratch->index);
      size_t k_density = aidw && (size_t) params->k < found ? (size_t) params->k : found;
      size_t n_weighted = params->neighbors == SHEPARD_NEIGHBORS_ALL || (size_t) params->neighbors > found
                            ? found
                            : (size_t) params->neighbors;

      double exponent = -0.5 * params->power;
      if (aidw)
        {
          double r_obs, mu;
          double alpha = adaptive_alpha (scratch->d2, k_density, r_exp_local, params, &r_obs, &mu);
          exponent = -0.5 * alpha;
          if (job->outputs->alpha)
            job->outputs->alpha[i] = alpha;
          if (job->outputs->r_obs)
            job->outputs->r_obs[i] = r_obs / points->scale;
        }
      else if (job->outputs->alpha)
        job->outputs->alpha[i] = params->power;

      if (scratch->d2[0] <= job->coincident_d2_local)
        {
          size_t count;
          double sum = holdout ? shepard_even_grid_sum_within_excluding (backend->grid, holdout->sorted_labels, label,
                                                                         points->z, qx, qy,
                                                                         job->coincident_d2_local, &count)
                               : shepard_even_grid_sum_within (backend->grid, points->z, qx, qy,
                                                               job->coincident_d2_local, &count);
          job->outputs->values[i] = sum / (double) count;
        }
      else if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
        job->outputs->values[i] = nearest_float64 (points, scratch->d2, scratch->index, n_weighted, exponent);
      else if (backend->precision == SHEPARD_PRECISION_FLOAT64)
        job->outputs->values[i] = holdout ? all_points_float64_excluding (points, holdout->labels, label, qx, qy,
                                                                          scratch->d2[0], exponent)
                                          : all_points_float64 (points, qx, qy, scratch->d2[0], exponent);
      else
        {
          shepard_kernel_query *query = &scratch->batch[batch_size];
          query->x_hi = (float) qx;
          query->x_lo = (float) (qx - (double) query->x_hi);
          query->y_hi = (float) qy;
          query->y_lo = (float) (qy - (double) query->y_hi);
          query->exponent = (float) exponent;
          query->label = label;
          scratch->batch_query[batch_size] = i;
          scratch->batch_nearest_d2[batch_size] = scratch->d2[0];
          scratch->batch_exponent[batch_size] = exponent;
          batch_size++;
        }
    }
  if (batch_size > 0)
    finish_float32_batch (job, scratch, batch_size);
  (void) error;
  return true;
}

static void
free_scratch (worker_scratch *scratch, int threads)
{
  if (!scratch)
    return;
  for (int t = 0; t < threads; t++)
    {
      free (scratch[t].d2);
      free (scratch[t].index);
      free (scratch[t].batch);
      free (scratch[t].batch_query);
      free (scratch[t].batch_nearest_d2);
      free (scratch[t].batch_exponent);
      free (scratch[t].sum_w);
      free (scratch[t].sum_wz);
    }
  free (scratch);
}

static worker_scratch *
alloc_scratch (int threads, size_t k, size_t chunk)
{
  worker_scratch *scratch = calloc ((size_t) threads, sizeof *scratch);
  if (!scratch)
    return NULL;
  for (int t = 0; t < threads; t++)
    {
      worker_scratch *s = &scratch[t];
      s->d2 = malloc (k * sizeof *s->d2);
      s->index = malloc (k * sizeof *s->index);
      s->batch = malloc (chunk * sizeof *s->batch);
      s->batch_query = malloc (chunk * sizeof *s->batch_query);
      s->batch_nearest_d2 = malloc (chunk * sizeof *s->batch_nearest_d2);
      s->batch_exponent = malloc (chunk * sizeof *s->batch_exponent);
      s->sum_w = malloc (chunk * sizeof *s->sum_w);
      s->sum_wz = malloc (chunk * sizeof *s->sum_wz);
      if (!s->d2 || !s->index || !s->batch || !s->batch_query || !s->batch_nearest_d2 || !s->batch_exponent || !s->sum_w
          || !s->sum_wz)
        {
          free_scratch (scratch, threads);
          return NULL;
        }
    }
  return scratch;
}

static size_t
chunk_for (double pairs_per_chunk, size_t n_points)
{
  double queries = pairs_per_chunk / (double) n_points;
  if (queries < 1.0)
    return 1;
  if (queries > MAX_QUERIES_PER_CHUNK)
    return MAX_QUERIES_PER_CHUNK;
  return (size_t) queries;
}

/* The queries of job (queries, outputs, holdout and r_exp already set) on the backend's threads. */
static shepard_status
run_queries (interpolation_job *job, const char *message, shepard_progress_fn progress, void *progress_data,
             shepard_error *error)
{
  const shepard_cpu_backend *backend = job->backend;
  const shepard_params *params = job->params;
  const shepard_point_set *points = backend->points;
  size_t k_search = 1;
  if (params->method == SHEPARD_METHOD_AIDW)
    k_search = (size_t) params->k;
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL && (size_t) params->neighbors > k_search)
    k_search = (size_t) params->neighbors;
  if (k_search > points->n)
    k_search = points->n;

  size_t chunk;
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
    chunk = LOCAL_QUERIES_PER_CHUNK;
  else if (backend->precision == SHEPARD_PRECISION_FLOAT32)
    chunk = chunk_for (FLOAT32_PAIRS_PER_CHUNK, points->n);
  else
    chunk = chunk_for (FLOAT64_PAIRS_PER_CHUNK, points->n);

  int threads = backend->threads;
  worker_scratch *scratch = alloc_scratch (threads, k_search, chunk);
  if (!scratch)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the interpolation buffers.");

  job->coincident_d2_local = shepard_point_set_coincident_d2_local (points);
  job->k_search = k_search;
  job->scratch = scratch;
  shepard_status status = shepard_parallel_for (threads, job->queries->count, chunk, interpolate_chunk, job, progress,
                                                progress_data, message, error);
  free_scratch (scratch, threads);
  return status;
}

shepard_status
shepard_cpu_interpolate (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                         const shepard_query_set *queries, const shepard_outputs *outputs,
                         shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  interpolation_job job = {
    .backend = backend,
    .params = params,
    .queries = queries,
    .outputs = outputs,
    .r_exp_local = r_exp * backend->points->scale,
  };
  const char *message = params->method == SHEPARD_METHOD_AIDW ? "Interpolating (AIDW)" : "Interpolating (IDW)";
  return run_queries (&job, message, progress, progress_data, error);
}

shepard_status
shepard_cpu_cross_validate (const shepard_cpu_backend *backend, const shepard_params *params,
                            const shepard_holdout *holdout, double *prediction, double *alpha,
                            shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  const shepard_point_set *points = backend->points;
  const shepard_even_grid *grid = backend->grid;
  /* Leave-one-out labels each point with its own index, as the SIMD kernels read labels alongside the points. */
  uint32_t *own_labels = NULL;
  if (!holdout->fold_of)
    own_labels = aligned_alloc (64, (points->n_padded * sizeof (uint32_t) + 63) / 64 * 64);
  const uint32_t *labels = holdout->fold_of ? holdout->fold_of : own_labels;
  uint32_t *sorted_labels = malloc (points->n * sizeof *sorted_labels);
  if (!labels || !sorted_labels)
    {
      free (own_labels);
      free (sorted_labels);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to cross-validate %zu points.",
                           points->n);
    }
  for (size_t i = 0; own_labels && i < points->n_padded; i++)
    own_labels[i] = i < points->n ? (uint32_t) i : UINT32_MAX;
  for (size_t slot = 0; slot < points->n; slot++)
    sorted_labels[slot] = labels[grid->order[slot]];

  holdout_job holdout_part = {
    .holdout = holdout,
    .labels = labels,
    .sorted_labels = sorted_labels,
    .r_exp_large_local = holdout->r_exp_large_fold * points->scale,
    .r_exp_small_local = holdout->r_exp_small_fold * points->scale,
  };
  shepard_query_set queries = { .count = points->n };
  shepard_outputs outputs = { .values = prediction, .alpha = alpha };
  interpolation_job job = {
    .backend = backend,
    .params = params,
    .queries = &queries,
    .outputs = &outputs,
    .holdout = &holdout_part,
  };
  const char *message = params->method == SHEPARD_METHOD_AIDW ? "Cross-validating (AIDW)"
                                                               : "Cross-validating (IDW)";
  shepard_status status = run_queries (&job, message, progress, progress_data, error);
  free (own_labels);
  free (sorted_labels);
  return status;
}

shepard_status
shepard_cpu_explain (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp, double x,
                     double y, shepard_contribution *listed, size_t capacity, shepard_explanation *explanation,
                     shepard_error *error)
{
  const shepard_point_set *points = backend->points;
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t n = points->n;
  size_t k_density = aidw ? ((size_t) params->k < n ? (size_t) params->k : n) : 0;
  size_t n_weighted = params->neighbors == SHEPARD_NEIGHBORS_ALL || (size_t) params->neighbors > n
                        ? n
                        : (size_t) params->neighbors;
  size_t n_listed = capacity < n ? capacity : n;
  size_t k_search = k_density > n_listed ? k_density : n_listed;
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL && n_weighted > k_search)
    k_search = n_weighted;
  if (k_search < 1)
    k_search = 1;
  double *d2 = malloc (k_search * sizeof *d2);
  size_t *index = malloc (k_search * sizeof *index);
  if (!d2 || !index)
    {
      free (d2);
      free (index);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to explain a value.");
    }
  double qx = (x - points->origin_x) * points->scale, qy = (y - points->origin_y) * points->scale;
  shepard_even_grid_nearest (backend->grid, qx, qy, k_search, d2, index);

  shepard_explanation result = {
    .alpha = params->power,
    .r_obs = NAN,
    .r_exp = NAN,
    .r = NAN,
    .mu = NAN,
    .k_density = (int) k_density,
    .n_listed = n_listed,
  };
  if (aidw)
    {
      double r_exp_local = r_exp * points->scale, r_obs;
      result.alpha = adaptive_alpha (d2, k_density, r_exp_local, params, &r_obs, &result.mu);
      result.r_obs = r_obs / points->scale;
      result.r_exp = r_exp;
      result.r = r_obs / r_exp_local;
    }
  double exponent = -0.5 * result.alpha;
  double coincident_d2 = shepard_point_set_coincident_d2_local (points);
  for (size_t j = 0; j < n_listed; j++)
    listed[j] = (shepard_contribution) {
      .index = index[j],
      .distance = sqrt (d2[j]) / points->scale,
      .value = points->z[index[j]],
    };

  double listed_share = 0.0, listed_share_value = 0.0;
  if (d2[0] <= coincident_d2)
    {
      /* On data points: their mean, each with an equal share. */
      size_t count;
      double sum = shepard_even_grid_sum_within (backend->grid, points->z, qx, qy, coincident_d2, &count);
      result.coincident = true;
      result.n_weighted = count;
      result.value = sum / (double) count;
      size_t listed_coincident = 0;
      for (size_t j = 0; j < n_listed && d2[j] <= coincident_d2; j++)
        {
          listed[j].share = 1.0 / (double) count;
          listed_share += listed[j].share;
          listed_share_value += listed[j].share * listed[j].value;
          listed_coincident++;
        }
      result.rest_count = count - listed_coincident;
      result.rest_share = (double) result.rest_count / (double) count;
      result.rest_share_value = result.value - listed_share_value;
    }
  else
    {
      int whole_power = whole_power_of (exponent);
      double sum_w = 0.0, sum_wz = 0.0;
      if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
        for (size_t j = 0; j < n_weighted; j++)
          {
            double w = relative_weight (d2[j], d2[0], exponent, whole_power);
            sum_w += w;
            sum_wz += w * points->z[index[j]];
          }
      else
        all_points_sums (points, NULL, 0, qx, qy, d2[0], exponent, &sum_w, &sum_wz);
      result.n_weighted = n_weighted;
      result.value = sum_wz / sum_w;
      for (size_t j = 0; j < n_listed && j < n_weighted; j++)
        {
          listed[j].share = relative_weight (d2[j], d2[0], exponent, whole_power) / sum_w;
          listed_share += listed[j].share;
          listed_share_value += listed[j].share * listed[j].value;
        }
      result.rest_count = n_weighted > n_listed ? n_weighted - n_listed : 0;
      /* What the listed points leave: exact sums, so listed + rest adds up to 1 and to the value. */
      result.rest_share = result.rest_count > 0 ? 1.0 - listed_share : 0.0;
      result.rest_share_value = result.rest_count > 0 ? result.value - listed_share_value : 0.0;
    }
  *explanation = result;
  free (d2);
  free (index);
  return SHEPARD_OK;
}

typedef struct {
  const shepard_cpu_backend *backend;
  const double *query_x, *query_y;
  size_t k;
  double *squared_distances;
  size_t *indices;
  size_t *index_scratch; /* per worker, k each, when the caller wants no indices */
} nearest_job;

static bool
nearest_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  const nearest_job *job = context;
  const shepard_point_set *points = job->backend->points;
  double to_given = 1.0 / (points->scale * points->scale);
  for (size_t i = begin; i < end; i++)
    {
      double *d2 = job->squared_distances + i * job->k;
      size_t *index = job->indices ? job->indices + i * job->k : job->index_scratch + (size_t) worker * job->k;
      double qx = (job->query_x[i] - points->origin_x) * points->scale;
      double qy = (job->query_y[i] - points->origin_y) * points->scale;
      size_t found = shepard_even_grid_nearest (job->backend->grid, qx, qy, job->k, d2, index);
      for (size_t j = 0; j < found; j++)
        d2[j] *= to_given;
      for (size_t j = found; j < job->k; j++)
        {
          d2[j] = INFINITY;
          index[j] = SIZE_MAX;
        }
    }
  (void) error;
  return true;
}

shepard_status
shepard_cpu_nearest (const shepard_cpu_backend *backend, const double *query_x, const double *query_y,
                     size_t n_queries, size_t k, double *squared_distances, size_t *indices, shepard_error *error)
{
  size_t *index_scratch = NULL;
  if (!indices)
    {
      size_t count;
      if (!shepard_size_mul ((size_t) backend->threads, k, &count)
          || !(index_scratch = malloc (count * sizeof *index_scratch)))
        return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the neighbour search.");
    }
  nearest_job job = { backend, query_x, query_y, k, squared_distances, indices, index_scratch };
  shepard_status status = shepard_parallel_for (backend->threads, n_queries, LOCAL_QUERIES_PER_CHUNK, nearest_chunk,
                                                &job, NULL, NULL, "Searching neighbours", error);
  free (index_scratch);
  return status;
}
