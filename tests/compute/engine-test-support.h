/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every engine test needs: engines with points, status assertions that show the engine's message, and a tally
 * of the worst deviation from an expectation. */
#ifndef ENGINE_TEST_SUPPORT_H
#define ENGINE_TEST_SUPPORT_H

#include <glib.h>
#include <string.h>

#include "point-layouts.h"
#include "shepard-engine.h"

/* Asserts the status, and on an error that the engine filled the error with that code and a message. */
#define assert_engine_status(status, error, expected)                                                            \
  G_STMT_START                                                                                                   \
  {                                                                                                              \
    shepard_status actual_status_ = (status);                                                                    \
    if (actual_status_ != SHEPARD_OK)                                                                            \
      g_test_message ("engine said (%s): %s", shepard_status_name (actual_status_), (error)->message);           \
    g_assert_cmpstr (shepard_status_name (actual_status_), ==, shepard_status_name (expected));                  \
    if ((expected) != SHEPARD_OK)                                                                                \
      {                                                                                                          \
        g_assert_cmpint ((error)->code, ==, (expected));                                                         \
        g_assert_cmpuint (strnlen ((error)->message, sizeof (error)->message), >, 0);                            \
        g_assert_cmpuint (strnlen ((error)->message, sizeof (error)->message), <, sizeof (error)->message);      \
      }                                                                                                          \
  }                                                                                                              \
  G_STMT_END

/* The backend the engine tests run on: SHEPARD_TEST_BACKEND=cpu|cuda|auto, the CPU when unset. */
shepard_backend test_backend (void);

/* test_backend (), except that float64 runs on the CPU under cuda (the GPU computes in float32). */
shepard_backend test_backend_for (shepard_precision precision);

/* A new engine on test_backend () holding the points; fails the test if either step fails. */
shepard_engine *engine_new_with_points (shepard_precision precision, int threads, const point_set *points);
/* The same on the given backend. */
shepard_engine *engine_on_with_points (shepard_backend backend, shepard_precision precision, int threads,
                                       const point_set *points);

/* shepard_engine_interpolate_grid into values (the first field); fails the test on an error. */
/* The method's defaults with max_points `neighbors` and a circle of `radius` (0: none). */
shepard_params params_with_neighbourhood (shepard_method method, int neighbors, double radius);

void interpolate_grid_or_fail (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                               double *values);

/* The largest of n values less the smallest: the norm of the far field's promise. */
double values_range (const double *z, size_t n);
/* The largest |actual[i] - expected[i]| over n values; fails the test where an actual value is not finite. */
double largest_difference (const double *actual, const double *expected, size_t n);

const char *precision_name (shepard_precision precision);

/* Whether the CUDA backend runs here (probed once); when it does not, marks the test skipped, saying why. */
gboolean cuda_device_or_skip (void);

/* The centre of a raster cell, numbered row after row from the top left. */
void grid_cell_centre (const shepard_grid *grid, size_t cell, double *x, double *y);

/* Largest |z|: the scale of a field, against which value errors are measured (a weighted mean of values can come
 * arbitrarily close to zero, so an error relative to the result itself would mean nothing there). */
double point_set_value_scale (const point_set *points);

typedef struct {
  const char *what;
  double tolerance;
  double worst;
  size_t worst_index;
  double worst_actual;
  double worst_expected;
  size_t compared;
} deviation_tally;

void deviation_tally_init (deviation_tally *tally, const char *what, double tolerance);
/* Records |actual - expected| / scale; a non-finite actual counts as an infinite deviation. */
void deviation_tally_add (deviation_tally *tally, size_t index, double actual, double expected, double scale);
/* Reports the worst deviation and fails the test if it exceeds the tolerance. */
void deviation_tally_check (const deviation_tally *tally);

#endif /* ENGINE_TEST_SUPPORT_H */
