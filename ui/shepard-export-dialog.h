/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-document.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_EXPORT_DIALOG (shepard_export_dialog_get_type ())
G_DECLARE_FINAL_TYPE (ShepardExportDialog, shepard_export_dialog, SHEPARD, EXPORT_DIALOG, GtkWindow)

/* A dialog that exports document with params. The points' bounding box, with the Margin (%) chosen (0 by default,
 * as shepard-grid --margin), is the default extent; visible_extent ({x_min, y_min, x_max, y_max}, or NULL when the
 * map has none) is offered as the other. settings (NULL: none) gives the last folder, format, data type, creation
 * options, extra bands and margin, and keeps them after each export written. */
ShepardExportDialog *shepard_export_dialog_new (GtkWindow *parent, ShepardDocument *document,
                                                const shepard_params *params, const double *visible_extent,
                                                GSettings *settings);

void shepard_export_dialog_set_path (ShepardExportDialog *self, const char *path);
/* Starts the export as the Export button does; the dialog closes itself once the raster is written, or shows why not.
 * "finished" (gboolean written) is emitted either way. */
void shepard_export_dialog_start (ShepardExportDialog *self);
/* What was written, where and how fast ("Wrote … in 0.21 s on CUDA: …"), once "finished" says it was; else NULL. */
const char *shepard_export_dialog_get_report (ShepardExportDialog *self);

G_END_DECLS
