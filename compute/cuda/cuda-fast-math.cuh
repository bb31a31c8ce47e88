// SPDX-License-Identifier: GPL-3.0-or-later
// The special-function instructions the weighting kernels use, and 2^y on the FMA pipes for when they are the bound.
#pragma once

#include <cuda_runtime.h>

namespace shepard_cuda {

__device__ __forceinline__ float
fast_log2 (float x)
{
  float y;
  asm ("lg2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float
fast_exp2 (float x)
{
  float y;
  asm ("ex2.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

__device__ __forceinline__ float
fast_reciprocal (float x)
{
  float y;
  asm ("rcp.approx.ftz.f32 %0, %1;" : "=f"(y) : "f"(x));
  return y;
}

// 2^y for y <= ~0 on the FMA pipes: y = n + f with |f| <= 1/2 rounded by the 1.5 * 2^23 trick, whose low bits are n
// itself; 2^f by a degree-5 polynomial interpolating at the Chebyshev nodes (relative error 2.3e-7 in float); n added
// into the exponent field (one LEA). Below y = -126 that field would wrap: Clamp guards it, and the host drops the
// guard when no weight can be that small.
template <bool Clamp>
__device__ __forceinline__ float
polynomial_exp2 (float y)
{
  if (Clamp)
    y = fmaxf (y, -126.0f);
  float shifted = __fadd_rn (y, 12582912.0f);
  float f = __fsub_rn (y, __fsub_rn (shifted, 12582912.0f));
  float p = 1.339086336e-3f;
  p = fmaf (p, f, 9.676031918e-3f);
  p = fmaf (p, f, 5.550357114e-2f);
  p = fmaf (p, f, 2.402210749e-1f);
  p = fmaf (p, f, 6.931471880e-1f);
  p = fmaf (p, f, 1.000000075e+00f);
  return __int_as_float (__float_as_int (p) + (__float_as_int (shifted) << 23));
}

} // namespace shepard_cuda
