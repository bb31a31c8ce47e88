/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The command lines of shepard-grid and shepard-cv: the input's words (split on NUL bytes and newlines) go to both
 * parsers. A refusal must say why in our usage domain; an acceptance must hold what the option structs promise. */
#include <math.h>
#include <string.h>

#include "cv-command-line.h"
#include "fuzz-support.h"
#include "grid-command-line.h"
#include "shepard-app-error.h"

static void
check_refusal (const char *program, const GError *error)
{
  SHEPARD_FUZZ_CHECK (error != NULL && g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE)
                        && error->message[0] != '\0',
                      "%s refused a command line without a usage message", program);
}

static void
check_name_values (const char *option, const char *const *list)
{
  SHEPARD_FUZZ_CHECK (list != NULL, "%s list is NULL", option);
  for (const char *const *item = list; *item != NULL; item++)
    {
      const char *equals = strchr (*item, '=');
      SHEPARD_FUZZ_CHECK (equals != NULL && equals != *item, "%s took \"%s\", which is not NAME=VALUE", option, *item);
    }
}

/* -zfield a,b,c: the list holds every name of value_field, in order, each once and none empty. */
static void
check_value_fields (const ShepardGridOptions *options)
{
  const char *const *fields = (const char *const *) options->value_fields;

  SHEPARD_FUZZ_CHECK (fields != NULL && fields[0] != NULL, "-zfield \"%s\" accepted without a field",
                      options->value_field);
  SHEPARD_FUZZ_CHECK (g_strv_length ((char **) fields) <= SHEPARD_MAX_FIELDS, "-zfield \"%s\" accepted with %u fields",
                      options->value_field, g_strv_length ((char **) fields));
  for (const char *const *field = fields; *field != NULL; field++)
    {
      SHEPARD_FUZZ_CHECK (**field != '\0' && strchr (*field, ',') == NULL, "-zfield \"%s\" gave the field \"%s\"",
                          options->value_field, *field);
      SHEPARD_FUZZ_CHECK (!g_strv_contains (field + 1, *field), "-zfield \"%s\" gave \"%s\" twice",
                          options->value_field, *field);
    }
  g_autofree char *joined = g_strjoinv (",", (char **) fields);
  SHEPARD_FUZZ_CHECK (strcmp (joined, options->value_field) == 0, "-zfield \"%s\" gave the fields \"%s\"",
                      options->value_field, joined);
}

/* --gpus: NULL, or a choice the engine parses, never with --backend cpu. */
static void
check_gpus (const char *gpus, shepard_backend backend)
{
  shepard_gpu_set set;

  if (gpus == NULL)
    return;
  SHEPARD_FUZZ_CHECK (shepard_gpu_set_parse (gpus, &set, NULL) == SHEPARD_OK, "--gpus \"%s\" accepted", gpus);
  SHEPARD_FUZZ_CHECK (backend != SHEPARD_BACKEND_CPU, "--gpus accepted with --backend cpu");
}

static void
check_grid_options (const ShepardGridOptions *options)
{
  SHEPARD_FUZZ_CHECK (options->method != NULL && options->format != NULL, "method or format left NULL");
  check_name_values ("-oo", (const char *const *) options->open_options);
  check_name_values ("-co", (const char *const *) options->creation_options);
  if (options->help)
    return;
  SHEPARD_FUZZ_CHECK (options->source != NULL && options->destination != NULL && options->value_field != NULL,
                      "accepted without SRC, DST or -zfield");
  if (options->has_extent)
    SHEPARD_FUZZ_CHECK (isfinite (options->x_min) && isfinite (options->x_max) && options->x_min < options->x_max
                          && isfinite (options->y_min) && isfinite (options->y_max)
                          && options->y_min < options->y_max,
                        "extent x %g..%g, y %g..%g accepted", options->x_min, options->x_max, options->y_min,
                        options->y_max);
  if (options->has_resolution)
    SHEPARD_FUZZ_CHECK (isfinite (options->x_resolution) && options->x_resolution > 0.0
                          && isfinite (options->y_resolution) && options->y_resolution > 0.0,
                        "-tr %g %g accepted", options->x_resolution, options->y_resolution);
  SHEPARD_FUZZ_CHECK (options->width >= 1 && options->width <= G_MAXINT && options->height >= 1
                        && options->height <= G_MAXINT,
                      "size %zu x %zu accepted", options->width, options->height);
  SHEPARD_FUZZ_CHECK (isfinite (options->margin_percent) && options->margin_percent >= 0.0,
                      "--margin %g accepted", options->margin_percent);
  SHEPARD_FUZZ_CHECK (!(options->has_extent && options->margin_percent > 0.0), "--margin accepted with -txe/-tye");
  SHEPARD_FUZZ_CHECK (!options->target_aligned || options->has_resolution, "-tap accepted without -tr");
  SHEPARD_FUZZ_CHECK (options->mask_distance == 0.0
                        || (isfinite (options->mask_distance) && options->mask_distance > 0.0),
                      "--mask-distance %g accepted", options->mask_distance);
  SHEPARD_FUZZ_CHECK (options->cutline_layer == NULL || options->cutline != NULL, "-cl accepted without -cutline");
  check_gpus (options->gpus, options->backend);
  check_value_fields (options);
}

static void
check_cv_options (const ShepardCvOptions *options)
{
  SHEPARD_FUZZ_CHECK (options->method != NULL, "method left NULL");
  check_name_values ("-oo", (const char *const *) options->open_options);
  if (options->help)
    return;
  SHEPARD_FUZZ_CHECK (options->source != NULL && options->value_field != NULL, "accepted without SRC or -zfield");
  SHEPARD_FUZZ_CHECK (options->folds == SHEPARD_FOLDS_LEAVE_ONE_OUT || options->folds >= 2, "%zu folds accepted",
                      options->folds);
  check_gpus (options->gpus, options->backend);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  shepard_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  int argc = 0;
  g_auto (GStrv) grid_argv = shepard_fuzz_split_words (data, size, "shepard-grid", &argc);
  g_auto (ShepardGridOptions) grid_options = { 0 };
  g_autoptr (GError) grid_error = NULL;

  if (shepard_grid_options_parse (&grid_options, argc, (const char *const *) grid_argv, &grid_error))
    check_grid_options (&grid_options);
  else
    check_refusal ("shepard-grid", grid_error);

  g_auto (GStrv) cv_argv = shepard_fuzz_split_words (data, size, "shepard-cv", &argc);
  g_auto (ShepardCvOptions) cv_options = { 0 };
  g_autoptr (GError) cv_error = NULL;

  if (shepard_cv_options_parse (&cv_options, argc, (const char *const *) cv_argv, &cv_error))
    check_cv_options (&cv_options);
  else
    check_refusal ("shepard-cv", cv_error);
  return 0;
}
