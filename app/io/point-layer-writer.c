/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "point-layer-writer.h"

#include <math.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <string.h>

#include "gdal-autocleanups.h"
#include "gdal-error-trap.h"
#include "shepard-app-error.h"
#include "staging-directory.h"
#include "vector-format.h"

enum { FEATURES_BETWEEN_PROGRESS_CALLS = 4096 };

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRSpatialReferenceH, OSRRelease, NULL)
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRFieldDefnH, OGR_Fld_Destroy, NULL)

static void
set_gdal_error (GError **error, const ShepardGdalErrorTrap *trap, const char *what, const char *path)
{
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "%s \"%s\" failed: %s", what, path,
               shepard_gdal_error_trap_reason (trap, "GDAL gave no reason"));
}

static gboolean
check_input (const char *path, const double *x, const double *y, size_t count, GError **error)
{
  for (size_t i = 0; i < count; i++)
    if (!isfinite (x[i]) || !isfinite (y[i]))
      {
        g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                     "point %zu has the coordinates (%g, %g): every point written to \"%s\" needs finite ones", i,
                     x[i], y[i], path);
        return FALSE;
      }
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "\"%s\" is a directory: give the file name of the layer to write", path);
      return FALSE;
    }
  return TRUE;
}

static OGRSpatialReferenceH
import_crs (const char *crs_wkt, GError **error)
{
  OGRSpatialReferenceH crs = OSRNewSpatialReference (NULL);

  if (OSRSetFromUserInput (crs, crs_wkt) != OGRERR_NONE)
    {
      OSRRelease (crs);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the CRS of the points cannot be read: \"%.60s...\"", crs_wkt);
      return NULL;
    }
  /* x is the easting (or longitude) whatever the CRS's axis order says, as the point reader hands it over. */
  OSRSetAxisMappingStrategy (crs, OAMS_TRADITIONAL_GIS_ORDER);
  return crs;
}

static gboolean
create_fields (OGRLayerH layer, const ShepardPointField *fields, size_t n_fields, int *indices, const char *path,
               const ShepardGdalErrorTrap *trap, GError **error)
{
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);

  for (size_t i = 0; i < n_fields; i++)
    {
      g_auto (OGRFieldDefnH) field = OGR_Fld_Create (fields[i].name, OFTReal);
      if (OGR_L_CreateField (layer, field, TRUE) != OGRERR_NONE)
        {
          g_autofree char *what = g_strdup_printf ("adding the field \"%s\" to", fields[i].name);
          set_gdal_error (error, trap, what, path);
          return FALSE;
        }
      /* Drivers may rename a field (a Shapefile's ten characters): the new one is the last. */
      indices[i] = OGR_FD_GetFieldCount (definition) - 1;
    }
  return TRUE;
}

static void
set_field (OGRFeatureH feature, int index, double value)
{
  if (isnan (value))
    OGR_F_SetFieldNull (feature, index);
  else
    OGR_F_SetFieldDouble (feature, index, value);
}

typedef struct {
  OGRLayerH layer;
  const double *x, *y;
  size_t count;
  const ShepardPointField *fields;
  size_t n_fields;
  const int *field_indices;
} FeatureSource;

static gboolean
write_features (const FeatureSource *source, const char *path, const ShepardGdalErrorTrap *trap,
                GDALProgressFunc progress, void *progress_data, GError **error)
{
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (source->layer);

  for (size_t i = 0; i < source->count; i++)
    {
      if (i % FEATURES_BETWEEN_PROGRESS_CALLS == 0 && !progress ((double) i / (double) source->count, NULL,
                                                                 progress_data))
        {
          g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
          return FALSE;
        }
      g_auto (OGRFeatureH) feature = OGR_F_Create (definition);
      OGRGeometryH point = OGR_G_CreateGeometry (wkbPoint);
      OGR_G_SetPoint_2D (point, 0, source->x[i], source->y[i]);
      OGR_F_SetGeometryDirectly (feature, point);
      for (size_t f = 0; f < source->n_fields; f++)
        set_field (feature, source->field_indices[f], source->fields[f].values[i]);
      if (OGR_L_CreateFeature (source->layer, feature) != OGRERR_NONE)
        {
          set_gdal_error (error, trap, "writing the points of", path);
          return FALSE;
        }
    }
  return TRUE;
}

static char *
default_layer_name (const char *path)
{
  char *name = g_path_get_basename (path);
  char *dot = strrchr (name, '.');

  if (dot != NULL && dot != name)
    *dot = '\0';
  return name;
}

/* Creates the dataset in the work directory, writes every point and closes it: then the files are whole. */
static gboolean
write_dataset (GDALDriverH driver, const char *work_path, const char *path, const char *layer_name,
               OGRSpatialReferenceH crs, const FeatureSource *source_template, GDALProgressFunc progress,
               void *progress_data, GError **error)
{
  g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT;
  shepard_gdal_error_trap_push (&trap);

  GDALDatasetH dataset = GDALCreate (driver, work_path, 0, 0, 0, GDT_Unknown, NULL);
  if (dataset == NULL)
    {
      set_gdal_error (error, &trap, "creating", path);
      return FALSE;
    }
  const ShepardVectorFormat *format = shepard_vector_format_for_driver (driver);
  g_autofree char *default_name = default_layer_name (path);
  OGRLayerH layer = GDALDatasetCreateLayer (dataset, layer_name != NULL ? layer_name : default_name, crs, wkbPoint,
                                            format != NULL ? (CSLConstList) format->layer_options : NULL);
  g_autofree int *field_indices = g_new0 (int, MAX (source_template->n_fields, 1));
  FeatureSource source = *source_template;
  source.layer = layer;
  source.field_indices = field_indices;

  gboolean written = layer != NULL;
  if (!written)
    set_gdal_error (error, &trap, "creating the layer of", path);
  written = written && create_fields (layer, source.fields, source.n_fields, field_indices, path, &trap, error);
  /* One transaction: a GeoPackage or SQLite file commits once rather than per point. */
  gboolean in_transaction = written && GDALDatasetStartTransaction (dataset, FALSE) == OGRERR_NONE;
  written = written && write_features (&source, path, &trap, progress, progress_data, error);
  if (written && in_transaction && GDALDatasetCommitTransaction (dataset) != OGRERR_NONE)
    {
      set_gdal_error (error, &trap, "writing", path);
      written = FALSE;
    }

  shepard_gdal_error_trap_clear (&trap);
  GDALClose (dataset);
  /* A write failure at close (disk full...) comes only through CPLError. */
  if (written && shepard_gdal_error_trap_has_failure (&trap))
    {
      set_gdal_error (error, &trap, "writing", path);
      written = FALSE;
    }
  return written;
}

/* A .prj beside the main file in the WKT GDAL writes for Shapefiles (WKT2 where WKT1 cannot say it). */
static gboolean
write_prj (const char *work_path, const char *path, OGRSpatialReferenceH crs, GError **error)
{
  const char *const wkt1[] = { "FORMAT=WKT1_GDAL", NULL };
  const char *const wkt2[] = { "FORMAT=WKT2_2018", NULL };
  char *wkt = NULL;

  if (OSRExportToWktEx (crs, &wkt, wkt1) != OGRERR_NONE)
    {
      CPLFree (wkt);
      wkt = NULL;
      if (OSRExportToWktEx (crs, &wkt, wkt2) != OGRERR_NONE)
        {
          CPLFree (wkt);
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot write the CRS of \"%s\" as WKT",
                       path);
          return FALSE;
        }
    }
  g_autofree char *stem = default_layer_name (work_path);
  g_autofree char *directory = g_path_get_dirname (work_path);
  g_autofree char *prj_name = g_strconcat (stem, ".prj", NULL);
  g_autofree char *prj_path = g_build_filename (directory, prj_name, NULL);
  gboolean written = g_file_set_contents (prj_path, wkt, -1, error);
  CPLFree (wkt);
  return written;
}

/* Moves the layer into place; the side-cars of an old file of the same format that the new one did not write go. */
static gboolean
commit (ShepardStagingDirectory *staging, const char *path, const ShepardVectorFormat *format, GError **error)
{
  if (!g_file_test (shepard_staging_directory_get_path (staging), G_FILE_TEST_EXISTS))
    {
      g_autofree char *target_name = g_path_get_basename (path);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "GDAL wrote no file \"%s\": give the file an extension of its format", target_name);
      return FALSE;
    }
  g_autofree char *stem = default_layer_name (path);
  g_autoptr (GStrvBuilder) side_cars = g_strv_builder_new ();
  for (size_t i = 0; format != NULL && format->side_cars[i] != NULL; i++)
    {
      g_autofree char *side_car = g_strconcat (stem, ".", format->side_cars[i], NULL);
      g_strv_builder_add (side_cars, side_car);
    }
  g_auto (GStrv) stale_side_cars = g_strv_builder_end (side_cars);

  return shepard_staging_directory_commit (staging, (const char *const *) stale_side_cars, error);
}

gboolean
shepard_point_layer_write (const char *path, const char *driver_name, const char *layer_name, const char *crs_wkt,
                           const double *x, const double *y, size_t count, const ShepardPointField *fields,
                           size_t n_fields, GError **error)
{
  return shepard_point_layer_write_full (path, driver_name, layer_name, crs_wkt, x, y, count, fields, n_fields, NULL,
                                         NULL, error);
}

gboolean
shepard_point_layer_write_full (const char *path, const char *driver_name, const char *layer_name,
                                const char *crs_wkt, const double *x, const double *y, size_t count,
                                const ShepardPointField *fields, size_t n_fields, GDALProgressFunc progress,
                                void *progress_data, GError **error)
{
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (count == 0 || (x != NULL && y != NULL), FALSE);
  g_return_val_if_fail (n_fields == 0 || fields != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  GDALDriverH driver = shepard_vector_format_find_driver (path, driver_name, error);
  if (driver == NULL || !check_input (path, x, y, count, error))
    return FALSE;
  for (size_t i = 0; i < n_fields; i++)
    g_return_val_if_fail (fields[i].name != NULL && (count == 0 || fields[i].values != NULL), FALSE);
  g_auto (OGRSpatialReferenceH) crs = NULL;
  if (crs_wkt != NULL && (crs = import_crs (crs_wkt, error)) == NULL)
    return FALSE;
  if (progress == NULL)
    progress = GDALDummyProgress;

  g_autoptr (ShepardStagingDirectory) staging = shepard_staging_directory_new (path, NULL, error);
  if (staging == NULL)
    return FALSE;
  const char *work_path = shepard_staging_directory_get_path (staging);
  FeatureSource source = { .x = x, .y = y, .count = count, .fields = fields, .n_fields = n_fields };

  const ShepardVectorFormat *format = shepard_vector_format_for_driver (driver);
  gboolean done = write_dataset (driver, work_path, path, layer_name, crs, &source, progress, progress_data, error);
  if (done && crs != NULL && format != NULL && format->crs_in_prj)
    done = write_prj (work_path, path, crs, error);
  if (done && !progress (1.0, NULL, progress_data))
    {
      g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_CANCELLED, "cancelled");
      done = FALSE;
    }
  return done && commit (staging, path, format, error);
}
