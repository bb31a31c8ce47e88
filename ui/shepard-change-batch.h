/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A panel's controls set as a whole (reset, set_params) announce one change at the end, not one per control. */
typedef struct {
  guint depth;      /* while > 0, changes wait for the end of the outermost batch */
  gboolean changed; /* a change came during the batch */
} ShepardChangeBatch;

static inline void
shepard_change_batch_begin (ShepardChangeBatch *batch)
{
  if (batch->depth++ == 0)
    batch->changed = FALSE;
}

/* TRUE when the outermost batch ends with a change to announce. */
static inline gboolean
shepard_change_batch_end (ShepardChangeBatch *batch)
{
  g_assert (batch->depth > 0);
  return --batch->depth == 0 && batch->changed;
}

/* TRUE when a change is to be announced now; inside a batch it is kept for the end. */
static inline gboolean
shepard_change_batch_note (ShepardChangeBatch *batch)
{
  if (batch->depth == 0)
    return TRUE;
  batch->changed = TRUE;
  return FALSE;
}

G_END_DECLS
