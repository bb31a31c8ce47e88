/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cv-command-line.h"

#include "option-parser.h"

static gboolean
handle_folds (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  size_t *folds = target;
  guint64 number = 0;

  if (g_ascii_strcasecmp (values[0], "loo") == 0)
    {
      *folds = SHEPARD_FOLDS_LEAVE_ONE_OUT;
      return TRUE;
    }
  if (!g_ascii_string_to_unsigned (values[0], 10, 2, G_MAXUINT32, &number, NULL))
    return shepard_usage_error (error, "%s needs loo (leave-one-out) or a whole number of folds from 2, not \"%s\"",
                                synopsis, values[0]);
  *folds = (size_t) number;
  return TRUE;
}

static gboolean
handle_seed (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  if (!g_ascii_string_to_unsigned (values[0], 10, 0, G_MAXUINT64, target, NULL))
    return shepard_usage_error (error, "%s needs a whole number from 0 to %" G_GUINT64_FORMAT ", not \"%s\"",
                                synopsis, G_MAXUINT64, values[0]);
  return TRUE;
}

static gboolean
accepts_objective (const char *word)
{
  return g_ascii_strcasecmp (word, "rmse") == 0 || g_ascii_strcasecmp (word, "mae") == 0;
}

static gboolean
handle_optimise (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ShepardCvOptimise *optimise = target;
  gboolean mae = values[0] != NULL && g_ascii_strcasecmp (values[0], "mae") == 0;

  *optimise = mae ? SHEPARD_CV_OPTIMISE_MAE : SHEPARD_CV_OPTIMISE_RMSE;
  return TRUE;
}

static gboolean
add_source (gpointer target, const char *operand, GError **error)
{
  ShepardCvOptions *options = target;

  if (options->source != NULL)
    return shepard_usage_error (error, "unexpected argument \"%s\": give one point layer SRC", operand);
  options->source = g_strdup (operand);
  return TRUE;
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
  g_autoptr (GStrvBuilder) open_options = g_strv_builder_new ();
  const ShepardOption option_table[] = {
    { "-l", 1, "-l LAYER", shepard_option_store_string, &options->layer, NULL },
    { "-zfield", 1, "-zfield FIELD", shepard_option_store_string, &options->value_field, NULL },
    { "-oo", 1, "-oo NAME=VALUE", shepard_option_add_name_value, open_options, NULL },
    { "-a", 1, "-a METHOD", shepard_option_store_string, &options->method, NULL },
    { "--folds", 1, "--folds loo|N", handle_folds, &options->folds, NULL },
    { "--seed", 1, "--seed S", handle_seed, &options->seed, NULL },
    { "--optimise", 1, "--optimise [rmse|mae]", handle_optimise, &options->optimise, accepts_objective },
    { "--backend", 1, "--backend auto|cpu|cuda", shepard_option_store_backend, &options->backend, NULL },
    { "--gpus", 1, "--gpus all|LIST", shepard_option_store_gpus, &options->gpus, NULL },
    { "--json", 0, "--json", shepard_option_set_flag, &options->json, NULL },
    { "-o", 1, "-o RESIDUALS", shepard_option_store_string, &options->residuals_path, NULL },
    { "-q", 0, "-q", shepard_option_set_flag, &options->quiet, NULL },
  };

  gboolean parsed = shepard_option_parse ("shepard-cv", option_table, G_N_ELEMENTS (option_table), argc, argv,
                                          add_source, options, &options->help, error);
  if (parsed && !options->help)
    {
      if (options->source == NULL)
        parsed = shepard_usage_error (error,
                                      "give the point layer SRC to cross-validate (shepard-cv --help shows how)");
      else if (options->value_field == NULL)
        parsed = shepard_usage_error (error, "-zfield FIELD is missing: name the numeric field to cross-validate");
      else
        parsed = shepard_option_check_gpus_backend (options->gpus, options->backend, error);
    }
  options->open_options = g_strv_builder_end (open_options);
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
  g_clear_pointer (&options->gpus, g_free);
  g_clear_pointer (&options->residuals_path, g_free);
}

const char *
shepard_cv_usage (void)
{
  return "Usage: shepard-cv [-l LAYER] -zfield FIELD [-oo NAME=VALUE]... [-a METHOD] [--folds loo|N] [--seed S]\n"
         "                  [--optimise [rmse|mae]] [--backend auto|cpu|cuda] [--gpus all|LIST] [--json]\n"
         "                  [-o RESIDUALS] [-q] SRC\n"
         "METHOD: idw[:power=2]NEIGHBOURHOOD\n"
         "        aidw[:k=15][:alpha=1.5,2,2.5,3,3.5][:rmin=0][:rmax=2][:area=bbox|hull|A][:rexp=nearest|knn]\n"
         "            NEIGHBOURHOOD\n"
         "NEIGHBOURHOOD (gdal_grid's names, as shepard-grid takes them): [:smoothing=0]\n"
         "        [:radius=R | :radius1=R1:radius2=R2[:angle=0]][:max_points=all|N][:min_points=0]\n"
         "        [:max_points_per_quadrant=0][:min_points_per_quadrant=0][:summation=auto|exact]\n"
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
         "                       distance to the nearest neighbour. Cross-validation weighs every pair exactly:\n"
         "                       summation=auto|exact change nothing, summation=farfield and tolerance are\n"
         "                       refused, and so is nodata (no raster is written)\n"
         "  --folds loo|N        leave-one-out (default) or N random folds (2 to the number of points)\n"
         "  --seed S             deals the points into the folds of --folds N (default: 0); the same seed gives the\n"
         "                       same folds on every machine\n"
         "  --optimise [rmse|mae]\n"
         "                       tune the method's parameters to minimise the RMSE (default) or the MAE: IDW's\n"
         "                       power; AIDW's alphas (kept rising), Rmin, Rmax and k; starting from METHOD\n"
         "  --backend B          auto (default: CUDA when a GPU is present, else the CPU), cpu or cuda\n"
         "  --gpus all|LIST      the CUDA devices to spread the work over: all (default) or their numbers\n"
         "                       separated by commas, as CUDA numbers them (0,1); with cuda a GPU that is not\n"
         "                       there is an error, with auto the CPU runs instead and says why\n"
         "  --json               print one JSON object instead of the text lines\n"
         "  -o RESIDUALS         also write every point with the fields observed, predicted, residual (predicted -\n"
         "                       observed), alpha (the power used) and fold (leave-one-out: the point's index),\n"
         "                       in the CRS of SRC, in the vector format its extension names: .gpkg, .csv, .shp,\n"
         "                       .geojson, .fgb, .gml, .sqlite, or that of any other vector format GDAL writes\n"
         "                       (.kml...; ogrinfo --formats lists them)\n"
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
