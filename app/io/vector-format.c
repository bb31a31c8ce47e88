/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "vector-format.h"

#include <string.h>

#include "gdal-driver.h"
#include "shepard-app-error.h"

typedef struct {
  const char *extension;
  ShepardVectorFormat format;
} KnownFormat;

/* FlatGeobuf's spatial index would sort the points along a curve: the rows keep their order instead. */
static const KnownFormat known_formats[] = {
  { "gpkg", { "GPKG", { NULL }, { NULL }, FALSE } },
  { "csv", { "CSV", { "csvt", "prj", NULL }, { "GEOMETRY=AS_XY", NULL }, TRUE } },
  { "shp", { "ESRI Shapefile", { "shx", "dbf", "prj", "cpg", "qix", "sbn", "sbx", NULL }, { NULL }, FALSE } },
  { "geojson", { "GeoJSON", { NULL }, { NULL }, FALSE } },
  { "json", { "GeoJSON", { NULL }, { NULL }, FALSE } },
  { "fgb", { "FlatGeobuf", { NULL }, { "SPATIAL_INDEX=NO", NULL }, FALSE } },
  { "gml", { "GML", { "xsd", "gfs", NULL }, { NULL }, FALSE } },
  { "sqlite", { "SQLite", { NULL }, { NULL }, FALSE } },
};

/* "Use .gpkg, .csv, ... or": the known extensions, for a message that asks for one. */
static char *
list_known_extensions (void)
{
  GString *names = g_string_new (NULL);

  for (size_t i = 0; i < G_N_ELEMENTS (known_formats); i++)
    g_string_append_printf (names, "%s.%s", i > 0 ? ", " : "", known_formats[i].extension);
  return g_string_free (names, FALSE);
}

/* The extension after the last dot of the file name, lower case; NULL when there is none. */
static char *
file_extension (const char *path)
{
  g_autofree char *name = g_path_get_basename (path);
  const char *dot = strrchr (name, '.');

  return dot != NULL && dot != name && dot[1] != '\0' ? g_ascii_strdown (dot + 1, -1) : NULL;
}

static gboolean
creates_vectors (GDALDriverH driver)
{
  return shepard_gdal_driver_has_capability (driver, GDAL_DCAP_VECTOR)
         && shepard_gdal_driver_has_capability (driver, GDAL_DCAP_CREATE);
}

static gboolean
lists_extension (GDALDriverH driver, const char *extension)
{
  const char *listing = GDALGetMetadataItem (driver, GDAL_DMD_EXTENSIONS, NULL);
  if (listing == NULL)
    return FALSE;

  g_auto (GStrv) extensions = g_strsplit (listing, " ", -1);
  for (char **listed = extensions; *listed != NULL; listed++)
    if (g_ascii_strcasecmp (*listed, extension) == 0)
      return TRUE;
  return FALSE;
}

/* The first driver in GDAL's order that creates vector datasets with geometries and lists the extension; when only
 * drivers without geometries list it, the first of those (refused by the caller, saying why). */
static GDALDriverH
driver_listing (const char *extension)
{
  GDALDriverH without_geometries = NULL;

  for (int i = 0; i < GDALGetDriverCount (); i++)
    {
      GDALDriverH driver = GDALGetDriver (i);
      if (!creates_vectors (driver) || !lists_extension (driver, extension))
        continue;
      if (!shepard_gdal_driver_has_capability (driver, GDAL_DCAP_NONSPATIAL))
        return driver;
      if (without_geometries == NULL)
        without_geometries = driver;
    }
  return without_geometries;
}

static const char *
driver_name_for_path (const char *path, GError **error)
{
  g_autofree char *extension = file_extension (path);

  for (size_t i = 0; extension != NULL && i < G_N_ELEMENTS (known_formats); i++)
    if (strcmp (extension, known_formats[i].extension) == 0)
      return known_formats[i].format.driver_name;
  GDALDriverH driver = extension != NULL ? driver_listing (extension) : NULL;
  if (driver != NULL)
    return GDALGetDriverShortName (driver);

  g_autofree char *known = list_known_extensions ();
  if (extension == NULL)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                 "cannot tell the vector format of \"%s\": its name has no extension; end it with one of %s or the "
                 "extension of another vector format GDAL writes (ogrinfo --formats lists them)",
                 path, known);
  else
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                 "cannot tell the vector format of \"%s\" from its extension: no vector format GDAL writes has the "
                 "extension .%s; end the name with one of %s or the extension of another (ogrinfo --formats lists "
                 "them)",
                 path, extension, known);
  return NULL;
}

GDALDriverH
shepard_vector_format_find_driver (const char *path, const char *driver_name, GError **error)
{
  g_return_val_if_fail (path != NULL, NULL);

  const char *wanted = driver_name != NULL ? driver_name : driver_name_for_path (path, error);
  if (wanted == NULL)
    return NULL;
  GDALDriverH driver = GDALGetDriverByName (wanted);
  if (driver == NULL || !creates_vectors (driver))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "\"%s\" is not a vector format this GDAL can write (ogrinfo --formats lists those marked w+)",
                   wanted);
      return NULL;
    }
  if (shepard_gdal_driver_has_capability (driver, GDAL_DCAP_NONSPATIAL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT,
                   "the %s format keeps no geometries, so \"%s\" would lose where the points are: choose a format "
                   "with geometries such as .gpkg, or .csv for the coordinates as the columns X and Y",
                   wanted, path);
      return NULL;
    }
  return driver;
}

const ShepardVectorFormat *
shepard_vector_format_for_driver (GDALDriverH driver)
{
  g_return_val_if_fail (driver != NULL, NULL);

  const char *name = GDALGetDriverShortName (driver);
  for (size_t i = 0; i < G_N_ELEMENTS (known_formats); i++)
    if (g_strcmp0 (known_formats[i].format.driver_name, name) == 0)
      return &known_formats[i].format;
  return NULL;
}
