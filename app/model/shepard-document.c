/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document itself: its type, its lifetime and what it tells of its layer and its engine. How it comes to be is in
 * shepard-document-load.c (a layer) and shepard-document-sandbox.c (a sandbox), what it computes in the files that
 * shepard-document-private.h lists. */
#include "shepard-document.h"

#include <gdal.h>
#include <string.h>

#include "device-grid-pool.h"
#include "grid-extent.h"
#include "shepard-document-private.h"

G_DEFINE_FINAL_TYPE (ShepardDocument, shepard_document, G_TYPE_OBJECT)

enum {
  SIGNAL_POINTS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void
shepard_document_finalize (GObject *object)
{
  ShepardDocument *self = SHEPARD_DOCUMENT (object);

  g_clear_pointer (&self->device_grids, shepard_device_grid_pool_unref);
  g_clear_pointer (&self->engine, shepard_engine_free);
  g_clear_pointer (&self->points, shepard_point_layer_free);
  g_clear_pointer (&self->numeric_fields, g_strfreev);
  g_free (self->crs_name);
  g_free (self->crs_definition);
  g_free (self->backend);
  g_free (self->engine_name);
  g_cond_clear (&self->engine_released);
  g_mutex_clear (&self->engine_state);
  _shepard_document_unref_mask (self->mask);
  g_mutex_clear (&self->mask_lock);
  G_OBJECT_CLASS (shepard_document_parent_class)->finalize (object);
}

static void
shepard_document_class_init (ShepardDocumentClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = shepard_document_finalize;
  /* After an edit of a sandbox's points (shepard-document-sandbox.c): the engine already holds the new ones. */
  signals[SIGNAL_POINTS_CHANGED] = g_signal_new ("points-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                 NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* Readers run in worker threads; registering the drivers once here keeps that out of them. */
  GDALAllRegister ();
}

static void
shepard_document_init (ShepardDocument *self)
{
  g_mutex_init (&self->engine_state);
  g_cond_init (&self->engine_released);
  g_mutex_init (&self->mask_lock);
}

gboolean
shepard_document_get_duplicates (ShepardDocument *self, ShepardDuplicateReport *report)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (report != NULL, FALSE);

  *report = self->duplicates;
  return self->has_duplicates;
}

void
_shepard_document_emit_points_changed (ShepardDocument *self)
{
  g_signal_emit (self, signals[SIGNAL_POINTS_CHANGED], 0);
}

const ShepardPointLayer *
shepard_document_get_points (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->points;
}

const char *const *
shepard_document_get_numeric_fields (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return (const char *const *) self->numeric_fields;
}

const char *
shepard_document_get_backend (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->backend;
}

const char *
shepard_document_get_engine_name (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->engine_name;
}

const char *
shepard_document_get_engine_fallback_reason (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return shepard_engine_fallback_reason (self->engine);
}

const char *
shepard_document_get_crs_name (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->crs_name;
}

const char *
shepard_document_get_crs_definition (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), NULL);
  return self->crs_definition;
}

void
shepard_document_get_bounds (ShepardDocument *self, double *x_min, double *y_min, double *x_max, double *y_max)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  if (self->sandbox)
    {
      *x_min = self->sandbox_extent[0];
      *y_min = self->sandbox_extent[1];
      *x_max = self->sandbox_extent[2];
      *y_max = self->sandbox_extent[3];
      return;
    }
  /* Only a sandbox's points change after load, on this thread: reading the engine's bounds needs no lock. */
  shepard_engine_bounds (self->engine, x_min, y_min, x_max, y_max);
}

void
shepard_document_get_extent (ShepardDocument *self, double extent[4])
{
  double x_min, y_min, x_max, y_max;

  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  if (self->sandbox)
    {
      memcpy (extent, self->sandbox_extent, sizeof self->sandbox_extent);
      return;
    }
  shepard_engine_bounds (self->engine, &x_min, &y_min, &x_max, &y_max);
  shepard_extent_of_points (x_min, y_min, x_max, y_max, extent);
}

double
shepard_document_get_value_min (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), 0);
  return self->value_min;
}

double
shepard_document_get_value_max (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), 0);
  return self->value_max;
}

int
shepard_document_get_cuda_device (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), -1);
  return shepard_engine_cuda_device (self->engine);
}

shepard_summation
shepard_document_get_summation (ShepardDocument *self, const shepard_params *params, size_t n_queries)
{
  shepard_params engine_params;

  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), SHEPARD_SUMMATION_EXACT);
  g_return_val_if_fail (params != NULL, SHEPARD_SUMMATION_EXACT);
  _shepard_document_engine_params (self, params, &engine_params);
  /* The loading thread built the tree where previews take it; a worker may still build one (a grid larger than the
   * previews): this asks without reading what it writes. */
  return shepard_engine_summation_with_tree (self->engine, &engine_params, n_queries);
}

gboolean
shepard_document_can_keep_on_gpu (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);
  return self->device_grids != NULL;
}

void
shepard_document_get_engine_params (ShepardDocument *self, const shepard_params *params,
                                    shepard_params *engine_params)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));
  g_return_if_fail (params != NULL && engine_params != NULL);
  _shepard_document_engine_params (self, params, engine_params);
}
