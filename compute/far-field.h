/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Far-field summation of the all-points sums (shepard_all_points_sums without labels or smoothing) for tiles of
 * queries, within a bound the caller sets: a binary tree over the data points whose nodes carry complex moments
 * M_jl = sum_i w_i d_i^j conj(d_i)^l (d_i = x_i - centre) that do not depend on the power, so that one tree serves
 * IDW of any power and AIDW, whose power changes from query to query. A tile of queries shares one walk of the tree:
 * a node far enough from the tile's bounding box is summed from its moments; a leaf too near it is tested again for
 * each sub-tile (8 neighbouring queries) where the tile's box is large beside the leaf, and summed from its moments for
 * the sub-tiles far enough from it, point by point for the others.
 *
 * The guarantee. With tolerance t, for every query of the tile and every field f, the weighted mean
 * sum_wz[f] / sum_w differs from the exact one by at most t * (z_max[f] - z_min[f]), the range of field f's local
 * values; sum_w is within a relative e = t / (1 + t) of the exact sum of weights. Why: a node summed from its moments
 * replaces each of its points' weights w_i by the truncated series, off by some eps_i, and each slot's moments carry
 * the same series (weight 1, or z_i - z_min[f]): sum_w is off by sum_i eps_i, the shifted sum by
 * sum_i (z_i - z_min[f]) eps_i. So the mean is off by sum_i (z_i - z) eps_i / (approximate sum_w), at most
 * range * E / (S - E) with E = sum_i |eps_i| and S the exact sum_w. For each query, the nodes summed from their
 * moments and the leaves summed point by point hold every point once. Every node summed from its moments has a proven
 * bound of its part of E (far-field-tree.h, far_field_accept_order): within e / 2 of its own part of S, or within its
 * share of e / 2 times a lower bound of S. The shares add to at most 1 for every query: n_node / n for the nodes
 * summed before the walk ends (when the list of waiting nodes fills) and for those taken by one sub-tile; the nodes
 * taken by the whole tile after that share what is left as lowers their terms (far-field.c, share_budget). S_low,
 * the lower bound, is the tile's in far_field_tile_bounds: at least the nearest point's weight, and raised from the
 * exact sums of the leaves summed point by point before the far nodes (a partial
 * sum of exact weights, of the whole tile or of a sub-tile, is no more than the whole). A sub-tile's test takes the
 * tile's bounds with its own box's distance: its queries' powers and nearest distances lie within the tile's, and the
 * error share found at the tile's distance holds at any larger one (far_field_error_share). So E <= e S and the mean
 * is within e / (1 - e) * range = t * range. This holds in exact arithmetic; float64 rounding adds about 1e-13 of
 * the range (a tenth of the tolerance is left to it), so tolerances down to about 1e-11 keep it.
 * Leaves near the tile are summed point by point as shepard_all_points_sums does (non-whole powers to about 1e-15,
 * far-field-power.h). */
#ifndef SHEPARD_FAR_FIELD_H
#define SHEPARD_FAR_FIELD_H

#include "point-set.h"

#include <stdbool.h>
#include <stdint.h>

/* Most queries in one tile. */
enum { SHEPARD_FAR_FIELD_TILE_MAX = 64 };

typedef struct shepard_far_field shepard_far_field;

/* The tree and the moments of every field of points (borrowed only during the call): O(n log n) work, on `threads`
 * threads (0: every core; the tree is the same, to the bit, on any number). progress (may be NULL) hears of it, from
 * the calling thread, and may cancel it (SHEPARD_ERROR_CANCELLED): 10M points take some 15 s on 2 cores. */
shepard_status shepard_far_field_new (const shepard_point_set *points, int threads, shepard_progress_fn progress,
                                      void *progress_data, shepard_far_field **far_field, shepard_error *error);
void shepard_far_field_free (shepard_far_field *far_field);

/* Bytes the tree, the reordered points and the moments hold. */
size_t shepard_far_field_size (const shepard_far_field *far_field);

/* Queries in the local frame, close together for the tile to pay (say 8 x 8 neighbouring grid cells). The caller
 * handles queries within the coincident tolerance of a data point first (the mean of those points, as cpu-backend.c
 * does): here nearest_d2, the squared distance to the nearest data point, is > 0. exponent is -alpha / 2 as
 * shepard_all_points_sums takes it, with alpha in [0, 64]. */
typedef struct {
  size_t count; /* 1 .. SHEPARD_FAR_FIELD_TILE_MAX */
  const double *x, *y;
  const double *nearest_d2;
  const double *exponent;
} shepard_far_field_tile;

/* What a call did, added to by every call: to compare tolerances. */
typedef struct {
  uint64_t far_terms;    /* (query, node) pairs summed from the node's moments */
  uint64_t direct_pairs; /* (query, point) pairs weighed one by one */
  uint64_t moment_terms; /* (query, moment) pairs summed: the far nodes' work at their orders */
  uint64_t tiles;
} shepard_far_field_work;

/* The sums of w and of w z for the first n_fields fields of each query of the tile, w relative to its nearest_d2 as
 * shepard_all_points_sums gives them: sum_w[q] and sum_wz[q * n_fields + f], within the guarantee above for
 * tolerance > 0 (0: every point weighed one by one). work may be NULL. Safe to call from several threads at once;
 * each call takes about 200 KB of its thread's stack. */
void shepard_far_field_sums (const shepard_far_field *far_field, const shepard_far_field_tile *tile, double tolerance,
                             size_t n_fields, double *sum_w, double *sum_wz, shepard_far_field_work *work);

/* The k smallest squared distances from each of count queries (a tile, as above: close together) to the data
 * points: d2[q * k + j], j < k <= n, the smallest first (d2[q * k]), the others in no particular order. The same values as a search of every point (dx * dx + dy * dy of the
 * local coordinates), found among the points within reach of the whole tile: a search for one query bounds every
 * other's k-th distance. false, with d2 undefined, where more points lie within that reach than one call holds
 * (SHEPARD_FAR_FIELD_NEAREST_MAX): search those queries one by one. count <= SHEPARD_FAR_FIELD_TILE_MAX,
 * k <= SHEPARD_MAX_NEIGHBORS. Safe from several threads at once; takes about 80 KB of the thread's stack. */
enum { SHEPARD_FAR_FIELD_NEAREST_MAX = 2048 };
bool shepard_far_field_nearest (const shepard_far_field *far_field, size_t count, const double *x, const double *y,
                                size_t k, double *d2);

/* The worst-case relative error of one node's sum of |r - d_i|^-alpha from its moments to total order `order`, for a
 * query at distance |r| from the node's centre with rho = radius / |r| < 1: at most [(1 - rho)^-alpha -
 * sum_{k<=order} a_k rho^k] * (1 + rho)^alpha, where a_k are the coefficients of (1 - t)^-alpha (every point at the
 * radius, in the worst direction); returned from above, INFINITY where the tail's bound diverges. It grows with rho
 * and with alpha. The sums use a sharper form of it that knows how the node's points spread. */
double shepard_far_field_truncation_bound (double rho, double alpha, int order);

#endif
