/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The AIDW building blocks against values worked out by hand from docs/METHOD.md (steps 1, 4 and 5). */
#include <glib.h>
#include <math.h>

#include "seeded-random.h"
#include "shepard-engine.h"

/* Each formula is a handful of floating-point operations and one cosine (correctly rounded to within an ulp or so),
 * and every expected value below is exact or written to 17 digits: a few ulps is all the room they need. */
#define FORMULA_TOLERANCE 1e-14

static void
test_expected_distance (void)
{
  static const struct {
    size_t n_points;
    double area;
    double r_exp; /* 1 / (2 sqrt (n / A)) by hand */
  } cases[] = {
    { 1, 1.0, 0.5 },            /* sqrt (1) = 1 */
    { 4, 1.0, 0.25 },           /* sqrt (4) = 2 */
    { 100, 400.0, 1.0 },        /* sqrt (1/4) = 1/2 */
    { 10, 1000.0, 5.0 },        /* sqrt (1/100) = 1/10 */
    { 2, 8.0, 1.0 },            /* sqrt (1/4) = 1/2 */
    { 155, 155e6, 500.0 },      /* sqrt (1e-6) = 1e-3 */
    { 1000000, 1.0, 0.0005 },   /* sqrt (1e6) = 1000 */
    { 3, 1.0, 0.28867513459481287 }, /* 1 / (2 sqrt 3) = sqrt (3) / 6 */
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double r_exp = shepard_aidw_expected_distance (cases[i].n_points, cases[i].area);
      g_test_message ("n %zu, A %g: r_exp %.17g, expected %.17g", cases[i].n_points, cases[i].area, r_exp,
                      cases[i].r_exp);
      g_assert_cmpfloat_with_epsilon (r_exp, cases[i].r_exp, FORMULA_TOLERANCE * cases[i].r_exp);
    }
}

/* rexp=knn: (1/k) sum Gamma (j + 1/2) / (Gamma (j) sqrt (pi n / A)), with Gamma (1.5) = sqrt (pi) / 2, Gamma (2.5) =
 * 3 sqrt (pi) / 4 and Gamma (3.5) = 15 sqrt (pi) / 8, so the terms are sqrt (A / n) times 1/2, 3/4 and 15/16. */
static void
test_expected_knn_distance (void)
{
  static const struct {
    size_t n_points;
    double area;
    int k;
    double r_exp;
  } cases[] = {
    { 4, 1.0, 1, 0.25 },                 /* k = 1 is the papers' r_exp */
    { 155, 155e6, 1, 500.0 },
    { 4, 1.0, 2, 0.3125 },               /* (1/2 + 3/4) / 2 * sqrt (1/4) */
    { 4, 1.0, 3, 35.0 / 96.0 },          /* (1/2 + 3/4 + 15/16) / 3 * sqrt (1/4) */
    { 100, 400.0, 3, 35.0 / 48.0 * 2.0 }, /* sqrt (400 / 100) = 2 */
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double r_exp = shepard_aidw_expected_knn_distance (cases[i].n_points, cases[i].area, cases[i].k);
      g_test_message ("n %zu, A %g, k %d: r_exp %.17g, expected %.17g", cases[i].n_points, cases[i].area, cases[i].k,
                      r_exp, cases[i].r_exp);
      g_assert_cmpfloat_with_epsilon (r_exp, cases[i].r_exp, FORMULA_TOLERANCE * cases[i].r_exp);
    }
  /* The figure: at k = 15 the mean distance to the 15 nearest is 2.99 times the papers' r_exp. */
  double ratio = shepard_aidw_expected_knn_distance (1000, 1.0, 15) / shepard_aidw_expected_distance (1000, 1.0);
  g_assert_cmpfloat_with_epsilon (ratio, 2.9855985939502734, 1e-12);
}

/* And against complete spatial randomness itself: 40 000 uniform points in the unit square, the mean distance to the
 * 15 nearest of 2 000 queries away from the edges (where fewer neighbours would lengthen it). The standard error of
 * that mean is about 0.3 %; 2 % is a wide margin that the papers' r_exp (a third of it) misses by far. */
static void
test_expected_knn_distance_under_randomness (void)
{
  enum { N = 40000, QUERIES = 2000, K = 15 };
  double *x = g_new (double, N), *y = g_new (double, N), *z = g_new (double, N);
  seeded_random random;
  seeded_random_init (&random, 2026);
  for (size_t i = 0; i < N; i++)
    {
      x[i] = seeded_random_uniform (&random);
      y[i] = seeded_random_uniform (&random);
      z[i] = 0.0;
    }
  shepard_error error = { 0 };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, x, y, z, N, &error), ==, SHEPARD_OK);
  double qx[QUERIES], qy[QUERIES];
  for (size_t q = 0; q < QUERIES; q++)
    {
      qx[q] = seeded_random_range (&random, 0.1, 0.9);
      qy[q] = seeded_random_range (&random, 0.1, 0.9);
    }
  double *d2 = g_new (double, (size_t) QUERIES * K);
  g_assert_cmpint (shepard_engine_nearest (engine, qx, qy, QUERIES, K, d2, NULL, &error), ==, SHEPARD_OK);
  double mean = 0.0;
  for (size_t e = 0; e < (size_t) QUERIES * K; e++)
    mean += sqrt (d2[e]);
  mean /= (double) QUERIES * K;
  double expected = shepard_aidw_expected_knn_distance (N, 1.0, K);
  g_test_message ("mean distance to the %d nearest %.6g, rexp=knn %.6g, papers' r_exp %.6g", K, mean, expected,
                  shepard_aidw_expected_distance (N, 1.0));
  g_assert_cmpfloat_with_epsilon (mean / expected, 1.0, 0.02);
  shepard_engine_free (engine);
  g_free (d2);
  g_free (x);
  g_free (y);
  g_free (z);
}

typedef struct {
  double r_min, r_max;
  double ratio; /* R */
  double mu;    /* by hand */
} membership_case;

static void
check_membership_cases (const membership_case *cases, size_t count)
{
  for (size_t i = 0; i < count; i++)
    {
      double mu = shepard_aidw_membership (cases[i].ratio, cases[i].r_min, cases[i].r_max);
      g_test_message ("Rmin %g, Rmax %g, R %.17g: mu %.17g, expected %.17g", cases[i].r_min, cases[i].r_max,
                      cases[i].ratio, mu, cases[i].mu);
      g_assert_cmpfloat_with_epsilon (mu, cases[i].mu, FORMULA_TOLERANCE);
    }
}

/* cos (pi/4) = sqrt (2) / 2, so a quarter of the way from Rmin to Rmax mu = (2 - sqrt 2) / 4 = 0.14644660940672624,
 * three quarters (2 + sqrt 2) / 4 = 0.85355339059327376; cos (pi/3) = 1/2, so a third of the way mu = 1/4, two thirds
 * 3/4. */
static void
test_membership_default_thresholds (void)
{
  static const membership_case cases[] = {
    { 0.0, 2.0, 0.0, 0.0 },  /* at Rmin */
    { 0.0, 2.0, 0.5, 0.14644660940672624 },
    { 0.0, 2.0, 1.0, 0.5 },  /* midpoint */
    { 0.0, 2.0, 1.5, 0.85355339059327376 },
    { 0.0, 2.0, 2.0, 1.0 },  /* at Rmax */
    { 0.0, 2.0, 2.5, 1.0 },  /* above Rmax */
    { 0.0, 2.0, 1e6, 1.0 },
  };
  check_membership_cases (cases, G_N_ELEMENTS (cases));
}

/* With Rmin != 0 the paper's pi / Rmax * (R - Rmin) jumps at Rmax (to 0.75 here, for Rmin 1, Rmax 4) and has its
 * midpoint in the wrong place; docs/METHOD.md's pi (R - Rmin) / (Rmax - Rmin) is continuous at both ends. */
static void
test_membership_shifted_thresholds (void)
{
  static const membership_case cases[] = {
    { 1.0, 4.0, 0.0, 0.0 },          /* below Rmin */
    { 1.0, 4.0, 0.5, 0.0 },
    { 1.0, 4.0, 1.0, 0.0 },          /* at Rmin */
    { 1.0, 4.0, 1.0 + 1e-9, 0.0 },   /* just above: 0.5 - 0.5 cos (pi 1e-9 / 3) ~ 2.7e-19 */
    { 1.0, 4.0, 2.0, 0.25 },         /* a third of the way: cos (pi/3) = 1/2 */
    { 1.0, 4.0, 2.5, 0.5 },          /* midpoint */
    { 1.0, 4.0, 3.0, 0.75 },         /* two thirds */
    { 1.0, 4.0, 4.0 - 1e-9, 1.0 },   /* just below Rmax: 1 - 2.7e-19 */
    { 1.0, 4.0, 4.0, 1.0 },          /* at Rmax */
    { 1.0, 4.0, 7.0, 1.0 },          /* above */
    { 0.5, 1.5, 0.75, 0.14644660940672624 },
    { 0.5, 1.5, 1.0, 0.5 },
    { 0.5, 1.5, 1.25, 0.85355339059327376 },
  };
  check_membership_cases (cases, G_N_ELEMENTS (cases));
}

/* Continuity everywhere: no step larger than the slope allows between neighbouring R. */
static void
test_membership_continuity (void)
{
  const double r_min = 0.7, r_max = 2.9;
  const double step = 1e-4;
  /* The largest slope of 0.5 - 0.5 cos (pi t) over t in [0, 1] is pi / 2 per unit of t. */
  const double largest_step = G_PI / 2.0 / (r_max - r_min) * step * (1.0 + 1e-9);
  double previous = shepard_aidw_membership (0.0, r_min, r_max);
  for (double ratio = step; ratio <= 4.0; ratio += step)
    {
      double mu = shepard_aidw_membership (ratio, r_min, r_max);
      g_assert_cmpfloat (mu, >=, previous);
      g_assert_cmpfloat (mu - previous, <=, largest_step);
      previous = mu;
    }
}

typedef struct {
  double mu;
  double alpha; /* by hand */
} alpha_case;

/* Levels 1, 2, 4, 8, 16: every blend of two neighbouring levels gives a value no other pair can give, so a band that
 * blends the wrong levels (alpha1 instead of alpha2 on [0.3, 0.5], as a widely copied implementation does) shows. */
static void
test_alpha_bands (void)
{
  static const double levels[SHEPARD_AIDW_LEVELS] = { 1.0, 2.0, 4.0, 8.0, 16.0 };
  static const alpha_case cases[] = {
    { 0.0, 1.0 },
    { 0.05, 1.0 },
    { 0.1, 1.0 },
    { 0.15, 1.25 },  /* 1 (1 - 0.25) + 5 * 2 * 0.05 */
    { 0.2, 1.5 },    /* 1 (1 - 0.5) + 5 * 2 * 0.1 */
    { 0.25, 1.75 },
    { 0.3, 2.0 },
    { 0.35, 2.5 },   /* 5 * 4 * 0.05 + 2 (1 - 0.25); with alpha1 it would be 1.75 */
    { 0.4, 3.0 },    /* 5 * 4 * 0.1 + 2 (1 - 0.5); with alpha1 it would be 2.5 */
    { 0.45, 3.5 },
    { 0.5, 4.0 },
    { 0.6, 6.0 },    /* 4 (1 - 0.5) + 5 * 8 * 0.1 */
    { 0.7, 8.0 },
    { 0.8, 12.0 },   /* 5 * 16 * 0.1 + 8 (1 - 0.5) */
    { 0.9, 16.0 },
    { 0.95, 16.0 },
    { 1.0, 16.0 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double alpha = shepard_aidw_alpha (cases[i].mu, levels);
      g_test_message ("mu %g: alpha %.17g, expected %.17g", cases[i].mu, alpha, cases[i].alpha);
      g_assert_cmpfloat_with_epsilon (alpha, cases[i].alpha, FORMULA_TOLERANCE * cases[i].alpha);
    }
}

static void
test_alpha_default_levels (void)
{
  shepard_params params;
  shepard_params_init_aidw (&params);
  static const alpha_case cases[] = {
    { 0.0, 1.5 }, { 0.1, 1.5 }, { 0.2, 1.75 }, { 0.3, 2.0 }, { 0.4, 2.25 }, { 0.5, 2.5 },
    { 0.6, 2.75 }, { 0.7, 3.0 }, { 0.8, 3.25 }, { 0.9, 3.5 }, { 1.0, 3.5 },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double alpha = shepard_aidw_alpha (cases[i].mu, params.alpha);
      g_assert_cmpfloat_with_epsilon (alpha, cases[i].alpha, FORMULA_TOLERANCE * cases[i].alpha);
    }
}

/* The bands meet: alpha is continuous in mu, so a small change of density never makes the power jump. */
static void
test_alpha_continuity (void)
{
  static const double levels[SHEPARD_AIDW_LEVELS] = { 1.0, 2.0, 4.0, 8.0, 16.0 };
  const double step = 1e-5;
  /* The steepest band goes from 8 to 16 over 0.2 of mu. */
  const double largest_step = 5.0 * (16.0 - 8.0) * step * (1.0 + 1e-6);
  double previous = shepard_aidw_alpha (0.0, levels);
  for (double mu = step; mu <= 1.0; mu += step)
    {
      double alpha = shepard_aidw_alpha (mu, levels);
      g_assert_cmpfloat (alpha, >=, previous);
      g_assert_cmpfloat (alpha - previous, <=, largest_step);
      previous = alpha;
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/compute/aidw-formulas/expected-distance", test_expected_distance);
  g_test_add_func ("/compute/aidw-formulas/expected-knn-distance", test_expected_knn_distance);
  g_test_add_func ("/compute/aidw-formulas/expected-knn-distance/under-randomness",
                   test_expected_knn_distance_under_randomness);
  g_test_add_func ("/compute/aidw-formulas/membership/default-thresholds", test_membership_default_thresholds);
  g_test_add_func ("/compute/aidw-formulas/membership/shifted-thresholds", test_membership_shifted_thresholds);
  g_test_add_func ("/compute/aidw-formulas/membership/continuity", test_membership_continuity);
  g_test_add_func ("/compute/aidw-formulas/alpha/bands", test_alpha_bands);
  g_test_add_func ("/compute/aidw-formulas/alpha/default-levels", test_alpha_default_levels);
  g_test_add_func ("/compute/aidw-formulas/alpha/continuity", test_alpha_continuity);
  return g_test_run ();
}
