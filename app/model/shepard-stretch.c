/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-stretch.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>

/* The finite values, copied; NULL when there are none. */
static float *
finite_values (const float *values, size_t n_values, size_t *n_finite)
{
  float *finite = g_new (float, MAX (n_values, 1));
  size_t n = 0;

  for (size_t i = 0; i < n_values; i++)
    if (isfinite (values[i]))
      finite[n++] = values[i];
  if (n == 0)
    {
      g_free (finite);
      return NULL;
    }
  *n_finite = n;
  return finite;
}

/* Puts into values[k] what sorting values[lo..hi] would put there, nothing larger before it and nothing smaller after
 * it (Wirth's selection): linear on average, so that a stretch of a million-cell preview does not sort it on the main
 * thread. */
static float
select_nth (float *values, ptrdiff_t lo, ptrdiff_t hi, ptrdiff_t k)
{
  while (lo < hi)
    {
      float pivot = values[k];
      ptrdiff_t i = lo, j = hi;
      do
        {
          while (values[i] < pivot)
            i++;
          while (pivot < values[j])
            j--;
          if (i <= j)
            {
              float swapped = values[i];
              values[i++] = values[j];
              values[j--] = swapped;
            }
        }
      while (i <= j);
      if (j < k)
        lo = i;
      if (k < i)
        hi = j;
    }
  return values[k];
}

/* The quantiles q[0] <= q[1] <= ... of the n finite values (reordered), interpolated between order statistics as in
 * R's type 7. Each selection starts where the last one ended, so that the values are not sorted. */
static void
quantiles_of (float *values, size_t n, const double *q, size_t n_q, double *quantiles)
{
  ptrdiff_t from = 0, last = (ptrdiff_t) n - 1;

  for (size_t i = 0; i < n_q; i++)
    {
      double position = (double) last * q[i];
      ptrdiff_t below = (ptrdiff_t) floor (position);
      double low = select_nth (values, from, last, below);
      double high = below < last ? select_nth (values, below + 1, last, below + 1) : low;
      quantiles[i] = low + (position - (double) below) * (high - low);
      from = below;
    }
}

gboolean
shepard_stretch_quantiles (const float *values, size_t n_values, double lower, double upper, double *low,
                           double *high)
{
  g_return_val_if_fail (values != NULL || n_values == 0, FALSE);
  g_return_val_if_fail (0 <= lower && lower <= upper && upper <= 1, FALSE);
  g_return_val_if_fail (low != NULL && high != NULL, FALSE);

  size_t n;
  g_autofree float *finite = finite_values (values, n_values, &n);
  if (finite == NULL)
    return FALSE;
  double q[2] = { lower, upper }, quantiles[2];
  quantiles_of (finite, n, q, 2, quantiles);
  *low = quantiles[0];
  *high = quantiles[1];
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
  g_autofree float *finite = finite_values (values, n_values, &n);
  if (finite == NULL)
    return FALSE;
  g_autofree double *q = g_new (double, n_classes + 1);
  for (guint i = 0; i <= n_classes; i++)
    q[i] = i / (double) n_classes;
  quantiles_of (finite, n, q, n_classes + 1, breaks);
  return TRUE;
}
