/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Round legend ticks and scale bar lengths, against ranges worked by hand. */
#include <glib.h>
#include <math.h>

#include "shepard-nice-numbers.h"

#define MAX_TICKS 7

static void
assert_ticks (double min, double max, double expected_step, const double *expected, guint n_expected)
{
  double ticks[MAX_TICKS], step = 0;
  guint count = shepard_nice_ticks (min, max, MAX_TICKS, ticks, &step);

  g_assert_cmpfloat_with_epsilon (step, expected_step, expected_step * 1e-12);
  g_assert_cmpuint (count, ==, n_expected);
  for (guint i = 0; i < count; i++)
    g_assert_cmpfloat_with_epsilon (ticks[i], expected[i], expected_step * 1e-9);
}

static void
test_ticks (void)
{
  /* meuse zinc, 113 to 1839 ppm: steps of 200 would give 9 ticks, 250 gives 7. */
  assert_ticks (113, 1839, 250, (const double[]) { 250, 500, 750, 1000, 1250, 1500, 1750 }, 7);
  /* 0 to 600: 100 gives 7 ticks, ends included. */
  assert_ticks (0, 600, 100, (const double[]) { 0, 100, 200, 300, 400, 500, 600 }, 7);
  /* 150 to 700: 100 → 6 ticks (200 … 700). */
  assert_ticks (150, 700, 100, (const double[]) { 200, 300, 400, 500, 600, 700 }, 6);
  /* Never 18.1 / 13.62 / 4.675: 4.675 to 18.1 takes step 2, 7 ticks (step 1 would give 14). */
  assert_ticks (4.675, 18.1, 2, (const double[]) { 6, 8, 10, 12, 14, 16, 18 }, 7);
  /* alpha, 1.5 to 3.5: step 0.5 (0.25 would give 9). */
  assert_ticks (1.5, 3.5, 0.5, (const double[]) { 1.5, 2, 2.5, 3, 3.5 }, 5);
  /* A range about 0 (residuals): 0 itself is a tick, printed as 0. */
  assert_ticks (-0.75, 0.75, 0.2, (const double[]) { -0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6 }, 7);
  /* Tiny and huge values. */
  assert_ticks (0.00123, 0.00171, 0.0001, (const double[]) { 0.0013, 0.0014, 0.0015, 0.0016, 0.0017 }, 5);
  /* 2 × 10^8 would give 9 ticks; 2.5 × 10^8 gives 7. */
  assert_ticks (1.2e9, 2.9e9, 2.5e8, (const double[]) { 1.25e9, 1.5e9, 1.75e9, 2e9, 2.25e9, 2.5e9, 2.75e9 }, 7);
  /* Step 2 where it gives at most 7 ticks, 2.5 where it would give 8. */
  assert_ticks (0, 12.5, 2, (const double[]) { 0, 2, 4, 6, 8, 10, 12 }, 7);
  assert_ticks (0, 15, 2.5, (const double[]) { 0, 2.5, 5, 7.5, 10, 12.5, 15 }, 7);

  double ticks[MAX_TICKS], step;
  g_assert_cmpuint (shepard_nice_ticks (5, 5, MAX_TICKS, ticks, &step), ==, 0);
  g_assert_cmpuint (shepard_nice_ticks (NAN, 5, MAX_TICKS, ticks, &step), ==, 0);

  /* Exact zero, never -0. */
  g_assert_cmpuint (shepard_nice_ticks (-0.3, 0.3, MAX_TICKS, ticks, &step), ==, 7);
  g_assert_cmpfloat (step, ==, 0.1);
  g_assert_false (signbit (ticks[3]));
}

static void
test_decimals (void)
{
  g_assert_cmpint (shepard_nice_decimals (200), ==, 0);
  g_assert_cmpint (shepard_nice_decimals (250), ==, 0);
  g_assert_cmpint (shepard_nice_decimals (1), ==, 0);
  g_assert_cmpint (shepard_nice_decimals (2.5), ==, 1);
  g_assert_cmpint (shepard_nice_decimals (0.5), ==, 1);
  g_assert_cmpint (shepard_nice_decimals (0.25), ==, 2);
  g_assert_cmpint (shepard_nice_decimals (0.0001), ==, 4);
}

static void
test_length (void)
{
  g_assert_cmpfloat (shepard_nice_length (1), ==, 1);
  g_assert_cmpfloat (shepard_nice_length (1.9), ==, 1);
  g_assert_cmpfloat (shepard_nice_length (2), ==, 2);
  g_assert_cmpfloat (shepard_nice_length (4.99), ==, 2);
  g_assert_cmpfloat (shepard_nice_length (730), ==, 500);
  g_assert_cmpfloat (shepard_nice_length (1000), ==, 1000);
  g_assert_cmpfloat (shepard_nice_length (0.037), ==, 0.02);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/render/nice/ticks", test_ticks);
  g_test_add_func ("/render/nice/decimals", test_decimals);
  g_test_add_func ("/render/nice/length", test_length);
  return g_test_run ();
}
