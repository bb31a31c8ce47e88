/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The weighting neighbourhood of shepard-engine.h ("The weighting neighbourhood"): which data points a query weighs,
 * found exactly through the even grid, in the points' local frame. Every CPU path (interpolation, cross-validation,
 * explain) selects through here. */
#ifndef SHEPARD_NEIGHBOURHOOD_H
#define SHEPARD_NEIGHBOURHOOD_H

#include "even-grid.h"
#include "point-set.h"

#include <stdbool.h>
#include <stdint.h>

typedef enum {
  SHEPARD_SELECT_ALL,       /* every data point (the SIMD path), perhaps with a points-per-quadrant minimum */
  SHEPARD_SELECT_NEAREST,   /* the max_points nearest, inside the ellipse if there is one */
  SHEPARD_SELECT_QUADRANTS, /* the nearest per quadrant up to max_points_per_quadrant, then up to max_points */
  SHEPARD_SELECT_ELLIPSE,   /* every point inside the ellipse, any count */
} shepard_selection_mode;

enum { SHEPARD_QUADRANTS = 4 };

typedef struct {
  shepard_selection_mode mode;
  bool ellipse;        /* candidates are limited to the search ellipse */
  bool circle;         /* the ellipse is a circle: d^2 <= radius^2, exactly as gdal_grid's radius */
  double radius2;      /* circle: the squared radius, local */
  double cos_angle, sin_angle, inverse_r1_2, inverse_r2_2; /* ellipse: axes and 1 / semi-axis^2, local */
  double bound2;       /* the squared radius of the circle around the ellipse, local (+inf without one) */
  size_t max_points;   /* SIZE_MAX: no limit */
  size_t quadrant_cap; /* QUADRANTS: the most points kept per quadrant, min (max_points_per_quadrant, max_points) */
  size_t min_points;   /* fewer selected: no data (at least 1) */
  size_t min_quadrant; /* a quadrant with fewer selected: no data */
  double smoothing2;   /* S^2, local */
  double box_x[2], box_y[2]; /* the points' bounding box, local: an ellipse holding it selects every point */
} shepard_neighbourhood;

void shepard_neighbourhood_init (shepard_neighbourhood *hood, const shepard_params *params,
                                 const shepard_point_set *points);

/* One query's selected points, in no particular order (the sums do not need one); nearest_d2 holds the smallest
 * squared distance. Per-worker memory, reused from query to query. */
typedef struct {
  double *d2;
  size_t *index;
  size_t count, capacity;
  double nearest_d2; /* +inf when none is selected */
  size_t quadrant_count[SHEPARD_QUADRANTS];
  bool every_point; /* ELLIPSE: the ellipse holds every point, so the all-points path weighs them (d2 unused) */
  double *list_d2;  /* QUADRANTS and the minimum check: SHEPARD_QUADRANTS lists of quadrant_cap (or min_quadrant) */
  size_t *list_index;
  double *scan_d2;  /* a scan of the search circle: the candidates inside the ellipse, before the cut */
  size_t *scan_index;
  unsigned char *scan_quadrant;
  size_t scan_capacity;
  size_t *run_first, *run_end; /* the scan's runs of slots, one per row of cells it covers */
  size_t run_count, run_capacity;
} shepard_selection;

/* Returns false when out of memory. */
bool shepard_selection_init (shepard_selection *selection, const shepard_neighbourhood *hood);
void shepard_selection_clear (shepard_selection *selection);

/* The quadrant of a point at (dx, dy) from the query (gdal_grid's: dx >= 0 east, dy >= 0 north): bit 0 west, bit 1
 * south. */
static inline int
shepard_quadrant_of (double dx, double dy)
{
  return (dx < 0.0 ? 1 : 0) | (dy < 0.0 ? 2 : 0);
}

/* Whether a point at (dx, dy) and squared distance d2 from the query is a candidate (inside the ellipse). */
static inline bool
shepard_neighbourhood_holds (const shepard_neighbourhood *hood, double dx, double dy, double d2)
{
  if (!hood->ellipse)
    return true;
  if (hood->circle)
    return d2 <= hood->radius2;
  double u = dx * hood->cos_angle + dy * hood->sin_angle, v = dy * hood->cos_angle - dx * hood->sin_angle;
  return u * u * hood->inverse_r1_2 + v * v * hood->inverse_r2_2 <= 1.0;
}

/* Selects the points a query at (qx, qy) weighs, passing over those labelled `excluded` when sorted_label is set (as
 * the even grid's *_excluding searches). x, y: the points' local coordinates by index. In ALL mode it only counts
 * the points per quadrant, up to min_quadrant. Returns false when out of memory. */
bool shepard_neighbourhood_select (const shepard_neighbourhood *hood, const shepard_even_grid *grid, const double *x,
                                   const double *y, const uint32_t *sorted_label, uint32_t excluded, double qx,
                                   double qy, shepard_selection *selection);

/* NEAREST without an ellipse: the selection is the first count of a nearest search already made (ascending d2 and
 * index), which saves a second search when AIDW's k nearest hold them. */
void shepard_selection_take_nearest (const shepard_neighbourhood *hood, shepard_selection *selection, const double *d2,
                                     const size_t *index, size_t count, const double *x, const double *y, double qx,
                                     double qy);

/* Whether a selection gives the query a value: enough points (available: what ALL mode weighs), and enough in every
 * quadrant. */
bool shepard_selection_has_data (const shepard_neighbourhood *hood, const shepard_selection *selection,
                                 size_t available);

/* Whether the selection holds data point `index` (explain's shares). */
bool shepard_selection_holds (const shepard_selection *selection, size_t index);

#endif
