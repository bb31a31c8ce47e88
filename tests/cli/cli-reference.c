/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "cli-reference.h"

#include <math.h>
#include <stdlib.h>

typedef struct {
  double distance;
  double z;
} Neighbor;

void
cli_aidw_params_init (CliAidwParams *params)
{
  *params = (CliAidwParams) {
    .k = 15,
    .alpha = { 1.5, 2.0, 2.5, 3.0, 3.5 },
    .r_min = 0.0,
    .r_max = 2.0,
    .area = 0.0,
    .neighbors = CLI_ALL_NEIGHBORS,
  };
}

static int
compare_distance (const void *a, const void *b)
{
  double da = ((const Neighbor *) a)->distance;
  double db = ((const Neighbor *) b)->distance;

  return (da > db) - (da < db);
}

/* All points by distance from (x, y), nearest first. */
static Neighbor *
sorted_neighbors (const CliPoints *points, double x, double y)
{
  Neighbor *neighbors = g_new (Neighbor, points->n);

  for (gsize i = 0; i < points->n; i++)
    {
      neighbors[i].distance = hypot (points->x[i] - x, points->y[i] - y);
      neighbors[i].z = points->z[i];
    }
  qsort (neighbors, points->n, sizeof *neighbors, compare_distance);
  return neighbors;
}

static gsize
neighborhood_size (const CliPoints *points, int neighbors)
{
  return neighbors == CLI_ALL_NEIGHBORS ? points->n : MIN ((gsize) neighbors, points->n);
}

static double
weighted_mean (const Neighbor *neighbors, gsize count, double power)
{
  double weighted_sum = 0.0;
  double weight_sum = 0.0;

  /* The spot-checked cells never sit on a data point; the engine's coincidence rule is tested in tests/compute. */
  g_assert_cmpfloat (neighbors[0].distance, >, 0.0);
  for (gsize i = 0; i < count; i++)
    {
      double weight = pow (neighbors[i].distance, -power);
      weighted_sum += weight * neighbors[i].z;
      weight_sum += weight;
    }
  return weighted_sum / weight_sum;
}

double
cli_reference_idw (const CliPoints *points, double x, double y, double power, int neighbors)
{
  g_autofree Neighbor *sorted = sorted_neighbors (points, x, y);

  return weighted_mean (sorted, neighborhood_size (points, neighbors), power);
}

double
cli_reference_r_exp (const CliPoints *points, double area)
{
  if (!(area > 0.0))
    {
      double x_min, x_max, y_min, y_max;
      cli_points_bounds (points, &x_min, &x_max, &y_min, &y_max);
      area = (x_max - x_min) * (y_max - y_min);
    }
  return 1.0 / (2.0 * sqrt (points->n / area));
}

static double
mean_distance (const Neighbor *sorted, gsize k)
{
  double distance_sum = 0.0;

  for (gsize i = 0; i < k; i++)
    distance_sum += sorted[i].distance;
  return distance_sum / k;
}

double
cli_reference_r_obs (const CliPoints *points, double x, double y, int k)
{
  g_autofree Neighbor *sorted = sorted_neighbors (points, x, y);

  return mean_distance (sorted, MIN ((gsize) k, points->n));
}

static double
membership (double r, double r_min, double r_max)
{
  if (r <= r_min)
    return 0.0;
  if (r >= r_max)
    return 1.0;
  return 0.5 - 0.5 * cos (G_PI * (r - r_min) / (r_max - r_min));
}

/* The triangular membership of Eq. 6 (Mei et al. 2016), with alpha2 on [0.3, 0.5] as in the paper. */
static double
adaptive_alpha (double mu, const double *alpha)
{
  if (mu <= 0.1)
    return alpha[0];
  if (mu <= 0.3)
    return alpha[0] * (1.0 - 5.0 * (mu - 0.1)) + 5.0 * alpha[1] * (mu - 0.1);
  if (mu <= 0.5)
    return 5.0 * alpha[2] * (mu - 0.3) + alpha[1] * (1.0 - 5.0 * (mu - 0.3));
  if (mu <= 0.7)
    return alpha[2] * (1.0 - 5.0 * (mu - 0.5)) + 5.0 * alpha[3] * (mu - 0.5);
  if (mu <= 0.9)
    return 5.0 * alpha[4] * (mu - 0.7) + alpha[3] * (1.0 - 5.0 * (mu - 0.7));
  return alpha[4];
}

double
cli_reference_aidw (const CliPoints *points, double x, double y, const CliAidwParams *params, double *alpha)
{
  g_autofree Neighbor *sorted = sorted_neighbors (points, x, y);
  double expected_distance = cli_reference_r_exp (points, params->area);
  double observed_distance = mean_distance (sorted, MIN ((gsize) params->k, points->n));
  double mu = membership (observed_distance / expected_distance, params->r_min, params->r_max);
  double adaptive_power = adaptive_alpha (mu, params->alpha);

  if (alpha != NULL)
    *alpha = adaptive_power;
  return weighted_mean (sorted, neighborhood_size (points, params->neighbors), adaptive_power);
}
