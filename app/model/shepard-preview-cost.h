/* SPDX-License-Identifier: GPL-3.0-or-later */
/* How long the document's engine will take for a grid: the preview's cost model. Local (N nearest) weighting,
 * all-points weighting by brute force and all points through the far field cost very differently, each in its own
 * unit of work; each kind's rate is measured on the last grid of that kind, and a conservative rate per backend
 * stands in before. */
#pragma once

#include "shepard-document.h"
#include "shepard-surface.h"

G_BEGIN_DECLS

typedef enum {
  SHEPARD_GRID_COST_LOCAL,
  SHEPARD_GRID_COST_ALL_POINTS,
  SHEPARD_GRID_COST_FAR_FIELD,
  SHEPARD_GRID_COST_KINDS
} ShepardGridCostKind;

typedef struct {
  /* Work per second of the last grid of each kind; <= 0: not measured yet. */
  double work_per_second[SHEPARD_GRID_COST_KINDS];
} ShepardGridCost;

/* The expected seconds of grid with params on document's engine. */
double shepard_grid_cost_seconds (const ShepardGridCost *cost, ShepardDocument *document, const shepard_params *params,
                                  const shepard_grid *grid);
/* The part of them that a grid of that kind costs whatever its cells (the far field's near field over every point). */
double shepard_grid_cost_fixed_seconds (const ShepardGridCost *cost, ShepardDocument *document,
                                        const shepard_params *params, const shepard_grid *grid);
/* Whether the rate of grid's kind has been measured. */
gboolean shepard_grid_cost_measured (const ShepardGridCost *cost, ShepardDocument *document,
                                     const shepard_params *params, const shepard_grid *grid);
/* Measures the rate of surface's kind from its time (a surface without one changes nothing). */
void shepard_grid_cost_measure (ShepardGridCost *cost, ShepardDocument *document, const ShepardSurface *surface);
/* Forgets every measured rate (another document). */
void shepard_grid_cost_forget (ShepardGridCost *cost);

G_END_DECLS
