/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers shared by the engine's source files; not part of the public API. */
#ifndef SHEPARD_ENGINE_PRIVATE_H
#define SHEPARD_ENGINE_PRIVATE_H

#include "shepard-engine.h"

#if defined(__GNUC__)
#define SHEPARD_PRINTF(f, a) __attribute__ ((format (printf, f, a)))
#else
#define SHEPARD_PRINTF(f, a)
#endif

/* Fills error (which may be NULL) and returns code, so that callers can write `return shepard_fail (...)`. */
shepard_status shepard_fail (shepard_error *error, shepard_status code, const char *format, ...) SHEPARD_PRINTF (3, 4);

/* shepard-engine.h's device grid: float32 values, alphas and r_obs on one CUDA device, capacity cells reserved. Only
 * the CUDA backend makes and fills one; its fields are plain so that the engine reads them without CUDA. */
struct shepard_device_grid {
  int device;
  size_t width, height, capacity;
  float *values, *alpha, *r_obs;
};

/* a * b without overflow, or false. */
static inline int
shepard_size_mul (size_t a, size_t b, size_t *product)
{
  if (a != 0 && b > (size_t) -1 / a)
    return 0;
  *product = a * b;
  return 1;
}

#endif
