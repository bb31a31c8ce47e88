/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Puts the widgets of grid's first column that span that column only (the row labels, not the headings) in group, a
 * horizontal size group: grids stacked in one side panel then start their second column at the same x. */
void shepard_label_column_share (GtkGrid *grid, GtkSizeGroup *group);

G_END_DECLS
