/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The export's conversion of computed rows into a raster's data type, against what GDAL itself stores when it is given
 * the same float64 rows (a MEM raster of that type written with GDALRasterIO and read back as it stores it). */
#include <float.h>
#include <gdal.h>
#include <glib.h>
#include <math.h>
#include <string.h>

#include "band-conversion.h"

/* Cells at the edges of every type: no data, infinities, beyond float32, halves that round, subnormals, -0. */
static const double edge_values[] = {
  NAN, INFINITY, -INFINITY, 1e40, -1e40, FLT_MAX, -FLT_MAX, 3.4028235677973366e38, -3.4028235677973366e38,
  DBL_MAX, -DBL_MAX, 1e-310, -1e-310, 1e-45, -0.0, 0.0, 0.5, 1.5, 2.5, -0.5, -1.5, 254.5, 255.5, 256.0, -129.5,
  32767.5, -32768.6, 65535.4, 65535.6, 2147483647.5, -2147483648.7, 4294967295.6, 1e10, -1e10, 123.456789012345678,
};

static double *
test_values (size_t count)
{
  double *values = g_new (double, count);
  GRand *rand = g_rand_new_with_seed (17);
  for (size_t i = 0; i < count; i++)
    values[i] = i % 7 == 3 ? edge_values[(i / 7) % G_N_ELEMENTS (edge_values)]
                           : g_rand_double_range (rand, -70000.0, 70000.0) * (i % 5 == 0 ? 1e-3 : 1.0);
  g_rand_free (rand);
  return values;
}

/* What GDAL stores in a raster of type for float64 cells (NaN already made nodata). */
static void *
gdal_stored (const double *values, size_t count, GDALDataType type)
{
  if (count == 0)
    return NULL;
  GDALDatasetH memory = GDALCreate (GDALGetDriverByName ("MEM"), "", (int) count, 1, 1, type, NULL);
  g_assert_nonnull (memory);
  GDALRasterBandH band = GDALGetRasterBand (memory, 1);
  g_assert_cmpint (GDALRasterIO (band, GF_Write, 0, 0, (int) count, 1, (void *) values, (int) count, 1, GDT_Float64,
                                 0, 0),
                   ==, CE_None);
  void *stored = g_malloc (count * (size_t) GDALGetDataTypeSizeBytes (type));
  g_assert_cmpint (GDALRasterIO (band, GF_Read, 0, 0, (int) count, 1, stored, (int) count, 1, type, 0, 0), ==,
                   CE_None);
  GDALClose (memory);
  return stored;
}

static void
check_conversion (ShepardBandConverter *converter, size_t count, GDALDataType type, double nodata)
{
  size_t size = (size_t) GDALGetDataTypeSizeBytes (type);
  g_autofree double *values = test_values (count);
  g_autofree double *expected_values = g_memdup2 (values, count * sizeof (double));
  for (size_t i = 0; i < count; i++)
    if (isnan (expected_values[i]))
      expected_values[i] = nodata;
  g_autofree void *expected = gdal_stored (expected_values, count, type);
  g_autofree void *converted = g_malloc (MAX (count, 1) * size);

  shepard_band_converter_run (converter, values, count, nodata, type, converted);

  /* NaN is nodata in the rows themselves, and nothing else changed. */
  for (size_t i = 0; i < count; i++)
    if (isnan (expected_values[i]))
      g_assert_true (isnan (values[i]));
    else
      g_assert_cmpmem (&values[i], sizeof (double), &expected_values[i], sizeof (double));
  for (size_t i = 0; i < count; i++)
    if (memcmp ((const char *) converted + i * size, (const char *) expected + i * size, size) != 0)
      g_error ("%s, %zu cells, nodata %g: cell %zu (%.17g) is not stored as GDAL stores it",
               GDALGetDataTypeName (type), count, nodata, i, expected_values[i]);
}

static const GDALDataType types[] = {
  GDT_Float32, GDT_Float64, GDT_Byte, GDT_Int16, GDT_UInt16, GDT_Int32, GDT_UInt32,
};

/* A band of one cell, a few, and one that several threads share unevenly. */
static const size_t counts[] = { 0, 1, 35, 3 * ((size_t) 1 << 18) + 7 };

/* One converter for every band, as an export keeps it. */
static void
test_every_type_as_gdal_stores_it (void)
{
  g_autoptr (ShepardBandConverter) converter = shepard_band_converter_new ();
  for (size_t t = 0; t < G_N_ELEMENTS (types); t++)
    for (size_t c = 0; c < G_N_ELEMENTS (counts); c++)
      check_conversion (converter, counts[c], types[t], types[t] == GDT_Byte ? 255.0 : -9999.0);
}

/* The nodata values the export chooses for float rasters, and NaN, which -a_nodata may give. */
static void
test_float_nodata (void)
{
  g_autoptr (ShepardBandConverter) converter = shepard_band_converter_new ();
  check_conversion (converter, counts[3], GDT_Float32, -FLT_MAX);
  check_conversion (converter, counts[3], GDT_Float64, -DBL_MAX);
  check_conversion (converter, counts[2], GDT_Float32, NAN);
  check_conversion (converter, counts[2], GDT_Float64, NAN);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  GDALAllRegister ();

  g_test_add_func ("/app/band-conversion/every-type-as-gdal-stores-it", test_every_type_as_gdal_stores_it);
  g_test_add_func ("/app/band-conversion/float-nodata", test_float_nodata);
  return g_test_run ();
}
