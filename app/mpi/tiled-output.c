/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "tiled-output.h"

#include <errno.h>
#include <gdal_utils.h>
#include <glib/gstdio.h>

#include "file-identity.h"
#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"
#include "watched-progress.h"

#define TILES_SUFFIX ".tiles"
#define MOSAIC_NAME "mosaic.vrt"
/* How long a failed output keeps removing what late ranks write into its staging directory: 2 s at most. */
#define REMOVE_ATTEMPTS 100
#define REMOVE_PAUSE_MICROSECONDS 20000

/* One raster of the output. */
typedef struct {
  char *destination;
  char *staging;         /* the hidden directory beside it */
  char *tiles_directory; /* in staging, under the name it gets beside the destination */
  char *placed_tiles;    /* beside the destination: a VRT's tiles once in place */
  char *staged;          /* in staging: the whole raster, once built */
} StagedRaster;

struct _ShepardTiledOutput {
  StagedRaster *rasters;
  size_t n_rasters;
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

/* Beside destination: the directory of its tiles once it is a VRT in place. */
static char *
placed_tiles_path (const char *destination)
{
  g_autofree char *directory = g_path_get_dirname (destination);
  g_autofree char *tiles = tiles_name (destination);

  return g_build_filename (directory, tiles, NULL);
}

gboolean
shepard_tiled_output_check (const char *const *destinations, size_t n_destinations, const char *driver_name,
                            gboolean *is_vrt, GError **error)
{
  g_return_val_if_fail (destinations != NULL && n_destinations > 0 && driver_name != NULL && is_vrt != NULL, FALSE);

  if (!shepard_tiled_output_is_vrt (destinations[0], driver_name, is_vrt, error))
    return FALSE;
  for (size_t i = 1; i < n_destinations; i++)
    {
      gboolean this_vrt;
      if (!shepard_tiled_output_is_vrt (destinations[i], driver_name, &this_vrt, error))
        return FALSE;
      if (this_vrt != *is_vrt)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                       "\"%s\" is%s named as a VRT and DST \"%s\" is%s: the rasters of one run are all VRTs or none; "
                       "name every output *.vrt or none, or give -of",
                       destinations[i], this_vrt ? "" : " not", destinations[0], *is_vrt ? "" : " not");
          return FALSE;
        }
    }
  if (!*is_vrt)
    return TRUE;
  for (size_t i = 0; i < n_destinations; i++)
    {
      g_autofree char *tiles = placed_tiles_path (destinations[i]);
      g_autofree char *canonical_tiles = g_canonicalize_filename (tiles, NULL);
      g_autofree char *tiles_inside = g_strconcat (canonical_tiles, G_DIR_SEPARATOR_S, NULL);
      for (size_t j = 0; j < n_destinations; j++)
        {
          g_autofree char *other_tiles = placed_tiles_path (destinations[j]);
          g_autofree char *other = g_canonicalize_filename (destinations[j], NULL);
          if ((j < i && shepard_paths_name_same_file (tiles, other_tiles))
              || shepard_paths_name_same_file (tiles, destinations[j]) || g_str_has_prefix (other, tiles_inside))
            {
              g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                           "the tiles of the VRT \"%s\" would go into \"%s\", %s \"%s\": give each VRT a name of "
                           "its own before its extension, outside the others' tiles directories",
                           destinations[i], tiles, j < i ? "as would those of" : "which is or holds the output",
                           destinations[j]);
              return FALSE;
            }
        }
    }
  return TRUE;
}

static void
staged_raster_clear (StagedRaster *raster)
{
  g_free (raster->destination);
  g_free (raster->staging);
  g_free (raster->tiles_directory);
  g_free (raster->placed_tiles);
  g_free (raster->staged);
}

static gboolean
stage (StagedRaster *raster, const char *destination, GError **error)
{
  g_autofree char *directory = g_path_get_dirname (destination);
  g_autofree char *name = g_path_get_basename (destination);
  g_autofree char *hidden = g_strdup_printf (".%s.shepard-mpi-XXXXXX", name);
  g_autofree char *staging = g_build_filename (directory, hidden, NULL);

  raster->destination = g_strdup (destination);
  if (g_mkdtemp_full (staging, 0755) == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "cannot write the raster \"%s\" in the directory \"%s\": %s; choose a directory you can write to",
                   destination, directory, g_strerror (errno));
      return FALSE;
    }
  g_autofree char *tiles = tiles_name (destination);
  raster->tiles_directory = g_build_filename (staging, tiles, NULL);
  raster->placed_tiles = placed_tiles_path (destination);
  raster->staging = g_steal_pointer (&staging);
  if (g_mkdir (raster->tiles_directory, 0755) != 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot make the directory \"%s\": %s",
                   raster->tiles_directory, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

ShepardTiledOutput *
shepard_tiled_output_new (const char *const *destinations, size_t n_destinations, gboolean is_vrt, GError **error)
{
  g_return_val_if_fail (destinations != NULL && n_destinations > 0, NULL);

  g_autoptr (ShepardTiledOutput) output = g_new0 (ShepardTiledOutput, 1);
  output->rasters = g_new0 (StagedRaster, n_destinations);
  output->is_vrt = is_vrt;
  for (size_t i = 0; i < n_destinations; i++)
    {
      output->n_rasters++;
      if (!stage (&output->rasters[i], destinations[i], error))
        return NULL;
    }
  return g_steal_pointer (&output);
}

const char *
shepard_tiled_output_get_tiles_directory (const ShepardTiledOutput *output, size_t index)
{
  g_return_val_if_fail (output != NULL && index < output->n_rasters, NULL);

  return output->rasters[index].tiles_directory;
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
build_mosaic (const char *tiles_directory, const ShepardTilePlan *plan, const char *path, ShepardGdalErrorTrap *trap,
              GError **error)
{
  const shepard_grid *raster = &plan->raster;
  g_autoptr (GPtrArray) tiles = g_ptr_array_new_with_free_func (g_free);
  for (size_t i = 0; i < plan->count; i++)
    {
      g_autofree char *name = shepard_tile_plan_file_name (plan, i);
      g_ptr_array_add (tiles, g_build_filename (tiles_directory, name, NULL));
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
place_vrt (StagedRaster *raster, GError **error)
{
  g_autofree char *old_tiles = g_build_filename (raster->staging, "previous" TILES_SUFFIX, NULL);

  if (g_file_test (raster->placed_tiles, G_FILE_TEST_EXISTS) && !move (raster->placed_tiles, old_tiles, error))
    return FALSE;
  if (!move (raster->tiles_directory, raster->placed_tiles, error))
    return FALSE;
  if (!move (raster->staged, raster->destination, error))
    {
      g_rename (raster->placed_tiles, raster->tiles_directory);
      g_rename (old_tiles, raster->placed_tiles);
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

/* The raster whole in its staging directory: the VRT over its tiles, or the copy into format. */
static gboolean
build (StagedRaster *raster, gboolean is_vrt, const ShepardTilePlan *plan, const ShepardRasterFormat *format,
       GDALProgressFunc progress, void *progress_data, ShepardGdalErrorTrap *trap, GError **error)
{
  g_autofree char *name = g_path_get_basename (raster->destination);
  g_autofree char *mosaic_path = g_build_filename (raster->staging, is_vrt ? name : MOSAIC_NAME, NULL);
  GDALDatasetH mosaic = build_mosaic (raster->tiles_directory, plan, mosaic_path, trap, error);
  if (mosaic == NULL)
    return FALSE;
  raster->staged = is_vrt ? g_steal_pointer (&mosaic_path) : g_build_filename (raster->staging, name, NULL);
  if (is_vrt)
    {
      shepard_gdal_error_trap_clear (trap);
      GDALClose (mosaic);
      if (shepard_gdal_error_trap_has_failure (trap))
        return report_gdal_failure (error, trap, "writing the VRT", raster->staged);
      return TRUE;
    }
  gboolean copied = copy_into_format (mosaic, raster->staged, format, progress, progress_data, trap, error);
  GDALClose (mosaic);
  return copied;
}

gboolean
shepard_tiled_output_commit (ShepardTiledOutput *output, const ShepardTilePlan *plan,
                             const ShepardRasterFormat *format, GDALProgressFunc progress, void *progress_data,
                             GError **error)
{
  g_return_val_if_fail (output != NULL && !output->committed && plan != NULL && format != NULL, FALSE);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  for (size_t i = 0; i < output->n_rasters; i++)
    {
      ShepardScaledProgress raster_progress = {
        .progress = progress != NULL ? progress : GDALDummyProgress,
        .progress_data = progress_data,
        .start = (double) i / (double) output->n_rasters,
        .span = 1.0 / (double) output->n_rasters,
      };
      if (!build (&output->rasters[i], output->is_vrt, plan, format, shepard_scaled_progress_report, &raster_progress,
                  &trap, error))
        return FALSE;
    }
  for (size_t i = 0; i < output->n_rasters; i++)
    {
      StagedRaster *raster = &output->rasters[i];
      if (output->is_vrt ? !place_vrt (raster, error) : !move (raster->staged, raster->destination, error))
        {
          if (i > 0)
            g_prefix_error (error, "%zu of the %zu rasters are in place, not \"%s\": ", i, output->n_rasters,
                            raster->destination);
          /* Those in place stay; what is staged of the others goes. */
          for (size_t placed = 0; placed < i; placed++)
            remove_tree (output->rasters[placed].staging);
          return FALSE;
        }
    }
  output->committed = TRUE;
  for (size_t i = 0; i < output->n_rasters; i++)
    remove_tree (output->rasters[i].staging);
  return TRUE;
}

void
shepard_tiled_output_free (ShepardTiledOutput *output)
{
  if (output == NULL)
    return;
  for (size_t i = 0; i < output->n_rasters; i++)
    {
      StagedRaster *raster = &output->rasters[i];
      /* A rank stopped by the same signal may still move a finished tile in while the tree goes: try again until it
       * is gone (once it is, such a move fails). */
      for (int attempt = 0; !output->committed && raster->staging != NULL
                            && g_file_test (raster->staging, G_FILE_TEST_EXISTS) && attempt < REMOVE_ATTEMPTS;
           attempt++)
        {
          if (attempt > 0)
            g_usleep (REMOVE_PAUSE_MICROSECONDS);
          remove_tree (raster->staging);
        }
      staged_raster_clear (raster);
    }
  g_free (output->rasters);
  g_free (output);
}
