/* SPDX-License-Identifier: GPL-3.0-or-later */
/* IDW and AIDW written out plainly in float64 from docs/METHOD.md, independent of the engine: the expectation
 * the tool's rasters are checked against. */
#pragma once

#include "cli-points.h"

G_BEGIN_DECLS

enum { CLI_ALL_NEIGHBORS = 0, CLI_AIDW_LEVELS = 5 };

typedef struct {
  int k;
  double alpha[CLI_AIDW_LEVELS];
  double r_min;
  double r_max;
  double area; /* 0: the area of the points' bounding box */
  int neighbors;
} CliAidwParams;

void cli_aidw_params_init (CliAidwParams *params);

double cli_reference_idw (const CliPoints *points, double x, double y, double power, int neighbors);

/* AIDW's expected nearest-neighbour distance 1 / (2 sqrt (n / area)); area 0: of the points' bounding box. */
double cli_reference_r_exp (const CliPoints *points, double area);

/* AIDW's r_obs: the mean distance from (x, y) to its k nearest points. */
double cli_reference_r_obs (const CliPoints *points, double x, double y, int k);

/* alpha, when not NULL, receives the adaptive power used at (x, y). */
double cli_reference_aidw (const CliPoints *points, double x, double y, const CliAidwParams *params, double *alpha);

G_END_DECLS
