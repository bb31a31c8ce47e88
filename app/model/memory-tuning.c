/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "memory-tuning.h"

#ifdef __GLIBC__
#include <malloc.h>
#endif

/* Blocks from a float grid of 256 x 256 cells up are mapped: every surface of a fine preview, none of the small. */
#define MAPPED_BLOCK_SIZE (256 * 1024)

void
shepard_tune_memory (void)
{
#ifdef __GLIBC__
  /* glibc raises its mmap threshold to the size of every mapped block freed (up to 32 MiB): after the first few
   * surfaces, later ones of up to that size come from the heap instead, where what they leave when freed stays
   * resident, in a separate arena for each thread that allocated them. Setting the threshold keeps it fixed. */
  mallopt (M_MMAP_THRESHOLD, MAPPED_BLOCK_SIZE);
  /* Previews, instruments and loads run in pool threads that come and go; they share two arenas rather than holding
   * up to eight per core, and the engine's threads allocate nothing in their inner loops. */
  mallopt (M_ARENA_MAX, 2);
#endif
}
