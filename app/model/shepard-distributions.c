/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-distributions.h"

#include <math.h>
#include <string.h>

/* The R axis reaches past Rmax by this much at least, so that the cells beyond it show as bars, not as a count. */
#define R_AXIS_BEYOND_RMAX 1.5
/* ... and to the R below which this share of the cells lie, so that a long tail does not squash the bulk. */
#define R_AXIS_QUANTILE 0.99
#define QUANTILE_BINS 4096

static size_t
bin_of (double value, double first, double last)
{
  double position = (value - first) / (last - first) * SHEPARD_DISTRIBUTION_BINS;
  if (!(position > 0.0))
    return 0;
  return position >= SHEPARD_DISTRIBUTION_BINS ? SHEPARD_DISTRIBUTION_BINS - 1 : (size_t) position;
}

/* The value below which a share of the finite values lie, to 1/QUANTILE_BINS of their span. */
static double
quantile (const double *values, size_t count, double largest, double share)
{
  g_autofree size_t *counts = g_new0 (size_t, QUANTILE_BINS);
  for (size_t i = 0; i < count; i++)
    counts[MIN ((size_t) (values[i] / largest * (QUANTILE_BINS - 1)), (size_t) QUANTILE_BINS - 1)]++;
  size_t wanted = (size_t) ceil (share * (double) count), seen = 0;
  for (size_t bin = 0; bin < QUANTILE_BINS; bin++)
    {
      seen += counts[bin];
      if (seen >= wanted)
        return largest * (double) (bin + 1) / (QUANTILE_BINS - 1);
    }
  return largest;
}

gboolean
shepard_distributions_compute (const shepard_params *params, const float *alpha, const float *r_obs, double r_exp,
                               size_t cells, ShepardDistributions *distributions)
{
  g_return_val_if_fail (params != NULL && alpha != NULL && r_obs != NULL && distributions != NULL, FALSE);

  ShepardDistributions result = { 0 };
  g_autofree double *ratio = g_try_new (double, cells);
  g_autofree float *alphas = g_try_new (float, cells);
  if (ratio == NULL || alphas == NULL || !(r_exp > 0.0))
    return FALSE;
  size_t count = 0, at_alpha1 = 0, at_alpha5 = 0;
  double largest = 0.0;
  for (size_t i = 0; i < cells; i++)
    {
      double r = (double) r_obs[i] / r_exp;
      if (!isfinite (r) || !isfinite (alpha[i]))
        continue;
      double mu = shepard_aidw_membership (r, params->r_min, params->r_max);
      at_alpha1 += mu <= 0.1;
      at_alpha5 += mu >= 0.9;
      ratio[count] = r;
      alphas[count] = alpha[i];
      largest = fmax (largest, r);
      count++;
    }
  if (count == 0)
    return FALSE;

  result.cells = count;
  result.share_at_alpha1 = (double) at_alpha1 / (double) count;
  result.share_at_alpha5 = (double) at_alpha5 / (double) count;
  result.r_last = fmax (R_AXIS_BEYOND_RMAX * params->r_max,
                        largest > 0.0 ? quantile (ratio, count, largest, R_AXIS_QUANTILE) : 0.0);
  result.r_median = largest > 0.0 ? quantile (ratio, count, largest, 0.5) : 0.0;
  for (size_t i = 0; i < count; i++)
    {
      if (ratio[i] > result.r_last)
        result.r_beyond++;
      else
        result.r_counts[bin_of (ratio[i], 0.0, result.r_last)]++;
    }

  result.alpha_first = INFINITY;
  result.alpha_last = -INFINITY;
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    {
      result.alpha_first = fmin (result.alpha_first, params->alpha[level]);
      result.alpha_last = fmax (result.alpha_last, params->alpha[level]);
    }
  if (!(result.alpha_last > result.alpha_first))
    {
      result.alpha_first -= 0.5;
      result.alpha_last += 0.5;
    }
  for (size_t i = 0; i < count; i++)
    result.alpha_counts[bin_of (alphas[i], result.alpha_first, result.alpha_last)]++;
  *distributions = result;
  return TRUE;
}

int
shepard_distributions_saturated_level (const ShepardDistributions *distributions)
{
  g_return_val_if_fail (distributions != NULL, 0);
  if (distributions->share_at_alpha5 > SHEPARD_SATURATION_SHARE)
    return 5;
  if (distributions->share_at_alpha1 > SHEPARD_SATURATION_SHARE)
    return 1;
  return 0;
}
