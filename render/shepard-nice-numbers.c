/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-nice-numbers.h"

#include <math.h>

/* Relative slack on the range's ends, so that a tick at 200 of a range ending at 199.99999999 still counts. */
#define END_TOLERANCE 1e-9

static const double mantissas[] = { 1.0, 2.0, 2.5, 5.0 };

guint
shepard_nice_ticks (double min, double max, guint max_ticks, double *ticks, double *step)
{
  g_return_val_if_fail (max_ticks >= 2, 0);
  g_return_val_if_fail (ticks != NULL && step != NULL, 0);

  if (!isfinite (min) || !isfinite (max) || !(max > min))
    return 0;
  double span = max - min;
  double slack = END_TOLERANCE * fmax (span, fmax (fabs (min), fabs (max)));
  /* A step a hundredth of the span gives far too many ticks: start there and widen. */
  for (int exponent = (int) floor (log10 (span)) - 2;; exponent++)
    for (guint m = 0; m < G_N_ELEMENTS (mantissas); m++)
      {
        double candidate = mantissas[m] * pow (10.0, exponent);
        double first = ceil ((min - slack) / candidate);
        double last = floor ((max + slack) / candidate);

        if (last - first + 1 > max_ticks)
          continue;
        guint count = (guint) (last - first + 1);
        for (guint i = 0; i < count; i++)
          {
            ticks[i] = (first + i) * candidate;
            /* (-1) × 0.1 + 1 × 0.1 style sums are exact here, but a zero should print as 0, never -0. */
            if (fabs (ticks[i]) < candidate * 1e-6)
              ticks[i] = 0.0;
          }
        *step = candidate;
        return count;
      }
}

double
shepard_nice_length (double limit)
{
  g_return_val_if_fail (isfinite (limit) && limit > 0, 0.0);

  double power = pow (10.0, floor (log10 (limit)));
  double mantissa = limit / power;

  /* log10 rounds: 1000 may come out as 9.999... × 10^2. */
  if (mantissa >= 10.0 * (1 - END_TOLERANCE))
    return 10.0 * power;
  if (mantissa >= 5.0 * (1 - END_TOLERANCE))
    return 5.0 * power;
  if (mantissa >= 2.0 * (1 - END_TOLERANCE))
    return 2.0 * power;
  return power;
}

int
shepard_nice_decimals (double step)
{
  g_return_val_if_fail (isfinite (step) && step > 0, 0);

  int exponent = (int) floor (log10 (step) + END_TOLERANCE);
  double mantissa = step / pow (10.0, exponent);
  int decimals = -exponent + (fabs (mantissa - 2.5) < 1e-6 ? 1 : 0);

  return MAX (decimals, 0);
}
