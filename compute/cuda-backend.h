/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CUDA backend of the engine, behind a C API (the .cu files implement it; nothing C++ crosses this header).
 *
 * Two stages, as Mei, Xu & Xu (2016): (1) exact kNN over an even grid built on the device (cell starts by a counting
 * pass and a scan, the points sorted by cell with a stable radix sort), which also yields AIDW's alpha, the nearest
 * distance and coincident points; fused with it, the weighting over the N nearest; (2) the weighting over all points,
 * naive or shared-memory tiled, with the points in SoA or AoaS (float4) layout. A search radius, quadrant rules or
 * min_points_per_quadrant take a selection kernel after (1) instead (shepard-engine.h's "The weighting
 * neighbourhood"). Values are the point set's scaled local values, one plane per field: the fields share (1), and (2)
 * runs once per field. The points stay on the device between calls; work runs on the backend's stream in bands of
 * queries so that progress and cancel are answered within about 100 ms. The far field (far-field.h) can stand in for
 * (2): the CPU's tree, copied to the device, summed by tiles of queries in float64 (cuda/cuda-far-field.cu). */
#ifndef SHEPARD_CUDA_BACKEND_H
#define SHEPARD_CUDA_BACKEND_H

#ifdef __cplusplus
extern "C" {
#endif

#include "cpu-backend.h"

typedef struct shepard_cuda_backend shepard_cuda_backend;

/* k and N above this run on the CPU backend (the engine routes them there), and so do max_points_per_quadrant caps
 * above SHEPARD_CUDA_MAX_QUADRANT_POINTS where they bind (below max_points, or without it). A radius without
 * max_points runs on the GPU whatever the number of points inside. */
enum { SHEPARD_CUDA_MAX_NEIGHBORS = 64, SHEPARD_CUDA_MAX_QUADRANT_POINTS = SHEPARD_CUDA_MAX_NEIGHBORS / 4 };

typedef enum {
  SHEPARD_CUDA_WEIGHTING_TILED, /* shared-memory tiles, several queries per thread: the default */
  SHEPARD_CUDA_WEIGHTING_NAIVE, /* one query per thread, points straight from global memory (Mei 2014) */
} shepard_cuda_weighting;

typedef enum {
  SHEPARD_CUDA_LAYOUT_AOAS, /* float4 {x, y, z, 0}: the default */
  SHEPARD_CUDA_LAYOUT_SOA,  /* separate x, y, z arrays */
} shepard_cuda_layout;

typedef enum {
  SHEPARD_CUDA_KNN_GRID,  /* even grid, expanding rings: the default */
  SHEPARD_CUDA_KNN_BRUTE, /* every point for every query, in-thread (Mei 2015): for the benchmark only */
} shepard_cuda_knn;

typedef struct {
  shepard_cuda_weighting weighting;
  shepard_cuda_layout layout;
  shepard_cuda_knn knn;
} shepard_cuda_variant;

/* Device time of the last interpolate or cross-validate call, in milliseconds, by stage (CUDA events on the
 * backend's stream); the runs since (shepard_cuda_interpolate_run, _shared) add theirs, from zero after
 * shepard_cuda_backend_clear_timings. The far field's slices overlap their stage 1, sums and copies
 * (shepard_cuda_plan_slices): their whole span counts as weighting_ms, and knn_ms and download_ms stay 0. */
typedef struct {
  double upload_ms;    /* query coordinates (point lists) or the folds (k-fold cross-validation) to the device */
  double knn_ms;       /* stage 1, including the fused N-nearest weighting */
  double weighting_ms; /* stage 2, all points */
  double download_ms;  /* results back to the host */
} shepard_cuda_timings;

/* CUDA devices visible to this process; 0 where there is none or the driver fails. */
int shepard_cuda_device_count (void);
/* Creates the device's CUDA context (what the first call on a device waits for); failures are left for the backend to
 * report. */
void shepard_cuda_device_start (int device);
/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" for device ordinal `device`, or false where there is no such device. */
bool shepard_cuda_device_describe (int device, char *name, size_t size);

/* A backend on device ordinal `device`: every later call on it runs there, from any thread (each call selects it).
 * Fails with SHEPARD_ERROR_NO_DEVICE (and the reason) when that device is not present or usable. */
shepard_status shepard_cuda_backend_new (int device, shepard_cuda_backend **backend, shepard_error *error);
void shepard_cuda_backend_free (shepard_cuda_backend *backend);

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
const char *shepard_cuda_backend_device_name (const shepard_cuda_backend *backend);

/* Uploads the points (their local frame) and builds the even grid on the device. */
shepard_status shepard_cuda_backend_set_points (shepard_cuda_backend *backend, const shepard_point_set *points,
                                                shepard_error *error);

/* Copies the far field's tree (built over the points last set) to the device, unless it is there already; the
 * interpolations whose params->summation is SHEPARD_SUMMATION_FAR_FIELD (resolved by the engine) sum through it. The
 * next set_points drops it. */
shepard_status shepard_cuda_backend_set_far_field (shepard_cuda_backend *backend, const shepard_far_field *far_field,
                                                   shepard_error *error);

void shepard_cuda_backend_set_variant (shepard_cuda_backend *backend, const shepard_cuda_variant *variant);

/* As shepard_cpu_interpolate: params valid, r_exp in given units; every field of points, mapped back to given values
 * (NaN where the neighbourhood holds no data). The queries run slice after slice (shepard_cuda_plan_slices for one
 * GPU). */
shepard_status shepard_cuda_interpolate (shepard_cuda_backend *backend, const shepard_point_set *points,
                                         const shepard_params *params, double r_exp,
                                         const shepard_query_set *queries, const shepard_outputs *outputs,
                                         shepard_progress_fn progress, void *progress_data, shepard_error *error);

/* How an interpolation's queries go to the GPUs: `count` slices of `size` queries (the last may be short; whole raster
 * rows, a multiple of the far field's tiles and of the brute force's patches). The brute force and the local methods
 * go in `runs` runs, run r taking slices r, r + runs, r + 2 runs, ... (each slice a run of its own, so that an uneven
 * machine shares them), each GPU taking a run at a time (shepard_cuda_interpolate_run). The far field's slices are
 * `shared`: each GPU claims the next slice as it can start one (shepard_cuda_interpolate_shared, `runs` GPUs at
 * most), so that a GPU that goes faster takes more, and runs several at once on several streams, so that no slice's
 * last wave leaves it idle and each slice's results reach the caller while the next ones run. No query's value
 * depends on the slices, so any number of GPUs gives what one gives, bit for bit. */
typedef struct {
  size_t size, count, runs;
  bool shared;
} shepard_cuda_slices;
shepard_cuda_slices shepard_cuda_plan_slices (const shepard_point_set *points, const shepard_params *params,
                                              const shepard_query_set *queries, size_t gpus);
void shepard_cuda_backend_clear_timings (shepard_cuda_backend *backend);
/* Run `run` of slices that are not shared (shepard_cuda_plan_slices for the GPUs sharing them, computed once by the
 * caller) of the queries into outputs (indexed by query, as shepard_cuda_interpolate fills them), with no progress: a
 * run of several GPUs' is at most about 500 ms of the device's work. Backends on different devices may run runs of
 * one interpolation at once, each from its own thread. */
shepard_status shepard_cuda_interpolate_run (shepard_cuda_backend *backend, const shepard_point_set *points,
                                             const shepard_params *params, double r_exp,
                                             const shepard_query_set *queries, const shepard_cuda_slices *slices,
                                             size_t run, const shepard_outputs *outputs, shepard_error *error);

/* Where the GPUs sharing an interpolation take its shared slices from, each from its own thread: claim gives the next
 * slice to start (false where none is left, or the caller has cancelled or another GPU failed); finish says that a
 * slice's queries have reached the outputs (progress). */
typedef struct {
  bool (*claim) (void *data, size_t *slice);
  void (*finish) (void *data, size_t queries);
  void *data;
} shepard_cuda_slice_queue;
/* Shared slices (shepard_cuda_plan_slices) claimed from queue until it has none, into outputs as
 * shepard_cuda_interpolate_run; returns once this GPU's claimed slices are all in the outputs. */
shepard_status shepard_cuda_interpolate_shared (shepard_cuda_backend *backend, const shepard_point_set *points,
                                                const shepard_params *params, double r_exp,
                                                const shepard_query_set *queries, const shepard_cuda_slices *slices,
                                                const shepard_cuda_slice_queue *queue,
                                                const shepard_outputs *outputs, shepard_error *error);

/* As shepard_cpu_cross_validate: every data point predicted from the points outside its fold (field 0). The
 * predictions come back as float32, as the GPU computes them, in field 0's scaled LOCAL frame (given = z_origin[0] +
 * p / z_scale[0]; NaN where the neighbourhood holds no data) in *prediction: n of them in the order the points were
 * given, in the backend's pinned memory, valid until its next call (the engine turns them into given float64 values
 * in its one pass over the summary). alpha (host, n; may be NULL) as the CPU path. points are the ones last set. */
shepard_status shepard_cuda_cross_validate (shepard_cuda_backend *backend, const shepard_point_set *points,
                                            const shepard_params *params, const shepard_holdout *holdout,
                                            const float **prediction, double *alpha, shepard_progress_fn progress,
                                            void *progress_data, shepard_error *error);

/* The same in parts, for several GPUs sharing one cross-validation. The queries are the points in the order of the
 * device's even grid (sorted by cell, and within a cell by index: the same order on every GPU), and a part predicts
 * the points in sorted slots [first_slot, end_slot): first_slot a multiple of shepard_cuda_cv_slice_slots, end_slot
 * the next one or n. A point's prediction and alpha depend neither on the part nor on the GPU, so that any split
 * gives what shepard_cuda_cross_validate gives, bit for bit.
 *
 * shepard_cuda_cv_prepare readies a backend before its first part: memory, the folds on the device, and in
 * *prediction (may be NULL) its pinned array of n floats, where shepard_cuda_cross_validate would put them. Each part
 * writes its points' entries of prediction and alpha (host arrays of n, by point index, as above: the parts of
 * several backends may write into one array at once, each from its own thread) and adds its device time to its
 * backend's timings. progress (may be NULL) is asked between the launches of the all-points stage, on the thread that
 * runs the part, with the part's fraction done; answering false cancels. */
size_t shepard_cuda_cv_slice_slots (const shepard_point_set *points);
shepard_status shepard_cuda_cv_prepare (shepard_cuda_backend *backend, const shepard_point_set *points,
                                        const shepard_params *params, const shepard_holdout *holdout,
                                        float **prediction, shepard_error *error);
shepard_status shepard_cuda_cross_validate_slots (shepard_cuda_backend *backend, const shepard_point_set *points,
                                                  const shepard_params *params, const shepard_holdout *holdout,
                                                  size_t first_slot, size_t end_slot, float *prediction,
                                                  double *alpha, shepard_progress_fn progress, void *progress_data,
                                                  shepard_error *error);

shepard_status shepard_cuda_nearest (shepard_cuda_backend *backend, const shepard_point_set *points,
                                     const double *query_x, const double *query_y, size_t n_queries, size_t k,
                                     double *squared_distances, size_t *indices, shepard_error *error);

/* The runtime ordinal of the backend's device. */
int shepard_cuda_backend_device (const shepard_cuda_backend *backend);

shepard_status shepard_cuda_device_grid_new (const shepard_cuda_backend *backend, shepard_device_grid **grid,
                                             shepard_error *error);
void shepard_cuda_device_grid_free (shepard_device_grid *grid);

/* Sizes the grid for width x height cells, growing its memory when needed (the contents are then undefined). */
shepard_status shepard_cuda_device_grid_reserve (shepard_device_grid *grid, size_t width, size_t height,
                                                 shepard_error *error);

/* Copies width x height host values, alphas and r_obs (computed on the CPU; r_obs NULL: NaN) in, as float32. */
shepard_status shepard_cuda_device_grid_upload (shepard_device_grid *grid, const double *values, const double *alpha,
                                                const double *r_obs, shepard_error *error);

shepard_status shepard_cuda_device_grid_read (const shepard_device_grid *grid, size_t first, size_t count,
                                              float *values, float *alpha, shepard_error *error);
shepard_status shepard_cuda_device_grid_read_plane (const shepard_device_grid *grid, shepard_plane plane, size_t first,
                                                    size_t count, float *values, shepard_error *error);

/* As shepard_cuda_interpolate over a raster, into target (already reserved for the grid's size): field 0, as float32
 * given values. */
shepard_status shepard_cuda_interpolate_to_device (shepard_cuda_backend *backend, const shepard_point_set *points,
                                                   const shepard_params *params, double r_exp,
                                                   const shepard_query_set *queries, shepard_device_grid *target,
                                                   shepard_progress_fn progress, void *progress_data,
                                                   shepard_error *error);

void shepard_cuda_backend_last_timings (const shepard_cuda_backend *backend, shepard_cuda_timings *timings);

#ifdef __cplusplus
}
#endif

#endif
