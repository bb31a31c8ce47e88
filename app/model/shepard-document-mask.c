/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The document's mask: set on the main thread, used by the preview's and the export's jobs in worker threads. A job
 * takes a reference for its whole run, so that a new mask never waits for an export, nor frees one in use. The
 * keep bytes of the last grids are kept: a parameter change asks again for the same coarse and fine grids, and
 * judging every cell against a cutline or the nearest point takes longer than many an interpolation. */
#include "shepard-document-private.h"

#include <string.h>

/* The coarse and the fine grid of a preview. */
#define CACHED_GRIDS 2

struct _ShepardDocumentMask
{
  ShepardGridMask *mask;
  GMutex cache_lock;
  shepard_grid grids[CACHED_GRIDS];
  guint8 *keeps[CACHED_GRIDS]; /* newest first; NULL: empty slot */
};

static void
document_mask_clear (gpointer data)
{
  ShepardDocumentMask *box = data;

  shepard_grid_mask_free (box->mask);
  for (int i = 0; i < CACHED_GRIDS; i++)
    g_free (box->keeps[i]);
  g_mutex_clear (&box->cache_lock);
}

void
shepard_document_set_mask (ShepardDocument *self, ShepardGridMask *mask)
{
  g_return_if_fail (SHEPARD_IS_DOCUMENT (self));

  ShepardDocumentMask *box = NULL;
  if (mask != NULL && !shepard_grid_mask_is_empty (mask))
    {
      box = g_atomic_rc_box_new0 (ShepardDocumentMask);
      box->mask = mask;
      g_mutex_init (&box->cache_lock);
    }
  else if (mask != NULL)
    shepard_grid_mask_free (mask);
  g_mutex_lock (&self->mask_lock);
  ShepardDocumentMask *old = self->mask;
  self->mask = box;
  g_mutex_unlock (&self->mask_lock);
  _shepard_document_unref_mask (old);
}

gboolean
shepard_document_has_mask (ShepardDocument *self)
{
  g_return_val_if_fail (SHEPARD_IS_DOCUMENT (self), FALSE);

  g_mutex_lock (&self->mask_lock);
  gboolean has = self->mask != NULL;
  g_mutex_unlock (&self->mask_lock);
  return has;
}

ShepardDocumentMask *
_shepard_document_ref_mask (ShepardDocument *self)
{
  g_mutex_lock (&self->mask_lock);
  ShepardDocumentMask *box = self->mask != NULL ? g_atomic_rc_box_acquire (self->mask) : NULL;
  g_mutex_unlock (&self->mask_lock);
  return box;
}

void
_shepard_document_unref_mask (ShepardDocumentMask *box)
{
  if (box != NULL)
    g_atomic_rc_box_release_full (box, document_mask_clear);
}

ShepardGridMask *
_shepard_document_mask_get (ShepardDocumentMask *box)
{
  return box != NULL ? box->mask : NULL;
}

static gboolean
same_grid (const shepard_grid *a, const shepard_grid *b)
{
  return a->x_min == b->x_min && a->y_max == b->y_max && a->dx == b->dx && a->dy == b->dy && a->width == b->width
         && a->height == b->height;
}

/* A copy of the keep bytes of grid, from the cache or made (and cached). */
static guint8 *
keep_for (ShepardDocumentMask *box, const shepard_grid *grid, GError **error)
{
  size_t cells = grid->width * grid->height;
  guint8 *keep = NULL;

  g_mutex_lock (&box->cache_lock);
  for (int i = 0; i < CACHED_GRIDS && keep == NULL; i++)
    if (box->keeps[i] != NULL && same_grid (&box->grids[i], grid))
      keep = g_memdup2 (box->keeps[i], cells);
  g_mutex_unlock (&box->cache_lock);
  if (keep != NULL)
    return keep;

  keep = shepard_grid_mask_keep (box->mask, grid, error);
  if (keep == NULL)
    return NULL;
  g_mutex_lock (&box->cache_lock);
  g_free (box->keeps[CACHED_GRIDS - 1]);
  memmove (&box->keeps[1], &box->keeps[0], (CACHED_GRIDS - 1) * sizeof box->keeps[0]);
  memmove (&box->grids[1], &box->grids[0], (CACHED_GRIDS - 1) * sizeof box->grids[0]);
  box->keeps[0] = g_memdup2 (keep, cells);
  box->grids[0] = *grid;
  g_mutex_unlock (&box->cache_lock);
  return keep;
}

gboolean
_shepard_document_mask_surface (ShepardDocument *self, ShepardSurface *surface, GError **error)
{
  ShepardDocumentMask *box = _shepard_document_ref_mask (self);

  if (box == NULL)
    return TRUE;
  guint8 *keep = keep_for (box, &surface->grid, error);
  _shepard_document_unref_mask (box);
  if (keep == NULL)
    return FALSE;
  shepard_surface_take_mask (surface, keep);
  return TRUE;
}
