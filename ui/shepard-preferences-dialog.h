/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_PREFERENCES_DIALOG (shepard_preferences_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ShepardPreferencesDialog, shepard_preferences_dialog, SHEPARD, PREFERENCES_DIALOG, GtkWindow)

/* The application's preferences, written into settings (the app's schema) as they change and following its changes.
 * GPUs: "All GPUs" or a check for each of gpu_names (the names of the GPUs found, indexed by CUDA device number; NULL
 * or empty: none), kept in the key "gpus" as shepard-grid --gpus takes them ("all", "0,1"); at least one stays
 * checked. Without a GPU the group says that Shepard runs on the CPU and takes no input. */
ShepardPreferencesDialog *shepard_preferences_dialog_new (GtkWindow *parent, GSettings *settings,
                                                          const char *const *gpu_names);

G_END_DECLS
