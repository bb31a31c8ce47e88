/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "bench-data.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* About 10 m between neighbouring points, whatever their number. */
#define POINT_SPACING 10.0

static uint64_t
splitmix64 (uint64_t *state)
{
  uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static double
uniform (uint64_t *state)
{
  return (double) (splitmix64 (state) >> 11) * 0x1.0p-53;
}

bool
bench_points_generate (bench_points *points, size_t n, unsigned long long seed)
{
  uint64_t state = seed;

  points->n = n;
  points->side = POINT_SPACING * sqrt ((double) n);
  points->x = malloc (n * sizeof *points->x);
  points->y = malloc (n * sizeof *points->y);
  points->z = malloc (n * sizeof *points->z);
  if (!points->x || !points->y || !points->z)
    {
      bench_points_free (points);
      return false;
    }

  double wavelength = points->side / 6.0;
  for (size_t i = 0; i < n; i++)
    {
      double x = points->side * uniform (&state);
      double y = points->side * uniform (&state);
      points->x[i] = x;
      points->y[i] = y;
      points->z[i] = 100.0 + 50.0 * sin (x / wavelength) * cos (y / (0.7 * wavelength)) + 10.0 * uniform (&state);
    }
  return true;
}

void
bench_points_free (bench_points *points)
{
  free (points->x);
  free (points->y);
  free (points->z);
  points->x = points->y = points->z = NULL;
}

shepard_grid
bench_query_grid (const bench_points *points)
{
  size_t n = points->n;
  size_t root = (size_t) sqrt ((double) n);
  size_t height = root;

  while (height > 1 && n % height != 0)
    height--;
  size_t width = n / height;
  /* A long thin strip is no grid: settle for a square of about n cells. */
  if (height < root / 2)
    width = height = root;

  return (shepard_grid) {
    .x_min = 0.0,
    .y_max = points->side,
    .dx = points->side / (double) width,
    .dy = points->side / (double) height,
    .width = width,
    .height = height,
  };
}

bool
bench_points_write_csv (const bench_points *points, const char *path)
{
  FILE *file = fopen (path, "w");
  if (!file)
    return false;

  bool written = fprintf (file, "x,y,z\n") > 0;
  for (size_t i = 0; written && i < points->n; i++)
    written = fprintf (file, "%.17g,%.17g,%.17g\n", points->x[i], points->y[i], points->z[i]) > 0;
  return fclose (file) == 0 && written;
}
