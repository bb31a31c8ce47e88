/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The CPU backend's float64 weighting, shared by interpolation, cross-validation (cpu-backend.c) and explain
 * (cpu-explain.c): weights relative to the nearest weighed point, so that none overflows whatever the power. */
#ifndef SHEPARD_CPU_WEIGHTING_H
#define SHEPARD_CPU_WEIGHTING_H

#include "point-set.h"

#include <math.h>
#include <stdint.h>

/* ((d2_nearest + S^2) / (d2 + S^2))^(p/2) with d2s = d2 + S^2: the nearest point weighs 1, and the common factor
 * cancels in the weighted mean. Whole powers p = -2 * exponent avoid pow(): a product of ratios and, for odd p, one
 * square root. */
static inline double
shepard_relative_weight (double d2s, double nearest_d2s, double exponent, int whole_power)
{
  double ratio = nearest_d2s / d2s;
  if (whole_power > 0)
    {
      double w = whole_power & 1 ? sqrt (ratio) : 1.0;
      for (int i = 0; i < whole_power / 2; i++)
        w *= ratio;
      return w;
    }
  return pow (ratio, -exponent);
}

/* p = -2 * exponent when it is a whole number from 1 to 16, else 0: the shepard_relative_weight fast path. */
static inline int
shepard_whole_power_of (double exponent)
{
  double p = -2.0 * exponent;
  return p == floor (p) && p >= 1.0 && p <= 16.0 ? (int) p : 0;
}

/* AIDW's r_obs: the mean distance to the k_density nearest, from their squared distances (local frame, ascending). */
double shepard_observed_distance (const double *d2, size_t k_density);

/* AIDW's adaptive power from r_obs (local frame): R = r_obs / r_exp, the membership mu and alpha. */
double shepard_adaptive_alpha_of (double r_obs_local, double r_exp_local, const shepard_params *params, double *mu);

/* Both: r_obs from the squared distances to the nearest, then mu and alpha. */
double shepard_adaptive_alpha (const double *d2, size_t k_density, double r_exp_local, const shepard_params *params,
                               double *r_obs_local, double *mu);

/* The sums of w and of w z for the first n_fields fields over every point, or (labels set) every point whose label
 * differs from `excluded`; w relative to nearest_d2s (the smallest d^2 + S^2). */
void shepard_all_points_sums (const shepard_point_set *points, const uint32_t *labels, uint32_t excluded, double qx,
                              double qy, double smoothing2, double nearest_d2s, double exponent, size_t n_fields,
                              double *sum_w, double *sum_wz);

/* The same over count selected points (squared distances d2, indices index). */
void shepard_selected_sums (const shepard_point_set *points, const double *d2, const size_t *index, size_t count,
                            double smoothing2, double nearest_d2s, double exponent, size_t n_fields, double *sum_w,
                            double *sum_wz);

#endif
