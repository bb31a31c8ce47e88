/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Compares two rasters cell by cell, bit for bit, and prints how many cells differ and the largest difference (also
 * as a share of the first raster's value range). For tools/gpu-mpi-check.sh on the GPU machine, where GDAL's Python
 * tools (gdalcompare.py) are missing and gdalinfo -checksum rounds floating-point cells to integers.
 * Usage: raster-compare EXPECTED ACTUAL
 * Exit status: 0 equal (size, geotransform and every band's cells bit for bit), 1 different, 2 unreadable. */
#include <gdal.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Rows read at a time: a 16384-cell row is 128 KiB in double, so both rasters stay well under 100 MiB. */
enum { BLOCK_ROWS = 256 };

typedef struct {
  uint64_t cells;
  uint64_t differing;
  /* Cells that are nodata or NaN in one raster and a value in the other: no difference can be measured. */
  uint64_t undefined_in_one;
  double largest_difference;
  double minimum;
  double maximum;
} Comparison;

static bool
is_undefined (double value, bool has_nodata, double nodata)
{
  return isnan (value) || (has_nodata && value == nodata);
}

static bool
compare_band (GDALRasterBandH expected_band, GDALRasterBandH actual_band, int width, int height,
              Comparison *comparison)
{
  int expected_has_nodata = 0, actual_has_nodata = 0;
  double expected_nodata = GDALGetRasterNoDataValue (expected_band, &expected_has_nodata);
  double actual_nodata = GDALGetRasterNoDataValue (actual_band, &actual_has_nodata);
  size_t block_cells = (size_t) width * BLOCK_ROWS;
  double *expected = malloc (block_cells * sizeof *expected);
  double *actual = malloc (block_cells * sizeof *actual);
  bool read = expected != NULL && actual != NULL;

  for (int row = 0; read && row < height; row += BLOCK_ROWS)
    {
      int rows = height - row < BLOCK_ROWS ? height - row : BLOCK_ROWS;
      /* Float64 holds every Float32 value exactly, so equal doubles are equal cells. */
      read = GDALRasterIO (expected_band, GF_Read, 0, row, width, rows, expected, width, rows, GDT_Float64, 0, 0)
               == CE_None
             && GDALRasterIO (actual_band, GF_Read, 0, row, width, rows, actual, width, rows, GDT_Float64, 0, 0)
                  == CE_None;
      for (size_t i = 0; read && i < (size_t) width * rows; i++)
        {
          bool expected_undefined = is_undefined (expected[i], expected_has_nodata, expected_nodata);
          bool actual_undefined = is_undefined (actual[i], actual_has_nodata, actual_nodata);
          if (!expected_undefined)
            {
              comparison->minimum = fmin (comparison->minimum, expected[i]);
              comparison->maximum = fmax (comparison->maximum, expected[i]);
            }
          if (memcmp (&expected[i], &actual[i], sizeof expected[i]) == 0)
            continue;
          comparison->differing++;
          if (expected_undefined || actual_undefined)
            comparison->undefined_in_one += expected_undefined != actual_undefined;
          else
            comparison->largest_difference = fmax (comparison->largest_difference, fabs (expected[i] - actual[i]));
        }
    }
  comparison->cells += (uint64_t) width * height;
  free (expected);
  free (actual);
  return read;
}

int
main (int argc, char **argv)
{
  if (argc != 3)
    {
      fprintf (stderr, "Usage: %s EXPECTED ACTUAL\n", argv[0]);
      return 2;
    }
  GDALAllRegister ();
  GDALDatasetH expected = GDALOpenEx (argv[1], GDAL_OF_RASTER | GDAL_OF_READONLY, NULL, NULL, NULL);
  GDALDatasetH actual = GDALOpenEx (argv[2], GDAL_OF_RASTER | GDAL_OF_READONLY, NULL, NULL, NULL);
  if (expected == NULL || actual == NULL)
    {
      fprintf (stderr, "raster-compare: GDAL cannot open %s as a raster\n", expected == NULL ? argv[1] : argv[2]);
      return 2;
    }

  int width = GDALGetRasterXSize (expected), height = GDALGetRasterYSize (expected);
  int bands = GDALGetRasterCount (expected);
  if (GDALGetRasterXSize (actual) != width || GDALGetRasterYSize (actual) != height
      || GDALGetRasterCount (actual) != bands)
    {
      printf ("different: %d x %d cells in %d bands against %d x %d in %d\n", width, height, bands,
              GDALGetRasterXSize (actual), GDALGetRasterYSize (actual), GDALGetRasterCount (actual));
      return 1;
    }
  double expected_transform[6] = { 0 }, actual_transform[6] = { 0 };
  GDALGetGeoTransform (expected, expected_transform);
  GDALGetGeoTransform (actual, actual_transform);
  bool same_transform = memcmp (expected_transform, actual_transform, sizeof expected_transform) == 0;

  Comparison comparison = { .minimum = INFINITY, .maximum = -INFINITY };
  for (int band = 1; band <= bands; band++)
    if (!compare_band (GDALGetRasterBand (expected, band), GDALGetRasterBand (actual, band), width, height,
                       &comparison))
      {
        fprintf (stderr, "raster-compare: band %d could not be read: %s\n", band, CPLGetLastErrorMsg ());
        return 2;
      }
  GDALClose (expected);
  GDALClose (actual);

  double range = comparison.maximum - comparison.minimum;
  bool equal = same_transform && comparison.differing == 0;
  printf ("%s: %d x %d cells, %d band(s); %llu differ, largest difference %.3g (%.3g of the range %.6g)",
          equal ? "equal" : "different", width, height, bands, (unsigned long long) comparison.differing,
          comparison.largest_difference, range > 0 ? comparison.largest_difference / range : 0.0, range);
  if (comparison.undefined_in_one > 0)
    printf ("; %llu cells nodata or NaN in one raster only", (unsigned long long) comparison.undefined_in_one);
  if (!same_transform)
    printf ("; the geotransforms differ");
  printf ("\n");
  return equal ? 0 : 1;
}
