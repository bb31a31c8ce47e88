/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-stretch.h"

#include <math.h>
#include <stdlib.h>

static int
compare_floats (const void *a, const void *b)
{
  float x = *(const float *) a, y = *(const float *) b;

  return (x > y) - (x < y);
}

/* The finite values, sorted; NULL when there are none. */
static float *
sorted_finite (const float *values, size_t n_values, size_t *n_finite)
{
  float *sorted = g_new (float, MAX (n_values, 1));
  size_t n = 0;

  for (size_t i = 0; i < n_values; i++)
    if (isfinite (values[i]))
      sorted[n++] = values[i];
  if (n == 0)
    {
      g_free (sorted);
      return NULL;
    }
  qsort (sorted, n, sizeof *sorted, compare_floats);
  *n_finite = n;
  return sorted;
}

static double
quantile_of_sorted (const float *sorted, size_t n, double q)
{
  double position = (double) (n - 1) * q;
  size_t below = (size_t) floor (position);
  size_t above = MIN (below + 1, n - 1);

  return sorted[below] + (position - (double) below) * ((double) sorted[above] - sorted[below]);
}

gboolean
shepard_stretch_quantiles (const float *values, size_t n_values, double lower, double upper, double *low,
                           double *high)
{
  g_return_val_if_fail (values != NULL || n_values == 0, FALSE);
  g_return_val_if_fail (0 <= lower && lower <= upper && upper <= 1, FALSE);
  g_return_val_if_fail (low != NULL && high != NULL, FALSE);

  size_t n;
  g_autofree float *sorted = sorted_finite (values, n_values, &n);
  if (sorted == NULL)
    return FALSE;
  *low = quantile_of_sorted (sorted, n, lower);
  *high = quantile_of_sorted (sorted, n, upper);
  return TRUE;
}

void
shepard_stretch_equal_breaks (double min, double max, guint n_classes, double *breaks)
{
  g_return_if_fail (n_classes > 0 && breaks != NULL);

  for (guint i = 0; i <= n_classes; i++)
    breaks[i] = min + (max - min) * i / n_classes;
  /* The last break is max itself, not a sum that rounds below it. */
  breaks[n_classes] = max;
}

gboolean
shepard_stretch_quantile_breaks (const float *values, size_t n_values, guint n_classes, double *breaks)
{
  g_return_val_if_fail (values != NULL || n_values == 0, FALSE);
  g_return_val_if_fail (n_classes > 0 && breaks != NULL, FALSE);

  size_t n;
  g_autofree float *sorted = sorted_finite (values, n_values, &n);
  if (sorted == NULL)
    return FALSE;
  for (guint i = 0; i <= n_classes; i++)
    breaks[i] = quantile_of_sorted (sorted, n, i / (double) n_classes);
  return TRUE;
}
