/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The info bar above the map: messages for the user, and the preview's slow-layer advice with its way out. */
#include "shepard-window.h"
#include "shepard-window-private.h"

/* The info bar's button that takes the slow-layer advice. */
#define RESPONSE_USE_NEAREST 1

void
shepard_window_show_message (ShepardWindow *self, GtkMessageType type, const char *message)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_widget_set_visible (self->use_nearest_button, FALSE);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
  self->message_from_compute = FALSE;
  self->message_is_advice = FALSE;
}

const char *
shepard_window_get_message (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return gtk_info_bar_get_revealed (self->info_bar) ? gtk_label_get_text (self->info_label) : NULL;
}

void
_shepard_window_hide_message (ShepardWindow *self)
{
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  self->message_from_compute = FALSE;
  self->message_is_advice = FALSE;
}

static void
use_nearest_neighbors (ShepardWindow *self)
{
  shepard_params params;

  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  params.neighbors = (int) shepard_preview_get_advised_neighbors ();
  shepard_parameter_panel_set_params (self->parameter_panel, &params);
}

static void
on_info_bar_response (ShepardWindow *self, int response, GtkInfoBar *info_bar)
{
  _shepard_window_hide_message (self);
  if (response == RESPONSE_USE_NEAREST)
    use_nearest_neighbors (self);
}

/* A layer too slow for the live preview is told from the moment of the request, with the way out one click away. */
static void
on_slow_advice (ShepardWindow *self)
{
  const char *advice = shepard_preview_get_slow_advice (self->preview);

  if (advice == NULL)
    {
      if (self->message_is_advice)
        _shepard_window_hide_message (self);
      return;
    }
  shepard_window_show_message (self, GTK_MESSAGE_WARNING, advice);
  gtk_widget_set_visible (self->use_nearest_button, TRUE);
  self->message_is_advice = TRUE;
}

void
_shepard_window_class_message_init (ShepardWindowClass *klass)
{
  gtk_widget_class_bind_template_callback (GTK_WIDGET_CLASS (klass), on_info_bar_response);
}

void
_shepard_window_message_init (ShepardWindow *self)
{
  g_autofree char *use_nearest = g_strdup_printf ("Use %u Nearest", shepard_preview_get_advised_neighbors ());

  self->use_nearest_button = gtk_info_bar_add_button (self->info_bar, use_nearest, RESPONSE_USE_NEAREST);
  gtk_widget_set_visible (self->use_nearest_button, FALSE);
  g_signal_connect_object (self->preview, "notify::slow-advice", G_CALLBACK (on_slow_advice), self,
                           G_CONNECT_SWAPPED);
}
