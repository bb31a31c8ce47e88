/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_HELP_WINDOW (shepard_help_window_get_type ())
G_DECLARE_FINAL_TYPE (ShepardHelpWindow, shepard_help_window, SHEPARD, HELP_WINDOW, GtkWindow)

/* The help page (F1): every control of the main window, the method and the papers, beside parent and closed with
 * it. */
ShepardHelpWindow *shepard_help_window_new (GtkWindow *parent);

G_END_DECLS
