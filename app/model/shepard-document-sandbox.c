/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The classroom sandbox: a document whose points are placed, moved and removed by hand, each edit handed to the
 * engine at once so that the surface, the cross-validation and a pinned explanation follow it; its study area is
 * the extent it was made with. */
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
  if (!_shepard_document_start_engine (self, NULL, error))
    return NULL;
  self->crs_name = _shepard_document_describe_crs (crs_wkt, &self->crs_definition);
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

void
_shepard_document_engine_params (ShepardDocument *self, const shepard_params *params, shepard_params *engine_params)
{
  *engine_params = *params;
  if (!self->sandbox)
    return;
  engine_params->area_mode = SHEPARD_AREA_GIVEN;
  engine_params->area = (self->sandbox_extent[2] - self->sandbox_extent[0])
                        * (self->sandbox_extent[3] - self->sandbox_extent[1]);
}

static gboolean
check_editable (ShepardDocument *self, GError **error)
{
  if (!self->sandbox)
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                           "Only a sandbox's points can be edited; a layer read from a file stays as it is.");
      return FALSE;
    }
  /* The optimiser holds the engine until it is done: an edit would stall the window that long. */
  if (g_atomic_int_get (&self->optimisations) > 0)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_BUSY,
                           "The optimiser is working on these points: wait for it to finish, or cancel it, then "
                           "edit them.");
      return FALSE;
    }
  return TRUE;
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

/* The points after an edit, built beside the current ones. */
typedef struct {
  double *x, *y, *z;
  size_t count;
} EditedPoints;

static void
edited_points_clear (EditedPoints *edited)
{
  g_free (edited->x);
  g_free (edited->y);
  g_free (edited->z);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (EditedPoints, edited_points_clear)

/* A copy of the points with room for extra more. */
static void
copy_points (ShepardDocument *self, size_t extra, EditedPoints *edited)
{
  const ShepardPointLayer *points = self->points;

  edited->count = points->count;
  edited->x = g_new (double, points->count + extra);
  edited->y = g_new (double, points->count + extra);
  edited->z = g_new (double, points->count + extra);
  if (points->count == 0)
    return;
  memcpy (edited->x, points->x, points->count * sizeof (double));
  memcpy (edited->y, points->y, points->count * sizeof (double));
  memcpy (edited->z, points->z, points->count * sizeof (double));
}

/* Hands the edited points to the engine and, when it takes them, swaps them in, both with the engine held, so that a
 * job never sees points other than the engine's. An empty sandbox leaves the engine without points, which it
 * reports when asked to interpolate; anything else that fails is an error, and the engine gets the old points back
 * (it drops its points when it cannot take new ones). */
static gboolean
commit_points (ShepardDocument *self, EditedPoints *edited, GError **error)
{
  shepard_error engine_error = { 0 };
  ShepardPointLayer *points = self->points;

  _shepard_document_hold_engine (self, NULL);
  shepard_status status = shepard_engine_set_points (self->engine, edited->x, edited->y, edited->z, edited->count,
                                                     &engine_error);
  gboolean taken = status == SHEPARD_OK || (status == SHEPARD_ERROR_NO_POINTS && edited->count == 0);
  if (taken)
    {
      EditedPoints old = { points->x, points->y, points->z, points->count };
      points->x = g_steal_pointer (&edited->x);
      points->y = g_steal_pointer (&edited->y);
      points->z = g_steal_pointer (&edited->z);
      points->count = edited->count;
      self->points_generation++;
      *edited = old;
    }
  else if (points->count > 0)
    shepard_engine_set_points (self->engine, points->x, points->y, points->z, points->count, NULL);
  _shepard_document_release_engine (self);
  if (!taken)
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
  g_auto (EditedPoints) edited = { 0 };

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), -1);

  if (!check_editable (self, error) || !check_finite (x, y, value, error))
    return -1;
  copy_points (self, 1, &edited);
  size_t index = edited.count++;
  edited.x[index] = x;
  edited.y[index] = y;
  edited.z[index] = value;
  return commit_points (self, &edited, error) ? (gssize) index : -1;
}

gboolean
shepard_document_move_point (ShepardDocument *self, size_t index, double x, double y, GError **error)
{
  g_auto (EditedPoints) edited = { 0 };

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error)
      || !check_finite (x, y, self->points->z[index], error))
    return FALSE;
  copy_points (self, 0, &edited);
  edited.x[index] = x;
  edited.y[index] = y;
  return commit_points (self, &edited, error);
}

gboolean
shepard_document_set_point_value (ShepardDocument *self, size_t index, double value, GError **error)
{
  g_auto (EditedPoints) edited = { 0 };

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error)
      || !check_finite (self->points->x[index], self->points->y[index], value, error))
    return FALSE;
  copy_points (self, 0, &edited);
  edited.z[index] = value;
  return commit_points (self, &edited, error);
}

gboolean
shepard_document_remove_point (ShepardDocument *self, size_t index, GError **error)
{
  g_auto (EditedPoints) edited = { 0 };

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  if (!check_editable (self, error) || !check_index (self, index, error))
    return FALSE;
  copy_points (self, 0, &edited);
  size_t after = edited.count - index - 1;
  memmove (&edited.x[index], &edited.x[index + 1], after * sizeof (double));
  memmove (&edited.y[index], &edited.y[index + 1], after * sizeof (double));
  memmove (&edited.z[index], &edited.z[index + 1], after * sizeof (double));
  edited.count--;
  return commit_points (self, &edited, error);
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
