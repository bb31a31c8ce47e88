/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Seeded data point sets of the shapes that break interpolation and kNN code: even, clustered, duplicated, far from
 * the origin, and one dense cluster with a few far outliers. */
#ifndef POINT_LAYOUTS_H
#define POINT_LAYOUTS_H

#include <stddef.h>
#include <stdint.h>

typedef enum {
  POINT_LAYOUT_UNIFORM,            /* uniform in a 1000 x 700 rectangle */
  POINT_LAYOUT_CLUSTERS,           /* a few Gaussian clusters of different spreads */
  POINT_LAYOUT_DUPLICATES,         /* about a third of the points repeat an earlier position with another value */
  POINT_LAYOUT_UTM,                /* uniform in 2 km x 3 km at x ~ 500000, y ~ 5000000 */
  POINT_LAYOUT_CLUSTER_OUTLIERS,   /* 95 % within ~0.01 of one spot, the rest spread over 1000 x 700 */
} point_layout;

typedef struct {
  double *x;
  double *y;
  double *z;
  size_t count;
} point_set;

const char *point_layout_name (point_layout layout);
point_set *point_set_new (point_layout layout, size_t count, uint64_t seed);
/* An empty set to fill by hand. */
point_set *point_set_new_empty (size_t count);
void point_set_free (point_set *points);

#endif /* POINT_LAYOUTS_H */
