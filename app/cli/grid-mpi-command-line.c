/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-mpi-command-line.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "option-parser.h"
#include "shepard-app-error.h"

/* Larger tiles than GDAL's int sizes allow are no tiles; the raster's own size is checked by its plan. */
#define MAX_TILE_SIZE ((guint64) G_MAXINT / SHEPARD_GRID_WINDOW_ALIGN * SHEPARD_GRID_WINDOW_ALIGN)

static gboolean
parse_tile_size (const char *text, size_t *tile_size, GError **error)
{
  char *end = NULL;
  errno = 0;
  guint64 size = text[0] >= '0' && text[0] <= '9' ? g_ascii_strtoull (text, &end, 10) : 0;

  if (end == NULL || *end != '\0' || errno != 0 || size == 0 || size > MAX_TILE_SIZE)
    return shepard_usage_error (error, "--tile-size N: \"%s\" is not a number of cells from 1 to %" G_GUINT64_FORMAT,
                                text, MAX_TILE_SIZE);
  *tile_size = (size_t) ((size + SHEPARD_GRID_WINDOW_ALIGN - 1) / SHEPARD_GRID_WINDOW_ALIGN
                         * SHEPARD_GRID_WINDOW_ALIGN);
  return TRUE;
}

static gboolean
parse_schedule (const char *text, ShepardTileSchedule *schedule, GError **error)
{
  if (g_strcmp0 (text, "static") == 0)
    *schedule = SHEPARD_TILE_SCHEDULE_STATIC;
  else if (g_strcmp0 (text, "dynamic") == 0)
    *schedule = SHEPARD_TILE_SCHEDULE_DYNAMIC;
  else
    return shepard_usage_error (error, "--schedule static|dynamic: \"%s\" is neither", text);
  return TRUE;
}

gboolean
shepard_grid_mpi_options_parse (ShepardGridMpiOptions *options, int argc, const char *const *argv, GError **error)
{
  g_return_val_if_fail (options != NULL && argv != NULL && argc >= 1, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *options = (ShepardGridMpiOptions) {
    .schedule = SHEPARD_TILE_SCHEDULE_STATIC,
  };
  g_autoptr (GPtrArray) rest = g_ptr_array_new ();
  g_ptr_array_add (rest, (gpointer) argv[0]);
  for (int i = 1; i < argc; i++)
    {
      gboolean tile_size = strcmp (argv[i], "--tile-size") == 0, schedule = strcmp (argv[i], "--schedule") == 0;
      if (!tile_size && !schedule)
        {
          g_ptr_array_add (rest, (gpointer) argv[i]);
          continue;
        }
      if (i + 1 >= argc)
        return shepard_usage_error (error, "%s needs a value", tile_size ? "--tile-size N" : "--schedule static|dynamic");
      i++;
      if (tile_size ? !parse_tile_size (argv[i], &options->tile_size, error)
                    : !parse_schedule (argv[i], &options->schedule, error))
        return FALSE;
    }
  g_ptr_array_add (rest, NULL);
  return shepard_grid_options_parse (&options->grid, (int) rest->len - 1, (const char *const *) rest->pdata, error);
}

void
shepard_grid_mpi_options_clear (ShepardGridMpiOptions *options)
{
  shepard_grid_options_clear (&options->grid);
}

char *
shepard_grid_mpi_usage (void)
{
  g_autofree char *grid_usage = g_strdup (shepard_grid_usage ());
  g_autofree char *renamed = NULL;
  g_auto (GStrv) words = g_strsplit (grid_usage, "shepard-grid ", 2);

  renamed = g_strjoinv ("shepard-grid-mpi [--tile-size N] [--schedule static|dynamic] ", words);
  return g_strdup_printf ("%s\nshepard-grid-mpi, under mpirun or srun, cuts the raster into tiles that the ranks "
                          "compute and write\nas GeoTIFFs; rank 0 then writes DST: a VRT over them (DST.vrt, the "
                          "tiles in DST's name + .tiles/)\nor, with any other -of (GTiff by default unless DST ends in "
                          ".vrt, COG...), one raster made from them.\nThe rasters of --alpha-out, --r-out and "
                          "--robs-out are written alike, each over tiles of its own.\n"
                          "  --tile-size N        cells a side of a tile, rounded up to a multiple of %d (default %d;"
                          "\n"
                          "                       with N nearest or a radius the ranks of a node share its memory, "
                          "so with\n"
                          "                       more ranks on a node, less: 1280 for 2, 1024 for 3 or 4, 768 for "
                          "5 to 7,\n"
                          "                       512 for 8 to 16, 256 beyond)\n"
                          "  --schedule S         static: tile i to rank i mod ranks (default); dynamic: rank 0 hands "
                          "out\n"
                          "                       the next tile to each rank that asks\n",
                          renamed, SHEPARD_GRID_WINDOW_ALIGN, SHEPARD_GRID_MPI_LONE_RANK_TILE_SIZE);
}
