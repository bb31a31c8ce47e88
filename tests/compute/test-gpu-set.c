/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Choosing GPUs (shepard-engine.h, "Several GPUs"): the text form, and engines on GPUs that are or are not there. */
#include "engine-test-support.h"

#include <glib.h>
#include <string.h>

static void
test_parse_and_format (void)
{
  static const struct {
    const char *text;
    size_t count;
    int ordinals[3];
  } valid[] = {
    { "all", 0, { 0 } },
    { "0", 1, { 0 } },
    { "1,0", 2, { 1, 0 } },
    { "0,2,7", 3, { 0, 2, 7 } },
  };
  for (size_t i = 0; i < G_N_ELEMENTS (valid); i++)
    {
      shepard_gpu_set set;
      shepard_error error = { SHEPARD_OK, "" };
      assert_engine_status (shepard_gpu_set_parse (valid[i].text, &set, &error), &error, SHEPARD_OK);
      g_assert_cmpuint (set.count, ==, valid[i].count);
      for (size_t g = 0; g < set.count; g++)
        g_assert_cmpint (set.ordinals[g], ==, valid[i].ordinals[g]);
      char text[64];
      shepard_gpu_set_format (&set, text, sizeof text);
      g_assert_cmpstr (text, ==, valid[i].text);
    }
  static const char *const invalid[] = { "", "x", "0,", ",0", "0,,1", "-1", "0 1", "1,1", "all,0", "0.5", "99999999" };
  for (size_t i = 0; i < G_N_ELEMENTS (invalid); i++)
    {
      shepard_gpu_set set;
      shepard_error error = { SHEPARD_OK, "" };
      g_test_message ("\"%s\"", invalid[i]);
      assert_engine_status (shepard_gpu_set_parse (invalid[i], &set, &error), &error, SHEPARD_ERROR_INVALID_ARGUMENT);
    }
  /* Too small a buffer ends at a whole number. */
  shepard_gpu_set three = { 3, { 10, 11, 12 } };
  char small[6];
  shepard_gpu_set_format (&three, small, sizeof small);
  g_assert_cmpstr (small, ==, "10,11");
}

/* A GPU that is not there: an error naming what there is for CUDA, the CPU with the reason for auto. */
static void
test_missing_gpu (void)
{
  int count = shepard_gpu_count ();
  g_assert_cmpint (count, >=, 0);
  char name[256];
  g_assert_false (shepard_gpu_name (count, name, sizeof name));
  shepard_gpu_set missing = { 1, { count } };
  shepard_error error = { SHEPARD_OK, "" };
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 1, &missing,
                                                       &error);
  g_assert_null (engine);
  g_test_message ("CUDA on GPU %d: %s", count, error.message);
  g_assert_cmpint (error.code, ==, SHEPARD_ERROR_NO_DEVICE);

  engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 1, &missing, &error);
  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_backend (engine), ==, SHEPARD_BACKEND_CPU);
  g_assert_nonnull (shepard_engine_fallback_reason (engine));
  g_test_message ("auto on GPU %d: %s", count, shepard_engine_describe (engine));
  g_assert_cmpuint (shepard_engine_gpu_count (engine), ==, 0);
  g_assert_cmpint (shepard_engine_gpu_ordinal (engine, 0), ==, -1);
  shepard_engine_free (engine);
}

/* Every visible GPU by default, in order, the first driving device grids. */
static void
test_every_gpu (void)
{
  if (!cuda_device_or_skip ())
    return;
  int count = shepard_gpu_count ();
  shepard_error error = { SHEPARD_OK, "" };
  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 1, &error);
  g_assert_nonnull (engine);
  g_assert_cmpuint (shepard_engine_gpu_count (engine), ==, (size_t) count);
  char name[256];
  for (int i = 0; i < count; i++)
    {
      g_assert_true (shepard_gpu_name (i, name, sizeof name));
      g_assert_cmpint (shepard_engine_gpu_ordinal (engine, (size_t) i), ==, i);
    }
  g_assert_true (shepard_gpu_name (0, name, sizeof name));
  g_autofree char *described = g_strdup_printf ("CUDA: %s", name);
  g_assert_true (g_str_has_prefix (shepard_engine_describe (engine), described));
  g_assert_cmpint (shepard_engine_cuda_device (engine), ==, 0);
  shepard_engine_free (engine);

  shepard_gpu_set last = { 1, { count - 1 } };
  engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_CUDA, SHEPARD_PRECISION_FLOAT32, 1, &last, &error);
  g_assert_nonnull (engine);
  g_assert_cmpuint (shepard_engine_gpu_count (engine), ==, 1);
  g_assert_cmpint (shepard_engine_cuda_device (engine), ==, count - 1);
  shepard_engine_free (engine);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/gpu-set/parse-and-format", test_parse_and_format);
  g_test_add_func ("/gpu-set/missing-gpu", test_missing_gpu);
  g_test_add_func ("/gpu-set/every-gpu", test_every_gpu);
  return g_test_run ();
}
