/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-export.h"

#include <math.h>

#include "atomic-raster.h"
#include "band-conversion.h"
#include "file-identity.h"
#include "grid-extent.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"

/* Share of the progress bar taken by computing when the rasters still have to be copied into their format. */
#define COMPUTE_SHARE_BEFORE_COPY 0.9

static gboolean
report_cancelled (GError **error)
{
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
  return FALSE;
}

/* The format as every raster is written in it: the driver's default creation options added to the request's, and a
 * nodata value on every band even where the request gives none. */
typedef struct {
  ShepardRasterFormat format;
  char **creation_options;
} WrittenFormat;

static void
written_format_init (WrittenFormat *written, const ShepardRasterFormat *requested)
{
  written->format = *requested;
  written->creation_options = shepard_raster_format_creation_options (requested);
  written->format.creation_options = (const char *const *) written->creation_options;
  if (!requested->has_nodata)
    {
      written->format.has_nodata = TRUE;
      written->format.nodata = shepard_raster_default_nodata (requested->data_type, NAN, NAN);
    }
}

static void
written_format_clear (WrittenFormat *written)
{
  g_clear_pointer (&written->creation_options, g_strfreev);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (WrittenFormat, written_format_clear)

/* The surfaces of an export, in the order of the bands of the value raster. */
typedef enum {
  PLANE_VALUES,
  PLANE_ALPHA,
  PLANE_R,
  PLANE_R_OBS,
  N_PLANES,
} Plane;

static const struct {
  ShepardGridExportPlanes flag;
  const char *name;
  const char *meaning; /* for a message that refuses it */
} planes[N_PLANES] = {
  [PLANE_VALUES] = { 0, "value", "the interpolated values" },
  [PLANE_ALPHA] = { SHEPARD_GRID_EXPORT_ALPHA, "alpha", "the power used at each cell" },
  [PLANE_R] = { SHEPARD_GRID_EXPORT_R, "R", "AIDW's density ratio r_obs / r_exp" },
  [PLANE_R_OBS] = { SHEPARD_GRID_EXPORT_R_OBS, "r_obs", "AIDW's mean distance to the k nearest data points" },
};

const char *
shepard_grid_export_plane_name (ShepardGridExportPlanes plane)
{
  for (int i = PLANE_ALPHA; i < N_PLANES; i++)
    if (planes[i].flag == plane)
      return planes[i].name;
  g_return_val_if_reached (NULL);
}

/* The raster of its own that the request asks for a plane, or NULL; the value raster for PLANE_VALUES. */
static const char *
plane_path (const ShepardGridExport *request, Plane plane)
{
  const char *paths[N_PLANES] = { request->value_path, request->alpha_path, request->r_path, request->r_obs_path };

  return paths[plane];
}

static gboolean
asks_for (const ShepardGridExport *request, Plane plane)
{
  return (request->extra_bands & planes[plane].flag) != 0 || plane_path (request, plane) != NULL;
}

gboolean
shepard_grid_export_check (const shepard_params *params, const ShepardGridExport *request, GError **error)
{
  g_return_val_if_fail (params != NULL && request != NULL && request->value_path != NULL, FALSE);
  g_return_val_if_fail ((request->extra_bands & ~SHEPARD_GRID_EXPORT_ALL_PLANES) == 0, FALSE);
  g_return_val_if_fail ((request->fields == NULL) == (request->n_fields == 0), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* IDW measures no density around a cell; its alpha is the power p of every cell, which the engine writes. */
  if (params->method != SHEPARD_METHOD_AIDW)
    for (Plane plane = PLANE_R; plane <= PLANE_R_OBS; plane++)
      if (asks_for (request, plane))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "%s (%s) exists only for AIDW: choose the aidw method, or write %s neither as a band nor as "
                       "a raster of its own",
                       planes[plane].name, planes[plane].meaning, planes[plane].name);
          return FALSE;
        }
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    for (Plane other = PLANE_VALUES; other < plane; other++)
      if (plane_path (request, plane) != NULL && plane_path (request, other) != NULL
          && shepard_paths_name_same_file (plane_path (request, plane), plane_path (request, other)))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                       "the %s raster \"%s\" is also the %s raster: give each raster a file of its own",
                       planes[plane].name, plane_path (request, plane), planes[other].name);
          return FALSE;
        }
  size_t value_bands = MAX (request->n_fields, 1);
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    value_bands += (request->extra_bands & planes[plane].flag) != 0;
  g_auto (WrittenFormat) written = { 0 };
  written_format_init (&written, &request->format);
  return shepard_raster_format_find_driver_for_bands (&written.format, value_bands, error) != NULL;
}

/* What one band of a raster holds: a plane, and for the values which field. */
typedef struct {
  Plane plane;
  size_t field; /* PLANE_VALUES: the index into ExportPlan.fields */
} ExportBand;

/* One raster to write and what each of its bands holds. */
typedef struct {
  ShepardAtomicRaster *raster;
  size_t n_bands;
  ExportBand *bands;
} ExportRaster;

/* An engine the export computes with, once per band of rows: all its fields at a time. */
typedef struct {
  shepard_engine *engine;
  size_t n_fields;
} ExportEngine;

typedef struct {
  ExportRaster rasters[N_PLANES]; /* the value raster first, then each plane asked for in a raster of its own */
  size_t n_rasters;
  gboolean computed[N_PLANES];    /* the planes written anywhere, and r_obs for R */
  ShepardGridExportField *fields; /* the value bands */
  size_t n_fields;
  ExportEngine *engines;          /* the engine given first (alpha, R and r_obs are its), then the fields' others */
  size_t n_engines;
  size_t *engine_of_field;        /* n_fields */
  ShepardGridMask *mask;          /* borrowed from the request; NULL: none */
  size_t summation_cells;         /* the cells each engine chooses its summation for */
} ExportPlan;

static void
export_plan_clear (ExportPlan *plan)
{
  for (size_t i = 0; i < plan->n_rasters; i++)
    {
      g_clear_pointer (&plan->rasters[i].raster, shepard_atomic_raster_free);
      g_clear_pointer (&plan->rasters[i].bands, g_free);
    }
  g_clear_pointer (&plan->fields, g_free);
  g_clear_pointer (&plan->engines, g_free);
  g_clear_pointer (&plan->engine_of_field, g_free);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ExportPlan, export_plan_clear)

/* The value fields and the engines that compute them, each engine once however many of its fields are written. */
static void
plan_fields (shepard_engine *engine, const ShepardGridExport *request, ExportPlan *plan)
{
  const ShepardGridExportField one_field = { engine, 0, request->value_name };
  const ShepardGridExportField *fields = request->fields != NULL ? request->fields : &one_field;

  plan->n_fields = MAX (request->n_fields, 1);
  plan->fields = g_memdup2 (fields, plan->n_fields * sizeof *fields);
  plan->engines = g_new0 (ExportEngine, plan->n_fields + 1);
  plan->engine_of_field = g_new0 (size_t, plan->n_fields);
  plan->engines[plan->n_engines++] = (ExportEngine) { engine, shepard_engine_n_fields (engine) };
  for (size_t field = 0; field < plan->n_fields; field++)
    {
      size_t index = 0;
      while (index < plan->n_engines && plan->engines[index].engine != fields[field].engine)
        index++;
      if (index == plan->n_engines)
        plan->engines[plan->n_engines++]
          = (ExportEngine) { fields[field].engine, shepard_engine_n_fields (fields[field].engine) };
      plan->engine_of_field[field] = index;
    }
}

static void
plan_export (shepard_engine *engine, const ShepardGridExport *request, ExportPlan *plan)
{
  plan_fields (engine, request, plan);
  ExportRaster *value_raster = &plan->rasters[plan->n_rasters++];

  value_raster->bands = g_new (ExportBand, plan->n_fields + N_PLANES - 1);
  for (size_t field = 0; field < plan->n_fields; field++)
    value_raster->bands[value_raster->n_bands++] = (ExportBand) { PLANE_VALUES, field };
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if ((request->extra_bands & planes[plane].flag) != 0)
      value_raster->bands[value_raster->n_bands++] = (ExportBand) { plane, 0 };
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if (plane_path (request, plane) != NULL)
      {
        ExportRaster *own = &plan->rasters[plan->n_rasters++];
        own->bands = g_new (ExportBand, 1);
        own->bands[own->n_bands++] = (ExportBand) { plane, 0 };
      }
  for (size_t i = 0; i < plan->n_rasters; i++)
    for (size_t band = 0; band < plan->rasters[i].n_bands; band++)
      plan->computed[plan->rasters[i].bands[band].plane] = TRUE;
  plan->computed[PLANE_R_OBS] |= plan->computed[PLANE_R];
}

static const char *
band_description (const ExportPlan *plan, const ExportBand *band)
{
  if (band->plane != PLANE_VALUES)
    return planes[band->plane].name;
  const char *name = plan->fields[band->field].name;
  return name != NULL ? name : planes[PLANE_VALUES].name;
}

/* Creates every raster of the plan, so that whatever the format refuses is refused before any work. */
static gboolean
create_rasters (const ShepardGridExport *request, const shepard_grid *grid, ExportPlan *plan, GError **error)
{
  double geotransform[6];
  g_auto (WrittenFormat) written = { 0 };

  shepard_grid_geotransform (grid, geotransform);
  written_format_init (&written, &request->format);
  for (size_t i = 0; i < plan->n_rasters; i++)
    {
      ExportRaster *output = &plan->rasters[i];
      g_autofree const char **descriptions = g_new (const char *, output->n_bands);
      for (size_t band = 0; band < output->n_bands; band++)
        descriptions[band] = band_description (plan, &output->bands[band]);
      /* One band needs no name; left undescribed, it is written as before (no PAM side-car where a format cannot
       * store descriptions). */
      output->raster = shepard_atomic_raster_create_bands (plane_path (request, output->bands[0].plane),
                                                           &written.format, grid->width, grid->height,
                                                           output->n_bands, output->n_bands > 1 ? descriptions : NULL,
                                                           geotransform, error);
      if (output->raster == NULL)
        return FALSE;
    }
  return TRUE;
}

/* Bands are windows of the grid starting at multiples of SHEPARD_GRID_WINDOW_ALIGN rows, so that each cell's value
 * does not depend on the bands' height (shepard_grid). Where a band holds a row of the rasters' blocks, it holds
 * whole rows of them, so that each band's blocks are written (compressed) while the next band is computed. */
static size_t
rows_per_band (const shepard_grid *grid, size_t band_bytes, size_t outputs, size_t block_height)
{
  size_t row_bytes = grid->width * outputs * sizeof (double);
  size_t rows = band_bytes / row_bytes / SHEPARD_GRID_WINDOW_ALIGN * SHEPARD_GRID_WINDOW_ALIGN;
  size_t whole_blocks = rows / block_height * block_height;

  if (whole_blocks > 0 && whole_blocks % SHEPARD_GRID_WINDOW_ALIGN == 0)
    rows = whole_blocks;
  return CLAMP (rows, (size_t) SHEPARD_GRID_WINDOW_ALIGN, grid->height);
}

/* A band of rows in memory: the planes computed, and each engine's values (n_fields planes, field after field, as
 * the engine writes them; a band of fewer rows than the most lies packed at its own size). The export keeps two, so
 * that one band is written while the next is computed. */
typedef struct {
  double *memory;
  double *rows_of[N_PLANES];
  double **values; /* per engine */
} BandBuffer;

static void
band_buffer_clear (BandBuffer *buffer)
{
  g_clear_pointer (&buffer->memory, g_free);
  g_clear_pointer (&buffer->values, g_free);
}

static gboolean
band_buffer_init (BandBuffer *buffer, const ExportPlan *plan, size_t band_cells, size_t n_computed)
{
  *buffer = (BandBuffer) { g_try_malloc_n (band_cells, n_computed * sizeof (double)), { NULL },
                           g_new0 (double *, plan->n_engines) };
  if (buffer->memory == NULL)
    return FALSE;
  double *next = buffer->memory;
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if (plan->computed[plane])
      {
        buffer->rows_of[plane] = next;
        next += band_cells;
      }
  for (size_t i = 0; i < plan->n_engines; i++)
    {
      buffer->values[i] = next;
      next += plan->engines[i].n_fields * band_cells;
    }
  return TRUE;
}

/* The rows of a band that a raster's band holds. */
static double *
rows_for_band (const ExportPlan *plan, const BandBuffer *buffer, const ExportBand *band, size_t cells)
{
  if (band->plane != PLANE_VALUES)
    return buffer->rows_of[band->plane];
  return buffer->values[plan->engine_of_field[band->field]] + plan->fields[band->field].field * cells;
}

/* Sets the masked cells of a band of rows to NaN in every plane computed, values of every field included. */
static gboolean
mask_band (const ExportPlan *plan, const shepard_grid *grid, const BandBuffer *buffer, size_t first_row, size_t rows,
           GError **error)
{
  size_t cells = rows * grid->width;
  g_autoptr (GPtrArray) band_planes = g_ptr_array_new ();

  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    if (buffer->rows_of[plane] != NULL)
      g_ptr_array_add (band_planes, buffer->rows_of[plane]);
  for (size_t i = 0; i < plan->n_engines; i++)
    for (size_t field = 0; field < plan->engines[i].n_fields; field++)
      g_ptr_array_add (band_planes, buffer->values[i] + field * cells);
  return shepard_grid_mask_apply (plan->mask, grid, first_row, rows, (double *const *) band_planes->pdata,
                                  band_planes->len, error);
}

/* The writing of a computed band: R from r_obs, the mask, nodata, and the rows into every raster. A cell with no data
 * is NaN in the engine's output (and a masked cell, in any plane): the raster's nodata value. */
typedef struct {
  const ExportPlan *plan;
  const shepard_grid *grid;
  const BandBuffer *buffer;
  size_t first_row, rows;
  double r_exp, nodata;
  ShepardBandConverter *converter;
  void *converted; /* a band's cells in the rasters' data type */
  GError *error;
} BandWrite;

static gpointer
write_band (gpointer data)
{
  BandWrite *write = data;
  const ExportPlan *plan = write->plan;
  const BandBuffer *buffer = write->buffer;
  size_t cells = write->rows * write->grid->width;

  if (buffer->rows_of[PLANE_R] != NULL)
    for (size_t i = 0; i < cells; i++)
      buffer->rows_of[PLANE_R][i] = buffer->rows_of[PLANE_R_OBS][i] / write->r_exp;
  if (plan->mask != NULL && !mask_band (plan, write->grid, buffer, write->first_row, write->rows, &write->error))
    return GINT_TO_POINTER (FALSE);
  for (size_t i = 0; i < plan->n_rasters; i++)
    {
      for (size_t b = 0; b < plan->rasters[i].n_bands; b++)
        {
          shepard_band_converter_run (write->converter, rows_for_band (plan, buffer, &plan->rasters[i].bands[b], cells),
                                      cells, write->nodata,
                                      shepard_atomic_raster_get_data_type (plan->rasters[i].raster), write->converted);
          if (!shepard_atomic_raster_write_band_rows_converted (plan->rasters[i].raster, b + 1, write->first_row,
                                                                write->rows, write->converted, &write->error))
            return GINT_TO_POINTER (FALSE);
        }
      if (!shepard_atomic_raster_rows_written (plan->rasters[i].raster, write->first_row + write->rows,
                                               &write->error))
        return GINT_TO_POINTER (FALSE);
    }
  return GINT_TO_POINTER (TRUE);
}

/* The band being written while the next is computed: a thread of its own, or none (written already). */
typedef struct {
  GThread *thread;
  BandWrite write;
} BandWriter;

/* Writes the band in the background, or here if no thread can start. */
static void
band_writer_start (BandWriter *writer, const BandWrite *write)
{
  writer->write = *write;
  writer->thread = g_thread_try_new ("shepard-export-writer", write_band, &writer->write, NULL);
  if (writer->thread == NULL)
    write_band (&writer->write);
}

/* Waits for the band being written; FALSE with its error (into error when not NULL, else dropped) if it failed. */
static gboolean
band_writer_finish (BandWriter *writer, GError **error)
{
  if (writer->thread != NULL)
    g_thread_join (g_steal_pointer (&writer->thread));
  if (writer->write.error == NULL)
    return TRUE;
  if (error != NULL && *error == NULL)
    g_propagate_error (error, g_steal_pointer (&writer->write.error));
  g_clear_error (&writer->write.error);
  return FALSE;
}

/* Computes the bands one after another, each written (GDAL) while the next is computed (the engine), so that an
 * export takes about the longer of the two, not their sum. */
static gboolean
compute_and_write (const shepard_params *params, const shepard_grid *grid, const ExportPlan *plan, double r_exp,
                   double nodata, size_t band_bytes, const ShepardScaledProgress *compute_progress, GError **error)
{
  size_t n_computed = 0;
  for (Plane plane = PLANE_ALPHA; plane < N_PLANES; plane++)
    n_computed += plan->computed[plane];
  for (size_t i = 0; i < plan->n_engines; i++)
    n_computed += plan->engines[i].n_fields;

  size_t band_rows = rows_per_band (grid, band_bytes, n_computed,
                                    shepard_atomic_raster_get_block_height (plan->rasters[0].raster));
  size_t band_cells = band_rows * grid->width;
  BandBuffer buffers[2] = { { 0 }, { 0 } };
  /* Every raster has the request's data type. */
  GDALDataType data_type = shepard_atomic_raster_get_data_type (plan->rasters[0].raster);
  g_autofree void *converted = g_try_malloc_n (band_cells, (size_t) GDALGetDataTypeSizeBytes (data_type));
  g_autoptr (ShepardBandConverter) converter = shepard_band_converter_new ();
  gboolean ok = converted != NULL && band_buffer_init (&buffers[0], plan, band_cells, n_computed)
                && band_buffer_init (&buffers[1], plan, band_cells, n_computed);
  if (!ok)
    {
      for (int b = 0; b < 2; b++)
        band_buffer_clear (&buffers[b]);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE,
                   "not enough memory for two bands of %zu x %zu cells and their conversion", grid->width,
                   band_rows);
      return FALSE;
    }

  /* Each engine sums the whole grid one way: resolved for the whole grid, not band by band. */
  g_autofree shepard_params *engine_params = g_new (shepard_params, plan->n_engines);
  for (size_t i = 0; i < plan->n_engines; i++)
    {
      engine_params[i] = *params;
      engine_params[i].summation = shepard_engine_summation (plan->engines[i].engine, params, plan->summation_cells);
    }

  BandWriter writer = { 0 };
  size_t band_index = 0;
  for (size_t first_row = 0; ok && first_row < grid->height; first_row += band_rows, band_index++)
    {
      const BandBuffer *buffer = &buffers[band_index % 2];
      size_t rows = MIN (band_rows, grid->height - first_row);
      shepard_grid band = *grid;
      band.first_row = grid->first_row + first_row;
      band.height = rows;
      ShepardScaledProgress band_progress = *compute_progress;
      band_progress.start += compute_progress->span * (double) first_row / (double) grid->height;
      band_progress.span *= (double) rows / (double) grid->height;

      for (size_t i = 0; ok && i < plan->n_engines; i++)
        {
          ShepardScaledProgress engine_progress = band_progress;
          engine_progress.start += band_progress.span * (double) i / (double) plan->n_engines;
          engine_progress.span /= (double) plan->n_engines;
          shepard_outputs outputs = {
            .values = buffer->values[i],
            .alpha = i == 0 ? buffer->rows_of[PLANE_ALPHA] : NULL,
            .r_obs = i == 0 ? buffer->rows_of[PLANE_R_OBS] : NULL,
          };
          shepard_error engine_error = { 0 };
          if (shepard_engine_interpolate_grid (plan->engines[i].engine, &engine_params[i], &band, &outputs,
                                               shepard_scaled_progress_report_engine, &engine_progress, &engine_error)
              != SHEPARD_OK)
            {
              shepard_app_error_set_from_engine (error, &engine_error);
              ok = FALSE;
            }
        }
      /* The band before this one goes first; its failure stops the export as this band's would. */
      ok = band_writer_finish (&writer, ok ? error : NULL) && ok;
      if (!ok)
        break;
      BandWrite write = { plan, grid, buffer, first_row, rows, r_exp, nodata, converter, converted, NULL };
      band_writer_start (&writer, &write);
      if (!shepard_scaled_progress_report (1.0, NULL, &band_progress))
        ok = report_cancelled (error);
    }
  ok = band_writer_finish (&writer, ok ? error : NULL) && ok;
  for (int b = 0; b < 2; b++)
    band_buffer_clear (&buffers[b]);
  return ok;
}

/* A commit that failed after the first: the rasters before it are already in place, which the user must know. */
static void
prefix_rasters_in_place (const ShepardGridExport *request, const ExportPlan *plan, size_t committed, GError **error)
{
  g_autoptr (GString) in_place = g_string_new (NULL);

  for (size_t i = 0; i < committed; i++)
    {
      Plane plane = plan->rasters[i].bands[0].plane;
      g_string_append_printf (in_place, "%sthe %s raster \"%s\"", i > 0 ? ", " : "", planes[plane].name,
                              plane_path (request, plane));
    }
  g_prefix_error (error, "%s replaced, the other rasters not written: ", in_place->str);
}

gboolean
shepard_grid_export (shepard_engine *engine, const shepard_params *params, const shepard_grid *grid,
                     const ShepardGridExport *request, GDALProgressFunc progress, void *progress_data,
                     GError **error)
{
  g_return_val_if_fail (engine != NULL && params != NULL && grid != NULL && request != NULL, FALSE);
  g_return_val_if_fail (request->value_path != NULL, FALSE);
  g_return_val_if_fail (request->fields == NULL || request->fields[0].engine == engine, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!shepard_grid_export_check (params, request, error))
    return FALSE;
  for (size_t field = 0; field < request->n_fields; field++)
    g_return_val_if_fail (request->fields[field].engine != NULL
                            && request->fields[field].field < shepard_engine_n_fields (request->fields[field].engine),
                          FALSE);
  g_auto (ExportPlan) plan = { 0 };
  plan_export (engine, request, &plan);
  plan.mask = request->mask;
  plan.summation_cells = request->summation_cells > 0 ? request->summation_cells : grid->width * grid->height;
  double r_exp = NAN;
  shepard_error engine_error = { 0 };
  if (plan.computed[PLANE_R] && shepard_engine_expected_distance (engine, params, &r_exp, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  if (!create_rasters (request, grid, &plan, error))
    return FALSE;

  /* Every raster has the format, so either all of them are copied into it when finished or none is. */
  gboolean needs_copy = shepard_atomic_raster_needs_copy (plan.rasters[0].raster);
  double compute_share = needs_copy ? COMPUTE_SHARE_BEFORE_COPY : 1.0;
  ShepardScaledProgress compute_progress = {
    .progress = progress != NULL ? progress : GDALDummyProgress,
    .progress_data = progress_data,
    .start = 0.0,
    .span = compute_share,
  };
  g_auto (WrittenFormat) written = { 0 };
  written_format_init (&written, &request->format);
  if (!compute_and_write (params, grid, &plan, r_exp, written.format.nodata,
                          request->band_bytes > 0 ? request->band_bytes : SHEPARD_GRID_EXPORT_BAND_BYTES,
                          &compute_progress, error))
    return FALSE;

  /* Copying takes about as long per band: share the rest of the bar by bands. */
  size_t n_bands = 0, bands_before = 0;
  for (size_t i = 0; i < plan.n_rasters; i++)
    n_bands += plan.rasters[i].n_bands;
  for (size_t i = 0; i < plan.n_rasters; i++)
    {
      ShepardScaledProgress finish_progress = compute_progress;
      finish_progress.start = compute_share + (1.0 - compute_share) * (double) bands_before / (double) n_bands;
      finish_progress.span = (1.0 - compute_share) * (double) plan.rasters[i].n_bands / (double) n_bands;
      bands_before += plan.rasters[i].n_bands;
      if (!shepard_atomic_raster_finish (plan.rasters[i].raster, shepard_scaled_progress_report, &finish_progress,
                                         error))
        return FALSE;
    }
  for (size_t i = 0; i < plan.n_rasters; i++)
    if (!shepard_atomic_raster_commit (plan.rasters[i].raster, error))
      {
        if (i > 0)
          prefix_rasters_in_place (request, &plan, i, error);
        return FALSE;
      }
  return TRUE;
}
