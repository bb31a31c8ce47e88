/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* The cross-validation of a layer with one parameter set: every data point predicted from the points outside its
 * fold (shepard_engine_cross_validate). Immutable once delivered; reference counted. */
typedef struct {
  shepard_params params;
  size_t folds;                /* SHEPARD_FOLDS_LEAVE_ONE_OUT or the fold count */
  shepard_cv_summary summary;
  size_t n;
  double *x, *y;               /* where each point is (map units) */
  double *observed, *prediction, *residual, *alpha;
  guint points_generation;     /* of the document's points it was computed for */
  double seconds;              /* wall time of the engine call */
} ShepardCrossValidation;

#define SHEPARD_TYPE_CROSS_VALIDATION (shepard_cross_validation_get_type ())
GType shepard_cross_validation_get_type (void) G_GNUC_CONST;

/* Empty arrays of n for the engine to fill; x, y and observed copied in. */
ShepardCrossValidation *shepard_cross_validation_new (const shepard_params *params, size_t folds, const double *x,
                                                      const double *y, const double *observed, size_t n);
ShepardCrossValidation *shepard_cross_validation_ref (ShepardCrossValidation *validation);
void shepard_cross_validation_unref (ShepardCrossValidation *validation);

/* The indices of the (at most) count points with the largest |residual|, largest first; returns how many. */
size_t shepard_cross_validation_worst (const ShepardCrossValidation *validation, size_t *indices, size_t count);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardCrossValidation, shepard_cross_validation_unref)

G_END_DECLS
