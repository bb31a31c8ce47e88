/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <mpi.h>

#include "rank-engines.h"

G_BEGIN_DECLS

/* A rank's place: among all ranks, and among those on its node (MPI_COMM_TYPE_SHARED). */
typedef struct {
  int rank, size;
  int local_rank, local_size;
  int busiest_node_size; /* the most ranks that any node holds */
} ShepardRankPlace;

/* Collective over comm. */
void shepard_rank_place_init (ShepardRankPlace *place, MPI_Comm comm);

/* Where this rank's engines run: with GPUs (those of gpus_text, "all" or "0,1"; NULL: every visible one) and a
 * backend other than cpu, the one GPU local_rank mod their number; else the CPU with the node's cores shared among
 * its ranks. Fails (SHEPARD_APP_ERROR_USAGE) for a gpus_text the engine does not read. */
gboolean shepard_rank_place_choose_engine (const ShepardRankPlace *place, shepard_backend backend,
                                           shepard_precision precision, const char *gpus_text,
                                           ShepardEngineChoice *choice, GError **error);

G_END_DECLS
