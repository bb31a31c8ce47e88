/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "writable-formats.h"

#include <gdal.h>
#include <string.h>

#include "gdal-driver.h"
#include "raster-format.h"

static void
writable_format_free (gpointer data)
{
  ShepardWritableFormat *format = data;

  g_free (format->driver_name);
  g_free (format->description);
  g_free (format->extension);
  g_free (format);
}

GPtrArray *
shepard_writable_formats_list (void)
{
  GPtrArray *formats = g_ptr_array_new_with_free_func (writable_format_free);

  GDALAllRegister ();
  for (int i = 0; i < GDALGetDriverCount (); i++)
    {
      GDALDriverH driver = GDALGetDriver (i);
      const char *types = GDALGetMetadataItem (driver, GDAL_DMD_CREATIONDATATYPES, NULL);
      const char *extension = GDALGetMetadataItem (driver, GDAL_DMD_EXTENSION, NULL);
      if (!shepard_gdal_driver_has_capability (driver, GDAL_DCAP_RASTER)
          || (!shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATE)
              && !shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATECOPY))
          || types == NULL || strstr (types, "Float32") == NULL || extension == NULL || extension[0] == '\0')
        continue;
      ShepardWritableFormat *format = g_new0 (ShepardWritableFormat, 1);
      format->driver_name = g_strdup (GDALGetDriverShortName (driver));
      format->description = g_strdup_printf ("%s (.%s)", GDALGetDriverLongName (driver), extension);
      format->extension = g_strdup (extension);
      g_ptr_array_add (formats, format);
    }
  return formats;
}

guint
shepard_writable_formats_default (GPtrArray *formats)
{
  for (guint i = 0; i < formats->len; i++)
    {
      const ShepardWritableFormat *format = g_ptr_array_index (formats, i);
      if (g_strcmp0 (format->driver_name, SHEPARD_RASTER_DEFAULT_DRIVER) == 0)
        return i;
    }
  return 0;
}
