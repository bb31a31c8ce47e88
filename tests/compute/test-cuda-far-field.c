/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPU's far field (shepard-engine.h, "Far-field summation") against the CPU's float64 brute force, and against
 * the CPU's far field: every layout that breaks tree codes (uniform, clustered, duplicated, UTM offsets, points on a
 * line, one dense cluster with far outliers), IDW powers 1 to 6 and AIDW with alphas from 0.5 to 6, 1 to 1,000,003
 * points, data points hit exactly, never NaN, the device grid as the host outputs. The promise: tolerance x the value
 * range; beyond it only the CUDA results' float32, the value stored (2^-24 of local values within [-1, 1], so
 * FLOAT32_SLACK of the range) and, for AIDW, alpha (AIDW_SLACK: alpha to 2^-24 moves weights by up to
 * alpha 2^-25 |ln ratio|). Every case skips, saying why, where there is no CUDA device. */
#include "engine-test-support.h"
#include "point-layouts.h"

#include <float.h>
#include <glib.h>
#include <math.h>

#define FLOAT32_SLACK 2.5e-7
#define AIDW_SLACK 4e-6
#define LINE_LAYOUT ((point_layout) 100) /* points on one line, made here */

typedef struct {
  char name[64];
  point_layout layout;
  size_t count;
  shepard_method method;
  double power;    /* IDW */
  double alpha[5]; /* AIDW; all 0: the defaults */
  double tolerance;
  size_t width, height;
} far_case;

static point_set *
points_for (point_layout layout, size_t count)
{
  if (layout != LINE_LAYOUT)
    return point_set_new (layout, count, 2026 + count);
  point_set *points = point_set_new_empty (count);
  for (size_t i = 0; i < count; i++)
    {
      double t = (double) ((i * 7919) % count) / (double) count;
      points->x[i] = 100.0 + 800.0 * t;
      points->y[i] = 50.0 + 0.5 * 800.0 * t;
      points->z[i] = sin (20.0 * t) + 0.1 * (double) (i % 5);
    }
  return points;
}

/* width x height cells over the points' box and a margin. */
static shepard_grid
grid_over (const point_set *points, size_t width, size_t height)
{
  double x_min = INFINITY, x_max = -INFINITY, y_min = INFINITY, y_max = -INFINITY;
  for (size_t i = 0; i < points->count; i++)
    {
      x_min = fmin (x_min, points->x[i]);
      x_max = fmax (x_max, points->x[i]);
      y_min = fmin (y_min, points->y[i]);
      y_max = fmax (y_max, points->y[i]);
    }
  double side = fmax (fmax (x_max - x_min, y_max - y_min), 1.0) * 1.1;
  shepard_grid grid = { .dx = side / (double) width, .dy = side / (double) height, .width = width,
                        .height = height };
  grid.x_min = points->x[0] - ((double) (width / 4) + 0.5) * grid.dx;
  grid.y_max = points->y[0] + ((double) (height / 3) + 0.5) * grid.dy;
  return grid;
}

static shepard_params
params_of (const far_case *test, shepard_summation summation)
{
  shepard_params params;
  if (test->method == SHEPARD_METHOD_AIDW)
    {
      shepard_params_init_aidw (&params);
      if (test->alpha[0] > 0.0)
        for (int level = 0; level < 5; level++)
          params.alpha[level] = test->alpha[level];
    }
  else
    {
      shepard_params_init_idw (&params);
      params.power = test->power;
    }
  params.summation = summation;
  params.tolerance = test->tolerance;
  /* Points on a line span no area: AIDW takes the one given (the line's bounding box). */
  if (test->layout == LINE_LAYOUT && test->method == SHEPARD_METHOD_AIDW)
    {
      params.area_mode = SHEPARD_AREA_GIVEN;
      params.area = 800.0 * 400.0;
    }
  return params;
}

static void
test_against_float64 (gconstpointer data)
{
  const far_case *test = data;
  if (!cuda_device_or_skip ())
    return;
  /* Under compute-sanitizer the largest cases take minutes: SHEPARD_TEST_CUDA_MAX_POINTS leaves them out, saying so. */
  const char *max_points = g_getenv ("SHEPARD_TEST_CUDA_MAX_POINTS");
  if (max_points && test->count > (size_t) g_ascii_strtoull (max_points, NULL, 10))
    {
      g_test_skip ("more points than SHEPARD_TEST_CUDA_MAX_POINTS");
      return;
    }
  point_set *points = points_for (test->layout, test->count);
  shepard_grid grid = grid_over (points, test->width, test->height);
  size_t cells = grid.width * grid.height;
  double *far = g_new (double, cells), *exact = g_new (double, cells);
  shepard_engine *gpu = engine_on_with_points (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, points);
  shepard_engine *cpu = engine_on_with_points (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, points);
  shepard_params far_params = params_of (test, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpint (shepard_engine_summation (gpu, &far_params, cells), ==, SHEPARD_SUMMATION_FAR_FIELD);
  interpolate_grid_or_fail (gpu, &far_params, &grid, far);
  shepard_params exact_params = params_of (test, SHEPARD_SUMMATION_EXACT);
  interpolate_grid_or_fail (cpu, &exact_params, &grid, exact);

  double range = values_range (points->z, points->count);
  double slack = test->method == SHEPARD_METHOD_AIDW ? AIDW_SLACK : FLOAT32_SLACK;
  if (range == 0.0)
    range = 1.0;
  double worst = largest_difference (far, exact, cells);
  g_test_message ("%s: largest difference %.3g of the value range (tolerance %g)", test->name, worst / range,
                  test->tolerance);
  g_assert_cmpfloat (worst, <=, (test->tolerance + slack) * range);
  /* Queries on data points (tiles of query points given one by one): each takes that point's value, or the mean of
   * the points there (duplicates), as the float64 brute force does. */
  enum { ON_POINTS = 5 };
  double on_x[ON_POINTS], on_y[ON_POINTS], on_far[ON_POINTS], on_exact[ON_POINTS];
  for (size_t k = 0; k < ON_POINTS; k++)
    {
      size_t i = k * (points->count - 1) / (ON_POINTS - 1);
      on_x[k] = points->x[i];
      on_y[k] = points->y[i];
    }
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_interpolate_points (gpu, &far_params, on_x, on_y, ON_POINTS,
                                                           &(shepard_outputs) { on_far, NULL, NULL }, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_interpolate_points (cpu, &exact_params, on_x, on_y, ON_POINTS,
                                                           &(shepard_outputs) { on_exact, NULL, NULL }, NULL, NULL,
                                                           &error), &error, SHEPARD_OK);
  for (size_t k = 0; k < ON_POINTS; k++)
    {
      g_assert_cmpfloat (fabs (on_far[k] - on_exact[k]), <=, FLOAT32_SLACK * range);
      /* Where no other point lies within the coincident tolerance, the point's own value, exactly. */
      if (test->layout != POINT_LAYOUT_DUPLICATES && test->layout != POINT_LAYOUT_CLUSTER_OUTLIERS)
        g_assert_cmpfloat (on_exact[k], ==, points->z[k * (points->count - 1) / (ON_POINTS - 1)]);
    }

  g_free (far);
  g_free (exact);
  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* The GPU's and the CPU's far fields keep the same promise over the same tree: within both tolerances of each other. */
static void
test_against_cpu_far_field (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = points_for (POINT_LAYOUT_CLUSTERS, 50000);
  shepard_grid grid = grid_over (points, 128, 96);
  size_t cells = grid.width * grid.height;
  double *gpu_values = g_new (double, cells), *cpu_values = g_new (double, cells);
  shepard_engine *gpu = engine_on_with_points (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, points);
  shepard_engine *cpu = engine_on_with_points (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, points);
  const double tolerances[] = { 1e-3, 1e-7 };
  for (size_t t = 0; t < G_N_ELEMENTS (tolerances); t++)
    for (int method = 0; method < 2; method++)
      {
        far_case test = { .method = method ? SHEPARD_METHOD_AIDW : SHEPARD_METHOD_IDW, .power = 2.0,
                          .tolerance = tolerances[t] };
        shepard_params params = params_of (&test, SHEPARD_SUMMATION_FAR_FIELD);
        interpolate_grid_or_fail (gpu, &params, &grid, gpu_values);
        interpolate_grid_or_fail (cpu, &params, &grid, cpu_values);
        double range = values_range (points->z, points->count), worst = 0.0;
        for (size_t i = 0; i < cells; i++)
          worst = fmax (worst, fabs (gpu_values[i] - cpu_values[i]));
        g_test_message ("%s, tolerance %g: GPU and CPU far fields differ by %.3g of the range",
                        method ? "AIDW" : "IDW p2", tolerances[t], worst / range);
        g_assert_cmpfloat (worst, <=, (2.0 * tolerances[t] + (method ? AIDW_SLACK : FLOAT32_SLACK)) * range);
      }
  g_free (gpu_values);
  g_free (cpu_values);
  shepard_engine_free (gpu);
  shepard_engine_free (cpu);
  point_set_free (points);
}

/* The live preview's path, into a device grid, gives what the host outputs hold. */
static void
test_device_grid (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *points = points_for (POINT_LAYOUT_UNIFORM, 30000);
  shepard_grid grid = grid_over (points, 200, 150);
  size_t cells = grid.width * grid.height;
  shepard_engine *gpu = engine_on_with_points (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, points);
  far_case test = { .method = SHEPARD_METHOD_AIDW, .tolerance = 1e-6 };
  shepard_params params = params_of (&test, SHEPARD_SUMMATION_FAR_FIELD);
  double *host = g_new (double, cells);
  float *device_values = g_new (float, cells);
  interpolate_grid_or_fail (gpu, &params, &grid, host);
  shepard_error error = { 0 };
  shepard_device_grid *target = NULL;
  assert_engine_status (shepard_device_grid_new (gpu, &target, &error), &error, SHEPARD_OK);
  assert_engine_status (shepard_engine_interpolate_grid_to_device (gpu, &params, &grid, target, NULL, NULL, &error),
                        &error, SHEPARD_OK);
  assert_engine_status (shepard_device_grid_read (target, 0, cells, device_values, NULL, &error), &error, SHEPARD_OK);
  double range = values_range (points->z, points->count);
  for (size_t i = 0; i < cells; i++)
    g_assert_cmpfloat (fabs (device_values[i] - host[i]), <=,
                       FLOAT32_SLACK * range + 4.0 * FLT_EPSILON * fabs (host[i]));
  shepard_device_grid_free (target);
  g_free (host);
  g_free (device_values);
  shepard_engine_free (gpu);
  point_set_free (points);
}

/* auto on a CUDA engine: the far field for 1M points over 1024^2 once the tree is built, the brute force for few
 * points or before the tree (whose build on the CPU costs more than the GPU's brute force of one grid). */
static void
test_auto_choice (void)
{
  if (!cuda_device_or_skip ())
    return;
  point_set *many = points_for (POINT_LAYOUT_UNIFORM, 1000000), *few = points_for (POINT_LAYOUT_UNIFORM, 2000);
  shepard_engine *gpu = engine_on_with_points (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 0, many);
  shepard_params params;
  shepard_params_init_aidw (&params);
  g_assert_cmpint (shepard_engine_summation (gpu, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_EXACT);
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_prepare_far_field (gpu, NULL, NULL, &error), &error, SHEPARD_OK);
  g_assert_cmpint (shepard_engine_summation (gpu, &params, 1024 * 1024), ==, SHEPARD_SUMMATION_FAR_FIELD);
  assert_engine_status (shepard_engine_set_points (gpu, few->x, few->y, few->z, few->count, &error), &error,
                        SHEPARD_OK);
  g_assert_cmpint (shepard_engine_summation (gpu, &params, 256 * 256), ==, SHEPARD_SUMMATION_EXACT);
  shepard_engine_free (gpu);
  point_set_free (many);
  point_set_free (few);
}

static far_case cases[96];
static size_t case_count;

static void
add_case (const char *name, point_layout layout, size_t count, shepard_method method, double power,
          const double *alpha, double tolerance, size_t width, size_t height)
{
  g_assert_cmpuint (case_count, <, G_N_ELEMENTS (cases));
  far_case *test = &cases[case_count++];
  g_snprintf (test->name, sizeof test->name, "%s", name);
  test->layout = layout;
  test->count = count;
  test->method = method;
  test->power = power;
  for (int level = 0; level < 5; level++)
    test->alpha[level] = alpha ? alpha[level] : 0.0;
  test->tolerance = tolerance;
  test->width = width;
  test->height = height;
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  const point_layout layouts[] = { POINT_LAYOUT_UNIFORM, POINT_LAYOUT_CLUSTERS, POINT_LAYOUT_DUPLICATES,
                                   POINT_LAYOUT_UTM, POINT_LAYOUT_CLUSTER_OUTLIERS, LINE_LAYOUT };
  const double wide_alpha[5] = { 0.5, 1.5, 3.0, 4.5, 6.0 };
  for (size_t l = 0; l < G_N_ELEMENTS (layouts); l++)
    {
      const char *layout = layouts[l] == LINE_LAYOUT ? "line" : point_layout_name (layouts[l]);
      char name[64];
      for (int power = 1; power <= 6; power++)
        {
          g_snprintf (name, sizeof name, "%s/idw-p%d", layout, power);
          add_case (name, layouts[l], 20000, SHEPARD_METHOD_IDW, power, NULL, power % 2 ? 1e-3 : 1e-5, 61, 47);
        }
      g_snprintf (name, sizeof name, "%s/aidw-alpha-0.5-6", layout);
      add_case (name, layouts[l], 20000, SHEPARD_METHOD_AIDW, 0.0, wide_alpha, 1e-6, 61, 47);
      g_snprintf (name, sizeof name, "%s/aidw-defaults-1e-3", layout);
      add_case (name, layouts[l], 20000, SHEPARD_METHOD_AIDW, 0.0, NULL, 1e-3, 61, 47);
    }
  const size_t counts[] = { 1, 2, 3, 17, 1000, 100003, 1000003 };
  for (size_t c = 0; c < G_N_ELEMENTS (counts); c++)
    {
      char name[64];
      size_t side = counts[c] > 100003 ? 32 : 61;
      /* AIDW needs an area: one or two points span none. */
      if (counts[c] >= 3)
        {
          g_snprintf (name, sizeof name, "points-%zu/aidw", counts[c]);
          add_case (name, POINT_LAYOUT_UNIFORM, counts[c], SHEPARD_METHOD_AIDW, 0.0, NULL, 1e-6, side, side);
        }
      g_snprintf (name, sizeof name, "points-%zu/idw-p2", counts[c]);
      add_case (name, POINT_LAYOUT_UNIFORM, counts[c], SHEPARD_METHOD_IDW, 2.0, NULL, 1e-7, side, side);
    }
  for (size_t c = 0; c < case_count; c++)
    {
      g_autofree char *path = g_strdup_printf ("/cuda-far-field/%s", cases[c].name);
      g_test_add_data_func (path, &cases[c], test_against_float64);
    }
  g_test_add_func ("/cuda-far-field/against-cpu-far-field", test_against_cpu_far_field);
  g_test_add_func ("/cuda-far-field/device-grid", test_device_grid);
  g_test_add_func ("/cuda-far-field/auto", test_auto_choice);
  return g_test_run ();
}
