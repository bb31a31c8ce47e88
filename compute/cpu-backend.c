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

typedef struct {
  const shepard_cpu_backend *backend;
  const shepard_params *params;
  const shepard_query_set *queries;
  const shepard_outputs *outputs;
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

static double
all_points_float64 (const shepard_point_set *points, double qx, double qy, double d2_nearest, double exponent)
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
          double dx = points->x[i] - qx, dy = points->y[i] - qy;
          double w = relative_weight (dx * dx + dy * dy, d2_nearest, exponent, whole_power);
          block_w += w;
          block_wz += w * points->z[i];
        }
      sum_w += block_w;
      sum_wz += block_wz;
    }
  return sum_wz / sum_w;
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
    backend->points->n,
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
        {
          double qx, qy;
          query_local (job->queries, backend->points, i, &qx, &qy);
          job->outputs->values[i] = all_points_float64 (backend->points, qx, qy, scratch->batch_nearest_d2[b],
                                                        scratch->batch_exponent[b]);
        }
    }
}

static bool
interpolate_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  const interpolation_job *job = context;
  const shepard_cpu_backend *backend = job->backend;
  const shepard_point_set *points = backend->points;
  const shepard_params *params = job->params;
  worker_scratch *scratch = &job->scratch[worker];
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t k_density = aidw ? ((size_t) params->k < points->n ? (size_t) params->k : points->n) : 0;
  size_t n_weighted = params->neighbors == SHEPARD_NEIGHBORS_ALL ? points->n : (size_t) params->neighbors;
  if (n_weighted > points->n)
    n_weighted = points->n;
  size_t batch_size = 0;

  for (size_t i = begin; i < end; i++)
    {
      double qx, qy;
      query_local (job->queries, points, i, &qx, &qy);
      shepard_even_grid_nearest (backend->grid, qx, qy, job->k_search, scratch->d2, scratch->index);

      double exponent = -0.5 * params->power;
      if (aidw)
        {
          double r_obs = 0.0;
          for (size_t j = 0; j < k_density; j++)
            r_obs += sqrt (scratch->d2[j]);
          r_obs /= (double) k_density;
          double mu = shepard_aidw_membership (r_obs / job->r_exp_local, params->r_min, params->r_max);
          double alpha = shepard_aidw_alpha (mu, params->alpha);
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
          double sum = shepard_even_grid_sum_within (backend->grid, points->z, qx, qy, job->coincident_d2_local,
                                                     &count);
          job->outputs->values[i] = sum / (double) count;
        }
      else if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
        job->outputs->values[i] = nearest_float64 (points, scratch->d2, scratch->index, n_weighted, exponent);
      else if (backend->precision == SHEPARD_PRECISION_FLOAT64)
        job->outputs->values[i] = all_points_float64 (points, qx, qy, scratch->d2[0], exponent);
      else
        {
          shepard_kernel_query *query = &scratch->batch[batch_size];
          query->x_hi = (float) qx;
          query->x_lo = (float) (qx - (double) query->x_hi);
          query->y_hi = (float) qy;
          query->y_lo = (float) (qy - (double) query->y_hi);
          query->exponent = (float) exponent;
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

shepard_status
shepard_cpu_interpolate (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                         const shepard_query_set *queries, const shepard_outputs *outputs,
                         shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
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

  double extent_local = fmax (points->x_max - points->x_min, points->y_max - points->y_min) * points->scale;
  if (!(extent_local > 0.0))
    extent_local = points->scale;
  double coincident = SHEPARD_COINCIDENT_TOLERANCE * extent_local;
  interpolation_job job = {
    .backend = backend,
    .params = params,
    .queries = queries,
    .outputs = outputs,
    .r_exp_local = r_exp * points->scale,
    .coincident_d2_local = coincident * coincident,
    .k_search = k_search,
    .scratch = scratch,
  };
  const char *message = params->method == SHEPARD_METHOD_AIDW ? "Interpolating (AIDW)" : "Interpolating (IDW)";
  shepard_status status = shepard_parallel_for (threads, queries->count, chunk, interpolate_chunk, &job, progress,
                                                progress_data, message, error);
  free_scratch (scratch, threads);
  return status;
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
