/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The far field's tree as far-field-build.c builds it, and the test that accepts a node for a tile of queries: shared by
 * the CPU's sums (far-field.c) and the GPU's (cuda/cuda-far-field.cu), so that both keep one guarantee
 * (far-field.h). */
#ifndef SHEPARD_FAR_FIELD_TREE_H
#define SHEPARD_FAR_FIELD_TREE_H

#include "aidw-formulas.h" /* SHEPARD_HOST_DEVICE */
#include "far-field-power.h"

#include <math.h>
#include <stddef.h>

/* Loops over points or queries built for the best vector unit the CPU has, picked when the program loads (host code
 * only). */
#if defined(__GNUC__) && !defined(__clang__) && !defined(__CUDACC__) && defined(__x86_64__)
#define FAR_FIELD_VECTOR_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define FAR_FIELD_VECTOR_CLONES
#endif

/* Leaves hold at most this many points: median splits leave 16 to 32 in each. */
#define FAR_FIELD_LEAF_POINTS 32
/* Moments are kept to this total order j + l: of 6 to 24, 16 took the least time in shepard-bench-far-field at
 * tolerance 1e-6 but for 5 % (20, 24), whose moments take 1.4 and 1.9 times the memory. */
#define FAR_FIELD_ORDER_MAX 16
/* Each node is summed to the lowest of FAR_FIELD_ORDER_MIN, FAR_FIELD_ORDER_MIN + FAR_FIELD_ORDER_STEP, ... FAR_FIELD_ORDER_MAX that meets its bound. */
#define FAR_FIELD_ORDER_MIN 4
#define FAR_FIELD_ORDER_STEP 2
/* Moments M_jl with j <= l and j + l <= FAR_FIELD_ORDER_MAX, by total order k = j + l, then j: those of a lower order are a
 * prefix. M_lj is the conjugate of M_jl. */
#define FAR_FIELD_TERMS_OF_ORDER(p) (((p) / 2 + 1) * ((p) / 2 + 1) + ((p) % 2 ? (p) / 2 + 1 : 0))
#define FAR_FIELD_TERMS_MAX FAR_FIELD_TERMS_OF_ORDER (FAR_FIELD_ORDER_MAX)
/* The share of the relative error allowed by the tolerance that truncation may spend; the rest covers rounding. */
#define FAR_FIELD_TRUNCATION_SHARE 0.9

typedef struct {
  double cx, cy;
  double radius; /* max |x_i - centre| over the node's points */
  size_t begin, end;
  size_t second_child; /* 0: a leaf; the first child is the next node */
} far_node;

/* How a node's points spread within its radius: spread[k] = mean of (|x_i - centre| / radius)^k, k = 0 ..
 * FAR_FIELD_ORDER_MAX + 1. The error bounds use spread[FAR_FIELD_ORDER_MAX + 1] and spread[1] rather than the worst case, every point at
 * the radius (1). */
#define FAR_FIELD_SPREADS (FAR_FIELD_ORDER_MAX + 2)

struct shepard_far_field {
  size_t n, n_fields, n_slots; /* slot 0: w = 1; slot 1 + f: w = z_f - z_min[f] */
  double *x, *y;               /* the points in tree order */
  double *z;                   /* n_fields planes of n shifted values, in tree order */
  double *z_min;
  far_node *nodes;
  size_t n_nodes;
  double *spread; /* FAR_FIELD_SPREADS per node */
  /* Node i, slot s: real parts at moments + (i * n_slots + s) * 2 * FAR_FIELD_TERMS_MAX, imaginary parts after them. Scaled
   * by the node's radius: M_jl / radius^(j+l), so that no power overflows or underflows. */
  double *moments;
};

/* a_{order+1}, the first coefficient of (1 - t)^-alpha left out at that order. */
static inline SHEPARD_HOST_DEVICE double
far_field_first_left_out (double alpha, int order)
{
  double coefficient = 1.0;
  for (int k = 0; k <= order; k++)
    coefficient *= (alpha + k) / (k + 1);
  return coefficient;
}

/* The ratio q of far_field_series_tail over rho: a_{k+1} / a_k = (alpha + k) / (k + 1) decreases towards 1 for
 * alpha >= 1 and increases towards 1 for alpha < 1, so that every ratio of terms after the first left out at that
 * order is at most rho * max((alpha + order + 1) / (order + 2), 1). */
static inline SHEPARD_HOST_DEVICE double
far_field_tail_growth (double alpha, int order)
{
  double growth = (alpha + order + 1) / (order + 2);
  return growth > 1.0 ? growth : 1.0;
}

/* sum_{k > order} a_k rho^k, a_k the coefficients of (1 - t)^-alpha, from above (first = a_{order+1}); INFINITY where
 * it diverges: at most that first term / (1 - q), q = rho far_field_tail_growth. */
static inline SHEPARD_HOST_DEVICE double
far_field_series_tail (double rho, double alpha, int order, double first)
{
  double q = rho * far_field_tail_growth (alpha, order);
  if (q >= 1.0)
    return INFINITY;
  double term = first;
  for (int k = 0; k <= order; k++)
    term *= rho;
  /* 1e-12: the roundings, generously */
  return term / (1.0 - q) * (1.0 + 1e-12);
}

/* The squared distance from (x, y) to a box, 0 inside; by comparisons, which compile to max instructions where fmax
 * is a call into libm. */
static inline SHEPARD_HOST_DEVICE double
far_field_box_distance2 (double x_min, double y_min, double x_max, double y_max, double x, double y)
{
  double dx = x_min - x > x - x_max ? x_min - x : x - x_max, dy = y_min - y > y - y_max ? y_min - y : y - y_max;
  dx = dx > 0.0 ? dx : 0.0;
  dy = dy > 0.0 ? dy : 0.0;
  return dx * dx + dy * dy;
}

/* What the acceptance test needs to know of a tile of queries: far_field_tile_bounds_init fills it; sum_low may be
 * raised (far_field_query_sum_low) as the tile's exact near sums come in. */
typedef struct {
  double half_epsilon; /* each of the two tests may spend half of the relative error */
  double alpha_min, alpha_max;
  double nearest_max; /* lambda: the largest distance from a query of the tile to its nearest point */
  /* S_low >= 1: for every query q of the tile, lambda^alpha_q times q's exact sum of weights sum_i |q - x_i|^-alpha_q
   * is at least S_low. 1 always holds: (lambda / d_q)^alpha_q >= 1, d_q the nearest distance of q. */
  double sum_low;
  double first_left_out[FAR_FIELD_ORDER_MAX + 1]; /* a_{order+1} at alpha_max */
  double tail_growth[FAR_FIELD_ORDER_MAX + 1];    /* far_field_tail_growth at alpha_max */
} far_field_tile_bounds;

/* The truncation error allowed: with e = tolerance / (1 + tolerance), a far-field sum of weights within e of the
 * exact one (relative) keeps every field's weighted mean within tolerance times its range (far-field.h). A share of
 * it is left to rounding, and each of the two tests below may spend half of the rest. */
static inline SHEPARD_HOST_DEVICE double
far_field_half_epsilon (double tolerance)
{
  return 0.5 * FAR_FIELD_TRUNCATION_SHARE * tolerance / (1.0 + tolerance);
}

static inline SHEPARD_HOST_DEVICE void
far_field_tile_bounds_init (far_field_tile_bounds *tile, double tolerance, double alpha_min, double alpha_max,
                            double nearest_max)
{
  tile->half_epsilon = far_field_half_epsilon (tolerance);
  tile->alpha_min = alpha_min;
  tile->alpha_max = alpha_max;
  tile->nearest_max = nearest_max;
  tile->sum_low = 1.0;
  for (int order = 0; order <= FAR_FIELD_ORDER_MAX; order++)
    {
      tile->first_left_out[order] = far_field_first_left_out (alpha_max, order);
      tile->tail_growth[order] = far_field_tail_growth (alpha_max, order);
    }
}

/* Raises sum_low with one query's exact partial sum of weights relative to its nearest point (points summed one by
 * one, each weight (d_q / |q - x_i|)^alpha_q, so at most its whole sum): lambda^alpha_q times its whole sum is at
 * least (lambda / d_q)^alpha_q times that partial sum. The tile's S_low is the least of its queries' bounds:
 * far_field_query_sum_low for each, the minimum, then kept if above the current sum_low. */
static inline SHEPARD_HOST_DEVICE double
far_field_query_sum_low (const far_field_tile_bounds *tile, double nearest_d2, double s, double partial_sum)
{
  /* (lambda^2 / d_q^2)^s, no more than e^600 (a lower bound still, and no overflow below); 1 - 1e-12 covers the
   * roundings of the partial sum and of the power */
  double log_scale = s * far_field_log (tile->nearest_max * tile->nearest_max / nearest_d2);
  return far_field_exp (log_scale < 600.0 ? log_scale : 600.0) * partial_sum * (1.0 - 1e-12);
}

/* log and exp for the acceptance test, one node at a time: the host's libm (within an ulp) is several times faster
 * there than far_field_log and far_field_exp, which are made for loops that vectorise; both keep far within the
 * margins of 1e-12 the bounds leave to roundings. */
static inline SHEPARD_HOST_DEVICE double
far_field_test_log (double x)
{
#ifdef __CUDA_ARCH__
  return far_field_log (x);
#else
  return log (x);
#endif
}

static inline SHEPARD_HOST_DEVICE double
far_field_test_exp (double x)
{
#ifdef __CUDA_ARCH__
  return far_field_exp (x);
#else
  return exp (x);
#endif
}

/* The logs of the two tests' factors (far_field_accept_order) for a node at rho = radius / distance: the relative
 * test's (1 + rho spread[1])^alpha_max, and the absolute test's n_points (lambda / distance)^alpha / S_low, alpha the
 * tile's alpha_min where lambda / distance <= 1 and its alpha_max above. */
static inline SHEPARD_HOST_DEVICE double
far_field_relative_log (const far_field_tile_bounds *tile, double rho, const double *spread)
{
  return tile->alpha_max * far_field_test_log (1.0 + rho * spread[1]);
}

static inline SHEPARD_HOST_DEVICE double
far_field_absolute_log (const far_field_tile_bounds *tile, double n_points, double distance)
{
  double ratio = tile->nearest_max / distance;
  return (ratio <= 1.0 ? tile->alpha_min : tile->alpha_max) * far_field_test_log (ratio)
         + far_field_test_log (n_points / tile->sum_low);
}

/* The error a node's truncation may spend, in units of its weights at the node's distance: the larger of the two
 * tests' shares (far_field_accept_order) at rho = radius / distance; 0 where no order can serve. A larger distance
 * never gives less, so that the share at a tile's distance serves any box of queries within the tile
 * (far_field_order_for_share). */
static inline SHEPARD_HOST_DEVICE double
far_field_error_share (const far_field_tile_bounds *tile, double n_points, double rho, const double *spread,
                       double distance)
{
  if (tile->half_epsilon == 0.0 || !(rho * tile->tail_growth[FAR_FIELD_ORDER_MAX] < 1.0))
    return 0.0; /* no order's tail converges (the growth decreases with the order for alpha >= 1) */
  double log_relative = far_field_relative_log (tile, rho, spread);
  double log_absolute = far_field_absolute_log (tile, n_points, distance);
  /* the relative test's log is at most 64 log 2; the absolute one's may be far below, where any order does */
  double log_factor = log_relative < log_absolute ? log_relative : log_absolute;
  return tile->half_epsilon * far_field_test_exp (log_factor > -700.0 ? -log_factor : 700.0) * (1.0 - 1e-12);
}

/* A node's truncation error at this order, per point and in units of its weights at the node's distance:
 * far_field_series_tail's bound with the node's spread[order + 1] for rho^(order + 1) (far_field_accept_order), its
 * roundings' margin included; INFINITY where the tail's bound diverges. rho_power: rho^(order + 1). */
static inline SHEPARD_HOST_DEVICE double
far_field_point_truncation (const far_field_tile_bounds *tile, double rho, double rho_power, const double *spread,
                            int order)
{
  double q = rho * tile->tail_growth[order];
  if (!(q < 1.0))
    return INFINITY;
  return tile->first_left_out[order] * rho_power * spread[order + 1] * (1.0 + 1e-12) / (1.0 - q);
}

/* The lowest order whose truncation (far_field_point_truncation) stays within share for queries no nearer than
 * radius / rho to the node's centre, or -1: distant nodes need fewer terms. share may come from
 * far_field_error_share at a smaller distance (a larger rho): it is then smaller, and the order still holds. */
static inline SHEPARD_HOST_DEVICE int
far_field_order_for_share (const far_field_tile_bounds *tile, double rho, const double *spread, double share)
{
  if (!(share > 0.0))
    return -1;
  double rho_power = rho;
  for (int k = 0; k < FAR_FIELD_ORDER_MIN; k++)
    rho_power *= rho;
  for (int order = FAR_FIELD_ORDER_MIN; order <= FAR_FIELD_ORDER_MAX; order += FAR_FIELD_ORDER_STEP)
    {
      if (far_field_point_truncation (tile, rho, rho_power, spread, order) <= share)
        return order;
      for (int k = 0; k < FAR_FIELD_ORDER_STEP; k++)
        rho_power *= rho;
    }
  return -1;
}

/* The lowest order to which a node may be summed from its moments for every query of the tile, or -1. For a
 * query at r from the centre (rho_q = radius / |r| <= rho = radius / distance to the tile's box) with nearest distance
 * d, the truncation errors of the node's points' weights at order P, added in absolute value (its part of E,
 * far-field.h), are at most (d / |r|)^alpha tail_P(rho_q) n_node
 * spread[P + 1] (every term of order k of the expansion of |r - d_i|^-alpha is at most a_k (|d_i| / |r|)^k, and
 * (|d_i| / radius)^k <= (|d_i| / radius)^(P + 1) beyond P), while that sum is at least (d / |r|)^alpha n_node
 * (1 + rho_q spread[1])^-alpha (Jensen: (1 + rho_q x)^-alpha is convex). Both grow with rho_q and alpha: the tile's
 * worst serve. Either test holds the error to half of epsilon: relative, the node's error within epsilon / 2 of its
 * own part of the sum of weights; or absolute, within its share n_node / n of epsilon / 2 times the query's whole
 * sum S_q. For the absolute test, in units of d^-alpha: S_q d^alpha >= S_low (d / lambda)^alpha (sum_low above), so
 * it suffices that tail_P spread[P + 1] <= epsilon / 2 S_low (|r| / lambda)^alpha / n, and |r| / lambda is at least
 * distance / lambda, raised to the tile's alpha_min where that is >= 1 and to its alpha_max below. The same bounds
 * serve any box of queries within the tile (the sub-tiles of far-field.c): its alpha range and nearest distances lie
 * within the tile's, and only its distance changes. */
static inline SHEPARD_HOST_DEVICE int
far_field_accept_order (const far_field_tile_bounds *tile, double n_points, double radius, const double *spread,
                        double distance2)
{
  if (!(distance2 > 0.0))
    return -1;
  if (radius == 0.0)
    return 0; /* all the points at the centre: the first moment is exact */
  double distance = sqrt (distance2), rho = radius / distance;
  return far_field_order_for_share (tile, rho, spread, far_field_error_share (tile, n_points, rho, spread, distance));
}

#endif
