/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-label-column.h"

void
shepard_label_column_share (GtkGrid *grid, GtkSizeGroup *group)
{
  g_return_if_fail (GTK_IS_GRID (grid));
  g_return_if_fail (GTK_IS_SIZE_GROUP (group));

  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (grid)); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      int column, width;
      gtk_grid_query_child (grid, child, &column, NULL, &width, NULL);
      if (column == 0 && width == 1)
        gtk_size_group_add_widget (group, child);
    }
}
