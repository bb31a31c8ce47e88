/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "grid-export.h"
#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_GRID_DEFAULT_SIZE 256

/* The command line of shepard-grid, checked for form (each option's values, what goes together); what the values
 * mean for the data (method, format, extent) is checked when they are used. */
typedef struct {
  char *source;
  char *destination;
  char *layer;            /* NULL: the first layer */
  char *value_field;      /* -zfield as given: one field, or several separated by commas */
  GStrv value_fields;     /* value_field split at its commas, each named once (after a successful parse) */
  GStrv open_options;     /* NAME=VALUE, never NULL */
  char *method;           /* "idw" unless -a */
  gboolean has_extent;
  double x_min, x_max, y_min, y_max;
  double margin_percent;  /* --margin: the points' bounding box grown by this % of its longer side; 0 by default */
  gboolean has_resolution;
  double x_resolution, y_resolution;
  size_t width, height;   /* SHEPARD_GRID_DEFAULT_SIZE unless -outsize; unused with -tr */
  gboolean target_aligned; /* -tap: the extent grown outwards to multiples of -tr's cell sizes */
  char *format;           /* "GTiff" unless -of */
  GStrv creation_options; /* NAME=VALUE, never NULL */
  gboolean float64;
  gboolean has_nodata;
  double nodata;
  shepard_backend backend;
  char *gpus;             /* --gpus as given: "all" or CUDA device numbers "0,1"; NULL unless given */
  char *alpha_path;       /* NULL unless --alpha-out */
  char *r_path;           /* NULL unless --r-out */
  char *r_obs_path;       /* NULL unless --robs-out */
  ShepardGridExportPlanes extra_bands; /* added to DST as bands; 0 unless --extra-bands */
  double mask_distance;   /* --mask-distance: above 0; 0 unless given */
  gboolean mask_hull;     /* --mask-hull */
  char *cutline;          /* -cutline FILE; NULL unless given */
  char *cutline_layer;    /* -cl LAYER: the cutline's layer; NULL: its first */
  gboolean quiet;
  gboolean help;          /* --help: print shepard_grid_usage() and nothing else */
} ShepardGridOptions;

/* Fills options from argv (argv[0] is the program); fails with SHEPARD_APP_ERROR_USAGE. */
gboolean shepard_grid_options_parse (ShepardGridOptions *options, int argc, const char *const *argv,
                                     GError **error);

void shepard_grid_options_clear (ShepardGridOptions *options);

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardGridOptions, shepard_grid_options_clear)

const char *shepard_grid_usage (void);

G_END_DECLS
