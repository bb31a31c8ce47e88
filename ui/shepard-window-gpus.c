/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPUs the engine runs on: the Preferences dialog that chooses them (win.preferences, Ctrl+comma), each layer
 * loaded on them, and the document's engine made again on them when the choice changes, the display's GPU first. */
#include "shepard-window-private.h"

#include <string.h>

#include "shepard-preferences-dialog.h"
#include "shepard-render.h"

#define GPUS_KEY "gpus"

/* The CUDA device of the map's GL context, the GPU that drives the display; -1 while the map has no context (not yet
 * shown) or where it runs on no CUDA device. */
static int
display_gpu (ShepardWindow *self)
{
  GtkGLArea *map = GTK_GL_AREA (self->map_view);

  if (!gtk_widget_get_realized (GTK_WIDGET (map)) || gtk_gl_area_get_error (map) != NULL)
    return -1;
  gtk_gl_area_make_current (map);
  return shepard_render_gl_cuda_device ();
}

/* The preview stays on the engine's first GPU and reaches the map through interop only from the display's GPU: that
 * one goes first where it is chosen ("all" is then written out). The order changes no result. */
static void
lead_with_display_gpu (ShepardWindow *self, shepard_gpu_set *set)
{
  int count = shepard_gpu_count ();

  /* On one GPU there is no order to choose, and no need to ask the GL context. */
  if (count < 2)
    return;
  int display = display_gpu (self);
  if (set->count == 0)
    {
      if (display <= 0 || display >= count)
        return;
      for (int ordinal = 0; ordinal < count && ordinal < SHEPARD_MAX_GPUS; ordinal++)
        set->ordinals[set->count++] = ordinal;
    }
  for (size_t i = 1; i < set->count; i++)
    if (set->ordinals[i] == display)
      {
        memmove (set->ordinals + 1, set->ordinals, i * sizeof set->ordinals[0]);
        set->ordinals[0] = display;
        return;
      }
}

char *
_shepard_window_gpus_choice (ShepardWindow *self)
{
  g_autofree char *chosen = self->settings != NULL ? g_settings_get_string (self->settings, GPUS_KEY) : NULL;
  shepard_gpu_set set = { 0 };
  char text[SHEPARD_MAX_GPUS * 8];

  /* The dialog writes only choices that parse; anything else came from outside it. */
  if (chosen != NULL && shepard_gpu_set_parse (chosen, &set, NULL) != SHEPARD_OK)
    {
      g_warning ("The setting %s \"%s\" names no GPUs: every GPU is used", GPUS_KEY, chosen);
      set.count = 0;
    }
  lead_with_display_gpu (self, &set);
  shepard_gpu_set_format (&set, text, sizeof text);
  return g_strdup (text);
}

/* The names of the GPUs found, by device number. */
static GStrv
find_gpus (void)
{
  g_autoptr (GStrvBuilder) names = g_strv_builder_new ();
  int count = shepard_gpu_count ();

  for (int ordinal = 0; ordinal < count; ordinal++)
    {
      char name[256];
      g_strv_builder_add (names, shepard_gpu_name (ordinal, name, sizeof name) ? name : "unnamed");
    }
  return g_strv_builder_end (names);
}

static void
preferences_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);
  g_auto (GStrv) gpus = find_gpus ();

  gtk_window_present (GTK_WINDOW (shepard_preferences_dialog_new (GTK_WINDOW (self), self->settings,
                                                                  (const char *const *) gpus)));
}

static void
on_gpus_set (GObject *source, GAsyncResult *result, gpointer data)
{
  g_autoptr (ShepardWindow) self = data;
  ShepardDocument *document = SHEPARD_DOCUMENT (source);
  g_autoptr (GError) error = NULL;

  if (!shepard_document_set_gpus_finish (document, result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) && !self->disposed)
        {
          g_autofree char *text = g_strdup_printf ("Cannot use the GPUs chosen: %s", error->message);
          shepard_window_show_message (self, GTK_MESSAGE_ERROR, text);
        }
      return;
    }
  if (!self->disposed && document == self->document)
    _shepard_window_show_engine (self);
}

/* A change still under way gives way to the newer choice, which may be the engine's already. */
static void
follow_choice (ShepardWindow *self)
{
  if (self->gpus_cancellable != NULL)
    g_cancellable_cancel (self->gpus_cancellable);
  g_clear_object (&self->gpus_cancellable);
  if (self->document == NULL)
    return;
  g_autofree char *chosen = _shepard_window_gpus_choice (self);
  g_autofree char *current = shepard_document_get_gpus (self->document);
  if (strcmp (chosen, current) == 0)
    return;
  self->gpus_cancellable = g_cancellable_new ();
  shepard_document_set_gpus_async (self->document, chosen, self->gpus_cancellable, on_gpus_set,
                                   g_object_ref (self));
}

void
_shepard_window_gpus_show_document (ShepardWindow *self)
{
  follow_choice (self);
}

void
_shepard_window_gpus_init (ShepardWindow *self)
{
  /* Without the app's settings there is nothing to keep a choice in. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.preferences", self->settings != NULL);
  if (self->settings != NULL)
    g_signal_connect_object (self->settings, "changed::" GPUS_KEY, G_CALLBACK (follow_choice), self,
                             G_CONNECT_SWAPPED);
  /* The display's GPU is known once the map has its GL context, which may come after a layer was loaded. */
  g_signal_connect_object (self->map_view, "realize", G_CALLBACK (follow_choice), self,
                           G_CONNECT_SWAPPED | G_CONNECT_AFTER);
}

void
_shepard_window_gpus_dispose (ShepardWindow *self)
{
  if (self->gpus_cancellable != NULL)
    g_cancellable_cancel (self->gpus_cancellable);
  g_clear_object (&self->gpus_cancellable);
}

void
_shepard_window_class_gpus_init (ShepardWindowClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  gtk_widget_class_install_action (widget_class, "win.preferences", NULL, preferences_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_comma, GDK_CONTROL_MASK, "win.preferences", NULL);
}
