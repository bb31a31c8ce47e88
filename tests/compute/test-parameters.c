/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every way to hand the engine something it cannot work with gives the right error code and a message. */
#include <glib.h>
#include <math.h>
#include <stdint.h>

#include "engine-test-support.h"

typedef enum {
  FIELD_POWER,
  FIELD_K,
  FIELD_ALPHA,
  FIELD_R_MIN,
  FIELD_R_MAX,
  FIELD_GIVEN_AREA,
  FIELD_NEIGHBORS,
} parameter_field;

typedef struct {
  const char *name;
  shepard_method method;
  parameter_field field;
  int level; /* FIELD_ALPHA: which of alpha1..alpha5 */
  double value;
} parameter_case;

static shepard_params
params_with (const parameter_case *test_case)
{
  shepard_params params;
  if (test_case->method == SHEPARD_METHOD_IDW)
    shepard_params_init_idw (&params);
  else
    shepard_params_init_aidw (&params);
  switch (test_case->field)
    {
    case FIELD_POWER:
      params.power = test_case->value;
      break;
    case FIELD_K:
      params.k = (int) test_case->value;
      break;
    case FIELD_ALPHA:
      params.alpha[test_case->level] = test_case->value;
      break;
    case FIELD_R_MIN:
      params.r_min = test_case->value;
      break;
    case FIELD_R_MAX:
      params.r_max = test_case->value;
      break;
    case FIELD_GIVEN_AREA:
      params.area_mode = SHEPARD_AREA_GIVEN;
      params.area = test_case->value;
      break;
    case FIELD_NEIGHBORS:
      params.neighbors = (int) test_case->value;
      break;
    }
  return params;
}

static const parameter_case invalid_cases[] = {
  { "power 0", SHEPARD_METHOD_IDW, FIELD_POWER, 0, 0.0 },
  { "power -1", SHEPARD_METHOD_IDW, FIELD_POWER, 0, -1.0 },
  { "power NaN", SHEPARD_METHOD_IDW, FIELD_POWER, 0, NAN },
  { "power -inf", SHEPARD_METHOD_IDW, FIELD_POWER, 0, -INFINITY },
  { "k 0", SHEPARD_METHOD_AIDW, FIELD_K, 0, 0 },
  { "k -3", SHEPARD_METHOD_AIDW, FIELD_K, 0, -3 },
  { "k above SHEPARD_MAX_NEIGHBORS", SHEPARD_METHOD_AIDW, FIELD_K, 0, SHEPARD_MAX_NEIGHBORS + 1 },
  { "alpha1 0", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 0, 0.0 },
  { "alpha2 -1", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 1, -1.0 },
  { "alpha3 NaN", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 2, NAN },
  { "alpha4 +inf", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 3, INFINITY },
  { "alpha5 -inf", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 4, -INFINITY },
  { "alpha5 0", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 4, 0.0 },
  { "Rmin -0.1", SHEPARD_METHOD_AIDW, FIELD_R_MIN, 0, -0.1 },
  /* NaN fails every comparison, so a check written as "Rmax <= Rmin" alone lets it through. */
  { "Rmin NaN", SHEPARD_METHOD_AIDW, FIELD_R_MIN, 0, NAN },
  { "Rmin equal to Rmax", SHEPARD_METHOD_AIDW, FIELD_R_MIN, 0, 2.0 },
  { "Rmin above Rmax", SHEPARD_METHOD_AIDW, FIELD_R_MIN, 0, 3.0 },
  { "Rmax equal to Rmin", SHEPARD_METHOD_AIDW, FIELD_R_MAX, 0, 0.0 },
  { "Rmax below Rmin", SHEPARD_METHOD_AIDW, FIELD_R_MAX, 0, -1.0 },
  { "Rmax NaN", SHEPARD_METHOD_AIDW, FIELD_R_MAX, 0, NAN },
  { "given area 0", SHEPARD_METHOD_AIDW, FIELD_GIVEN_AREA, 0, 0.0 },
  { "given area -5", SHEPARD_METHOD_AIDW, FIELD_GIVEN_AREA, 0, -5.0 },
  { "given area NaN", SHEPARD_METHOD_AIDW, FIELD_GIVEN_AREA, 0, NAN },
  { "IDW neighbours -1", SHEPARD_METHOD_IDW, FIELD_NEIGHBORS, 0, -1 },
  { "IDW neighbours above SHEPARD_MAX_NEIGHBORS", SHEPARD_METHOD_IDW, FIELD_NEIGHBORS, 0, SHEPARD_MAX_NEIGHBORS + 1 },
  { "AIDW neighbours -1", SHEPARD_METHOD_AIDW, FIELD_NEIGHBORS, 0, -1 },
  { "AIDW neighbours above SHEPARD_MAX_NEIGHBORS", SHEPARD_METHOD_AIDW, FIELD_NEIGHBORS, 0,
    SHEPARD_MAX_NEIGHBORS + 1 },
};

/* The edges of the valid ranges, which must not be rejected along with their invalid neighbours. */
static const parameter_case valid_cases[] = {
  { "power 0.01", SHEPARD_METHOD_IDW, FIELD_POWER, 0, 0.01 },
  { "power 6", SHEPARD_METHOD_IDW, FIELD_POWER, 0, 6.0 },
  { "k 1", SHEPARD_METHOD_AIDW, FIELD_K, 0, 1 },
  { "k SHEPARD_MAX_NEIGHBORS", SHEPARD_METHOD_AIDW, FIELD_K, 0, SHEPARD_MAX_NEIGHBORS },
  { "alpha1 0.01", SHEPARD_METHOD_AIDW, FIELD_ALPHA, 0, 0.01 },
  { "Rmin 1.9", SHEPARD_METHOD_AIDW, FIELD_R_MIN, 0, 1.9 },
  { "Rmax 1e-6", SHEPARD_METHOD_AIDW, FIELD_R_MAX, 0, 1e-6 },
  { "given area 1e-6", SHEPARD_METHOD_AIDW, FIELD_GIVEN_AREA, 0, 1e-6 },
  { "IDW neighbours 1", SHEPARD_METHOD_IDW, FIELD_NEIGHBORS, 0, 1 },
  { "AIDW neighbours SHEPARD_MAX_NEIGHBORS", SHEPARD_METHOD_AIDW, FIELD_NEIGHBORS, 0, SHEPARD_MAX_NEIGHBORS },
};

static void
test_defaults (void)
{
  shepard_params idw, aidw;
  shepard_error error = { 0 };
  shepard_params_init_idw (&idw);
  shepard_params_init_aidw (&aidw);

  g_assert_cmpint (idw.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (idw.power, ==, 2.0);
  g_assert_cmpint (idw.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  assert_engine_status (shepard_params_validate (&idw, &error), &error, SHEPARD_OK);

  static const double default_levels[SHEPARD_AIDW_LEVELS] = { 1.5, 2.0, 2.5, 3.0, 3.5 };
  g_assert_cmpint (aidw.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (aidw.k, ==, 15);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (aidw.alpha[level], ==, default_levels[level]);
  g_assert_cmpfloat (aidw.r_min, ==, 0.0);
  g_assert_cmpfloat (aidw.r_max, ==, 2.0);
  g_assert_cmpint (aidw.area_mode, ==, SHEPARD_AREA_BOUNDING_BOX);
  g_assert_cmpint (aidw.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  assert_engine_status (shepard_params_validate (&aidw, &error), &error, SHEPARD_OK);
}

static point_set *
small_point_set (void)
{
  return point_set_new (POINT_LAYOUT_UNIFORM, 37, 7001);
}

static const shepard_grid small_grid = { .x_min = 0.0, .y_max = 700.0, .dx = 250.0, .dy = 175.0, .width = 4,
                                         .height = 4 };

static shepard_status
interpolate_small_grid (shepard_engine *engine, const shepard_params *params, shepard_error *error)
{
  double values[16];
  shepard_outputs outputs = { .values = values };
  return shepard_engine_interpolate_grid (engine, params, &small_grid, &outputs, NULL, NULL, error);
}

static shepard_status
interpolate_two_points (shepard_engine *engine, const shepard_params *params, shepard_error *error)
{
  const double query_x[] = { 10.0, 990.0 }, query_y[] = { 20.0, 680.0 };
  double values[2];
  shepard_outputs outputs = { .values = values };
  return shepard_engine_interpolate_points (engine, params, query_x, query_y, 2, &outputs, NULL, NULL, error);
}

static void
test_invalid_parameters (void)
{
  point_set *points = small_point_set ();
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);

  for (size_t i = 0; i < G_N_ELEMENTS (invalid_cases); i++)
    {
      shepard_params params = params_with (&invalid_cases[i]);
      g_test_message ("invalid: %s", invalid_cases[i].name);
      shepard_error error = { 0 };
      assert_engine_status (shepard_params_validate (&params, &error), &error, SHEPARD_ERROR_INVALID_ARGUMENT);
      /* An engine checks the parameters again before it uses them. */
      error = (shepard_error) { 0 };
      assert_engine_status (interpolate_small_grid (engine, &params, &error), &error,
                            SHEPARD_ERROR_INVALID_ARGUMENT);
      error = (shepard_error) { 0 };
      assert_engine_status (interpolate_two_points (engine, &params, &error), &error,
                            SHEPARD_ERROR_INVALID_ARGUMENT);
    }

  for (size_t i = 0; i < G_N_ELEMENTS (valid_cases); i++)
    {
      shepard_params params = params_with (&valid_cases[i]);
      g_test_message ("valid: %s", valid_cases[i].name);
      shepard_error error = { 0 };
      assert_engine_status (shepard_params_validate (&params, &error), &error, SHEPARD_OK);
      assert_engine_status (interpolate_small_grid (engine, &params, &error), &error, SHEPARD_OK);
    }
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_invalid_grid (void)
{
  point_set *points = small_point_set ();
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  shepard_params params;
  shepard_params_init_idw (&params);
  const double bad_spacings[] = { 0.0, -1.0, NAN, INFINITY };
  double values[4];
  shepard_outputs outputs = { .values = values };

  for (size_t i = 0; i < G_N_ELEMENTS (bad_spacings); i++)
    for (int axis = 0; axis < 2; axis++)
      {
        shepard_grid grid = { .x_min = 0.0, .y_max = 700.0, .dx = 100.0, .dy = 100.0, .width = 2, .height = 2 };
        if (axis == 0)
          grid.dx = bad_spacings[i];
        else
          grid.dy = bad_spacings[i];
        g_test_message ("%s = %g", axis == 0 ? "dx" : "dy", bad_spacings[i]);
        shepard_error error = { 0 };
        assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &error),
                              &error, SHEPARD_ERROR_INVALID_ARGUMENT);
      }
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_size_overflow (void)
{
  point_set *points = small_point_set ();
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  shepard_params params;
  shepard_params_init_idw (&params);
  /* Never written: the size check comes first. */
  double values[4];
  shepard_outputs outputs = { .values = values };
  const size_t shapes[][2] = {
    { SIZE_MAX / 2 + 1, 2 },
    { 3, SIZE_MAX / 3 + 1 },
    { SIZE_MAX, SIZE_MAX },
    { (size_t) 1 << (sizeof (size_t) * 4), (size_t) 1 << (sizeof (size_t) * 4) },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (shapes); i++)
    {
      shepard_grid grid = { .x_min = 0.0, .y_max = 700.0, .dx = 1e-9, .dy = 1e-9, .width = shapes[i][0],
                            .height = shapes[i][1] };
      g_test_message ("grid %zu x %zu", grid.width, grid.height);
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_interpolate_grid (engine, &params, &grid, &outputs, NULL, NULL, &error),
                            &error, SHEPARD_ERROR_SIZE_OVERFLOW);
    }
  shepard_engine_free (engine);
  point_set_free (points);
}

static void
test_no_points (void)
{
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (test_backend_for (SHEPARD_PRECISION_FLOAT64), SHEPARD_PRECISION_FLOAT64,
                                               0, &error);
  g_assert_nonnull (engine);
  shepard_params params;
  shepard_params_init_idw (&params);

  g_test_message ("an engine that was never given points");
  assert_engine_status (interpolate_small_grid (engine, &params, &error), &error, SHEPARD_ERROR_NO_POINTS);
  error = (shepard_error) { 0 };
  assert_engine_status (interpolate_two_points (engine, &params, &error), &error, SHEPARD_ERROR_NO_POINTS);
  const double query = 1.0;
  double squared_distance;
  size_t index;
  error = (shepard_error) { 0 };
  assert_engine_status (shepard_engine_nearest (engine, &query, &query, 1, 1, &squared_distance, &index, &error),
                        &error, SHEPARD_ERROR_NO_POINTS);

  g_test_message ("an empty point set");
  const double coordinate = 0.0;
  error = (shepard_error) { 0 };
  assert_engine_status (shepard_engine_set_points (engine, &coordinate, &coordinate, &coordinate, 0, &error), &error,
                        SHEPARD_ERROR_NO_POINTS);
  shepard_engine_free (engine);
}

static void
test_non_finite_points (void)
{
  const double not_finite[] = { NAN, INFINITY, -INFINITY };
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (test_backend_for (SHEPARD_PRECISION_FLOAT64), SHEPARD_PRECISION_FLOAT64,
                                               0, &error);
  g_assert_nonnull (engine);

  for (size_t i = 0; i < G_N_ELEMENTS (not_finite); i++)
    for (int column = 0; column < 3; column++)
      {
        point_set *points = small_point_set ();
        double *target = column == 0 ? points->x : column == 1 ? points->y : points->z;
        target[points->count / 2] = not_finite[i];
        g_test_message ("%c = %g in point %zu", "xyz"[column], not_finite[i], points->count / 2);
        error = (shepard_error) { 0 };
        assert_engine_status (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count,
                                                         &error),
                              &error, SHEPARD_ERROR_INVALID_ARGUMENT);
        point_set_free (points);
      }
  shepard_engine_free (engine);
}

static void
test_nearest_invalid_k (void)
{
  point_set *points = small_point_set ();
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  const int bad_k[] = { 0, -1 };
  const double query = 100.0;
  double squared_distances[1];
  size_t indices[1];
  for (size_t i = 0; i < G_N_ELEMENTS (bad_k); i++)
    {
      g_test_message ("k = %d", bad_k[i]);
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_nearest (engine, &query, &query, 1, bad_k[i], squared_distances, indices,
                                                    &error),
                            &error, SHEPARD_ERROR_INVALID_ARGUMENT);
    }
  shepard_engine_free (engine);
  point_set_free (points);
}

typedef struct {
  const char *name;
  size_t count;
  double x0, y0, dx, dy; /* point i at (x0 + i dx, y0 + i dy) */
  shepard_area_mode area_mode;
  shepard_status expected;
} degenerate_case;

/* A = 0 makes r_exp 0 and every R infinite: points on a line or on one spot are refused for AIDW, and the same
 * points must work once the user gives A (or with IDW, which needs no area). A diagonal line has a bounding box that
 * is not empty, but it is still a line: issue 2 lists "collinear for AIDW" among the inputs to refuse. */
static const degenerate_case degenerate_cases[] = {
  { "horizontal line, bounding box", 20, 0.0, 5.0, 3.0, 0.0, SHEPARD_AREA_BOUNDING_BOX, SHEPARD_ERROR_DEGENERATE_AREA },
  { "horizontal line, hull", 20, 0.0, 5.0, 3.0, 0.0, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
  { "vertical line, bounding box", 20, 5.0, 0.0, 0.0, 2.0, SHEPARD_AREA_BOUNDING_BOX, SHEPARD_ERROR_DEGENERATE_AREA },
  { "vertical line, hull", 20, 5.0, 0.0, 0.0, 2.0, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
  { "diagonal line, hull", 20, 1.0, 2.0, 3.0, 1.5, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
  { "diagonal line, bounding box", 20, 1.0, 2.0, 3.0, 1.5, SHEPARD_AREA_BOUNDING_BOX,
    SHEPARD_ERROR_DEGENERATE_AREA },
  { "one spot, bounding box", 9, 4.0, 4.0, 0.0, 0.0, SHEPARD_AREA_BOUNDING_BOX, SHEPARD_ERROR_DEGENERATE_AREA },
  { "one spot, hull", 9, 4.0, 4.0, 0.0, 0.0, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
  { "one point, bounding box", 1, 4.0, 4.0, 0.0, 0.0, SHEPARD_AREA_BOUNDING_BOX, SHEPARD_ERROR_DEGENERATE_AREA },
  { "one point, hull", 1, 4.0, 4.0, 0.0, 0.0, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
  { "two points, hull", 2, 4.0, 4.0, 1.0, 1.0, SHEPARD_AREA_CONVEX_HULL, SHEPARD_ERROR_DEGENERATE_AREA },
};

static void
assert_finite_values (const double *values, size_t count)
{
  for (size_t i = 0; i < count; i++)
    g_assert_true (isfinite (values[i]));
}

static void
test_degenerate_area (void)
{
  for (size_t c = 0; c < G_N_ELEMENTS (degenerate_cases); c++)
    {
      const degenerate_case *test_case = &degenerate_cases[c];
      g_test_message ("%s", test_case->name);
      point_set *points = point_set_new_empty (test_case->count);
      double value_sum = 0.0;
      for (size_t i = 0; i < points->count; i++)
        {
          points->x[i] = test_case->x0 + (double) i * test_case->dx;
          points->y[i] = test_case->y0 + (double) i * test_case->dy;
          points->z[i] = 10.0 + (double) (i % 7);
          value_sum += points->z[i];
        }
      for (int p = 0; p < 2; p++)
        {
          shepard_precision precision = p == 0 ? SHEPARD_PRECISION_FLOAT64 : SHEPARD_PRECISION_FLOAT32;
          shepard_engine *engine = engine_new_with_points (precision, 0, points);
          shepard_params params;
          shepard_params_init_aidw (&params);
          params.area_mode = test_case->area_mode;
          shepard_error error = { 0 };
          assert_engine_status (interpolate_small_grid (engine, &params, &error), &error, test_case->expected);
          error = (shepard_error) { 0 };
          assert_engine_status (interpolate_two_points (engine, &params, &error), &error, test_case->expected);

          /* The same points with the area given, and with IDW. */
          const double query_x[] = { test_case->x0, 100.0, -50.0 }, query_y[] = { test_case->y0, 3.0, 1e4 };
          double values[G_N_ELEMENTS (query_x)];
          shepard_outputs outputs = { .values = values };
          params.area_mode = SHEPARD_AREA_GIVEN;
          params.area = 100.0;
          assert_engine_status (shepard_engine_interpolate_points (engine, &params, query_x, query_y,
                                                                   G_N_ELEMENTS (query_x), &outputs, NULL, NULL,
                                                                   &error),
                                &error, SHEPARD_OK);
          assert_finite_values (values, G_N_ELEMENTS (values));
          /* All points on one spot weigh the same from anywhere: every query gets their mean, which float32
           * values (24-bit mantissa, a sum of 9 terms) keep to well within 1e-6. */
          if (test_case->dx == 0.0 && test_case->dy == 0.0)
            for (size_t i = 0; i < G_N_ELEMENTS (values); i++)
              g_assert_cmpfloat_with_epsilon (values[i], value_sum / (double) points->count,
                                              1e-6 * (value_sum / (double) points->count));

          shepard_params idw;
          shepard_params_init_idw (&idw);
          assert_engine_status (shepard_engine_interpolate_points (engine, &idw, query_x, query_y,
                                                                   G_N_ELEMENTS (query_x), &outputs, NULL, NULL,
                                                                   &error),
                                &error, SHEPARD_OK);
          assert_finite_values (values, G_N_ELEMENTS (values));
          shepard_engine_free (engine);
        }
      point_set_free (points);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compute/parameters/defaults", test_defaults);
  g_test_add_func ("/compute/parameters/invalid", test_invalid_parameters);
  g_test_add_func ("/compute/parameters/invalid-grid", test_invalid_grid);
  g_test_add_func ("/compute/parameters/size-overflow", test_size_overflow);
  g_test_add_func ("/compute/parameters/no-points", test_no_points);
  g_test_add_func ("/compute/parameters/non-finite-points", test_non_finite_points);
  g_test_add_func ("/compute/parameters/nearest-invalid-k", test_nearest_invalid_k);
  g_test_add_func ("/compute/parameters/degenerate-area", test_degenerate_area);
  return g_test_run ();
}
