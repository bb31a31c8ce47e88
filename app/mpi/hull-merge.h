/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "convex-hull.h"

G_BEGIN_DECLS

/* Replaces the vertices in hull_x and hull_y (GArrays of doubles) by the corners of the convex hull of them and of n
 * more points (compute/convex-hull.h: exact, so that the hull of the hulls of parts, in any grouping and order, is the
 * whole's, bit for bit, as the ranks that each scan part of a layer need). */
void shepard_hull_merge (GArray *hull_x, GArray *hull_y, const shepard_hull_point *points, size_t n);

G_END_DECLS
