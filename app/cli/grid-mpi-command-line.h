/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-command-line.h"

G_BEGIN_DECLS

/* The side of a tile for a rank alone on its node when --tile-size names none; ranks sharing a node take smaller ones
 * (shepard_tile_plan_shared_size). */
#define SHEPARD_GRID_MPI_LONE_RANK_TILE_SIZE 2048

/* How the tiles go to the ranks. */
typedef enum {
  SHEPARD_TILE_SCHEDULE_STATIC,  /* round-robin: tile i to rank i mod ranks */
  SHEPARD_TILE_SCHEDULE_DYNAMIC, /* rank 0 hands the next tile to whichever rank asks, working on tiles itself too */
} ShepardTileSchedule;

/* The command line of shepard-grid-mpi: shepard-grid's, plus how the raster is tiled. */
typedef struct {
  ShepardGridOptions grid;
  size_t tile_size;             /* cells a side, a multiple of SHEPARD_GRID_WINDOW_ALIGN; 0: not given */
  ShepardTileSchedule schedule; /* static unless --schedule dynamic */
} ShepardGridMpiOptions;

/* Takes --tile-size N (rounded up to a multiple of SHEPARD_GRID_WINDOW_ALIGN) and --schedule static|dynamic out of
 * argv, and gives the rest to shepard_grid_options_parse. Fails with SHEPARD_APP_ERROR_USAGE. */
gboolean shepard_grid_mpi_options_parse (ShepardGridMpiOptions *options, int argc, const char *const *argv,
                                         GError **error);

void shepard_grid_mpi_options_clear (ShepardGridMpiOptions *options);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardGridMpiOptions, shepard_grid_mpi_options_clear)

/* shepard-grid's usage with the options of the tiling. Free with g_free. */
char *shepard_grid_mpi_usage (void);

G_END_DECLS
