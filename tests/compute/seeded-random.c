/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "seeded-random.h"

#include <math.h>

void
seeded_random_init (seeded_random *random, uint64_t seed)
{
  random->state = 0;
  random->increment = (seed << 1) | 1u;
  seeded_random_next (random);
  random->state += seed;
  seeded_random_next (random);
}

uint32_t
seeded_random_next (seeded_random *random)
{
  uint64_t previous = random->state;
  random->state = previous * 6364136223846793005ull + random->increment;
  uint32_t xorshifted = (uint32_t) (((previous >> 18u) ^ previous) >> 27u);
  uint32_t rotation = (uint32_t) (previous >> 59u);
  return (xorshifted >> rotation) | (xorshifted << ((-rotation) & 31u));
}

double
seeded_random_uniform (seeded_random *random)
{
  uint64_t high = seeded_random_next (random) >> 5;
  uint64_t low = seeded_random_next (random) >> 6;
  return (double) (high * 67108864u + low) / 9007199254740992.0;
}

double
seeded_random_range (seeded_random *random, double low, double high)
{
  return low + (high - low) * seeded_random_uniform (random);
}

double
seeded_random_normal (seeded_random *random)
{
  double u, v, s;
  do
    {
      u = 2.0 * seeded_random_uniform (random) - 1.0;
      v = 2.0 * seeded_random_uniform (random) - 1.0;
      s = u * u + v * v;
    }
  while (s >= 1.0 || s == 0.0);
  return u * sqrt (-2.0 * log (s) / s);
}

uint32_t
seeded_random_below (seeded_random *random, uint32_t bound)
{
  return (uint32_t) (seeded_random_uniform (random) * bound);
}
