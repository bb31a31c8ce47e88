/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Shepard interpolation engine: inverse distance weighting (IDW) and adaptive IDW (AIDW, Mei et al. 2016) of
 * scattered points onto a raster grid or a list of query points.
 *
 * The one public header of compute/. Plain C11; knows nothing of GLib, GDAL or GL.
 *
 * Life cycle (as GDALGridContext): create an engine for a backend, give it the data points once, then interpolate as
 * often as the parameters change; the engine keeps its search structures between calls.
 *
 * Outputs go into caller-owned buffers. Errors are values: every function that can fail returns a shepard_status and
 * fills the caller's shepard_error with a message meant for the person using the program.
 */
#ifndef SHEPARD_ENGINE_H
#define SHEPARD_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  SHEPARD_OK = 0,
  SHEPARD_ERROR_INVALID_ARGUMENT, /* a parameter is out of range (k < 1, alpha <= 0, Rmax <= Rmin, ...) */
  SHEPARD_ERROR_NO_POINTS,        /* no usable data points */
  SHEPARD_ERROR_DEGENERATE_AREA,  /* AIDW study area is zero: points on a line or on one spot */
  SHEPARD_ERROR_SIZE_OVERFLOW,    /* a size computation would overflow size_t */
  SHEPARD_ERROR_OUT_OF_MEMORY,
  SHEPARD_ERROR_CANCELLED,        /* the progress callback asked to stop */
  SHEPARD_ERROR_NO_DEVICE,        /* the requested backend is not available on this machine */
  SHEPARD_ERROR_DEVICE,           /* the device failed (driver error, out of device memory, ...) */
  SHEPARD_ERROR_INTERNAL,
} shepard_status;

enum { SHEPARD_ERROR_MESSAGE_SIZE = 512 };

typedef struct {
  shepard_status code;
  char message[SHEPARD_ERROR_MESSAGE_SIZE];
} shepard_error;

typedef enum {
  SHEPARD_METHOD_IDW,  /* w_i = d_i^-p */
  SHEPARD_METHOD_AIDW, /* w_i = d_i^-alpha(q), alpha from the local point density around q */
} shepard_method;

typedef enum {
  SHEPARD_AREA_BOUNDING_BOX, /* area of the data points' bounding rectangle (the default) */
  SHEPARD_AREA_CONVEX_HULL,  /* area of the data points' convex hull */
  SHEPARD_AREA_GIVEN,        /* shepard_params.area, in squared map units */
} shepard_area_mode;

typedef enum {
  SHEPARD_BACKEND_AUTO, /* CUDA when a device is present, otherwise the CPU (shepard_engine_describe says why) */
  SHEPARD_BACKEND_CPU,
  SHEPARD_BACKEND_CUDA,
} shepard_backend;

typedef enum {
  SHEPARD_PRECISION_FLOAT32, /* fast path: float32 arithmetic, blockwise float64 accumulation; within 1e-5 of float64 */
  SHEPARD_PRECISION_FLOAT64, /* the reference path */
} shepard_precision;

enum {
  SHEPARD_NEIGHBORS_ALL = 0, /* weight over all data points: the papers' method */
  SHEPARD_AIDW_LEVELS = 5,
  SHEPARD_MAX_NEIGHBORS = 1024, /* upper bound of shepard_params.k and .neighbors (shepard_engine_nearest takes any k) */
};

typedef struct {
  shepard_method method;
  double power;                         /* IDW power p (> 0); default 2 */
  int k;                                /* AIDW: neighbours for r_obs (>= 1; k > n uses n); default 15 */
  double alpha[SHEPARD_AIDW_LEVELS];    /* AIDW: alpha1..alpha5 (> 0); default 1.5, 2, 2.5, 3, 3.5 */
  double r_min, r_max;                  /* AIDW: R thresholds of the membership mu (Rmax > Rmin >= 0); 0, 2 */
  shepard_area_mode area_mode;          /* AIDW: how A of r_exp = 1 / (2 sqrt(n / A)) is found */
  double area;                          /* AIDW: A when area_mode is SHEPARD_AREA_GIVEN (> 0) */
  int neighbors;                        /* SHEPARD_NEIGHBORS_ALL, or weight over the N nearest (N >= 1) */
} shepard_params;

/* Raster query grid. Cell centres: x = x_min + (col + 0.5) * dx, y = y_max - (row + 0.5) * dy; row 0 at the top. */
typedef struct {
  double x_min, y_max;
  double dx, dy; /* > 0 */
  size_t width, height;
} shepard_grid;

/* Caller-owned outputs, one value per query (row-major for a grid). alpha and r_obs may be NULL. With IDW the engine
 * writes the power p into every alpha and does not touch r_obs. */
typedef struct {
  double *values;
  double *alpha; /* AIDW: the adaptive power used at each query */
  double *r_obs; /* AIDW: mean distance to the k nearest data points, in map units */
} shepard_outputs;

/* GDAL's progress contract: fraction in [0, 1]; return false to cancel. Only called on the thread that called the
 * engine function, at least every ~100 ms while work runs. */
typedef bool (*shepard_progress_fn) (double fraction, const char *message, void *user_data);

/* Distances up to this fraction of the data extent (the larger side of the points' bounding box; 1 cm over 100 km)
 * count as coincident: such a query takes the mean value of the coincident data points. It lies well above float32
 * rounding in the engine's local frame, so no other distance computes as zero. */
#define SHEPARD_COINCIDENT_TOLERANCE 1e-7

typedef struct shepard_engine shepard_engine;

void shepard_params_init_idw (shepard_params *params);
void shepard_params_init_aidw (shepard_params *params);

/* Checks a parameter set on its own; an engine with points checks it again against them (A = 0, ...). */
shepard_status shepard_params_validate (const shepard_params *params, shepard_error *error);

/* AIDW building blocks, exposed so that they can be tested and plotted (the membership curve in the GUI). */
double shepard_aidw_expected_distance (size_t n_points, double area);
double shepard_aidw_membership (double r, double r_min, double r_max);
double shepard_aidw_alpha (double mu, const double alpha[SHEPARD_AIDW_LEVELS]);

/* threads: 0 = every core. Never fails for SHEPARD_BACKEND_AUTO (falls back to the CPU). */
shepard_engine *shepard_engine_new (shepard_backend backend, shepard_precision precision, int threads,
                                    shepard_error *error);
void shepard_engine_free (shepard_engine *engine);

/* What runs the work, for the status bar and the CLI: "CPU, 16 threads, float32 AVX-512" or "CUDA: NVIDIA H200",
 * with the reason when "auto" fell back to the CPU. */
const char *shepard_engine_describe (const shepard_engine *engine);
/* Why "auto" runs on the CPU ("no CUDA: …", "this build has no CUDA backend"); NULL when it runs where asked. */
const char *shepard_engine_fallback_reason (const shepard_engine *engine);
shepard_backend shepard_engine_backend (const shepard_engine *engine);

/* Copies the points in (the caller's arrays may be freed afterwards). Every coordinate and value must be finite. */
shepard_status shepard_engine_set_points (shepard_engine *engine, const double *x, const double *y, const double *z,
                                          size_t n_points, shepard_error *error);

/* Bounding box of the data points as given (not shifted). */
void shepard_engine_bounds (const shepard_engine *engine, double *x_min, double *y_min, double *x_max, double *y_max);

shepard_status shepard_engine_interpolate_grid (shepard_engine *engine, const shepard_params *params,
                                                const shepard_grid *grid, const shepard_outputs *outputs,
                                                shepard_progress_fn progress, void *progress_data,
                                                shepard_error *error);

shepard_status shepard_engine_interpolate_points (shepard_engine *engine, const shepard_params *params,
                                                  const double *query_x, const double *query_y, size_t n_queries,
                                                  const shepard_outputs *outputs, shepard_progress_fn progress,
                                                  void *progress_data, shepard_error *error);

/* Exact k nearest neighbours (any k >= 1) of each query through the engine's even grid: squared distances ascending,
 * k per query (k > n uses n; the rest of each row is +inf, index SIZE_MAX) and, when indices is not NULL, the data
 * point index of each. Ties are ordered by index. */
shepard_status shepard_engine_nearest (shepard_engine *engine, const double *query_x, const double *query_y,
                                       size_t n_queries, int k, double *squared_distances, size_t *indices,
                                       shepard_error *error);

/* Results that stay on the GPU (CUDA backend): the float32 value and alpha of every raster cell in device memory, for
 * a consumer on the same device such as render/'s CUDA-OpenGL interop, so that a preview never travels through the
 * host. A device grid is the caller's; it may outlive its engine and be used from any thread, one call at a time. */
typedef struct shepard_device_grid shepard_device_grid;

/* The CUDA device (runtime ordinal) the engine runs on, or -1 on the CPU backend. */
int shepard_engine_cuda_device (const shepard_engine *engine);

/* An empty grid in the memory of the engine's device; SHEPARD_ERROR_NO_DEVICE on the CPU backend. */
shepard_status shepard_device_grid_new (shepard_engine *engine, shepard_device_grid **grid, shepard_error *error);
void shepard_device_grid_free (shepard_device_grid *grid);

/* As shepard_engine_interpolate_grid, into target (its memory grows when the grid is larger than it holds). Its
 * values are complete on the device when the call returns. A neighbourhood the GPU does not run (k or N above 64)
 * is computed on the CPU and copied in. */
shepard_status shepard_engine_interpolate_grid_to_device (shepard_engine *engine, const shepard_params *params,
                                                          const shepard_grid *grid, shepard_device_grid *target,
                                                          shepard_progress_fn progress, void *progress_data,
                                                          shepard_error *error);

int shepard_device_grid_device (const shepard_device_grid *grid);
/* The size of the last grid interpolated into it (0 x 0 before). */
size_t shepard_device_grid_width (const shepard_device_grid *grid);
size_t shepard_device_grid_height (const shepard_device_grid *grid);
/* Device pointers to width x height float32 values (and alphas), row-major and packed, row 0 at the top; NULL
 * before the first interpolation. Valid until the next interpolation into the grid or its free. */
const float *shepard_device_grid_values (const shepard_device_grid *grid);
const float *shepard_device_grid_alpha (const shepard_device_grid *grid);

/* Copies count cells from the row-major index first to the host: values and, when not NULL, alpha. */
shepard_status shepard_device_grid_read (const shepard_device_grid *grid, size_t first, size_t count, float *values,
                                         float *alpha, shepard_error *error);

const char *shepard_status_name (shepard_status status);

#ifdef __cplusplus
}
#endif

#endif /* SHEPARD_ENGINE_H */
