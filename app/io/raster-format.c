/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "raster-format.h"

#include <string.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"

static gboolean
driver_has_capability (GDALDriverH driver, const char *capability)
{
  const char *value = GDALGetMetadataItem (driver, capability, NULL);

  return value != NULL && CPLTestBool (value);
}

gboolean
shepard_raster_driver_can_create (GDALDriverH driver)
{
  g_return_val_if_fail (driver != NULL, FALSE);

  return driver_has_capability (driver, GDAL_DCAP_CREATE);
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
                   "a creation option is not right for the %s format: %s", GDALGetDriverShortName (driver),
                   shepard_gdal_error_trap_reason (&trap, "an option or its value is not valid"));
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
  if (!driver_has_capability (driver, GDAL_DCAP_RASTER))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "the %s format holds no rasters: choose a raster format such as GTiff or COG", name);
      return NULL;
    }
  if (!driver_has_capability (driver, GDAL_DCAP_CREATE) && !driver_has_capability (driver, GDAL_DCAP_CREATECOPY))
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
