/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-window.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_EXPORT_DIALOG (shepard_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ShepardExportDialog, shepard_export_dialog, SHEPARD, EXPORT_DIALOG, GtkWindow)

ShepardExportDialog *shepard_export_dialog_new (ShepardWindow *window);

void shepard_export_dialog_set_path (ShepardExportDialog *self, const char *path);
/* Starts the export as the Export button does; the dialog closes itself once the raster is written, or shows why not.
 * "finished" (gboolean written) is emitted either way. */
void shepard_export_dialog_start (ShepardExportDialog *self);

G_END_DECLS
