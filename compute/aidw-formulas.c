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
    .summation = SHEPARD_SUMMATION_AUTO,
    .tolerance = SHEPARD_FAR_FIELD_TOLERANCE,
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
         && a->neighbors == b->neighbors && a->rexp == b->rexp && a->smoothing == b->smoothing
         && a->radius1 == b->radius1 && a->radius2 == b->radius2 && a->angle == b->angle
         && a->min_points == b->min_points && a->max_points_per_quadrant == b->max_points_per_quadrant
         && a->min_points_per_quadrant == b->min_points_per_quadrant && a->summation == b->summation
         && a->tolerance == b->tolerance;
}

bool
shepard_params_weight_all_points (const shepard_params *params)
{
  return params->radius1 == 0.0 && params->neighbors == SHEPARD_NEIGHBORS_ALL
         && params->max_points_per_quadrant == 0 && params->min_points_per_quadrant == 0;
}

static shepard_status
validate_radii (const shepard_params *params, shepard_error *error)
{
  const shepard_status invalid = SHEPARD_ERROR_INVALID_ARGUMENT;
  double r1 = params->radius1, r2 = params->radius2;
  if (!isfinite (params->angle))
    return shepard_fail (error, invalid, "The search ellipse's angle must be a finite number of degrees, not %g.",
                         params->angle);
  if (r1 == 0.0 && r2 == 0.0)
    {
      if (params->angle != 0.0)
        return shepard_fail (error, invalid, "angle needs radius1 and radius2: give the search ellipse's two "
                             "semi-axes, or leave angle out (angle=%g).", params->angle);
      return SHEPARD_OK;
    }
  if (r1 == r2 && !(r1 > 0.0 && isfinite (r1)))
    return shepard_fail (error, invalid, "The search radius must be greater than 0 (radius=%g).", r1);
  if (!(r1 > 0.0 && isfinite (r1)))
    return shepard_fail (error, invalid, "The search ellipse's radius1 must be greater than 0 (radius1=%g); give "
                         "both radius1 and radius2.", r1);
  if (!(r2 > 0.0 && isfinite (r2)))
    return shepard_fail (error, invalid, "The search ellipse's radius2 must be greater than 0 (radius2=%g); give "
                         "both radius1 and radius2.", r2);
  return SHEPARD_OK;
}

/* Whether the point counts can be met at all: a cell that never could get a value is a mistake in the options. */
static shepard_status
validate_counts (const shepard_params *params, shepard_error *error)
{
  const shepard_status invalid = SHEPARD_ERROR_INVALID_ARGUMENT;
  int max_points = params->neighbors, min_points = params->min_points;
  int max_quadrant = params->max_points_per_quadrant, min_quadrant = params->min_points_per_quadrant;
  if (min_points < 0)
    return shepard_fail (error, invalid, "min_points must be 0 or more, not %d.", min_points);
  if (max_quadrant < 0 || max_quadrant > SHEPARD_MAX_NEIGHBORS)
    return shepard_fail (error, invalid, "max_points_per_quadrant must be 0 (no limit) or 1 to %d, not %d.",
                         SHEPARD_MAX_NEIGHBORS, max_quadrant);
  if (min_quadrant < 0 || min_quadrant > SHEPARD_MAX_NEIGHBORS)
    return shepard_fail (error, invalid, "min_points_per_quadrant must be 0 to %d, not %d.", SHEPARD_MAX_NEIGHBORS,
                         min_quadrant);
  if (max_points != SHEPARD_NEIGHBORS_ALL && min_points > max_points)
    return shepard_fail (error, invalid, "min_points (%d) is larger than max_points (%d): no cell could get a value. "
                         "Lower min_points or raise max_points.", min_points, max_points);
  if (max_quadrant > 0 && min_quadrant > max_quadrant)
    return shepard_fail (error, invalid, "min_points_per_quadrant (%d) is larger than max_points_per_quadrant (%d): "
                         "no cell could get a value.", min_quadrant, max_quadrant);
  if (max_quadrant > 0 && min_points > 4 * max_quadrant)
    return shepard_fail (error, invalid, "min_points (%d) is larger than 4 quadrants of max_points_per_quadrant (%d): "
                         "no cell could get a value.", min_points, max_quadrant);
  if (max_points != SHEPARD_NEIGHBORS_ALL && 4 * min_quadrant > max_points)
    return shepard_fail (error, invalid, "min_points_per_quadrant (%d) asks for %d points in the 4 quadrants, more "
                         "than max_points (%d): no cell could get a value.", min_quadrant, 4 * min_quadrant,
                         max_points);
  return SHEPARD_OK;
}

shepard_status
shepard_params_validate (const shepard_params *params, shepard_error *error)
{
  const shepard_status invalid = SHEPARD_ERROR_INVALID_ARGUMENT;

  if (params->neighbors < 0 || params->neighbors > SHEPARD_MAX_NEIGHBORS)
    return shepard_fail (error, invalid, "max_points must be 0 (all points) or 1 to %d, not %d.",
                         SHEPARD_MAX_NEIGHBORS, params->neighbors);
  if (params->summation != SHEPARD_SUMMATION_AUTO && params->summation != SHEPARD_SUMMATION_EXACT
      && params->summation != SHEPARD_SUMMATION_FAR_FIELD)
    return shepard_fail (error, invalid, "The summation must be auto, exact or farfield.");
  if (!(params->tolerance >= SHEPARD_FAR_FIELD_TOLERANCE_MIN && params->tolerance <= SHEPARD_FAR_FIELD_TOLERANCE_MAX))
    return shepard_fail (error, invalid, "The far field's tolerance must be from %g to %g (a share of each field's "
                         "value range), not %g.", SHEPARD_FAR_FIELD_TOLERANCE_MIN, SHEPARD_FAR_FIELD_TOLERANCE_MAX,
                         params->tolerance);
  if (!isfinite (params->smoothing) || params->smoothing < 0.0)
    return shepard_fail (error, invalid, "The smoothing must be a number >= 0 in map units, not %g.",
                         params->smoothing);
  shepard_status status = validate_radii (params, error);
  if (status == SHEPARD_OK)
    status = validate_counts (params, error);
  if (status != SHEPARD_OK)
    return status;

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
