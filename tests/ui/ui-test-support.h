/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the window tests share: waiting on the main loop, the sample's path, and reaching widgets' insides. */
#ifndef SHEPARD_UI_TEST_SUPPORT_H
#define SHEPARD_UI_TEST_SUPPORT_H

#include <gtk/gtk.h>

#include "shepard-export-dialog.h"
#include "shepard-window.h"

/* Software GL under Xvfb on 2 cores: generous, the usual run takes a few seconds. */
#define WAIT_SECONDS 60

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until condition holds; FALSE after WAIT_SECONDS. */
gboolean wait_until (Condition condition, gpointer data);
void let_frames_pass (int milliseconds);

/* Conditions on a ShepardWindow: idle with a surface; idle with a message shown. */
gboolean is_settled (gpointer data);
gboolean has_message (gpointer data);
/* Condition on an int: set to non-zero. */
gboolean is_nonzero (gpointer data);

const char *meuse_path (void);

/* The widget's first event controller of type (borrowed). */
gpointer find_controller (GtkWidget *widget, GType type);
gpointer dialog_child (ShepardExportDialog *dialog, const char *name);

/* "finished" handler: *state becomes 1 when the raster was written, 2 when not. */
void on_export_finished (ShepardExportDialog *dialog, gboolean written, int *state);

#endif
