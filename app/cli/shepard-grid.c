/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid: interpolates a point layer into a raster from the command line, in the manner of gdal_grid. */
#include <errno.h>
#include <float.h>
#include <gdal.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli-run.h"
#include "engine-autocleanups.h"
#include "export-extent.h"
#include "field-engines.h"
#include "grid-command-line.h"
#include "grid-export.h"
#include "grid-nodata.h"
#include "grid-outputs.h"
#include "grid-plan.h"
#include "method-spec.h"
#include "option-parser.h"
#include "point-layer.h"
#include "raster-metadata.h"
#include "shepard-app-error.h"
#include "terminal-progress.h"

#define PROGRAM "shepard-grid"

/* The points' bounding box over every engine: the fields' points may differ (rows skipped in one field only). */
static void
bounds_of_engines (shepard_engine *const *engines, size_t n_engines, double bounds[4])
{
  shepard_engine_bounds (engines[0], &bounds[0], &bounds[1], &bounds[2], &bounds[3]);
  for (size_t i = 1; i < n_engines; i++)
    {
      double other[4];
      shepard_engine_bounds (engines[i], &other[0], &other[1], &other[2], &other[3]);
      bounds[0] = MIN (bounds[0], other[0]);
      bounds[1] = MIN (bounds[1], other[1]);
      bounds[2] = MAX (bounds[2], other[2]);
      bounds[3] = MAX (bounds[3], other[3]);
    }
}

static gboolean
plan_grid (const ShepardGridOptions *options, shepard_engine *const *engines, size_t n_engines, shepard_grid *grid,
           GError **error)
{
  double bounds[4], extent[4];

  bounds_of_engines (engines, n_engines, bounds);
  if (!shepard_grid_plan (options, bounds, extent, grid, error))
    return FALSE;
  const double corners[4] = { extent[0], extent[2], extent[1], extent[3] };
  int decimals = shepard_export_decimals (corners, G_N_ELEMENTS (corners), MIN (grid->dx, grid->dy));
  if (!options->quiet)
    fprintf (stderr, "Grid: %zu x %zu cells of %.6g x %.6g, x %.*f to %.*f, y %.*f to %.*f\n", grid->width,
             grid->height, grid->dx, grid->dy, decimals, extent[0], decimals, extent[2], decimals, extent[1],
             decimals, extent[3]);
  return TRUE;
}

/* How the engine makes the sums over the points for a grid of this many cells, and what that promises. */
static void
print_summation (const shepard_engine *engine, const shepard_params *params, size_t n_cells)
{
  if (shepard_engine_summation (engine, params, n_cells) == SHEPARD_SUMMATION_FAR_FIELD)
    {
      fprintf (stderr, "Summation: far field, every cell within %g x its field's value range of the exact value\n",
               params->tolerance);
      return;
    }
  gboolean all_points = shepard_params_weight_all_points (params);
  fprintf (stderr, "Summation: exact (%s)", all_points ? "every pair" : "the neighbourhood's points one by one");
  if (params->summation == SHEPARD_SUMMATION_FAR_FIELD && all_points)
    fprintf (stderr, ": the far field needs no smoothing and powers up to %g", SHEPARD_FAR_FIELD_MAX_POWER);
  else if (params->summation == SHEPARD_SUMMATION_FAR_FIELD)
    fprintf (stderr, ": the far field weighs all points (no radius, max_points or quadrant limits)");
  fputc ('\n', stderr);
}

static void
value_range (GPtrArray *fields, double *value_min, double *value_max)
{
  *value_min = INFINITY;
  *value_max = -INFINITY;
  for (guint f = 0; f < fields->len; f++)
    {
      const ShepardPointLayer *points = g_ptr_array_index (fields, f);
      for (size_t i = 0; i < points->count; i++)
        {
          *value_min = MIN (*value_min, points->z[i]);
          *value_max = MAX (*value_max, points->z[i]);
        }
    }
}

/* The masks of --mask-distance, --mask-hull and -cutline, NULL without any; distance and hull are those of the
 * points of all fields together. */
static gboolean
build_mask (const ShepardGridOptions *options, GPtrArray *fields, ShepardGridMask **result, GError **error)
{
  *result = NULL;
  if (options->mask_distance <= 0.0 && !options->mask_hull && options->cutline == NULL)
    return TRUE;

  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();
  g_autoptr (GArray) x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) y = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint f = 0; f < fields->len; f++)
    {
      const ShepardPointLayer *points = g_ptr_array_index (fields, f);
      g_array_append_vals (x, points->x, (guint) points->count);
      g_array_append_vals (y, points->y, (guint) points->count);
    }
  const double *all_x = (const double *) x->data, *all_y = (const double *) y->data;
  if (options->mask_distance > 0.0
      && !shepard_grid_mask_add_distance (mask, all_x, all_y, x->len, options->mask_distance, error))
    return FALSE;
  if (options->mask_hull && !shepard_grid_mask_add_hull (mask, all_x, all_y, x->len, error))
    {
      g_prefix_error (error, "--mask-hull: ");
      return FALSE;
    }
  const ShepardPointLayer *first_field = g_ptr_array_index (fields, 0);
  if (options->cutline != NULL
      && !shepard_grid_mask_add_cutline (mask, options->cutline, options->cutline_layer, first_field->crs_wkt, error))
    return FALSE;
  *result = g_steal_pointer (&mask);
  return TRUE;
}

static gboolean
run (const ShepardGridOptions *options, ShepardTerminalProgress *bar, GError **error)
{
  shepard_params params;
  ShepardMethodNodata method_nodata;
  if (!shepard_method_spec_parse_with_nodata (options->method, &params, &method_nodata, error))
    return FALSE;
  if (!shepard_grid_check_outputs_are_not_source (options, error))
    return FALSE;

  guint n_fields = g_strv_length (options->value_fields);
  /* Checked for the bands of every field before anything is read; the fields' engines come later. */
  g_autofree ShepardGridExportField *unstarted = g_new0 (ShepardGridExportField, n_fields);
  ShepardGridExport request = shepard_grid_export_request (options, NULL, unstarted);
  if (!shepard_grid_export_check (&params, &request, error))
    return FALSE;

  shepard_gpu_set gpus;
  if (!shepard_option_parse_gpus ("--gpus", options->gpus, &gpus, error))
    return FALSE;
  g_auto (ShepardCliGpuStart) gpu_start = { 0 };
  shepard_cli_gpus_start_begin (&gpu_start, options->backend, &gpus);

  g_autoptr (GPtrArray) fields = shepard_cli_read_fields (options->source, options->layer,
                                                          (const char *const *) options->value_fields,
                                                          (const char *const *) options->open_options, error);
  if (fields == NULL)
    return FALSE;
  const ShepardPointLayer *first_field = g_ptr_array_index (fields, 0);
  if (!options->quiet)
    for (guint f = 0; f < fields->len; f++)
      shepard_cli_report_points (g_ptr_array_index (fields, f));
  request.format.crs_wkt = first_field->crs_wkt;
  request.value_name = first_field->field_name;
  double value_min, value_max;
  value_range (fields, &value_min, &value_max);
  if (!shepard_grid_check_values_fit (request.format.data_type, value_min, value_max, error)
      || !shepard_grid_choose_nodata (options, &method_nodata, value_min, value_max, &request.format, error))
    return FALSE;
  g_autoptr (ShepardGridMask) mask = NULL;
  if (!build_mask (options, fields, &mask, error))
    return FALSE;
  request.mask = mask;

  shepard_precision precision = options->float64 ? SHEPARD_PRECISION_FLOAT64 : SHEPARD_PRECISION_FLOAT32;
  shepard_cli_gpus_start_end (&gpu_start);
  g_auto (ShepardFieldEngines) engines = { 0 };
  if (!shepard_field_engines_init (&engines, fields, options->backend, precision, &gpus, error))
    return FALSE;
  shepard_engine *first_engine = engines.fields[0].engine;
  if (!options->quiet)
    fprintf (stderr, "Backend: %s\n", shepard_engine_describe (first_engine));
  if (n_fields > 1)
    request.fields = engines.fields;
  shepard_grid grid;
  if (!plan_grid (options, (shepard_engine *const *) engines.engines->pdata, engines.engines->len, &grid, error))
    return FALSE;
  if (!options->quiet)
    print_summation (first_engine, &params, grid.width * grid.height);
  g_autofree char *method = shepard_method_spec_format_with_nodata (&params, &method_nodata);
  g_autoptr (GString) field_names = g_string_new (NULL);
  for (guint f = 0; f < fields->len; f++)
    g_string_append_printf (field_names, "%s%s", f > 0 ? "," : "",
                            ((const ShepardPointLayer *) g_ptr_array_index (fields, f))->field_name);
  g_autofree char *mask_options = mask != NULL ? shepard_grid_mask_describe (mask) : NULL;
  ShepardRasterProvenance provenance = {
    .source = options->source,
    .layer = first_field->layer_name,
    .field = field_names->str,
    .open_options = (const char *const *) options->open_options,
    .n_points = first_field->count,
    .method = method,
    .engine = first_engine,
    .precision = precision,
    .mask = mask_options,
  };
  g_auto (GStrv) metadata = shepard_raster_metadata_new (&provenance);
  request.format.metadata = (const char *const *) metadata;
  return shepard_grid_export (first_engine, &params, &grid, &request, shepard_terminal_progress_report, bar, error);
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
      errno = 0;
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
