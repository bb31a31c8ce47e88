/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PCG32 (O'Neill 2014): a small generator whose sequence depends only on the seed, so a failing case reproduces
 * on any machine from the seed the test prints. */
#ifndef SEEDED_RANDOM_H
#define SEEDED_RANDOM_H

#include <stdint.h>

typedef struct {
  uint64_t state;
  uint64_t increment;
} seeded_random;

void seeded_random_init (seeded_random *random, uint64_t seed);
uint32_t seeded_random_next (seeded_random *random);
/* Uniform in [0, 1), 53 random bits. */
double seeded_random_uniform (seeded_random *random);
double seeded_random_range (seeded_random *random, double low, double high);
/* Standard normal (Marsaglia's polar method). */
double seeded_random_normal (seeded_random *random);
/* Uniform in [0, bound). */
uint32_t seeded_random_below (seeded_random *random, uint32_t bound);

#endif /* SEEDED_RANDOM_H */
