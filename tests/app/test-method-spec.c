/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib.h>
#include <math.h>
#include <string.h>

#include "method-spec.h"
#include "shepard-app-error.h"

static shepard_params
parse_ok (const char *spec)
{
  shepard_params params;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_method_spec_parse (spec, &params, &error));
  g_assert_no_error (error);
  return params;
}

static void
test_idw_defaults (void)
{
  shepard_params params = parse_ok ("idw");

  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (params.power, ==, 2.0);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpfloat (params.tolerance, ==, 1e-6);
}

static void
test_aidw_defaults (void)
{
  const double expected_alpha[SHEPARD_AIDW_LEVELS] = { 1.5, 2.0, 2.5, 3.0, 3.5 };
  shepard_params params = parse_ok ("aidw");

  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (params.k, ==, 15);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (params.alpha[level], ==, expected_alpha[level]);
  g_assert_cmpfloat (params.r_min, ==, 0.0);
  g_assert_cmpfloat (params.r_max, ==, 2.0);
  g_assert_cmpint (params.area_mode, ==, SHEPARD_AREA_BOUNDING_BOX);
  g_assert_cmpint (params.neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpint (params.rexp, ==, SHEPARD_REXP_NEAREST);
}

static void
test_idw_every_key (void)
{
  shepard_params params = parse_ok ("IDW:Power=3.25:neighbors=16");

  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_IDW);
  g_assert_cmpfloat (params.power, ==, 3.25);
  g_assert_cmpint (params.neighbors, ==, 16);
}

static void
test_aidw_every_key (void)
{
  const double expected_alpha[SHEPARD_AIDW_LEVELS] = { 1.0, 1.25, 2.0, 4.0, 5.5 };
  shepard_params params = parse_ok ("aidw:k=10:alpha=1,1.25,2,4,5.5:rmin=0.5:rmax=1.5:area=12500.5:neighbors=32"
                                     ":rexp=knn");

  g_assert_cmpint (params.k, ==, 10);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (params.alpha[level], ==, expected_alpha[level]);
  g_assert_cmpfloat (params.r_min, ==, 0.5);
  g_assert_cmpfloat (params.r_max, ==, 1.5);
  g_assert_cmpint (params.area_mode, ==, SHEPARD_AREA_GIVEN);
  g_assert_cmpfloat (params.area, ==, 12500.5);
  g_assert_cmpint (params.neighbors, ==, 32);
  g_assert_cmpint (params.rexp, ==, SHEPARD_REXP_KNN);
}

static void
test_rexp (void)
{
  g_assert_cmpint (parse_ok ("aidw:rexp=knn").rexp, ==, SHEPARD_REXP_KNN);
  g_assert_cmpint (parse_ok ("aidw:REXP=KNN").rexp, ==, SHEPARD_REXP_KNN);
  g_assert_cmpint (parse_ok ("aidw:rexp=nearest").rexp, ==, SHEPARD_REXP_NEAREST);
}

/* How the sums over all points are made, for both methods; tolerance is a share of the value range. */
static void
test_summation (void)
{
  shepard_params params = parse_ok ("aidw:summation=farfield:tolerance=1e-4");
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpfloat (params.tolerance, ==, 1e-4);

  params = parse_ok ("idw:power=3:SUMMATION=Exact");
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_cmpfloat (params.tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE);
  g_assert_cmpint (parse_ok ("idw:summation=auto").summation, ==, SHEPARD_SUMMATION_AUTO);
  g_assert_cmpint (parse_ok ("idw:summation=farfield").summation, ==, SHEPARD_SUMMATION_FAR_FIELD);

  /* The ends of the range are allowed. */
  g_assert_cmpfloat (parse_ok ("idw:tolerance=1e-11").tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE_MIN);
  g_assert_cmpfloat (parse_ok ("idw:tolerance=0.1").tolerance, ==, SHEPARD_FAR_FIELD_TOLERANCE_MAX);

  /* With exact sums the tolerance has no effect, yet it is taken and kept (README): a parameter set that the window
   * holds with summation exact and a tolerance set before still formats to a string that parses. */
  params = parse_ok ("idw:summation=exact:tolerance=0.001");
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_EXACT);
  g_assert_cmpfloat (params.tolerance, ==, 0.001);

  /* The far field needs all points without smoothing; elsewhere the engine sums exactly, and the choice is taken. */
  params = parse_ok ("idw:summation=farfield:max_points=12");
  g_assert_cmpint (params.summation, ==, SHEPARD_SUMMATION_FAR_FIELD);
  g_assert_cmpint (params.neighbors, ==, 12);
}

static void
test_area_modes (void)
{
  g_assert_cmpint (parse_ok ("aidw:area=hull").area_mode, ==, SHEPARD_AREA_CONVEX_HULL);
  g_assert_cmpint (parse_ok ("aidw:area=bbox").area_mode, ==, SHEPARD_AREA_BOUNDING_BOX);
  g_assert_cmpint (parse_ok ("aidw:area=HULL").area_mode, ==, SHEPARD_AREA_CONVEX_HULL);
}

static void
test_neighbors (void)
{
  g_assert_cmpint (parse_ok ("idw:neighbors=all").neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpint (parse_ok ("idw:neighbors=1").neighbors, ==, 1);
  g_assert_cmpint (parse_ok ("aidw:neighbors=ALL").neighbors, ==, SHEPARD_NEIGHBORS_ALL);
  g_assert_cmpint (parse_ok ("aidw:neighbors=1024").neighbors, ==, SHEPARD_MAX_NEIGHBORS);
}

/* gdal_grid's names and meanings (its invdistnn and invdist options). */
static void
test_neighbourhood (void)
{
  shepard_params params;
  ShepardMethodNodata nodata;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_method_spec_parse_with_nodata ("idw:power=3:smoothing=0.5:radius=250:max_points=12"
                                                        ":min_points=3:max_points_per_quadrant=4"
                                                        ":min_points_per_quadrant=1:nodata=-1e30",
                                                        &params, &nodata, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (params.power, ==, 3.0);
  g_assert_cmpfloat (params.smoothing, ==, 0.5);
  g_assert_cmpfloat (params.radius1, ==, 250.0);
  g_assert_cmpfloat (params.radius2, ==, 250.0);
  g_assert_cmpfloat (params.angle, ==, 0.0);
  g_assert_cmpint (params.neighbors, ==, 12);
  g_assert_cmpint (params.min_points, ==, 3);
  g_assert_cmpint (params.max_points_per_quadrant, ==, 4);
  g_assert_cmpint (params.min_points_per_quadrant, ==, 1);
  g_assert_true (nodata.is_set);
  g_assert_cmpfloat (nodata.value, ==, -1e30);

  params = parse_ok ("aidw:k=8:radius1=300:radius2=100:angle=30:neighbors=20");
  g_assert_cmpint (params.method, ==, SHEPARD_METHOD_AIDW);
  g_assert_cmpfloat (params.radius1, ==, 300.0);
  g_assert_cmpfloat (params.radius2, ==, 100.0);
  g_assert_cmpfloat (params.angle, ==, 30.0);
  g_assert_cmpint (params.neighbors, ==, 20);

  g_assert_true (shepard_method_spec_parse_with_nodata ("idw", &params, &nodata, &error));
  g_assert_false (nodata.is_set);
  g_assert_cmpfloat (params.radius1, ==, 0.0);
  g_assert_cmpint (params.min_points, ==, 0);
  g_assert_true (shepard_method_spec_parse_with_nodata ("idw:nodata=nan", &params, &nodata, &error));
  g_assert_true (nodata.is_set && isnan (nodata.value));
}

typedef struct {
  const char *spec;
  const char *message_part; /* the message must name what is wrong */
} BadSpec;

static const BadSpec bad_specs[] = {
  { "", "unknown method" },
  { "invdist:power=2", "\"invdist\"" },
  { "idw:k=10", "unknown option \"k\" for method idw; its options are power, smoothing, radius, radius1, radius2, "
                "angle, max_points, min_points, max_points_per_quadrant, min_points_per_quadrant, summation, "
                "tolerance, nodata" },
  { "aidw:power=2", "its options are k, alpha, rmin, rmax, area, rexp, smoothing, radius," },
  { "idw:power", "NAME=VALUE" },
  { "idw:power=", "NAME=VALUE" },
  { "idw:=2", "NAME=VALUE" },
  { "idw:", "NAME=VALUE" },
  { "idw:power=two", "\"two\"" },
  { "idw:power=2x", "\"2x\"" },
  { "idw:power=nan", "\"nan\"" },
  { "idw:power=inf", "\"inf\"" },
  { "idw:power=1e999", "\"1e999\"" },
  { "idw:power=2:power=3", "given twice" },
  { "idw:neighbors=0", "\"all\" or a whole number" },
  { "idw:neighbors=-3", "\"-3\"" },
  { "idw:neighbors=2.5", "\"2.5\"" },
  { "idw:neighbors=1025", "1025" },
  { "idw:neighbors=some", "\"some\"" },
  { "aidw:k=0", "whole number from 1" },
  { "aidw:k=1.5", "\"1.5\"" },
  { "aidw:alpha=1,2,3,4", "5 comma-separated numbers" },
  { "aidw:alpha=1,2,3,4,5,6", "5 comma-separated numbers" },
  { "aidw:alpha=1,2,x,4,5", "\"x\"" },
  { "aidw:area=disc", "\"bbox\", \"hull\" or an area" },
  { "aidw:rmin=low", "\"low\"" },
  { "aidw:rexp=mean", "\"nearest\"" },
  { "aidw:rexp=", "NAME=VALUE" },
  { "idw:rexp=knn", "unknown option \"rexp\" for method idw" },
  { "aidw:rexp=knn:rexp=nearest", "given twice" },
  { "aidw:rmin=1e-400", "\"1e-400\"" },
  /* gdal_grid's neighbourhood options: each message names the option and what to do. */
  { "idw:radius=0", "radius needs a distance above 0" },
  { "idw:radius=-5", "radius needs a distance above 0" },
  { "aidw:radius1=-1:radius2=3", "radius1 needs a distance above 0" },
  { "idw:radius2=0:radius1=3", "radius2 needs a distance above 0" },
  { "idw:radius=nan", "\"nan\"" },
  { "idw:radius1=100", "radius1 needs radius2" },
  { "idw:radius2=100", "radius2 needs radius1" },
  { "idw:angle=30", "angle turns the search ellipse of radius1 and radius2" },
  { "idw:radius=100:angle=30", "angle turns the search ellipse" },
  { "idw:radius=100:radius1=50:radius2=60", "radius (a search circle) and radius1 (a search ellipse) exclude" },
  { "idw:min_points=13:max_points=12", "min_points=13 is larger than max_points=12" },
  { "aidw:neighbors=4:min_points=5", "min_points=5 is larger than max_points=4" },
  { "idw:min_points_per_quadrant=3:max_points_per_quadrant=2", "min_points_per_quadrant=3 is larger than "
                                                                  "max_points_per_quadrant=2" },
  { "idw:neighbors=8:max_points=8", "max_points is given twice" },
  { "idw:min_points=-1", "min_points needs a whole number from 0" },
  { "idw:max_points_per_quadrant=1025", "max_points_per_quadrant needs a whole number from 0 to 1024" },
  { "idw:smoothing=-1", "smoothing needs a distance of 0 or more" },
  { "idw:nodata=none", "nodata needs a number (or nan)" },
  { "idw:nodata=1:nodata=2", "given twice" },
  /* The far field's options (issue 15). */
  { "idw:summation=fast", "method option summation needs \"auto\" (the far field where it costs less), \"exact\" "
                          "(every pair) or \"farfield\" (the far field wherever it applies), not \"fast\"" },
  { "aidw:summation=far_field", "not \"far_field\"" },
  { "idw:summation=", "NAME=VALUE" },
  { "idw:summation=exact:summation=auto", "summation is given twice" },
  { "idw:tolerance=0", "method option tolerance needs a number from 1e-11 to 0.1 (a share of each field's value "
                       "range), not \"0\"" },
  { "idw:tolerance=1", "tolerance needs a number from 1e-11 to 0.1" },
  { "aidw:tolerance=1e-12", "not \"1e-12\"" },
  { "idw:tolerance=-1e-6", "not \"-1e-6\"" },
  { "idw:tolerance=0.10000000000000002", "tolerance needs a number from 1e-11 to 0.1" },
  { "idw:tolerance=small", "method option tolerance needs a number, not \"small\"" },
  { "idw:tolerance=nan", "\"nan\"" },
  { "idw:tolerance=1e-6:tolerance=1e-5", "tolerance is given twice" },
};

static void
test_bad_spec (gconstpointer data)
{
  const BadSpec *bad = data;
  shepard_params params = { .power = -1.0 };
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_method_spec_parse (bad->spec, &params, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_test_message ("\"%s\": %s", bad->spec, error->message);
  g_assert_nonnull (strstr (error->message, bad->message_part));
  g_assert_cmpfloat (params.power, ==, -1.0);
}

/* Well-formed specifications whose values the engine refuses: its message comes through. */
static const char *const out_of_range_specs[] = {
  "idw:power=0",
  "idw:power=-1",
  "aidw:alpha=1.5,2,0,3,3.5",
  "aidw:alpha=-1.5,2,2.5,3,3.5",
  "aidw:rmin=2:rmax=2",
  "aidw:rmin=3:rmax=1",
  "aidw:rmin=-1",
  "aidw:area=0",
  "aidw:area=-5",
  /* Counts that no cell could meet. */
  "idw:max_points=8:min_points_per_quadrant=3",
  "idw:max_points_per_quadrant=1:min_points=5",
};

static void
test_out_of_range (gconstpointer data)
{
  const char *spec = data;
  shepard_params params;
  g_autoptr (GError) error = NULL;

  g_assert_false (shepard_method_spec_parse (spec, &params, &error));
  g_assert_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER);
  g_test_message ("\"%s\": %s", spec, error->message);
  g_assert_cmpstr (error->message, !=, "");
}

static char *
format_ok (const char *spec)
{
  shepard_params params;
  ShepardMethodNodata nodata;
  g_autoptr (GError) error = NULL;

  g_assert_true (shepard_method_spec_parse_with_nodata (spec, &params, &nodata, &error));
  g_assert_no_error (error);
  return shepard_method_spec_format_with_nodata (&params, &nodata);
}

/* Parsed and formatted again, a specification comes out in its shortest form, options in the order of the usage. */
static const struct {
  const char *spec;
  const char *formatted;
} canonical_specs[] = {
  { "idw", "idw" },
  { "aidw", "aidw" },
  { "idw:power=2:neighbors=all", "idw" },
  { "IDW:Power=3.250:neighbors=16", "idw:power=3.25:max_points=16" },
  { "aidw:k=15:alpha=1.5,2,2.5,3,3.5:rmin=0:rmax=2:area=bbox:neighbors=all:rexp=nearest", "aidw" },
  { "aidw:rexp=knn:neighbors=32:area=12500.5:rmax=1.5:rmin=0.5:alpha=1,1.25,2,4,5.5:k=10",
    "aidw:k=10:alpha=1,1.25,2,4,5.5:rmin=0.5:rmax=1.5:area=12500.5:rexp=knn:max_points=32" },
  { "aidw:area=HULL", "aidw:area=hull" },
  { "aidw:alpha=1.5,2,2.5,3,3.6", "aidw:alpha=1.5,2,2.5,3,3.6" },
  { "idw:power=0.1000", "idw:power=0.1" },
  { "idw:power=1e300", "idw:power=1e+300" },
  { "idw:power=0.33333333333333331", "idw:power=0.3333333333333333" },
  { "idw:power=0.30000000000000004", "idw:power=0.30000000000000004" },
  { "idw:power=4.9406564584124654e-324", "idw:power=5e-324" },
  { "aidw:rmin=-0", "aidw:rmin=-0" },
  { "idw:nodata=-9999:min_points_per_quadrant=1:max_points_per_quadrant=3:min_points=2:max_points=12:radius=150"
    ":smoothing=0.5",
    "idw:smoothing=0.5:radius=150:max_points=12:min_points=2:max_points_per_quadrant=3:min_points_per_quadrant=1"
    ":nodata=-9999" },
  { "idw:radius1=150:radius2=150", "idw:radius=150" },
  { "idw:radius1=150:radius2=150:angle=-0", "idw:radius1=150:radius2=150:angle=-0" },
  { "aidw:angle=45:radius2=50:radius1=200:k=8", "aidw:k=8:radius1=200:radius2=50:angle=45" },
  { "idw:max_points=all:min_points=0:smoothing=0:max_points_per_quadrant=0", "idw" },
  { "idw:NODATA=NaN", "idw:nodata=nan" },
  { "idw:nodata=-3.4028234663852886e+38", "idw:nodata=-3.4028234663852886e+38" },
  { "idw:summation=auto:tolerance=1e-6", "idw" },
  { "idw:tolerance=0.000001000", "idw" },
  { "aidw:nodata=-1:tolerance=1e-4:summation=FARFIELD:k=8",
    "aidw:k=8:summation=farfield:tolerance=0.0001:nodata=-1" },
  { "idw:summation=exact:radius=100", "idw:radius=100:summation=exact" },
  { "idw:tolerance=3e-9", "idw:tolerance=3e-09" },
  { "idw:summation=exact:tolerance=0.1", "idw:summation=exact:tolerance=0.1" },
};

static void
test_format_canonical (void)
{
  for (size_t i = 0; i < G_N_ELEMENTS (canonical_specs); i++)
    {
      g_autofree char *formatted = format_ok (canonical_specs[i].spec);
      g_assert_cmpstr (formatted, ==, canonical_specs[i].formatted);
    }
}

static gboolean
same_number (double a, double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* The fields the method uses are the same numbers, bit for bit. */
static void
assert_same_params (const shepard_params *actual, const shepard_params *expected)
{
  g_assert_cmpint (actual->method, ==, expected->method);
  g_assert_cmpint (actual->neighbors, ==, expected->neighbors);
  g_assert_cmpint (actual->summation, ==, expected->summation);
  g_assert_true (same_number (actual->tolerance, expected->tolerance));
  if (expected->method == SHEPARD_METHOD_IDW)
    {
      g_assert_true (same_number (actual->power, expected->power));
      return;
    }
  g_assert_cmpint (actual->k, ==, expected->k);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_true (same_number (actual->alpha[level], expected->alpha[level]));
  g_assert_true (same_number (actual->r_min, expected->r_min));
  g_assert_true (same_number (actual->r_max, expected->r_max));
  g_assert_cmpint (actual->area_mode, ==, expected->area_mode);
  if (expected->area_mode == SHEPARD_AREA_GIVEN)
    g_assert_true (same_number (actual->area, expected->area));
  g_assert_cmpint (actual->rexp, ==, expected->rexp);
}

static void
assert_same_neighbourhood (const shepard_params *actual, const shepard_params *expected)
{
  g_assert_true (same_number (actual->smoothing, expected->smoothing));
  g_assert_true (same_number (actual->radius1, expected->radius1));
  g_assert_true (same_number (actual->radius2, expected->radius2));
  g_assert_true (same_number (actual->angle, expected->angle));
  g_assert_cmpint (actual->min_points, ==, expected->min_points);
  g_assert_cmpint (actual->max_points_per_quadrant, ==, expected->max_points_per_quadrant);
  g_assert_cmpint (actual->min_points_per_quadrant, ==, expected->min_points_per_quadrant);
}

/* A positive number as people and optimisers write them: a default, a short decimal, any double of a range, or one
 * of the extremes. */
static double
random_positive (GRand *random, double default_value)
{
  static const double extremes[] = { 4.9406564584124654e-324, 2.2250738585072014e-308, 1e-300, 1e300,
                                     1.7976931348623157e308, 0.1, 1.0 / 3.0 };

  switch (g_rand_int_range (random, 0, 5))
    {
    case 0:
      return default_value;
    case 1:
      return g_rand_int_range (random, 1, 1000) / 100.0;
    case 2:
      return extremes[g_rand_int_range (random, 0, G_N_ELEMENTS (extremes))];
    default:
      return g_rand_double_range (random, 1e-3, 10.0) * exp2 (g_rand_int_range (random, -20, 20));
    }
}

static void
random_params (GRand *random, shepard_params *params)
{
  if (g_rand_boolean (random))
    {
      shepard_params_init_idw (params);
      params->power = random_positive (random, params->power);
    }
  else
    {
      shepard_params_init_aidw (params);
      params->k = g_rand_boolean (random) ? params->k : g_rand_int_range (random, 1, SHEPARD_MAX_NEIGHBORS + 1);
      if (g_rand_boolean (random))
        for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
          params->alpha[level] = random_positive (random, params->alpha[level]);
      switch (g_rand_int_range (random, 0, 4))
        {
        case 0:
          break;
        case 1:
          params->r_min = -0.0;
          params->r_max = random_positive (random, params->r_max);
          break;
        default:
          params->r_min = g_rand_boolean (random) ? 0.0 : g_rand_double_range (random, 0.0, 4.0);
          params->r_max = params->r_min + random_positive (random, 1.0);
          break;
        }
      params->area_mode = (shepard_area_mode) g_rand_int_range (random, 0, 3);
      params->area = params->area_mode == SHEPARD_AREA_GIVEN ? random_positive (random, 1e6) : 0.0;
      params->rexp = g_rand_boolean (random) ? SHEPARD_REXP_KNN : SHEPARD_REXP_NEAREST;
    }
  params->neighbors = g_rand_boolean (random) ? SHEPARD_NEIGHBORS_ALL
                                              : g_rand_int_range (random, 1, SHEPARD_MAX_NEIGHBORS + 1);
  params->smoothing = g_rand_boolean (random) ? 0.0 : random_positive (random, 1.0);
  switch (g_rand_int_range (random, 0, 3))
    {
    case 0:
      break;
    case 1:
      params->radius1 = params->radius2 = random_positive (random, 100.0);
      break;
    default:
      params->radius1 = random_positive (random, 100.0);
      params->radius2 = g_rand_boolean (random) ? params->radius1 : random_positive (random, 50.0);
      params->angle = g_rand_boolean (random) ? 0.0 : g_rand_double_range (random, -360.0, 360.0);
      break;
    }
  params->min_points = g_rand_boolean (random) ? 0 : g_rand_int_range (random, 1, 20);
  params->max_points_per_quadrant = g_rand_boolean (random) ? 0 : g_rand_int_range (random, 1, 20);
  params->min_points_per_quadrant = g_rand_boolean (random) ? 0 : g_rand_int_range (random, 1, 5);
  params->summation = (shepard_summation) g_rand_int_range (random, 0, 3);
  switch (g_rand_int_range (random, 0, 4))
    {
    case 0:
      break;
    case 1:
      params->tolerance = g_rand_boolean (random) ? SHEPARD_FAR_FIELD_TOLERANCE_MIN : SHEPARD_FAR_FIELD_TOLERANCE_MAX;
      break;
    default:
      params->tolerance = pow (10.0, g_rand_double_range (random, log10 (SHEPARD_FAR_FIELD_TOLERANCE_MIN),
                                                          log10 (SHEPARD_FAR_FIELD_TOLERANCE_MAX)));
      break;
    }
}

static void
test_format_round_trip (void)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (20261124);

  for (int i = 0; i < 20000; i++)
    {
      shepard_params params, parsed;
      random_params (random, &params);
      shepard_error engine_error = { 0 };
      if (shepard_params_validate (&params, &engine_error) != SHEPARD_OK)
        continue;

      ShepardMethodNodata nodata = { FALSE, 0.0 }, parsed_nodata;
      if (g_rand_boolean (random))
        nodata = (ShepardMethodNodata) { TRUE, g_rand_boolean (random) ? -9999.0 : -random_positive (random, 1.0) };
      g_autofree char *spec = shepard_method_spec_format_with_nodata (&params, &nodata);
      g_autoptr (GError) error = NULL;
      if (!shepard_method_spec_parse_with_nodata (spec, &parsed, &parsed_nodata, &error))
        g_error ("\"%s\" does not parse: %s", spec, error->message);
      assert_same_params (&parsed, &params);
      assert_same_neighbourhood (&parsed, &params);
      g_assert_cmpint (parsed_nodata.is_set, ==, nodata.is_set);
      if (nodata.is_set)
        g_assert_true (same_number (parsed_nodata.value, nodata.value));

      /* Shortest: no option at its default, and no number that one digit fewer would still give. */
      g_autofree char *again = shepard_method_spec_format_with_nodata (&parsed, &parsed_nodata);
      g_assert_cmpstr (again, ==, spec);
      g_assert_null (strstr (spec, ":rexp=nearest"));
      g_assert_null (strstr (spec, ":neighbors"));
      g_assert_null (strstr (spec, ":max_points=all"));
      g_assert_null (strstr (spec, ":min_points=0"));
      g_assert_null (strstr (spec, ":k=15:"));
      g_assert_null (strstr (spec, ":summation=auto"));
      g_assert_null (strstr (spec, ":tolerance=1e-06"));
      if (i < 5)
        g_test_message ("%s", spec);
    }
}

/* %.17g reads back to every double, but here each number takes the fewest digits that do. */
static void
test_format_shortest (void)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (7);

  for (int i = 0; i < 2000; i++)
    {
      shepard_params params;
      shepard_params_init_idw (&params);
      params.power = g_rand_double_range (random, 0.01, 100.0);
      g_autofree char *spec = shepard_method_spec_format (&params);
      const char *number = spec + strlen ("idw:power=");
      g_assert_cmpfloat (g_ascii_strtod (number, NULL), ==, params.power);

      int digits = 0;
      for (const char *c = number; *c != '\0' && *c != 'e'; c++)
        digits += g_ascii_isdigit (*c) && (digits > 0 || *c != '0');
      char shorter[G_ASCII_DTOSTR_BUF_SIZE];
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", MAX (digits - 1, 1));
      g_ascii_formatd (shorter, sizeof shorter, format, params.power);
      if (digits > 1)
        g_assert_cmpfloat (g_ascii_strtod (shorter, NULL), !=, params.power);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/app/method-spec/idw/defaults", test_idw_defaults);
  g_test_add_func ("/app/method-spec/aidw/defaults", test_aidw_defaults);
  g_test_add_func ("/app/method-spec/idw/every-key", test_idw_every_key);
  g_test_add_func ("/app/method-spec/aidw/every-key", test_aidw_every_key);
  g_test_add_func ("/app/method-spec/aidw/area-modes", test_area_modes);
  g_test_add_func ("/app/method-spec/neighbors", test_neighbors);
  g_test_add_func ("/app/method-spec/neighbourhood", test_neighbourhood);
  g_test_add_func ("/app/method-spec/aidw/rexp", test_rexp);
  g_test_add_func ("/app/method-spec/summation", test_summation);
  g_test_add_func ("/app/method-spec/format/canonical", test_format_canonical);
  g_test_add_func ("/app/method-spec/format/round-trip", test_format_round_trip);
  g_test_add_func ("/app/method-spec/format/shortest", test_format_shortest);
  for (size_t i = 0; i < G_N_ELEMENTS (bad_specs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/method-spec/bad/%zu", i);
      g_test_add_data_func (path, &bad_specs[i], test_bad_spec);
    }
  for (size_t i = 0; i < G_N_ELEMENTS (out_of_range_specs); i++)
    {
      g_autofree char *path = g_strdup_printf ("/app/method-spec/out-of-range/%zu", i);
      g_test_add_data_func (path, out_of_range_specs[i], test_out_of_range);
    }
  return g_test_run ();
}
