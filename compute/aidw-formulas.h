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
