/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <float.h>
#include <glib.h>
#include <math.h>

#include "duplicate-points.h"

/* Three locations with more than one point: (0, 0) with 1, 5, 3 (spread 4, mean 3); (2, 1) with 2, 2 (one value:
 * not reported); (-0, 7) and (0, 7) with 6 and 6.5 (-0 is 0: spread 0.5). */
static void
test_report (void)
{
  const double x[] = { 0, 2, 0, 9, 2, 0, -0.0, 0 }, y[] = { 0, 1, 0, 9, 1, 0, 7, 7 };
  const double z[] = { 1, 2, 5, 4, 2, 3, 6, 6.5 };
  ShepardDuplicateReport report;

  g_assert_true (shepard_duplicate_points_find (x, y, z, G_N_ELEMENTS (x), &report));
  g_assert_cmpuint (report.n_locations, ==, 2);
  g_assert_cmpuint (report.n_points, ==, 5);
  g_assert_cmpfloat (report.worst_spread, ==, 4.0);
  g_assert_cmpfloat (report.worst_x, ==, 0.0);
  g_assert_cmpfloat (report.worst_y, ==, 0.0);
  g_assert_cmpuint (report.worst_count, ==, 3);
  g_assert_cmpfloat_with_epsilon (report.worst_mean, 3.0, 1e-15);
  g_autofree char *description = shepard_duplicate_report_describe (&report);
  g_assert_cmpstr (description, ==, "2 locations hold 5 points with different values (the widest spread, 4, at x 0, "
                                    "y 0: 3 points); the surface takes their mean there (3 at the widest)");
}

/* Points a hair apart are other locations: the report counts exactly equal coordinates only. */
static void
test_none (void)
{
  const double x[] = { 0, nextafter (0.0, 1.0), 5, 5 }, y[] = { 0, 0, 5, 5 }, z[] = { 1, 2, 3, 3 };
  ShepardDuplicateReport report;

  g_assert_false (shepard_duplicate_points_find (x, y, z, G_N_ELEMENTS (x), &report));
  g_assert_cmpuint (report.n_locations, ==, 0);
  g_assert_cmpuint (report.n_points, ==, 0);
  g_assert_false (shepard_duplicate_points_find (NULL, NULL, NULL, 0, &report));
}

/* Values near the largest double: the mean stays finite, the spread beyond it is infinite, never NaN. */
static void
test_huge_values (void)
{
  const double x[] = { 1, 1, 1 }, y[] = { 2, 2, 2 }, z[] = { DBL_MAX, DBL_MAX, -DBL_MAX };
  ShepardDuplicateReport report;

  g_assert_true (shepard_duplicate_points_find (x, y, z, G_N_ELEMENTS (x), &report));
  g_assert_true (isfinite (report.worst_mean));
  g_assert_cmpfloat_with_epsilon (report.worst_mean, DBL_MAX / 3.0, DBL_MAX * 1e-15);
  g_assert_true (isinf (report.worst_spread) && report.worst_spread > 0.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/duplicate-points/report", test_report);
  g_test_add_func ("/app/duplicate-points/none", test_none);
  g_test_add_func ("/app/duplicate-points/huge-values", test_huge_values);
  return g_test_run ();
}
