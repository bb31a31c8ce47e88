/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The engine's summation (shepard-engine.h, "Far-field summation"): interpolations through the far field against the
 * same engine's exact sums, within the promise (tolerance x each field's value range); the coincident rule; tiles cut
 * by the grid's edge; several fields; explicit query points; which summation auto takes. */
#include "engine-internal.h"
#include "engine-test-support.h"
#include "point-layouts.h"

#include <glib.h>
#include <math.h>

#define POINT_COUNT 20000

typedef struct {
  const char *name;
  shepard_method method;
  double power;
  double tolerance;
} summation_case;

static const summation_case cases[] = {
  { "idw-p2-1e-4", SHEPARD_METHOD_IDW, 2.0, 1e-4 },
  { "idw-p3.5-1e-8", SHEPARD_METHOD_IDW, 3.5, 1e-8 },
  { "aidw-1e-6", SHEPARD_METHOD_AIDW, 0.0, 1e-6 },
  { "aidw-1e-3", SHEPARD_METHOD_AIDW, 0.0, 1e-3 },
};

static shepard_params
params_of (const summation_case *test, shepard_summation summation)
{
  shepard_params params;
  if (test->method == SHEPARD_METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    {
      shepard_params_init_idw (&params);
      params.power = test->power;
    }
  params.summation = summation;
  params.tolerance = test->tolerance;
  return params;
}

/* A 61 x 47 grid (tiles cut by both edges) over the clustered layout, one cell centre on a data point. */
static shepard_grid
grid_over (const point_set *points, size_t on_point)
{
  shepard_grid grid = { .dx = 1000.0 / 61.0, .dy = 700.0 / 47.0, .width = 61, .height = 47 };
  /* Cell (20, 30)'s centre lands on the chosen point. */
  grid.x_min = points->x[on_point] - 30.5 * grid.dx;
  grid.y_max = points->y[on_point] + 20.5 * grid.dy;
  return grid;
}

/* The far field's CPU engines, of a given precision, holding the points. */
static shepard_engine *
cpu_engine (shepard_precision precision, const point_set *points)
{
  return engine_on_with_points (SHEPARD_BACKEND_CPU, precision, 2, points);
}

static void
test_far_field_against_exact (gconstpointer data)
{
  const summation_case *test = data;
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 1515);
  size_t on_point = POINT_COUNT / 2;
  shepard_grid grid = grid_over (points, on_point);
  size_t cells = grid.width * grid.height;
  double range = values_range (points->z, points->count);
  double *far = g_new (double, cells), *exact = g_new (double, cells);

  /* Float64 on both sides, so that only the summation differs. */
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_params far_params = params_of (test, SHEPARD_SUMMATION_FAR_FIELD);
  shepard_params exact_params = params_of (test, SHEPARD_SUMMATION_EXACT);
  g_assert_cmpint (shepard_engine_summation (engine, &far_params, cells), ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpint (shepard_engine_summation (engine, &exact_params, cells), ==, SHEPARD_SUMMATION_EXACT);
  interpolate_grid_or_fail (engine, &far_params, &grid, far);
  interpolate_grid_or_fail (engine, &exact_params, &grid, exact);

  double worst = largest_difference (far, exact, cells);
  g_test_message ("%s: largest difference %.3g of the value range (tolerance %g)", test->name, worst / range,
                  test->tolerance);
  g_assert_cmpfloat (worst, <=, test->tolerance * range);
  /* The far field ran: its sums differ from every pair's, by rounding at least. */
  g_assert_cmpfloat (worst, >, 0.0);
  /* The coincident rule comes first: the cell on a data point takes its value. */
  g_assert_cmpfloat (far[20 * grid.width + 30], ==, points->z[on_point]);

  g_free (far);
  g_free (exact);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* The CPU's tiles fit the grid: 8 x 4 cells where an 8 x 8 tile's box would hold many points (here about 450), 8 x 8
 * where it holds few (about 60). Both shapes, cut by the grid's edges, within the promise of the exact sums. */
static void
test_tile_shapes (void)
{
  enum { SHAPE_POINTS = 5000 };
  static const size_t sizes[][2] = { { 31, 23 }, { 83, 61 } }; /* over the layout's 1000 x 700 */
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, SHAPE_POINTS, 2024);
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  double range = values_range (points->z, points->count);
  static const summation_case *const shape_cases[] = { &cases[1], &cases[3] }; /* IDW 3.5 at 1e-8, AIDW at 1e-3 */
  for (size_t g = 0; g < G_N_ELEMENTS (sizes); g++)
    for (size_t c = 0; c < G_N_ELEMENTS (shape_cases); c++)
      {
        const summation_case *test = shape_cases[c];
        shepard_grid grid = { .x_min = 0.0, .y_max = 700.0, .dx = 1000.0 / (double) sizes[g][0],
                              .dy = 700.0 / (double) sizes[g][1], .width = sizes[g][0], .height = sizes[g][1] };
        size_t cells = grid.width * grid.height;
        double *far = g_new (double, cells), *exact = g_new (double, cells);
        shepard_params params = params_of (test, SHEPARD_SUMMATION_FAR_FIELD);
        interpolate_grid_or_fail (engine, &params, &grid, far);
        params.summation = SHEPARD_SUMMATION_EXACT;
        interpolate_grid_or_fail (engine, &params, &grid, exact);
        double worst = 0.0;
        for (size_t i = 0; i < cells; i++)
          {
            g_assert_true (isfinite (far[i]));
            worst = fmax (worst, fabs (far[i] - exact[i]));
          }
        g_test_message ("%zu x %zu, %s: largest difference %.3g of the value range", grid.width, grid.height,
                        test->name, worst / range);
        g_assert_cmpfloat (worst, <=, test->tolerance * range);
        g_assert_cmpfloat (worst, >, 0.0); /* the far field ran */
        g_free (far);
        g_free (exact);
      }
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Float32 engines sum through the far field in float64 too: within the tolerance of the float64 exact sums. */
static void
test_float32_engine (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 77);
  shepard_grid grid = grid_over (points, 3);
  size_t cells = grid.width * grid.height;
  double *far = g_new (double, cells), *exact = g_new (double, cells);
  shepard_engine *engine32 = cpu_engine (SHEPARD_PRECISION_FLOAT32, points);
  shepard_engine *engine64 = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_FAR_FIELD);
  interpolate_grid_or_fail (engine32, &params, &grid, far);
  params.summation = SHEPARD_SUMMATION_EXACT;
  interpolate_grid_or_fail (engine64, &params, &grid, exact);
  double range = values_range (points->z, points->count);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat (fabs (far[i] - exact[i]), <=, params.tolerance * range);
  g_free (far);
  g_free (exact);
  shepard_engine_free (engine32);
  shepard_engine_free (engine64);
  point_set_free (points);
}

/* Two fields share the tree: each within its own range's tolerance. */
static void
test_several_fields (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_DUPLICATES, POINT_COUNT, 31);
  double *second = g_new (double, points->count);
  for (size_t i = 0; i < points->count; i++)
    second[i] = 1e6 - 3.0 * points->z[i] * points->z[i];
  const double *fields[2] = { points->z, second };
  shepard_grid grid = grid_over (points, 0);
  size_t cells = grid.width * grid.height;
  double *far = g_new (double, 2 * cells), *exact = g_new (double, 2 * cells);
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 2, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points_fields (engine, points->x, points->y, fields, 2, points->count,
                                                          &error), &error, SHEPARD_OK);
  shepard_params params = params_of (&cases[0], SHEPARD_SUMMATION_FAR_FIELD);
  interpolate_grid_or_fail (engine, &params, &grid, far);
  params.summation = SHEPARD_SUMMATION_EXACT;
  interpolate_grid_or_fail (engine, &params, &grid, exact);
  double ranges[2] = { values_range (points->z, points->count), values_range (second, points->count) };
  for (size_t f = 0; f < 2; f++)
    for (size_t i = 0; i < cells; i++)
      g_assert_cmpfloat (fabs (far[f * cells + i] - exact[f * cells + i]), <=, params.tolerance * ranges[f]);
  g_free (far);
  g_free (exact);
  g_free (second);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Query points given one by one (tiles of consecutive queries, wherever they lie). */
static void
test_query_points (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTER_OUTLIERS, POINT_COUNT, 5);
  enum { QUERIES = 300 };
  double qx[QUERIES], qy[QUERIES], far[QUERIES], exact[QUERIES];
  for (size_t q = 0; q < QUERIES; q++)
    {
      /* Scattered over the layout and beyond it, some on data points. */
      qx[q] = q % 7 == 0 ? points->x[q] : -200.0 + 1400.0 * (double) ((q * 37) % QUERIES) / QUERIES;
      qy[q] = q % 7 == 0 ? points->y[q] : -100.0 + 900.0 * (double) ((q * 91) % QUERIES) / QUERIES;
    }
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_error error = { 0 };
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_FAR_FIELD);
  assert_engine_status (shepard_engine_interpolate_points (engine, &params, qx, qy, QUERIES,
                                                           &(shepard_outputs) { far, NULL, NULL }, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  params.summation = SHEPARD_SUMMATION_EXACT;
  assert_engine_status (shepard_engine_interpolate_points (engine, &params, qx, qy, QUERIES,
                                                           &(shepard_outputs) { exact, NULL, NULL }, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  double range = values_range (points->z, points->count);
  for (size_t q = 0; q < QUERIES; q++)
    g_assert_cmpfloat (fabs (far[q] - exact[q]), <=, params.tolerance * range);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* auto: the far field for many points on the CPU, every pair for few; never where it does not apply. */
static void
test_auto_choice (void)
{
  shepard_error error = { 0 };
  shepard_params params;
  shepard_params_init_aidw (&params);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE);

  point_set *many = point_set_new (POINT_LAYOUT_UNIFORM, 100000, 9), *few = point_set_new (POINT_LAYOUT_UNIFORM, 50, 9);
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT32, many);
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_FAR_FIELD);
  /* One query does not pay for building the tree. */
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1), ==, SHEPARD_SUMMATION_EXACT);
  params.neighbors = 15;
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  params.neighbors = SHEPARD_NEIGHBORS_ALL;
  params.smoothing = 1.0;
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  params.smoothing = 0.0;
  params.summation = SHEPARD_SUMMATION_EXACT;
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  params.summation = SHEPARD_SUMMATION_AUTO;
  assert_engine_status (shepard_engine_set_points (engine, few->x, few->y, few->z, few->count, &error), &error,
                        SHEPARD_OK);
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  shepard_params_init_idw (&params);
  params.power = 65.0;
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  shepard_engine_free (engine);
  point_set_free (many);
  point_set_free (few);
}

/* A tree built ahead (as a layer's load does) gives the same values as one built by the first interpolation, and
 * auto no longer counts its build. */
static void
test_prepared_ahead (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 404);
  shepard_grid grid = grid_over (points, 8);
  size_t cells = grid.width * grid.height;
  double *ahead = g_new (double, cells), *lazily = g_new (double, cells);
  shepard_error error = { 0 };
  shepard_engine *prepared = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 2, &error);
  g_assert_nonnull (prepared);
  g_assert_cmpint (shepard_engine_prepare_far_field (prepared, NULL, NULL, &error), ==, SHEPARD_ERROR_NO_POINTS);
  assert_engine_status (shepard_engine_set_points (prepared, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  shepard_engine *lazy = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_AUTO);
  g_assert_cmpint (shepard_engine_summation (prepared, &params, 1), ==, SHEPARD_SUMMATION_EXACT);
  assert_engine_status (shepard_engine_prepare_far_field (prepared, NULL, NULL, &error), &error, SHEPARD_OK);
  g_assert_cmpint (shepard_engine_summation (prepared, &params, 1), ==, SHEPARD_SUMMATION_FAR_FIELD);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  interpolate_grid_or_fail (prepared, &params, &grid, ahead);
  interpolate_grid_or_fail (lazy, &params, &grid, lazily);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat (ahead[i], ==, lazily[i]);
  g_free (ahead);
  g_free (lazily);
  shepard_engine_free (prepared);
  shepard_engine_free (lazy);
  point_set_free (points);
}

typedef struct {
  GArray *fractions;
  GPtrArray *messages;
  gboolean cancel_while_building;
} progress_record;

#define BUILD_MESSAGE "Building the far-field tree"

static bool
record_progress (double fraction, const char *message, void *data)
{
  progress_record *record = data;
  g_array_append_val (record->fractions, fraction);
  g_ptr_array_add (record->messages, g_strdup (message));
  return !(record->cancel_while_building && g_strcmp0 (message, BUILD_MESSAGE) == 0);
}

static progress_record *
progress_record_new (gboolean cancel_while_building)
{
  progress_record *record = g_new0 (progress_record, 1);
  record->fractions = g_array_new (FALSE, FALSE, sizeof (double));
  record->messages = g_ptr_array_new_with_free_func (g_free);
  record->cancel_while_building = cancel_while_building;
  return record;
}

static void
progress_record_free (progress_record *record)
{
  g_array_unref (record->fractions);
  g_ptr_array_unref (record->messages);
  g_free (record);
}

/* On the CPU and on CUDA, the tree built by an interpolation is the first stage of its progress: the build's reports, then the sums', the
 * fraction never going back; a cancel during the build stops it (nothing kept), and the next interpolation builds
 * the tree whole and gives what an engine that never saw a cancel gives, to the bit. */
static void
test_build_in_progress (gconstpointer data)
{
  shepard_backend backend = GPOINTER_TO_INT (data);
  if (backend == SHEPARD_BACKEND_CUDA && !cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 505);
  shepard_grid grid = grid_over (points, 9);
  size_t cells = grid.width * grid.height;
  double *values = g_new (double, cells), *undisturbed = g_new (double, cells);
  shepard_precision precision = backend == SHEPARD_BACKEND_CUDA ? SHEPARD_PRECISION_FLOAT32 : SHEPARD_PRECISION_FLOAT64;
  shepard_engine *engine = engine_on_with_points (backend, precision, 2, points);
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_FAR_FIELD);
  shepard_outputs outputs = { .values = values };
  shepard_error error = { 0 };

  progress_record *cancelling = progress_record_new (TRUE);
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, record_progress, cancelling,
                                                    &error), ==, SHEPARD_ERROR_CANCELLED);
  g_assert_cmpuint (cancelling->messages->len, >=, 1);
  for (guint i = 0; i < cancelling->messages->len; i++)
    g_assert_cmpstr (g_ptr_array_index (cancelling->messages, i), ==, BUILD_MESSAGE);
  /* No tree kept: auto still counts its build, which one query never pays for. */
  shepard_params automatic = params_of (&cases[2], SHEPARD_SUMMATION_AUTO);
  g_assert_cmpint (shepard_engine_summation (engine, &automatic, 1), ==, SHEPARD_SUMMATION_EXACT);

  progress_record *whole = progress_record_new (FALSE);
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, record_progress, whole,
                                                         &error), &error, SHEPARD_OK);
  guint reports = whole->fractions->len, build_reports = 0;
  double last_build_fraction = 0.0;
  for (guint i = 0; i < reports; i++)
    {
      double fraction = g_array_index (whole->fractions, double, i);
      const char *message = g_ptr_array_index (whole->messages, i);
      g_assert_cmpfloat (fraction, >=, 0.0);
      g_assert_cmpfloat (fraction, <=, 1.0);
      if (i > 0)
        g_assert_cmpfloat (fraction, >=, g_array_index (whole->fractions, double, i - 1));
      if (g_strcmp0 (message, BUILD_MESSAGE) == 0)
        {
          g_assert_cmpuint (build_reports, ==, i); /* the build's reports come first */
          build_reports++;
          last_build_fraction = fraction;
        }
    }
  g_assert_cmpuint (build_reports, >=, 2);
  g_assert_cmpuint (reports, >, build_reports);
  /* The build ends strictly inside the whole: the sums have their share after it. */
  g_assert_cmpfloat (last_build_fraction, >, 0.0);
  g_assert_cmpfloat (last_build_fraction, <, 1.0);
  g_assert_cmpfloat (g_array_index (whole->fractions, double, reports - 1), ==, 1.0);

  shepard_engine *fresh = engine_on_with_points (backend, precision, 2, points);
  interpolate_grid_or_fail (fresh, &params, &grid, undisturbed);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat (values[i], ==, undisturbed[i]);

  /* Built once: the next interpolation reports its sums alone. */
  progress_record *again = progress_record_new (TRUE);
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, record_progress, again,
                                                         &error), &error, SHEPARD_OK);
  for (guint i = 0; i < again->messages->len; i++)
    g_assert_cmpstr (g_ptr_array_index (again->messages, i), !=, BUILD_MESSAGE);

  progress_record_free (cancelling);
  progress_record_free (whole);
  progress_record_free (again);
  shepard_engine_free (engine);
  shepard_engine_free (fresh);
  g_free (values);
  g_free (undisturbed);
  point_set_free (points);
}

/* Cancels the sums at their first report, before any cell is summed (the tree was built by an earlier call). */
static bool
cancel_at_once (double fraction, const char *message, void *data)
{
  return false;
}

/* Interpolates on engine and on a fresh engine holding the same points: values, alpha and r_obs to the bit. */
static void
assert_as_fresh (shepard_engine *engine, const point_set *points, const shepard_params *params,
                 const shepard_grid *grid)
{
  size_t cells = grid->width * grid->height;
  double *kept[3], *fresh_out[3];
  for (int o = 0; o < 3; o++)
    {
      kept[o] = g_new (double, cells);
      fresh_out[o] = g_new (double, cells);
    }
  shepard_outputs kept_outputs = { kept[0], kept[1], kept[2] }, fresh_outputs = { fresh_out[0], fresh_out[1],
                                                                                  fresh_out[2] };
  shepard_error error = { 0 };
  shepard_engine *fresh = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  assert_engine_status (shepard_engine_interpolate_grid (engine, params, grid, &kept_outputs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_interpolate_grid (fresh, params, grid, &fresh_outputs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  for (size_t i = 0; i < cells; i++)
    {
      g_assert_cmpfloat (kept[0][i], ==, fresh_out[0][i]);
      g_assert_cmpfloat (kept[1][i], ==, fresh_out[1][i]);
      if (params->method == SHEPARD_METHOD_AIDW)
        g_assert_cmpfloat (kept[2][i], ==, fresh_out[2][i]);
    }
  shepard_engine_free (fresh);
  for (int o = 0; o < 3; o++)
    {
      g_free (kept[o]);
      g_free (fresh_out[o]);
    }
}

/* The engine keeps each recent grid's nearest search for the far field (nearest-cache.h), from the grid's second
 * interpolation on: a change of the other parameters gives what a fresh engine gives, to the bit; so do another k,
 * IDW after AIDW, a grid that moved, a grid whose interpolation that was to keep it was cancelled (nothing of it
 * read) and new points. */
static void
test_nearest_kept (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 4242);
  point_set *other_points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 4343);
  shepard_grid grid = grid_over (points, 17);
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_FAR_FIELD);
  assert_as_fresh (engine, points, &params, &grid);
  assert_as_fresh (engine, points, &params, &grid); /* kept from the second time */
  params.alpha[2] += 0.75; /* what the window's slider changes */
  params.r_max = 2.5;
  assert_as_fresh (engine, points, &params, &grid);
  params.tolerance = 1e-3;
  assert_as_fresh (engine, points, &params, &grid);
  params.k = 7;
  assert_as_fresh (engine, points, &params, &grid);
  shepard_params idw = params_of (&cases[0], SHEPARD_SUMMATION_FAR_FIELD);
  assert_as_fresh (engine, points, &idw, &grid);
  idw.power = 3.0;
  assert_as_fresh (engine, points, &idw, &grid);

  shepard_grid moved = grid;
  moved.x_min += 0.5 * grid.dx;
  size_t cells = moved.width * moved.height;
  double *values = g_new (double, cells);
  shepard_outputs outputs = { .values = values };
  shepard_error error = { 0 };
  /* noted the first time, kept from the second: which is cancelled before a cell is written */
  interpolate_grid_or_fail (engine, &params, &moved, values);
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, &params, &moved, &outputs, cancel_at_once, NULL,
                                                    &error), ==, SHEPARD_ERROR_CANCELLED);
  assert_as_fresh (engine, points, &params, &moved);
  assert_as_fresh (engine, points, &params, &grid);

  /* What the engine reads is the kept search's: r_obs spoilt in the cache comes out as the cells' r_obs. */
  shepard_nearest_entry *kept = NULL;
  for (size_t e = 0; e < SHEPARD_NEAREST_CACHE_GRIDS; e++)
    {
      shepard_nearest_entry *entry = &engine->nearest_cache.entry[e];
      if (entry->whole && entry->grid.x_min == grid.x_min && entry->k_search == (size_t) params.k && entry->has_r_obs)
        kept = entry;
    }
  g_assert_nonnull (kept);
  size_t grid_cells = grid.width * grid.height;
  double *r_obs = g_new (double, grid_cells), *spoilt_r_obs = g_new (double, grid_cells);
  shepard_outputs with_r_obs = { .values = g_new (double, grid_cells), .r_obs = r_obs };
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &with_r_obs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  for (size_t i = 0; i < grid_cells; i++)
    kept->r_obs[i] *= 3.0;
  with_r_obs.r_obs = spoilt_r_obs;
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &with_r_obs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  for (size_t i = 0; i < grid_cells; i++)
    if (isfinite (r_obs[i])) /* not a coincident cell */
      g_assert_cmpfloat_with_epsilon (spoilt_r_obs[i], 3.0 * r_obs[i], 1e-12 * r_obs[i]);
  g_free (with_r_obs.values);
  g_free (r_obs);
  g_free (spoilt_r_obs);

  /* New points: nothing kept is read. */
  assert_engine_status (shepard_engine_set_points (engine, other_points->x, other_points->y, other_points->z,
                                                   other_points->count, &error), &error, SHEPARD_OK);
  assert_as_fresh (engine, other_points, &params, &grid);
  g_free (values);
  shepard_engine_free (engine);
  point_set_free (points);
  point_set_free (other_points);
}

/* shepard_engine_prepare_far_field answers a cancel too, and a later build is whole. */
static void
test_prepare_cancelled (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 606);
  shepard_engine *engine = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  shepard_params params = params_of (&cases[0], SHEPARD_SUMMATION_AUTO);
  shepard_error error = { 0 };
  progress_record *cancelling = progress_record_new (TRUE);
  g_assert_cmpint (shepard_engine_prepare_far_field (engine, record_progress, cancelling, &error), ==,
                   SHEPARD_ERROR_CANCELLED);
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1), ==, SHEPARD_SUMMATION_EXACT);
  progress_record *whole = progress_record_new (FALSE);
  assert_engine_status (shepard_engine_prepare_far_field (engine, record_progress, whole, &error), &error,
                        SHEPARD_OK);
  g_assert_cmpfloat (g_array_index (whole->fractions, double, whole->fractions->len - 1), ==, 1.0);
  g_assert_cmpint (shepard_engine_summation (engine, &params, 1), ==, SHEPARD_SUMMATION_FAR_FIELD);
  progress_record_free (cancelling);
  progress_record_free (whole);
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_tolerance_validated (void)
{
  shepard_params params;
  shepard_params_init_idw (&params);
  shepard_error error = { 0 };
  params.tolerance = 0.0;
  g_assert_cmpint (shepard_params_validate (&params, &error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error.message, "tolerance"));
  params.tolerance = NAN;
  g_assert_cmpint (shepard_params_validate (&params, &error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
  params.tolerance = 0.5;
  g_assert_cmpint (shepard_params_validate (&params, &error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
  params.tolerance = SHEPARD_FAR_FIELD_TOLERANCE_MIN;
  g_assert_cmpint (shepard_params_validate (&params, &error), ==, SHEPARD_OK);
  params.summation = (shepard_summation) 7;
  g_assert_cmpint (shepard_params_validate (&params, &error), ==, SHEPARD_ERROR_INVALID_ARGUMENT);
}

/* A CUDA engine: auto takes the brute force for a small grid before the tree is built; asked for the far field, it
 * sums it on the GPU, within the same promise and the float32 of CUDA results (alpha and the stored value:
 * test-cuda-far-field.c's slack). */
static void
test_cuda_engine_asked_for_far_field (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 12);
  shepard_grid grid = grid_over (points, 1);
  size_t cells = grid.width * grid.height;
  double *far = g_new (double, cells), *exact = g_new (double, cells);
  shepard_error error = { 0 };
  shepard_engine *cuda = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, &error);
  g_assert_nonnull (cuda);
  shepard_engine *cpu = cpu_engine (SHEPARD_PRECISION_FLOAT64, points);
  assert_engine_status (shepard_engine_set_points (cuda, points->x, points->y, points->z, points->count, &error),
                        &error, SHEPARD_OK);
  shepard_params params = params_of (&cases[2], SHEPARD_SUMMATION_AUTO);
  g_assert_cmpint (shepard_engine_summation (cuda, &params, cells), ==, SHEPARD_SUMMATION_EXACT);
  params.summation = SHEPARD_SUMMATION_FAR_FIELD;
  interpolate_grid_or_fail (cuda, &params, &grid, far);
  params.summation = SHEPARD_SUMMATION_EXACT;
  interpolate_grid_or_fail (cpu, &params, &grid, exact);
  double range = values_range (points->z, points->count);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat (fabs (far[i] - exact[i]), <=, (params.tolerance + 4e-6) * range);
  g_free (far);
  g_free (exact);
  shepard_engine_free (cuda);
  shepard_engine_free (cpu);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/summation/far-field/%s", cases[c].name);
      g_test_add_data_func (path, &cases[c], test_far_field_against_exact);
    }
  g_test_add_func ("/compute/summation/tile-shapes", test_tile_shapes);
  g_test_add_func ("/compute/summation/float32-engine", test_float32_engine);
  g_test_add_func ("/compute/summation/several-fields", test_several_fields);
  g_test_add_func ("/compute/summation/query-points", test_query_points);
  g_test_add_func ("/compute/summation/auto", test_auto_choice);
  g_test_add_func ("/compute/summation/prepared-ahead", test_prepared_ahead);
  g_test_add_data_func ("/compute/summation/build-in-progress/cpu", GINT_TO_POINTER (SHEPARD_BACKEND_CPU),
                        test_build_in_progress);
  g_test_add_data_func ("/compute/summation/build-in-progress/cuda", GINT_TO_POINTER (SHEPARD_BACKEND_CUDA),
                        test_build_in_progress);
  g_test_add_func ("/compute/summation/nearest-kept", test_nearest_kept);
  g_test_add_func ("/compute/summation/prepare-cancelled", test_prepare_cancelled);
  g_test_add_func ("/compute/summation/tolerance-validated", test_tolerance_validated);
  g_test_add_func ("/compute/summation/cuda-engine-far-field", test_cuda_engine_asked_for_far_field);
  return g_test_run ();
}
