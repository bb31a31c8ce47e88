/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Round numbers for what a person reads off the map: legend ticks and scale bar lengths. */

/* Ticks of a legend over [min, max] (finite, max > min): the multiples of a step of 1, 2, 2.5 or 5 × 10^k that lie in
 * the range, the smallest such step that gives at most max_ticks (>= 2) of them. Writes them rising into ticks (room
 * for max_ticks), the step into *step, and returns their count, 0 only for an empty or non-finite range. */
guint shepard_nice_ticks (double min, double max, guint max_ticks, double *ticks, double *step);

/* The largest 1, 2 or 5 × 10^k not above limit (> 0): a scale bar's length. */
double shepard_nice_length (double limit);

/* How many decimals print every multiple of step (a value shepard_nice_ticks gave) exactly: 0 for 200, 1 for 2.5 and
 * for 0.5, 2 for 0.25. */
int shepard_nice_decimals (double step);

G_END_DECLS
