/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cutline-polygons.h"

#include <ogr_api.h>
#include <ogr_srs_api.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "layer-reprojection.h"
#include "shepard-app-error.h"
#include "vector-source.h"

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRGeometryH, OGR_G_DestroyGeometry, NULL)

/* "LineString", as the geometry types are spelt in WKT and GeoJSON ("Line String" in OGR's names). */
static char *
geometry_type_name (OGRwkbGeometryType type)
{
  g_autofree char *name = g_strdup (OGRGeometryTypeToName (wkbFlatten (type)));
  GString *joined = g_string_new (NULL);

  for (const char *c = name; *c != '\0'; c++)
    if (*c != ' ')
      g_string_append_c (joined, *c);
  return g_string_free (joined, FALSE);
}

static gboolean
is_polygon_type (OGRwkbGeometryType type)
{
  type = wkbFlatten (type);
  return OGR_GT_IsSubClassOf (type, wkbCurvePolygon) || OGR_GT_IsSubClassOf (type, wkbMultiSurface);
}

static gboolean
refuse_geometry_type (const char *source, OGRLayerH layer, OGRwkbGeometryType type, GError **error)
{
  g_autofree char *name = geometry_type_name (type);

  if (wkbFlatten (type) == wkbNone)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                 "Layer “%s” of “%s” holds no geometries; a cutline needs polygons.", OGR_L_GetName (layer), source);
  else
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                 "Layer “%s” of “%s” holds %s geometries; a cutline needs polygons.", OGR_L_GetName (layer), source,
                 name);
  return FALSE;
}

static OGRLayerH
find_layer (GDALDatasetH dataset, const char *source, const char *wanted, GError **error)
{
  OGRLayerH layer = shepard_vector_source_find_layer (dataset, wanted);
  int count = GDALDatasetGetLayerCount (dataset);

  if (layer != NULL)
    return layer;
  g_autofree char *names = shepard_vector_source_layer_names (dataset, "“", "”");
  if (count == 0)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                 "The cutline “%s” holds no vector layer: a cutline needs a layer of polygons.", source);
  else if (count == 1)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                 "The cutline “%s” has no layer “%s”: its one layer is %s (index 0).", source, wanted, names);
  else
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                 "The cutline “%s” has no layer “%s”: give one of %s, or an index from 0 to %d.", source, wanted,
                 names, count - 1);
  return NULL;
}

/* Every polygon of the layer in the target CRS, curves made lines; fails on any other geometry. */
static gboolean
read_polygons (OGRLayerH layer, const char *source, OGRCoordinateTransformationH transformation, GPtrArray *polygons,
               ShepardGdalErrorTrap *trap, GError **error)
{
  OGR_L_ResetReading (layer);
  for (;;)
    {
      g_auto (OGRFeatureH) feature = OGR_L_GetNextFeature (layer);
      if (feature == NULL)
        break;
      OGRGeometryH geometry = OGR_F_GetGeometryRef (feature);
      if (geometry == NULL || OGR_G_IsEmpty (geometry))
        continue;
      OGRwkbGeometryType type = OGR_G_GetGeometryType (geometry);
      if (!is_polygon_type (type))
        return refuse_geometry_type (source, layer, type, error);
      g_auto (OGRGeometryH) polygon = OGR_GT_IsNonLinear (type) ? OGR_G_GetLinearGeometry (geometry, 0, NULL)
                                                                : OGR_G_Clone (geometry);
      if (transformation != NULL && OGR_G_Transform (polygon, transformation) != OGRERR_NONE)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                       "Feature %lld of the cutline “%s” cannot be placed in the points' CRS (%s): reproject the "
                       "cutline first (ogr2ogr -t_srs), or leave that feature out.",
                       (long long) OGR_F_GetFID (feature), source,
                       shepard_gdal_error_trap_reason (trap, "outside the transformation's domain"));
          return FALSE;
        }
      g_ptr_array_add (polygons, g_steal_pointer (&polygon));
    }
  if (shepard_gdal_error_trap_has_failure (trap))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "Cannot read layer “%s” of the cutline “%s”: %s",
                   OGR_L_GetName (layer), source, shepard_gdal_error_trap_reason (trap, ""));
      return FALSE;
    }
  if (polygons->len == 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "Layer “%s” of “%s” holds no polygon; a cutline needs at least one.", OGR_L_GetName (layer),
                   source);
      return FALSE;
    }
  return TRUE;
}

GPtrArray *
shepard_cutline_polygons_read (const char *source, const char *layer, const char *target_crs_wkt, char **layer_name,
                               GError **error)
{
  g_return_val_if_fail (source != NULL && layer_name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);

  g_autofree char *reason = NULL;
  g_auto (GDALDatasetH) dataset = shepard_vector_source_open (source, NULL, &trap, &reason);
  if (dataset == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN,
                   "Cannot open the cutline “%s”: %s. Give a vector file GDAL reads (GeoPackage, Shapefile, "
                   "GeoJSON…) with polygons.",
                   source, reason);
      return NULL;
    }
  OGRLayerH handle = find_layer (dataset, source, layer, error);
  if (handle == NULL)
    return NULL;
  OGRwkbGeometryType declared = OGR_L_GetGeomType (handle);
  if (wkbFlatten (declared) != wkbUnknown && !is_polygon_type (declared))
    {
      refuse_geometry_type (source, handle, declared, error);
      return NULL;
    }

  g_autoptr (GError) transformation_error = NULL;
  g_autofree char *described = g_strdup_printf ("the cutline “%s”", source);
  g_auto (OGRCoordinateTransformationH) transformation = shepard_layer_reprojection_new (handle, target_crs_wkt,
                                                                                        described,
                                                                                        &transformation_error);
  if (transformation_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&transformation_error));
      return NULL;
    }
  g_autoptr (GPtrArray) polygons = g_ptr_array_new_with_free_func ((GDestroyNotify) OGR_G_DestroyGeometry);
  if (!read_polygons (handle, source, transformation, polygons, &trap, error))
    return NULL;

  *layer_name = g_strdup (OGR_L_GetName (handle));
  return g_steal_pointer (&polygons);
}
