/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid-mpi: shepard-grid over MPI ranks. The raster is cut into tiles; each rank computes and writes tiles as
 * GeoTIFFs (those of DST, and of the rasters of --alpha-out, --r-out and --robs-out), and once every rank has
 * succeeded rank 0 writes each raster over its tiles (a VRT, or one raster of -of's format). */
#include <errno.h>
#include <gdal.h>
#include <glib.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>

#include "cli-run.h"
#include "export-extent.h"
#include "grid-export.h"
#include "grid-mpi-command-line.h"
#include "grid-nodata.h"
#include "grid-outputs.h"
#include "grid-plan.h"
#include "layer-scan.h"
#include "method-spec.h"
#include "point-layer.h"
#include "rank-engines.h"
#include "rank-place.h"
#include "rank-scan.h"
#include "rank-share.h"
#include "raster-metadata.h"
#include "shepard-app-error.h"
#include "terminal-progress.h"
#include "tile-coordinator.h"
#include "tile-mask.h"
#include "tile-plan.h"
#include "tile-points.h"
#include "tiled-output.h"

#define PROGRAM "shepard-grid-mpi"
/* Points a rank alone on its node holds at a time while it scans its share of the layer for local methods; ranks
 * sharing a node share them, as they share its memory for their tiles. */
#define SCAN_LONE_RANK_POINTS_PER_STRIP ((size_t) 1 << 20)
/* Tests only: the rank of this number fails after its first tile, as a rank that breaks mid-run. */
#define TEST_FAIL_RANK_VARIABLE "SHEPARD_GRID_MPI_TEST_FAIL_RANK"

/* The rasters a run writes, each a tiled output of its own. */
typedef enum {
  OUTPUT_VALUES, /* DST */
  OUTPUT_ALPHA,
  OUTPUT_R,
  OUTPUT_R_OBS,
  N_OUTPUTS,
} Output;

/* The path of each output asked for, NULL for the others. */
static void
output_paths (const ShepardGridOptions *options, const char *paths[N_OUTPUTS])
{
  paths[OUTPUT_VALUES] = options->destination;
  paths[OUTPUT_ALPHA] = options->alpha_path;
  paths[OUTPUT_R] = options->r_path;
  paths[OUTPUT_R_OBS] = options->r_obs_path;
}

/* The paths of the outputs asked for, DST first, as the tiled output stages them; returns how many. */
static size_t
asked_outputs (const ShepardGridOptions *options, const char *asked[N_OUTPUTS])
{
  const char *paths[N_OUTPUTS];
  size_t n = 0;

  output_paths (options, paths);
  for (Output output = OUTPUT_VALUES; output < N_OUTPUTS; output++)
    if (paths[output] != NULL)
      asked[n++] = paths[output];
  return n;
}

/* What shepard-grid checks of its outputs before any work (none is the input, no two are one file, the planes exist
 * for the method, DST's format holds its bands), and that the tiled outputs are of one kind with tiles directories of
 * their own. */
static gboolean
check_outputs (const ShepardGridOptions *options, const shepard_params *params, gboolean *is_vrt, GError **error)
{
  const char *asked[N_OUTPUTS];
  size_t n_asked = asked_outputs (options, asked);

  if (!shepard_grid_check_outputs_are_not_source (options, error)
      || !shepard_tiled_output_is_vrt (options->destination, options->format, is_vrt, error))
    return FALSE;
  g_autofree ShepardGridExportField *unstarted = g_new0 (ShepardGridExportField, g_strv_length (options->value_fields));
  /* DST's own format, or the tiles' that a VRT points to, which take -co. */
  ShepardGridExport request = shepard_grid_export_request (options, *is_vrt ? "GTiff" : NULL, unstarted);
  return shepard_grid_export_check (params, &request, error)
         && shepard_tiled_output_check (asked, n_asked, options->format, is_vrt, error);
}

/* Everything a rank needs to compute its tiles. */
typedef struct {
  const ShepardGridMpiOptions *options;
  ShepardRankPlace place;
  shepard_params params;
  ShepardMethodNodata method_nodata;
  gboolean local;                /* the tiles read their own points (tile-points.h) */
  ShepardLayerSource layer;
  GPtrArray *fields;             /* every point (all-points methods) */
  ShepardLayerScan *scan;        /* the whole layer (local methods) */
  ShepardEngineChoice choice;
  ShepardFieldEngines engines;   /* all-points methods: the same for every tile */
  ShepardTilePlan plan;
  ShepardTileMask mask;
  ShepardGridExport request;     /* of a tile; the paths set per tile */
  char *method_text;
  char **metadata;
  char *tiles_directories[N_OUTPUTS]; /* NULL for the outputs not asked for */
  ShepardTerminalProgress *bar;
} RankWork;

static void
rank_work_clear (RankWork *work)
{
  g_clear_pointer (&work->fields, g_ptr_array_unref);
  g_clear_pointer (&work->scan, shepard_layer_scan_free);
  shepard_field_engines_clear (&work->engines);
  shepard_tile_mask_clear (&work->mask);
  g_clear_pointer (&work->method_text, g_free);
  g_clear_pointer (&work->metadata, g_strfreev);
  for (Output output = OUTPUT_VALUES; output < N_OUTPUTS; output++)
    g_clear_pointer (&work->tiles_directories[output], g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RankWork, rank_work_clear)

static void
say (const RankWork *work, const char *format, ...) G_GNUC_PRINTF (2, 3);

static void
say (const RankWork *work, const char *format, ...)
{
  va_list arguments;

  if (work->place.rank != 0 || work->options->grid.quiet)
    return;
  va_start (arguments, format);
  vfprintf (stderr, format, arguments);
  va_end (arguments);
}

/* Whether every rank scanned its part; if not, error says why: on rank 0 its own failure (own_error), which it says
 * last, elsewhere "another rank failed". The ranks read one layer, so that rank 0's failure says what theirs would: a
 * rank says its own (a cancel needs no word) only where rank 0 succeeded. */
static gboolean
agree_on_scan (const RankWork *work, gboolean scanned, GError **own_error, GError **error)
{
  gboolean root = work->place.rank == 0;
  int outcomes[2] = { scanned, root ? scanned : TRUE }; /* every rank's, rank 0's */

  MPI_Allreduce (MPI_IN_PLACE, outcomes, G_N_ELEMENTS (outcomes), MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (outcomes[0])
    return TRUE;
  if (!root && outcomes[1] && *own_error != NULL
      && !g_error_matches (*own_error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED))
    fprintf (stderr, "%s: rank %d: %s\n", PROGRAM, work->place.rank, (*own_error)->message);
  if (root && *own_error != NULL)
    g_propagate_error (error, g_steal_pointer (own_error));
  else
    g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE, "another rank failed");
  return FALSE;
}

/* Each rank scans its share of the layer's strips; of their parts every rank makes the whole layer's scan. */
static gboolean
scan_layer (RankWork *work, GError **error)
{
  ShepardTerminalProgress watch_cancel;
  g_autoptr (GError) own_error = NULL;

  shepard_terminal_progress_init (&watch_cancel, NULL, work->bar->cancel_requested);
  size_t points_per_strip = SCAN_LONE_RANK_POINTS_PER_STRIP / (size_t) MAX (work->place.busiest_node_size, 1);
  g_autoptr (ShepardLayerScan) scan = shepard_layer_scan_part (&work->layer, points_per_strip,
                                                                (size_t) work->place.rank, (size_t) work->place.size,
                                                                shepard_terminal_progress_report, &watch_cancel,
                                                                &own_error);
  if (!agree_on_scan (work, scan != NULL, &own_error, error))
    return FALSE;
  shepard_rank_scan_combine (MPI_COMM_WORLD, scan);
  if (!shepard_layer_scan_finish (scan, work->layer.source, error))
    return FALSE;
  work->scan = g_steal_pointer (&scan);
  for (size_t f = 0; f < work->scan->n_fields; f++)
    say (work, "Input: %zu points of layer \"%s\", field \"%s\" (read by each rank around its tiles)\n",
         work->scan->fields[f].n, work->scan->layer_name, work->scan->field_names[f]);
  return TRUE;
}

/* The points: rank 0 reads every point and sends them to every rank, or the ranks scan the whole layer together. */
static gboolean
read_points (RankWork *work, GError **error)
{
  const ShepardGridOptions *options = &work->options->grid;
  gboolean root = work->place.rank == 0;
  g_autoptr (GError) own_error = NULL;

  if (!work->local)
    {
      if (root)
        work->fields = shepard_cli_read_fields (options->source, options->layer,
                                                (const char *const *) options->value_fields,
                                                (const char *const *) options->open_options, &own_error);
      if (!shepard_rank_share_outcome (MPI_COMM_WORLD, !root || work->fields != NULL, error))
        {
          if (own_error != NULL)
            g_propagate_error (error, g_steal_pointer (&own_error));
          return FALSE;
        }
      if (root && !options->quiet)
        for (guint f = 0; f < work->fields->len; f++)
          shepard_cli_report_points (g_ptr_array_index (work->fields, f));
      shepard_rank_share_fields (MPI_COMM_WORLD, &work->fields);
      return TRUE;
    }
  return scan_layer (work, error);
}

static void
value_range (const RankWork *work, double *value_min, double *value_max)
{
  *value_min = INFINITY;
  *value_max = -INFINITY;
  if (work->local)
    for (size_t f = 0; f < work->scan->n_fields; f++)
      {
        *value_min = MIN (*value_min, work->scan->fields[f].z_min);
        *value_max = MAX (*value_max, work->scan->fields[f].z_max);
      }
  else
    for (guint f = 0; f < work->fields->len; f++)
      {
        const ShepardPointLayer *points = g_ptr_array_index (work->fields, f);
        for (size_t i = 0; i < points->count; i++)
          {
            *value_min = MIN (*value_min, points->z[i]);
            *value_max = MAX (*value_max, points->z[i]);
          }
      }
}

static void
points_bounds (const RankWork *work, double bounds[4])
{
  if (work->local)
    {
      shepard_layer_scan_bounds (work->scan, bounds);
      return;
    }
  bounds[0] = bounds[1] = INFINITY;
  bounds[2] = bounds[3] = -INFINITY;
  for (guint e = 0; e < work->engines.engines->len; e++)
    {
      double other[4];
      shepard_engine_bounds (g_ptr_array_index (work->engines.engines, e), &other[0], &other[1], &other[2],
                             &other[3]);
      bounds[0] = MIN (bounds[0], other[0]);
      bounds[1] = MIN (bounds[1], other[1]);
      bounds[2] = MAX (bounds[2], other[2]);
      bounds[3] = MAX (bounds[3], other[3]);
    }
}

static gboolean
plan_tiles (RankWork *work, GError **error)
{
  double bounds[4], extent[4];
  shepard_grid raster;

  points_bounds (work, bounds);
  if (!shepard_grid_plan (&work->options->grid, bounds, extent, &raster, error))
    return FALSE;
  /* A local method's tile (its points, halo and cells) is most of what a rank holds; over all points, every point. */
  size_t tile_size = work->options->tile_size;
  if (tile_size == 0)
    tile_size = work->local ? shepard_tile_plan_shared_size (SHEPARD_GRID_MPI_LONE_RANK_TILE_SIZE,
                                                             work->place.busiest_node_size)
                            : SHEPARD_GRID_MPI_LONE_RANK_TILE_SIZE;
  shepard_tile_plan_init (&work->plan, &raster, tile_size);
  const double corners[4] = { extent[0], extent[2], extent[1], extent[3] };
  int decimals = shepard_export_decimals (corners, G_N_ELEMENTS (corners), MIN (raster.dx, raster.dy));
  say (work, "Grid: %zu x %zu cells of %.6g x %.6g, x %.*f to %.*f, y %.*f to %.*f, in %zu tiles of %zu over %d "
       "ranks (%s)\n", raster.width, raster.height, raster.dx, raster.dy, decimals, extent[0], decimals, extent[2],
       decimals, extent[1], decimals, extent[3], work->plan.count, work->plan.tile_size, work->place.size,
       work->options->schedule == SHEPARD_TILE_SCHEDULE_STATIC ? "static" : "dynamic");
  return TRUE;
}

/* The tiles' format (GeoTIFF, the raster's data type, nodata, CRS and metadata) and bands, as shepard-grid's. */
static gboolean
prepare_request (RankWork *work, gboolean is_vrt, GError **error)
{
  const ShepardGridOptions *options = &work->options->grid;
  double value_min, value_max;

  value_range (work, &value_min, &value_max);
  work->request = (ShepardGridExport) {
    .extra_bands = options->extra_bands,
    .format = {
      .driver_name = "GTiff",
      .data_type = options->float64 ? GDT_Float64 : GDT_Float32,
      /* -co belongs to DST's format; a VRT has none, so they go to its tiles. */
      .creation_options = is_vrt ? (const char *const *) options->creation_options : NULL,
    },
  };
  /* Its warnings once, from rank 0. */
  ShepardGridOptions said_once = *options;
  said_once.quiet = options->quiet || work->place.rank != 0;
  if (!shepard_grid_check_values_fit (work->request.format.data_type, value_min, value_max, error)
      || !shepard_grid_choose_nodata (&said_once, &work->method_nodata, value_min, value_max, &work->request.format,
                                      error))
    return FALSE;
  if (work->local)
    {
      work->request.format.crs_wkt = work->scan->crs_wkt;
      work->request.value_name = work->scan->field_names[0];
    }
  else
    {
      const ShepardPointLayer *first = g_ptr_array_index (work->fields, 0);
      work->request.format.crs_wkt = first->crs_wkt;
      work->request.value_name = first->field_name;
    }
  return TRUE;
}

static void
describe_provenance (RankWork *work, shepard_engine *engine)
{
  const ShepardGridOptions *options = &work->options->grid;
  g_autofree char *field_names = g_strjoinv (",", options->value_fields);
  ShepardRasterProvenance provenance = {
    .source = options->source,
    .layer = work->local ? work->scan->layer_name
                         : ((const ShepardPointLayer *) g_ptr_array_index (work->fields, 0))->layer_name,
    .field = field_names,
    .open_options = (const char *const *) options->open_options,
    .n_points = work->local ? work->scan->fields[0].n
                            : ((const ShepardPointLayer *) g_ptr_array_index (work->fields, 0))->count,
    .method = work->method_text,
    .engine = engine,
    .precision = work->choice.precision,
    .mask = work->mask.description,
  };
  g_clear_pointer (&work->metadata, g_strfreev);
  work->metadata = shepard_raster_metadata_new (&provenance);
  work->request.format.metadata = (const char *const *) work->metadata;
}

/* Computes and writes one tile: its window of the raster, into the tiles directory of each output. */
static gboolean
write_tile (RankWork *work, ShepardTileCoordinator *coordinator, size_t index, GError **error)
{
  shepard_grid window;
  g_auto (ShepardFieldEngines) tile_engines = { 0 };
  g_autoptr (GPtrArray) tile_points = NULL;
  ShepardFieldEngines *engines = &work->engines;

  shepard_tile_plan_window (&work->plan, index, &window);
  if (work->local)
    {
      double halo;
      if (!shepard_tile_points_read (&work->layer, work->scan, &work->params, &window, work->mask.halo,
                                     &work->choice, &tile_engines, &tile_points, &halo,
                                     shepard_tile_coordinator_report, coordinator, error)
          || (work->mask.mask != NULL && !shepard_tile_mask_set_tile_points (&work->mask, tile_points, error)))
        return FALSE;
      engines = &tile_engines;
    }
  shepard_engine *first = g_ptr_array_index (engines->engines, 0);
  if (work->metadata == NULL)
    describe_provenance (work, first);
  g_autofree char *name = shepard_tile_plan_file_name (&work->plan, index);
  char *paths[N_OUTPUTS] = { NULL };
  for (Output output = OUTPUT_VALUES; output < N_OUTPUTS; output++)
    if (work->tiles_directories[output] != NULL)
      paths[output] = g_build_filename (work->tiles_directories[output], name, NULL);
  ShepardGridExport request = work->request;
  request.value_path = paths[OUTPUT_VALUES];
  request.alpha_path = paths[OUTPUT_ALPHA];
  request.r_path = paths[OUTPUT_R];
  request.r_obs_path = paths[OUTPUT_R_OBS];
  if (engines->n_fields > 1)
    {
      request.fields = engines->fields;
      request.n_fields = engines->n_fields;
    }
  gboolean written = shepard_grid_export (first, &work->params, &window, &request, shepard_tile_coordinator_report,
                                          coordinator, error);
  for (Output output = OUTPUT_VALUES; output < N_OUTPUTS; output++)
    g_free (paths[output]);
  return written;
}

/* This rank's tiles, one after another, until none is left or any rank fails. */
static gboolean
write_tiles (RankWork *work, ShepardTileCoordinator *coordinator, GError **error)
{
  const char *fail_rank = g_getenv (TEST_FAIL_RANK_VARIABLE);
  size_t index;

  while (shepard_tile_coordinator_next_tile (coordinator, &index))
    {
      if (!write_tile (work, coordinator, index, error))
        return FALSE;
      shepard_tile_coordinator_tile_done (coordinator);
      if (fail_rank != NULL && atoi (fail_rank) == work->place.rank)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "failed after tile %zu, as %s asked",
                       index, TEST_FAIL_RANK_VARIABLE);
          return FALSE;
        }
    }
  return !shepard_tile_coordinator_cancelled (coordinator);
}

static size_t *
cells_of_tiles (const ShepardTilePlan *plan)
{
  size_t *cells = g_new (size_t, plan->count);

  for (size_t i = 0; i < plan->count; i++)
    {
      shepard_grid window;
      shepard_tile_plan_window (plan, i, &window);
      cells[i] = window.width * window.height;
    }
  return cells;
}

/* "Peak memory per rank: ..." on rank 0 (getrusage's maximum resident set of each rank). Collective. */
static void
report_peak_memory (const RankWork *work)
{
  struct rusage usage;
  long mine = getrusage (RUSAGE_SELF, &usage) == 0 ? usage.ru_maxrss : 0;
  g_autofree long *peaks = work->place.rank == 0 ? g_new (long, work->place.size) : NULL;

  MPI_Gather (&mine, 1, MPI_LONG, peaks, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (work->place.rank != 0 || work->options->grid.quiet)
    return;
  shepard_terminal_progress_end_line (work->bar);
  fputs ("Peak memory per rank (MB):", stderr);
  for (int rank = 0; rank < work->place.size; rank++)
    fprintf (stderr, " %.1f", (double) peaks[rank] / 1024.0);
  fputc ('\n', stderr);
}

/* The part of the run after every rank knows the points: tiles, then DST. *interrupted: a signal stopped a wait on
 * the other ranks, which must not be waited on again. */
static gboolean
compute_and_assemble (RankWork *work, gboolean is_vrt, gboolean *interrupted, GError **error)
{
  const ShepardGridOptions *options = &work->options->grid;
  gboolean root = work->place.rank == 0;
  g_autoptr (ShepardTiledOutput) output = NULL;
  g_autoptr (GError) own_error = NULL;

  if (root)
    {
      const char *asked[N_OUTPUTS], *paths[N_OUTPUTS];
      size_t n_asked = asked_outputs (options, asked), index = 0;
      output = shepard_tiled_output_new (asked, n_asked, is_vrt, &own_error);
      output_paths (options, paths);
      for (Output kind = OUTPUT_VALUES; output != NULL && kind < N_OUTPUTS; kind++)
        if (paths[kind] != NULL)
          work->tiles_directories[kind] = g_strdup (shepard_tiled_output_get_tiles_directory (output, index++));
    }
  if (!shepard_rank_share_outcome (MPI_COMM_WORLD, !root || output != NULL, error))
    {
      if (own_error != NULL)
        g_propagate_error (error, g_steal_pointer (&own_error));
      return FALSE;
    }
  for (Output kind = OUTPUT_VALUES; kind < N_OUTPUTS; kind++)
    shepard_rank_share_string (MPI_COMM_WORLD, &work->tiles_directories[kind]);

  g_autofree size_t *cells = cells_of_tiles (&work->plan);
  g_autoptr (ShepardTileCoordinator) coordinator
    = shepard_tile_coordinator_new (MPI_COMM_WORLD, work->options->schedule, work->plan.count, cells, work->bar);
  gboolean written = write_tiles (work, coordinator, &own_error);
  /* A rank stopped because another failed has nothing to say; rank 0 says its own failure last. */
  if (!root && own_error != NULL && !g_error_matches (own_error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED))
    fprintf (stderr, "%s: rank %d: %s\n", PROGRAM, work->place.rank, own_error->message);
  if (!shepard_tile_coordinator_finish (coordinator, written, interrupted))
    {
      if (own_error != NULL && (root || shepard_tile_coordinator_cancelled (coordinator)))
        g_propagate_error (error, g_steal_pointer (&own_error));
      else
        g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                             written ? "another rank failed" : "this rank failed");
      return FALSE;
    }
  report_peak_memory (work);
  if (!root)
    return TRUE;
  return shepard_tiled_output_commit (output, &work->plan, &work->request.format, shepard_terminal_progress_report,
                                      work->bar, error);
}

/* The engines (all-points methods), the tiles, their format and mask: what may fail on one rank and not another. */
static gboolean
prepare (RankWork *work, gboolean is_vrt, GError **error)
{
  if (!work->local && !shepard_rank_engines_init (&work->engines, work->fields, NULL, &work->choice, error))
    return FALSE;
  if (!plan_tiles (work, error) || !prepare_request (work, is_vrt, error)
      || !shepard_tile_mask_init (&work->mask, &work->options->grid, work->local ? NULL : work->fields, work->scan,
                                  work->request.format.crs_wkt, error))
    return FALSE;
  work->method_text = shepard_method_spec_format_with_nodata (&work->params, &work->method_nodata);
  work->request.mask = work->mask.mask;
  /* Each engine of each tile sums the way shepard-grid's engine sums the whole raster. */
  work->request.summation_cells = work->plan.raster.width * work->plan.raster.height;
  if (!work->local)
    say (work, "Backend (rank 0): %s\n",
         shepard_engine_describe (g_ptr_array_index (work->engines.engines, 0)));
  return TRUE;
}

/* Whether every rank succeeded. */
static gboolean
agree (gboolean succeeded)
{
  int mine = succeeded, all = 0;

  MPI_Allreduce (&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

static gboolean
run (const ShepardGridMpiOptions *mpi_options, ShepardTerminalProgress *bar, gboolean *interrupted, GError **error)
{
  const ShepardGridOptions *options = &mpi_options->grid;
  g_auto (RankWork) work = { .options = mpi_options, .bar = bar };
  gboolean is_vrt = FALSE;

  shepard_rank_place_init (&work.place, MPI_COMM_WORLD);
  if (!shepard_method_spec_parse_with_nodata (options->method, &work.params, &work.method_nodata, error)
      || !check_outputs (options, &work.params, &is_vrt, error))
    return FALSE;
  shepard_precision precision = options->float64 ? SHEPARD_PRECISION_FLOAT64 : SHEPARD_PRECISION_FLOAT32;
  if (!shepard_rank_place_choose_engine (&work.place, options->backend, precision, options->gpus, &work.choice,
                                         error))
    return FALSE;
  /* The rank's GPU starts while rank 0 reads the points. */
  g_auto (ShepardCliGpuStart) gpu_start = { 0 };
  shepard_cli_gpus_start_begin (&gpu_start, work.choice.backend, &work.choice.gpus);
  work.local = shepard_tile_points_apply (&work.params);
  work.layer = (ShepardLayerSource) {
    .source = options->source,
    .layer = options->layer,
    .value_fields = (const char *const *) options->value_fields,
    .open_options = (const char *const *) options->open_options,
  };
  if (!read_points (&work, error))
    return FALSE;
  shepard_cli_gpus_start_end (&gpu_start);
  g_autoptr (GError) own_error = NULL;
  gboolean ready = prepare (&work, is_vrt, &own_error);
  if (!ready && work.place.rank != 0)
    fprintf (stderr, "%s: rank %d: %s\n", PROGRAM, work.place.rank, own_error->message);
  if (!agree (ready))
    {
      if (own_error != NULL && work.place.rank == 0)
        g_propagate_error (error, g_steal_pointer (&own_error));
      else
        g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE, "another rank failed");
      return FALSE;
    }
  return compute_and_assemble (&work, is_vrt, interrupted, error);
}

int
main (int argc, char **argv)
{
  int provided, rank;
  MPI_Init_thread (&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);

  g_auto (ShepardGridMpiOptions) options = { 0 };
  g_autoptr (GError) error = NULL;
  int status = EXIT_SUCCESS;
  if (!shepard_grid_mpi_options_parse (&options, argc, (const char *const *) argv, &error))
    {
      if (rank == 0)
        shepard_cli_print_error (PROGRAM, error, NULL);
      MPI_Finalize ();
      return SHEPARD_CLI_EXIT_USAGE;
    }
  if (options.grid.help)
    {
      if (rank == 0)
        {
          g_autofree char *usage = shepard_grid_mpi_usage ();
          errno = 0;
          fputs (usage, stdout);
          status = shepard_cli_finish_stdout (PROGRAM, "the usage");
        }
      MPI_Finalize ();
      return status;
    }

  shepard_cli_init ();
  ShepardTerminalProgress bar;
  shepard_terminal_progress_init (&bar, options.grid.quiet || rank != 0 ? NULL : stderr, shepard_cli_cancel_flag ());
  gboolean interrupted = FALSE;
  if (!run (&options, &bar, &interrupted, &error))
    {
      shepard_terminal_progress_end_line (&bar);
      /* The other ranks said what went wrong on them as it did. */
      if (rank == 0)
        shepard_cli_print_error (PROGRAM, error, "no output was written");
      status = shepard_cli_exit_status_for (error);
    }
  GDALDestroyDriverManager ();
  /* The other ranks were left mid-way: ending as MPI_Finalize would wait on them forever. */
  if (interrupted)
    MPI_Abort (MPI_COMM_WORLD, status);
  MPI_Finalize ();
  return status;
}
