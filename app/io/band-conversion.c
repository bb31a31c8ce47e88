/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "band-conversion.h"

#include <math.h>

/* A thread is worth a chunk of this many cells at least (a few hundred microseconds of work). */
#define CHUNK_CELLS_MIN ((size_t) 1 << 18)
#define CHUNKS_MAX 16

typedef struct {
  double *values;
  size_t count;
  double nodata;
  GDALDataType type;
  void *converted;
} ConversionChunk;

struct _ShepardBandConverter {
  GThreadPool *pool; /* n_chunks - 1 threads, started by the first band that needs them; NULL before */
  size_t n_chunks;   /* the most a band is cut into: 1 where no pool could start */
  ConversionChunk chunks[CHUNKS_MAX];
  GMutex lock;
  GCond chunk_done;
  size_t chunks_left; /* of the pool's, in the run under way */
};

static void
convert_chunk (const ConversionChunk *chunk)
{
  for (size_t i = 0; i < chunk->count; i++)
    if (isnan (chunk->values[i]))
      chunk->values[i] = chunk->nodata;
  GDALCopyWords64 (chunk->values, GDT_Float64, (int) sizeof (double), chunk->converted, chunk->type,
                   GDALGetDataTypeSizeBytes (chunk->type), (GPtrDiff_t) chunk->count);
}

static void
convert_pooled_chunk (gpointer chunk, gpointer user_data)
{
  ShepardBandConverter *converter = user_data;

  convert_chunk (chunk);
  g_mutex_lock (&converter->lock);
  if (--converter->chunks_left == 0)
    g_cond_signal (&converter->chunk_done);
  g_mutex_unlock (&converter->lock);
}

ShepardBandConverter *
shepard_band_converter_new (void)
{
  ShepardBandConverter *converter = g_new0 (ShepardBandConverter, 1);

  g_mutex_init (&converter->lock);
  g_cond_init (&converter->chunk_done);
  converter->n_chunks = MIN ((size_t) g_get_num_processors (), (size_t) CHUNKS_MAX);
  return converter;
}

void
shepard_band_converter_free (ShepardBandConverter *converter)
{
  if (converter == NULL)
    return;
  if (converter->pool != NULL)
    g_thread_pool_free (converter->pool, FALSE, TRUE);
  g_mutex_clear (&converter->lock);
  g_cond_clear (&converter->chunk_done);
  g_free (converter);
}

void
shepard_band_converter_run (ShepardBandConverter *converter, double *values, size_t count, double nodata,
                            GDALDataType type, void *converted)
{
  g_return_if_fail (converter != NULL);
  g_return_if_fail ((values != NULL && converted != NULL) || count == 0);
  g_return_if_fail (GDALGetDataTypeSizeBytes (type) > 0);

  size_t type_size = (size_t) GDALGetDataTypeSizeBytes (type);
  size_t n_chunks = MIN (converter->n_chunks, MAX (count / CHUNK_CELLS_MIN, 1));
  /* A small export never needs the threads. */
  if (n_chunks > 1 && converter->pool == NULL)
    {
      converter->pool = g_thread_pool_new (convert_pooled_chunk, converter, (int) converter->n_chunks - 1, TRUE, NULL);
      if (converter->pool == NULL)
        converter->n_chunks = n_chunks = 1;
    }
  for (size_t c = 0; c < n_chunks; c++)
    {
      size_t begin = count / n_chunks * c + MIN (c, count % n_chunks);
      size_t end = begin + count / n_chunks + (c < count % n_chunks);
      converter->chunks[c] = (ConversionChunk) { values + begin, end - begin, nodata, type,
                                                 (char *) converted + begin * type_size };
    }
  /* The first chunk is this thread's, the others the pool's; a chunk the pool refuses is converted here too. */
  g_mutex_lock (&converter->lock);
  converter->chunks_left = n_chunks - 1;
  g_mutex_unlock (&converter->lock);
  for (size_t c = 1; c < n_chunks; c++)
    if (!g_thread_pool_push (converter->pool, &converter->chunks[c], NULL))
      convert_pooled_chunk (&converter->chunks[c], converter);
  convert_chunk (&converter->chunks[0]);
  g_mutex_lock (&converter->lock);
  while (converter->chunks_left > 0)
    g_cond_wait (&converter->chunk_done, &converter->lock);
  g_mutex_unlock (&converter->lock);
}
