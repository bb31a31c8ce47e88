/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-preview-cost.h"

#include <math.h>

/* Work per second before the document's first grid of a kind is measured, in query x data point pairs (all points
 * by brute force), query x neighbour pairs (N nearest, whose kNN search costs more per pair) or steps of the far
 * field (all points through it; see work_of): below what a slow machine does, so that the first coarse grid stays
 * within its budget. The CPU figures are per core (2 Xeon cores did 5e6 far-field steps a second each over 1M
 * points; an H100 about 2e9 in all). */
#define DEFAULT_CPU_PAIRS_PER_SECOND 2.5e8
#define DEFAULT_GPU_PAIRS_PER_SECOND 5e10
#define LOCAL_PAIR_COST 4.0
#define DEFAULT_CPU_FAR_FIELD_STEPS_PER_SECOND 2e6
#define DEFAULT_GPU_FAR_FIELD_STEPS_PER_SECOND 5e8
/* The far field's work in steps, one step a level of the tree that a query walks down: a query costs log2 (points)
 * steps and about FAR_FIELD_QUERY_STEPS more (its nearest point, its leaves' pairs); the near field of the CPU
 * backend's tiles weighs points for the queries around them, whatever the grid, about FAR_FIELD_POINT_STEPS a point.
 * Fitted to 1M points at 1e-6 on 2 cores (0.072, 0.127, 0.229 and 0.66 core seconds over 32^2, 64^2, 128^2 and 256^2
 * cells; tests/bench/results/cpu-2core-window-stop41-2026-11-29.txt): the points' part makes a coarse grid of a large
 * layer cost more than its cells say. It was 2 a point when the near field was weighed over whole 8 x 8 tiles. */
#define FAR_FIELD_QUERY_STEPS 15.0
#define FAR_FIELD_POINT_STEPS 0.25

static ShepardGridCostKind
all_points_kind (shepard_summation summation)
{
  return summation == SHEPARD_SUMMATION_FAR_FIELD ? SHEPARD_GRID_COST_FAR_FIELD : SHEPARD_GRID_COST_ALL_POINTS;
}

/* How the engine will weigh grid with params: all points through the far field where it takes that for this many
 * cells. */
static ShepardGridCostKind
kind_of (ShepardDocument *document, const shepard_params *params, const shepard_grid *grid)
{
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
    return SHEPARD_GRID_COST_LOCAL;
  return all_points_kind (shepard_document_get_summation (document, params, grid->width * grid->height));
}

/* The work of a grid of a kind: every cell weighs every point, or walks the far field's tree (in steps, above), or
 * searches and weighs its nearest (AIDW's k for r_obs and the N of the neighbourhood come from one search). */
static double
work_of (ShepardDocument *document, ShepardGridCostKind kind, const shepard_params *params, const shepard_grid *grid)
{
  double n_points = MAX ((double) shepard_document_get_points (document)->count, 1.0);
  double cells = (double) (grid->width * grid->height);

  switch (kind)
    {
    case SHEPARD_GRID_COST_ALL_POINTS:
      return cells * n_points;
    case SHEPARD_GRID_COST_FAR_FIELD:
      return cells * (MAX (log2 (n_points), 1.0) + FAR_FIELD_QUERY_STEPS) + FAR_FIELD_POINT_STEPS * n_points;
    default:
      {
        double neighbors = params->method == SHEPARD_METHOD_AIDW ? MAX (params->neighbors, params->k)
                                                                 : params->neighbors;
        return cells * MIN (neighbors, n_points);
      }
    }
}

static double
default_work_per_second (ShepardDocument *document, ShepardGridCostKind kind)
{
  gboolean gpu = shepard_document_get_cuda_device (document) >= 0;
  if (kind == SHEPARD_GRID_COST_FAR_FIELD)
    return gpu ? DEFAULT_GPU_FAR_FIELD_STEPS_PER_SECOND
               : DEFAULT_CPU_FAR_FIELD_STEPS_PER_SECOND * g_get_num_processors ();
  double rate = gpu ? DEFAULT_GPU_PAIRS_PER_SECOND : DEFAULT_CPU_PAIRS_PER_SECOND * g_get_num_processors ();

  return kind == SHEPARD_GRID_COST_LOCAL ? rate / LOCAL_PAIR_COST : rate;
}

static double
work_per_second (const ShepardGridCost *cost, ShepardDocument *document, ShepardGridCostKind kind)
{
  return cost->work_per_second[kind] > 0 ? cost->work_per_second[kind] : default_work_per_second (document, kind);
}

double
shepard_grid_cost_seconds (const ShepardGridCost *cost, ShepardDocument *document, const shepard_params *params,
                           const shepard_grid *grid)
{
  ShepardGridCostKind kind = kind_of (document, params, grid);

  return work_of (document, kind, params, grid) / work_per_second (cost, document, kind);
}

double
shepard_grid_cost_fixed_seconds (const ShepardGridCost *cost, ShepardDocument *document,
                                 const shepard_params *params, const shepard_grid *grid)
{
  ShepardGridCostKind kind = kind_of (document, params, grid);
  shepard_grid no_cells = *grid;

  no_cells.width = no_cells.height = 0;
  return work_of (document, kind, params, &no_cells) / work_per_second (cost, document, kind);
}

gboolean
shepard_grid_cost_measured (const ShepardGridCost *cost, ShepardDocument *document, const shepard_params *params,
                            const shepard_grid *grid)
{
  return cost->work_per_second[kind_of (document, params, grid)] > 0;
}

void
shepard_grid_cost_measure (ShepardGridCost *cost, ShepardDocument *document, const ShepardSurface *surface)
{
  if (!(surface->seconds > 0))
    return;
  /* How a delivered surface was weighed: the engine says how it summed. */
  ShepardGridCostKind kind = surface->params.neighbors != SHEPARD_NEIGHBORS_ALL ? SHEPARD_GRID_COST_LOCAL
                                                                                : all_points_kind (surface->summation);
  cost->work_per_second[kind] = work_of (document, kind, &surface->params, &surface->grid) / surface->seconds;
}

void
shepard_grid_cost_forget (ShepardGridCost *cost)
{
  for (int kind = 0; kind < SHEPARD_GRID_COST_KINDS; kind++)
    cost->work_per_second[kind] = 0.0;
}
