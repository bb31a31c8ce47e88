/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "band-conversion.h"

#include <math.h>

/* A thread is worth starting for this many cells at least (a few hundred microseconds of work). */
#define CHUNK_CELLS_MIN ((size_t) 1 << 18)
#define CHUNKS_MAX 16

typedef struct {
  double *values;
  size_t count;
  double nodata;
  GDALDataType type;
  void *converted;
} ConversionChunk;

static gpointer
convert_chunk (gpointer data)
{
  ConversionChunk *chunk = data;

  for (size_t i = 0; i < chunk->count; i++)
    if (isnan (chunk->values[i]))
      chunk->values[i] = chunk->nodata;
  GDALCopyWords64 (chunk->values, GDT_Float64, (int) sizeof (double), chunk->converted, chunk->type,
                   GDALGetDataTypeSizeBytes (chunk->type), (GPtrDiff_t) chunk->count);
  return NULL;
}

void
shepard_band_convert (double *values, size_t count, double nodata, GDALDataType type, void *converted)
{
  g_return_if_fail ((values != NULL && converted != NULL) || count == 0);
  g_return_if_fail (GDALGetDataTypeSizeBytes (type) > 0);

  size_t type_size = (size_t) GDALGetDataTypeSizeBytes (type);
  size_t n_chunks = MIN (MIN ((size_t) g_get_num_processors (), (size_t) CHUNKS_MAX), MAX (count / CHUNK_CELLS_MIN, 1));
  ConversionChunk chunks[CHUNKS_MAX];
  GThread *threads[CHUNKS_MAX] = { NULL };

  for (size_t c = 0; c < n_chunks; c++)
    {
      size_t begin = count / n_chunks * c + MIN (c, count % n_chunks);
      size_t end = begin + count / n_chunks + (c < count % n_chunks);
      chunks[c] = (ConversionChunk) { values + begin, end - begin, nodata, type,
                                      (char *) converted + begin * type_size };
    }
  /* The first chunk is this thread's; a chunk whose thread cannot start is converted here too. */
  for (size_t c = 1; c < n_chunks; c++)
    threads[c] = g_thread_try_new ("shepard-band-conversion", convert_chunk, &chunks[c], NULL);
  convert_chunk (&chunks[0]);
  for (size_t c = 1; c < n_chunks; c++)
    if (threads[c] != NULL)
      g_thread_join (threads[c]);
    else
      convert_chunk (&chunks[c]);
}
