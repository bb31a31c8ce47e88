/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The data points in the engine's local frame: shifted to a local origin and scaled by a power of two in float64, so
 * that float32 copies keep their precision at UTM-scale coordinates. */
#ifndef SHEPARD_POINT_SET_H
#define SHEPARD_POINT_SET_H

#include "shepard-engine.h"

#include <float.h>
#include <math.h>

/* Float copies are padded to a multiple of this many points (the widest SIMD vector). */
enum { SHEPARD_POINT_PADDING = 16 };

typedef struct {
  size_t n;
  double x_min, y_min, x_max, y_max; /* as given */
  double origin_x, origin_y;         /* local = (given - origin) * scale */
  double scale;                      /* a power of two: the local frame's extent lies in (0.5, 1] */
  double *x, *y;                     /* local frame, float64 */
  /* Values in a scaled frame, so that no weighted sum overflows whatever the data reach: field f's local value is
   * (given - z_origin[f]) * z_scale[f] (z_scale a power of two, local values within [-1, 1]); an interpolated local
   * value v maps back to z_origin[f] + v / z_scale[f]. z holds n_fields planes of n_padded values, field after field
   * (field f at z + f * n_padded); z32 the same in float32. */
  size_t n_fields;
  double *z;
  double *z_origin, *z_scale; /* n_fields each */
  double *z_given;            /* field 0's n values as given: the observed values of cross-validation and explain */
  /* local frame in float32, each coordinate as hi + lo so that differences of nearby points stay exact */
  float *x_hi, *x_lo, *y_hi, *y_lo, *z32;
  size_t n_padded;
  bool collinear; /* every point within 1e-9 of the layout's length from one line (or all at one spot) */
} shepard_point_set;

/* Queries farther than this from the points' local origin are moved in to it: the data points' distances then differ
 * by a relative 2^-199 at most, far below float64 rounding, and no squared distance overflows. */
#define SHEPARD_LOCAL_LIMIT 0x1p200

/* A given coordinate in the local frame (origin and scale of one axis), without overflow for any finite input. */
static inline double
shepard_point_set_local (double given, double origin, double scale)
{
  double difference = given - origin;
  double local = isfinite (difference) ? difference * scale : (0.5 * given - 0.5 * origin) * (2.0 * scale);
  return fmax (-SHEPARD_LOCAL_LIMIT, fmin (SHEPARD_LOCAL_LIMIT, local));
}

/* An interpolated local value of field f in given units (NaN stays NaN). A weighted mean lies within the field's
 * values, so only rounding could take it past the largest double: it is kept finite. */
static inline double
shepard_point_set_value (const shepard_point_set *set, size_t field, double local)
{
  double value = set->z_origin[field] + local / set->z_scale[field];
  return isinf (value) ? copysign (DBL_MAX, value) : value;
}

shepard_status shepard_point_set_init (shepard_point_set *set, const double *x, const double *y,
                                       const double *const *z, size_t n_fields, size_t n, shepard_error *error);
/* As shepard_point_set_init for points that are part of the layer `whole` describes: the frame (origins, scales, the
 * box) is the whole layer's. Fails where a point lies outside its box or a value outside its field's range. */
shepard_status shepard_point_set_init_part (shepard_point_set *set, const double *x, const double *y,
                                            const double *const *z, size_t n_fields, size_t n,
                                            const shepard_layer_extent *whole, shepard_error *error);
void shepard_point_set_clear (shepard_point_set *set);

/* Area of the convex hull of the points in the local frame (squared given units times scale^2); NAN without memory. */
double shepard_point_set_hull_area (const shepard_point_set *set);
/* The same for n points in given coordinates, taken into set's frame. */
double shepard_point_set_hull_area_of (const shepard_point_set *set, const double *x, const double *y, size_t n);

/* The square of the coincident tolerance (SHEPARD_COINCIDENT_TOLERANCE of the larger side of the points' box) in the
 * local frame: a query this close to data points takes their mean, on every backend. */
double shepard_point_set_coincident_d2_local (const shepard_point_set *set);

#endif
