/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* What the point writer does for a vector format beyond GDAL's defaults. */
typedef struct {
  const char *driver_name;
  /* Files beside the main one that belong to it: a stale one would describe the new file wrongly. */
  const char *side_cars[8];
  const char *layer_options[2];
  gboolean crs_in_prj; /* the driver keeps no CRS itself, but reads one from a .prj beside the file */
} ShepardVectorFormat;

/* The OGR vector driver that writes path: driver_name when not NULL, else the one its extension names
 * (case-insensitive): gpkg, csv, shp, geojson, json, fgb, gml and sqlite as the point writer knows them, then any
 * other extension that a GDAL driver creating vector datasets lists (GDAL_DMD_EXTENSIONS), the first in GDAL's
 * order as ogr2ogr picks it (kml: LIBKML where GDAL has it, else KML). The driver must create vector datasets that
 * hold geometries (not a spreadsheet's rows alone). SHEPARD_APP_ERROR_FORMAT, saying what to do, when there is none.
 * For refusing a command line early. */
GDALDriverH shepard_vector_format_find_driver (const char *path, const char *driver_name, GError **error);

/* What the point writer does beyond GDAL's defaults for the driver's format; NULL: nothing. */
const ShepardVectorFormat *shepard_vector_format_for_driver (GDALDriverH driver);

G_END_DECLS
