/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The parameter sets and the AIDW formulas of Mei, Xu & Xu (2016), as docs/METHOD.md states them. */
#include "aidw-formulas.h"
#include "engine-private.h"

#include <math.h>

void
shepard_params_init_idw (shepard_params *params)
{
  shepard_params_init_aidw (params);
  params->method = SHEPARD_METHOD_IDW;
}

void
shepard_params_init_aidw (shepard_params *params)
{
  *params = (shepard_params) {
    .method = SHEPARD_METHOD_AIDW,
    .power = 2.0,
    .k = 15,
    .alpha = { 1.5, 2.0, 2.5, 3.0, 3.5 },
    .r_min = 0.0,
    .r_max = 2.0,
    .area_mode = SHEPARD_AREA_BOUNDING_BOX,
    .area = 0.0,
    .neighbors = SHEPARD_NEIGHBORS_ALL,
    .rexp = SHEPARD_REXP_NEAREST,
  };
}

bool
shepard_params_equal (const shepard_params *a, const shepard_params *b)
{
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    if (a->alpha[level] != b->alpha[level])
      return false;
  return a->method == b->method && a->power == b->power && a->k == b->k && a->r_min == b->r_min
         && a->r_max == b->r_max && a->area_mode == b->area_mode && a->area == b->area
         && a->neighbors == b->neighbors && a->rexp == b->rexp;
}

shepard_status
shepard_params_validate (const shepard_params *params, shepard_error *error)
{
  const shepard_status invalid = SHEPARD_ERROR_INVALID_ARGUMENT;

  if (params->neighbors < 0 || params->neighbors > SHEPARD_MAX_NEIGHBORS)
    return shepard_fail (error, invalid, "The neighbourhood must be all points or 1 to %d nearest points, not %d.",
                         SHEPARD_MAX_NEIGHBORS, params->neighbors);

  switch (params->method)
    {
    case SHEPARD_METHOD_IDW:
      if (!isfinite (params->power) || params->power <= 0.0)
        return shepard_fail (error, invalid, "The IDW power must be a positive number, not %g.", params->power);
      return SHEPARD_OK;

    case SHEPARD_METHOD_AIDW:
      if (params->k < 1 || params->k > SHEPARD_MAX_NEIGHBORS)
        return shepard_fail (error, invalid, "k (the neighbours that measure local density) must be 1 to %d, not %d.",
                             SHEPARD_MAX_NEIGHBORS, params->k);
      for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
        if (!isfinite (params->alpha[level]) || params->alpha[level] <= 0.0)
          return shepard_fail (error, invalid, "alpha%d must be a positive number, not %g.", level + 1,
                               params->alpha[level]);
      if (!isfinite (params->r_min) || params->r_min < 0.0)
        return shepard_fail (error, invalid, "Rmin must be a number >= 0, not %g.", params->r_min);
      if (!isfinite (params->r_max) || params->r_max <= params->r_min)
        return shepard_fail (error, invalid, "Rmax (%g) must be greater than Rmin (%g).", params->r_max,
                             params->r_min);
      if (params->rexp != SHEPARD_REXP_NEAREST && params->rexp != SHEPARD_REXP_KNN)
        return shepard_fail (error, invalid, "Unknown r_exp mode %d.", (int) params->rexp);
      switch (params->area_mode)
        {
        case SHEPARD_AREA_BOUNDING_BOX:
        case SHEPARD_AREA_CONVEX_HULL:
          return SHEPARD_OK;
        case SHEPARD_AREA_GIVEN:
          if (!isfinite (params->area) || params->area <= 0.0)
            return shepard_fail (error, invalid, "The study area must be a positive number of square map units, "
                                 "not %g.", params->area);
          return SHEPARD_OK;
        }
      return shepard_fail (error, invalid, "Unknown study area mode %d.", (int) params->area_mode);
    }
  return shepard_fail (error, invalid, "Unknown interpolation method %d.", (int) params->method);
}

double
shepard_aidw_expected_distance (size_t n_points, double area)
{
  return shepard_formula_expected_distance ((double) n_points, area);
}

double
shepard_aidw_expected_knn_distance (size_t n_points, double area, int k)
{
  return shepard_formula_expected_knn_distance ((double) n_points, area, k);
}

double
shepard_aidw_membership (double r, double r_min, double r_max)
{
  return shepard_formula_membership (r, r_min, r_max);
}

double
shepard_aidw_alpha (double mu, const double alpha[SHEPARD_AIDW_LEVELS])
{
  return shepard_formula_alpha (mu, alpha);
}
