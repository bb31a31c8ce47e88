/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid: interpolates a point layer into a raster from the command line, in the manner of gdal_grid. */
#include <gdal.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli-run.h"
#include "engine-autocleanups.h"
#include "export-extent.h"
#include "file-identity.h"
#include "grid-command-line.h"
#include "grid-export.h"
#include "grid-extent.h"
#include "method-spec.h"
#include "point-layer.h"
#include "raster-metadata.h"
#include "shepard-app-error.h"
#include "terminal-progress.h"

#define PROGRAM "shepard-grid"

/* shepard_grid_export_check keeps the outputs apart from one another; the input is this tool's alone to know. */
static gboolean
check_outputs_are_not_source (const ShepardGridOptions *options, GError **error)
{
  const struct {
    const char *path;
    const char *what;
  } outputs[] = {
    { options->destination, "the output DST" },
    { options->alpha_path, "the output of --alpha-out" },
    { options->r_path, "the output of --r-out" },
    { options->r_obs_path, "the output of --robs-out" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (outputs[i].path != NULL && shepard_paths_name_same_file (outputs[i].path, options->source))
      {
        g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                     "%s \"%s\" is the input SRC: give another output file name", outputs[i].what, outputs[i].path);
        return FALSE;
      }
  return TRUE;
}

static gboolean
plan_grid (const ShepardGridOptions *options, const shepard_engine *engine, shepard_grid *grid, GError **error)
{
  double x_min = options->x_min, x_max = options->x_max, y_min = options->y_min, y_max = options->y_max;

  if (!options->has_extent)
    {
      double bounds[4], extent[4];
      shepard_engine_bounds (engine, &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
      if (!shepard_export_extent (bounds, options->margin_percent, extent, error))
        {
          g_prefix_error (error, "-txe XMIN XMAX -tye YMIN YMAX or --margin PERCENT: ");
          return FALSE;
        }
      x_min = extent[0];
      y_min = extent[1];
      x_max = extent[2];
      y_max = extent[3];
    }
  size_t width = options->width, height = options->height;
  if (options->has_resolution
      && (!shepard_grid_cells_for_resolution (x_max - x_min, options->x_resolution, "x", &width, error)
          || !shepard_grid_cells_for_resolution (y_max - y_min, options->y_resolution, "y", &height, error)))
    return FALSE;
  if (!shepard_grid_from_extent (x_min, x_max, y_min, y_max, width, height, grid, error))
    return FALSE;
  const double corners[4] = { x_min, x_max, y_min, y_max };
  int decimals = shepard_export_decimals (corners, G_N_ELEMENTS (corners), MIN (grid->dx, grid->dy));
  if (!options->quiet)
    fprintf (stderr, "Grid: %zu x %zu cells of %.6g x %.6g, x %.*f to %.*f, y %.*f to %.*f\n", grid->width,
             grid->height, grid->dx, grid->dy, decimals, x_min, decimals, x_max, decimals, y_min, decimals, y_max);
  return TRUE;
}

static double
default_nodata (GDALDataType data_type, const ShepardPointLayer *points)
{
  double value_min = INFINITY, value_max = -INFINITY;

  for (size_t i = 0; i < points->count; i++)
    {
      value_min = MIN (value_min, points->z[i]);
      value_max = MAX (value_max, points->z[i]);
    }
  return shepard_raster_default_nodata (data_type, value_min, value_max);
}

static gboolean
run (const ShepardGridOptions *options, ShepardTerminalProgress *bar, GError **error)
{
  shepard_params params;
  if (!shepard_method_spec_parse (options->method, &params, error))
    return FALSE;
  if (!check_outputs_are_not_source (options, error))
    return FALSE;

  ShepardGridExport request = {
    .value_path = options->destination,
    .alpha_path = options->alpha_path,
    .r_path = options->r_path,
    .r_obs_path = options->r_obs_path,
    .extra_bands = options->extra_bands,
    .value_name = options->value_field,
    .format = {
      .driver_name = options->format,
      .data_type = options->float64 ? GDT_Float64 : GDT_Float32,
      .has_nodata = options->has_nodata,
      .nodata = options->nodata,
      .creation_options = (const char *const *) options->creation_options,
    },
  };
  if (!shepard_grid_export_check (&params, &request, error))
    return FALSE;

  g_autoptr (ShepardPointLayer) points = shepard_cli_read_points (options->source, options->layer, options->value_field,
                                                                  (const char *const *) options->open_options, error);
  if (points == NULL)
    return FALSE;
  if (!options->quiet)
    shepard_cli_report_points (points);
  request.format.crs_wkt = points->crs_wkt;
  if (!options->has_nodata)
    request.format.nodata = default_nodata (request.format.data_type, points);
  request.format.has_nodata = TRUE;

  shepard_precision precision = options->float64 ? SHEPARD_PRECISION_FLOAT64 : SHEPARD_PRECISION_FLOAT32;
  g_autoptr (shepard_engine) engine = shepard_cli_start_engine (options->backend, precision, points, options->quiet,
                                                                error);
  shepard_grid grid;
  if (engine == NULL || !plan_grid (options, engine, &grid, error))
    return FALSE;
  g_autofree char *method = shepard_method_spec_format (&params);
  ShepardRasterProvenance provenance = {
    .source = options->source,
    .layer = points->layer_name,
    .field = points->field_name,
    .open_options = (const char *const *) options->open_options,
    .n_points = points->count,
    .method = method,
    .engine = engine,
    .precision = precision,
  };
  g_auto (GStrv) metadata = shepard_raster_metadata_new (&provenance);
  request.format.metadata = (const char *const *) metadata;
  return shepard_grid_export (engine, &params, &grid, &request, shepard_terminal_progress_report, bar, error);
}

int
main (int argc, char **argv)
{
  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;

  if (!shepard_grid_options_parse (&options, argc, (const char *const *) argv, &error))
    {
      shepard_cli_print_error (PROGRAM, error, NULL);
      return SHEPARD_CLI_EXIT_USAGE;
    }
  if (options.help)
    {
      fputs (shepard_grid_usage (), stdout);
      return shepard_cli_finish_stdout (PROGRAM, "the usage");
    }

  shepard_cli_init ();
  ShepardTerminalProgress bar;
  shepard_terminal_progress_init (&bar, options.quiet ? NULL : stderr, shepard_cli_cancel_flag ());
  int status = EXIT_SUCCESS;
  if (!run (&options, &bar, &error))
    {
      shepard_terminal_progress_end_line (&bar);
      shepard_cli_print_error (PROGRAM, error, "no output was written");
      status = shepard_cli_exit_status_for (error);
    }
  GDALDestroyDriverManager ();
  return status;
}
