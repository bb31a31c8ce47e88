/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "raster-format.h"

#include <cpl_string.h>
#include <cpl_vsi.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "gdal-autocleanups.h"
#include "gdal-driver.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"

gboolean
shepard_raster_driver_can_create (GDALDriverH driver)
{
  g_return_val_if_fail (driver != NULL, FALSE);

  return shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATE);
}

#define FALLBACK_NODATA (-9999.0)

double
shepard_raster_default_nodata (GDALDataType data_type, double value_min, double value_max)
{
  g_return_val_if_fail (data_type == GDT_Float32 || data_type == GDT_Float64, FALLBACK_NODATA);

  if (!(value_min <= FALLBACK_NODATA && FALLBACK_NODATA <= value_max))
    return FALLBACK_NODATA;
  return data_type == GDT_Float32 ? -FLT_MAX : -DBL_MAX;
}

static gboolean
has_option (const char *const *options, const char *name)
{
  return CSLFetchNameValue ((CSLConstList) options, name) != NULL;
}

char **
shepard_raster_format_creation_options (const ShepardRasterFormat *format)
{
  g_return_val_if_fail (format != NULL, NULL);

  const char *const *given = format->creation_options;
  const char *driver = format->driver_name != NULL ? format->driver_name : SHEPARD_RASTER_DEFAULT_DRIVER;
  g_autoptr (GStrvBuilder) options = g_strv_builder_new ();
  gboolean geotiff = g_ascii_strcasecmp (driver, "GTiff") == 0, cog = g_ascii_strcasecmp (driver, "COG") == 0;

  if (given != NULL)
    g_strv_builder_addv (options, (const char **) given);
  if (geotiff && !has_option (given, "TILED"))
    g_strv_builder_add (options, "TILED=YES");
  /* The predictor belongs to the default compression: a compression the user chose may not take it. */
  if ((geotiff || cog) && !has_option (given, "COMPRESS"))
    {
      g_strv_builder_add (options, "COMPRESS=DEFLATE");
      if (!has_option (given, "PREDICTOR"))
        g_strv_builder_add (options, geotiff ? "PREDICTOR=3" : "PREDICTOR=YES");
    }
  /* GDAL compresses the tiles on every core: a single-threaded DEFLATE takes longer than computing most grids on a GPU,
   * and the file is the same byte for byte. */
  if ((geotiff || cog) && !has_option (given, "NUM_THREADS"))
    g_strv_builder_add (options, "NUM_THREADS=ALL_CPUS");
  return g_strv_builder_end (options);
}

char **
shepard_raster_creation_options_parse (const char *text, GError **error)
{
  g_return_val_if_fail (text != NULL, NULL);

  g_auto (GStrv) words = g_strsplit_set (text, " \t\n", -1);
  g_autoptr (GStrvBuilder) options = g_strv_builder_new ();
  for (char **word = words; *word != NULL; word++)
    {
      if (**word == '\0')
        continue;
      const char *equals = strchr (*word, '=');
      if (equals == NULL || equals == *word)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                       "creation option \"%s\" must be written NAME=VALUE (options are separated by spaces)", *word);
          return NULL;
        }
      g_strv_builder_add (options, *word);
    }
  return g_strv_builder_end (options);
}

static gboolean
driver_stores_data_type (GDALDriverH driver, GDALDataType data_type)
{
  const char *stored = GDALGetMetadataItem (driver, GDAL_DMD_CREATIONDATATYPES, NULL);

  if (stored == NULL)
    return TRUE;
  g_auto (GStrv) names = g_strsplit (stored, " ", -1);
  return g_strv_contains ((const char *const *) names, GDALGetDataTypeName (data_type));
}

static gboolean
check_creation_options (GDALDriverH driver, const char *const *options, GError **error)
{
  for (const char *const *option = options; option != NULL && *option != NULL; option++)
    {
      const char *equals = strchr (*option, '=');
      if (equals == NULL || equals == *option)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                       "creation option \"%s\" must be written NAME=VALUE", *option);
          return FALSE;
        }
    }

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  if (!GDALValidateCreationOptions (driver, (CSLConstList) options))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "a creation option is not right for the %s format: %s (gdalinfo --format %s lists the options)",
                   GDALGetDriverShortName (driver),
                   shepard_gdal_error_trap_reason (&trap, "an option or its value is not valid"),
                   GDALGetDriverShortName (driver));
      return FALSE;
    }
  return TRUE;
}

GDALDriverH
shepard_raster_format_find_driver (const ShepardRasterFormat *format, GError **error)
{
  g_return_val_if_fail (format != NULL, NULL);
  g_return_val_if_fail (format->data_type == GDT_Float32 || format->data_type == GDT_Float64, NULL);

  const char *name = format->driver_name != NULL ? format->driver_name : SHEPARD_RASTER_DEFAULT_DRIVER;
  GDALDriverH driver = GDALGetDriverByName (name);
  if (driver == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "unknown raster format \"%s\": give a GDAL driver short name such as GTiff or COG "
                   "(gdalinfo --formats lists them)",
                   name);
      return NULL;
    }
  if (!shepard_gdal_driver_has_capability (driver, GDAL_DCAP_RASTER))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "the %s format holds no rasters: choose a raster format such as GTiff or COG", name);
      return NULL;
    }
  if (!shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATE)
      && !shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATECOPY))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "GDAL cannot write the %s format, only read it: choose another such as GTiff or COG", name);
      return NULL;
    }
  if (!driver_stores_data_type (driver, format->data_type))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "the %s format cannot store %s values (it stores %s): choose another such as GTiff or COG", name,
                   GDALGetDataTypeName (format->data_type),
                   GDALGetMetadataItem (driver, GDAL_DMD_CREATIONDATATYPES, NULL));
      return NULL;
    }
  if (!check_creation_options (driver, format->creation_options, error))
    return NULL;
  return driver;
}

/* One cell written at path as the raster will be: through Create, or through CreateCopy of a dataset in memory. */
static gboolean
probe_bands (GDALDriverH driver, const ShepardRasterFormat *format, size_t n_bands, const char *path,
             ShepardGdalErrorTrap *trap)
{
  double geotransform[6] = { 0.0, 1.0, 0.0, 1.0, 0.0, -1.0 };
  GDALDatasetH probe = NULL;

  if (shepard_raster_driver_can_create (driver))
    probe = GDALCreate (driver, path, 1, 1, (int) n_bands, format->data_type,
                        (CSLConstList) format->creation_options);
  else
    {
      g_auto (GDALDatasetH) cell = GDALCreate (GDALGetDriverByName ("MEM"), "", 1, 1, (int) n_bands,
                                               format->data_type, NULL);
      if (cell != NULL && GDALSetGeoTransform (cell, geotransform) == CE_None)
        probe = GDALCreateCopy (driver, path, cell, FALSE, (CSLConstList) format->creation_options, NULL, NULL);
    }
  if (probe == NULL)
    return FALSE;
  shepard_gdal_error_trap_clear (trap);
  GDALClose (probe);
  return !shepard_gdal_error_trap_has_failure (trap);
}

/* Why the format cannot hold n_bands bands, found by writing one cell in memory; NULL when it holds them. */
static char *
probe_refusal (GDALDriverH driver, const ShepardRasterFormat *format, size_t n_bands)
{
  static int probes = 0;
  const char *extension = GDALGetMetadataItem (driver, GDAL_DMD_EXTENSION, NULL);
  g_autofree char *directory = g_strdup_printf ("/vsimem/shepard-band-probe-%d", g_atomic_int_add (&probes, 1));
  g_autofree char *path = g_strdup_printf ("%s/probe.%s", directory,
                                           extension != NULL && *extension != '\0' ? extension : "raster");
  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);
  gboolean held = probe_bands (driver, format, n_bands, path, &trap);
  VSIRmdirRecursive (directory);
  if (held)
    return NULL;
  /* Some drivers start their reason with the file name, which means nothing to the user here. */
  const char *reason = shepard_gdal_error_trap_reason (&trap, "GDAL gave no reason");
  if (g_str_has_prefix (reason, path) && g_str_has_prefix (reason + strlen (path), ": "))
    reason += strlen (path) + 2;
  return g_strdup (reason);
}

/* What each probe found, by driver, data type, band count and creation options: a dialog's check, the export's and
 * each of its rasters ask the same question, and the answer does not change while the process runs. */
static GMutex probe_cache_mutex;
static GHashTable *probe_cache; /* key -> the refusal, or NULL where the format holds the bands */

static char *
probe_cache_key (GDALDriverH driver, const ShepardRasterFormat *format, size_t n_bands)
{
  GString *key = g_string_new (NULL);

  g_string_append_printf (key, "%s\n%d\n%zu", GDALGetDriverShortName (driver), (int) format->data_type, n_bands);
  for (const char *const *option = format->creation_options; option != NULL && *option != NULL; option++)
    g_string_append_printf (key, "\n%s", *option);
  return g_string_free (key, FALSE);
}

/* The refusal of the format, probing only the first time it is asked; NULL when it holds the bands. */
static char *
cached_refusal (GDALDriverH driver, const ShepardRasterFormat *format, size_t n_bands)
{
  g_autofree char *key = probe_cache_key (driver, format, n_bands);
  const char *stored = NULL;

  g_mutex_lock (&probe_cache_mutex);
  if (probe_cache == NULL)
    probe_cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  gboolean probed = g_hash_table_lookup_extended (probe_cache, key, NULL, (gpointer *) &stored);
  char *refusal = g_strdup (stored);
  g_mutex_unlock (&probe_cache_mutex);
  if (probed)
    return refusal;

  refusal = probe_refusal (driver, format, n_bands);
  g_mutex_lock (&probe_cache_mutex);
  g_hash_table_replace (probe_cache, g_steal_pointer (&key), g_strdup (refusal));
  g_mutex_unlock (&probe_cache_mutex);
  return refusal;
}

GDALDriverH
shepard_raster_format_find_driver_for_bands (const ShepardRasterFormat *format, size_t n_bands, GError **error)
{
  g_return_val_if_fail (format != NULL && n_bands >= 1, NULL);

  GDALDriverH driver = shepard_raster_format_find_driver (format, error);
  if (driver == NULL || n_bands == 1 || !shepard_gdal_driver_has_capability (driver, GDAL_DCAP_VIRTUALIO))
    return driver;
  if (n_bands > (size_t) G_MAXINT)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "a raster of %zu bands cannot be written: GDAL takes at most %d", n_bands, G_MAXINT);
      return NULL;
    }

  g_autofree char *refusal = cached_refusal (driver, format, n_bands);
  if (refusal != NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "the %s format cannot hold %zu bands of %s values (%s): write each surface to a raster of its "
                   "own, or choose a format such as GTiff or COG",
                   GDALGetDriverShortName (driver), n_bands, GDALGetDataTypeName (format->data_type), refusal);
      return NULL;
    }
  return driver;
}
