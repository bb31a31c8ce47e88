/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compiled once per instruction set (meson passes SHEPARD_KERNEL_ISA and the -m flags). Written with GCC vector
 * extensions so that one source serves SSE2, AVX2 and AVX-512; only the reciprocal estimate needs intrinsics. */
#include "cpu-kernels.h"

#include <stdbool.h>
#include <stdint.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

#define CONCAT_(a, b) a##_##b
#define CONCAT(a, b) CONCAT_ (a, b)
#define KERNEL_NAME(name) CONCAT (name, SHEPARD_KERNEL_ISA)

#if defined(__AVX512F__)
#define LANES 16
#elif defined(__AVX2__)
#define LANES 8
#else
#define LANES 4
#endif

/* Points per tile: five float arrays of this many points (20 KiB) stay in L1 while a batch of queries passes. */
#define TILE_POINTS 1024

typedef float vfloat __attribute__ ((vector_size (LANES * sizeof (float))));
typedef int32_t vint __attribute__ ((vector_size (LANES * sizeof (int32_t))));
typedef uint32_t vuint __attribute__ ((vector_size (LANES * sizeof (uint32_t))));

static inline vfloat
splat (float value)
{
  return (vfloat) {} + value;
}

static inline vfloat
select_float (vint mask, vfloat if_true, vfloat if_false)
{
  return (vfloat) (((vint) if_true & mask) | ((vint) if_false & ~mask));
}

/* 1/x to about 2^-22 relative: the hardware estimate and one Newton-Raphson step. */
static inline vfloat
reciprocal (vfloat x)
{
#if defined(__AVX512F__)
  vfloat estimate = (vfloat) _mm512_rcp14_ps ((__m512) x);
#elif defined(__AVX__)
  vfloat estimate = (vfloat) _mm256_rcp_ps ((__m256) x);
#elif defined(__SSE__)
  vfloat estimate = (vfloat) _mm_rcp_ps ((__m128) x);
#else
  return splat (1.0f) / x;
#endif
#if defined(__SSE__)
  return estimate * (splat (2.0f) - x * estimate);
#endif
}

/* log2 of a positive normal float: exponent plus 2 atanh((m-1)/(m+1)) / ln 2 with the mantissa m reduced to about
 * [0.7, 1.5); the series to t^9 leaves a relative error below 2e-9 before float rounding. */
static inline vfloat
log2_positive (vfloat x)
{
#if defined(__AVX512F__)
  vfloat exponent = (vfloat) _mm512_getexp_ps ((__m512) x);
  vfloat mantissa = (vfloat) _mm512_getmant_ps ((__m512) x, _MM_MANT_NORM_p75_1p5, _MM_MANT_SIGN_src);
  /* getexp is the exponent of a mantissa in [1, 2); a mantissa halved into [0.75, 1) belongs to the next one. */
  exponent += (vfloat) ((vint) splat (1.0f) & (mantissa < splat (1.0f)));
#else
  vint bits = (vint) x;
  vint exponent_bits = ((bits >> 23) & 0xff) - 127;
  vfloat mantissa = (vfloat) ((bits & 0x007fffff) | 0x3f800000);
  vint above = mantissa > splat (1.41421356237f);
  mantissa = select_float (above, mantissa * splat (0.5f), mantissa);
  vfloat exponent = __builtin_convertvector (exponent_bits - above, vfloat);
#endif
  vfloat t = (mantissa - splat (1.0f)) * reciprocal (mantissa + splat (1.0f));
  vfloat t2 = t * t;
  vfloat series = splat (1.0f / 9.0f);
  series = series * t2 + splat (1.0f / 7.0f);
  series = series * t2 + splat (1.0f / 5.0f);
  series = series * t2 + splat (1.0f / 3.0f);
  series = series * t2 + splat (1.0f);
  return exponent + t * series * splat (2.88539008177792681f /* 2 / ln 2 */);
}

static inline vfloat
clamp (vfloat y, float low, float high)
{
#if defined(__AVX512F__)
  return (vfloat) _mm512_min_ps (_mm512_max_ps ((__m512) y, (__m512) splat (low)), (__m512) splat (high));
#elif defined(__AVX__)
  return (vfloat) _mm256_min_ps (_mm256_max_ps ((__m256) y, (__m256) splat (low)), (__m256) splat (high));
#elif defined(__SSE__)
  return (vfloat) _mm_min_ps (_mm_max_ps ((__m128) y, (__m128) splat (low)), (__m128) splat (high));
#else
  y = select_float (y < splat (low), splat (low), y);
  return select_float (y > splat (high), splat (high), y);
#endif
}

/* 2^y: y = n + f with |f| <= 1/2, 2^f by its Taylor series to f^7 (relative error below 6e-9), n into the exponent.
 * y is clamped to [-126, 127]; callers treat sums near either end as out of range and recompute them in float64. */
static inline vfloat
exp2_of (vfloat y)
{
  y = clamp (y, -126.0f, 127.0f);
#if defined(__AVX512F__)
  vfloat whole = (vfloat) _mm512_roundscale_ps ((__m512) y, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
#else
  const vfloat round_magic = splat (12582912.0f); /* 1.5 * 2^23: adding and subtracting it rounds to an integer */
  vfloat whole = (y + round_magic) - round_magic;
#endif
  vfloat f = (y - whole) * splat (0.693147180559945309f);
  vfloat series = splat (1.0f / 5040.0f);
  series = series * f + splat (1.0f / 720.0f);
  series = series * f + splat (1.0f / 120.0f);
  series = series * f + splat (1.0f / 24.0f);
  series = series * f + splat (1.0f / 6.0f);
  series = series * f + splat (0.5f);
  series = series * f + splat (1.0f);
  series = series * f + splat (1.0f);
#if defined(__AVX512F__)
  return (vfloat) _mm512_scalef_ps ((__m512) series, (__m512) whole);
#else
  /* Unsigned, so that shifting a negative exponent is defined. */
  vuint shift = (vuint) __builtin_convertvector (whole, vint) << 23;
  return (vfloat) ((vuint) series + shift);
#endif
}

static inline double
sum_lanes (vfloat v)
{
  double sum = 0.0;
  for (int lane = 0; lane < LANES; lane++)
    sum += (double) v[lane];
  return sum;
}

static inline vfloat
load (const float *p)
{
  return *(const vfloat *) p;
}

#define PAIR_WEIGHTS(form, exponent, at)                                                                              \
  vfloat dx = (qx_hi - load (points->x_hi + (at))) + (qx_lo - load (points->x_lo + (at)));                           \
  vfloat dy = (qy_hi - load (points->y_hi + (at))) + (qy_lo - load (points->y_lo + (at)));                           \
  vfloat d2 = dx * dx + dy * dy + smoothing2;                                                                         \
  vfloat w = (form) == SHEPARD_WEIGHT_INVERSE_SQUARE ? reciprocal (d2) : exp2_of ((exponent) * log2_positive (d2));

/* Lanes whose point is of the query's fold weigh nothing; with excluding false the compiler drops the test. */
static inline vint
kept_lanes (const shepard_kernel_points *points, const shepard_kernel_query *query, bool excluding, size_t at)
{
  if (!excluding)
    return (vint) {} - 1;
  return (vint) (*(const vuint *) (points->labels + at) != (vuint) {} + query->label);
}

static inline __attribute__ ((always_inline)) void
tile_sums (const shepard_kernel_points *points, size_t begin, size_t end, size_t full_end,
           const shepard_kernel_query *query, shepard_weight_form form, bool excluding, double *sum_w,
           double *sum_wz)
{
  const vfloat qx_hi = splat (query->x_hi), qx_lo = splat (query->x_lo);
  const vfloat qy_hi = splat (query->y_hi), qy_lo = splat (query->y_lo);
  const vfloat exponent = splat (query->exponent);
  const vfloat smoothing2 = splat (query->smoothing2);
  vfloat sw = splat (0.0f), swz = splat (0.0f);
  size_t last = end < full_end ? end : full_end;
  for (size_t i = begin; i < last; i += LANES)
    {
      PAIR_WEIGHTS (form, exponent, i)
      /* A held-out point at the query's own place weighs infinity: masking turns it into 0, not NaN. */
      w = (vfloat) ((vint) w & kept_lanes (points, query, excluding, i));
      sw += w;
      swz += w * load (points->z + i);
    }
  if (end > full_end)
    {
      /* The last, partly filled vector: lanes past n must weigh nothing. */
      vint lane = {};
      for (int l = 0; l < LANES; l++)
        lane[l] = l;
      vint real = lane < (vint) {} + (int32_t) (points->n - full_end);
      PAIR_WEIGHTS (form, exponent, full_end)
      w = (vfloat) ((vint) w & real & kept_lanes (points, query, excluding, full_end));
      sw += w;
      swz += w * load (points->z + full_end);
    }
  *sum_w += sum_lanes (sw);
  *sum_wz += sum_lanes (swz);
}

void
KERNEL_NAME (shepard_weighted_sums) (const shepard_kernel_points *points, const shepard_kernel_query *queries,
                                     size_t n_queries, shepard_weight_form form, double *sum_w, double *sum_wz)
{
  size_t full_end = points->n / LANES * LANES;
  size_t padded_end = (points->n + LANES - 1) / LANES * LANES;
  for (size_t tile = 0; tile < padded_end; tile += TILE_POINTS)
    {
      size_t end = tile + TILE_POINTS < padded_end ? tile + TILE_POINTS : padded_end;
      /* Specialised loops: the compiler drops the unused weight form and the unused fold test from each. */
      bool excluding = points->labels != NULL;
      if (form == SHEPARD_WEIGHT_INVERSE_SQUARE && !excluding)
        for (size_t q = 0; q < n_queries; q++)
          tile_sums (points, tile, end, full_end, &queries[q], SHEPARD_WEIGHT_INVERSE_SQUARE, false, &sum_w[q],
                     &sum_wz[q]);
      else if (form == SHEPARD_WEIGHT_INVERSE_SQUARE)
        for (size_t q = 0; q < n_queries; q++)
          tile_sums (points, tile, end, full_end, &queries[q], SHEPARD_WEIGHT_INVERSE_SQUARE, true, &sum_w[q],
                     &sum_wz[q]);
      else if (!excluding)
        for (size_t q = 0; q < n_queries; q++)
          tile_sums (points, tile, end, full_end, &queries[q], SHEPARD_WEIGHT_POWER, false, &sum_w[q], &sum_wz[q]);
      else
        for (size_t q = 0; q < n_queries; q++)
          tile_sums (points, tile, end, full_end, &queries[q], SHEPARD_WEIGHT_POWER, true, &sum_w[q], &sum_wz[q]);
    }
}
