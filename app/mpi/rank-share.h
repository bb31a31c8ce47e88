/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <mpi.h>

G_BEGIN_DECLS

/* What rank 0 found, sent to every rank (MPI_Bcast). Collective: every rank of comm calls each. */

/* Whether rank 0 succeeded: on the other ranks, FALSE sets error to say that rank 0 failed (rank 0 reports why). */
gboolean shepard_rank_share_outcome (MPI_Comm comm, gboolean succeeded, GError **error);

/* A string (NULL too) from rank 0: the other ranks get a copy in *text. */
void shepard_rank_share_string (MPI_Comm comm, char **text);

/* Rank 0's fields (a GPtrArray of ShepardPointLayer: points, names and CRS): the other ranks get them in *fields. */
void shepard_rank_share_fields (MPI_Comm comm, GPtrArray **fields);

G_END_DECLS
