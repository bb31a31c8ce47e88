/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Convex hulls whose corners do not depend on how the points were grouped: the turns are tested exactly (while no
 * product of two coordinates overflows or underflows), so that the hull of the hulls of parts of a set, in any
 * grouping and order, is the set's own hull, bit for bit, as shepard-grid-mpi's ranks that each scan part of a layer
 * need; and before the sort, the points that cannot be corners are dropped in one pass, so that a million points
 * take a few milliseconds rather than a sort of them all. */
#ifndef SHEPARD_CONVEX_HULL_H
#define SHEPARD_CONVEX_HULL_H

#include <stddef.h>

typedef struct {
  double x, y;
} shepard_hull_point;

/* Moves to the front of points, in their order, those that may be corners of their convex hull and returns how many
 * they are: it drops those strictly inside the polygon of the points of least and greatest x, y, x + y and x - y
 * (Akl and Toussaint), so that shepard_convex_hull sorts few points rather than all, to the same hull. */
size_t shepard_convex_hull_drop_interior (shepard_hull_point *points, size_t n);

/* Sorts points (by x, then y) and writes the corners of their convex hull into hull (room for 2 n + 1 points; Andrew's
 * monotone chain): its corners only, none on an edge, counter-clockwise from the least x (then y); returns how many.
 * One point gives one corner; several at one place give it twice. */
size_t shepard_convex_hull (shepard_hull_point *points, size_t n, shepard_hull_point *hull);

/* The area of a hull of count corners in order (the shoelace formula, the corners as they come). */
double shepard_convex_hull_area (const shepard_hull_point *hull, size_t count);

#endif
