/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard_engine_explain on the CPU: one query in float64, the nearest points listed with their shares. */
#include "cpu-backend.h"

#include "cpu-weighting.h"
#include "engine-private.h"
#include "neighbourhood.h"

#include <math.h>
#include <stdlib.h>

/* On data points (no smoothing): their mean, each with an equal share. */
static void
explain_coincident (const shepard_cpu_backend *backend, double qx, double qy, double coincident_d2, const double *d2,
                    shepard_contribution *listed, shepard_explanation *result)
{
  const shepard_point_set *points = backend->points;
  size_t count;
  double sum = shepard_even_grid_sum_within (backend->grid, points->z, qx, qy, coincident_d2, &count);
  result->coincident = true;
  result->n_weighted = count;
  result->value = shepard_point_set_value (points, 0, sum / (double) count);
  double listed_share = 0.0, listed_share_value = 0.0;
  size_t listed_coincident = 0;
  for (size_t j = 0; j < result->n_listed && d2[j] <= coincident_d2; j++)
    {
      listed[j].share = 1.0 / (double) count;
      listed_share += listed[j].share;
      listed_share_value += listed[j].share * listed[j].value;
      listed_coincident++;
    }
  result->rest_count = count - listed_coincident;
  result->rest_share = (double) result->rest_count / (double) count;
  result->rest_share_value = result->value - listed_share_value;
}

static void
explain_weights (const shepard_cpu_backend *backend, const shepard_neighbourhood *hood,
                 const shepard_selection *selection, bool every_point, double qx, double qy, double nearest_d2,
                 double exponent, const double *d2, shepard_contribution *listed, shepard_explanation *result)
{
  const shepard_point_set *points = backend->points;
  int whole_power = shepard_whole_power_of (exponent);
  double nearest_d2s = nearest_d2 + hood->smoothing2, sum_w, sum_wz;
  if (every_point)
    shepard_all_points_sums (points, NULL, 0, qx, qy, hood->smoothing2, nearest_d2s, exponent, 1, &sum_w, &sum_wz);
  else
    shepard_selected_sums (points, selection->d2, selection->index, selection->count, hood->smoothing2, nearest_d2s,
                           exponent, 1, &sum_w, &sum_wz);
  result->n_weighted = every_point ? points->n : selection->count;
  result->value = shepard_point_set_value (points, 0, sum_wz / sum_w);
  double listed_share = 0.0, listed_share_value = 0.0;
  size_t listed_weighted = 0;
  for (size_t j = 0; j < result->n_listed; j++)
    {
      if (!every_point && !shepard_selection_holds (selection, listed[j].index))
        continue;
      listed[j].share = shepard_relative_weight (d2[j] + hood->smoothing2, nearest_d2s, exponent, whole_power) / sum_w;
      listed_share += listed[j].share;
      listed_share_value += listed[j].share * listed[j].value;
      listed_weighted++;
    }
  result->rest_count = result->n_weighted - listed_weighted;
  /* What the listed points leave: exact sums, so listed + rest adds up to 1 and to the value. */
  result->rest_share = result->rest_count > 0 ? 1.0 - listed_share : 0.0;
  result->rest_share_value = result->rest_count > 0 ? result->value - listed_share_value : 0.0;
}

shepard_status
shepard_cpu_explain (const shepard_cpu_backend *backend, const shepard_params *params, double r_exp, double x,
                     double y, shepard_contribution *listed, size_t capacity, shepard_explanation *explanation,
                     shepard_error *error)
{
  const shepard_point_set *points = backend->points;
  bool aidw = params->method == SHEPARD_METHOD_AIDW;
  size_t n = points->n;
  size_t k_density = aidw ? ((size_t) params->k < n ? (size_t) params->k : n) : 0;
  size_t n_listed = capacity < n ? capacity : n;
  size_t k_search = k_density > n_listed ? k_density : n_listed;
  if (k_search < 1)
    k_search = 1;
  shepard_neighbourhood hood;
  shepard_neighbourhood_init (&hood, params, points);
  shepard_selection selection;
  double *d2 = malloc (k_search * sizeof *d2);
  size_t *index = malloc (k_search * sizeof *index);
  bool selection_ready = shepard_selection_init (&selection, &hood);
  double qx = shepard_point_set_local (x, points->origin_x, points->scale);
  double qy = shepard_point_set_local (y, points->origin_y, points->scale);
  if (!d2 || !index || !selection_ready
      || !shepard_neighbourhood_select (&hood, backend->grid, points->x, points->y, NULL, 0, qx, qy, &selection))
    {
      free (d2);
      free (index);
      if (selection_ready)
        shepard_selection_clear (&selection);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory to explain a value.");
    }
  shepard_even_grid_nearest (backend->grid, qx, qy, k_search, d2, index);

  shepard_explanation result = {
    .alpha = params->power,
    .r_obs = NAN,
    .r_exp = NAN,
    .r = NAN,
    .mu = NAN,
    .k_density = (int) k_density,
    .n_listed = n_listed,
  };
  if (aidw)
    {
      double r_exp_local = r_exp * points->scale, r_obs;
      result.alpha = shepard_adaptive_alpha (d2, k_density, r_exp_local, params, &r_obs, &result.mu);
      result.r_obs = r_obs / points->scale;
      result.r_exp = r_exp;
      result.r = r_obs / r_exp_local;
    }
  for (size_t j = 0; j < n_listed; j++)
    listed[j] = (shepard_contribution) {
      .index = index[j],
      .distance = sqrt (d2[j]) / points->scale,
      .value = points->z_given[index[j]],
    };

  bool every_point = hood.mode == SHEPARD_SELECT_ALL || selection.every_point;
  double nearest_d2 = every_point ? d2[0] : selection.nearest_d2;
  double coincident_d2 = shepard_point_set_coincident_d2_local (points);
  if (!shepard_selection_has_data (&hood, &selection, n))
    result.value = NAN; /* no data: nothing weighs */
  else if (hood.smoothing2 == 0.0 && nearest_d2 <= coincident_d2)
    explain_coincident (backend, qx, qy, coincident_d2, d2, listed, &result);
  else
    explain_weights (backend, &hood, &selection, every_point, qx, qy, nearest_d2, -0.5 * result.alpha, d2, listed,
                     &result);
  *explanation = result;
  free (d2);
  free (index);
  shepard_selection_clear (&selection);
  return SHEPARD_OK;
}
