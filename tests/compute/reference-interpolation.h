/* SPDX-License-Identifier: GPL-3.0-or-later */
/*
 * Brute-force float64 IDW and AIDW, written straight from the formulas of docs/METHOD.md and sharing no code with
 * compute/: every query measures its distance to every data point, and the nearest points come from sorting them.
 * Slow on purpose; it is what the engine is checked against.
 */
#ifndef REFERENCE_INTERPOLATION_H
#define REFERENCE_INTERPOLATION_H

#include <stdbool.h>
#include <stddef.h>

#include "shepard-engine.h"

typedef struct {
  const double *x;
  const double *y;
  const double *z;
  size_t count;
  double x_min, y_min, x_max, y_max;
  double coincident_distance; /* SHEPARD_COINCIDENT_TOLERANCE times the larger side of the bounding box */
  double bounding_box_area;
  double convex_hull_area;
} reference_data;

typedef struct {
  double value;
  double alpha; /* AIDW: the adaptive power at the query */
  double r_obs; /* AIDW: mean distance to the k nearest data points */
  /* Weighting over the N nearest (max_points), and the last one taken and the first left out lie at the same
   * distance with different values: which of them belongs to the neighbourhood is not defined, so neither is the
   * value. */
  bool neighbourhood_ambiguous;
} reference_result;

/* Borrows the arrays; they must outlive the reference_data. */
void reference_data_init (reference_data *data, const double *x, const double *y, const double *z, size_t count);

double reference_study_area (const reference_data *data, shepard_area_mode area_mode, double given_area);

/* The k nearest data points of a query by sorting all distances: fills min(k, count) squared distances ascending
 * and their indices; returns how many it filled. */
size_t reference_nearest (const reference_data *data, double query_x, double query_y, size_t k,
                          double *squared_distances, size_t *indices);

/* AIDW's r_exp for count points over area, by mode (k: the neighbours behind r_obs, at most count). */
double reference_expected_distance (shepard_rexp_mode mode, size_t count, double area, size_t k);

/* With gdal_grid's neighbourhood options (shepard-engine.h, "The weighting neighbourhood"): the candidates inside the
 * search ellipse, taken nearest first while their quadrant has room, up to max_points; NaN for no data; smoothing in
 * the weights. Brute force over every point and a full sort. */
void reference_interpolate (const reference_data *data, const shepard_params *params, double query_x, double query_y,
                            reference_result *result);

#endif /* REFERENCE_INTERPOLATION_H */
