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
#include <stdint.h>

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

/* AIDW's r_exp, the distance R = r_obs / r_exp compares the observed density with. */
typedef enum {
  /* 1 / (2 sqrt (n / A)): the expected distance to the nearest neighbour under complete spatial randomness (CSR), as
   * the papers have it; the default, to which Shepard is exact. Since r_obs averages the distances to the k nearest,
   * whose CSR expectation is about 3 r_exp at k = 15, R then lies above the default Rmax = 2 over most of a map. */
  SHEPARD_REXP_NEAREST,
  /* (1/k) sum_{j=1..k} Gamma (j + 1/2) / (Gamma (j) sqrt (pi n / A)): the CSR expectation of r_obs itself, so that
   * R is about 1 on evenly spread points and the five alpha levels all come into use. Equals NEAREST at k = 1. */
  SHEPARD_REXP_KNN,
} shepard_rexp_mode;

typedef enum {
  SHEPARD_BACKEND_AUTO, /* CUDA when a device is present, otherwise the CPU (shepard_engine_describe says why) */
  SHEPARD_BACKEND_CPU,
  SHEPARD_BACKEND_CUDA,
} shepard_backend;

typedef enum {
  SHEPARD_PRECISION_FLOAT32, /* fast path: float32 arithmetic, blockwise float64 accumulation; within 1e-5 of float64 */
  SHEPARD_PRECISION_FLOAT64, /* the reference path */
} shepard_precision;

/* How the sums over every data point are made (all-points weighting without smoothing; see "Far-field summation"). */
typedef enum {
  SHEPARD_SUMMATION_AUTO,      /* the far field where it is expected to cost less than every pair (the default) */
  SHEPARD_SUMMATION_EXACT,     /* every pair: the brute force */
  SHEPARD_SUMMATION_FAR_FIELD, /* the far field wherever it applies */
} shepard_summation;

/* The far field's tolerance by default, and the range a caller may ask for (float64 rounding needs the rest). */
#define SHEPARD_FAR_FIELD_TOLERANCE 1e-6
#define SHEPARD_FAR_FIELD_TOLERANCE_MIN 1e-11
#define SHEPARD_FAR_FIELD_TOLERANCE_MAX 0.1
/* The highest power (IDW's p, AIDW's alpha levels) the far field's bound is proven for. */
#define SHEPARD_FAR_FIELD_MAX_POWER 64.0

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
  int neighbors;                        /* max_points: SHEPARD_NEIGHBORS_ALL, or weight the N nearest (N >= 1) */
  shepard_rexp_mode rexp;               /* AIDW: how r_exp is found; SHEPARD_REXP_NEAREST (0) by default */
  /* gdal_grid's neighbourhood options, with its names and meanings (see "The weighting neighbourhood" below). They
   * restrict only the weighting: AIDW's r_obs still averages the distances to the k nearest of all points. */
  double smoothing;                     /* S >= 0: w = (d^2 + S^2)^(-p/2); 0 by default */
  double radius1, radius2;              /* search ellipse semi-axes in map units, both > 0; both 0: no limit */
  double angle;                         /* degrees counter-clockwise from the x axis to radius1's axis; 0 */
  int min_points;                       /* fewer selected points: no data; 0 */
  int max_points_per_quadrant;          /* 0: no limit per quadrant */
  int min_points_per_quadrant;          /* a quadrant with fewer selected points: no data; 0 */
  shepard_summation summation;          /* all points, no smoothing: brute force or far field; AUTO */
  double tolerance;                     /* far field: see below; SHEPARD_FAR_FIELD_TOLERANCE */
} shepard_params;

/* Far-field summation. All-points weighting without smoothing sums over every data point for every query: n x m
 * pairs. The far field sums a tree of the points instead (compute/far-field.h): nodes far from a tile of queries from
 * their moments, which hold for every power, the nearest leaves point by point. Its guarantee: every query's value of
 * every field is within tolerance x (the field's largest value - its smallest) of the exact weighted mean, from a
 * proven bound per node, not from an estimate; with the coincident rule applied first, a query at a data point keeps
 * that point's value. It applies to interpolation with powers up to 64, on the CPU (float32 and float64 engines
 * alike: the far field computes in float64) and on CUDA, whose far field sums in float64 too over the same tree and
 * test; there, as in every CUDA result, the value is then stored as float32 (a relative 6e-8 of its magnitude more)
 * and AIDW's alpha is taken in float32 (a relative 6e-8 of alpha). Cross-validation and explain weigh every pair.
 * AUTO takes it where it is expected to cost less than the brute force of the engine's backend
 * (shepard_engine_summation says which it takes); the tree is built on the CPU at the first such interpolation (or
 * by shepard_engine_prepare_far_field) and kept, on the GPU too, while the points stay. The CPU keeps too, for up to
 * four recent grids of up to 1M cells (16 bytes a cell) from a grid's second interpolation on, what the nearest
 * search found for each cell (the nearest distance and AIDW's r_obs): a change of alpha, the power or the tolerance
 * over the same grid skips the search. */

/* The weighting neighbourhood of a query q (every backend, every path; gdal_grid invdistnn's rules with exact nearest
 * points rather than the first found):
 * 1. Candidates: every data point, or with radius1 > 0 those inside the search ellipse: with dx = x_i - x_q,
 *    dy = y_i - y_q, u = dx cos(angle) + dy sin(angle), v = dy cos(angle) - dx sin(angle), the points with
 *    u^2 / radius1^2 + v^2 / radius2^2 <= 1 (the boundary is inside, as in gdal_grid).
 * 2. A point's quadrant is that of (dx, dy) on the map's own axes, whatever the angle: dx >= 0 is east, dy >= 0 is
 *    north (gdal_grid's), so a point due north of q is in the north-east quadrant.
 * 3. The candidates are taken nearest first (Euclidean distance; ties by the order given to set_points). One is
 *    selected when its quadrant holds fewer than max_points_per_quadrant selected points (or there is no such limit),
 *    until `neighbors` (max_points) are selected.
 * 4. No data: when fewer than max (min_points, 1) points are selected, or any quadrant holds fewer than
 *    min_points_per_quadrant. The value is then NaN (the caller writes its nodata value there); alpha and r_obs are
 *    still written.
 * 5. Weights over the selected points: w_i = (d_i^2 + S^2)^(-p/2), p the IDW power or AIDW's alpha. With S = 0, a
 *    query within the coincident tolerance of data points takes their mean, as with all points. With S > 0 no
 *    weight is infinite and the rule does not apply (as in gdal_grid).
 * Values and coordinates are handled in a scaled local frame, so that any finite input (up to +-DBL_MAX) gives a
 * finite value or the documented NaN of no data, never an overflow. */

/* The grids an interpolation can fill, one value per cell; also the planes of a device grid. */
typedef enum {
  SHEPARD_PLANE_VALUES,
  SHEPARD_PLANE_ALPHA, /* the power used at each cell: AIDW's adaptive alpha, IDW's p */
  SHEPARD_PLANE_R_OBS, /* AIDW: mean distance to the k nearest data points, in map units (NaN for IDW) */
} shepard_plane;

/* Whether params weight every data point with no other condition: no radius, no max_points, no quadrant limits. */
bool shepard_params_weight_all_points (const shepard_params *params);

/* Raster query grid: a window of width x height cells, from row first_row and column first_column, of the raster
 * whose top-left corner is (x_min, y_max). Cell centres: x = x_min + (first_column + col + 0.5) * dx,
 * y = y_max - (first_row + row + 0.5) * dy; row 0 at the top. A raster cut into windows (bands of an export, tiles
 * of shepard-grid-mpi) so gives every cell the coordinates it has in the whole raster, to the bit; and where each
 * window starts at a multiple of SHEPARD_GRID_WINDOW_ALIGN rows and columns, every cell its value, to the bit, on the
 * CPU backend (the far field's tiles of cells then fall alike). */
typedef struct {
  double x_min, y_max;
  double dx, dy; /* > 0 */
  size_t width, height;
  size_t first_row, first_column; /* 0 for a whole raster */
} shepard_grid;
enum { SHEPARD_GRID_WINDOW_ALIGN = 8 };

/* The centre of column col and row row of the window, as the engine places it in the raster. */
static inline double
shepard_grid_cell_x (const shepard_grid *grid, size_t col)
{
  return grid->x_min + ((double) (grid->first_column + col) + 0.5) * grid->dx;
}

static inline double
shepard_grid_cell_y (const shepard_grid *grid, size_t row)
{
  return grid->y_max - ((double) (grid->first_row + row) + 0.5) * grid->dy;
}

/* Caller-owned outputs, one value per query (row-major for a grid). alpha and r_obs may be NULL. With IDW the engine
 * writes the power p into every alpha and does not touch r_obs. With several value fields (set_points_fields), values
 * holds one plane per field, field after field: field f's value of query i is values[f * n_queries + i]. */
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

/* Whether two parameter sets ask for the same interpolation, field by field (a struct's padding may differ). */
bool shepard_params_equal (const shepard_params *a, const shepard_params *b);

/* Checks a parameter set on its own; an engine with points checks it again against them (A = 0, ...). */
shepard_status shepard_params_validate (const shepard_params *params, shepard_error *error);

/* AIDW building blocks, exposed so that they can be tested and plotted (the membership curve in the GUI). */
double shepard_aidw_expected_distance (size_t n_points, double area);
/* SHEPARD_REXP_KNN's r_exp for the mean distance to the k nearest of n points over an area A. */
double shepard_aidw_expected_knn_distance (size_t n_points, double area, int k);
double shepard_aidw_membership (double r, double r_min, double r_max);
double shepard_aidw_alpha (double mu, const double alpha[SHEPARD_AIDW_LEVELS]);

/* threads: 0 = every core. Never fails for SHEPARD_BACKEND_AUTO (falls back to the CPU). On CUDA it takes every
 * visible GPU, as shepard_engine_new_on_gpus with NULL. */
shepard_engine *shepard_engine_new (shepard_backend backend, shepard_precision precision, int threads,
                                    shepard_error *error);

/* Several GPUs. An engine on CUDA spreads the queries of an interpolation to host memory (a grid's rows, a list of
 * points) over its GPUs: each holds the points (and the far field's tree), and they take slices of the queries in turn
 * as each finishes its last, so that an uneven machine stays busy. The far field's lighter work goes in smaller
 * slices, which each GPU claims as it can start one and sums several at once, each on a stream of its own, while the
 * host takes the results of each slice done. A query's value depends neither on the slices nor on the GPU that
 * runs it (the brute force sums the points in fixed groups and adds them in a fixed order; the far field's tiles and
 * the neighbourhoods are the query's own), so the results are equal bit for bit on one GPU and on eight, as they are
 * for a window of the raster (shepard_grid's first_row, first_column at multiples of SHEPARD_GRID_WINDOW_ALIGN) and
 * the whole raster. A cross-validation is spread alike: the GPUs take slices of the points (an eighth of them each, in
 * the order of the search grid, the same on every GPU), and its predictions, alphas and summary are equal bit for bit
 * on one GPU and on eight. Results kept on the GPU (shepard_device_grid, the live preview) stay on the first GPU of
 * the set, the one that drives the display. */
enum { SHEPARD_MAX_GPUS = 64 };

/* The CUDA devices an engine runs on, by runtime ordinal (as CUDA_VISIBLE_DEVICES leaves them numbered): count 0
 * means every visible one. An ordinal given twice (the parser refuses it) puts two backends, with their own streams,
 * on that GPU: the tests prove the multi-GPU path so on a machine with one. */
typedef struct {
  size_t count;
  int ordinals[SHEPARD_MAX_GPUS];
} shepard_gpu_set;

/* "all" (every visible GPU) or distinct ordinals separated by commas ("0,1"); fails with
 * SHEPARD_ERROR_INVALID_ARGUMENT and a message that says what is accepted. */
shepard_status shepard_gpu_set_parse (const char *text, shepard_gpu_set *set, shepard_error *error);
/* "all" or "0,1", into text (size bytes, truncated at a comma where too small). */
void shepard_gpu_set_format (const shepard_gpu_set *set, char *text, size_t size);

/* How many CUDA devices this process sees: 0 where none is usable or the build has no CUDA. */
int shepard_gpu_count (void);
/* The name of the device with this ordinal ("NVIDIA H200 (sm_90, 132 SMs)"), or false where there is none. */
bool shepard_gpu_name (int ordinal, char *name, size_t size);

/* Starts the CUDA context of each chosen GPU (NULL or count 0: every visible GPU), each on a thread of its own, and
 * returns when all are started. A context takes a few hundred milliseconds to create; an engine made on those GPUs
 * afterwards, from any thread, starts without that wait. Meant for a thread of the caller's own while it reads the
 * points. Does nothing where there is no CUDA; failures are left for shepard_engine_new_on_gpus to report. */
void shepard_gpus_start (const shepard_gpu_set *gpus);

/* As shepard_engine_new, on the chosen GPUs (NULL or count 0: every visible GPU). A chosen ordinal that is not there
 * is an error for SHEPARD_BACKEND_CUDA (SHEPARD_ERROR_NO_DEVICE, naming the GPUs there are) and, for AUTO, falls back
 * to the CPU with that reason. The CPU backend ignores gpus. */
shepard_engine *shepard_engine_new_on_gpus (shepard_backend backend, shepard_precision precision, int threads,
                                            const shepard_gpu_set *gpus, shepard_error *error);
/* How many GPUs the engine spreads its work over: 0 on the CPU backend. */
size_t shepard_engine_gpu_count (const shepard_engine *engine);
/* The ordinal of the engine's i-th GPU (i < shepard_engine_gpu_count); the first is shepard_engine_cuda_device. */
int shepard_engine_gpu_ordinal (const shepard_engine *engine, size_t i);
void shepard_engine_free (shepard_engine *engine);

/* What runs the work, for the status bar and the CLI: "CPU, 16 threads, float32 AVX-512" or "CUDA: NVIDIA H200",
 * with the reason when "auto" fell back to the CPU. */
const char *shepard_engine_describe (const shepard_engine *engine);
/* How an interpolation of n_queries with params makes its all-points sums: SHEPARD_SUMMATION_FAR_FIELD or _EXACT.
 * AUTO is resolved by the expected costs on the backend that runs params (the tree's build counts until it is
 * built). EXACT too where the far field does not apply: local weighting,
 * smoothing, a power above SHEPARD_FAR_FIELD_MAX_POWER. A caller that splits one grid into bands resolves the choice
 * for the whole grid first, so that every band takes the same. */
shepard_summation shepard_engine_summation (const shepard_engine *engine, const shepard_params *params,
                                            size_t n_queries);
/* The same, as if the tree were built (its build not counted): what the interpolations will take once it is. It reads
 * nothing that an interpolation writes, so it may be asked while one runs on another thread. */
shepard_summation shepard_engine_summation_with_tree (const shepard_engine *engine, const shepard_params *params,
                                                      size_t n_queries);
/* Builds the far field's tree over the engine's points now, if not built yet; it is otherwise built at the first
 * interpolation that sums through it, as the first part of its progress (0.6 s at 1M points on 2 cores, 15 s at
 * 10M). A caller that loads a layer in the background calls this there, so that no preview waits for the tree. Kept
 * until the points change. progress (may be NULL) hears of the build and may cancel it. */
shepard_status shepard_engine_prepare_far_field (shepard_engine *engine, shepard_progress_fn progress,
                                                 void *progress_data, shepard_error *error);
/* Why "auto" runs on the CPU ("no CUDA: …", "this build has no CUDA backend"); NULL when it runs where asked. */
const char *shepard_engine_fallback_reason (const shepard_engine *engine);
shepard_backend shepard_engine_backend (const shepard_engine *engine);

/* Copies the points in (the caller's arrays may be freed afterwards). Every coordinate and value must be finite. */
shepard_status shepard_engine_set_points (shepard_engine *engine, const double *x, const double *y, const double *z,
                                          size_t n_points, shepard_error *error);

/* As set_points with several value fields over the same points: z[f] holds field f's n_points values. Every
 * interpolation then fills one plane per field (shepard_outputs), and the fields share each query's neighbour search
 * and alpha. Cross-validation, explain and device grids use field 0. 1 <= n_fields <= SHEPARD_MAX_FIELDS. */
enum { SHEPARD_MAX_FIELDS = 64 };
shepard_status shepard_engine_set_points_fields (shepard_engine *engine, const double *x, const double *y,
                                                 const double *const *z, size_t n_fields, size_t n_points,
                                                 shepard_error *error);
size_t shepard_engine_n_fields (const shepard_engine *engine);

/* Part of a larger layer. An engine may hold only some of a layer's points, such as a rank of shepard-grid-mpi
 * holding a tile and the halo around it for a local neighbourhood. The points' local frame (shepard_point_set's
 * origins and scales), the coincident tolerance and AIDW's r_exp then come from the whole layer as this says, so that
 * a query whose neighbourhood lies in the part gets, to the bit, the value an engine holding every point gives it. */
typedef struct {
  size_t n;                            /* points of the whole layer (those set_points would take) */
  double x_min, y_min, x_max, y_max;   /* their bounding box, given coordinates */
  double z_min[SHEPARD_MAX_FIELDS], z_max[SHEPARD_MAX_FIELDS]; /* each field's smallest and largest value */
  /* For AIDW's area=hull: points whose convex hull is the layer's (its vertices, or more: keep points on its edges),
   * given coordinates; the engine takes their hull in its frame as it would take the whole layer's. NULL (0): not
   * known, and area=hull then fails. */
  const double *hull_x, *hull_y;
  size_t hull_count;
} shepard_layer_extent;

/* As shepard_engine_set_points_fields, for points that are part of the layer `whole` describes: each point must lie
 * in its box and each value in its field's range. */
shepard_status shepard_engine_set_points_part (shepard_engine *engine, const double *x, const double *y,
                                               const double *const *z, size_t n_fields, size_t n_points,
                                               const shepard_layer_extent *whole, shepard_error *error);

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

/* AIDW's r_exp (in map units) for params over the engine's points: params->rexp over n points and the study area of
 * params->area_mode. Fails as an interpolation would (no points, no area). */
shepard_status shepard_engine_expected_distance (shepard_engine *engine, const shepard_params *params, double *r_exp,
                                                 shepard_error *error);

/* Cross-validation: every data point is predicted from the points outside its fold, and compared with its value.
 *
 * Leave-one-out (folds = SHEPARD_FOLDS_LEAVE_ONE_OUT) predicts each point from all the others. The held-out point is
 * left out of both the k nearest behind AIDW's r_obs and the weighting, by identity: data points at the same place
 * stay in, as other measurements (the prediction there is their mean, by the coincident rule). k-fold (folds = F,
 * 2 <= F <= n) deals the points into F random folds of sizes differing by at most one (shepard_cv_assign_folds:
 * the same seed gives the same folds on every machine) and predicts each fold from the other F - 1.
 *
 * AIDW's r_exp uses the number of points a prediction is made from (n - 1 for leave-one-out, n minus the size of
 * its fold for k-fold) and the study area of all n points (params->area_mode over every point, or params->area):
 * the region studied does not shrink when a point is held out. The coincident tolerance also stays that of all n.
 *
 * All of it is one pass over the engine's points and search structures: nothing is rebuilt per fold. Runs on the
 * engine's backend; a float32 or GPU prediction lies within 1e-5 of the float64 one relative to the prediction where
 * the values keep away from zero (the tests' layers); near zero the bound is 1e-5 of the largest |z| instead.
 * Fails with SHEPARD_ERROR_INVALID_ARGUMENT for fewer than 3 points, folds of 1 or above n, or an AIDW k that
 * leaves no point beyond the k nearest in the smallest training set (k >= n - 1 for leave-one-out). */
enum { SHEPARD_FOLDS_LEAVE_ONE_OUT = 0 };

/* Caller-owned, one entry per data point in the order given to set_points; any may be NULL. */
typedef struct {
  double *prediction; /* the value predicted at the point from the points outside its fold */
  double *residual;   /* prediction - observed */
  double *alpha;      /* the power the prediction used: AIDW's adaptive alpha, IDW's p */
  size_t *fold;       /* the fold the point was held out in (leave-one-out: its own index) */
} shepard_cv_outputs;

typedef struct {
  size_t n;    /* points predicted: every data point but those the neighbourhood leaves without data (NaN) */
  double me;   /* mean error, mean (prediction - observed) */
  double mae;  /* mean absolute error */
  double rmse; /* root mean square error */
  double r2;   /* 1 - SSres / SStot, SStot about the mean of the observed values; NaN when they are all equal */
} shepard_cv_summary;

shepard_status shepard_engine_cross_validate (shepard_engine *engine, const shepard_params *params, size_t folds,
                                              uint64_t seed, const shepard_cv_outputs *outputs,
                                              shepard_cv_summary *summary, shepard_progress_fn progress,
                                              void *progress_data, shepard_error *error);

/* The folds of k-fold cross-validation: point i first gets fold i mod folds, then the labels are shuffled by a seeded
 * Fisher-Yates shuffle (SplitMix64), so folds 0 .. (n mod folds) - 1 hold one point more than the others, and the
 * same seed deals the same folds on every machine. fold_of: n entries. 1 <= folds <= n <= UINT32_MAX. */
void shepard_cv_assign_folds (size_t n, size_t folds, uint64_t seed, uint32_t *fold_of);

/* Why a query point gets its value (diagnostics for teaching), computed in float64 on the CPU whatever the backend,
 * so the value is the float64 engine's: within 1e-5 (relative to the largest |z|) of a float32 or GPU engine's.
 *
 * The weights w_i = d_i^-alpha depend on the distance alone, so the largest shares are those of the nearest points:
 * the listed entries are the nearest data points, ascending by distance (ties by index), and the rest are summed.
 * Always sum (listed share) + rest_share = 1 and sum (listed share * z) + rest_share_value = value, where share_i =
 * w_i / sum w over every weighted point. A query within the coincident tolerance of data points takes their mean:
 * each of them has share 1/c and every other point 0. */
typedef struct {
  size_t index;    /* of the data point, in the order given to set_points */
  double distance; /* from the query, in map units */
  double value;    /* z of the data point */
  double share;    /* w_i / sum w; 0 for a point outside the weighted neighbourhood */
} shepard_contribution;

typedef struct {
  double value;   /* the interpolated value at the query */
  double alpha;   /* the power used: AIDW's adaptive alpha, IDW's p */
  /* AIDW's way to alpha (NaN for IDW): r_obs, the mean distance to the k nearest (map units); r_exp (map units, by
   * params->rexp); R = r_obs / r_exp; mu, the cosine membership of R between Rmin and Rmax. */
  double r_obs, r_exp, r, mu;
  int k_density;        /* AIDW: the neighbours averaged into r_obs, min (k, n); 0 for IDW */
  bool coincident;      /* the query lies on data points and takes their mean */
  size_t n_weighted;    /* points with a share above zero: n, N, or the coincident ones */
  size_t n_listed;      /* entries written: min (capacity, n) nearest */
  size_t rest_count;    /* weighted points beyond the listed ones */
  double rest_share;       /* their summed share */
  double rest_share_value; /* their summed share * z */
} shepard_explanation;

/* Explains the value at (x, y): listed gets the min (capacity, n) nearest points (capacity may be 0). */
shepard_status shepard_engine_explain (shepard_engine *engine, const shepard_params *params, double x, double y,
                                       shepard_contribution *listed, size_t capacity,
                                       shepard_explanation *explanation, shepard_error *error);

/* Exact k nearest neighbours (any k >= 1) of each query through the engine's even grid: squared distances ascending,
 * k per query (k > n uses n; the rest of each row is +inf, index SIZE_MAX) and, when indices is not NULL, the data
 * point index of each. Ties are ordered by index. */
shepard_status shepard_engine_nearest (shepard_engine *engine, const double *query_x, const double *query_y,
                                       size_t n_queries, int k, double *squared_distances, size_t *indices,
                                       shepard_error *error);

/* Results that stay on the GPU (CUDA backend): the float32 value, alpha and r_obs of every raster cell in device memory, for
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
/* Any plane, as above; r_obs holds NaN after an IDW interpolation. */
const float *shepard_device_grid_plane (const shepard_device_grid *grid, shepard_plane plane);

/* Copies count cells from the row-major index first to the host: values and, when not NULL, alpha. */
shepard_status shepard_device_grid_read (const shepard_device_grid *grid, size_t first, size_t count, float *values,
                                         float *alpha, shepard_error *error);
/* The same for one plane. */
shepard_status shepard_device_grid_read_plane (const shepard_device_grid *grid, shepard_plane plane, size_t first,
                                               size_t count, float *values, shepard_error *error);

const char *shepard_status_name (shepard_status status);

#ifdef __cplusplus
}
#endif

#endif /* SHEPARD_ENGINE_H */
