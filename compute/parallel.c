/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "parallel.h"

#include "engine-private.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

/* How often the calling thread wakes to report progress and look for a cancel: a cancelled job gives the engine up
 * within this and a chunk's work, which the window's in-line preview may be waiting for (a few milliseconds). */
#define PROGRESS_INTERVAL_NS 5000000L

typedef struct {
  shepard_chunk_fn work;
  void *context;
  size_t n_items, chunk_size;
  atomic_size_t next_item;
  atomic_size_t done_items;
  atomic_bool stop;
  pthread_mutex_t lock;
  pthread_cond_t changed;
  int running_workers;
  shepard_error failure; /* first worker failure, under lock */
  bool failed;
} parallel_job;

typedef struct {
  parallel_job *job;
  int index;
} worker_slot;

static void *
worker_main (void *data)
{
  worker_slot *slot = data;
  parallel_job *job = slot->job;
  shepard_error error = { SHEPARD_OK, "" };

  while (!atomic_load_explicit (&job->stop, memory_order_relaxed))
    {
      size_t begin = atomic_fetch_add (&job->next_item, job->chunk_size);
      if (begin >= job->n_items)
        break;
      size_t end = begin + job->chunk_size < job->n_items ? begin + job->chunk_size : job->n_items;
      if (!job->work (job->context, begin, end, slot->index, &error))
        {
          pthread_mutex_lock (&job->lock);
          if (!job->failed)
            {
              job->failed = true;
              job->failure = error;
            }
          pthread_mutex_unlock (&job->lock);
          atomic_store (&job->stop, true);
          break;
        }
      atomic_fetch_add (&job->done_items, end - begin);
    }

  pthread_mutex_lock (&job->lock);
  job->running_workers--;
  pthread_cond_signal (&job->changed);
  pthread_mutex_unlock (&job->lock);
  return NULL;
}

int
shepard_cpu_count (void)
{
  long count = sysconf (_SC_NPROCESSORS_ONLN);
  return count < 1 ? 1 : (int) count;
}

shepard_status
shepard_parallel_for (int threads, size_t n_items, size_t chunk_size, shepard_chunk_fn work, void *context,
                      shepard_progress_fn progress, void *progress_data, const char *message, shepard_error *error)
{
  if (n_items == 0)
    {
      if (progress && !progress (1.0, message, progress_data))
        return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
      return SHEPARD_OK;
    }
  if (chunk_size == 0)
    chunk_size = 1;
  size_t chunks = (n_items + chunk_size - 1) / chunk_size;
  if (threads < 1)
    threads = 1;
  if ((size_t) threads > chunks)
    threads = (int) chunks;

  parallel_job job = {
    .work = work,
    .context = context,
    .n_items = n_items,
    .chunk_size = chunk_size,
  };
  atomic_init (&job.next_item, 0);
  atomic_init (&job.done_items, 0);
  atomic_init (&job.stop, false);

  pthread_condattr_t attributes;
  pthread_condattr_init (&attributes);
  pthread_condattr_setclock (&attributes, CLOCK_MONOTONIC);
  pthread_mutex_init (&job.lock, NULL);
  pthread_cond_init (&job.changed, &attributes);
  pthread_condattr_destroy (&attributes);

  pthread_t *handles = malloc ((size_t) threads * sizeof *handles);
  worker_slot *slots = malloc ((size_t) threads * sizeof *slots);
  if (!handles || !slots)
    {
      free (handles);
      free (slots);
      pthread_cond_destroy (&job.changed);
      pthread_mutex_destroy (&job.lock);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to start %d threads.", threads);
    }

  if (progress && !progress (0.0, message, progress_data))
    {
      free (handles);
      free (slots);
      pthread_cond_destroy (&job.changed);
      pthread_mutex_destroy (&job.lock);
      return shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
    }

  int started = 0;
  pthread_mutex_lock (&job.lock);
  for (; started < threads; started++)
    {
      slots[started] = (worker_slot) { &job, started };
      if (pthread_create (&handles[started], NULL, worker_main, &slots[started]) != 0)
        break;
      job.running_workers++;
    }
  pthread_mutex_unlock (&job.lock);

  shepard_status status = SHEPARD_OK;
  if (started == 0)
    {
      status = shepard_fail (error, SHEPARD_ERROR_INTERNAL, "Could not start a worker thread.");
      atomic_store (&job.stop, true);
    }

  bool cancelled = false;
  pthread_mutex_lock (&job.lock);
  while (job.running_workers > 0)
    {
      struct timespec deadline;
      clock_gettime (CLOCK_MONOTONIC, &deadline);
      deadline.tv_nsec += PROGRESS_INTERVAL_NS;
      if (deadline.tv_nsec >= 1000000000L)
        {
          deadline.tv_sec++;
          deadline.tv_nsec -= 1000000000L;
        }
      int wait = pthread_cond_timedwait (&job.changed, &job.lock, &deadline);
      if (wait == ETIMEDOUT && progress && !cancelled)
        {
          double fraction = (double) atomic_load (&job.done_items) / (double) n_items;
          pthread_mutex_unlock (&job.lock);
          bool go_on = progress (fraction, message, progress_data);
          pthread_mutex_lock (&job.lock);
          if (!go_on)
            {
              cancelled = true;
              atomic_store (&job.stop, true);
            }
        }
    }
  pthread_mutex_unlock (&job.lock);

  for (int i = 0; i < started; i++)
    pthread_join (handles[i], NULL);
  free (handles);
  free (slots);

  if (status == SHEPARD_OK && job.failed)
    {
      if (error)
        *error = job.failure;
      status = job.failure.code != SHEPARD_OK ? job.failure.code : SHEPARD_ERROR_INTERNAL;
    }
  else if (status == SHEPARD_OK && cancelled)
    status = shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");
  else if (status == SHEPARD_OK && progress && !progress (1.0, message, progress_data))
    status = shepard_fail (error, SHEPARD_ERROR_CANCELLED, "Cancelled.");

  pthread_cond_destroy (&job.changed);
  pthread_mutex_destroy (&job.lock);
  return status;
}
