/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-cross-validation.h"

#include <math.h>
#include <string.h>

G_DEFINE_BOXED_TYPE (ShepardCrossValidation, shepard_cross_validation, shepard_cross_validation_ref,
                     shepard_cross_validation_unref)

ShepardCrossValidation *
shepard_cross_validation_new (const shepard_params *params, size_t folds, const double *x, const double *y,
                              const double *observed, size_t n)
{
  ShepardCrossValidation *validation = g_atomic_rc_box_new0 (ShepardCrossValidation);

  validation->params = *params;
  validation->folds = folds;
  validation->n = n;
  validation->x = g_memdup2 (x, n * sizeof (double));
  validation->y = g_memdup2 (y, n * sizeof (double));
  validation->observed = g_memdup2 (observed, n * sizeof (double));
  validation->prediction = g_new0 (double, n);
  validation->residual = g_new0 (double, n);
  validation->alpha = g_new0 (double, n);
  return validation;
}

ShepardCrossValidation *
shepard_cross_validation_ref (ShepardCrossValidation *validation)
{
  return g_atomic_rc_box_acquire (validation);
}

static void
validation_clear (gpointer data)
{
  ShepardCrossValidation *validation = data;

  g_free (validation->x);
  g_free (validation->y);
  g_free (validation->observed);
  g_free (validation->prediction);
  g_free (validation->residual);
  g_free (validation->alpha);
}

void
shepard_cross_validation_unref (ShepardCrossValidation *validation)
{
  g_atomic_rc_box_release_full (validation, validation_clear);
}

size_t
shepard_cross_validation_worst (const ShepardCrossValidation *validation, size_t *indices, size_t count)
{
  size_t found = 0;

  g_return_val_if_fail (validation != NULL && (indices != NULL || count == 0), 0);
  /* A sorted list of the few largest: one pass over the points, however many there are. */
  for (size_t i = 0; i < validation->n; i++)
    {
      double size = fabs (validation->residual[i]);
      size_t at = found < count ? found : count;
      while (at > 0 && fabs (validation->residual[indices[at - 1]]) < size)
        at--;
      if (at >= count)
        continue;
      size_t kept = found < count ? found : count - 1;
      memmove (&indices[at + 1], &indices[at], (kept - at) * sizeof *indices);
      indices[at] = i;
      if (found < count)
        found++;
    }
  return found;
}
