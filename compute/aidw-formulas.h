/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The AIDW formulas (docs/METHOD.md, steps 1, 4 and 5) in one place, for the host (C) and the device (CUDA). */
#ifndef SHEPARD_AIDW_FORMULAS_H
#define SHEPARD_AIDW_FORMULAS_H

#ifdef __CUDACC__
#define SHEPARD_HOST_DEVICE __host__ __device__
#else
#define SHEPARD_HOST_DEVICE
#endif

#include <math.h>

static inline SHEPARD_HOST_DEVICE double
shepard_formula_expected_distance (double n_points, double area)
{
  return 1.0 / (2.0 * sqrt (n_points / area));
}

/* The CSR expectation of the mean distance to the k nearest of n points over an area A:
 * (1/k) sum_{j=1..k} Gamma (j + 1/2) / (Gamma (j) sqrt (pi n / A)). The ratio Gamma (j + 1/2) / Gamma (j) starts at
 * sqrt (pi) / 2 and grows by (j + 1/2) / j, so no Gamma function is evaluated; at k = 1 this is the expected distance
 * above. */
static inline SHEPARD_HOST_DEVICE double
shepard_formula_expected_knn_distance (double n_points, double area, int k)
{
  const double pi = 3.14159265358979323846;
  double ratio = 0.5 * sqrt (pi), sum = 0.0;
  for (int j = 1; j <= k; j++)
    {
      sum += ratio;
      ratio *= ((double) j + 0.5) / (double) j;
    }
  return sum / ((double) k * sqrt (pi * n_points / area));
}

static inline SHEPARD_HOST_DEVICE double
shepard_formula_membership (double r, double r_min, double r_max)
{
  if (r <= r_min)
    return 0.0;
  if (r >= r_max)
    return 1.0;
  /* The paper writes pi / Rmax * (R - Rmin); dividing by (Rmax - Rmin) agrees at Rmin = 0 and stays continuous. */
  return 0.5 - 0.5 * cos (3.14159265358979323846 * (r - r_min) / (r_max - r_min));
}

/* Eq. 6's triangular membership over alpha1..alpha5; alpha2 (not alpha1) on [0.3, 0.5], as the paper has it. */
static inline SHEPARD_HOST_DEVICE double
shepard_formula_alpha (double mu, const double *alpha)
{
  if (mu <= 0.1)
    return alpha[0];
  if (mu <= 0.3)
    return alpha[0] * (1.0 - 5.0 * (mu - 0.1)) + 5.0 * alpha[1] * (mu - 0.1);
  if (mu <= 0.5)
    return 5.0 * alpha[2] * (mu - 0.3) + alpha[1] * (1.0 - 5.0 * (mu - 0.3));
  if (mu <= 0.7)
    return alpha[2] * (1.0 - 5.0 * (mu - 0.5)) + 5.0 * alpha[3] * (mu - 0.5);
  if (mu <= 0.9)
    return 5.0 * alpha[4] * (mu - 0.7) + alpha[3] * (1.0 - 5.0 * (mu - 0.7));
  return alpha[4];
}

#endif
