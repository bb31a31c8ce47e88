/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <mpi.h>

#include "layer-scan.h"

G_BEGIN_DECLS

/* Makes of each rank's scan of its part of the layer (shepard_layer_scan_part: part its rank of n_parts the ranks of
 * comm) the scan of the whole layer, on every rank, as one scan of every strip makes it: the points counted, the
 * extents widened, the hulls merged (bit for bit: convex-hull.h), fields the same points where they are so on every
 * rank, and the names rank 0 read in strip 0. shepard_layer_scan_finish then ends it. Collective: every rank of comm
 * calls it. */
void shepard_rank_scan_combine (MPI_Comm comm, ShepardLayerScan *scan);

G_END_DECLS
