/* SPDX-License-Identifier: GPL-3.0-or-later */
/* x^s for the far field's weights, branch-free so that loops over points or queries vectorise (libm's pow does
 * not): exp (s log x) with both by their series to float64 accuracy, about 1e-15 relative for the weights' range. */
#ifndef SHEPARD_FAR_FIELD_POWER_H
#define SHEPARD_FAR_FIELD_POWER_H

#include "aidw-formulas.h" /* SHEPARD_HOST_DEVICE */

#include <stdint.h>
#include <string.h>

static inline SHEPARD_HOST_DEVICE uint64_t
far_field_bits_of (double x)
{
#ifdef __CUDA_ARCH__
  return (uint64_t) __double_as_longlong (x);
#else
  uint64_t bits;
  memcpy (&bits, &x, sizeof bits);
  return bits;
#endif
}

static inline SHEPARD_HOST_DEVICE double
far_field_double_of (uint64_t bits)
{
#ifdef __CUDA_ARCH__
  return __longlong_as_double ((long long) bits);
#else
  double x;
  memcpy (&x, &bits, sizeof x);
  return x;
#endif
}

/* log x for a positive normal x: x = 2^e m with m in [sqrt(1/2), sqrt(2)), log m = 2 atanh f, f = (m - 1) / (m + 1),
 * |f| <= 0.1716, by its series to f^23 (the next term is below 1e-18 of the result). */
static inline SHEPARD_HOST_DEVICE double
far_field_log (double x)
{
  uint64_t bits = far_field_bits_of (x);
  /* adding 2^52 (1 - sqrt(1/2)) in the bits puts the cut between exponents at mantissa sqrt(1/2) instead of 1 */
  uint64_t biased = (bits + 0x00095f619980c433u) >> 52; /* e + 1023 */
  double m = far_field_double_of (bits - (biased << 52) + 0x3ff0000000000000u);
  /* the integer below 2^11 as a double: in the mantissa of 2^52 */
  double e = far_field_double_of (biased | 0x4330000000000000u) - 0x1p52 - 1023.0;
  double f = (m - 1.0) / (m + 1.0), f2 = f * f;
  /* Estrin's scheme: a few short chains rather than one long one, so that successive logs overlap in the pipeline */
  double f4 = f2 * f2, f8 = f4 * f4;
  double series = ((1.0 / 3.0 + f2 * (1.0 / 5.0)) + f4 * (1.0 / 7.0 + f2 * (1.0 / 9.0)))
                  + f8 * ((1.0 / 11.0 + f2 * (1.0 / 13.0)) + f4 * (1.0 / 15.0 + f2 * (1.0 / 17.0)))
                  + f8 * f8 * ((1.0 / 19.0 + f2 * (1.0 / 21.0)) + f4 * (1.0 / 23.0));
  double log_m = 2.0 * f + 2.0 * f * f2 * series;
  return e * 0x1.62e42fefa3800p-1 + (e * 0x1.ef35793c76730p-45 + log_m); /* e ln 2 in two parts, then log m */
}

/* exp y for y <= 709; 0 below -700 (weights that small add nothing to sums of terms >= 1). */
static inline SHEPARD_HOST_DEVICE double
far_field_exp (double y)
{
  /* by masks from the sign bit of y + 700: comparisons and choices stop the compiler from vectorising */
  uint64_t below = (uint64_t) 0 - (far_field_bits_of (y + 700.0) >> 63);
  double clamped = far_field_double_of ((far_field_bits_of (y) & ~below) | (far_field_bits_of (-700.0) & below));
  /* n = round (y / ln 2) by the 1.5 * 2^52 shift; r = y - n ln 2, |r| <= 0.347 */
  double shifted = clamped * 0x1.71547652b82fep0 + 0x1.8p52;
  double n = shifted - 0x1.8p52;
  double r = (clamped - n * 0x1.62e42fefa3800p-1) - n * 0x1.ef35793c76730p-45;
  /* sum_{k<=13} r^k / k! by Estrin's scheme, as in far_field_log */
  double r2 = r * r, r4 = r2 * r2, r8 = r4 * r4;
  double p = ((1.0 + r) + r2 * (0.5 + r * (1.0 / 6.0))) + r4 * ((1.0 / 24.0 + r * (1.0 / 120.0))
                                                                 + r2 * (1.0 / 720.0 + r * (1.0 / 5040.0)))
             + r8 * (((1.0 / 40320.0 + r * (1.0 / 362880.0)) + r2 * (1.0 / 3628800.0 + r * (1.0 / 39916800.0)))
                     + r4 * (1.0 / 479001600.0 + r * (1.0 / 6227020800.0)));
  /* 2^n: n sits in the low bits of shifted's mantissa */
  double scale = far_field_double_of ((far_field_bits_of (shifted) + 1023u) << 52);
  return far_field_double_of (far_field_bits_of (p * scale) & ~below);
}

/* x^s for x > 0 (normal) and s >= 0. */
static inline SHEPARD_HOST_DEVICE double
far_field_power (double x, double s)
{
  return far_field_exp (s * far_field_log (x));
}

#endif
