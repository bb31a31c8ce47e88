/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "point-set.h"

#include "convex-hull.h"
#include "engine-private.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static void *
aligned_floats (size_t count)
{
  size_t bytes = count * sizeof (float);
  bytes = (bytes + 63) / 64 * 64;
  return aligned_alloc (64, bytes);
}

/* Points on one line span no area even where their bounding rectangle does (a diagonal line), and AIDW's expected
 * nearest-neighbour distance means nothing for them. */
static bool
points_are_collinear (const double *x, const double *y, size_t n)
{
  size_t anchor = 0, far = 0;
  for (size_t i = 1; i < n; i++)
    if (x[i] < x[anchor] || (x[i] == x[anchor] && y[i] < y[anchor]))
      anchor = i;
  double far_d2 = 0.0;
  for (size_t i = 0; i < n; i++)
    {
      double dx = x[i] - x[anchor], dy = y[i] - y[anchor];
      if (dx * dx + dy * dy > far_d2)
        {
          far_d2 = dx * dx + dy * dy;
          far = i;
        }
    }
  if (far_d2 == 0.0)
    return true;
  double ux = x[far] - x[anchor], uy = y[far] - y[anchor];
  double tolerance = 1e-9 * far_d2; /* |cross| / |u| <= 1e-9 |u| */
  for (size_t i = 0; i < n; i++)
    {
      double cross = ux * (y[i] - y[anchor]) - uy * (x[i] - x[anchor]);
      if (fabs (cross) > tolerance)
        return false;
    }
  return true;
}

/* The middle of [low, high] and the half-width, from halves, so that neither overflows for any finite bounds. */
static void
middle_and_half_width (double low, double high, double *middle, double *half_width)
{
  *middle = 0.5 * low + 0.5 * high;
  *half_width = 0.5 * high - 0.5 * low;
}

/* A power of two that brings a half-width into [0.5, 1) (twice that for a full extent); 1 for zero. */
static double
unit_scale (double half_width)
{
  int exponent = 0;
  if (half_width > 0.0)
    frexp (half_width, &exponent);
  return ldexp (1.0, -exponent);
}

/* A float-rounded origin has few significant bits, so (given - origin) is exact for typical projected data; beyond
 * the float range the double one serves. */
static double
coordinate_origin (double middle)
{
  float rounded = (float) middle;
  return isfinite (rounded) ? (double) rounded : middle;
}

/* whole: NULL where these are all the points, else the layer they are part of, whose value ranges set the frame. */
static shepard_status
scale_values (shepard_point_set *set, const double *const *z, const shepard_layer_extent *whole,
              shepard_error *error)
{
  size_t n = set->n, padded = set->n_padded;
  for (size_t f = 0; f < set->n_fields; f++)
    {
      double z_min = INFINITY, z_max = -INFINITY;
      for (size_t i = 0; i < n; i++)
        {
          if (!isfinite (z[f][i]))
            return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                                 "Data point %zu has a value that is not a finite number (%g) in field %zu; leave "
                                 "such points out.", i, z[f][i], f + 1);
          z_min = fmin (z_min, z[f][i]);
          z_max = fmax (z_max, z[f][i]);
        }
      if (whole)
        {
          if (!(z_min >= whole->z_min[f] && z_max <= whole->z_max[f]))
            return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                                 "The values of field %zu reach [%g, %g], outside the whole layer's range [%g, %g]; "
                                 "give the range of every point of the layer.", f + 1, z_min, z_max,
                                 whole->z_min[f], whole->z_max[f]);
          z_min = whole->z_min[f];
          z_max = whole->z_max[f];
        }
      double middle, half_width;
      middle_and_half_width (z_min, z_max, &middle, &half_width);
      double origin = coordinate_origin (middle), scale = unit_scale (half_width);
      set->z_origin[f] = origin;
      set->z_scale[f] = scale;
      double *plane = set->z + f * padded;
      float *plane32 = set->z32 + f * padded;
      for (size_t i = 0; i < padded; i++)
        {
          /* |z - origin| <= half_width (+ the origin's rounding), so the local value lies within [-1, 1]. */
          plane[i] = i < n ? (z[f][i] - origin) * scale : 0.0;
          plane32[i] = (float) plane[i];
        }
    }
  return SHEPARD_OK;
}

static shepard_status
init_in_frame (shepard_point_set *set, const double *x, const double *y, const double *const *z, size_t n_fields,
               size_t n, const shepard_layer_extent *whole, shepard_error *error);

shepard_status
shepard_point_set_init (shepard_point_set *set, const double *x, const double *y, const double *const *z,
                        size_t n_fields, size_t n, shepard_error *error)
{
  return init_in_frame (set, x, y, z, n_fields, n, NULL, error);
}

shepard_status
shepard_point_set_init_part (shepard_point_set *set, const double *x, const double *y, const double *const *z,
                             size_t n_fields, size_t n, const shepard_layer_extent *whole, shepard_error *error)
{
  memset (set, 0, sizeof *set);
  if (!whole || !(whole->x_min <= whole->x_max) || !(whole->y_min <= whole->y_max) || !isfinite (whole->x_min)
      || !isfinite (whole->x_max) || !isfinite (whole->y_min) || !isfinite (whole->y_max) || whole->n < n)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                         "The whole layer's extent is missing or does not hold these %zu points.", n);
  for (size_t f = 0; f < n_fields && f < SHEPARD_MAX_FIELDS; f++)
    if (!isfinite (whole->z_min[f]) || !isfinite (whole->z_max[f]) || whole->z_min[f] > whole->z_max[f])
      return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                           "The whole layer's range of field %zu is not a range of finite numbers.", f + 1);
  return init_in_frame (set, x, y, z, n_fields, n, whole, error);
}

/* The points' box, the frame and every copy; whole: NULL where these are all the points, else the layer whose box
 * and value ranges set the frame. */
static shepard_status
init_in_frame (shepard_point_set *set, const double *x, const double *y, const double *const *z, size_t n_fields,
               size_t n, const shepard_layer_extent *whole, shepard_error *error)
{
  memset (set, 0, sizeof *set);
  if (n == 0)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "There are no data points to interpolate.");
  if (n_fields < 1 || n_fields > SHEPARD_MAX_FIELDS)
    return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "Give 1 to %d value fields, not %zu.",
                         SHEPARD_MAX_FIELDS, n_fields);

  double x_min = INFINITY, y_min = INFINITY, x_max = -INFINITY, y_max = -INFINITY;
  for (size_t i = 0; i < n; i++)
    {
      if (!isfinite (x[i]) || !isfinite (y[i]))
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "Data point %zu has a coordinate that is not a finite number (%g, %g); leave such "
                             "points out.", i, x[i], y[i]);
      x_min = fmin (x_min, x[i]);
      x_max = fmax (x_max, x[i]);
      y_min = fmin (y_min, y[i]);
      y_max = fmax (y_max, y[i]);
    }
  if (whole)
    {
      if (!(x_min >= whole->x_min && x_max <= whole->x_max && y_min >= whole->y_min && y_max <= whole->y_max))
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "The points reach beyond the whole layer's box; give the box of every point of the "
                             "layer.");
      x_min = whole->x_min;
      x_max = whole->x_max;
      y_min = whole->y_min;
      y_max = whole->y_max;
    }

  size_t padded = (n + SHEPARD_POINT_PADDING - 1) / SHEPARD_POINT_PADDING * SHEPARD_POINT_PADDING;
  size_t values, bytes;
  if (!shepard_size_mul (padded, n_fields, &values) || !shepard_size_mul (values, sizeof (double), &bytes))
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW, "Too many data points (%zu) or fields (%zu).", n,
                         n_fields);

  set->n = n;
  set->n_padded = padded;
  set->n_fields = n_fields;
  set->x_min = x_min;
  set->y_min = y_min;
  set->x_max = x_max;
  set->y_max = y_max;
  double middle_x, middle_y, half_x, half_y;
  middle_and_half_width (x_min, x_max, &middle_x, &half_x);
  middle_and_half_width (y_min, y_max, &middle_y, &half_y);
  set->origin_x = coordinate_origin (middle_x);
  set->origin_y = coordinate_origin (middle_y);
  /* The extent (twice the larger half-width) then lies in [0.5, 1). */
  double half_extent = fmax (half_x, half_y);
  set->scale = half_extent > 0.0 ? 0.5 * unit_scale (half_extent) : 1.0;

  set->x = malloc (padded * sizeof (double));
  set->y = malloc (padded * sizeof (double));
  set->z = malloc (bytes);
  set->z_origin = malloc (n_fields * sizeof (double));
  set->z_scale = malloc (n_fields * sizeof (double));
  set->z_given = malloc (n * sizeof (double));
  set->x_hi = aligned_floats (padded);
  set->x_lo = aligned_floats (padded);
  set->y_hi = aligned_floats (padded);
  set->y_lo = aligned_floats (padded);
  set->z32 = aligned_floats (values);
  if (!set->x || !set->y || !set->z || !set->z_origin || !set->z_scale || !set->z_given || !set->x_hi || !set->x_lo
      || !set->y_hi || !set->y_lo || !set->z32)
    {
      shepard_point_set_clear (set);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for %zu data points.", n);
    }

  for (size_t i = 0; i < padded; i++)
    {
      bool real = i < n;
      double lx = real ? shepard_point_set_local (x[i], set->origin_x, set->scale) : 0.0;
      double ly = real ? shepard_point_set_local (y[i], set->origin_y, set->scale) : 0.0;
      set->x[i] = lx;
      set->y[i] = ly;
      set->x_hi[i] = (float) lx;
      set->x_lo[i] = (float) (lx - (double) set->x_hi[i]);
      set->y_hi[i] = (float) ly;
      set->y_lo[i] = (float) (ly - (double) set->y_hi[i]);
    }
  memcpy (set->z_given, z[0], n * sizeof (double));
  shepard_status status = scale_values (set, z, whole, error);
  if (status != SHEPARD_OK)
    {
      shepard_point_set_clear (set);
      return status;
    }
  if (!whole)
    set->collinear = points_are_collinear (set->x, set->y, n);
  else if (whole->hull_count > 0)
    {
      /* A part may lie on one line where the layer does not: the layer's hull says. */
      double *hull_x = malloc (whole->hull_count * sizeof *hull_x), *hull_y = malloc (whole->hull_count * sizeof *hull_y);
      if (!hull_x || !hull_y)
        {
          free (hull_x);
          free (hull_y);
          shepard_point_set_clear (set);
          return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the layer's hull.");
        }
      for (size_t i = 0; i < whole->hull_count; i++)
        {
          hull_x[i] = shepard_point_set_local (whole->hull_x[i], set->origin_x, set->scale);
          hull_y[i] = shepard_point_set_local (whole->hull_y[i], set->origin_y, set->scale);
        }
      set->collinear = points_are_collinear (hull_x, hull_y, whole->hull_count);
      free (hull_x);
      free (hull_y);
    }
  return SHEPARD_OK;
}

void
shepard_point_set_clear (shepard_point_set *set)
{
  free (set->x);
  free (set->y);
  free (set->z);
  free (set->z_origin);
  free (set->z_scale);
  free (set->z_given);
  free (set->x_hi);
  free (set->x_lo);
  free (set->y_hi);
  free (set->y_lo);
  free (set->z32);
  memset (set, 0, sizeof *set);
}

/* The hull's area of n points, each (x, y) given by point_at in the local frame; NAN without memory. */
static double
hull_area (size_t n, void (*point_at) (const void *source, size_t i, shepard_hull_point *point), const void *source)
{
  if (n < 3)
    return 0.0;
  shepard_hull_point *points = malloc (n * sizeof *points);
  if (!points)
    return NAN;
  for (size_t i = 0; i < n; i++)
    point_at (source, i, &points[i]);
  size_t candidates = shepard_convex_hull_drop_interior (points, n);
  shepard_hull_point *hull = malloc ((2 * candidates + 1) * sizeof *hull);
  double area = NAN;
  if (hull)
    area = shepard_convex_hull_area (hull, shepard_convex_hull (points, candidates, hull));
  free (points);
  free (hull);
  return area;
}

static void
set_point (const void *source, size_t i, shepard_hull_point *point)
{
  const shepard_point_set *set = source;
  *point = (shepard_hull_point) { set->x[i], set->y[i] };
}

double
shepard_point_set_hull_area (const shepard_point_set *set)
{
  return hull_area (set->n, set_point, set);
}

typedef struct {
  const shepard_point_set *set;
  const double *x, *y;
} given_points;

static void
given_point (const void *source, size_t i, shepard_hull_point *point)
{
  const given_points *given = source;
  *point = (shepard_hull_point) { shepard_point_set_local (given->x[i], given->set->origin_x, given->set->scale),
                                  shepard_point_set_local (given->y[i], given->set->origin_y, given->set->scale) };
}

double
shepard_point_set_hull_area_of (const shepard_point_set *set, const double *x, const double *y, size_t n)
{
  given_points given = { set, x, y };
  return hull_area (n, given_point, &given);
}

double
shepard_point_set_coincident_d2_local (const shepard_point_set *set)
{
  double extent = 2.0 * fmax (0.5 * set->x_max - 0.5 * set->x_min, 0.5 * set->y_max - 0.5 * set->y_min) * set->scale;
  double coincident = SHEPARD_COINCIDENT_TOLERANCE * (extent > 0.0 ? extent : set->scale);
  return coincident * coincident;
}
