/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "option-parser.h"

#include <stdarg.h>
#include <string.h>

#include "shepard-app-error.h"

gboolean
shepard_usage_error (GError **error, const char *format, ...)
{
  va_list arguments;

  va_start (arguments, format);
  g_autofree char *message = g_strdup_vprintf (format, arguments);
  va_end (arguments);
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE, message);
  return FALSE;
}

static const ShepardOption *
find_option (const ShepardOption *options, size_t n_options, const char *name)
{
  for (size_t i = 0; i < n_options; i++)
    if (strcmp (name, options[i].name) == 0)
      return &options[i];
  return NULL;
}

static gboolean
wants_help (int argc, const char *const *argv)
{
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--help") == 0 || strcmp (argv[i], "-h") == 0)
      return TRUE;
  return FALSE;
}

/* Runs the option at argv[i]; returns how many words after it were its values. */
static int
apply_option (const ShepardOption *option, int argc, const char *const *argv, int i, gboolean *parsed,
              GError **error)
{
  if (option->accepts_value != NULL)
    {
      gboolean taken = i + 1 < argc && option->accepts_value (argv[i + 1]);
      const char *values[] = { taken ? argv[i + 1] : NULL };
      *parsed = option->handle (option->target, option->synopsis, values, error);
      return taken ? 1 : 0;
    }
  if (i + option->n_values >= argc)
    *parsed = shepard_usage_error (error, "%s is missing %s: write %s", option->name,
                                   option->n_values == 1 ? "its value" : "values", option->synopsis);
  else
    *parsed = option->handle (option->target, option->synopsis, &argv[i + 1], error);
  return option->n_values;
}

gboolean
shepard_option_parse (const char *program, const ShepardOption *options, size_t n_options, int argc,
                      const char *const *argv, ShepardOperandHandler add_operand, gpointer operand_target,
                      gboolean *help, GError **error)
{
  g_return_val_if_fail (program != NULL && options != NULL && argv != NULL, FALSE);
  g_return_val_if_fail (add_operand != NULL && help != NULL, FALSE);

  gboolean parsed = TRUE;

  *help = wants_help (argc, argv);
  for (int i = 1; i < argc && parsed && !*help; i++)
    {
      const char *argument = argv[i];
      const ShepardOption *option = find_option (options, n_options, argument);
      if (option != NULL)
        i += apply_option (option, argc, argv, i, &parsed, error);
      else if (argument[0] == '-' && argument[1] != '\0')
        parsed = shepard_usage_error (error, "unknown option \"%s\" (%s --help lists the options)", argument,
                                      program);
      else
        parsed = add_operand (operand_target, argument, error);
    }
  return parsed;
}

gboolean
shepard_option_store_string (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  char **field = target;

  g_free (*field);
  *field = g_strdup (values[0]);
  return TRUE;
}

gboolean
shepard_option_set_flag (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  gboolean *flag = target;

  *flag = TRUE;
  return TRUE;
}

gboolean
shepard_option_add_name_value (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  const char *equals = strchr (values[0], '=');

  if (equals == NULL || equals == values[0])
    return shepard_usage_error (error, "%s needs NAME=VALUE, not \"%s\"", synopsis, values[0]);
  g_strv_builder_add (target, values[0]);
  return TRUE;
}

gboolean
shepard_option_store_backend (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  static const struct {
    const char *name;
    shepard_backend backend;
  } backends[] = {
    { "auto", SHEPARD_BACKEND_AUTO },
    { "cpu", SHEPARD_BACKEND_CPU },
    { "cuda", SHEPARD_BACKEND_CUDA },
  };
  shepard_backend *backend = target;

  for (size_t i = 0; i < G_N_ELEMENTS (backends); i++)
    if (g_ascii_strcasecmp (values[0], backends[i].name) == 0)
      {
        *backend = backends[i].backend;
        return TRUE;
      }
  return shepard_usage_error (error, "%s: the backend must be auto, cpu or cuda, not \"%s\"", synopsis, values[0]);
}

gboolean
shepard_option_parse_gpus (const char *synopsis, const char *text, shepard_gpu_set *set, GError **error)
{
  shepard_error engine_error = { 0 };

  if (shepard_gpu_set_parse (text, set, &engine_error) != SHEPARD_OK)
    return shepard_usage_error (error, "%s: %s", synopsis, engine_error.message);
  return TRUE;
}

gboolean
shepard_option_store_gpus (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  shepard_gpu_set set;

  if (!shepard_option_parse_gpus (synopsis, values[0], &set, error))
    return FALSE;
  return shepard_option_store_string (target, synopsis, values, error);
}

gboolean
shepard_option_check_gpus_backend (const char *gpus, shepard_backend backend, GError **error)
{
  if (gpus != NULL && backend == SHEPARD_BACKEND_CPU)
    return shepard_usage_error (error, "--gpus chooses CUDA devices; drop it or use --backend auto|cuda");
  return TRUE;
}
