/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-surface.h"

G_BEGIN_DECLS

/* The difference between a preview's surfaces and the same grids computed with other parameters (AIDW against IDW):
 * what the map shows in difference mode. The other surface depends on neither the panel's own parameters nor the
 * request, only on (the other parameters, the grid, the points), so it is kept per grid: once the engine has
 * computed it, the difference of every later surface on that grid is a subtraction on the calling thread. The
 * engine work itself is the caller's (ShepardInstruments sequences everything that uses the engine). */
typedef struct _ShepardComparison ShepardComparison;

typedef enum {
  SHEPARD_COMPARISON_IDLE,        /* not comparing, or this surface's difference is made (or cannot be) already */
  SHEPARD_COMPARISON_MADE,        /* a new difference: shepard_comparison_get_difference */
  SHEPARD_COMPARISON_NEEDS_OTHER, /* the other parameters' surface on this grid must be computed first */
  SHEPARD_COMPARISON_FAILED,      /* the difference cannot be made: the error says why */
} ShepardComparisonStep;

ShepardComparison *shepard_comparison_new (void);
void shepard_comparison_free (ShepardComparison *self);

/* What to compare with (NULL: nothing). A change forgets the difference and the surfaces kept; FALSE when other is
 * what it was. */
gboolean shepard_comparison_set_other (ShepardComparison *self, const shepard_params *other);
/* The other parameters, NULL while not comparing. */
const shepard_params *shepard_comparison_get_other (ShepardComparison *self);

/* Makes surface's difference (over the points of points_generation) when the other surface of its grid is kept. */
ShepardComparisonStep shepard_comparison_update (ShepardComparison *self, ShepardSurface *surface,
                                                 guint points_generation, GError **error);
/* Keeps the other surface computed for NEEDS_OTHER (in host memory, with the current other parameters). */
void shepard_comparison_keep_other (ShepardComparison *self, ShepardSurface *other, guint points_generation);
/* The engine could not compute the other surface on grid: not asked for again with these points. */
void shepard_comparison_note_failure (ShepardComparison *self, const shepard_grid *grid, guint points_generation);

/* The latest difference, NULL before one or while not comparing. */
ShepardSurface *shepard_comparison_get_difference (ShepardComparison *self);
/* Forgets the difference and the surfaces kept, not the other parameters (another document). */
void shepard_comparison_forget (ShepardComparison *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardComparison, shepard_comparison_free)

G_END_DECLS
