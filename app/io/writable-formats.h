/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* How the cells of an exported raster are stored. */
typedef enum {
  SHEPARD_SAMPLE_FLOAT32,
  SHEPARD_SAMPLE_FLOAT64,
} ShepardSampleType;

/* A raster format this GDAL build can write interpolated grids to. */
typedef struct {
  char *driver_name;  /* GDAL's short name: "GTiff" */
  char *description;  /* "GeoTIFF (.tif)" */
  char *extension;    /* "tif" */
} ShepardWritableFormat;

/* Every format that writes float32 rasters (by Create, or by CreateCopy from a temporary GeoTIFF) and has a file
 * extension, in GDAL's driver order; g_ptr_array_unref frees it. */
GPtrArray *shepard_writable_formats_list (void);

/* The index of GeoTIFF in formats, or 0 when it is missing. */
guint shepard_writable_formats_default (GPtrArray *formats);

G_END_DECLS
