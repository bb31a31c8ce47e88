/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "duplicate-points.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  double x, y;
  size_t index;
} Location;

static int
compare_locations (const void *a, const void *b)
{
  const Location *first = a, *second = b;

  if (first->x != second->x)
    return first->x < second->x ? -1 : 1;
  if (first->y != second->y)
    return first->y < second->y ? -1 : 1;
  return 0;
}

gboolean
shepard_duplicate_points_find (const double *x, const double *y, const double *z, size_t n,
                               ShepardDuplicateReport *report)
{
  g_return_val_if_fail (report != NULL, FALSE);
  g_return_val_if_fail (n == 0 || (x != NULL && y != NULL && z != NULL), FALSE);

  *report = (ShepardDuplicateReport) { 0 };
  g_autofree Location *sorted = g_new (Location, MAX (n, 1));
  for (size_t i = 0; i < n; i++)
    sorted[i] = (Location) { x[i], y[i], i };
  qsort (sorted, n, sizeof *sorted, compare_locations);

  for (size_t first = 0, end; first < n; first = end)
    {
      for (end = first; end < n && compare_locations (&sorted[first], &sorted[end]) == 0; end++)
        ;
      size_t count = end - first;
      double low = z[sorted[first].index], high = low, mean = 0.0;
      for (size_t i = first; i < end; i++)
        {
          double value = z[sorted[i].index];
          low = MIN (low, value);
          high = MAX (high, value);
          /* Each value divided first, so that the sum of values up to +-DBL_MAX stays finite. */
          mean += value / (double) count;
        }
      if (low == high)
        continue;
      /* Values of opposite signs near the largest double spread beyond it: an infinite spread says so. */
      double spread = high - low;
      report->n_locations++;
      report->n_points += count;
      if (report->n_locations == 1 || spread > report->worst_spread)
        {
          report->worst_spread = spread;
          report->worst_x = sorted[first].x;
          report->worst_y = sorted[first].y;
          report->worst_count = count;
          report->worst_mean = mean;
        }
    }
  return report->n_locations > 0;
}

char *
shepard_duplicate_report_describe (const ShepardDuplicateReport *report)
{
  g_return_val_if_fail (report != NULL, NULL);

  if (report->n_locations == 0)
    return g_strdup ("no two points at one location with different values");
  return g_strdup_printf ("%zu location%s hold%s %zu points with different values (the widest spread, %.10g, at x "
                          "%.10g, y %.10g: %zu points); the surface takes their mean there (%.10g at the widest)",
                          report->n_locations, report->n_locations == 1 ? "" : "s",
                          report->n_locations == 1 ? "s" : "", report->n_points, report->worst_spread,
                          report->worst_x, report->worst_y, report->worst_count, report->worst_mean);
}
