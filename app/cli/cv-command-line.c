/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cv-command-line.h"

#include <stdarg.h>
#include <string.h>

#include "shepard-app-error.h"

typedef struct {
  ShepardCvOptions *options;
  GPtrArray *open_options;
} ParseState;

/* values holds n_values words; with an optional value, values[0] is NULL when the next word was not taken. */
typedef gboolean (*OptionHandler) (ParseState *state, const char *synopsis, const char *const *values,
                                   GError **error);

typedef struct {
  const char *name;
  int n_values;
  gboolean value_optional; /* one value, taken only when accepts_value says it is one */
  const char *synopsis;
  OptionHandler handle;
} OptionSpec;

static gboolean
usage_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

static gboolean
usage_error (GError **error, const char *format, ...)
{
  va_list arguments;

  va_start (arguments, format);
  g_autofree char *message = g_strdup_vprintf (format, arguments);
  va_end (arguments);
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE, message);
  return FALSE;
}

static void
replace_string (char **field, const char *value)
{
  g_free (*field);
  *field = g_strdup (value);
}

static gboolean
handle_layer (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  replace_string (&state->options->layer, values[0]);
  return TRUE;
}

static gboolean
handle_value_field (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  replace_string (&state->options->value_field, values[0]);
  return TRUE;
}

static gboolean
handle_open_option (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  const char *equals = strchr (values[0], '=');

  if (equals == NULL || equals == values[0])
    return usage_error (error, "%s needs NAME=VALUE, not \"%s\"", synopsis, values[0]);
  g_ptr_array_add (state->open_options, g_strdup (values[0]));
  return TRUE;
}

static gboolean
handle_method (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  replace_string (&state->options->method, values[0]);
  return TRUE;
}

static gboolean
handle_folds (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  guint64 folds = 0;

  if (g_ascii_strcasecmp (values[0], "loo") == 0)
    {
      state->options->folds = SHEPARD_FOLDS_LEAVE_ONE_OUT;
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (values[0], 10, 2, G_MAXUINT32, &folds, NULL))
    return usage_error (error, "%s needs loo (leave-one-out) or a whole number of folds from 2, not \"%s\"",
                        synopsis, values[0]);
  state->options->folds = (size_t) folds;
  return TRUE;
}

static gboolean
handle_seed (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  if (!g_ascii_string_to_unsigned (values[0], 10, 0, G_MAXUINT64, &state->options->seed, NULL))
    return usage_error (error, "%s needs a whole number from 0 to %" G_GUINT64_FORMAT ", not \"%s\"", synopsis,
                        G_MAXUINT64, values[0]);
  return TRUE;
}

static gboolean
accepts_objective (const char *word)
{
  return g_ascii_strcasecmp (word, "rmse") == 0 || g_ascii_strcasecmp (word, "mae") == 0;
}

static gboolean
handle_optimise (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  gboolean mae = values[0] != NULL && g_ascii_strcasecmp (values[0], "mae") == 0;

  state->options->optimise = mae ? SHEPARD_CV_OPTIMISE_MAE : SHEPARD_CV_OPTIMISE_RMSE;
  return TRUE;
}

static gboolean
handle_backend (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  static const struct {
    const char *name;
    shepard_backend backend;
  } backends[] = {
    { "auto", SHEPARD_BACKEND_AUTO },
    { "cpu", SHEPARD_BACKEND_CPU },
    { "cuda", SHEPARD_BACKEND_CUDA },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (backends); i++)
    if (g_ascii_strcasecmp (values[0], backends[i].name) == 0)
      {
        state->options->backend = backends[i].backend;
        return TRUE;
      }
  return usage_error (error, "%s: the backend must be auto, cpu or cuda, not \"%s\"", synopsis, values[0]);
}

static gboolean
handle_json (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  state->options->json = TRUE;
  return TRUE;
}

static gboolean
handle_residuals (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  replace_string (&state->options->residuals_path, values[0]);
  return TRUE;
}

static gboolean
handle_quiet (ParseState *state, const char *synopsis, const char *const *values, GError **error)
{
  state->options->quiet = TRUE;
  return TRUE;
}

static const OptionSpec option_specs[] = {
  { "-l", 1, FALSE, "-l LAYER", handle_layer },
  { "-zfield", 1, FALSE, "-zfield FIELD", handle_value_field },
  { "-oo", 1, FALSE, "-oo NAME=VALUE", handle_open_option },
  { "-a", 1, FALSE, "-a METHOD", handle_method },
  { "--folds", 1, FALSE, "--folds loo|N", handle_folds },
  { "--seed", 1, FALSE, "--seed S", handle_seed },
  { "--optimise", 1, TRUE, "--optimise [rmse|mae]", handle_optimise },
  { "--backend", 1, FALSE, "--backend auto|cpu|cuda", handle_backend },
  { "--json", 0, FALSE, "--json", handle_json },
  { "-o", 1, FALSE, "-o RESIDUALS", handle_residuals },
  { "-q", 0, FALSE, "-q", handle_quiet },
};

static const OptionSpec *
find_option_spec (const char *name)
{
  for (size_t i = 0; i < G_N_ELEMENTS (option_specs); i++)
    if (strcmp (name, option_specs[i].name) == 0)
      return &option_specs[i];
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
apply_option (ParseState *state, const OptionSpec *spec, int argc, const char *const *argv, int i, gboolean *parsed,
              GError **error)
{
  if (spec->value_optional)
    {
      gboolean taken = i + 1 < argc && accepts_objective (argv[i + 1]);
      const char *values[] = { taken ? argv[i + 1] : NULL };
      *parsed = spec->handle (state, spec->synopsis, values, error);
      return taken ? 1 : 0;
    }
  if (i + spec->n_values >= argc)
    *parsed = usage_error (error, "%s is missing %s: write %s", spec->name,
                           spec->n_values == 1 ? "its value" : "values", spec->synopsis);
  else
    *parsed = spec->handle (state, spec->synopsis, &argv[i + 1], error);
  return spec->n_values;
}

static GStrv
take_string_array (GPtrArray *strings)
{
  g_ptr_array_add (strings, NULL);
  return (GStrv) g_ptr_array_free (strings, FALSE);
}

gboolean
shepard_cv_options_parse (ShepardCvOptions *options, int argc, const char *const *argv, GError **error)
{
  g_return_val_if_fail (options != NULL && argv != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *options = (ShepardCvOptions) {
    .method = g_strdup ("idw"),
    .folds = SHEPARD_FOLDS_LEAVE_ONE_OUT,
    .backend = SHEPARD_BACKEND_AUTO,
  };
  ParseState state = {
    .options = options,
    .open_options = g_ptr_array_new_with_free_func (g_free),
  };
  gboolean parsed = TRUE;

  if (wants_help (argc, argv))
    options->help = TRUE;
  for (int i = 1; i < argc && parsed && !options->help; i++)
    {
      const char *argument = argv[i];
      const OptionSpec *spec = find_option_spec (argument);
      if (spec != NULL)
        i += apply_option (&state, spec, argc, argv, i, &parsed, error);
      else if (argument[0] == '-' && argument[1] != '\0')
        parsed = usage_error (error, "unknown option \"%s\" (shepard-cv --help lists the options)", argument);
      else if (options->source == NULL)
        options->source = g_strdup (argument);
      else
        parsed = usage_error (error, "unexpected argument \"%s\": give one point layer SRC", argument);
    }
  if (parsed && !options->help)
    {
      if (options->source == NULL)
        parsed = usage_error (error, "give the point layer SRC to cross-validate (shepard-cv --help shows how)");
      else if (options->value_field == NULL)
        parsed = usage_error (error, "-zfield FIELD is missing: name the numeric field to cross-validate");
    }
  options->open_options = take_string_array (state.open_options);
  return parsed;
}

void
shepard_cv_options_clear (ShepardCvOptions *options)
{
  g_clear_pointer (&options->source, g_free);
  g_clear_pointer (&options->layer, g_free);
  g_clear_pointer (&options->value_field, g_free);
  g_clear_pointer (&options->open_options, g_strfreev);
  g_clear_pointer (&options->method, g_free);
  g_clear_pointer (&options->residuals_path, g_free);
}

const char *
shepard_cv_usage (void)
{
  return "Usage: shepard-cv [-l LAYER] -zfield FIELD [-oo NAME=VALUE]... [-a METHOD] [--folds loo|N] [--seed S]\n"
         "                  [--optimise [rmse|mae]] [--backend auto|cpu|cuda] [--json] [-o RESIDUALS] [-q] SRC\n"
         "METHOD: idw[:power=2][:neighbors=all|N]\n"
         "        aidw[:k=15][:alpha=1.5,2,2.5,3,3.5][:rmin=0][:rmax=2][:area=bbox|hull|A][:neighbors=all|N]\n"
         "            [:rexp=nearest|knn]\n"
         "\n"
         "Cross-validates inverse distance weighting (idw) or adaptive IDW (aidw, Mei et al. 2016) on the numeric\n"
         "field FIELD of a point layer SRC (any vector source GDAL reads): every point is predicted from the points\n"
         "outside its fold and compared with its value.\n"
         "\n"
         "  -l LAYER             layer name or 0-based index (default: the first layer)\n"
         "  -zfield FIELD        the numeric field to predict\n"
         "  -oo NAME=VALUE       open option of the input driver; for CSV the coordinate columns are found by\n"
         "                       name (X_POSSIBLE_NAMES, Y_POSSIBLE_NAMES) and types detected (AUTODETECT_TYPE)\n"
         "  -a METHOD            interpolation method and its parameters (default: idw), as shepard-grid takes it;\n"
         "                       rexp=knn compares r_obs with its expectation over the k nearest rather than the\n"
         "                       distance to the nearest neighbour\n"
         "  --folds loo|N        leave-one-out (default) or N random folds (2 to the number of points)\n"
         "  --seed S             deals the points into the folds of --folds N (default: 0); the same seed gives the\n"
         "                       same folds on every machine\n"
         "  --optimise [rmse|mae]\n"
         "                       tune the method's parameters to minimise the RMSE (default) or the MAE: IDW's\n"
         "                       power; AIDW's alphas (kept rising), Rmin, Rmax and k; starting from METHOD\n"
         "  --backend B          auto (default: CUDA when a GPU is present, else the CPU), cpu or cuda\n"
         "  --json               print one JSON object instead of the text lines\n"
         "  -o RESIDUALS         also write every point with the fields observed, predicted, residual (predicted -\n"
         "                       observed), alpha (the power used) and fold (leave-one-out: the point's index),\n"
         "                       in the CRS of SRC, in the vector format its extension names (.gpkg, .csv, .shp,\n"
         "                       .geojson, .fgb, .gml, .sqlite)\n"
         "  -q                   quiet: no progress bar nor report\n"
         "\n"
         "Output on stdout, one line:\n"
         "  n N ME me MAE mae RMSE rmse R2 r2     (numbers to 4 digits; R2 is nan when the values are all equal)\n"
         "with --optimise, that line for the best parameters, then\n"
         "  method METHOD start RMSE rmse evaluations E      (MAE instead of RMSE with --optimise mae)\n"
         "where METHOD is the best parameters as shepard-grid -a takes them. With --json one object with the keys\n"
         "n, me, mae, rmse and r2 (null when undefined); with --optimise also objective, start_rmse, start_mae,\n"
         "evaluations and method.\n"
         "\n"
         "Ctrl-C cancels and leaves no RESIDUALS file.\n"
         "Exit status: 0 done, 1 failed, 2 wrong command line or parameters, 128+N stopped by signal N.\n";
}
