/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The far-field summation (compute/far-field.h) against a float64 brute force written here: every query's weighted
 * mean within tolerance * (the field's value range), its sum of weights within the relative bound, on the layouts
 * that break trees (duplicates, one spot, a line, a far outlier, UTM offsets) and powers from 0.5 to 6. */
#include <complex.h>
#include <float.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "far-field.h"
#include "far-field-power.h"
#include "point-layouts.h"
#include "seeded-random.h"

/* Rounding on top of the guarantee: the local values lie in [-1, 1] and the sums are of positive terms, so the
 * float64 sums (far field and reference alike) are good to far below this. */
#define ROUNDING_SLACK 1e-13

static const double tolerances[] = { 1e-3, 1e-6, 1e-9, 1e-11 };
/* alpha: 0.5, 3.7 and the whole IDW powers 1 to 6 (the weighting's fast path) */
static const double all_alphas[] = { 0.5, 1.0, 2.0, 3.0, 3.7, 4.0, 5.0, 6.0 };
static const double large_n_alphas[] = { 1.0, 2.0, 3.7, 6.0 };

typedef enum {
  LAYOUT_LINE = 100,    /* on one slanted line */
  LAYOUT_ONE_SPOT,      /* all at one position, different values */
  LAYOUT_FAR_OUTLIER,   /* uniform, and one point ten thousand extents away */
} extra_layout;

static const char *
layout_name (int layout)
{
  switch (layout)
    {
    case LAYOUT_LINE:
      return "line";
    case LAYOUT_ONE_SPOT:
      return "one-spot";
    case LAYOUT_FAR_OUTLIER:
      return "far-outlier";
    default:
      return point_layout_name ((point_layout) layout);
    }
}

static point_set *
make_points (int layout, size_t count, uint64_t seed)
{
  if (layout < LAYOUT_LINE)
    return point_set_new ((point_layout) layout, count, seed);
  seeded_random random;
  seeded_random_init (&random, seed);
  point_set *points = point_set_new_empty (count);
  for (size_t i = 0; i < count; i++)
    {
      double t = seeded_random_range (&random, 0.0, 1000.0);
      switch (layout)
        {
        case LAYOUT_LINE:
          points->x[i] = t;
          points->y[i] = 0.5 * t + 20.0;
          break;
        case LAYOUT_ONE_SPOT:
          points->x[i] = 123.456;
          points->y[i] = 654.321;
          break;
        default:
          points->x[i] = i + 1 == count && count > 1 ? 1e7 : t;
          points->y[i] = i + 1 == count && count > 1 ? -3e6 : seeded_random_range (&random, 0.0, 700.0);
          break;
        }
      points->z[i] = 50.0 + 30.0 * sin (0.005 * t) + 10.0 * seeded_random_uniform (&random);
    }
  return points;
}

typedef struct {
  shepard_point_set set;
  shepard_far_field *far_field;
  double range[3];
  double x_min, y_min, extent; /* of the points, local frame */
  double coincident_d2;
} fixture;

static void
fixture_init (fixture *fx, const point_set *points, size_t n_fields)
{
  /* fields 1 and 2: a mirrored copy, and a constant (range 0: the mean must be exact) */
  double *mirrored = g_new (double, points->count), *constant = g_new (double, points->count);
  for (size_t i = 0; i < points->count; i++)
    {
      mirrored[i] = -3.0 * points->z[i] + 7.0;
      constant[i] = 42.0;
    }
  const double *fields[3] = { points->z, mirrored, constant };
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_point_set_init (&fx->set, points->x, points->y, fields, n_fields, points->count, &error),
                   ==, SHEPARD_OK);
  g_free (mirrored);
  g_free (constant);
  g_assert_cmpint (shepard_far_field_new (&fx->set, 2, NULL, NULL, &fx->far_field, &error), ==, SHEPARD_OK);
  for (size_t f = 0; f < n_fields; f++)
    {
      const double *z = fx->set.z + f * fx->set.n_padded;
      double low = z[0], high = z[0];
      for (size_t i = 0; i < fx->set.n; i++)
        {
          low = fmin (low, z[i]);
          high = fmax (high, z[i]);
        }
      fx->range[f] = high - low;
    }
  double x_max = fx->set.x[0], y_max = fx->set.y[0];
  fx->x_min = fx->set.x[0];
  fx->y_min = fx->set.y[0];
  for (size_t i = 0; i < fx->set.n; i++)
    {
      fx->x_min = fmin (fx->x_min, fx->set.x[i]);
      fx->y_min = fmin (fx->y_min, fx->set.y[i]);
      x_max = fmax (x_max, fx->set.x[i]);
      y_max = fmax (y_max, fx->set.y[i]);
    }
  fx->extent = fmax (x_max - fx->x_min, y_max - fx->y_min);
  if (fx->extent == 0.0)
    fx->extent = 1.0;
  fx->coincident_d2 = shepard_point_set_coincident_d2_local (&fx->set);
}

static void
fixture_clear (fixture *fx)
{
  shepard_far_field_free (fx->far_field);
  shepard_point_set_clear (&fx->set);
}

static double
nearest_d2 (const fixture *fx, double qx, double qy)
{
  double best = INFINITY;
  for (size_t i = 0; i < fx->set.n; i++)
    {
      double dx = fx->set.x[i] - qx, dy = fx->set.y[i] - qy;
      best = fmin (best, dx * dx + dy * dy);
    }
  return best;
}

/* The brute force: weights relative to the nearest point, summed in long double. */
static void
brute_force (const fixture *fx, double qx, double qy, double nearest, double alpha, size_t n_fields, double *sum_w,
             double *mean)
{
  long double s0 = 0.0L, s1[3] = { 0.0L };
  for (size_t i = 0; i < fx->set.n; i++)
    {
      double dx = fx->set.x[i] - qx, dy = fx->set.y[i] - qy;
      double w = pow (nearest / (dx * dx + dy * dy), 0.5 * alpha);
      s0 += w;
      for (size_t f = 0; f < n_fields; f++)
        s1[f] += w * (long double) fx->set.z[f * fx->set.n_padded + i];
    }
  *sum_w = (double) s0;
  for (size_t f = 0; f < n_fields; f++)
    mean[f] = (double) (s1[f] / s0);
}

typedef struct {
  double worst_ratio; /* largest error / (tolerance * range) seen */
  shepard_far_field_work work;
  size_t checked;
} check_stats;

/* Checks one tile of queries (local frame) with power alpha[q] each at every tolerance; coincident queries are
 * left out (the caller's rule). */
static void
check_tile (const fixture *fx, const double *query_x, const double *query_y, const double *alpha, size_t count,
            size_t n_fields, const double *tile_tolerances, size_t n_tolerances, check_stats *stats)
{
  double x[SHEPARD_FAR_FIELD_TILE_MAX], y[SHEPARD_FAR_FIELD_TILE_MAX], d2[SHEPARD_FAR_FIELD_TILE_MAX],
      exponent[SHEPARD_FAR_FIELD_TILE_MAX], exact_w[SHEPARD_FAR_FIELD_TILE_MAX],
      exact_mean[SHEPARD_FAR_FIELD_TILE_MAX][3];
  size_t kept = 0;
  for (size_t q = 0; q < count; q++)
    {
      double nearest = nearest_d2 (fx, query_x[q], query_y[q]);
      if (nearest <= fx->coincident_d2)
        continue;
      x[kept] = query_x[q];
      y[kept] = query_y[q];
      d2[kept] = nearest;
      exponent[kept] = -0.5 * alpha[q];
      brute_force (fx, x[kept], y[kept], nearest, alpha[q], n_fields, &exact_w[kept], exact_mean[kept]);
      kept++;
    }
  if (kept == 0)
    return;
  shepard_far_field_tile tile = { kept, x, y, d2, exponent };
  for (size_t t = 0; t < n_tolerances; t++)
    {
      double tolerance = tile_tolerances[t], sum_w[SHEPARD_FAR_FIELD_TILE_MAX];
      double sum_wz[SHEPARD_FAR_FIELD_TILE_MAX * 3];
      shepard_far_field_sums (fx->far_field, &tile, tolerance, n_fields, sum_w, sum_wz, &stats->work);
      for (size_t q = 0; q < kept; q++)
        {
          g_assert_true (isfinite (sum_w[q]));
          double w_error = fabs (sum_w[q] - exact_w[q]) / exact_w[q];
          if (w_error > tolerance / (1.0 + tolerance) + ROUNDING_SLACK)
            g_error ("sum of weights off by a relative %g at tolerance %g, alpha %g, query (%.17g, %.17g)", w_error,
                     tolerance, -2.0 * exponent[q], x[q], y[q]);
          for (size_t f = 0; f < n_fields; f++)
            {
              double mean = sum_wz[q * n_fields + f] / sum_w[q];
              g_assert_true (isfinite (mean));
              double error = fabs (mean - exact_mean[q][f]), allowed = tolerance * fx->range[f];
              if (error > allowed + ROUNDING_SLACK)
                g_error ("field %zu off by %g (allowed %g) at tolerance %g, alpha %g, query (%.17g, %.17g)", f,
                         error, allowed, tolerance, -2.0 * exponent[q], x[q], y[q]);
              if (allowed > 0.0)
                stats->worst_ratio = fmax (stats->worst_ratio, error / allowed);
            }
          stats->checked++;
        }
    }
}

/* Tiles of queries: an 8 x 8 block of a 128-cell-wide raster, 16 scattered over the points' box and beyond, 8 next
 * to data points (3e-7 and 1e-5 of the extent away: just outside the coincident tolerance, 1e-7, and inside their
 * leaf) and 5 far away, one at 1e100 extents. */
static size_t
make_tiles (const fixture *fx, seeded_random *random, bool few, double tiles_x[4][64], double tiles_y[4][64],
            size_t tile_count[4])
{
  double step = fx->extent / 128.0;
  /* around a data point, so that the tile lies among the points */
  size_t anchor = seeded_random_below (random, (uint32_t) fx->set.n);
  double x0 = fx->set.x[anchor] - 3.5 * step, y0 = fx->set.y[anchor] - 3.5 * step;
  tile_count[0] = 64;
  for (size_t q = 0; q < 64; q++)
    {
      tiles_x[0][q] = x0 + (double) (q % 8) * step;
      tiles_y[0][q] = y0 + (double) (q / 8) * step;
    }
  tile_count[1] = 8;
  for (size_t q = 0; q < 8; q++)
    {
      size_t i = seeded_random_below (random, (uint32_t) fx->set.n);
      double angle = 2.0 * G_PI * seeded_random_uniform (random);
      double offset = (q < 4 ? 3e-7 : 1e-5) * fx->extent;
      tiles_x[1][q] = fx->set.x[i] + offset * cos (angle);
      tiles_y[1][q] = fx->set.y[i] + offset * sin (angle);
    }
  if (few)
    return 2;
  tile_count[2] = 16;
  for (size_t q = 0; q < 16; q++)
    {
      tiles_x[2][q] = fx->x_min + seeded_random_range (random, -0.1, 1.1) * fx->extent;
      tiles_y[2][q] = fx->y_min + seeded_random_range (random, -0.1, 1.1) * fx->extent;
    }
  tile_count[3] = 5;
  for (size_t q = 0; q < 4; q++)
    {
      tiles_x[3][q] = fx->x_min + (10.0 + q) * fx->extent;
      tiles_y[3][q] = fx->y_min - 7.0 * fx->extent;
    }
  tiles_x[3][4] = tiles_y[3][4] = 1e100 * fx->extent;
  return 4;
}

typedef struct {
  int layout;
  size_t count;
} layout_case;

static void
test_layout (gconstpointer data)
{
  const layout_case *test_case = data;
  bool large = test_case->count > 10000;
  point_set *points = make_points (test_case->layout, test_case->count, 1000 + test_case->count);
  fixture fx;
  fixture_init (&fx, points, 3);
  seeded_random random;
  seeded_random_init (&random, 77 + test_case->count);
  double tiles_x[4][64], tiles_y[4][64], alpha[64];
  size_t tile_count[4];
  size_t n_tiles = make_tiles (&fx, &random, large, tiles_x, tiles_y, tile_count);
  const double *alphas = large ? large_n_alphas : all_alphas;
  size_t n_alphas = large ? G_N_ELEMENTS (large_n_alphas) : G_N_ELEMENTS (all_alphas);
  check_stats stats = { 0 };
  for (size_t a = 0; a < n_alphas; a++)
    for (size_t t = 0; t < n_tiles; t++)
      {
        for (size_t q = 0; q < tile_count[t]; q++)
          alpha[q] = alphas[a];
        check_tile (&fx, tiles_x[t], tiles_y[t], alpha, tile_count[t], 3, tolerances, G_N_ELEMENTS (tolerances),
                    &stats);
      }
  /* AIDW: the power changes from query to query within a tile */
  for (size_t q = 0; q < tile_count[0]; q++)
    alpha[q] = 1.0 + 4.0 * seeded_random_uniform (&random);
  check_tile (&fx, tiles_x[0], tiles_y[0], alpha, tile_count[0], 3, tolerances, G_N_ELEMENTS (tolerances), &stats);
  /* The tile bound S_low at its weakest and at its largest: queries by data points (tiny nearest distances) beside
   * the block's (large ones), powers 0.5, 6 and 64 side by side. */
  double mixed_x[64], mixed_y[64];
  for (size_t q = 0; q < 64; q++)
    {
      mixed_x[q] = q < tile_count[1] ? tiles_x[1][q] : tiles_x[0][q];
      mixed_y[q] = q < tile_count[1] ? tiles_y[1][q] : tiles_y[0][q];
      alpha[q] = q % 3 == 0 ? 64.0 : q % 3 == 1 ? 0.5 : 6.0;
    }
  check_tile (&fx, mixed_x, mixed_y, alpha, 64, 3, tolerances, G_N_ELEMENTS (tolerances), &stats);
  g_assert_cmpuint (stats.checked, >, 0);
  g_test_message ("%s, %zu points: %zu checks, worst error %.3g of the allowed, %.1f far terms and %.1f direct "
                  "pairs per query",
                  layout_name (test_case->layout), test_case->count, stats.checked, stats.worst_ratio,
                  (double) stats.work.far_terms / (double) stats.checked,
                  (double) stats.work.direct_pairs / (double) stats.checked);
  fixture_clear (&fx);
  point_set_free (points);
}

/* The bound against the series itself: one point at r - d with |d| = rho |r|, every angle, the truncated expansion
 * sum_{j+l<=P} c_j c_l (d/r)^j conj(d/r)^l beside |1 - d/r|^-alpha. */
static void
test_bound (void)
{
  const int order = 12;
  for (size_t a = 0; a < G_N_ELEMENTS (all_alphas); a++)
    for (double rho = 0.05; rho < 0.8; rho += 0.05)
      {
        double alpha = all_alphas[a], s = 0.5 * alpha, c[32];
        c[0] = 1.0;
        for (int j = 0; j < order; j++)
          c[j + 1] = c[j] * (s + j) / (j + 1);
        double bound = shepard_far_field_truncation_bound (rho, alpha, order), worst = 0.0;
        for (int step = 0; step < 360; step++)
          {
            double complex t = rho * cexp (I * G_PI * step / 180.0);
            double complex series = 0.0;
            for (int j = 0; j <= order; j++)
              for (int l = 0; j + l <= order; l++)
                series += c[j] * c[l] * cpow (t, j) * cpow (conj (t), l);
            double exact = pow (cabs (1.0 - t), -alpha);
            worst = fmax (worst, fabs (creal (series) - exact) / exact);
          }
        g_assert_cmpfloat (worst, <=, bound + 1e-13); /* the series summed here rounds too */
        /* it grows with alpha and rho: a tile's largest alpha serves all its queries */
        g_assert_cmpfloat (bound, <=, shepard_far_field_truncation_bound (rho, alpha + 0.5, order));
        g_assert_cmpfloat (bound, <=, shepard_far_field_truncation_bound (rho + 0.01, alpha, order));
      }
  g_assert_cmpfloat (shepard_far_field_truncation_bound (0.0, 3.0, 12), ==, 0.0);
  g_assert_cmpfloat (shepard_far_field_truncation_bound (0.3, 0.0, 12), ==, 0.0);
  g_assert_true (isinf (shepard_far_field_truncation_bound (1.0, 3.0, 12)));
}

/* The weights' power against libm's over the range the sums meet: ratios from 1e-60 to 4, powers up to 32. */
static void
test_power (void)
{
  seeded_random random;
  seeded_random_init (&random, 3);
  for (int i = 0; i < 200000; i++)
    {
      double x = exp (seeded_random_range (&random, -138.0, 1.4)), s = seeded_random_range (&random, 0.0, 32.0);
      double expected = pow (x, s), got = far_field_power (x, s);
      /* exp (s log x) loses about |s log x| ulps; weights below 1e-200 add nothing to sums of at least 1 */
      if (expected > 1e-200)
        g_assert_cmpfloat (fabs (got - expected), <=, (4.0 + fabs (s * log (x))) * DBL_EPSILON * expected);
      else
        g_assert_cmpfloat (got, <=, 1e-199);
    }
  g_assert_cmpfloat (far_field_power (1.0, 3.7), ==, 1.0);
  g_assert_cmpfloat (far_field_power (0.25, 0.5), ==, 0.5);
  g_assert_cmpfloat (far_field_power (1e-300, 30.0), ==, 0.0);
}

/* The same tiles at 1e-3 and 1e-7: less work for the looser tolerance, each within its own promise. */
static void
test_work_follows_tolerance (void)
{
  point_set *points = make_points (POINT_LAYOUT_UNIFORM, 100003, 5);
  fixture fx;
  fixture_init (&fx, points, 1);
  seeded_random random;
  seeded_random_init (&random, 6);
  check_stats loose = { 0 }, tight = { 0 };
  static const double loose_tolerance[] = { 1e-3 }, tight_tolerance[] = { 1e-7 };
  for (int tile = 0; tile < 3; tile++)
    {
      double tiles_x[4][64], tiles_y[4][64], alpha[64];
      size_t tile_count[4];
      make_tiles (&fx, &random, true, tiles_x, tiles_y, tile_count);
      for (size_t q = 0; q < 64; q++)
        alpha[q] = 1.0 + 0.0625 * q;
      check_tile (&fx, tiles_x[0], tiles_y[0], alpha, 64, 1, loose_tolerance, 1, &loose);
      check_tile (&fx, tiles_x[0], tiles_y[0], alpha, 64, 1, tight_tolerance, 1, &tight);
    }
  g_test_message ("1e-3: %" G_GUINT64_FORMAT " far terms (%" G_GUINT64_FORMAT " moments), %" G_GUINT64_FORMAT
                  " direct pairs; 1e-7: %" G_GUINT64_FORMAT " far terms (%" G_GUINT64_FORMAT " moments), %"
                  G_GUINT64_FORMAT " direct pairs",
                  loose.work.far_terms, loose.work.moment_terms, loose.work.direct_pairs, tight.work.far_terms,
                  tight.work.moment_terms, tight.work.direct_pairs);
  g_assert_cmpuint (loose.work.direct_pairs, <=, tight.work.direct_pairs);
  /* a tighter tolerance sums the far nodes to higher orders; each (query, node) pair takes one moment at least */
  g_assert_cmpuint (loose.work.moment_terms, <, tight.work.moment_terms);
  g_assert_cmpuint (tight.work.far_terms, <=, tight.work.moment_terms);
  g_assert_cmpuint (loose.work.far_terms + loose.work.direct_pairs, <,
                    tight.work.far_terms + tight.work.direct_pairs);
  /* and far less than the brute force's pairs */
  g_assert_cmpuint (tight.work.far_terms + tight.work.direct_pairs, <, tight.checked * 100003 / 10);
  fixture_clear (&fx);
  point_set_free (points);
}

/* shepard_far_field_nearest against every point: the same k smallest squared distances, the smallest first, for the tiles
 * of make_tiles; a tile among many close points (or spread over the whole extent) may hold too many candidates
 * (false: the caller searches one by one). */
static void
test_nearest (gconstpointer data)
{
  const layout_case *test_case = data;
  point_set *points = make_points (test_case->layout, test_case->count, 2000 + test_case->count);
  fixture fx;
  fixture_init (&fx, points, 1);
  seeded_random random;
  seeded_random_init (&random, 99 + test_case->count);
  double tiles_x[4][64], tiles_y[4][64];
  size_t tile_count[4], answered = 0;
  size_t n_tiles = make_tiles (&fx, &random, false, tiles_x, tiles_y, tile_count);
  static const size_t ks[] = { 1, 15, 64 };
  double *found = g_new (double, 64 * 64), *all = g_new (double, fx.set.n);
  for (size_t c = 0; c < G_N_ELEMENTS (ks); c++)
    for (size_t t = 0; t < n_tiles; t++)
      {
        size_t k = ks[c] < fx.set.n ? ks[c] : fx.set.n, count = tile_count[t];
        if (!shepard_far_field_nearest (fx.far_field, count, tiles_x[t], tiles_y[t], k, found))
          continue;
        answered++;
        for (size_t q = 0; q < count; q++)
          {
            for (size_t i = 0; i < fx.set.n; i++)
              {
                double dx = fx.set.x[i] - tiles_x[t][q], dy = fx.set.y[i] - tiles_y[t][q];
                all[i] = dx * dx + dy * dy;
              }
            /* the k smallest by selection, ascending, beside the found ones sorted */
            double *mine = found + q * k;
            for (size_t j = 1; j < k; j++)
              g_assert_cmpfloat (mine[0], <=, mine[j]);
            for (size_t j = 0; j < k; j++)
              {
                size_t smallest = j, mine_smallest = j;
                for (size_t i = j + 1; i < fx.set.n; i++)
                  if (all[i] < all[smallest])
                    smallest = i;
                for (size_t i = j + 1; i < k; i++)
                  if (mine[i] < mine[mine_smallest])
                    mine_smallest = i;
                double swap = all[j];
                all[j] = all[smallest];
                all[smallest] = swap;
                swap = mine[j];
                mine[j] = mine[mine_smallest];
                mine[mine_smallest] = swap;
                g_assert_cmpfloat (mine[j], ==, all[j]);
              }
          }
      }
  /* with no more points than one search holds, every tile is answered (none may be refused for the count); with
   * many, at least the block among uniform points */
  if (fx.set.n <= SHEPARD_FAR_FIELD_NEAREST_MAX)
    g_assert_cmpuint (answered, ==, G_N_ELEMENTS (ks) * n_tiles);
  else if (test_case->layout == POINT_LAYOUT_UNIFORM)
    g_assert_cmpuint (answered, >, 0);
  g_free (found);
  g_free (all);
  fixture_clear (&fx);
  point_set_free (points);
}

/* Dense points under a coarse tile (about 24 points a cell, 8 x 8 cells): leaves near the tile's box are tested again
 * for its sub-tiles, taken from their moments by the far ones and point by point by the near ones. IDW (p = 2, the
 * whole power path) and AIDW (the power changing within the tile), every tolerance; some queries right beside data
 * points (just outside the coincident tolerance), where the result must follow that point's value. */
static void
test_subtiles (void)
{
  point_set *points = make_points (POINT_LAYOUT_UNIFORM, 100003, 12);
  fixture fx;
  fixture_init (&fx, points, 3);
  seeded_random random;
  seeded_random_init (&random, 13);
  double step = fx.extent / 64.0, x0 = fx.x_min + 20.5 * step, y0 = fx.y_min + 30.5 * step;
  double x[64], y[64], idw[64], aidw[64];
  for (size_t q = 0; q < 64; q++)
    {
      x[q] = x0 + (double) (q % 8) * step;
      y[q] = y0 + (double) (q / 8) * step;
      idw[q] = 2.0;
      aidw[q] = 1.5 + 2.0 * seeded_random_uniform (&random);
    }
  /* two queries beside data points of the tile's box */
  size_t beside = 0;
  for (size_t i = 0; i < fx.set.n && beside < 2; i++)
    if (fx.set.x[i] > x0 + 2.0 * step && fx.set.x[i] < x0 + 2.5 * step && fx.set.y[i] > y0 + (3.0 + beside) * step
        && fx.set.y[i] < y0 + (3.5 + beside) * step)
      {
        x[9 + 40 * beside] = fx.set.x[i] + 3e-7 * fx.extent;
        y[9 + 40 * beside] = fx.set.y[i];
        beside++;
      }
  g_assert_cmpuint (beside, ==, 2);
  size_t in_box = 0;
  for (size_t i = 0; i < fx.set.n; i++)
    in_box += fx.set.x[i] >= x0 && fx.set.x[i] <= x0 + 7.0 * step && fx.set.y[i] >= y0 && fx.set.y[i] <= y0 + 7.0 * step;
  static const double subtile_tolerances[] = { 1e-3, 1e-6, 1e-9 };
  const double *alphas[] = { idw, aidw };
  for (size_t a = 0; a < G_N_ELEMENTS (alphas); a++)
    {
      check_stats stats = { 0 };
      check_tile (&fx, x, y, alphas[a], 64, 3, subtile_tolerances, G_N_ELEMENTS (subtile_tolerances), &stats);
      g_assert_cmpuint (stats.checked, ==, 64 * G_N_ELEMENTS (subtile_tolerances));
      double direct = (double) stats.work.direct_pairs / (double) stats.checked;
      g_test_message ("%s: worst error %.3g of the allowed, %.1f far terms and %.1f direct pairs per query, %zu "
                      "points in the tile's box",
                      a == 0 ? "IDW" : "AIDW", stats.worst_ratio, (double) stats.work.far_terms / stats.checked,
                      direct, in_box);
      /* a walk for the whole tile would weigh one by one at least the points inside its box, for every query */
      g_assert_cmpfloat (direct, <, (double) in_box);
    }
  fixture_clear (&fx);
  point_set_free (points);
}

/* 1,000,003 points, a few queries. */
static void
test_million (void)
{
  point_set *points = make_points (POINT_LAYOUT_CLUSTERS, 1000003, 9);
  fixture fx;
  fixture_init (&fx, points, 1);
  seeded_random random;
  seeded_random_init (&random, 10);
  double x[8], y[8], alpha[8];
  size_t anchor = seeded_random_below (&random, (uint32_t) fx.set.n);
  for (size_t q = 0; q < 8; q++)
    {
      x[q] = fx.set.x[anchor] + (double) (q % 4) * fx.extent / 1024.0;
      y[q] = fx.set.y[anchor] + (double) (q / 4) * fx.extent / 1024.0;
      alpha[q] = q < 4 ? 2.0 : 3.7;
    }
  check_stats stats = { 0 };
  static const double tolerance[] = { 1e-6 };
  check_tile (&fx, x, y, alpha, 8, 1, tolerance, 1, &stats);
  g_assert_cmpuint (stats.checked, >=, 4); /* the others sit on clustered data points */
  g_test_message ("worst error %.3g of the allowed, %.1f far terms and %.1f direct pairs per query",
                  stats.worst_ratio, (double) stats.work.far_terms / 8.0, (double) stats.work.direct_pairs / 8.0);
  fixture_clear (&fx);
  point_set_free (points);
}

/* The tree is built by several threads (the top levels here, the subtrees below on workers): it must be the tree one
 * thread builds, to the bit, whatever the number of threads. */
static void
test_threads_build_the_same_tree (void)
{
  point_set *points = point_set_new (POINT_LAYOUT_DUPLICATES, 50003, 1717);
  const double *fields[1] = { points->z };
  shepard_point_set set;
  shepard_error error = { 0 };
  g_assert_cmpint (shepard_point_set_init (&set, points->x, points->y, fields, 1, points->count, &error), ==,
                   SHEPARD_OK);
  enum { QUERIES = 64, TILES = 16 };
  double reference_w[TILES][QUERIES], reference_wz[TILES][QUERIES];
  const int thread_counts[] = { 1, 2, 3, 7, 64 };
  for (size_t c = 0; c < G_N_ELEMENTS (thread_counts); c++)
    {
      shepard_far_field *far_field = NULL;
      g_assert_cmpint (shepard_far_field_new (&set, thread_counts[c], NULL, NULL, &far_field, &error), ==, SHEPARD_OK);
      for (int t = 0; t < TILES; t++)
        {
          double x[QUERIES], y[QUERIES], nearest_d2[QUERIES], exponent[QUERIES], sum_w[QUERIES], sum_wz[QUERIES];
          for (int q = 0; q < QUERIES; q++)
            {
              x[q] = -0.45 + 0.06 * t + 0.004 * (q % 8);
              y[q] = -0.3 + 0.04 * t + 0.004 * (q / 8);
              nearest_d2[q] = 1e-6;
              exponent[q] = -1.0 - 0.05 * q;
            }
          shepard_far_field_tile tile = { QUERIES, x, y, nearest_d2, exponent };
          shepard_far_field_sums (far_field, &tile, 1e-6, 1, sum_w, sum_wz, NULL);
          if (c == 0)
            {
              memcpy (reference_w[t], sum_w, sizeof sum_w);
              memcpy (reference_wz[t], sum_wz, sizeof sum_wz);
            }
          else
            {
              g_assert_cmpmem (sum_w, sizeof sum_w, reference_w[t], sizeof sum_w);
              g_assert_cmpmem (sum_wz, sizeof sum_wz, reference_wz[t], sizeof sum_wz);
            }
        }
      shepard_far_field_free (far_field);
    }
  shepard_point_set_clear (&set);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compute/far-field/bound", test_bound);
  g_test_add_func ("/compute/far-field/power", test_power);
  static const int layouts[] = {
    POINT_LAYOUT_UNIFORM, POINT_LAYOUT_CLUSTERS, POINT_LAYOUT_DUPLICATES, POINT_LAYOUT_UTM,
    POINT_LAYOUT_CLUSTER_OUTLIERS, LAYOUT_LINE, LAYOUT_ONE_SPOT, LAYOUT_FAR_OUTLIER,
  };
  static const size_t counts[] = { 1, 2, 17, 1000, 100003 };
  for (size_t l = 0; l < G_N_ELEMENTS (layouts); l++)
    for (size_t c = 0; c < G_N_ELEMENTS (counts); c++)
      {
        /* 100003 points: the layouts whose trees differ most */
        if (counts[c] > 10000 && layouts[l] != POINT_LAYOUT_CLUSTERS && layouts[l] != POINT_LAYOUT_UTM
            && layouts[l] != LAYOUT_FAR_OUTLIER && layouts[l] != POINT_LAYOUT_DUPLICATES)
          continue;
        layout_case *test_case = g_new (layout_case, 1);
        *test_case = (layout_case) { layouts[l], counts[c] };
        g_autofree char *path = g_strdup_printf ("/compute/far-field/%s/%zu", layout_name (layouts[l]), counts[c]);
        g_test_add_data_func_full (path, test_case, test_layout, g_free);
      }
  static const int nearest_layouts[] = {
    POINT_LAYOUT_UNIFORM, POINT_LAYOUT_CLUSTERS, POINT_LAYOUT_DUPLICATES, LAYOUT_LINE, LAYOUT_ONE_SPOT,
    LAYOUT_FAR_OUTLIER,
  };
  static const size_t nearest_counts[] = { 1, 17, 1000, 20011 };
  for (size_t l = 0; l < G_N_ELEMENTS (nearest_layouts); l++)
    for (size_t c = 0; c < G_N_ELEMENTS (nearest_counts); c++)
      {
        layout_case *test_case = g_new (layout_case, 1);
        *test_case = (layout_case) { nearest_layouts[l], nearest_counts[c] };
        g_autofree char *path = g_strdup_printf ("/compute/far-field/nearest/%s/%zu", layout_name (nearest_layouts[l]),
                                                 nearest_counts[c]);
        g_test_add_data_func_full (path, test_case, test_nearest, g_free);
      }
  g_test_add_func ("/compute/far-field/work-follows-tolerance", test_work_follows_tolerance);
  g_test_add_func ("/compute/far-field/million", test_million);
  g_test_add_func ("/compute/far-field/subtiles", test_subtiles);
  g_test_add_func ("/compute/far-field/threads-build-the-same-tree", test_threads_build_the_same_tree);
  return g_test_run ();
}
