/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classroom sandbox: a document whose points are placed, moved and removed by hand, each edit handed to the
 * engine at once so that the surface, the cross-validation and a pinned explanation follow it. */
#include "shepard-document-private.h"

#include <math.h>
#include <cpl_conv.h>
#include <ogr_srs_api.h>
#include <string.h>

#include "point-layer-writer.h"
#include "shepard-app-error.h"

#define SANDBOX_FIELD "value"

/* WKT of any CRS definition GDAL takes (EPSG:28992, a PROJ string, WKT); NULL and no error for none. */
static gboolean
crs_wkt_of (const char *definition, char **wkt, GError **error)
{
  *wkt = NULL;
  if (definition == NULL || definition[0] == '\0')
    return TRUE;
  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);
  char *exported = NULL;
  gboolean ok = OSRSetFromUserInput (crs, definition) == OGRERR_NONE && OSRExportToWkt (crs, &exported) == OGRERR_NONE;
  if (ok)
    *wkt = g_strdup (exported);
  else
    g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                 "“%s” is not a coordinate reference system GDAL knows: give one such as EPSG:28992, or none.",
                 definition);
  CPLFree (exported);
  OSRDestroySpatialReference (crs);
  return ok;
}

ShepardDocument *
shepard_document_new_sandbox (const double extent[4], const char *crs, GError **error)
{
  g_autofree char *crs_wkt = NULL;

  g_return_val_if_fail (extent != NULL, NULL);

  for (int i = 0; i < 4; i++)
    if (!isfinite (extent[i]))
      {
        g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                             "The sandbox's extent must be finite numbers.");
        return NULL;
      }
  if (!(extent[2] > extent[0]) || !(extent[3] > extent[1]))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "The sandbox needs an extent with x min below x max and y min below y max, not x %g to %g, "
                   "y %g to %g.", extent[0], extent[2], extent[1], extent[3]);
      return NULL;
    }
  if (!crs_wkt_of (crs, &crs_wkt, error))
    return NULL;
  g_autoptr (ShepardDocument) self = g_object_new (SHEPARD_TYPE_DOCUMENT, NULL);
  self->sandbox = TRUE;
  memcpy (self->sandbox_extent, extent, sizeof self->sandbox_extent);
  self->points = g_new0 (ShepardPointLayer, 1);
  self->points->source = g_strdup ("Sandbox");
  self->points->layer_name = g_strdup ("sandbox");
  self->points->field_name = g_strdup (SANDBOX_FIELD);
  self->points->crs_wkt = g_strdup (crs_wkt);
  self->numeric_fields = g_new0 (char *, 2);
  self->numeric_fields[0] = g_strdup (SANDBOX_FIELD);
  if (!_shepard_document_start_engine (self, error))
    return NULL;
  self->crs_name = _shepard_document_describe_crs (crs_wkt);
  return g_steal_pointer (&self);
}

gboolean
shepard_document_is_sandbox (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  return self->sandbox;
}

guint
shepard_document_get_points_generation (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), 0);
  return self->points_generation;
}

static gboolean
check_editable (ShepardDocument *self, GError **error)
{
  if (self->sandbox)
    return TRUE;
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "Only a sandbox's points can be edited; a layer read from a file stays as it is.");
  return FALSE;
}

static gboolean
check_finite (double x, double y, double value, GError **error)
{
  if (isfinite (x) && isfinite (y) && isfinite (value))
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "A point needs finite coordinates and a finite value, not (%g, %g) = %g.", x, y, value);
  return FALSE;
}

static gboolean
check_index (ShepardDocument *self, size_t index, GError **error)
{
  if (index < self->points->count)
    return TRUE;
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "There is no point %zu: the sandbox holds %zu.", index, self->points->count);
  return FALSE;
}

/* Hands the edited points to the engine. An empty sandbox leaves the engine without points, which it reports when
 * asked to interpolate; anything else that fails is an error, after which the caller puts the old points back and
 * commits them again (the engine drops its points when it cannot take new ones). */
static gboolean
commit_points (ShepardDocument *self, GError **error)
{
  shepard_error engine_error = { 0 };
  const ShepardPointLayer *points = self->points;

  g_mutex_lock (&self->engine_lock);
  shepard_status status = shepard_engine_set_points (self->engine, points->x, points->y, points->z, points->count,
                                                     &engine_error);
  g_mutex_unlock (&self->engine_lock);
  if (status != SHEPARD_OK && !(status == SHEPARD_ERROR_NO_POINTS && points->count == 0))
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  _shepard_document_update_value_range (self);
  _shepard_document_emit_points_changed (self);
  return TRUE;
}

gssize
shepard_document_add_point (ShepardDocument *self, double x, double y, double value, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), -1);

  if (!check_editable (self, error) || !check_finite (x, y, value, error))
    return -1;
  ShepardPointLayer *points = self->points;
  size_t index = points->count;
  points->x = g_renew (double, points->x, index + 1);
  points->y = g_renew (double, points->y, index + 1);
  points->z = g_renew (double, points->z, index + 1);
  points->x[index] = x;
  points->y[index] = y;
  points->z[index] = value;
  points->count = index + 1;
  if (!commit_points (self, error))
    {
      points->count = index;
      commit_points (self, NULL);
      return -1;
    }
  return (gssize) index;
}

gboolean
shepard_document_move_point (ShepardDocument *self, size_t index, double x, double y, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error)
      || !check_finite (x, y, self->points->z[index], error))
    return FALSE;
  double old_x = self->points->x[index], old_y = self->points->y[index];
  self->points->x[index] = x;
  self->points->y[index] = y;
  if (commit_points (self, error))
    return TRUE;
  self->points->x[index] = old_x;
  self->points->y[index] = old_y;
  commit_points (self, NULL);
  return FALSE;
}

gboolean
shepard_document_set_point_value (ShepardDocument *self, size_t index, double value, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error)
      || !check_finite (self->points->x[index], self->points->y[index], value, error))
    return FALSE;
  double old_value = self->points->z[index];
  self->points->z[index] = value;
  if (commit_points (self, error))
    return TRUE;
  self->points->z[index] = old_value;
  commit_points (self, NULL);
  return FALSE;
}

gboolean
shepard_document_remove_point (ShepardDocument *self, size_t index, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error))
    return FALSE;
  ShepardPointLayer *points = self->points;
  double removed[3] = { points->x[index], points->y[index], points->z[index] };
  size_t after = points->count - index - 1;
  memmove (&points->x[index], &points->x[index + 1], after * sizeof (double));
  memmove (&points->y[index], &points->y[index + 1], after * sizeof (double));
  memmove (&points->z[index], &points->z[index + 1], after * sizeof (double));
  points->count--;
  if (commit_points (self, error))
    return TRUE;
  /* The arrays keep their size until the next add, so the point fits back where it was. */
  memmove (&points->x[index + 1], &points->x[index], after * sizeof (double));
  memmove (&points->y[index + 1], &points->y[index], after * sizeof (double));
  memmove (&points->z[index + 1], &points->z[index], after * sizeof (double));
  points->x[index] = removed[0];
  points->y[index] = removed[1];
  points->z[index] = removed[2];
  points->count++;
  commit_points (self, NULL);
  return FALSE;
}

gboolean
shepard_document_save_points (ShepardDocument *self, const char *path, GError **error)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  const ShepardPointLayer *points = self->points;
  ShepardPointField field = { points->field_name, points->z };
  return shepard_point_layer_write (path, NULL, points->layer_name, points->crs_wkt, points->x, points->y,
                                    points->count, &field, 1, error);
}
