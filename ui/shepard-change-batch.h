/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/* A panel's controls set as a whole (reset, set_params) announce one change at the end, not one per control: the
 * owner's signal (no arguments) is emitted for a change outside a batch, and once at the end of a batch that had
 * any. */
typedef struct {
  gpointer owner;   /* borrowed: the batch lives in it */
  guint signal_id;  /* emitted on owner */
  guint depth;      /* while > 0, changes wait for the end of the outermost batch */
  gboolean changed; /* a change came during the batch */
} ShepardChangeBatch;

static inline void
shepard_change_batch_init (ShepardChangeBatch *batch, gpointer owner, guint signal_id)
{
  *batch = (ShepardChangeBatch) { .owner = owner, .signal_id = signal_id };
}

static inline void
shepard_change_batch_begin (ShepardChangeBatch *batch)
{
  if (batch->depth++ == 0)
    batch->changed = FALSE;
}

static inline void
shepard_change_batch_end (ShepardChangeBatch *batch)
{
  g_assert (batch->depth > 0);
  if (--batch->depth == 0 && batch->changed)
    g_signal_emit (batch->owner, batch->signal_id, 0);
}

/* A change: announced now, or inside a batch at its end. */
static inline void
shepard_change_batch_note (ShepardChangeBatch *batch)
{
  if (batch->depth == 0)
    g_signal_emit (batch->owner, batch->signal_id, 0);
  else
    batch->changed = TRUE;
}

G_END_DECLS
