/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

typedef enum {
  SHEPARD_CV_OPTIMISE_NONE,
  SHEPARD_CV_OPTIMISE_RMSE,
  SHEPARD_CV_OPTIMISE_MAE,
} ShepardCvOptimise;

/* The command line of shepard-cv, checked for form; what the values mean for the data (method, folds against the
 * number of points, k against the folds, the residuals' format) is checked when they are used. */
typedef struct {
  char *source;
  char *layer;                /* NULL: the first layer */
  char *value_field;
  GStrv open_options;         /* NAME=VALUE, never NULL */
  char *method;               /* "idw" unless -a */
  size_t folds;               /* SHEPARD_FOLDS_LEAVE_ONE_OUT unless --folds N (N >= 2) */
  guint64 seed;               /* 0 unless --seed */
  ShepardCvOptimise optimise; /* --optimise [rmse|mae]: rmse when the next word is neither */
  shepard_backend backend;
  char *gpus;                 /* --gpus as given: "all" or CUDA device numbers "0,1"; NULL unless given */
  gboolean json;
  char *residuals_path;       /* NULL unless -o */
  gboolean quiet;
  gboolean help;              /* --help: print shepard_cv_usage() and nothing else */
} ShepardCvOptions;

/* Fills options from argv (argv[0] is the program); fails with SHEPARD_APP_ERROR_USAGE. */
gboolean shepard_cv_options_parse (ShepardCvOptions *options, int argc, const char *const *argv, GError **error);

void shepard_cv_options_clear (ShepardCvOptions *options);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardCvOptions, shepard_cv_options_clear)

const char *shepard_cv_usage (void);

G_END_DECLS
