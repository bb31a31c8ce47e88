/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Convex hulls whose vertices do not depend on how the points were grouped: the turns are tested exactly (while no
 * product of two coordinates overflows or underflows), so that the hull of the hulls of parts of a set, in any
 * grouping and order, is the set's own hull, bit for bit, as ranks that each scan part of a layer need. */

/* Replaces the vertices in hull_x and hull_y (GArrays of doubles) by those of the convex hull of them and of n more
 * points (Andrew's monotone chain): its corners only, none on an edge, counter-clockwise from the least x (then y).
 * One point gives one vertex; several at one place give it twice. */
void shepard_convex_hull_merge (GArray *hull_x, GArray *hull_y, const double *x, const double *y, size_t n);

/* Moves to the front of x and y, in their order, the points that may be corners of their convex hull and returns how
 * many they are: it drops those strictly inside the polygon of the points of least and greatest x, y, x + y and x - y
 * (Akl and Toussaint), so that shepard_convex_hull_merge sorts few points rather than all, to the same hull. */
size_t shepard_convex_hull_drop_interior (double *x, double *y, size_t n);

G_END_DECLS
