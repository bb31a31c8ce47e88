/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_SANDBOX_DIALOG (shepard_sandbox_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ShepardSandboxDialog, shepard_sandbox_dialog, SHEPARD, SANDBOX_DIALOG, GtkWindow)

/* Asks for a classroom sandbox's extent and (optionally) its coordinate reference system. "create" (no arguments)
 * when the user confirms an extent with min below max on both axes; the dialog then stays open until its owner
 * closes it (so that an error can show in it). */
ShepardSandboxDialog *shepard_sandbox_dialog_new (GtkWindow *parent, const double extent[4], const char *crs);

/* {x_min, y_min, x_max, y_max} as entered. */
void shepard_sandbox_dialog_get_extent (ShepardSandboxDialog *self, double extent[4]);
/* The CRS as typed (may be empty: none). */
const char *shepard_sandbox_dialog_get_crs (ShepardSandboxDialog *self);
void shepard_sandbox_dialog_show_error (ShepardSandboxDialog *self, const char *message);

G_END_DECLS
