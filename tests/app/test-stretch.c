/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The stretch and class breaks of a surface's cells, against quantiles worked by hand. */
#include <glib.h>
#include <math.h>
#include <stdlib.h>

#include "shepard-stretch.h"

static void
test_cumulative_cut (void)
{
  float values[103];
  double low, high;

  /* 1 … 101 shuffled, with two nodata cells: the 2 % quantile of 101 sorted values is the value at index 100 × 0.02
   * = 2, that is 3; the 98 % one the value at index 98, that is 99. */
  for (int i = 0; i < 101; i++)
    values[(i * 37) % 101] = (float) (i + 1);
  values[101] = NAN;
  values[102] = INFINITY;
  g_assert_true (shepard_stretch_quantiles (values, G_N_ELEMENTS (values), SHEPARD_STRETCH_CUT_LOWER,
                                            SHEPARD_STRETCH_CUT_UPPER, &low, &high));
  g_assert_cmpfloat (low, ==, 3);
  g_assert_cmpfloat (high, ==, 99);

  /* Between order statistics: 0, 10 at 0.25 is 2.5. */
  g_assert_true (shepard_stretch_quantiles ((const float[]) { 10, 0 }, 2, 0.25, 1, &low, &high));
  g_assert_cmpfloat (low, ==, 2.5);
  g_assert_cmpfloat (high, ==, 10);

  g_assert_false (shepard_stretch_quantiles ((const float[]) { NAN, NAN }, 2, 0.02, 0.98, &low, &high));
}

static void
test_breaks (void)
{
  double breaks[5];
  /* Skewed like a metal concentration: quantile breaks follow the cells, equal breaks the range. */
  const float values[] = { 1, 2, 3, 4, 5, 6, 7, 8, 100, NAN };

  shepard_stretch_equal_breaks (0, 100, 4, breaks);
  g_assert_cmpfloat (breaks[0], ==, 0);
  g_assert_cmpfloat (breaks[1], ==, 25);
  g_assert_cmpfloat (breaks[2], ==, 50);
  g_assert_cmpfloat (breaks[4], ==, 100);

  /* Nine finite values, indices 0 … 8: quartiles at 2, 4 and 6, that is 3, 5 and 7. */
  g_assert_true (shepard_stretch_quantile_breaks (values, G_N_ELEMENTS (values), 4, breaks));
  const double expected[] = { 1, 3, 5, 7, 100 };
  for (int i = 0; i < 5; i++)
    g_assert_cmpfloat (breaks[i], ==, expected[i]);
}

static int
compare_doubles (const void *a, const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;
  return (x > y) - (x < y);
}

/* Against quantiles read off a sorted copy in float64, on values with many ties, a run already sorted and one sorted
 * backwards (the orders a preview's rows come in), and a few NaNs to leave out. */
static void
test_quantiles_against_sorting (void)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (13);
  enum { N = 10007 };
  static float values[N];
  static double sorted[N];

  for (int order = 0; order < 3; order++)
    {
      size_t n_finite = 0;
      for (size_t i = 0; i < N; i++)
        {
          values[i] = order == 0 ? (float) g_rand_int_range (random, 0, 50) : (float) (order == 1 ? i : N - i);
          if (i % 1000 == 7)
            values[i] = NAN;
          else
            sorted[n_finite++] = values[i];
        }
      qsort (sorted, n_finite, sizeof *sorted, compare_doubles);
      double breaks[8];
      g_assert_true (shepard_stretch_quantile_breaks (values, N, 7, breaks));
      for (int i = 0; i <= 7; i++)
        {
          double position = (double) (n_finite - 1) * i / 7.0;
          size_t below = (size_t) floor (position), above = MIN (below + 1, n_finite - 1);
          double expected = sorted[below] + (position - (double) below) * (sorted[above] - sorted[below]);
          g_assert_cmpfloat_with_epsilon (breaks[i], expected, 1e-9 * fmax (1.0, fabs (expected)));
        }
      double low, high;
      g_assert_true (shepard_stretch_quantiles (values, N, 0.02, 0.98, &low, &high));
      double low_position = (double) (n_finite - 1) * 0.02;
      size_t low_below = (size_t) floor (low_position);
      g_assert_cmpfloat_with_epsilon (low, sorted[low_below] + (low_position - (double) low_below)
                                               * (sorted[low_below + 1] - sorted[low_below]), 1e-9 * fmax (1.0, low));
      g_assert_cmpfloat (high, <=, sorted[n_finite - 1]);
      g_assert_cmpfloat (high, >=, low);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stretch/cumulative-cut", test_cumulative_cut);
  g_test_add_func ("/stretch/breaks", test_breaks);
  g_test_add_func ("/stretch/quantiles-against-sorting", test_quantiles_against_sorting);
  return g_test_run ();
}
