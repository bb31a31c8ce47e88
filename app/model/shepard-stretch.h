/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Statistics of a shown surface's cells for its colours: the stretch (which values the ramp's ends stand for) and
 * class breaks. Non-finite cells (nodata) are left out everywhere. */

/* How the ramp's ends are chosen. The numbers are stored in settings. */
typedef enum {
  SHEPARD_STRETCH_DATA_RANGE, /* the data's minimum and maximum */
  SHEPARD_STRETCH_CUMULATIVE_CUT, /* the 2 % and 98 % quantiles of the cells: a few outliers no longer wash it out */
  SHEPARD_STRETCH_CUSTOM,     /* the user's minimum and maximum */
} ShepardStretch;

#define SHEPARD_STRETCH_CUT_LOWER 0.02
#define SHEPARD_STRETCH_CUT_UPPER 0.98

/* How the surface is divided into classes. The numbers are stored in settings. */
typedef enum {
  SHEPARD_CLASSES_CONTINUOUS,
  SHEPARD_CLASSES_EQUAL_INTERVAL, /* n classes of equal width over the stretch */
  SHEPARD_CLASSES_QUANTILE,       /* n classes of equal cell counts */
} ShepardClasses;

/* The quantiles at lower and upper (0 <= lower <= upper <= 1) of the finite values, interpolated linearly between
 * order statistics (R's type 7: the q-quantile of n sorted values v is v[(n - 1) q], between neighbours when that is
 * no whole index). FALSE when no value is finite. */
gboolean shepard_stretch_quantiles (const float *values, size_t n_values, double lower, double upper, double *low,
                                    double *high);

/* n_classes + 1 rising breaks into breaks. Equal interval: min, min + (max - min) / n, ..., max. Quantile: the
 * finite values' min, their i / n quantiles, max; FALSE when no value is finite. */
void shepard_stretch_equal_breaks (double min, double max, guint n_classes, double *breaks);
gboolean shepard_stretch_quantile_breaks (const float *values, size_t n_values, guint n_classes, double *breaks);

G_END_DECLS
