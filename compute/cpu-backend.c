/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cpu-backend.h"

#include "cpu-weighting.h"
#include "engine-private.h"
#include "far-field-tiles.h"
#include "nearest-cache.h"
#include "neighbourhood.h"
#include "parallel.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* Work per chunk handed to a thread, in query x point pairs: a few milliseconds, so cancel is answered quickly. */
#define FLOAT32_PAIRS_PER_CHUNK 4000000.0
#define FLOAT64_PAIRS_PER_CHUNK 200000.0
#define LOCAL_QUERIES_PER_CHUNK 256
#define MAX_QUERIES_PER_CHUNK 1024

/* Float32 weight sums outside this range may hold a clamped or overflowed weight: recompute those in float64. */
#define FLOAT32_SUM_MIN 0x1p-100
#define FLOAT32_SUM_MAX 0x1p+126

/* The queries of one far-field tile waiting for its sums (SHEPARD_FAR_FIELD_TILE_MAX at most). */
typedef struct {
  size_t count;
  size_t query[SHEPARD_FAR_FIELD_TILE_MAX];
  double x[SHEPARD_FAR_FIELD_TILE_MAX], y[SHEPARD_FAR_FIELD_TILE_MAX];
  double nearest_d2[SHEPARD_FAR_FIELD_TILE_MAX], exponent[SHEPARD_FAR_FIELD_TILE_MAX];
  double sum_w[SHEPARD_FAR_FIELD_TILE_MAX], sum_wz[SHEPARD_FAR_FIELD_TILE_MAX * SHEPARD_MAX_FIELDS];
} far_field_batch;

typedef struct {
  double *d2; /* the nearest of all points: AIDW's k, or the one behind relative weights */
  size_t *index;
  shepard_selection selection;
  double field_wz[SHEPARD_MAX_FIELDS];
  shepard_kernel_query *batch;
  size_t *batch_query;
  double *batch_nearest_d2s;
  double *batch_exponent;
  double *sum_w, *sum_wz; /* float32 batches: one plane of the chunk per field */
  far_field_batch *far; /* with the far field */
  /* With the far field over a grid: the k nearest of every slot of the current tile, found in one search, if
   * tile_searched (shepard_far_field_nearest) */
  double *tile_d2;
  bool tile_searched;
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
  shepard_neighbourhood hood;
  size_t n_fields; /* the value planes written: every field, or field 0 for cross-validation */
  size_t k_search; /* neighbours each query needs from the nearest search */
  bool reuse_nearest; /* NEAREST without an ellipse: the selection is the head of that search */
  /* With the far field over a grid, work items run tile by tile: item t * tile_cells + s is slot s of tile t, a
   * block of FAR_FIELD_TILE_SIDE x tile_rows cells (tile_cells of them); slots past the grid's edge are skipped. */
  size_t tiles_across; /* 0: items are the queries */
  size_t tile_rows, tile_cells;
  bool far_field_sums; /* every point weighs, with no smoothing, and the backend has the far field */
  /* With the far field over a grid kept in the backend's nearest cache: the search's results of every cell, read from
   * nearest_known (no search) or written to nearest_kept */
  const shepard_nearest_entry *nearest_known;
  shepard_nearest_entry *nearest_kept;
  /* A tile's k nearest come from one search of the tree (search_tile) rather than one of the even grid per cell */
  bool tile_search;
  size_t chunk;
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
      x = shepard_grid_cell_x (grid, col);
      y = shepard_grid_cell_y (grid, row);
    }
  else
    {
      x = queries->x[i];
      y = queries->y[i];
    }
  *qx = shepard_point_set_local (x, points->origin_x, points->scale);
  *qy = shepard_point_set_local (y, points->origin_y, points->scale);
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

/* Field f's value of query i, from its local value. */
static inline void
write_value (const interpolation_job *job, size_t field, size_t i, double local)
{
  job->outputs->values[field * job->queries->count + i] = shepard_point_set_value (job->backend->points, field,
                                                                                   local);
}

/* How many points query i's prediction may weigh: all, or those outside its fold. */
static size_t
weighable_count (const interpolation_job *job, uint32_t label)
{
  size_t n = job->backend->points->n;
  if (!job->holdout)
    return n;
  const shepard_holdout *holdout = job->holdout->holdout;
  if (!holdout->fold_of)
    return n - 1;
  return n - (n / holdout->folds + (label < holdout->large_folds ? 1 : 0));
}

static void
all_points_for_query (const interpolation_job *job, size_t i, uint32_t label, double nearest_d2s, double exponent,
                      double *sum_w, double *sum_wz)
{
  double qx, qy;
  query_position (job, i, &qx, &qy);
  shepard_all_points_sums (job->backend->points, job->holdout ? job->holdout->labels : NULL, label, qx, qy,
                           job->hood.smoothing2, nearest_d2s, exponent, job->n_fields, sum_w, sum_wz);
}

static void
finish_float32_batch (const interpolation_job *job, worker_scratch *scratch, size_t batch_size)
{
  const shepard_cpu_backend *backend = job->backend;
  const shepard_point_set *points = backend->points;
  bool inverse_square = job->params->method == SHEPARD_METHOD_IDW && job->params->power == 2.0;
  /* One kernel call per field: the weights are recomputed, which costs less than keeping them. */
  for (size_t f = 0; f < job->n_fields; f++)
    {
      double *sum_w = scratch->sum_w + f * job->chunk, *sum_wz = scratch->sum_wz + f * job->chunk;
      for (size_t b = 0; b < batch_size; b++)
        sum_w[b] = sum_wz[b] = 0.0;
      shepard_kernel_points kernel_points = {
        points->x_hi, points->x_lo, points->y_hi, points->y_lo, points->z32 + f * points->n_padded,
        job->holdout ? job->holdout->labels : NULL, points->n,
      };
      backend->kernels->weighted_sums (&kernel_points, scratch->batch, batch_size,
                                       inverse_square ? SHEPARD_WEIGHT_INVERSE_SQUARE : SHEPARD_WEIGHT_POWER, sum_w,
                                       sum_wz);
    }
  for (size_t b = 0; b < batch_size; b++)
    {
      size_t i = scratch->batch_query[b];
      bool in_range = true;
      for (size_t f = 0; f < job->n_fields; f++)
        {
          double sum_w = scratch->sum_w[f * job->chunk + b];
          in_range = in_range && sum_w >= FLOAT32_SUM_MIN && sum_w <= FLOAT32_SUM_MAX
                     && isfinite (scratch->sum_wz[f * job->chunk + b]);
        }
      if (in_range)
        for (size_t f = 0; f < job->n_fields; f++)
          write_value (job, f, i, scratch->sum_wz[f * job->chunk + b] / scratch->sum_w[f * job->chunk + b]);
      else
        {
          double sum_w;
          all_points_for_query (job, i, scratch->batch[b].label, scratch->batch_nearest_d2s[b],
                                scratch->batch_exponent[b], &sum_w, scratch->field_wz);
          for (size_t f = 0; f < job->n_fields; f++)
            write_value (job, f, i, scratch->field_wz[f] / sum_w);
        }
    }
}

/* The mean of the data points within the coincident tolerance of the query, per field. */
static void
write_coincident_mean (const interpolation_job *job, size_t i, uint32_t label, double qx, double qy)
{
  const shepard_point_set *points = job->backend->points;
  const holdout_job *holdout = job->holdout;
  for (size_t f = 0; f < job->n_fields; f++)
    {
      const double *z = points->z + f * points->n_padded;
      size_t count;
      double sum = holdout ? shepard_even_grid_sum_within_excluding (job->backend->grid, holdout->sorted_labels,
                                                                     label, z, qx, qy, job->coincident_d2_local,
                                                                     &count)
                           : shepard_even_grid_sum_within (job->backend->grid, z, qx, qy, job->coincident_d2_local,
                                                           &count);
      write_value (job, f, i, sum / (double) count);
    }
}

/* The query of work item `item` (see tiles_across), or false for a slot past the grid's edge. */
static bool
query_of_item (const interpolation_job *job, size_t item, size_t *query)
{
  if (job->tiles_across == 0)
    {
      *query = item;
      return true;
    }
  const shepard_grid *grid = job->queries->grid;
  size_t tile = item / job->tile_cells, slot = item % job->tile_cells;
  size_t row = tile / job->tiles_across * job->tile_rows + slot / FAR_FIELD_TILE_SIDE;
  size_t col = tile % job->tiles_across * FAR_FIELD_TILE_SIDE + slot % FAR_FIELD_TILE_SIDE;
  if (row >= grid->height || col >= grid->width)
    return false;
  *query = row * grid->width + col;
  return true;
}

/* The far field's sums for the queries waiting in batch, and their values. */
static void
finish_far_field_batch (const interpolation_job *job, far_field_batch *batch)
{
  if (batch->count == 0)
    return;
  shepard_far_field_tile tile = { batch->count, batch->x, batch->y, batch->nearest_d2, batch->exponent };
  shepard_far_field_sums (job->backend->far_field, &tile, job->params->tolerance, job->n_fields, batch->sum_w,
                          batch->sum_wz, NULL);
  for (size_t b = 0; b < batch->count; b++)
    for (size_t f = 0; f < job->n_fields; f++)
      write_value (job, f, batch->query[b], batch->sum_wz[b * job->n_fields + f] / batch->sum_w[b]);
  batch->count = 0;
}

/* The k nearest of every query of the tile whose slot first_item is, in one search of the far field's tree: slots past
 * the grid's edge search the tile's first cell again. */
static bool
search_tile (const interpolation_job *job, worker_scratch *scratch, size_t first_item)
{
  size_t tile_start = first_item - first_item % job->tile_cells, first_cell = 0;
  query_of_item (job, tile_start, &first_cell); /* a tile's first slot is always inside the grid */
  double x[SHEPARD_FAR_FIELD_TILE_MAX], y[SHEPARD_FAR_FIELD_TILE_MAX];
  for (size_t slot = 0; slot < job->tile_cells; slot++)
    {
      size_t i;
      if (!query_of_item (job, tile_start + slot, &i))
        i = first_cell;
      query_position (job, i, &x[slot], &y[slot]);
    }
  return shepard_far_field_nearest (job->backend->far_field, job->tile_cells, x, y, job->k_search,
                                    scratch->tile_d2);
}

static bool
interpolate_chunk (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  const interpolation_job *job = context;
  const shepard_cpu_backend *backend = job->backend;
  const shepard_point_set *points = backend->points;
  const shepard_params *params = job->params;
  const shepard_neighbourhood *hood = &job->hood;
  const holdout_job *holdout = job->holdout;
  worker_scratch *scratch = &job->scratch[worker];
  shepard_selection *selection = &scratch->selection;
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t batch_size = 0;

  for (size_t item = begin; item < end; item++)
    {
      size_t i;
      bool tile_start = job->tiles_across > 0 && item % job->tile_cells == 0;
      if (tile_start)
        finish_far_field_batch (job, scratch->far); /* a batch is one tile */
      if (scratch->tile_d2 && (item == begin || tile_start))
        scratch->tile_searched = search_tile (job, scratch, item);
      if (!query_of_item (job, item, &i))
        continue;
      double qx, qy, r_exp_local = job->r_exp_local, *d2 = scratch->d2;
      uint32_t label = 0;
      size_t found = 0;
      query_position (job, i, &qx, &qy);
      if (holdout)
        {
          label = holdout->labels[i];
          r_exp_local = label < holdout->holdout->large_folds ? holdout->r_exp_large_local
                                                              : holdout->r_exp_small_local;
          if (job->k_search > 0)
            found = shepard_even_grid_nearest_excluding (backend->grid, holdout->sorted_labels, label, qx, qy,
                                                         job->k_search, scratch->d2, scratch->index);
        }
      else if (job->nearest_known)
        found = job->k_search; /* what it found is read from the cache below */
      else if (scratch->tile_d2 && scratch->tile_searched)
        {
          d2 = scratch->tile_d2 + item % job->tile_cells * job->k_search;
          found = job->k_search;
        }
      else if (job->k_search > 0)
        found = shepard_even_grid_nearest (backend->grid, qx, qy, job->k_search, scratch->d2, scratch->index);

      double exponent = -0.5 * params->power, nearest_of_all_d2 = 0.0, r_obs = 0.0;
      if (job->nearest_known)
        {
          nearest_of_all_d2 = job->nearest_known->nearest_d2[i];
          r_obs = aidw ? job->nearest_known->r_obs[i] : 0.0;
        }
      else
        {
          size_t k_density = (size_t) params->k < found ? (size_t) params->k : found;
          nearest_of_all_d2 = found > 0 ? d2[0] : INFINITY;
          r_obs = aidw ? shepard_observed_distance (d2, k_density) : 0.0;
        }
      if (job->nearest_kept)
        {
          job->nearest_kept->nearest_d2[i] = nearest_of_all_d2;
          job->nearest_kept->r_obs[i] = r_obs;
        }
      if (aidw)
        {
          double mu, alpha = shepard_adaptive_alpha_of (r_obs, r_exp_local, params, &mu);
          exponent = -0.5 * alpha;
          if (job->outputs->alpha)
            job->outputs->alpha[i] = alpha;
          if (job->outputs->r_obs)
            job->outputs->r_obs[i] = r_obs / points->scale;
        }
      else if (job->outputs->alpha)
        job->outputs->alpha[i] = params->power;

      if (job->reuse_nearest)
        shepard_selection_take_nearest (hood, selection, scratch->d2, scratch->index,
                                        found < hood->max_points ? found : hood->max_points, points->x, points->y,
                                        qx, qy);
      else if (!shepard_neighbourhood_select (hood, backend->grid, points->x, points->y,
                                              holdout ? holdout->sorted_labels : NULL, label, qx, qy, selection))
        {
          shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the points in a search radius.");
          return false;
        }
      bool every_point = hood->mode == SHEPARD_SELECT_ALL || selection->every_point;
      if (!shepard_selection_has_data (hood, selection, weighable_count (job, label)))
        {
          for (size_t f = 0; f < job->n_fields; f++)
            write_value (job, f, i, NAN);
          continue;
        }
      double nearest_d2 = every_point ? nearest_of_all_d2 : selection->nearest_d2;
      if (hood->smoothing2 == 0.0 && nearest_d2 <= job->coincident_d2_local)
        {
          write_coincident_mean (job, i, label, qx, qy);
          continue;
        }
      if (job->far_field_sums)
        {
          /* Every point weighs, with no smoothing: the far field's tile takes the query. */
          far_field_batch *far = scratch->far;
          far->query[far->count] = i;
          far->x[far->count] = qx;
          far->y[far->count] = qy;
          far->nearest_d2[far->count] = nearest_d2;
          far->exponent[far->count] = exponent;
          if (++far->count == SHEPARD_FAR_FIELD_TILE_MAX)
            finish_far_field_batch (job, far);
          continue;
        }
      double nearest_d2s = nearest_d2 + hood->smoothing2, sum_w;
      if (!every_point || backend->precision == SHEPARD_PRECISION_FLOAT64)
        {
          if (every_point)
            shepard_all_points_sums (points, holdout ? holdout->labels : NULL, label, qx, qy, hood->smoothing2,
                                     nearest_d2s, exponent, job->n_fields, &sum_w, scratch->field_wz);
          else
            shepard_selected_sums (points, selection->d2, selection->index, selection->count, hood->smoothing2,
                                   nearest_d2s, exponent, job->n_fields, &sum_w, scratch->field_wz);
          for (size_t f = 0; f < job->n_fields; f++)
            write_value (job, f, i, scratch->field_wz[f] / sum_w);
          continue;
        }
      shepard_kernel_query *query = &scratch->batch[batch_size];
      query->x_hi = (float) qx;
      query->x_lo = (float) (qx - (double) query->x_hi);
      query->y_hi = (float) qy;
      query->y_lo = (float) (qy - (double) query->y_hi);
      query->exponent = (float) exponent;
      query->smoothing2 = (float) hood->smoothing2;
      query->label = label;
      scratch->batch_query[batch_size] = i;
      scratch->batch_nearest_d2s[batch_size] = nearest_d2s;
      scratch->batch_exponent[batch_size] = exponent;
      batch_size++;
    }
  if (batch_size > 0)
    finish_float32_batch (job, scratch, batch_size);
  if (job->far_field_sums)
    finish_far_field_batch (job, scratch->far);
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
      shepard_selection_clear (&scratch[t].selection);
      free (scratch[t].batch);
      free (scratch[t].batch_query);
      free (scratch[t].batch_nearest_d2s);
      free (scratch[t].batch_exponent);
      free (scratch[t].sum_w);
      free (scratch[t].sum_wz);
      free (scratch[t].far);
      free (scratch[t].tile_d2);
    }
  free (scratch);
}

static worker_scratch *
alloc_scratch (const interpolation_job *job, int threads)
{
  worker_scratch *scratch = calloc ((size_t) threads, sizeof *scratch);
  if (!scratch)
    return NULL;
  size_t k = job->k_search > 0 ? job->k_search : 1, chunk = job->chunk, sums = chunk * job->n_fields;
  for (int t = 0; t < threads; t++)
    {
      worker_scratch *s = &scratch[t];
      s->d2 = malloc (k * sizeof *s->d2);
      s->index = malloc (k * sizeof *s->index);
      s->batch = malloc (chunk * sizeof *s->batch);
      s->batch_query = malloc (chunk * sizeof *s->batch_query);
      s->batch_nearest_d2s = malloc (chunk * sizeof *s->batch_nearest_d2s);
      s->batch_exponent = malloc (chunk * sizeof *s->batch_exponent);
      s->sum_w = malloc (sums * sizeof *s->sum_w);
      s->sum_wz = malloc (sums * sizeof *s->sum_wz);
      if (job->far_field_sums)
        {
          s->far = malloc (sizeof *s->far);
          if (s->far)
            s->far->count = 0;
        }
      if (job->tile_search)
        s->tile_d2 = malloc (job->tile_cells * job->k_search * sizeof *s->tile_d2);
      if (!shepard_selection_init (&s->selection, &job->hood) || !s->d2 || !s->index || !s->batch || !s->batch_query
          || !s->batch_nearest_d2s || !s->batch_exponent || !s->sum_w || !s->sum_wz || (job->far_field_sums && !s->far)
          || (job->tile_search && !s->tile_d2))
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
  shepard_neighbourhood_init (&job->hood, params, points);
  const shepard_neighbourhood *hood = &job->hood;
  bool may_weigh_all = hood->mode == SHEPARD_SELECT_ALL || hood->mode == SHEPARD_SELECT_ELLIPSE;

  /* The nearest search serves AIDW's k, the nearest point that all-points weights are relative to, and (reused)
   * NEAREST selections without an ellipse. */
  size_t k_search = params->method == SHEPARD_METHOD_AIDW ? (size_t) params->k : 0;
  if (may_weigh_all && k_search < 1)
    k_search = 1;
  job->reuse_nearest = hood->mode == SHEPARD_SELECT_NEAREST && !hood->ellipse;
  if (job->reuse_nearest && hood->max_points > k_search)
    k_search = hood->max_points;
  if (k_search > points->n)
    k_search = points->n;

  size_t chunk, n_items = job->queries->count;
  job->far_field_sums = backend->far_field && hood->mode == SHEPARD_SELECT_ALL && hood->smoothing2 == 0.0
                        && !job->holdout;
  if (job->far_field_sums)
    {
      chunk = SHEPARD_FAR_FIELD_TILE_MAX;
      const shepard_grid *grid = job->queries->grid;
      if (grid)
        {
          /* Tile by tile: neighbouring cells share one walk of the tree; a chunk holds whole tiles. */
          job->tile_rows = shepard_far_field_tile_rows (grid, points);
          job->tile_cells = FAR_FIELD_TILE_SIDE * job->tile_rows;
          job->tiles_across = (grid->width + FAR_FIELD_TILE_SIDE - 1) / FAR_FIELD_TILE_SIDE;
          size_t tiles_down = (grid->height + job->tile_rows - 1) / job->tile_rows;
          n_items = job->tiles_across * tiles_down * job->tile_cells;
        }
    }
  else if (hood->mode != SHEPARD_SELECT_ALL)
    chunk = LOCAL_QUERIES_PER_CHUNK;
  else if (backend->precision == SHEPARD_PRECISION_FLOAT32)
    chunk = chunk_for (FLOAT32_PAIRS_PER_CHUNK, points->n);
  else
    chunk = chunk_for (FLOAT64_PAIRS_PER_CHUNK, points->n);
  job->chunk = chunk;
  job->k_search = k_search;
  if (job->tiles_across > 0 && backend->nearest_cache && k_search > 0)
    {
      shepard_nearest_entry *entry = shepard_nearest_cache_lookup (
          backend->nearest_cache, job->queries->grid, k_search, params->method == SHEPARD_METHOD_AIDW);
      if (entry && entry->whole)
        job->nearest_known = entry;
      else
        job->nearest_kept = entry;
    }
  job->tile_search = job->tiles_across > 0 && k_search > 0 && !job->nearest_known
                     && shepard_far_field_tile_search_pays (job->queries->grid, job->tile_rows, points, k_search);
  job->coincident_d2_local = shepard_point_set_coincident_d2_local (points);

  int threads = backend->threads;
  worker_scratch *scratch = alloc_scratch (job, threads);
  if (!scratch)
    return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the interpolation buffers.");
  job->scratch = scratch;
  shepard_status status = shepard_parallel_for (threads, n_items, chunk, interpolate_chunk, job, progress,
                                                progress_data, message, error);
  free_scratch (scratch, threads);
  if (job->nearest_kept)
    shepard_nearest_cache_finish (job->nearest_kept, status == SHEPARD_OK);
  return status;
}

shepard_status
shepard_cpu_interpolate (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp,
                         const shepard_query_set *queries, size_t n_fields, const shepard_outputs *outputs,
                         shepard_progress_fn progress, void *progress_data, shepard_error *error)
{
  interpolation_job job = {
    .backend = backend,
    .params = params,
    .queries = queries,
    .outputs = outputs,
    .r_exp_local = r_exp * backend->points->scale,
    .n_fields = n_fields,
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
    .n_fields = 1,
  };
  const char *message = params->method == SHEPARD_METHOD_AIDW ? "Cross-validating (AIDW)"
                                                               : "Cross-validating (IDW)";
  shepard_status status = run_queries (&job, message, progress, progress_data, error);
  free (own_labels);
  free (sorted_labels);
  return status;
}
