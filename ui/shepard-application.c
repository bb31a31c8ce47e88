/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-application.h"

#include "shepard-window.h"

struct _ShepardApplication
{
  GtkApplication parent_instance;

  GSettings *interface_settings;
};

G_DEFINE_FINAL_TYPE (ShepardApplication, shepard_application, GTK_TYPE_APPLICATION)

ShepardApplication *
shepard_application_new (void)
{
  return g_object_new (SHEPARD_TYPE_APPLICATION, "application-id", SHEPARD_APPLICATION_ID, "flags",
                       G_APPLICATION_HANDLES_OPEN, "resource-base-path", "/io/github/shepard/Shepard", NULL);
}

static ShepardWindow *
get_window (ShepardApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (shepard_window_new (GTK_APPLICATION (self)));
  return SHEPARD_WINDOW (window);
}

static void
shepard_application_activate (GApplication *application)
{
  gtk_window_present (GTK_WINDOW (get_window (SHEPARD_APPLICATION (application))));
}

/* The hint carries --field from the instance that was started to the one already running. */
static void
shepard_application_open (GApplication *application, GFile **files, int n_files, const char *hint)
{
  ShepardWindow *window = get_window (SHEPARD_APPLICATION (application));

  /* One layer is shown at a time: the last one named wins. */
  if (n_files > 0)
    shepard_window_open (window, files[n_files - 1], hint != NULL && hint[0] != '\0' ? hint : NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static int
shepard_application_handle_local_options (GApplication *application, GVariantDict *options)
{
  const char *field = NULL;
  g_autofree const char **paths = NULL;
  g_autoptr (GError) error = NULL;

  if (g_variant_dict_lookup (options, "version", "b", NULL))
    {
      g_print ("shepard %s\n", PACKAGE_VERSION);
      return 0;
    }
  g_variant_dict_lookup (options, "field", "&s", &field);
  g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &paths);
  if (paths == NULL || paths[0] == NULL)
    return -1;
  if (!g_application_register (application, NULL, &error))
    {
      g_printerr ("shepard: %s\n", error->message);
      return 1;
    }
  g_autoptr (GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  for (const char **path = paths; *path != NULL; path++)
    g_ptr_array_add (files, g_file_new_for_commandline_arg (*path));
  g_application_open (application, (GFile **) files->pdata, (int) files->len, field != NULL ? field : "");
  /* A remote instance opened them: this one is done. The primary one goes on into its main loop. */
  return g_application_get_is_remote (application) ? 0 : -1;
}

static void
follow_color_scheme (ShepardApplication *self)
{
  g_autofree char *scheme = g_settings_get_string (self->interface_settings, "color-scheme");

  g_object_set (gtk_settings_get_default (), "gtk-application-prefer-dark-theme",
                g_strcmp0 (scheme, "prefer-dark") == 0, NULL);
}

static void
about_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  GtkApplication *application = data;
  const char *authors[] = { "The Shepard authors", NULL };

  gtk_show_about_dialog (gtk_application_get_active_window (application), "program-name", "Shepard", "logo-icon-name",
                         SHEPARD_APPLICATION_ID, "version", PACKAGE_VERSION, "comments",
                         "Interpolate point layers into rasters with inverse distance weighting and adaptive IDW",
                         "license-type", GTK_LICENSE_GPL_3_0, "authors", authors, "website",
                         "https://github.com/shepard-gis/shepard", NULL);
}

static void
quit_action (GSimpleAction *action, GVariant *parameter, gpointer data)
{
  GtkApplication *application = data;
  GList *windows = gtk_application_get_windows (application);

  /* Closing the windows, rather than g_application_quit, lets them save their size. */
  while (windows != NULL)
    {
      GList *next = windows->next;
      gtk_window_close (windows->data);
      windows = next;
    }
}

static void
shepard_application_startup (GApplication *application)
{
  ShepardApplication *self = SHEPARD_APPLICATION (application);
  static const GActionEntry entries[] = {
    { .name = "about", .activate = about_action },
    { .name = "quit", .activate = quit_action },
  };
  GSettingsSchemaSource *source;
  g_autoptr (GSettingsSchema) schema = NULL;

  G_APPLICATION_CLASS (shepard_application_parent_class)->startup (application);
  g_action_map_add_action_entries (G_ACTION_MAP (self), entries, G_N_ELEMENTS (entries), self);
  gtk_application_set_accels_for_action (GTK_APPLICATION (self), "app.quit", (const char *[]) { "<Control>q", NULL });
  gtk_window_set_default_icon_name (SHEPARD_APPLICATION_ID);

  /* GTK 4.8 does not read the desktop's dark style preference itself (libadwaita does): follow GNOME's key. */
  source = g_settings_schema_source_get_default ();
  schema = source != NULL ? g_settings_schema_source_lookup (source, "org.gnome.desktop.interface", TRUE) : NULL;
  if (schema != NULL && g_settings_schema_has_key (schema, "color-scheme"))
    {
      self->interface_settings = g_settings_new_full (schema, NULL, NULL);
      g_signal_connect_swapped (self->interface_settings, "changed::color-scheme", G_CALLBACK (follow_color_scheme),
                                self);
      follow_color_scheme (self);
    }
}

static void
shepard_application_finalize (GObject *object)
{
  ShepardApplication *self = SHEPARD_APPLICATION (object);

  g_clear_object (&self->interface_settings);
  G_OBJECT_CLASS (shepard_application_parent_class)->finalize (object);
}

static void
shepard_application_class_init (ShepardApplicationClass *klass)
{
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  G_OBJECT_CLASS (klass)->finalize = shepard_application_finalize;
  application_class->activate = shepard_application_activate;
  application_class->open = shepard_application_open;
  application_class->startup = shepard_application_startup;
  application_class->handle_local_options = shepard_application_handle_local_options;
}

static void
shepard_application_init (ShepardApplication *self)
{
  static const GOptionEntry options[] = {
    { "field", 'f', 0, G_OPTION_ARG_STRING, NULL, "Numeric field to interpolate", "NAME" },
    { "version", 0, 0, G_OPTION_ARG_NONE, NULL, "Show the version and exit", NULL },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL, NULL, "[FILE…]" },
    { NULL },
  };

  g_application_add_main_option_entries (G_APPLICATION (self), options);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), "[FILE]");
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            "Opens a point layer and interpolates it with IDW or adaptive IDW.");
}
