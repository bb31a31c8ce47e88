/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cpu-kernels.h"

#include "shepard-compute-config.h"

const shepard_cpu_kernels *
shepard_cpu_kernels_select (void)
{
  static const shepard_cpu_kernels baseline = { "SSE2", shepard_weighted_sums_baseline };
#if SHEPARD_HAVE_AVX512_KERNELS
  static const shepard_cpu_kernels avx512 = { "AVX-512", shepard_weighted_sums_avx512 };
  if (__builtin_cpu_supports ("avx512f") && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("fma"))
    return &avx512;
#endif
#if SHEPARD_HAVE_AVX2_KERNELS
  static const shepard_cpu_kernels avx2 = { "AVX2+FMA", shepard_weighted_sums_avx2 };
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return &avx2;
#endif
  return &baseline;
}
