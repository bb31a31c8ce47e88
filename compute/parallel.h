/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Runs work over a range of items on worker threads while the calling thread reports progress and answers cancel:
 * only the calling thread ever calls the user's progress callback (GDAL's rule). */
#ifndef SHEPARD_PARALLEL_H
#define SHEPARD_PARALLEL_H

#include "shepard-engine.h"

/* Processes items [begin, end) on worker `worker` (0 .. threads-1). Returns false after filling *error to stop all. */
typedef bool (*shepard_chunk_fn) (void *context, size_t begin, size_t end, int worker, shepard_error *error);

/* Items are handed out in chunks of chunk_size; keep a chunk's work to a few milliseconds so that cancel is answered
 * quickly. progress may be NULL. */
shepard_status shepard_parallel_for (int threads, size_t n_items, size_t chunk_size, shepard_chunk_fn work,
                                     void *context, shepard_progress_fn progress, void *progress_data,
                                     const char *message, shepard_error *error);

/* Number of online processors (at least 1). */
int shepard_cpu_count (void);

#endif
