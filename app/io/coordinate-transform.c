/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "coordinate-transform.h"

#include <cpl_error.h>
#include <math.h>
#include <ogr_srs_api.h>

#include "shepard-app-error.h"

struct _ShepardCoordinateTransform {
  OGRSpatialReferenceH crs, wgs84;
  OGRCoordinateTransformationH to_wgs84;
  char *crs_name;
  gboolean geographic;
  double metres_per_unit;
};

void
shepard_coordinate_transform_free (ShepardCoordinateTransform *self)
{
  if (self == NULL)
    return;
  if (self->to_wgs84 != NULL)
    OCTDestroyCoordinateTransformation (self->to_wgs84);
  if (self->crs != NULL)
    OSRRelease (self->crs);
  if (self->wgs84 != NULL)
    OSRRelease (self->wgs84);
  g_free (self->crs_name);
  g_free (self);
}

static char *
name_of (OGRSpatialReferenceH crs)
{
  const char *authority = OSRGetAuthorityName (crs, NULL);
  const char *code = OSRGetAuthorityCode (crs, NULL);
  const char *name = OSRGetName (crs);

  if (authority != NULL && code != NULL)
    return g_strdup_printf ("%s:%s", authority, code);
  return g_strdup (name != NULL ? name : "unnamed CRS");
}

ShepardCoordinateTransform *
shepard_coordinate_transform_new (const char *crs_wkt, GError **error)
{
  g_return_val_if_fail (crs_wkt != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autoptr (ShepardCoordinateTransform) self = g_new0 (ShepardCoordinateTransform, 1);
  self->crs = OSRNewSpatialReference (NULL);
  self->wgs84 = OSRNewSpatialReference (NULL);
  /* x is easting or longitude, y northing or latitude, as the layer's points and the map are. */
  OSRSetAxisMappingStrategy (self->crs, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy (self->wgs84, OAMS_TRADITIONAL_GIS_ORDER);
  if (OSRSetFromUserInput (self->crs, crs_wkt) != OGRERR_NONE)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "The layer's coordinate reference system cannot be read; give the layer a .prj or another "
                   "definition GDAL understands to see latitude and longitude.");
      return NULL;
    }
  OSRImportFromEPSG (self->wgs84, 4326);
  self->to_wgs84 = OCTNewCoordinateTransformation (self->crs, self->wgs84);
  if (self->to_wgs84 == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "There is no transformation from the layer's coordinate reference system to latitude and "
                   "longitude (WGS 84); check that PROJ's database is installed.");
      return NULL;
    }
  self->crs_name = name_of (self->crs);
  self->geographic = OSRIsGeographic (self->crs);
  self->metres_per_unit = self->geographic ? 0.0 : OSRGetLinearUnits (self->crs, NULL);
  return g_steal_pointer (&self);
}

const char *
shepard_coordinate_transform_get_crs_name (const ShepardCoordinateTransform *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->crs_name;
}

gboolean
shepard_coordinate_transform_is_geographic (const ShepardCoordinateTransform *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->geographic;
}

double
shepard_coordinate_transform_get_metres_per_unit (const ShepardCoordinateTransform *self)
{
  g_return_val_if_fail (self != NULL, 0.0);
  return self->metres_per_unit;
}

gboolean
shepard_coordinate_transform_to_lat_lon (const ShepardCoordinateTransform *self, double x, double y,
                                         double *latitude, double *longitude)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (latitude != NULL && longitude != NULL, FALSE);

  int success = FALSE;
  /* Points outside the projection's domain are an answer ("none"), not an error for the log. */
  CPLPushErrorHandler (CPLQuietErrorHandler);
  gboolean transformed = OCTTransformEx (self->to_wgs84, 1, &x, &y, NULL, &success);
  CPLPopErrorHandler ();
  if (!transformed || !success || !isfinite (x) || !isfinite (y))
    return FALSE;
  *longitude = x;
  *latitude = y;
  return TRUE;
}

char *
shepard_coordinate_transform_format_lat_lon (double latitude, double longitude, int decimals)
{
  return g_strdup_printf ("%.*f°%c %.*f°%c", decimals, fabs (latitude), latitude < 0 ? 'S' : 'N', decimals,
                          fabs (longitude), longitude < 0 ? 'W' : 'E');
}
