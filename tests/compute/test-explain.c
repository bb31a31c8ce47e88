/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Explaining a value: every share and the rest are the reference's w / sum w, the shares sum to 1, sum (share * z) is
 * the engine's value at that point and the reference's, the AIDW quantities are the reference's, the listed points
 * are the nearest in order, and the coincident and N-nearest cases. */
#include <glib.h>
#include <math.h>

#include "engine-test-support.h"
#include "reference-interpolation.h"
#include "seeded-random.h"

#define LISTED 20

typedef struct {
  const char *name;
  point_layout layout;
  gboolean aidw;
  int neighbors;
  shepard_rexp_mode rexp;
} explain_case;

static const explain_case cases[] = {
  { "idw-all/uniform", POINT_LAYOUT_UNIFORM, FALSE, SHEPARD_NEIGHBORS_ALL, SHEPARD_REXP_NEAREST },
  { "idw-local/clusters", POINT_LAYOUT_CLUSTERS, FALSE, 8, SHEPARD_REXP_NEAREST },
  { "aidw-all/utm", POINT_LAYOUT_UTM, TRUE, SHEPARD_NEIGHBORS_ALL, SHEPARD_REXP_NEAREST },
  { "aidw-all-knn-rexp/duplicates", POINT_LAYOUT_DUPLICATES, TRUE, SHEPARD_NEIGHBORS_ALL, SHEPARD_REXP_KNN },
  { "aidw-local-40/cluster-outliers", POINT_LAYOUT_CLUSTER_OUTLIERS, TRUE, 40, SHEPARD_REXP_NEAREST },
};

static void
check_sums (const shepard_explanation *explanation, const shepard_contribution *listed, double scale)
{
  double share = explanation->rest_share, share_value = explanation->rest_share_value;
  for (size_t j = 0; j < explanation->n_listed; j++)
    {
      g_assert_cmpfloat (listed[j].share, >=, 0.0);
      if (j > 0)
        g_assert_cmpfloat (listed[j].distance, >=, listed[j - 1].distance);
      share += listed[j].share;
      share_value += listed[j].share * listed[j].value;
    }
  g_assert_cmpfloat_with_epsilon (share, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (share_value, explanation->value, 1e-12 * scale);
}

/* Each listed share, and what the rest holds, from the reference alone: w = d^-alpha over every weighted point (all of
 * them, or the N nearest), alpha the reference's, share = w / sum w. */
static void
check_shares_against_reference (const reference_data *reference, const shepard_params *params,
                                const reference_result *expected, double x, double y,
                                const shepard_explanation *explanation, const shepard_contribution *listed)
{
  size_t n = reference->count;
  size_t n_weighted = params->neighbors == SHEPARD_NEIGHBORS_ALL ? n : MIN ((size_t) params->neighbors, n);
  double *d2 = g_new (double, n);
  size_t *index = g_new (size_t, n);
  reference_nearest (reference, x, y, n, d2, index);
  double alpha = params->method == SHEPARD_METHOD_AIDW ? expected->alpha : params->power;
  double *weight = g_new (double, n_weighted);
  double total = 0.0;
  for (size_t j = 0; j < n_weighted; j++)
    {
      weight[j] = pow (d2[j] / d2[0], -0.5 * alpha);
      total += weight[j];
    }
  double rest = 0.0, rest_value = 0.0;
  for (size_t j = 0; j < n_weighted; j++)
    if (j < explanation->n_listed)
      g_assert_cmpfloat_with_epsilon (listed[j].share, weight[j] / total, 1e-9 * (weight[j] / total) + 1e-15);
    else
      {
        rest += weight[j] / total;
        rest_value += weight[j] / total * reference->z[index[j]];
      }
  g_assert_cmpfloat_with_epsilon (explanation->rest_share, rest, 1e-9 * rest + 1e-15);
  if (!expected->neighbourhood_ambiguous)
    g_assert_cmpfloat_with_epsilon (explanation->rest_share_value, rest_value, 1e-9 * fabs (rest_value) + 1e-12);
  g_free (weight);
  g_free (index);
  g_free (d2);
}

static void
test_against_engine (gconstpointer data)
{
  const explain_case *test_case = data;
  point_set *points = point_set_new (test_case->layout, 500, 99);
  double scale = point_set_value_scale (points);
  shepard_params params;
  if (test_case->aidw)
    shepard_params_init_aidw (&params);
  else
    shepard_params_init_idw (&params);
  params.neighbors = test_case->neighbors;
  params.rexp = test_case->rexp;
  reference_data reference;
  reference_data_init (&reference, points->x, points->y, points->z, points->count);

  shepard_engine *exact = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 0, points);
  shepard_engine *fast = engine_new_with_points (SHEPARD_PRECISION_FLOAT32, 0, points);
  seeded_random random;
  seeded_random_init (&random, 5);
  for (int q = 0; q < 25; q++)
    {
      /* Queries over the data's box, and one on a data point. */
      double x = q == 0 ? points->x[3] : seeded_random_range (&random, reference.x_min, reference.x_max);
      double y = q == 0 ? points->y[3] : seeded_random_range (&random, reference.y_min, reference.y_max);
      shepard_contribution listed[LISTED];
      shepard_explanation explanation;
      shepard_error error = { 0 };
      assert_engine_status (shepard_engine_explain (exact, &params, x, y, listed, LISTED, &explanation, &error),
                            &error, SHEPARD_OK);
      check_sums (&explanation, listed, scale);
      g_assert_cmpuint (explanation.n_listed, ==, LISTED);
      g_assert_true (explanation.coincident == (q == 0));

      double value_exact, value_fast, alpha;
      shepard_outputs outputs = { .values = &value_exact, .alpha = &alpha };
      assert_engine_status (shepard_engine_interpolate_points (exact, &params, &x, &y, 1, &outputs, NULL, NULL,
                                                               &error),
                            &error, SHEPARD_OK);
      outputs = (shepard_outputs) { .values = &value_fast };
      assert_engine_status (shepard_engine_interpolate_points (fast, &params, &x, &y, 1, &outputs, NULL, NULL,
                                                               &error),
                            &error, SHEPARD_OK);
      /* The float64 engine's value, to rounding; a float32 (or GPU) engine's within its promise, unless the N-th and
       * (N+1)-th nearest lie closer than float32 tells apart (a dense cluster seen from afar): then which of them is
       * weighed is not defined (reference-interpolation.h). */
      reference_result expected;
      reference_interpolate (&reference, &params, x, y, &expected);
      g_assert_cmpfloat_with_epsilon (explanation.value, value_exact, 1e-13 * scale);
      if (!expected.neighbourhood_ambiguous)
        g_assert_cmpfloat_with_epsilon (explanation.value, value_fast, 1e-5 * scale);
      g_assert_cmpfloat_with_epsilon (explanation.alpha, test_case->aidw ? alpha : params.power, 1e-12);

      /* The listed points are the nearest, as the reference sorts them. */
      double d2[LISTED];
      size_t index[LISTED];
      reference_nearest (&reference, x, y, LISTED, d2, index);
      for (size_t j = 0; j < LISTED; j++)
        {
          g_assert_cmpfloat_with_epsilon (listed[j].distance, sqrt (d2[j]), 1e-9 * (1.0 + sqrt (d2[j])));
          g_assert_cmpfloat (listed[j].value, ==, points->z[listed[j].index]);
        }

      if (test_case->aidw)
        {
          double area = reference_study_area (&reference, params.area_mode, params.area);
          double r_exp = reference_expected_distance (params.rexp, points->count, area, (size_t) params.k);
          g_assert_cmpint (explanation.k_density, ==, params.k);
          g_assert_cmpfloat_with_epsilon (explanation.r_obs, expected.r_obs, 1e-9 * expected.r_obs);
          g_assert_cmpfloat_with_epsilon (explanation.r_exp, r_exp, 1e-12 * r_exp);
          g_assert_cmpfloat_with_epsilon (explanation.r, expected.r_obs / r_exp, 1e-9);
          g_assert_cmpfloat_with_epsilon (explanation.alpha, expected.alpha, 1e-9);
          g_assert_cmpfloat (explanation.mu, >=, 0.0);
          g_assert_cmpfloat (explanation.mu, <=, 1.0);
        }
      else
        {
          g_assert_true (isnan (explanation.r_obs) && isnan (explanation.mu));
          g_assert_cmpint (explanation.k_density, ==, 0);
        }

      if (explanation.coincident)
        continue;
      check_shares_against_reference (&reference, &params, &expected, x, y, &explanation, listed);
      if (!expected.neighbourhood_ambiguous)
        g_assert_cmpfloat_with_epsilon (explanation.value, expected.value, 1e-9 * scale);
      if (params.neighbors == SHEPARD_NEIGHBORS_ALL)
        {
          g_assert_cmpuint (explanation.n_weighted, ==, points->count);
          g_assert_cmpuint (explanation.rest_count, ==, points->count - LISTED);
        }
      else
        {
          g_assert_cmpuint (explanation.n_weighted, ==, (size_t) params.neighbors);
          size_t listed_weighted = MIN ((size_t) params.neighbors, (size_t) LISTED);
          g_assert_cmpuint (explanation.rest_count, ==, (size_t) params.neighbors - listed_weighted);
          for (size_t j = listed_weighted; j < LISTED; j++)
            g_assert_cmpfloat (listed[j].share, ==, 0.0);
        }
      /* Shares fall with distance: w = d^-alpha with one alpha per query. */
      for (size_t j = 1; j < MIN (explanation.n_weighted, (size_t) LISTED); j++)
        g_assert_cmpfloat (listed[j].share, <=, listed[j - 1].share * (1.0 + 1e-12));
    }
  shepard_engine_free (exact);
  shepard_engine_free (fast);
  point_set_free (points);
}

/* By hand: IDW p = 2 at the origin from (1, 0) z 2, (0, 2) z 6 and (3, 4) z 11: weights 1, 1/4, 1/25. */
static void
test_by_hand (void)
{
  point_set *points = point_set_new_empty (3);
  const double x[] = { 1, 0, 3 }, y[] = { 0, 2, 4 }, z[] = { 2, 6, 11 };
  memcpy (points->x, x, sizeof x);
  memcpy (points->y, y, sizeof y);
  memcpy (points->z, z, sizeof z);
  shepard_engine *engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 1, points);
  shepard_params params;
  shepard_params_init_idw (&params);
  shepard_contribution listed[2];
  shepard_explanation explanation;
  shepard_error error = { 0 };
  assert_engine_status (shepard_engine_explain (engine, &params, 0.0, 0.0, listed, 2, &explanation, &error), &error,
                        SHEPARD_OK);
  double total = 1.0 + 0.25 + 0.04;
  g_assert_cmpuint (listed[0].index, ==, 0);
  g_assert_cmpuint (listed[1].index, ==, 1);
  g_assert_cmpfloat_with_epsilon (listed[0].distance, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (listed[1].distance, 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (listed[0].share, 1.0 / total, 1e-12);
  g_assert_cmpfloat_with_epsilon (listed[1].share, 0.25 / total, 1e-12);
  g_assert_cmpuint (explanation.rest_count, ==, 1);
  g_assert_cmpfloat_with_epsilon (explanation.rest_share, 0.04 / total, 1e-12);
  g_assert_cmpfloat_with_epsilon (explanation.rest_share_value, 0.04 * 11 / total, 1e-12);
  g_assert_cmpfloat_with_epsilon (explanation.value, (2 + 6 * 0.25 + 11 * 0.04) / total, 1e-12);

  /* On two coincident points of three: their mean, half each; nothing listed at all still adds up. */
  points->x[2] = 1.0;
  points->y[2] = 0.0;
  shepard_engine_free (engine);
  engine = engine_new_with_points (SHEPARD_PRECISION_FLOAT64, 1, points);
  assert_engine_status (shepard_engine_explain (engine, &params, 1.0, 0.0, listed, 0, &explanation, &error), &error,
                        SHEPARD_OK);
  g_assert_true (explanation.coincident);
  g_assert_cmpuint (explanation.n_weighted, ==, 2);
  g_assert_cmpuint (explanation.rest_count, ==, 2);
  g_assert_cmpfloat_with_epsilon (explanation.value, 6.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (explanation.rest_share, 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (explanation.rest_share_value, 6.5, 1e-12);
  shepard_engine_free (engine);
  point_set_free (points);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  for (size_t i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/compute/explain/%s", cases[i].name);
      g_test_add_data_func (path, &cases[i], test_against_engine);
    }
  g_test_add_func ("/compute/explain/by-hand", test_by_hand);
  return g_test_run ();
}
