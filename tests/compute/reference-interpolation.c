/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "reference-interpolation.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two distances closer than this (relative) may come out in either order from an engine that works in shifted
 * coordinates, so a neighbourhood cut between them is ambiguous; an engine measuring in float32 (the GPU, under
 * SHEPARD_TEST_BACKEND=cuda) orders distances only to about 1e-7. */
static double
tie_tolerance (void)
{
  const char *backend = getenv ("SHEPARD_TEST_BACKEND");
  return backend && strcmp (backend, "cuda") == 0 ? 1e-6 : 1e-12;
}

/* Strict C11 has no M_PI. */
static const double reference_pi = 3.14159265358979323846;

typedef struct {
  double distance;
  size_t index;
} reference_neighbour;

/* Neumaier's compensated sum: the reference should be the most accurate party in every comparison. */
typedef struct {
  double sum;
  double compensation;
} reference_sum;

static void
reference_sum_add (reference_sum *accumulator, double term)
{
  double total = accumulator->sum + term;
  if (fabs (accumulator->sum) >= fabs (term))
    accumulator->compensation += (accumulator->sum - total) + term;
  else
    accumulator->compensation += (term - total) + accumulator->sum;
  accumulator->sum = total;
}

static double
reference_sum_value (const reference_sum *accumulator)
{
  return accumulator->sum + accumulator->compensation;
}

static int
compare_neighbours (const void *a, const void *b)
{
  const reference_neighbour *first = a;
  const reference_neighbour *second = b;
  if (first->distance != second->distance)
    return first->distance < second->distance ? -1 : 1;
  return (first->index > second->index) - (first->index < second->index);
}

static double
cross (double origin_x, double origin_y, double a_x, double a_y, double b_x, double b_y)
{
  return (a_x - origin_x) * (b_y - origin_y) - (a_y - origin_y) * (b_x - origin_x);
}

typedef struct {
  double x, y;
} reference_vertex;

static int
compare_vertices (const void *a, const void *b)
{
  const reference_vertex *first = a;
  const reference_vertex *second = b;
  if (first->x != second->x)
    return first->x < second->x ? -1 : 1;
  return (first->y > second->y) - (first->y < second->y);
}

/* Andrew's monotone chain, then the shoelace formula. */
static double
convex_hull_area (const double *x, const double *y, size_t count)
{
  if (count < 3)
    return 0.0;
  reference_vertex *sorted = malloc (count * sizeof *sorted);
  reference_vertex *hull = malloc (2 * count * sizeof *hull);
  for (size_t i = 0; i < count; i++)
    sorted[i] = (reference_vertex) { x[i], y[i] };
  qsort (sorted, count, sizeof *sorted, compare_vertices);

  size_t hull_size = 0;
  for (size_t i = 0; i < count; i++)
    {
      while (hull_size >= 2 && cross (hull[hull_size - 2].x, hull[hull_size - 2].y, hull[hull_size - 1].x,
                                      hull[hull_size - 1].y, sorted[i].x, sorted[i].y) <= 0.0)
        hull_size--;
      hull[hull_size++] = sorted[i];
    }
  size_t lower_size = hull_size + 1;
  for (size_t i = count - 1; i-- > 0;)
    {
      while (hull_size >= lower_size && cross (hull[hull_size - 2].x, hull[hull_size - 2].y, hull[hull_size - 1].x,
                                               hull[hull_size - 1].y, sorted[i].x, sorted[i].y) <= 0.0)
        hull_size--;
      hull[hull_size++] = sorted[i];
    }

  /* The chain ends where it started; the shoelace runs over the closed ring, measured from its first vertex so that
   * UTM-sized coordinates do not cancel away the area's low digits. */
  double twice_area = 0.0;
  for (size_t i = 0; i + 1 < hull_size; i++)
    twice_area += (hull[i].x - hull[0].x) * (hull[i + 1].y - hull[0].y)
                  - (hull[i + 1].x - hull[0].x) * (hull[i].y - hull[0].y);
  free (sorted);
  free (hull);
  return fabs (twice_area) / 2.0;
}

void
reference_data_init (reference_data *data, const double *x, const double *y, const double *z, size_t count)
{
  *data = (reference_data) { .x = x, .y = y, .z = z, .count = count };
  data->x_min = data->x_max = x[0];
  data->y_min = data->y_max = y[0];
  for (size_t i = 1; i < count; i++)
    {
      data->x_min = fmin (data->x_min, x[i]);
      data->x_max = fmax (data->x_max, x[i]);
      data->y_min = fmin (data->y_min, y[i]);
      data->y_max = fmax (data->y_max, y[i]);
    }
  double width = data->x_max - data->x_min;
  double height = data->y_max - data->y_min;
  data->coincident_distance = SHEPARD_COINCIDENT_TOLERANCE * fmax (width, height);
  data->bounding_box_area = width * height;
  data->convex_hull_area = convex_hull_area (x, y, count);
}

double
reference_study_area (const reference_data *data, shepard_area_mode area_mode, double given_area)
{
  switch (area_mode)
    {
    case SHEPARD_AREA_BOUNDING_BOX:
      return data->bounding_box_area;
    case SHEPARD_AREA_CONVEX_HULL:
      return data->convex_hull_area;
    case SHEPARD_AREA_GIVEN:
      return given_area;
    }
  return NAN;
}

size_t
reference_nearest (const reference_data *data, double query_x, double query_y, size_t k, double *squared_distances,
                   size_t *indices)
{
  reference_neighbour *neighbours = malloc (data->count * sizeof *neighbours);
  for (size_t i = 0; i < data->count; i++)
    {
      double dx = data->x[i] - query_x;
      double dy = data->y[i] - query_y;
      neighbours[i] = (reference_neighbour) { dx * dx + dy * dy, i };
    }
  qsort (neighbours, data->count, sizeof *neighbours, compare_neighbours);
  size_t filled = k < data->count ? k : data->count;
  for (size_t i = 0; i < filled; i++)
    {
      squared_distances[i] = neighbours[i].distance;
      indices[i] = neighbours[i].index;
    }
  free (neighbours);
  return filled;
}

double
reference_expected_distance (shepard_rexp_mode mode, size_t count, double area, size_t k)
{
  if (mode == SHEPARD_REXP_NEAREST)
    return 1.0 / (2.0 * sqrt ((double) count / area));
  /* The CSR expectation of the mean distance to the k nearest, term by term through lgamma. */
  double sum = 0.0;
  for (size_t j = 1; j <= k; j++)
    sum += exp (lgamma ((double) j + 0.5) - lgamma ((double) j)) / sqrt (reference_pi * (double) count / area);
  return sum / (double) k;
}

/* Step 4 of docs/METHOD.md: the cosine membership, continuous at both thresholds. */
static double
membership (double ratio, double r_min, double r_max)
{
  if (ratio <= r_min)
    return 0.0;
  if (ratio >= r_max)
    return 1.0;
  return 0.5 - 0.5 * cos (reference_pi * (ratio - r_min) / (r_max - r_min));
}

/* Step 5 of docs/METHOD.md: the triangular membership of Eq. 6, with alpha2 on [0.3, 0.5] as in the paper. */
static double
adaptive_power (double mu, const double alpha[SHEPARD_AIDW_LEVELS])
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

static bool
distances_tie (double a, double b)
{
  return fabs (a - b) <= tie_tolerance () * fmax (a, b);
}

/* gdal_grid's search ellipse: with the axes turned `angle` degrees counter-clockwise, u^2/r1^2 + v^2/r2^2 <= 1. */
static bool
inside_search_ellipse (const shepard_params *params, double dx, double dy)
{
  if (params->radius1 == 0.0)
    return true;
  if (params->radius1 == params->radius2)
    return dx * dx + dy * dy <= params->radius1 * params->radius1;
  double angle = params->angle * reference_pi / 180.0;
  double u = dx * cos (angle) + dy * sin (angle), v = dy * cos (angle) - dx * sin (angle);
  return (u / params->radius1) * (u / params->radius1) + (v / params->radius2) * (v / params->radius2) <= 1.0;
}

static int
quadrant_of (double dx, double dy)
{
  return (dx >= 0.0 ? 0 : 1) + (dy >= 0.0 ? 0 : 2);
}

void
reference_interpolate (const reference_data *data, const shepard_params *params, double query_x, double query_y,
                       reference_result *result)
{
  size_t count = data->count;
  reference_neighbour *neighbours = malloc (count * sizeof *neighbours);
  for (size_t i = 0; i < count; i++)
    {
      double dx = data->x[i] - query_x;
      double dy = data->y[i] - query_y;
      neighbours[i] = (reference_neighbour) { sqrt (dx * dx + dy * dy), i };
    }
  qsort (neighbours, count, sizeof *neighbours, compare_neighbours);

  *result = (reference_result) { .value = NAN, .alpha = NAN, .r_obs = NAN };
  double power = params->power;
  if (params->method == SHEPARD_METHOD_AIDW)
    {
      size_t k = (size_t) params->k < count ? (size_t) params->k : count;
      double distance_sum = 0.0;
      for (size_t i = 0; i < k; i++)
        distance_sum += neighbours[i].distance;
      result->r_obs = distance_sum / (double) k;

      double area = reference_study_area (data, params->area_mode, params->area);
      double r_exp = reference_expected_distance (params->rexp, count, area, k);
      double mu = membership (result->r_obs / r_exp, params->r_min, params->r_max);
      result->alpha = adaptive_power (mu, params->alpha);
      power = result->alpha;
    }

  /* The selection, nearest first: a candidate inside the ellipse is taken while its quadrant has room, until
   * max_points are taken. */
  size_t max_points = params->neighbors == SHEPARD_NEIGHBORS_ALL ? count : (size_t) params->neighbors;
  size_t per_quadrant[4] = { 0, 0, 0, 0 };
  bool *selected = calloc (count, sizeof *selected);
  size_t selected_count = 0, last_selected = SIZE_MAX, first_left_out = SIZE_MAX;
  for (size_t j = 0; j < count; j++)
    {
      size_t i = neighbours[j].index;
      double dx = data->x[i] - query_x, dy = data->y[i] - query_y;
      if (!inside_search_ellipse (params, dx, dy))
        continue;
      int quadrant = quadrant_of (dx, dy);
      if (params->max_points_per_quadrant > 0 && per_quadrant[quadrant] >= (size_t) params->max_points_per_quadrant)
        continue;
      if (selected_count == max_points)
        {
          if (first_left_out == SIZE_MAX)
            first_left_out = j;
          continue;
        }
      selected[j] = true;
      per_quadrant[quadrant]++;
      selected_count++;
      last_selected = j;
    }
  if (first_left_out != SIZE_MAX)
    result->neighbourhood_ambiguous = distances_tie (neighbours[last_selected].distance,
                                                     neighbours[first_left_out].distance)
                                      && data->z[neighbours[last_selected].index]
                                           != data->z[neighbours[first_left_out].index];

  bool no_data = selected_count < (size_t) (params->min_points > 1 ? params->min_points : 1);
  for (int q = 0; q < 4; q++)
    no_data = no_data || per_quadrant[q] < (size_t) params->min_points_per_quadrant;

  reference_sum coincident_values = { 0 };
  size_t coincident_count = 0;
  for (size_t i = 0; i < count; i++)
    if (neighbours[i].distance <= data->coincident_distance)
      {
        reference_sum_add (&coincident_values, data->z[neighbours[i].index]);
        coincident_count++;
      }
  bool nearest_selected_coincides = false;
  for (size_t j = 0; j < count && !nearest_selected_coincides; j++)
    if (selected[j])
      {
        nearest_selected_coincides = neighbours[j].distance <= data->coincident_distance;
        break;
      }

  if (no_data)
    result->value = NAN;
  else if (params->smoothing == 0.0 && nearest_selected_coincides)
    result->value = reference_sum_value (&coincident_values) / (double) coincident_count;
  else
    {
      reference_sum weighted_values = { 0 };
      reference_sum weights = { 0 };
      double smoothing2 = params->smoothing * params->smoothing;
      for (size_t j = 0; j < count; j++)
        if (selected[j])
          {
            double d2 = neighbours[j].distance * neighbours[j].distance + smoothing2;
            double weight = pow (d2, -0.5 * power);
            reference_sum_add (&weighted_values, weight * data->z[neighbours[j].index]);
            reference_sum_add (&weights, weight);
          }
      result->value = reference_sum_value (&weighted_values) / reference_sum_value (&weights);
    }
  free (selected);
  free (neighbours);
}
