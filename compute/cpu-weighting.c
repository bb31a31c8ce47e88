/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cpu-weighting.h"

#include "aidw-formulas.h"

/* Summed in blocks, then the block sums: small weights are not lost against a large running total. */
#define FLOAT64_SUM_BLOCK 1024

double
shepard_observed_distance (const double *d2, size_t k_density)
{
  double r_obs = 0.0;
  for (size_t j = 0; j < k_density; j++)
    r_obs += sqrt (d2[j]);
  return r_obs / (double) k_density;
}

double
shepard_adaptive_alpha_of (double r_obs_local, double r_exp_local, const shepard_params *params, double *mu)
{
  *mu = shepard_aidw_membership (r_obs_local / r_exp_local, params->r_min, params->r_max);
  return shepard_aidw_alpha (*mu, params->alpha);
}

double
shepard_adaptive_alpha (const double *d2, size_t k_density, double r_exp_local, const shepard_params *params,
                        double *r_obs_local, double *mu)
{
  *r_obs_local = shepard_observed_distance (d2, k_density);
  return shepard_adaptive_alpha_of (*r_obs_local, r_exp_local, params, mu);
}

/* n_fields is a constant 1 at the one-field call sites, so that loop costs nothing there. */
static inline __attribute__ ((always_inline)) void
all_points_sums (const shepard_point_set *points, const uint32_t *labels, uint32_t excluded, double qx, double qy,
                 double smoothing2, double nearest_d2s, double exponent, size_t n_fields, double *sum_w,
                 double *sum_wz)
{
  int whole_power = shepard_whole_power_of (exponent);
  double total_w = 0.0;
  for (size_t f = 0; f < n_fields; f++)
    sum_wz[f] = 0.0;
  for (size_t block = 0; block < points->n; block += FLOAT64_SUM_BLOCK)
    {
      size_t end = block + FLOAT64_SUM_BLOCK < points->n ? block + FLOAT64_SUM_BLOCK : points->n;
      double block_w = 0.0, block_wz[SHEPARD_MAX_FIELDS];
      for (size_t f = 0; f < n_fields; f++)
        block_wz[f] = 0.0;
      for (size_t i = block; i < end; i++)
        {
          if (labels && labels[i] == excluded)
            continue;
          double dx = points->x[i] - qx, dy = points->y[i] - qy;
          double w = shepard_relative_weight (dx * dx + dy * dy + smoothing2, nearest_d2s, exponent, whole_power);
          block_w += w;
          for (size_t f = 0; f < n_fields; f++)
            block_wz[f] += w * points->z[f * points->n_padded + i];
        }
      total_w += block_w;
      for (size_t f = 0; f < n_fields; f++)
        sum_wz[f] += block_wz[f];
    }
  *sum_w = total_w;
}

void
shepard_all_points_sums (const shepard_point_set *points, const uint32_t *labels, uint32_t excluded, double qx,
                         double qy, double smoothing2, double nearest_d2s, double exponent, size_t n_fields,
                         double *sum_w, double *sum_wz)
{
  if (n_fields == 1)
    all_points_sums (points, labels, excluded, qx, qy, smoothing2, nearest_d2s, exponent, 1, sum_w, sum_wz);
  else
    all_points_sums (points, labels, excluded, qx, qy, smoothing2, nearest_d2s, exponent, n_fields, sum_w, sum_wz);
}

void
shepard_selected_sums (const shepard_point_set *points, const double *d2, const size_t *index, size_t count,
                       double smoothing2, double nearest_d2s, double exponent, size_t n_fields, double *sum_w,
                       double *sum_wz)
{
  int whole_power = shepard_whole_power_of (exponent);
  double total_w = 0.0;
  for (size_t f = 0; f < n_fields; f++)
    sum_wz[f] = 0.0;
  for (size_t j = 0; j < count; j++)
    {
      double w = shepard_relative_weight (d2[j] + smoothing2, nearest_d2s, exponent, whole_power);
      total_w += w;
      for (size_t f = 0; f < n_fields; f++)
        sum_wz[f] += w * points->z[f * points->n_padded + index[j]];
    }
  *sum_w = total_w;
}
