/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "hull-merge.h"

#include <string.h>

void
shepard_hull_merge (GArray *hull_x, GArray *hull_y, const shepard_hull_point *points, size_t n)
{
  size_t total = hull_x->len + n;
  if (total == 0)
    return;
  g_autofree shepard_hull_point *all = g_new (shepard_hull_point, total);
  g_autofree shepard_hull_point *hull = g_new (shepard_hull_point, 2 * total + 1);

  for (guint i = 0; i < hull_x->len; i++)
    all[i] = (shepard_hull_point) { g_array_index (hull_x, double, i), g_array_index (hull_y, double, i) };
  if (n > 0)
    memcpy (all + hull_x->len, points, n * sizeof *points);
  size_t count = shepard_convex_hull (all, total, hull);
  g_array_set_size (hull_x, 0);
  g_array_set_size (hull_y, 0);
  for (size_t i = 0; i < count; i++)
    {
      g_array_append_val (hull_x, hull[i].x);
      g_array_append_val (hull_y, hull[i].y);
    }
}
