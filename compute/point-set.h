/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data points in the engine's local frame: shifted to a local origin and scaled by a power of two in float64, so
 * that float32 copies keep their precision at UTM-scale coordinates. */
#ifndef SHEPARD_POINT_SET_H
#define SHEPARD_POINT_SET_H

#include "shepard-engine.h"

/* Float copies are padded to a multiple of this many points (the widest SIMD vector). */
enum { SHEPARD_POINT_PADDING = 16 };

typedef struct {
  size_t n;
  double x_min, y_min, x_max, y_max; /* as given */
  double origin_x, origin_y;         /* local = (given - origin) * scale */
  double scale;                      /* a power of two: the local frame's extent lies in (0.5, 1] */
  double *x, *y, *z;                 /* local frame, float64 */
  /* local frame in float32, each coordinate as hi + lo so that differences of nearby points stay exact */
  float *x_hi, *x_lo, *y_hi, *y_lo, *z32;
  size_t n_padded;
  bool collinear; /* every point within 1e-9 of the layout's length from one line (or all at one spot) */
} shepard_point_set;

shepard_status shepard_point_set_init (shepard_point_set *set, const double *x, const double *y, const double *z,
                                       size_t n, shepard_error *error);
void shepard_point_set_clear (shepard_point_set *set);

/* Area of the convex hull of the points, in squared given units. */
double shepard_point_set_hull_area (const shepard_point_set *set);

/* The square of the coincident tolerance (SHEPARD_COINCIDENT_TOLERANCE of the larger side of the points' box) in the
 * local frame: a query this close to data points takes their mean, on every backend. */
double shepard_point_set_coincident_d2_local (const shepard_point_set *set);

#endif
