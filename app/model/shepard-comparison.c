/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-comparison.h"

#include "shepard-app-error.h"

/* The preview's two grids, coarse and full: a drag on a slow layer alternates between them. */
#define KEPT_OTHERS 2

struct _ShepardComparison
{
  gboolean comparing;
  shepard_params other;
  GPtrArray *kept;            /* of ShepardSurface: other surfaces, newest last */
  GArray *kept_generations;   /* the points generation of each */
  gboolean failed;            /* the other surface could not be computed on failed_grid with failed_generation */
  shepard_grid failed_grid;
  guint failed_generation;
  ShepardSurface *difference;
  ShepardSurface *difference_of; /* the surface the difference was made (or failed to be made) for */
  guint difference_generation;
};

ShepardComparison *
shepard_comparison_new (void)
{
  ShepardComparison *self = g_new0 (ShepardComparison, 1);

  self->kept = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_surface_unref);
  self->kept_generations = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

void
shepard_comparison_forget (ShepardComparison *self)
{
  g_return_if_fail (self != NULL);

  g_ptr_array_set_size (self->kept, 0);
  g_array_set_size (self->kept_generations, 0);
  self->failed = FALSE;
  g_clear_pointer (&self->difference, shepard_surface_unref);
  g_clear_pointer (&self->difference_of, shepard_surface_unref);
}

void
shepard_comparison_free (ShepardComparison *self)
{
  if (self == NULL)
    return;
  shepard_comparison_forget (self);
  g_ptr_array_unref (self->kept);
  g_array_unref (self->kept_generations);
  g_free (self);
}

gboolean
shepard_comparison_set_other (ShepardComparison *self, const shepard_params *other)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (other == NULL ? !self->comparing : self->comparing && shepard_params_equal (other, &self->other))
    return FALSE;
  shepard_comparison_forget (self);
  self->comparing = other != NULL;
  if (other != NULL)
    self->other = *other;
  return TRUE;
}

const shepard_params *
shepard_comparison_get_other (ShepardComparison *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->comparing ? &self->other : NULL;
}

static gboolean
same_grid (const shepard_grid *a, const shepard_grid *b)
{
  return a->x_min == b->x_min && a->y_max == b->y_max && a->dx == b->dx && a->dy == b->dy && a->width == b->width
         && a->height == b->height;
}

static ShepardSurface *
find_kept (ShepardComparison *self, const shepard_grid *grid, guint points_generation)
{
  for (guint i = 0; i < self->kept->len; i++)
    {
      ShepardSurface *other = g_ptr_array_index (self->kept, i);
      if (same_grid (&other->grid, grid) && g_array_index (self->kept_generations, guint, i) == points_generation)
        return other;
    }
  return NULL;
}

/* surface minus other, cell by cell; NULL with an error when a surface on the GPU cannot be read. */
static float *
subtract (ShepardSurface *surface, const ShepardSurface *other, GError **error)
{
  size_t cells = surface->grid.width * surface->grid.height;
  g_autofree float *copied = NULL;
  const float *values = surface->values;

  if (values == NULL)
    {
      copied = shepard_surface_copy_plane (surface, SHEPARD_PLANE_VALUES, error);
      if (copied == NULL)
        return NULL;
      values = copied;
    }
  float *difference = g_new (float, cells);
  for (size_t i = 0; i < cells; i++)
    difference[i] = (float) ((double) values[i] - (double) other->values[i]);
  return difference;
}

ShepardComparisonStep
shepard_comparison_update (ShepardComparison *self, ShepardSurface *surface, guint points_generation,
                           GError **error)
{
  g_return_val_if_fail (self != NULL && surface != NULL, SHEPARD_COMPARISON_IDLE);

  if (!self->comparing
      || (self->difference_of == surface && self->difference_generation == points_generation)
      || (self->failed && self->failed_generation == points_generation && same_grid (&self->failed_grid, &surface->grid)))
    return SHEPARD_COMPARISON_IDLE;
  ShepardSurface *other = find_kept (self, &surface->grid, points_generation);
  if (other == NULL)
    return SHEPARD_COMPARISON_NEEDS_OTHER;

  g_clear_pointer (&self->difference_of, shepard_surface_unref);
  self->difference_of = shepard_surface_ref (surface);
  self->difference_generation = points_generation;
  float *difference = subtract (surface, other, error);
  if (difference == NULL)
    return SHEPARD_COMPARISON_FAILED;
  g_clear_pointer (&self->difference, shepard_surface_unref);
  self->difference = shepard_surface_new_derived (&surface->grid, &surface->params, difference,
                                                  surface->seconds + other->seconds);
  return SHEPARD_COMPARISON_MADE;
}

void
shepard_comparison_keep_other (ShepardComparison *self, ShepardSurface *other, guint points_generation)
{
  g_return_if_fail (self != NULL && other != NULL && other->values != NULL);

  if (!self->comparing || !shepard_params_equal (&other->params, &self->other))
    return;
  if (self->kept->len == KEPT_OTHERS)
    {
      g_ptr_array_remove_index (self->kept, 0);
      g_array_remove_index (self->kept_generations, 0);
    }
  g_ptr_array_add (self->kept, shepard_surface_ref (other));
  g_array_append_val (self->kept_generations, points_generation);
}

void
shepard_comparison_note_failure (ShepardComparison *self, const shepard_grid *grid, guint points_generation)
{
  g_return_if_fail (self != NULL && grid != NULL);

  self->failed = TRUE;
  self->failed_grid = *grid;
  self->failed_generation = points_generation;
}

ShepardSurface *
shepard_comparison_get_difference (ShepardComparison *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->difference;
}
