/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib.h>
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
  shepard_params params = parse_ok ("aidw:k=10:alpha=1,1.25,2,4,5.5:rmin=0.5:rmax=1.5:area=12500.5:neighbors=32");

  g_assert_cmpint (params.k, ==, 10);
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    g_assert_cmpfloat (params.alpha[level], ==, expected_alpha[level]);
  g_assert_cmpfloat (params.r_min, ==, 0.5);
  g_assert_cmpfloat (params.r_max, ==, 1.5);
  g_assert_cmpint (params.area_mode, ==, SHEPARD_AREA_GIVEN);
  g_assert_cmpfloat (params.area, ==, 12500.5);
  g_assert_cmpint (params.neighbors, ==, 32);
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

typedef struct {
  const char *spec;
  const char *message_part; /* the message must name what is wrong */
} BadSpec;

static const BadSpec bad_specs[] = {
  { "", "unknown method" },
  { "invdist:power=2", "\"invdist\"" },
  { "idw:k=10", "unknown option \"k\" for method idw; its options are power, neighbors" },
  { "aidw:power=2", "its options are k, alpha, rmin, rmax, area, neighbors" },
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
