/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "context-layer.h"

#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "layer-reprojection.h"
#include "shepard-app-error.h"
#include "vector-source.h"

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRGeometryH, OGR_G_DestroyGeometry, NULL)

typedef struct {
  GArray *x, *y, *strip_start;
  size_t skipped_points;
  size_t untransformable; /* features with a vertex outside the target CRS's reach */
} Strips;

static gboolean
is_point_type (OGRwkbGeometryType type)
{
  return type == wkbPoint || type == wkbMultiPoint;
}

/* Keeps the vertices from start on as a strip when they make a line; drops a lone vertex. */
static void
end_strip (Strips *strips, size_t start)
{
  if (strips->x->len - start >= 2)
    {
      g_array_append_val (strips->strip_start, start);
      return;
    }
  g_array_set_size (strips->x, start);
  g_array_set_size (strips->y, start);
}

static void
add_strip (Strips *strips, OGRGeometryH line)
{
  int n = OGR_G_GetPointCount (line);
  size_t start = strips->x->len;

  for (int i = 0; i < n; i++)
    {
      double x = OGR_G_GetX (line, i), y = OGR_G_GetY (line, i);
      /* A vertex without finite coordinates breaks the strip rather than drawing a line to nowhere. */
      if (!isfinite (x) || !isfinite (y))
        {
          end_strip (strips, start);
          start = strips->x->len;
          continue;
        }
      g_array_append_val (strips->x, x);
      g_array_append_val (strips->y, y);
    }
  end_strip (strips, start);
}

static void
add_geometry (Strips *strips, OGRGeometryH geometry)
{
  if (geometry == NULL || OGR_G_IsEmpty (geometry))
    return;
  OGRwkbGeometryType type = wkbFlatten (OGR_G_GetGeometryType (geometry));
  if (is_point_type (type))
    {
      strips->skipped_points++;
      return;
    }
  if (OGR_GT_IsNonLinear (type))
    {
      g_auto (OGRGeometryH) linear = OGR_G_GetLinearGeometry (geometry, 0, NULL);
      add_geometry (strips, linear);
      return;
    }
  if (OGR_GT_IsCurve (type))
    {
      add_strip (strips, geometry);
      return;
    }
  /* Polygons (their rings), multi-part geometries and collections. */
  for (int part = 0; part < OGR_G_GetGeometryCount (geometry); part++)
    add_geometry (strips, OGR_G_GetGeometryRef (geometry, part));
}

static OGRLayerH
find_layer (GDALDatasetH dataset, const char *source, const char *wanted, GError **error)
{
  OGRLayerH layer = shepard_vector_source_find_layer (dataset, wanted);
  int count = GDALDatasetGetLayerCount (dataset);

  if (layer == NULL && count == 0)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                 "“%s” holds no vector layer. Choose a file with lines or polygons.", source);
  else if (layer == NULL)
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_LAYER,
                 "“%s” has no layer “%s”: give its name or an index from 0 to %d.", source, wanted, count - 1);
  return layer;
}

ShepardContextLayer *
shepard_context_layer_read (const char *source, const char *layer, const char *target_crs_wkt, GError **error)
{
  g_return_val_if_fail (source != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);

  g_autofree char *reason = NULL;
  g_auto (GDALDatasetH) dataset = shepard_vector_source_open (source, NULL, &trap, &reason);
  if (dataset == NULL)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN,
                   "Cannot open “%s” as a context layer: %s. Choose a vector file GDAL reads (GeoPackage, "
                   "Shapefile, GeoJSON…) with lines or polygons.",
                   source, reason);
      return NULL;
    }
  OGRLayerH handle = find_layer (dataset, source, layer, error);
  if (handle == NULL)
    return NULL;
  OGRwkbGeometryType layer_type = wkbFlatten (OGR_L_GetGeomType (handle));
  if (layer_type == wkbNone || is_point_type (layer_type))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "Layer “%s” of “%s” holds %s, not lines or polygons: a context layer draws lines (a river, "
                   "a boundary). Open point layers with Open to interpolate them.",
                   OGR_L_GetName (handle), source, layer_type == wkbNone ? "no geometry" : "points");
      return NULL;
    }

  GError *transformation_error = NULL;
  g_autofree char *described = g_strdup_printf ("“%s”", source);
  g_auto (OGRCoordinateTransformationH) transformation = shepard_layer_reprojection_new (handle, target_crs_wkt,
                                                                                        described,
                                                                                        &transformation_error);
  if (transformation_error != NULL)
    {
      g_propagate_error (error, transformation_error);
      return NULL;
    }
  gboolean reproject = transformation != NULL;

  Strips strips = {
    .x = g_array_new (FALSE, FALSE, sizeof (double)),
    .y = g_array_new (FALSE, FALSE, sizeof (double)),
    .strip_start = g_array_new (FALSE, FALSE, sizeof (size_t)),
  };
  OGR_L_ResetReading (handle);
  for (;;)
    {
      g_auto (OGRFeatureH) feature = OGR_L_GetNextFeature (handle);
      if (feature == NULL)
        break;
      OGRGeometryH geometry = OGR_F_GetGeometryRef (feature);
      if (geometry == NULL)
        continue;
      if (reproject && OGR_G_Transform (geometry, transformation) != OGRERR_NONE)
        {
          /* Beyond the CRS's reach: the feature is left out, and GDAL's complaint about it forgotten. */
          strips.untransformable++;
          shepard_gdal_error_trap_clear (&trap);
          continue;
        }
      add_geometry (&strips, geometry);
    }

  g_autoptr (ShepardContextLayer) context = g_new0 (ShepardContextLayer, 1);
  context->source = g_strdup (source);
  context->layer_name = g_strdup (OGR_L_GetName (handle));
  context->reprojected = reproject;
  context->n_vertices = strips.x->len;
  context->n_strips = strips.strip_start->len;
  size_t end = strips.x->len;
  g_array_append_val (strips.strip_start, end);
  context->x = (double *) g_array_free (strips.x, FALSE);
  context->y = (double *) g_array_free (strips.y, FALSE);
  context->strip_start = (size_t *) g_array_free (strips.strip_start, FALSE);

  if (shepard_gdal_error_trap_has_failure (&trap))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_OPEN, "Cannot read layer “%s” of “%s”: %s.",
                   context->layer_name, source, shepard_gdal_error_trap_reason (&trap, ""));
      return NULL;
    }
  if (context->n_strips == 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_GEOMETRY,
                   "Layer “%s” of “%s” has no line or polygon to draw%s. Choose a layer of lines or polygons.",
                   context->layer_name, source,
                   strips.skipped_points > 0    ? " (only points)"
                   : strips.untransformable > 0 ? " that can be placed in the point layer's CRS"
                                                : "");
      return NULL;
    }
  return g_steal_pointer (&context);
}

void
shepard_context_layer_free (ShepardContextLayer *context)
{
  if (context == NULL)
    return;
  g_free (context->x);
  g_free (context->y);
  g_free (context->strip_start);
  g_free (context->source);
  g_free (context->layer_name);
  g_free (context);
}
