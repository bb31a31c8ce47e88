/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_DISTRIBUTION_BINS 40
/* More than this share of the cells at alpha1 or at alpha5: AIDW is plain IDW over most of the map. */
#define SHEPARD_SATURATION_SHARE 0.9

/* How AIDW's R = r_obs / r_exp and alpha are spread over the cells of a surface: what shows at a glance that the
 * papers' r_exp puts nearly every cell beyond Rmax (all at alpha5). */
typedef struct {
  size_t cells;      /* cells counted (finite R and alpha) */
  /* R over [0, r_last] in SHEPARD_DISTRIBUTION_BINS equal bins; r_beyond cells lie above r_last (not in a bin) */
  double r_last;
  double r_counts[SHEPARD_DISTRIBUTION_BINS];
  size_t r_beyond;
  double r_median;
  /* alpha over [alpha_first, alpha_last], the levels' span */
  double alpha_first, alpha_last;
  double alpha_counts[SHEPARD_DISTRIBUTION_BINS];
  /* shares of the cells whose mu puts them at alpha1 (mu <= 0.1) and at alpha5 (mu >= 0.9) */
  double share_at_alpha1, share_at_alpha5;
} ShepardDistributions;

/* From a surface's alpha and r_obs planes (cells each) of an AIDW surface with params and r_exp (map units). FALSE
 * (and no distributions) when no cell is finite. */
gboolean shepard_distributions_compute (const shepard_params *params, const float *alpha, const float *r_obs,
                                        double r_exp, size_t cells, ShepardDistributions *distributions);

/* 1 or 5 when more than SHEPARD_SATURATION_SHARE of the cells sit at that level, else 0. */
int shepard_distributions_saturated_level (const ShepardDistributions *distributions);

G_END_DECLS
