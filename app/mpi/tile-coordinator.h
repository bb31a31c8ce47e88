/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <mpi.h>
#include <signal.h>

#include "grid-mpi-command-line.h"
#include "terminal-progress.h"

G_BEGIN_DECLS

/* Who computes which tile, and what every rank hears of the others while it computes: the progress over all ranks
 * (on rank 0's terminal) and a stop when any rank fails or is stopped by a signal. Every wait on another rank also
 * watches this rank's cancel flag, so that a rank whose peer was killed ends when mpirun sends it SIGTERM instead of
 * waiting forever. Messages go through a communicator of its own. Calls come from the thread that called MPI_Init
 * (MPI_THREAD_FUNNELED): the engine calls progress callbacks on its caller's thread. */
typedef struct _ShepardTileCoordinator ShepardTileCoordinator;

/* tile_cells: the cells of each of the n_tiles tiles, for the progress; bar: rank 0's progress bar (its stream NULL
 * when quiet), whose cancel flag is the one watched. */
ShepardTileCoordinator *shepard_tile_coordinator_new (MPI_Comm comm, ShepardTileSchedule schedule, size_t n_tiles,
                                                      const size_t *tile_cells, ShepardTerminalProgress *bar);

/* The next tile this rank computes into index, or FALSE when there is none left for it, another rank failed, or a
 * signal asked this one to stop (shepard_tile_coordinator_cancelled). */
gboolean shepard_tile_coordinator_next_tile (ShepardTileCoordinator *coordinator, size_t *index);

/* A GDALProgressFunc for the work on the current tile: hears the other ranks (rank 0 answers them and draws the
 * bar) and returns FALSE once any rank has failed or a signal asked to stop. data: the coordinator. */
int CPL_STDCALL shepard_tile_coordinator_report (double fraction, const char *message, void *data);

/* The current tile is written. */
void shepard_tile_coordinator_tile_done (ShepardTileCoordinator *coordinator);

/* This rank failed: every other is told to stop. */
void shepard_tile_coordinator_fail (ShepardTileCoordinator *coordinator);

/* Whether a signal (or the loss of a peer) stopped this rank. */
gboolean shepard_tile_coordinator_cancelled (const ShepardTileCoordinator *coordinator);

/* Waits until every rank is done with its tiles and returns whether every one succeeded; FALSE also when a signal
 * stopped the wait (*interrupted is then TRUE: the ranks did not agree, and the caller must not wait on them
 * again). */
gboolean shepard_tile_coordinator_finish (ShepardTileCoordinator *coordinator, gboolean succeeded,
                                          gboolean *interrupted);

void shepard_tile_coordinator_free (ShepardTileCoordinator *coordinator);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardTileCoordinator, shepard_tile_coordinator_free)

G_END_DECLS
