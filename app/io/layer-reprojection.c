/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "layer-reprojection.h"

#include "shepard-app-error.h"

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRSpatialReferenceH, OSRDestroySpatialReference, NULL)

OGRCoordinateTransformationH
shepard_layer_reprojection_new (OGRLayerH layer, const char *target_crs_wkt, const char *described, GError **error)
{
  g_return_val_if_fail (layer != NULL && described != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  OGRSpatialReferenceH layer_crs = OGR_L_GetSpatialRef (layer);
  if (target_crs_wkt == NULL || layer_crs == NULL)
    return NULL;
  g_auto (OGRSpatialReferenceH) target = OSRNewSpatialReference (NULL);
  if (OSRSetFromUserInput (target, target_crs_wkt) != OGRERR_NONE)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "Cannot place %s on the points: their CRS is not one GDAL understands.", described);
      return NULL;
    }
  g_auto (OGRSpatialReferenceH) from = OSRClone (layer_crs);
  OSRSetAxisMappingStrategy (from, OAMS_TRADITIONAL_GIS_ORDER);
  OSRSetAxisMappingStrategy (target, OAMS_TRADITIONAL_GIS_ORDER);
  if (OSRIsSame (from, target))
    return NULL;
  OGRCoordinateTransformationH transformation = OCTNewCoordinateTransformation (from, target);
  if (transformation == NULL)
    {
      const char *name = OSRGetName (from);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "Cannot transform %s from %s into the points' CRS: reproject it first (ogr2ogr -t_srs).", described,
                   name != NULL ? name : "its CRS");
    }
  return transformation;
}
