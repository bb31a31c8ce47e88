/* SPDX-License-Identifier: GPL-3.0-or-later */
/* gdal_grid's neighbourhood options (radius, ellipse, max/min points, quadrants, smoothing) through the engine, float64
 * and float32, against the brute-force reference and hand-computed cases; several fields against one-field runs;
 * cross-validation with a radius; values and coordinates up to +-1e308; the validation messages. */
#include <glib.h>
#include <float.h>
#include <math.h>

#include "engine-test-support.h"
#include "reference-interpolation.h"

#define FLOAT64_TOLERANCE 1e-11
#define FLOAT32_TOLERANCE 1e-5
#define POINT_COUNT 400
#define GRID_WIDTH 44
#define GRID_HEIGHT 32

static const shepard_precision precisions[] = { SHEPARD_PRECISION_FLOAT64, SHEPARD_PRECISION_FLOAT32 };

typedef struct {
  const char *name;
  double radius1, radius2, angle;
  int max_points, min_points, max_per_quadrant, min_per_quadrant;
  double smoothing;
} option_case;

/* On 400 points over 1000 x 700 a circle of 80 holds about 11 of them. */
static const option_case option_cases[] = {
  { "radius", 80, 80, 0, 0, 0, 0, 0, 0 },
  { "ellipse", 150, 50, 30, 0, 0, 0, 0, 0 },
  { "max-points", 0, 0, 0, 10, 0, 0, 0, 0 },
  { "radius-max-points", 80, 80, 0, 6, 0, 0, 0, 0 },
  { "radius-min-points", 60, 60, 0, 0, 5, 0, 0, 0 },
  { "ellipse-max-min-points", 120, 40, -60, 7, 3, 0, 0, 0 },
  { "max-per-quadrant", 0, 0, 0, 0, 0, 2, 0, 0 },
  { "quadrants-radius-max", 120, 120, 0, 8, 0, 3, 0, 0 },
  { "min-per-quadrant", 100, 100, 0, 0, 0, 0, 1, 0 },
  { "min-per-quadrant-all-points", 0, 0, 0, 0, 0, 0, 2, 0 },
  { "quadrants-min-max", 0, 0, 0, 12, 0, 4, 2, 0 },
  { "smoothing-all-points", 0, 0, 0, 0, 0, 0, 0, 20 },
  { "smoothing-local", 100, 100, 0, 10, 0, 0, 0, 20 },
  { "radius-over-everything", 5000, 5000, 0, 0, 4, 0, 0, 0 },
  /* A circle holding many more points than are wanted: the ring search finds them, not a scan of the circle. */
  { "radius-over-everything-max-points", 5000, 5000, 0, 5, 0, 0, 0, 0 },
  { "quadrants-over-everything-max", 5000, 5000, 0, 6, 0, 2, 0, 0 },
  { "min-points-all-points", 0, 0, 0, 0, 5, 0, 0, 0 },
};

typedef enum { METHOD_IDW_P2, METHOD_IDW_P1_5, METHOD_AIDW } method_choice;
static const char *const method_names[] = { "idw-p2", "idw-p1.5", "aidw" };

static shepard_params
case_params (const option_case *option, method_choice method)
{
  shepard_params params;
  if (method == METHOD_AIDW)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  if (method == METHOD_IDW_P1_5)
    params.power = 1.5;
  params.radius1 = option->radius1;
  params.radius2 = option->radius2;
  params.angle = option->angle;
  params.neighbors = option->max_points;
  params.min_points = option->min_points;
  params.max_points_per_quadrant = option->max_per_quadrant;
  params.min_points_per_quadrant = option->min_per_quadrant;
  params.smoothing = option->smoothing;
  return params;
}

/* Cells over the points' rectangle and 10 % around it, where the ellipse and quadrant conditions fail. */
static shepard_grid
query_grid (void)
{
  return (shepard_grid) { .x_min = -100.0, .y_max = 770.0, .dx = 1200.0 / GRID_WIDTH, .dy = 840.0 / GRID_HEIGHT,
                          .width = GRID_WIDTH, .height = GRID_HEIGHT };
}

typedef struct {
  option_case option;
  method_choice method;
  shepard_precision precision;
} reference_case;

static void
test_against_reference (gconstpointer data)
{
  const reference_case *test = data;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 1414);
  shepard_params params = case_params (&test->option, test->method);
  shepard_engine *engine = engine_new_with_points (test->precision, 2, points);
  shepard_grid grid = query_grid ();
  size_t cells = grid.width * grid.height;
  double *values = g_new (double, cells);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &(shepard_outputs) { values, NULL,
                                                         NULL }, NULL, NULL, &error), &error, SHEPARD_OK);

  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  deviation_tally tally;
  deviation_tally_init (&tally, "value", test->precision == SHEPARD_PRECISION_FLOAT64 ? FLOAT64_TOLERANCE
                                                                                      : FLOAT32_TOLERANCE);
  double scale = point_set_value_scale (points);
  size_t no_data = 0, ambiguous = 0;
  for (size_t cell = 0; cell < cells; cell++)
    {
      double x, y;
      grid_cell_centre (&grid, cell, &x, &y);
      reference_result expected;
      reference_interpolate (&reference, &params, x, y, &expected);
      if (expected.neighbourhood_ambiguous)
        {
          ambiguous++;
          continue;
        }
      if (isnan (expected.value))
        {
          if (!isnan (values[cell]))
            g_error ("cell %zu (%g, %g): expected no data, the engine gave %.17g", cell, x, y, values[cell]);
          no_data++;
          continue;
        }
      deviation_tally_add (&tally, cell, values[cell], expected.value, scale);
    }
  g_test_message ("%zu cells, %zu without data, %zu ambiguous", cells, no_data, ambiguous);
  g_assert_cmpuint (tally.compared, >, cells / 3);
  deviation_tally_check (&tally);
  g_free (values);
  shepard_engine_free (engine);
  point_set_free (points);
}

static double
interpolate_one (const point_set *points, const shepard_params *params, shepard_precision precision, double x,
                 double y)
{
  shepard_engine *engine = engine_new_with_points (precision, 1, points);
  double value = NAN;
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_points (engine, params, &x, &y, 1,
                                                           &(shepard_outputs) { &value, NULL, NULL }, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  shepard_engine_free (engine);
  return value;
}

/* Float64 is held to rounding; float32 (the GPU under SHEPARD_TEST_BACKEND=cuda) to its promise of 1e-5. */
static double
hand_tolerance (shepard_precision precision, double expected)
{
  return (precision == SHEPARD_PRECISION_FLOAT64 ? 1e-12 : 1e-5) * fabs (expected);
}

static point_set *
points_from (const double (*xyz)[3], size_t count)
{
  point_set *points = point_set_new_empty (count);
  for (size_t i = 0; i < count; i++)
    {
      points->x[i] = xyz[i][0];
      points->y[i] = xyz[i][1];
      points->z[i] = xyz[i][2];
    }
  return points;
}

/* gdal_grid 3.6.2 invdistnn measured on these points: one point per quadrant gives 26.666..., and the empty
 * south-west quadrant gives no data with min_points_per_quadrant=1. */
static void
test_quadrants_by_hand (void)
{
  static const double xyz[][3] = { { 1, 0, 10 }, { 0, 1, 20 }, { -1, 0, 30 }, { 0, -1, 40 }, { 2, 2, 50 },
                                   { -2, 2, 60 } };
  point_set *points = points_from (xyz, G_N_ELEMENTS (xyz));
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      shepard_params params;
      shepard_params_init_idw (&params);
      params.power = 1.0;
      params.radius1 = params.radius2 = 5.0;
      params.max_points_per_quadrant = 1;
      /* North-east: (1,0) and (0,1) tie at 1, the lower index wins; north-west (-1,0); south-east (0,-1). */
      g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 0, 0), 80.0 / 3.0,
                                      hand_tolerance (precisions[p], 80.0 / 3.0));
      params.max_points_per_quadrant = 0;
      params.min_points_per_quadrant = 1;
      g_assert_true (isnan (interpolate_one (points, &params, precisions[p], 0, 0)));
    }
  point_set_free (points);
}

/* An ellipse of semi-axes 2 and 1 turned 30 degrees: A on the long axis at 1.9 and B on the short one at 0.9 are
 * inside; C on the short axis at 1.1, D on the long one at 2.1 and E at 1.9 along x (u^2/4 + v^2 = 1.58) are not. */
static void
test_ellipse_by_hand (void)
{
  double c = cos (G_PI / 6.0), s = sin (G_PI / 6.0);
  const double xyz[][3] = { { 1.9 * c, 1.9 * s, 10 }, { -0.9 * s, 0.9 * c, 20 }, { -1.1 * s, 1.1 * c, 100 },
                            { 2.1 * c, 2.1 * s, 1000 }, { 1.9, 0, 1000 } };
  point_set *points = points_from (xyz, G_N_ELEMENTS (xyz));
  shepard_params params;
  shepard_params_init_idw (&params);
  params.power = 1.0;
  params.radius1 = 2.0;
  params.radius2 = 1.0;
  params.angle = 30.0;
  double expected = (10.0 / 1.9 + 20.0 / 0.9) / (1.0 / 1.9 + 1.0 / 0.9);
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 0, 0), expected,
                                    hand_tolerance (precisions[p], expected));
  point_set_free (points);
}

/* Three of four points lie within the radius of 2.5: min_points=3 gives their weighted mean, 4 gives no data. */
static void
test_min_points_by_hand (void)
{
  static const double xyz[][3] = { { 1, 0, 1 }, { 0, 2, 2 }, { -2, 0, 3 }, { 0, -3, 4 } };
  point_set *points = points_from (xyz, G_N_ELEMENTS (xyz));
  shepard_params params;
  shepard_params_init_idw (&params);
  params.radius1 = params.radius2 = 2.5;
  params.min_points = 3;
  double expected = (1.0 + 2.0 / 4.0 + 3.0 / 4.0) / (1.0 + 1.0 / 4.0 + 1.0 / 4.0);
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      params.min_points = 3;
      g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 0, 0), expected,
                                    hand_tolerance (precisions[p], expected));
      params.min_points = 4;
      g_assert_true (isnan (interpolate_one (points, &params, precisions[p], 0, 0)));
    }
  point_set_free (points);
}

/* S = 1, p = 2: w = 1 / (d^2 + 1) = 1/2, 1/5, 1/10, 1/17 for d = 1, 2, 3, 4. On a data point the smoothing still
 * weighs the others (w = 1/1 for the point itself), as gdal_grid does. */
static void
test_smoothing_by_hand (void)
{
  static const double xyz[][3] = { { 1, 0, 1 }, { 0, 2, 2 }, { -3, 0, 3 }, { 0, -4, 4 } };
  point_set *points = points_from (xyz, G_N_ELEMENTS (xyz));
  shepard_params params;
  shepard_params_init_idw (&params);
  params.smoothing = 1.0;
  double expected = (1.0 / 2 + 2.0 / 5 + 3.0 / 10 + 4.0 / 17) / (1.0 / 2 + 1.0 / 5 + 1.0 / 10 + 1.0 / 17);
  /* At (1, 0): d = 0, sqrt 5, 4, sqrt 17. */
  double on_point = (1.0 + 2.0 / 6 + 3.0 / 17 + 4.0 / 18) / (1.0 + 1.0 / 6 + 1.0 / 17 + 1.0 / 18);
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      double tolerance = precisions[p] == SHEPARD_PRECISION_FLOAT64 ? 1e-12 : 1e-5 * 4;
      g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 0, 0), expected, tolerance);
      g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 1, 0), on_point, tolerance);
      params.neighbors = 4;
      g_assert_cmpfloat_with_epsilon (interpolate_one (points, &params, precisions[p], 0, 0), expected,
                                    hand_tolerance (precisions[p], expected));
      params.neighbors = SHEPARD_NEIGHBORS_ALL;
    }
  point_set_free (points);
}

/* explain follows the same selection: its value is the interpolated one (no data included), a listed point outside
 * the selection has no share, and listed plus rest shares add up to 1 and to the value. */
static void
test_explain_follows_selection (gconstpointer data)
{
  const option_case *option = data;
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, POINT_COUNT, 1414);
  shepard_params params = case_params (option, METHOD_AIDW);
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 1, points);
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);
  enum { LISTED = 20 };
  for (size_t q = 0; q < 40; q++)
    {
      double x = -80.0 + 29.0 * (double) q, y = 700.0 - 17.5 * (double) q;
      shepard_contribution listed[LISTED];
      shepard_explanation explanation;
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_explain (engine, &params, x, y, listed, LISTED, &explanation, &error),
                            &error, SHEPARD_OK);
      reference_result expected;
      reference_interpolate (&reference, &params, x, y, &expected);
      if (expected.neighbourhood_ambiguous)
        continue;
      if (isnan (expected.value))
        {
          g_assert_true (isnan (explanation.value));
          continue;
        }
      double scale = point_set_value_scale (points);
      g_assert_cmpfloat (fabs (explanation.value - expected.value), <=, FLOAT64_TOLERANCE * scale);
      double share = explanation.rest_share, share_value = explanation.rest_share_value;
      size_t weighted_listed = 0;
      for (size_t j = 0; j < explanation.n_listed; j++)
        {
          share += listed[j].share;
          share_value += listed[j].share * listed[j].value;
          weighted_listed += listed[j].share > 0.0;
        }
      g_assert_cmpfloat (fabs (share - 1.0), <=, 1e-12);
      g_assert_cmpfloat (fabs (share_value - explanation.value), <=, 1e-12 * scale);
      g_assert_cmpuint (weighted_listed + explanation.rest_count, ==, explanation.n_weighted);
    }
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Three fields share one engine: each plane equals the run of an engine holding that field alone. */
static void
test_fields_equal_single_runs (gconstpointer data)
{
  const reference_case *test = data;
  point_set *points = point_set_new (POINT_LAYOUT_CLUSTERS, POINT_COUNT, 77);
  enum { FIELDS = 3 };
  double *fields[FIELDS];
  for (size_t f = 0; f < FIELDS; f++)
    {
      fields[f] = g_new (double, points->count);
      for (size_t i = 0; i < points->count; i++)
        fields[f][i] = f == 0 ? points->z[i] : f == 1 ? 3.0 * points->z[i] - 1e6 : sin (points->x[i] * 0.01) * 1e-3;
    }
  shepard_params params = case_params (&test->option, test->method);
  shepard_grid grid = query_grid ();
  size_t cells = grid.width * grid.height;
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (test_backend_for (test->precision), test->precision, 2, &error);
  g_assert_nonnull (engine);
  assert_engine_status (shepard_engine_set_points_fields (engine, points->x, points->y, (const double *const *) fields,
                                                          FIELDS, points->count, &error), &error, SHEPARD_OK);
  g_assert_cmpuint (shepard_engine_n_fields (engine), ==, FIELDS);
  double *planes = g_new (double, FIELDS * cells), *alpha = g_new (double, cells);
  assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid,
                                                         &(shepard_outputs) { planes, alpha, NULL }, NULL, NULL,
                                                         &error), &error, SHEPARD_OK);
  double *single = g_new (double, cells), *single_alpha = g_new (double, cells);
  for (size_t f = 0; f < FIELDS; f++)
    {
      shepard_engine *one = shepard_engine_new (test_backend_for (test->precision), test->precision, 2, &error);
      assert_engine_status (shepard_engine_set_points (one, points->x, points->y, fields[f], points->count, &error),
                            &error, SHEPARD_OK);
      assert_engine_status (shepard_engine_interpolate_grid (one, &params, &grid,
                                                             &(shepard_outputs) { single, single_alpha, NULL }, NULL,
                                                             NULL, &error), &error, SHEPARD_OK);
      for (size_t cell = 0; cell < cells; cell++)
        {
          double together = planes[f * cells + cell];
          if (isnan (single[cell]) || isnan (together))
            g_assert_true (isnan (single[cell]) && isnan (together));
          else
            g_assert_cmpfloat (together, ==, single[cell]);
          g_assert_cmpfloat (alpha[cell], ==, single_alpha[cell]);
        }
      shepard_engine_free (one);
    }
  g_free (single);
  g_free (single_alpha);
  g_free (planes);
  g_free (alpha);
  for (size_t f = 0; f < FIELDS; f++)
    g_free (fields[f]);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Leave-one-out with a radius, max and min points: each prediction against the reference over the other points. */
static void
test_cross_validation_with_radius (gconstpointer data)
{
  shepard_precision precision = GPOINTER_TO_INT (data);
  point_set *points = point_set_new (POINT_LAYOUT_UNIFORM, 300, 99);
  shepard_params params;
  shepard_params_init_idw (&params);
  params.radius1 = params.radius2 = 90.0;
  params.neighbors = 8;
  params.min_points = 3;
  params.smoothing = 5.0;
  shepard_engine *engine = engine_new_with_points (precision, 2, points);
  double *prediction = g_new (double, points->count);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_cross_validate (engine, &params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0,
                                                       &(shepard_cv_outputs) { .prediction = prediction }, NULL, NULL,
                                                       NULL, &error), &error, SHEPARD_OK);
  point_set *training = point_set_new_empty (points->count - 1);
  deviation_tally tally;
  deviation_tally_init (&tally, "prediction", precision == SHEPARD_PRECISION_FLOAT64 ? FLOAT64_TOLERANCE
                                                                                     : FLOAT32_TOLERANCE);
  size_t no_data = 0;
  for (size_t held = 0; held < points->count; held++)
    {
      for (size_t i = 0, t = 0; i < points->count; i++)
        if (i != held)
          {
            training->x[t] = points->x[i];
            training->y[t] = points->y[i];
            training->z[t] = points->z[i];
            t++;
          }
      reference_data reference;
      reference_data_init (&reference, training->x, training->y, training->z, training->count);
      /* The engine keeps the coincident tolerance of all n points. */
      reference_data all;
      reference_data_init (&all, points->x, points->y, points->z, points->count);
      reference.coincident_distance = all.coincident_distance;
      reference_result expected;
      reference_interpolate (&reference, &params, points->x[held], points->y[held], &expected);
      if (expected.neighbourhood_ambiguous)
        continue;
      if (isnan (expected.value))
        {
          g_assert_true (isnan (prediction[held]));
          no_data++;
          continue;
        }
      deviation_tally_add (&tally, held, prediction[held], expected.value, point_set_value_scale (points));
    }
  g_test_message ("%zu of %zu points without data", no_data, points->count);
  g_assert_cmpuint (no_data, <, points->count / 2);
  deviation_tally_check (&tally);
  point_set_free (training);
  g_free (prediction);
  shepard_engine_free (engine);
  point_set_free (points);
}

/* Values of +-1e308 and coordinates near +-1e308: every cell finite, float32 within 1e-5 of float64 (relative to the
 * largest |z|); a grid whose cells reach past the largest double is refused. */
static void
test_extreme_values (void)
{
  static const double xyz[][3] = { { -1e308, -1e308, 1e308 }, { 1e308, -1e308, -1e308 }, { 1e308, 1e308, 1e308 },
                                   { -1e308, 1e308, -1e308 }, { 0, 0, 5e307 }, { 3e307, -2e307, -DBL_MAX },
                                   { -4e307, 1e307, DBL_MAX } };
  point_set *points = points_from (xyz, G_N_ELEMENTS (xyz));
  shepard_grid grid = { .x_min = -8.5e307, .y_max = 8.5e307, .dx = 1.7e307, .dy = 1.7e307, .width = 10, .height = 10 };
  shepard_params cases[4];
  shepard_params_init_idw (&cases[0]);
  shepard_params_init_aidw (&cases[1]);
  cases[1].k = 3;
  shepard_params_init_idw (&cases[2]);
  cases[2].radius1 = cases[2].radius2 = 1e308;
  cases[2].smoothing = 1e307;
  shepard_params_init_idw (&cases[3]);
  cases[3].neighbors = 3;
  cases[3].power = 7.0;
  double values[2][100];
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
        {
          shepard_engine *engine = engine_new_with_points (precisions[p], 2, points);
          shepard_error error = { 0 };
          assert_engine_status (shepard_engine_interpolate_grid (engine, &cases[c], &grid,
                                                                 &(shepard_outputs) { values[p], NULL, NULL }, NULL,
                                                                 NULL, &error), &error, SHEPARD_OK);
          for (size_t cell = 0; cell < 100; cell++)
            if (!isfinite (values[p][cell]) && !(c == 2 && isnan (values[p][cell])))
              g_error ("case %zu, %s, cell %zu: %g", c, precision_name (precisions[p]), cell, values[p][cell]);
          shepard_grid beyond = grid;
          beyond.x_min = 1e308;
          assert_engine_status (shepard_engine_interpolate_grid (engine, &cases[c], &beyond,
                                                                 &(shepard_outputs) { values[p], NULL, NULL }, NULL,
                                                                 NULL, &error), &error,
                                SHEPARD_ERROR_INVALID_ARGUMENT);
          shepard_engine_free (engine);
        }
      for (size_t cell = 0; cell < 100; cell++)
        if (isfinite (values[0][cell]))
          g_assert_cmpfloat (fabs (values[1][cell] - values[0][cell]), <=, 1e-5 * DBL_MAX);
    }
  point_set_free (points);
}

/* One bad option per case, set on IDW's defaults. */
static void
break_params (shepard_params *p, int which)
{
  switch (which)
    {
    case 0: p->radius1 = p->radius2 = -1.0; break;
    case 1: p->radius1 = 3.0; break;
    case 2: p->angle = 30.0; break;
    case 3: p->neighbors = 8; p->min_points = 12; break;
    case 4: p->max_points_per_quadrant = 2; p->min_points_per_quadrant = 3; break;
    case 5: p->max_points_per_quadrant = SHEPARD_MAX_NEIGHBORS + 1; break;
    case 6: p->smoothing = -1.0; break;
    case 7: p->smoothing = NAN; break;
    case 8: p->radius1 = p->radius2 = 1.0; p->angle = INFINITY; break;
    default: p->min_points = -1; break;
    }
}

static void
test_validation (void)
{
  static const char *const says[] = {
    "The search radius must be greater than 0 (radius=-1).",
    "radius2",
    "angle needs radius1 and radius2",
    "min_points (12) is larger than max_points (8): no cell could get a value.",
    "min_points_per_quadrant (3) is larger than max_points_per_quadrant (2)",
    "max_points_per_quadrant",
    "smoothing",
    "smoothing",
    "angle",
    "min_points",
  };
  for (int c = 0; c < (int) G_N_ELEMENTS (says); c++)
    {
      shepard_params params;
      shepard_params_init_idw (&params);
      break_params (&params, c);
      shepard_error error = { 0 };
      assert_engine_status (shepard_params_validate (&params, &error), &error, SHEPARD_ERROR_INVALID_ARGUMENT);
      if (!strstr (error.message, says[c]))
        g_error ("case %d: \"%s\" does not say \"%s\"", c, error.message, says[c]);
    }
  shepard_params a, b;
  shepard_params_init_aidw (&a);
  b = a;
  g_assert_true (shepard_params_weight_all_points (&a));
  b.smoothing = 1.0;
  g_assert_false (shepard_params_equal (&a, &b));
  g_assert_true (shepard_params_weight_all_points (&b));
  b = a;
  b.min_points_per_quadrant = 1;
  g_assert_false (shepard_params_equal (&a, &b));
  g_assert_false (shepard_params_weight_all_points (&b));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t o = 0; o < G_N_ELEMENTS (option_cases); o++)
    for (method_choice m = METHOD_IDW_P2; m <= METHOD_AIDW; m++)
      for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
        {
          reference_case *test = g_new (reference_case, 1);
          *test = (reference_case) { option_cases[o], m, precisions[p] };
          char *path = g_strdup_printf ("/compute/neighbourhood/reference/%s/%s/%s", option_cases[o].name,
                                        method_names[m], precision_name (precisions[p]));
          g_test_add_data_func_full (path, test, test_against_reference, g_free);
          g_free (path);
          if (m == METHOD_IDW_P1_5)
            continue;
          test = g_new (reference_case, 1);
          *test = (reference_case) { option_cases[o], m, precisions[p] };
          path = g_strdup_printf ("/compute/neighbourhood/fields/%s/%s/%s", option_cases[o].name, method_names[m],
                                  precision_name (precisions[p]));
          g_test_add_data_func_full (path, test, test_fields_equal_single_runs, g_free);
          g_free (path);
        }
  for (size_t o = 0; o < G_N_ELEMENTS (option_cases); o++)
    {
      char *path = g_strdup_printf ("/compute/neighbourhood/explain/%s", option_cases[o].name);
      g_test_add_data_func (path, &option_cases[o], test_explain_follows_selection);
      g_free (path);
    }
  g_test_add_func ("/compute/neighbourhood/hand/quadrants", test_quadrants_by_hand);
  g_test_add_func ("/compute/neighbourhood/hand/ellipse", test_ellipse_by_hand);
  g_test_add_func ("/compute/neighbourhood/hand/min-points", test_min_points_by_hand);
  g_test_add_func ("/compute/neighbourhood/hand/smoothing", test_smoothing_by_hand);
  for (size_t p = 0; p < G_N_ELEMENTS (precisions); p++)
    {
      char *path = g_strdup_printf ("/compute/neighbourhood/cross-validation/radius/%s",
                                    precision_name (precisions[p]));
      g_test_add_data_func (path, GINT_TO_POINTER (precisions[p]), test_cross_validation_with_radius);
      g_free (path);
    }
  g_test_add_func ("/compute/neighbourhood/extreme-values", test_extreme_values);
  g_test_add_func ("/compute/neighbourhood/validation", test_validation);
  return g_test_run ();
}
