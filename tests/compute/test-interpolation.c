/* SPDX-License-Identifier: GPL-3.0-or-later */
/* IDW and AIDW through the engine, over all points and the N nearest, in float64 and float32, on grids and on lists of
 * query points, against the brute-force reference. */
#include <glib.h>
#include <math.h>

#include "engine-test-support.h"
#include "reference-interpolation.h"
#include "seeded-random.h"

/* float64 against float64: the engine and the reference (which sums with compensation) differ in the order of
 * additions, in pow (d^2, -p/2) against pow (d, -p) and in the shift to a local origin, each a few ulps per term.
 * A plain float64 sum also drops terms below half an ulp of the running sum, which with high powers biases it by up
 * to ~n * 1e-17 (seen: 1.05e-12 over 1e6 points at p = 6; the worst case of plain summation is n * 1.1e-16). Any real
 * slip (a wrong weight, a missed point) is orders of magnitude larger. */
#define FLOAT64_TOLERANCE 1e-12
#define FLOAT64_TOLERANCE_PER_POINT 1e-17
/* The engine's documented promise for its float32 path (shepard-engine.h, docs/METHOD.md). */
#define FLOAT32_TOLERANCE 1e-5

static double
tolerance_for (shepard_precision precision, size_t point_count)
{
  if (precision == SHEPARD_PRECISION_FLOAT32)
    return FLOAT32_TOLERANCE;
  return FLOAT64_TOLERANCE + FLOAT64_TOLERANCE_PER_POINT * (double) point_count;
}

static const shepard_precision precisions[] = { SHEPARD_PRECISION_FLOAT64, SHEPARD_PRECISION_FLOAT32 };

typedef enum {
  METHOD_IDW_P2,
  METHOD_IDW_P6,
  METHOD_AIDW_DEFAULT,
  METHOD_AIDW_WIDE, /* alphas up to 6, Rmin != 0, small k: weights over a wide range and every band of mu used */
  METHOD_AIDW_HULL,
  METHOD_AIDW_GIVEN_AREA,
} method_choice;

static const struct {
  method_choice method;
  const char *name;
} method_names[] = {
  { METHOD_IDW_P2, "idw-p2" },
  { METHOD_IDW_P6, "idw-p6" },
  { METHOD_AIDW_DEFAULT, "aidw-default" },
  { METHOD_AIDW_WIDE, "aidw-wide" },
  { METHOD_AIDW_HULL, "aidw-hull" },
  { METHOD_AIDW_GIVEN_AREA, "aidw-given-area" },
};

static const char *
method_name (method_choice method)
{
  for (size_t i = 0; i < G_N_ELEMENTS (method_names); i++)
    if (method_names[i].method == method)
      return method_names[i].name;
  g_assert_not_reached ();
}

static shepard_params
method_params (method_choice method, int neighbors)
{
  shepard_params params;
  switch (method)
    {
    case METHOD_IDW_P2:
      shepard_params_init_idw (&params);
      break;
    case METHOD_IDW_P6:
      shepard_params_init_idw (&params);
      params.power = 6.0;
      break;
    case METHOD_AIDW_DEFAULT:
      shepard_params_init_aidw (&params);
      break;
    case METHOD_AIDW_WIDE:
      shepard_params_init_aidw (&params);
      params.k = 7;
      params.alpha[0] = 1.0;
      params.alpha[1] = 2.5;
      params.alpha[2] = 4.0;
      params.alpha[3] = 5.0;
      params.alpha[4] = 6.0;
      params.r_min = 0.5;
      params.r_max = 1.8;
      break;
    case METHOD_AIDW_HULL:
      shepard_params_init_aidw (&params);
      params.area_mode = SHEPARD_AREA_CONVEX_HULL;
      break;
    case METHOD_AIDW_GIVEN_AREA:
      shepard_params_init_aidw (&params);
      params.k = 5;
      params.area_mode = SHEPARD_AREA_GIVEN;
      params.area = 2e5;
      break;
    }
  params.neighbors = neighbors;
  /* These tests hold the brute force to rounding; test-summation holds the far field to its tolerance. */
  params.summation = SHEPARD_SUMMATION_EXACT;
  return params;
}

typedef struct {
  point_layout layout;
  size_t count;
  uint64_t seed;
} layout_case;

static const layout_case layout_cases[] = {
  { POINT_LAYOUT_UNIFORM, 2, 201 },
  { POINT_LAYOUT_UNIFORM, 17, 202 },
  { POINT_LAYOUT_UNIFORM, 1000, 203 },
  { POINT_LAYOUT_UNIFORM, 4097, 204 },
  { POINT_LAYOUT_CLUSTERS, 2345, 205 },
  { POINT_LAYOUT_DUPLICATES, 1501, 206 },
  { POINT_LAYOUT_UTM, 1234, 207 },
  { POINT_LAYOUT_CLUSTER_OUTLIERS, 999, 208 },
};

static const int neighbourhoods[] = { SHEPARD_NEIGHBORS_ALL, 8, 16 };

typedef struct {
  layout_case layout;
  method_choice method;
  int neighbors;
} interpolation_case;

/* A grid over the data's bounding box and a margin of a tenth of it on every side. */
static shepard_grid
grid_around (const reference_data *reference, size_t width, size_t height)
{
  double span_x = fmax (reference->x_max - reference->x_min, 1.0);
  double span_y = fmax (reference->y_max - reference->y_min, 1.0);
  return (shepard_grid) {
    .x_min = reference->x_min - 0.1 * span_x,
    .y_max = reference->y_max + 0.1 * span_y,
    .dx = 1.2 * span_x / (double) width,
    .dy = 1.2 * span_y / (double) height,
    .width = width,
    .height = height,
  };
}

static void
grid_nodes (const shepard_grid *grid, double *x, double *y)
{
  for (size_t row = 0; row < grid->height; row++)
    for (size_t col = 0; col < grid->width; col++)
      {
        x[row * grid->width + col] = grid->x_min + ((double) col + 0.5) * grid->dx;
        y[row * grid->width + col] = grid->y_max - ((double) row + 0.5) * grid->dy;
      }
}

/* Engine outputs for a batch of queries, with the AIDW outputs when the method has them. */
typedef struct {
  double *values;
  double *alpha;
  double *r_obs;
  size_t count;
} query_outputs;

static query_outputs *
query_outputs_new (size_t count, gboolean with_aidw_outputs)
{
  query_outputs *outputs = g_new0 (query_outputs, 1);
  outputs->count = count;
  outputs->values = g_new (double, count);
  if (with_aidw_outputs)
    {
      outputs->alpha = g_new (double, count);
      outputs->r_obs = g_new (double, count);
    }
  for (size_t i = 0; i < count; i++)
    outputs->values[i] = NAN;
  return outputs;
}

static void
query_outputs_free (query_outputs *outputs)
{
  g_free (outputs->values);
  g_free (outputs->alpha);
  g_free (outputs->r_obs);
  g_free (outputs);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (query_outputs, query_outputs_free)

static shepard_outputs
as_engine_outputs (const query_outputs *outputs)
{
  return (shepard_outputs) { .values = outputs->values, .alpha = outputs->alpha, .r_obs = outputs->r_obs };
}

static reference_result *
reference_at (const reference_data *reference, const shepard_params *params, const double *x, const double *y,
              size_t count)
{
  reference_result *results = g_new (reference_result, count);
  for (size_t i = 0; i < count; i++)
    reference_interpolate (reference, params, x[i], y[i], &results[i]);
  return results;
}

/* Values, and for AIDW alpha and r_obs, against the reference; values where the N-nearest neighbourhood is not
 * defined (a tie at its edge) are left out and counted. */
static void
compare_with_reference (const char *what, const query_outputs *outputs, const reference_result *expected,
                        double value_scale, double tolerance)
{
  g_autofree char *values_what = g_strdup_printf ("%s values", what);
  deviation_tally values;
  deviation_tally_init (&values, values_what, tolerance);
  size_t ambiguous = 0;
  for (size_t i = 0; i < outputs->count; i++)
    {
      g_assert_true (isfinite (outputs->values[i]));
      if (expected[i].neighbourhood_ambiguous)
        ambiguous++;
      else
        deviation_tally_add (&values, i, outputs->values[i], expected[i].value, value_scale);
    }
  if (ambiguous > 0)
    g_test_message ("%s: %zu queries left out, their N-th and (N+1)-th nearest tie", what, ambiguous);
  /* The duplicates layout cuts through a stack of copies at a third of its nodes; at least half must remain. */
  g_assert_cmpuint (ambiguous, <=, outputs->count / 2);
  deviation_tally_check (&values);

  if (outputs->alpha == NULL)
    return;
  g_autofree char *alpha_what = g_strdup_printf ("%s alpha", what);
  g_autofree char *r_obs_what = g_strdup_printf ("%s r_obs", what);
  deviation_tally alpha, r_obs;
  deviation_tally_init (&alpha, alpha_what, tolerance);
  deviation_tally_init (&r_obs, r_obs_what, tolerance);
  for (size_t i = 0; i < outputs->count; i++)
    {
      deviation_tally_add (&alpha, i, outputs->alpha[i], expected[i].alpha, expected[i].alpha);
      deviation_tally_add (&r_obs, i, outputs->r_obs[i], expected[i].r_obs, fmax (expected[i].r_obs, 1e-300));
    }
  deviation_tally_check (&alpha);
  deviation_tally_check (&r_obs);
}

static void
run_grid (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid, query_outputs *outputs)
{
  shepard_outputs engine_outputs = as_engine_outputs (outputs);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_grid (engine, params, grid, &engine_outputs, NULL, NULL, &error),
                        &error, SHEPARD_OK);
}

static void
run_points (shepard_engine *engine, const shepard_params *params, const double *x, const double *y,
            query_outputs *outputs)
{
  shepard_outputs engine_outputs = as_engine_outputs (outputs);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_points (engine, params, x, y, outputs->count, &engine_outputs,
                                                           NULL, NULL, &error),
                        &error, SHEPARD_OK);
}

enum { FAR_QUERIES = 12 };

static void
test_against_reference (gconstpointer data)
{
  const interpolation_case *test_case = data;
  g_test_message ("%s, %zu points, seed %" G_GUINT64_FORMAT, point_layout_name (test_case->layout.layout),
                  test_case->layout.count, (guint64) test_case->layout.seed);
  point_set *points = point_set_new (test_case->layout.layout, test_case->layout.count, test_case->layout.seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  shepard_params params = method_params (test_case->method, test_case->neighbors);
  gboolean aidw = params.method == SHEPARD_METHOD_AIDW;
  double scale = point_set_value_scale (points);

  /* Non-square cells and a width and height that are not round numbers, so rows and columns cannot be swapped
   * unnoticed. */
  shepard_grid grid = grid_around (&reference, 31, 23);
  size_t node_count = grid.width * grid.height;
  size_t query_count = node_count + FAR_QUERIES;
  g_autofree double *query_x = g_new (double, query_count);
  g_autofree double *query_y = g_new (double, query_count);
  grid_nodes (&grid, query_x, query_y);
  double extent = fmax (reference.x_max - reference.x_min, reference.y_max - reference.y_min);
  for (size_t i = 0; i < FAR_QUERIES; i++)
    {
      double angle = 2.0 * G_PI * (double) i / FAR_QUERIES;
      query_x[node_count + i] = reference.x_min + 50.0 * extent * cos (angle);
      query_y[node_count + i] = reference.y_min + 50.0 * extent * sin (angle);
    }
  g_autofree reference_result *expected = reference_at (&reference, &params, query_x, query_y, query_count);

  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
      double tolerance = tolerance_for (precisions[p], points->count);

      g_autoptr (query_outputs) on_grid = query_outputs_new (node_count, aidw);
      run_grid (engine, &params, &grid, on_grid);
      g_autofree char *grid_what = g_strdup_printf ("%s grid", precision_name (precisions[p]));
      compare_with_reference (grid_what, on_grid, expected, scale, tolerance);

      g_autoptr (query_outputs) at_points = query_outputs_new (query_count, aidw);
      run_points (engine, &params, query_x, query_y, at_points);
      g_autofree char *points_what = g_strdup_printf ("%s points", precision_name (precisions[p]));
      compare_with_reference (points_what, at_points, expected, scale, tolerance);
      shepard_engine_free (engine);
    }
  point_set_free (points);
}

/* Mean value of the data points within the coincidence distance of point i: what the surface must give there. */
static double
coincident_mean (const reference_data *reference, size_t i)
{
  double sum = 0.0;
  size_t count = 0;
  for (size_t j = 0; j < reference->count; j++)
    if (hypot (reference->x[j] - reference->x[i], reference->y[j] - reference->y[i]) <=
        reference->coincident_distance)
      {
        sum += reference->z[j];
        count++;
      }
  return sum / (double) count;
}

/* The surface honours the data: at a data point, its value (the mean where points coincide). */
static void
test_exact_at_data_points (gconstpointer data)
{
  const layout_case *layout = data;
  g_test_message ("%s, %zu points, seed %" G_GUINT64_FORMAT, point_layout_name (layout->layout), layout->count,
                  (guint64) layout->seed);
  point_set *points = point_set_new (layout->layout, layout->count, layout->seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double scale = point_set_value_scale (points);
  g_autofree double *expected = g_new (double, points->count);
  for (size_t i = 0; i < points->count; i++)
    expected[i] = coincident_mean (&reference, i);

  /* Two points are on a line: AIDW needs the area given. */
  const method_choice methods[] = { METHOD_IDW_P2,
                                    layout->count < 3 ? METHOD_AIDW_GIVEN_AREA : METHOD_AIDW_DEFAULT };
  const int neighbours[] = { SHEPARD_NEIGHBORS_ALL, 8 };
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
      for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
        for (size_t n = 0; n < G_N_ELEMENTS (neighbours); n++)
          {
            shepard_params params = method_params (methods[m], neighbours[n]);
            g_autoptr (query_outputs) outputs =
              query_outputs_new (points->count, params.method == SHEPARD_METHOD_AIDW);
            run_points (engine, &params, points->x, points->y, outputs);
            g_autofree char *what = g_strdup_printf ("%s %s, neighbours %d, at the data points",
                                                     precision_name (precisions[p]), method_name (methods[m]),
                                                     neighbours[n]);
            deviation_tally tally;
            deviation_tally_init (&tally, what, tolerance_for (precisions[p], points->count));
            for (size_t i = 0; i < points->count; i++)
              deviation_tally_add (&tally, i, outputs->values[i], expected[i], scale);
            deviation_tally_check (&tally);
          }
      shepard_engine_free (engine);
    }
  point_set_free (points);
}

typedef struct {
  const char *name;
  point_layout layout;
  double x_min, y_max, spacing; /* chosen so that every node (x_min + (col + 0.5) spacing, ...) is exact */
  size_t width, height;
} coincident_node_case;

static const coincident_node_case coincident_node_cases[] = {
  { "uniform", POINT_LAYOUT_UNIFORM, -25.0, 725.0, 25.0, 44, 30 },
  { "utm", POINT_LAYOUT_UTM, 499900.0, 5003100.0, 50.0, 44, 64 },
};

/* Data points placed exactly on grid nodes: one alone, three stacked with different values, one on the corner
 * node, and one on the node just below the raster's last row (outside it, where the GPU still weighs the lattice
 * beside the rows eight above, and once took their reciprocal with it: 0 * inf gave NaN there). The grid must give
 * the value (or the mean of the stack) at the nodes, and match the reference everywhere. */
static void
test_coincident_node (gconstpointer data)
{
  const coincident_node_case *test_case = data;
  const uint64_t seed = 301;
  g_test_message ("%s, seed %" G_GUINT64_FORMAT, test_case->name, (guint64) seed);
  point_set *random_points = point_set_new (test_case->layout, 500, seed);
  const struct {
    size_t row, col;
    double value;
  } placed[] = {
    { 17, 23, 42.0 }, { 21, 30, 10.0 }, { 21, 30, 20.0 }, { 21, 30, 90.0 }, { 0, 0, 77.0 },
    { test_case->height, 5, 55.0 },
  };
  point_set *points = point_set_new_empty (random_points->count + G_N_ELEMENTS (placed));
  for (size_t i = 0; i < random_points->count; i++)
    {
      points->x[i] = random_points->x[i];
      points->y[i] = random_points->y[i];
      points->z[i] = random_points->z[i];
    }
  shepard_grid grid = { .x_min = test_case->x_min, .y_max = test_case->y_max, .dx = test_case->spacing,
                        .dy = test_case->spacing, .width = test_case->width, .height = test_case->height };
  for (size_t i = 0; i < G_N_ELEMENTS (placed); i++)
    {
      size_t target = random_points->count + i;
      points->x[target] = grid.x_min + ((double) placed[i].col + 0.5) * grid.dx;
      points->y[target] = grid.y_max - ((double) placed[i].row + 0.5) * grid.dy;
      points->z[target] = placed[i].value;
    }
  const struct {
    size_t row, col;
    double value;
  } expected_nodes[] = { { 17, 23, 42.0 }, { 21, 30, 40.0 }, { 0, 0, 77.0 } };

  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double scale = point_set_value_scale (points);
  size_t node_count = grid.width * grid.height;
  g_autofree double *node_x = g_new (double, node_count);
  g_autofree double *node_y = g_new (double, node_count);
  grid_nodes (&grid, node_x, node_y);

  const method_choice methods[] = { METHOD_IDW_P2, METHOD_AIDW_DEFAULT };
  const int neighbours[] = { SHEPARD_NEIGHBORS_ALL, 8 };
  for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
    for (size_t n = 0; n < G_N_ELEMENTS (neighbours); n++)
      {
        shepard_params params = method_params (methods[m], neighbours[n]);
        gboolean aidw = params.method == SHEPARD_METHOD_AIDW;
        g_autofree reference_result *expected = reference_at (&reference, &params, node_x, node_y, node_count);
        for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
          {
            shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
            g_autoptr (query_outputs) outputs = query_outputs_new (node_count, aidw);
            run_grid (engine, &params, &grid, outputs);
            g_autofree char *what = g_strdup_printf ("%s %s, neighbours %d, grid", precision_name (precisions[p]),
                                                     method_name (methods[m]), neighbours[n]);
            compare_with_reference (what, outputs, expected, scale, tolerance_for (precisions[p], points->count));
            for (size_t i = 0; i < G_N_ELEMENTS (expected_nodes); i++)
              {
                double value = outputs->values[expected_nodes[i].row * grid.width + expected_nodes[i].col];
                g_test_message ("node (%zu, %zu): %.17g, expected %g", expected_nodes[i].row, expected_nodes[i].col,
                                value, expected_nodes[i].value);
                g_assert_cmpfloat_with_epsilon (value, expected_nodes[i].value,
                                                tolerance_for (precisions[p], points->count) * scale);
              }
            shepard_engine_free (engine);
          }
      }
  point_set_free (random_points);
  point_set_free (points);
}

/* Two data points closer than SHEPARD_COINCIDENT_TOLERANCE times the extent are one spot: a query on either takes
 * the mean of both (shepard-engine.h), not the value of the one it hits exactly. */
static void
test_within_coincidence_tolerance (void)
{
  const uint64_t seed = 311;
  g_test_message ("uniform, 300 points and two close ones, seed %" G_GUINT64_FORMAT, (guint64) seed);
  point_set *random_points = point_set_new (POINT_LAYOUT_UNIFORM, 300, seed);
  point_set *points = point_set_new_empty (random_points->count + 2);
  for (size_t i = 0; i < random_points->count; i++)
    {
      points->x[i] = random_points->x[i];
      points->y[i] = random_points->y[i];
      points->z[i] = random_points->z[i];
    }
  /* The extent is close to 1000, so 3e-7 apart is 0.3 of the coincidence distance. */
  size_t first = random_points->count, second = first + 1;
  points->x[first] = 400.0;
  points->y[first] = 300.0;
  points->z[first] = 10.0;
  points->x[second] = 400.0 + 3e-7;
  points->y[second] = 300.0;
  points->z[second] = 30.0;
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  g_assert_cmpfloat (3e-7, <, 0.5 * reference.coincident_distance);
  double scale = point_set_value_scale (points);

  const double query_x[] = { 400.0, 400.0 + 3e-7, 400.0 + 1.5e-7, 400.0 - 2e-6, 400.0 + 5e-6 };
  const double query_y[] = { 300.0, 300.0, 300.0, 300.0, 300.0 };
  const size_t on_the_spot = 3; /* the first three queries */
  const size_t query_count = G_N_ELEMENTS (query_x);
  const method_choice methods[] = { METHOD_IDW_P2, METHOD_IDW_P6, METHOD_AIDW_DEFAULT };
  const int neighbours[] = { SHEPARD_NEIGHBORS_ALL, 8 };
  for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
    for (size_t n = 0; n < G_N_ELEMENTS (neighbours); n++)
      {
        shepard_params params = method_params (methods[m], neighbours[n]);
        gboolean aidw = params.method == SHEPARD_METHOD_AIDW;
        g_autofree reference_result *expected = reference_at (&reference, &params, query_x, query_y, query_count);
        for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
          {
            shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
            g_autoptr (query_outputs) outputs = query_outputs_new (query_count, aidw);
            run_points (engine, &params, query_x, query_y, outputs);
            g_autofree char *what = g_strdup_printf ("%s %s, neighbours %d", precision_name (precisions[p]),
                                                     method_name (methods[m]), neighbours[n]);
            double tolerance = tolerance_for (precisions[p], points->count);
            compare_with_reference (what, outputs, expected, scale, tolerance);
            for (size_t q = 0; q < on_the_spot; q++)
              g_assert_cmpfloat_with_epsilon (outputs->values[q], 20.0, tolerance * scale);
            shepard_engine_free (engine);
          }
      }
  point_set_free (random_points);
  point_set_free (points);
}

/* Queries just outside the coincidence distance (twice SHEPARD_COINCIDENT_TOLERANCE of the extent) up to 1e-3 of
 * it, with powers up to 6: weights spanning ~70 orders of magnitude in one sum. Nothing may overflow to Inf or NaN. */
static void
test_near_coincident_queries (void)
{
  const uint64_t seed = 401;
  g_test_message ("uniform, 1000 points, seed %" G_GUINT64_FORMAT, (guint64) seed);
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 1000, seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double extent = fmax (reference.x_max - reference.x_min, reference.y_max - reference.y_min);
  double scale = point_set_value_scale (points);

  const double offsets[] = { 2 * SHEPARD_COINCIDENT_TOLERANCE, 10 * SHEPARD_COINCIDENT_TOLERANCE, 1e-5, 1e-3 };
  enum { POINTS_APPROACHED = 20 };
  size_t query_count = G_N_ELEMENTS (offsets) * POINTS_APPROACHED;
  g_autofree double *query_x = g_new (double, query_count);
  g_autofree double *query_y = g_new (double, query_count);
  seeded_random random;
  seeded_random_init (&random, seed + 1);
  for (size_t o = 0; o < G_N_ELEMENTS (offsets); o++)
    for (size_t i = 0; i < POINTS_APPROACHED; i++)
      {
        size_t point = seeded_random_below (&random, (uint32_t) points->count);
        double angle = seeded_random_range (&random, 0.0, 2.0 * G_PI);
        query_x[o * POINTS_APPROACHED + i] = points->x[point] + offsets[o] * extent * cos (angle);
        query_y[o * POINTS_APPROACHED + i] = points->y[point] + offsets[o] * extent * sin (angle);
      }

  const double powers[] = { 1.0, 2.0, 4.0, 6.0 };
  for (size_t w = 0; w < G_N_ELEMENTS (powers) + 1; w++)
    {
      shepard_params params;
      if (w < G_N_ELEMENTS (powers))
        {
          shepard_params_init_idw (&params);
          params.power = powers[w];
          params.summation = SHEPARD_SUMMATION_EXACT;
        }
      else
        params = method_params (METHOD_AIDW_WIDE, SHEPARD_NEIGHBORS_ALL);
      gboolean aidw = params.method == SHEPARD_METHOD_AIDW;
      g_autofree reference_result *expected = reference_at (&reference, &params, query_x, query_y, query_count);
      for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
        {
          shepard_engine *engine = engine_new_with_points (precisions[p], 0, points);
          g_autoptr (query_outputs) outputs = query_outputs_new (query_count, aidw);
          run_points (engine, &params, query_x, query_y, outputs);
          g_autofree char *what = g_strdup_printf ("%s %s %g", precision_name (precisions[p]),
                                                   aidw ? "AIDW alphas to" : "IDW power",
                                                   aidw ? params.alpha[4] : params.power);
          compare_with_reference (what, outputs, expected, scale, tolerance_for (precisions[p], points->count));
          shepard_engine_free (engine);
        }
    }
  point_set_free (points);
}

typedef struct {
  size_t count;
  size_t queries;
  uint64_t seed;
  gboolean with_aidw; /* the reference's kNN sorts every distance: too slow for AIDW at a million points */
} large_case;

static const large_case large_cases[] = {
  { 100003, 307, 501, TRUE },
  { 1000003, 61, 502, FALSE },
};

/* Sums of 1e5 and 1e6 terms, where a float32 accumulator over the whole sum (even split over 16 vector lanes)
 * drifts by several 1e-5. */
static void
test_large_sums (gconstpointer data)
{
  const large_case *test_case = data;
  g_test_message ("uniform, %zu points, %zu queries, seed %" G_GUINT64_FORMAT, test_case->count, test_case->queries,
                  (guint64) test_case->seed);
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, test_case->count, test_case->seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double scale = point_set_value_scale (points);
  g_autofree double *query_x = g_new (double, test_case->queries);
  g_autofree double *query_y = g_new (double, test_case->queries);
  seeded_random random;
  seeded_random_init (&random, test_case->seed + 1);
  for (size_t i = 0; i < test_case->queries; i++)
    {
      query_x[i] = seeded_random_range (&random, reference.x_min, reference.x_max);
      query_y[i] = seeded_random_range (&random, reference.y_min, reference.y_max);
    }

  shepard_engine *engines[G_N_ELEMENTS (precisions)];
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    engines[p] = engine_new_with_points (precisions[p], 0, points);
  const method_choice methods[] = { METHOD_IDW_P2, METHOD_IDW_P6, METHOD_AIDW_DEFAULT };
  for (size_t m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      shepard_params params = method_params (methods[m], SHEPARD_NEIGHBORS_ALL);
      gboolean aidw = params.method == SHEPARD_METHOD_AIDW;
      if (aidw && !test_case->with_aidw)
        continue;
      g_autofree reference_result *expected = reference_at (&reference, &params, query_x, query_y,
                                                            test_case->queries);
      for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
        {
          g_autoptr (query_outputs) outputs = query_outputs_new (test_case->queries, aidw);
          run_points (engines[p], &params, query_x, query_y, outputs);
          g_autofree char *what = g_strdup_printf ("%s %s", precision_name (precisions[p]),
                                                   method_name (methods[m]));
          compare_with_reference (what, outputs, expected, scale, tolerance_for (precisions[p], points->count));
        }
    }
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    shepard_engine_free (engines[p]);
  point_set_free (points);
}

/* Any thread count gives the reference's answer (the work split must neither drop nor repeat a row). */
static void
test_thread_counts (void)
{
  const uint64_t seed = 601;
  g_test_message ("clusters, 1000 points, seed %" G_GUINT64_FORMAT, (guint64) seed);
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, 1000, seed);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  double scale = point_set_value_scale (points);
  shepard_grid grid = grid_around (&reference, 67, 53);
  size_t node_count = grid.width * grid.height;
  g_autofree double *node_x = g_new (double, node_count);
  g_autofree double *node_y = g_new (double, node_count);
  grid_nodes (&grid, node_x, node_y);
  shepard_params params = method_params (METHOD_AIDW_DEFAULT, SHEPARD_NEIGHBORS_ALL);
  g_autofree reference_result *expected = reference_at (&reference, &params, node_x, node_y, node_count);

  const int thread_counts[] = { 1, 2, 3, 7, 0 };
  for (size_t t = 0; t < G_N_ELEMENTS (thread_counts); t++)
    for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
      {
        shepard_engine *engine = engine_new_with_points (precisions[p], thread_counts[t], points);
        g_test_message ("%s", shepard_engine_describe (engine));
        g_autoptr (query_outputs) outputs = query_outputs_new (node_count, TRUE);
        run_grid (engine, &params, &grid, outputs);
        g_autofree char *what = g_strdup_printf ("%s, %d threads", precision_name (precisions[p]), thread_counts[t]);
        compare_with_reference (what, outputs, expected, scale, tolerance_for (precisions[p], points->count));
        shepard_engine_free (engine);
      }
  point_set_free (points);
}

/* Giving an engine new points replaces the old ones, search structures included. */
static void
test_set_points_replaces (void)
{
  point_set *first = point_set_new (POINT_LAYOUT_UNIFORM, 3000, 701);
  point_set *second = point_set_new (POINT_LAYOUT_UTM, 211, 702);
  g_test_message ("uniform 3000 (seed 701), then utm 211 (seed 702)");
  reference_data reference;
  reference_data_init (&reference, second->x, second->y, second->z, second->count);
  shepard_grid grid = grid_around (&reference, 31, 37);
  size_t node_count = grid.width * grid.height;
  g_autofree double *node_x = g_new (double, node_count);
  g_autofree double *node_y = g_new (double, node_count);
  grid_nodes (&grid, node_x, node_y);
  shepard_params params = method_params (METHOD_AIDW_DEFAULT, 16);
  g_autofree reference_result *expected = reference_at (&reference, &params, node_x, node_y, node_count);

  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_engine *engine = engine_new_with_points (precisions[p], 0, first);
      g_autoptr (query_outputs) before = query_outputs_new (node_count, TRUE);
      run_grid (engine, &params, &grid, before);
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_set_points (engine, second->x, second->y, second->z, second->count,
                                                       &error),
                            &error, SHEPARD_OK);
      double x_min, y_min, x_max, y_max;
      shepard_engine_bounds (engine, &x_min, &y_min, &x_max, &y_max);
      g_assert_cmpfloat (x_min, ==, reference.x_min);
      g_assert_cmpfloat (y_min, ==, reference.y_min);
      g_assert_cmpfloat (x_max, ==, reference.x_max);
      g_assert_cmpfloat (y_max, ==, reference.y_max);
      g_autoptr (query_outputs) after = query_outputs_new (node_count, TRUE);
      run_grid (engine, &params, &grid, after);
      compare_with_reference (precision_name (precisions[p]), after, expected, point_set_value_scale (second),
                              tolerance_for (precisions[p], second->count));
      shepard_engine_free (engine);
    }
  point_set_free (first);
  point_set_free (second);
}

/* The float32 weighting kernels are built once per instruction set and the engine picks the best the CPU has; the
 * engine's SHEPARD_CPU_KERNELS=baseline|avx2|avx512 caps that choice (compute/cpu-kernels-dispatch.c), so that every
 * build of them can be checked on one machine. Which one runs shows in the engine's description. */
typedef struct {
  const char *cap;
  const char *label; /* in shepard_engine_describe; NULL for the baseline, whose label names no AVX */
} kernel_isa;

static const kernel_isa kernel_isas[] = {
  { "baseline", NULL },
  { "avx2", "AVX2" },
  { "avx512", "AVX-512" },
};

/* Fewer than one vector of points, a partly filled last vector, both weight forms (p = 2 and general powers),
 * adaptive powers, offsets far from the origin. */
static const interpolation_case kernel_cases[] = {
  { { POINT_LAYOUT_UNIFORM, 2, 201 }, METHOD_IDW_P2, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UNIFORM, 17, 202 }, METHOD_IDW_P6, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UNIFORM, 4097, 204 }, METHOD_IDW_P2, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UNIFORM, 4097, 204 }, METHOD_IDW_P6, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UNIFORM, 4097, 204 }, METHOD_AIDW_WIDE, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_CLUSTERS, 2345, 205 }, METHOD_AIDW_DEFAULT, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UTM, 1234, 207 }, METHOD_IDW_P2, SHEPARD_NEIGHBORS_ALL },
  { { POINT_LAYOUT_UTM, 1234, 207 }, METHOD_AIDW_WIDE, SHEPARD_NEIGHBORS_ALL },
};

static void
test_kernel_isa (gconstpointer data)
{
  const kernel_isa *isa = data;
  if (test_backend () != SHEPARD_BACKEND_CPU)
    {
      g_test_skip ("the CPU kernels are only used by the CPU backend");
      return;
    }
  g_setenv ("SHEPARD_CPU_KERNELS", isa->cap, TRUE);
  shepard_error error = { 0 };
  shepard_engine *probe = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT32, 0, &error);
  g_assert_nonnull (probe);
  g_autofree char *description = g_strdup (shepard_engine_describe (probe));
  shepard_engine_free (probe);
  g_test_message ("SHEPARD_CPU_KERNELS=%s: %s", isa->cap, description);
  gboolean selected = isa->label != NULL ? strstr (description, isa->label) != NULL
                                         : strstr (description, "AVX") == NULL;
  if (!selected)
    {
      g_unsetenv ("SHEPARD_CPU_KERNELS");
      g_test_skip ("this CPU or this build has no kernels for that instruction set");
      return;
    }
  for (size_t i = 0; i < G_N_ELEMENTS (kernel_cases); i++)
    {
      g_test_message ("%s, all points", method_name (kernel_cases[i].method));
      test_against_reference (&kernel_cases[i]);
    }
  test_near_coincident_queries ();
  g_unsetenv ("SHEPARD_CPU_KERNELS");
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t m = 0; m < G_N_ELEMENTS (method_names); m++)
    for (size_t n = 0; n < G_N_ELEMENTS (neighbourhoods); n++)
      for (size_t l = 0; l < G_N_ELEMENTS (layout_cases); l++)
        {
          /* Two points are always on a line: AIDW refuses them unless the area is given (test-parameters). */
          shepard_params params = method_params (method_names[m].method, SHEPARD_NEIGHBORS_ALL);
          if (params.method == SHEPARD_METHOD_AIDW && params.area_mode != SHEPARD_AREA_GIVEN &&
              layout_cases[l].count < 3)
            continue;
          interpolation_case *test_case = g_new (interpolation_case, 1);
          *test_case = (interpolation_case) { layout_cases[l], method_names[m].method, neighbourhoods[n] };
          g_autofree char *neighbourhood = neighbourhoods[n] == SHEPARD_NEIGHBORS_ALL
                                             ? g_strdup ("all")
                                             : g_strdup_printf ("nearest-%d", neighbourhoods[n]);
          g_autofree char *path = g_strdup_printf ("/compute/interpolation/%s/%s/%s-%zu", method_names[m].name,
                                                   neighbourhood, point_layout_name (layout_cases[l].layout),
                                                   layout_cases[l].count);
          g_test_add_data_func_full (path, test_case, test_against_reference, g_free);
        }
  for (size_t l = 0; l < G_N_ELEMENTS (layout_cases); l++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/interpolation/exact-at-data/%s-%zu",
                                               point_layout_name (layout_cases[l].layout), layout_cases[l].count);
      g_test_add_data_func (path, &layout_cases[l], test_exact_at_data_points);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (coincident_node_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/interpolation/coincident-node/%s",
                                               coincident_node_cases[i].name);
      g_test_add_data_func (path, &coincident_node_cases[i], test_coincident_node);
    }
  g_test_add_func ("/compute/interpolation/within-coincidence-tolerance", test_within_coincidence_tolerance);
  g_test_add_func ("/compute/interpolation/near-coincident-queries", test_near_coincident_queries);
  for (size_t i = 0; i < G_N_ELEMENTS (large_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/interpolation/large-sums/%zu", large_cases[i].count);
      g_test_add_data_func (path, &large_cases[i], test_large_sums);
    }
  g_test_add_func ("/compute/interpolation/thread-counts", test_thread_counts);
  for (size_t i = 0; i < G_N_ELEMENTS (kernel_isas); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/interpolation/kernels/%s", kernel_isas[i].cap);
      g_test_add_data_func (path, &kernel_isas[i], test_kernel_isa);
    }
  g_test_add_func ("/compute/interpolation/set-points-replaces", test_set_points_replaces);
  return g_test_run ();
}
