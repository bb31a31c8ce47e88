/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tiled-output.h"

#include <errno.h>
#include <gdal_utils.h>
#include <glib/gstdio.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"
#include "watched-progress.h"

#define TILES_SUFFIX ".tiles"
#define MOSAIC_NAME "mosaic.vrt"
/* How long a failed output keeps removing what late ranks write into its staging directory: 2 s at most. */
#define REMOVE_ATTEMPTS 100
#define REMOVE_PAUSE_MICROSECONDS 20000

struct _ShepardTiledOutput {
  char *destination;
  char *staging;             /* the hidden directory beside DST */
  char *tiles_directory;     /* in staging, under the name it gets beside DST */
  char *placed_tiles;        /* beside DST: the VRT's tiles once in place */
  gboolean is_vrt;
  gboolean committed;
};

gboolean
shepard_tiled_output_is_vrt (const char *destination, const char *driver_name, gboolean *is_vrt, GError **error)
{
  gboolean named_vrt = g_str_has_suffix (destination, ".vrt") || g_str_has_suffix (destination, ".VRT");
  gboolean asked_vrt = g_ascii_strcasecmp (driver_name, "VRT") == 0;

  if (named_vrt && !asked_vrt && g_ascii_strcasecmp (driver_name, "GTiff") != 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "DST \"%s\" is named as a VRT but -of asks for %s: give -of VRT, or name DST for %s",
                   destination, driver_name, driver_name);
      return FALSE;
    }
  *is_vrt = named_vrt || asked_vrt;
  return TRUE;
}

/* rm -r: what a killed rank left half-written is in there too. */
static void
remove_tree (const char *path)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) directory = g_dir_open (path, 0, NULL);
      for (const char *name = directory != NULL ? g_dir_read_name (directory) : NULL; name != NULL;
           name = g_dir_read_name (directory))
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static char *
tiles_name (const char *destination)
{
  g_autofree char *name = g_path_get_basename (destination);
  char *dot = strrchr (name, '.');

  if (dot != NULL && dot != name)
    *dot = '\0';
  return g_strconcat (name, TILES_SUFFIX, NULL);
}

ShepardTiledOutput *
shepard_tiled_output_new (const char *destination, gboolean is_vrt, GError **error)
{
  g_return_val_if_fail (destination != NULL, NULL);

  g_autofree char *directory = g_path_get_dirname (destination);
  g_autofree char *name = g_path_get_basename (destination);
  g_autofree char *hidden = g_strdup_printf (".%s.shepard-mpi-XXXXXX", name);
  g_autofree char *staging = g_build_filename (directory, hidden, NULL);
  if (g_mkdtemp_full (staging, 0755) == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "cannot write the raster \"%s\" in the directory \"%s\": %s; choose a directory you can write to",
                   destination, directory, g_strerror (errno));
      return NULL;
    }
  g_autofree char *tiles = tiles_name (destination);
  ShepardTiledOutput *output = g_new0 (ShepardTiledOutput, 1);
  output->destination = g_strdup (destination);
  output->tiles_directory = g_build_filename (staging, tiles, NULL);
  output->placed_tiles = g_build_filename (directory, tiles, NULL);
  output->staging = g_steal_pointer (&staging);
  output->is_vrt = is_vrt;
  if (g_mkdir (output->tiles_directory, 0755) != 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot make the directory \"%s\": %s",
                   output->tiles_directory, g_strerror (errno));
      shepard_tiled_output_free (output);
      return NULL;
    }
  return output;
}

const char *
shepard_tiled_output_get_tiles_directory (const ShepardTiledOutput *output)
{
  return output->tiles_directory;
}

static gboolean
report_gdal_failure (GError **error, const ShepardGdalErrorTrap *trap, const char *what, const char *path)
{
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "%s \"%s\" failed: %s", what, path,
               shepard_gdal_error_trap_reason (trap, "GDAL gave no reason"));
  return FALSE;
}

/* The first tile's dataset metadata and band descriptions, which GDALBuildVRT leaves out. */
static void
describe_like_first_tile (GDALDatasetH mosaic, const char *first_tile)
{
  g_auto (GDALDatasetH) tile = GDALOpen (first_tile, GA_ReadOnly);

  if (tile == NULL)
    return;
  GDALSetMetadata (mosaic, GDALGetMetadata (tile, NULL), NULL);
  for (int band = 1; band <= GDALGetRasterCount (mosaic) && band <= GDALGetRasterCount (tile); band++)
    GDALSetDescription (GDALGetRasterBand (mosaic, band), GDALGetDescription (GDALGetRasterBand (tile, band)));
}

static char *
format_number (double value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (text, sizeof text, "%.17g", value));
}

static GDALDatasetH
build_mosaic (const ShepardTiledOutput *output, const ShepardTilePlan *plan, const char *path,
              ShepardGdalErrorTrap *trap, GError **error)
{
  const shepard_grid *raster = &plan->raster;
  g_autoptr (GPtrArray) tiles = g_ptr_array_new_with_free_func (g_free);
  for (size_t i = 0; i < plan->count; i++)
    {
      g_autofree char *name = shepard_tile_plan_file_name (plan, i);
      g_ptr_array_add (tiles, g_build_filename (output->tiles_directory, name, NULL));
    }
  /* The raster's own extent and cell size, so that the VRT's geotransform is shepard-grid's to the bit. */
  double x_min = raster->x_min + (double) raster->first_column * raster->dx;
  double y_max = raster->y_max - (double) raster->first_row * raster->dy;
  g_autofree char *te_x_min = format_number (x_min);
  g_autofree char *te_y_min = format_number (y_max - (double) raster->height * raster->dy);
  g_autofree char *te_x_max = format_number (x_min + (double) raster->width * raster->dx);
  g_autofree char *te_y_max = format_number (y_max);
  g_autofree char *tr_x = format_number (raster->dx);
  g_autofree char *tr_y = format_number (raster->dy);
  char *arguments[] = { "-te", te_x_min, te_y_min, te_x_max, te_y_max, "-tr", tr_x, tr_y, NULL };
  GDALBuildVRTOptions *options = GDALBuildVRTOptionsNew (arguments, NULL);
  int usage_error = FALSE;
  shepard_gdal_error_trap_clear (trap);
  GDALDatasetH mosaic = GDALBuildVRT (path, (int) tiles->len, NULL, (const char *const *) tiles->pdata, options,
                                      &usage_error);
  GDALBuildVRTOptionsFree (options);
  if (mosaic == NULL)
    {
      report_gdal_failure (error, trap, "building the VRT", path);
      return NULL;
    }
  describe_like_first_tile (mosaic, g_ptr_array_index (tiles, 0));
  return mosaic;
}

static gboolean
move (const char *from, const char *to, GError **error)
{
  if (g_rename (from, to) == 0)
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot move \"%s\" onto \"%s\": %s", from, to,
               g_strerror (errno));
  return FALSE;
}

/* The tiles directory and the VRT onto their places; an older output's tiles go into the staging directory first,
 * to be removed with it. */
static gboolean
place_vrt (ShepardTiledOutput *output, const char *staged_vrt, GError **error)
{
  g_autofree char *old_tiles = g_build_filename (output->staging, "previous" TILES_SUFFIX, NULL);

  if (g_file_test (output->placed_tiles, G_FILE_TEST_EXISTS) && !move (output->placed_tiles, old_tiles, error))
    return FALSE;
  if (!move (output->tiles_directory, output->placed_tiles, error))
    return FALSE;
  if (!move (staged_vrt, output->destination, error))
    {
      g_rename (output->placed_tiles, output->tiles_directory);
      g_rename (old_tiles, output->placed_tiles);
      return FALSE;
    }
  return TRUE;
}

static gboolean
copy_into_format (GDALDatasetH mosaic, const char *path, const ShepardRasterFormat *format,
                  GDALProgressFunc progress, void *progress_data, ShepardGdalErrorTrap *trap, GError **error)
{
  GDALDriverH driver = shepard_raster_format_find_driver (format, error);
  if (driver == NULL)
    return FALSE;
  g_auto (GStrv) creation_options = shepard_raster_format_creation_options (format);
  ShepardWatchedProgress watched = { progress != NULL ? progress : GDALDummyProgress, progress_data, FALSE };
  shepard_gdal_error_trap_clear (trap);
  GDALDatasetH copy = GDALCreateCopy (driver, path, mosaic, FALSE, creation_options, shepard_watched_progress,
                                      &watched);
  if (copy != NULL)
    GDALClose (copy);
  if (watched.refused)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
      return FALSE;
    }
  if (copy == NULL || shepard_gdal_error_trap_has_failure (trap))
    return report_gdal_failure (error, trap, "writing the raster", path);
  return TRUE;
}

gboolean
shepard_tiled_output_commit (ShepardTiledOutput *output, const ShepardTilePlan *plan,
                             const ShepardRasterFormat *format, GDALProgressFunc progress, void *progress_data,
                             GError **error)
{
  g_return_val_if_fail (output != NULL && !output->committed && plan != NULL && format != NULL, FALSE);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  g_autofree char *name = g_path_get_basename (output->destination);
  g_autofree char *staged = g_build_filename (output->staging, output->is_vrt ? name : MOSAIC_NAME, NULL);
  GDALDatasetH mosaic = build_mosaic (output, plan, staged, &trap, error);
  if (mosaic == NULL)
    return FALSE;
  if (output->is_vrt)
    {
      shepard_gdal_error_trap_clear (&trap);
      GDALClose (mosaic);
      if (shepard_gdal_error_trap_has_failure (&trap))
        return report_gdal_failure (error, &trap, "writing the VRT", staged);
      if (!place_vrt (output, staged, error))
        return FALSE;
    }
  else
    {
      g_autofree char *raster = g_build_filename (output->staging, name, NULL);
      gboolean copied = copy_into_format (mosaic, raster, format, progress, progress_data, &trap, error);
      GDALClose (mosaic);
      if (!copied || !move (raster, output->destination, error))
        return FALSE;
    }
  output->committed = TRUE;
  remove_tree (output->staging);
  return TRUE;
}

void
shepard_tiled_output_free (ShepardTiledOutput *output)
{
  if (output == NULL)
    return;
  /* A rank stopped by the same signal may still move a finished tile in while the tree goes: try again until it is
   * gone (once it is, such a move fails). */
  for (int attempt = 0; !output->committed && g_file_test (output->staging, G_FILE_TEST_EXISTS)
                        && attempt < REMOVE_ATTEMPTS;
       attempt++)
    {
      if (attempt > 0)
        g_usleep (REMOVE_PAUSE_MICROSECONDS);
      remove_tree (output->staging);
    }
  g_free (output->destination);
  g_free (output->staging);
  g_free (output->tiles_directory);
  g_free (output->placed_tiles);
  g_free (output);
}
