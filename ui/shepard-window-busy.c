/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The header bar's busy sign: shown for work that outlasts a moment, spinning only where a GPU does the work. */
#include "shepard-window-private.h"

/* The busy sign shows only for work that outlasts this: one that blinks for a fast grid costs a frame of its own. */
#define BUSY_SIGN_DELAY_MS 150

gboolean
_shepard_window_engine_on_gpu (ShepardWindow *self)
{
  return self->document != NULL && shepard_document_get_cuda_device (self->document) >= 0;
}

/* Whether the window's work runs on a GPU: the preview's grids on a CUDA engine. Reading a layer is the CPU's. */
static gboolean
work_runs_on_gpu (ShepardWindow *self)
{
  return self->load_cancellable == NULL && _shepard_window_engine_on_gpu (self);
}

/* The busy sign spins only where the work runs on a GPU. Elsewhere it stands still: a spinner redraws the window
 * every frame, and those frames take the very cores the work runs on (software GL above all). In
 * shepard-bench-window (llvmpipe, 2 cores) 1M points over a 256^2 grid took the CPU engine 553 ms under a spinner,
 * 456 ms beside the still sign and 400 ms with no sign. */
static void
set_busy_sign (ShepardWindow *self, gboolean shown)
{
  gboolean spinning = shown && work_runs_on_gpu (self);

  gtk_spinner_set_spinning (self->busy_spinner, spinning);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), spinning);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_still), shown && !spinning);
}

static gboolean
show_busy_sign (gpointer data)
{
  ShepardWindow *self = data;

  self->busy_sign_source = 0;
  set_busy_sign (self, TRUE);
  return G_SOURCE_REMOVE;
}

void
_shepard_window_update_busy (ShepardWindow *self)
{
  if (shepard_window_is_busy (self))
    {
      if (gtk_widget_get_visible (GTK_WIDGET (self->busy_spinner))
          || gtk_widget_get_visible (GTK_WIDGET (self->busy_still)))
        set_busy_sign (self, TRUE); /* the work may have moved: a layer read, then its grids */
      else if (self->busy_sign_source == 0)
        self->busy_sign_source = g_timeout_add (BUSY_SIGN_DELAY_MS, show_busy_sign, self);
      return;
    }
  g_clear_handle_id (&self->busy_sign_source, g_source_remove);
  set_busy_sign (self, FALSE);
}

void
_shepard_window_busy_init (ShepardWindow *self)
{
  set_busy_sign (self, FALSE);
}

void
_shepard_window_busy_dispose (ShepardWindow *self)
{
  g_clear_handle_id (&self->busy_sign_source, g_source_remove);
}
