/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Points at one location with different values. The engine takes their mean at that location (its coincident rule,
 * SHEPARD_COINCIDENT_TOLERANCE): the surface does not honour any of them, which a user should know. */
typedef struct {
  size_t n_locations; /* locations holding two or more points whose values differ */
  size_t n_points;    /* points at those locations */
  double worst_spread;     /* the largest max - min of the values at one location */
  double worst_x, worst_y; /* where it is */
  size_t worst_count;      /* points there */
  double worst_mean;       /* the mean there: the surface's value at that location */
} ShepardDuplicateReport;

/* Finds the locations of n points whose coordinates are exactly equal (bit for bit, -0 as 0) and whose values differ;
 * points closer than the engine's coincident tolerance without being equal are not counted. Points at one location
 * with one value are not reported: their mean is that value. Returns whether any was found; report is filled either
 * way (zeros when none). */
gboolean shepard_duplicate_points_find (const double *x, const double *y, const double *z, size_t n,
                                        ShepardDuplicateReport *report);

/* "3 locations hold 7 points with different values (worst at x 10, y 20: 4 points spread over 12.5); the surface
 * takes their mean there", for a CLI line or a panel; free with g_free. */
char *shepard_duplicate_report_describe (const ShepardDuplicateReport *report);

G_END_DECLS
