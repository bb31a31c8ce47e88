/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tile-coordinator.h"

#include <time.h>

/* How long a wait sleeps between looks at its messages and the cancel flag. */
#define POLL_NANOSECONDS 2000000L

enum {
  TAG_REQUEST = 1, /* a rank asks rank 0 for a tile (dynamic) */
  TAG_GRANT,       /* rank 0's answer: a tile index, or -1 for none */
  TAG_DONE,        /* a rank wrote a tile: its index */
  TAG_FAILED,      /* a rank failed or was stopped by a signal */
  TAG_STOP,        /* rank 0 to every rank: stop */
};

struct _ShepardTileCoordinator {
  MPI_Comm comm;
  int rank, size;
  ShepardTileSchedule schedule;
  size_t n_tiles;
  size_t *tile_cells;
  ShepardTerminalProgress *bar;
  size_t current;       /* the tile being computed, n_tiles before the first */
  size_t static_next;   /* static: the next of this rank's tiles */
  gboolean stopped;     /* a rank failed: no more tiles anywhere */
  gboolean given_up;    /* this rank left its tiles (failure, stop, signal) */
  /* Rank 0 only. */
  size_t dynamic_next;
  double cells_total, cells_done;
  int ranks_finished; /* dynamic: ranks told there is no tile left, or failed */
};

ShepardTileCoordinator *
shepard_tile_coordinator_new (MPI_Comm comm, ShepardTileSchedule schedule, size_t n_tiles, const size_t *tile_cells,
                              ShepardTerminalProgress *bar)
{
  ShepardTileCoordinator *coordinator = g_new0 (ShepardTileCoordinator, 1);

  MPI_Comm_dup (comm, &coordinator->comm);
  MPI_Comm_rank (comm, &coordinator->rank);
  MPI_Comm_size (comm, &coordinator->size);
  coordinator->schedule = schedule;
  coordinator->n_tiles = n_tiles;
  coordinator->tile_cells = g_memdup2 (tile_cells, n_tiles * sizeof *tile_cells);
  coordinator->bar = bar;
  coordinator->current = n_tiles;
  coordinator->static_next = (size_t) coordinator->rank;
  for (size_t i = 0; i < n_tiles; i++)
    coordinator->cells_total += (double) tile_cells[i];
  return coordinator;
}

void
shepard_tile_coordinator_free (ShepardTileCoordinator *coordinator)
{
  if (coordinator == NULL)
    return;
  MPI_Comm_free (&coordinator->comm);
  g_free (coordinator->tile_cells);
  g_free (coordinator);
}

static gboolean
signalled (const ShepardTileCoordinator *coordinator)
{
  return coordinator->bar->cancel_requested != NULL && *coordinator->bar->cancel_requested != 0;
}

gboolean
shepard_tile_coordinator_cancelled (const ShepardTileCoordinator *coordinator)
{
  return signalled (coordinator);
}

static void
nap (void)
{
  const struct timespec pause = { 0, POLL_NANOSECONDS };

  nanosleep (&pause, NULL);
}

static void
send_long (ShepardTileCoordinator *coordinator, long value, int to, int tag)
{
  MPI_Send (&value, 1, MPI_LONG, to, tag, coordinator->comm);
}

static void
stop_everyone (ShepardTileCoordinator *coordinator)
{
  if (coordinator->stopped)
    return;
  coordinator->stopped = TRUE;
  for (int other = 1; other < coordinator->size; other++)
    send_long (coordinator, 0, other, TAG_STOP);
}

/* Rank 0: one message of another rank. */
static void
answer (ShepardTileCoordinator *coordinator, const MPI_Status *status)
{
  long value;

  MPI_Recv (&value, 1, MPI_LONG, status->MPI_SOURCE, status->MPI_TAG, coordinator->comm, MPI_STATUS_IGNORE);
  switch (status->MPI_TAG)
    {
    case TAG_REQUEST:
      if (!coordinator->stopped && coordinator->dynamic_next < coordinator->n_tiles)
        send_long (coordinator, (long) coordinator->dynamic_next++, status->MPI_SOURCE, TAG_GRANT);
      else
        {
          send_long (coordinator, -1, status->MPI_SOURCE, TAG_GRANT);
          coordinator->ranks_finished++;
        }
      break;
    case TAG_DONE:
      coordinator->cells_done += (double) coordinator->tile_cells[value];
      break;
    case TAG_FAILED:
      if (coordinator->schedule == SHEPARD_TILE_SCHEDULE_DYNAMIC)
        coordinator->ranks_finished++;
      stop_everyone (coordinator);
      break;
    default:
      break;
    }
}

/* Takes in what the other ranks said: rank 0 answers everything, the others hear a stop. */
static void
listen (ShepardTileCoordinator *coordinator)
{
  for (;;)
    {
      int pending = 0;
      MPI_Status status;
      MPI_Iprobe (MPI_ANY_SOURCE, coordinator->rank == 0 ? MPI_ANY_TAG : TAG_STOP, coordinator->comm, &pending,
                  &status);
      if (!pending)
        return;
      if (coordinator->rank == 0)
        answer (coordinator, &status);
      else
        {
          long value;
          MPI_Recv (&value, 1, MPI_LONG, 0, TAG_STOP, coordinator->comm, MPI_STATUS_IGNORE);
          coordinator->stopped = TRUE;
        }
    }
}

static void
draw (ShepardTileCoordinator *coordinator, double own_fraction)
{
  double own = coordinator->current < coordinator->n_tiles
                 ? own_fraction * (double) coordinator->tile_cells[coordinator->current]
                 : 0.0;
  double fraction = coordinator->cells_total > 0.0 ? (coordinator->cells_done + own) / coordinator->cells_total : 1.0;

  shepard_terminal_progress_report (MIN (fraction, 1.0), NULL, coordinator->bar);
}

int CPL_STDCALL
shepard_tile_coordinator_report (double fraction, const char *message, void *data)
{
  ShepardTileCoordinator *coordinator = data;

  listen (coordinator);
  if (coordinator->rank == 0)
    draw (coordinator, fraction);
  return !coordinator->stopped && !signalled (coordinator);
}

/* A worker's request for a dynamic tile: the answer, or -1 once stopped or signalled. */
static long
request_tile (ShepardTileCoordinator *coordinator)
{
  long granted = -1;
  MPI_Request request;

  send_long (coordinator, 0, 0, TAG_REQUEST);
  MPI_Irecv (&granted, 1, MPI_LONG, 0, TAG_GRANT, coordinator->comm, &request);
  for (;;)
    {
      int arrived = 0;
      MPI_Test (&request, &arrived, MPI_STATUS_IGNORE);
      if (arrived)
        return granted;
      if (signalled (coordinator))
        {
          MPI_Cancel (&request);
          MPI_Request_free (&request);
          return -1;
        }
      nap ();
    }
}

gboolean
shepard_tile_coordinator_next_tile (ShepardTileCoordinator *coordinator, size_t *index)
{
  listen (coordinator);
  if (coordinator->stopped || coordinator->given_up || signalled (coordinator))
    return FALSE;
  if (coordinator->schedule == SHEPARD_TILE_SCHEDULE_STATIC)
    {
      if (coordinator->static_next >= coordinator->n_tiles)
        return FALSE;
      coordinator->current = coordinator->static_next;
      coordinator->static_next += (size_t) coordinator->size;
    }
  else if (coordinator->rank == 0)
    {
      if (coordinator->dynamic_next >= coordinator->n_tiles)
        return FALSE;
      coordinator->current = coordinator->dynamic_next++;
    }
  else
    {
      long granted = request_tile (coordinator);
      if (granted < 0)
        {
          /* Told there is none left: rank 0 counted this rank as finished. */
          coordinator->given_up = TRUE;
          return FALSE;
        }
      coordinator->current = (size_t) granted;
    }
  *index = coordinator->current;
  return TRUE;
}

void
shepard_tile_coordinator_tile_done (ShepardTileCoordinator *coordinator)
{
  if (coordinator->rank == 0)
    coordinator->cells_done += (double) coordinator->tile_cells[coordinator->current];
  else
    send_long (coordinator, (long) coordinator->current, 0, TAG_DONE);
  coordinator->current = coordinator->n_tiles;
  if (coordinator->rank == 0)
    draw (coordinator, 0.0);
}

void
shepard_tile_coordinator_fail (ShepardTileCoordinator *coordinator)
{
  if (coordinator->rank == 0)
    stop_everyone (coordinator);
  else if (!coordinator->given_up)
    send_long (coordinator, 0, 0, TAG_FAILED);
  coordinator->given_up = TRUE;
}

/* Waits for a request, rank 0 answering the others meanwhile; FALSE when a signal came first. */
static gboolean
wait_listening (ShepardTileCoordinator *coordinator, MPI_Request *request)
{
  for (;;)
    {
      int done = 0;
      MPI_Test (request, &done, MPI_STATUS_IGNORE);
      if (done)
        return TRUE;
      if (signalled (coordinator))
        return FALSE;
      listen (coordinator);
      if (coordinator->rank == 0)
        draw (coordinator, 0.0);
      nap ();
    }
}

gboolean
shepard_tile_coordinator_finish (ShepardTileCoordinator *coordinator, gboolean succeeded, gboolean *interrupted)
{
  *interrupted = FALSE;
  if (!succeeded)
    shepard_tile_coordinator_fail (coordinator);
  /* A worker that found no tile left of the dynamic kind without asking (it never does) or that failed is counted;
   * rank 0 answers the others' last requests before it joins the vote. */
  while (coordinator->rank == 0 && coordinator->schedule == SHEPARD_TILE_SCHEDULE_DYNAMIC
         && coordinator->ranks_finished < coordinator->size - 1)
    {
      if (signalled (coordinator))
        {
          *interrupted = TRUE;
          return FALSE;
        }
      listen (coordinator);
      draw (coordinator, 0.0);
      nap ();
    }
  int mine = succeeded && !signalled (coordinator), all = 0;
  MPI_Request request;
  MPI_Iallreduce (&mine, &all, 1, MPI_INT, MPI_LAND, coordinator->comm, &request);
  if (!wait_listening (coordinator, &request))
    {
      *interrupted = TRUE;
      return FALSE;
    }
  listen (coordinator);
  return all != 0;
}
