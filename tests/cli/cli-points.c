/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-points.h"

#include <math.h>
#include <gdal.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>
#include <string.h>

CliPoints *
cli_points_new (gsize n)
{
  CliPoints *points = g_new0 (CliPoints, 1);

  points->n = n;
  points->x = g_new0 (double, n);
  points->y = g_new0 (double, n);
  points->z = g_new0 (double, n);
  return points;
}

CliPoints *
cli_points_new_from (const double *x, const double *y, const double *z, gsize n)
{
  CliPoints *points = cli_points_new (n);

  memcpy (points->x, x, n * sizeof *x);
  memcpy (points->y, y, n * sizeof *y);
  memcpy (points->z, z, n * sizeof *z);
  return points;
}

void
cli_points_free (CliPoints *points)
{
  g_free (points->x);
  g_free (points->y);
  g_free (points->z);
  g_free (points);
}

void
cli_points_bounds (const CliPoints *points, double *x_min, double *x_max, double *y_min, double *y_max)
{
  *x_min = *y_min = INFINITY;
  *x_max = *y_max = -INFINITY;
  for (gsize i = 0; i < points->n; i++)
    {
      *x_min = fmin (*x_min, points->x[i]);
      *x_max = fmax (*x_max, points->x[i]);
      *y_min = fmin (*y_min, points->y[i]);
      *y_max = fmax (*y_max, points->y[i]);
    }
}

static char *
unquoted (const char *cell)
{
  return g_strstrip (g_strdelimit (g_strdup (cell), "\"", ' '));
}

static int
column_index (char **header, const char *name)
{
  for (int i = 0; header[i] != NULL; i++)
    {
      g_autofree char *column_name = unquoted (header[i]);
      if (g_strcmp0 (column_name, name) == 0)
        return i;
    }
  g_assert_not_reached ();
}

static double
cell_number (char **cells, int column)
{
  g_autofree char *text = unquoted (cells[column]);
  char *end = NULL;
  double value = g_ascii_strtod (text, &end);

  g_assert_true (end != text && *end == '\0');
  return value;
}

double
cli_points_value_range (const CliPoints *points)
{
  double lowest = INFINITY, highest = -INFINITY;

  for (gsize i = 0; i < points->n; i++)
    {
      lowest = fmin (lowest, points->z[i]);
      highest = fmax (highest, points->z[i]);
    }
  return highest - lowest;
}

CliPoints *
cli_points_read_csv (const char *path, const char *value_column)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  g_auto (GStrv) lines = g_strsplit (g_strchomp (contents), "\n", -1);
  g_auto (GStrv) header = g_strsplit (lines[0], ",", -1);
  int x_column = column_index (header, "x");
  int y_column = column_index (header, "y");
  int z_column = column_index (header, value_column);
  CliPoints *points = cli_points_new (g_strv_length (lines) - 1);

  for (gsize i = 0; i < points->n; i++)
    {
      g_auto (GStrv) cells = g_strsplit (g_strchomp (lines[i + 1]), ",", -1);
      g_assert_cmpuint (g_strv_length (cells), ==, g_strv_length (header));
      points->x[i] = cell_number (cells, x_column);
      points->y[i] = cell_number (cells, y_column);
      points->z[i] = cell_number (cells, z_column);
    }
  return points;
}

static OGRGeometryH
new_geometry (const CliPoints *points, gsize i, CliGeometry geometry)
{
  if (geometry == CLI_GEOMETRY_POINTS)
    {
      OGRGeometryH point = OGR_G_CreateGeometry (wkbPoint);
      OGR_G_SetPoint_2D (point, 0, points->x[i], points->y[i]);
      return point;
    }

  gsize next = (i + 1) % points->n;
  OGRGeometryH line = OGR_G_CreateGeometry (wkbLineString);
  OGR_G_AddPoint_2D (line, points->x[i], points->y[i]);
  OGR_G_AddPoint_2D (line, points->x[next], points->y[next]);
  return line;
}

void
cli_points_write_gpkg_layer (const CliPoints *points, const char *path, const char *layer_name,
                             const char *field_name, CliGeometry geometry)
{
  GDALAllRegister ();

  GDALDatasetH dataset;
  if (g_file_test (path, G_FILE_TEST_EXISTS))
    dataset = GDALOpenEx (path, GDAL_OF_VECTOR | GDAL_OF_UPDATE, NULL, NULL, NULL);
  else
    dataset = GDALCreate (GDALGetDriverByName ("GPKG"), path, 0, 0, 0, GDT_Unknown, NULL);
  g_assert_nonnull (dataset);

  OGRSpatialReferenceH srs = OSRNewSpatialReference (NULL);
  g_assert_cmpint (OSRImportFromEPSG (srs, 28992), ==, OGRERR_NONE);
  OSRSetAxisMappingStrategy (srs, OAMS_TRADITIONAL_GIS_ORDER);

  OGRwkbGeometryType layer_type = geometry == CLI_GEOMETRY_POINTS ? wkbPoint : wkbLineString;
  OGRLayerH layer = GDALDatasetCreateLayer (dataset, layer_name, srs, layer_type, NULL);
  g_assert_nonnull (layer);
  OSRRelease (srs);

  OGRFieldDefnH field = OGR_Fld_Create (field_name, OFTReal);
  g_assert_cmpint (OGR_L_CreateField (layer, field, TRUE), ==, OGRERR_NONE);
  OGR_Fld_Destroy (field);

  g_assert_cmpint (GDALDatasetStartTransaction (dataset, FALSE), ==, OGRERR_NONE);
  for (gsize i = 0; i < points->n; i++)
    {
      OGRFeatureH feature = OGR_F_Create (OGR_L_GetLayerDefn (layer));
      if (isnan (points->z[i]))
        OGR_F_SetFieldNull (feature, 0);
      else
        OGR_F_SetFieldDouble (feature, 0, points->z[i]);
      OGR_F_SetGeometryDirectly (feature, new_geometry (points, i, geometry));
      g_assert_cmpint (OGR_L_CreateFeature (layer, feature), ==, OGRERR_NONE);
      OGR_F_Destroy (feature);
    }
  g_assert_cmpint (GDALDatasetCommitTransaction (dataset), ==, OGRERR_NONE);
  GDALClose (dataset);
}

void
cli_points_write_random_gpkg (const char *path, gsize n, guint32 seed)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (seed);
  g_autoptr (CliPoints) points = cli_points_new (n);

  for (gsize i = 0; i < n; i++)
    {
      points->x[i] = g_rand_double_range (random, 170000.0, 190000.0);
      points->y[i] = g_rand_double_range (random, 320000.0, 340000.0);
      points->z[i] = g_rand_double_range (random, 100.0, 2000.0);
    }
  cli_points_write_gpkg_layer (points, path, "large", "zinc", CLI_GEOMETRY_POINTS);
}
