/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cpu-kernels.h"

#include "shepard-compute-config.h"

#include <stdlib.h>
#include <string.h>

/* SHEPARD_CPU_KERNELS=baseline|avx2|avx512 caps the choice, so that tests and benchmarks can exercise every build
 * of the kernels on one machine (as GDAL_USE_AVX does for gdal_grid). */
const shepard_cpu_kernels *
shepard_cpu_kernels_select (void)
{
#if defined(__x86_64__) || defined(__i386__)
  static const shepard_cpu_kernels baseline = { "SSE2", shepard_weighted_sums_baseline };
#else
  static const shepard_cpu_kernels baseline = { "portable", shepard_weighted_sums_baseline };
#endif
  const char *cap = getenv ("SHEPARD_CPU_KERNELS");
  if (cap && strcmp (cap, "baseline") == 0)
    return &baseline;
#if SHEPARD_HAVE_AVX512_KERNELS
  static const shepard_cpu_kernels avx512 = { "AVX-512", shepard_weighted_sums_avx512 };
  if ((!cap || strcmp (cap, "avx512") == 0) && __builtin_cpu_supports ("avx512f")
      && __builtin_cpu_supports ("avx512dq") && __builtin_cpu_supports ("fma"))
    return &avx512;
#endif
#if SHEPARD_HAVE_AVX2_KERNELS
  static const shepard_cpu_kernels avx2 = { "AVX2+FMA", shepard_weighted_sums_avx2 };
  if (__builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma"))
    return &avx2;
#endif
  return &baseline;
}
