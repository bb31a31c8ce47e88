/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An export of several fields: each field's usable points read again from the layer, the fields with the same points
 * on one engine (their neighbour search shared), one engine for each other set of points. */
#include "shepard-document-private.h"

#include <math.h>
#include <string.h>

#include "shepard-app-error.h"

void
_shepard_field_engines_clear (ShepardFieldEngines *engines)
{
  g_clear_pointer (&engines->fields, g_free);
  g_clear_pointer (&engines->engines, g_ptr_array_unref);
  g_clear_pointer (&engines->layers, g_ptr_array_unref);
  engines->n_fields = 0;
}

/* The layers of group (indices into layers) on a new engine like the document's, on its GPUs. */
static shepard_engine *
engine_for (GPtrArray *layers, GArray *group, const shepard_gpu_set *gpus, GError **error)
{
  shepard_error engine_error = { 0 };
  const ShepardPointLayer *first = layers->pdata[g_array_index (group, guint, 0)];
  g_autofree const double **z = g_new (const double *, group->len);

  for (guint i = 0; i < group->len; i++)
    z[i] = ((const ShepardPointLayer *) layers->pdata[g_array_index (group, guint, i)])->z;
  shepard_engine *engine = shepard_engine_new_on_gpus (SHEPARD_BACKEND_AUTO, SHEPARD_PRECISION_FLOAT32, 0, gpus,
                                                       &engine_error);
  if (engine == NULL
      || shepard_engine_set_points_fields (engine, first->x, first->y, z, group->len, first->count, &engine_error)
           != SHEPARD_OK)
    {
      g_clear_pointer (&engine, shepard_engine_free);
      shepard_app_error_set_from_engine (error, &engine_error);
    }
  return engine;
}

gboolean
_shepard_field_engines_init (ShepardDocument *self, const char *const *names, ShepardFieldEngines *engines,
                             GError **error)
{
  const ShepardPointLayer *points = self->points;

  memset (engines, 0, sizeof *engines);
  if (self->sandbox)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "A sandbox has one field, its points' values: export it alone.");
      return FALSE;
    }
  engines->layers = shepard_point_layer_read_fields (points->source, points->layer_name, names, NULL, NULL, NULL,
                                                     error);
  if (engines->layers == NULL)
    return FALSE;
  engines->engines = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_engine_free);
  engines->n_fields = engines->layers->len;
  engines->fields = g_new0 (ShepardGridExportField, engines->n_fields);
  engines->value_min = INFINITY;
  engines->value_max = -INFINITY;

  /* Groups of fields with the same points, in the order of their first field. */
  g_autoptr (GPtrArray) groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  for (guint i = 0; i < engines->layers->len; i++)
    {
      const ShepardPointLayer *layer = engines->layers->pdata[i];
      GArray *group = NULL;
      for (guint g = 0; g < groups->len && group == NULL; g++)
        {
          GArray *candidate = groups->pdata[g];
          if (shepard_point_layer_same_points (engines->layers->pdata[g_array_index (candidate, guint, 0)], layer))
            group = candidate;
        }
      if (group == NULL)
        {
          group = g_array_new (FALSE, FALSE, sizeof (guint));
          g_ptr_array_add (groups, group);
        }
      g_array_append_val (group, i);
      for (size_t p = 0; p < layer->count; p++)
        {
          engines->value_min = MIN (engines->value_min, layer->z[p]);
          engines->value_max = MAX (engines->value_max, layer->z[p]);
        }
    }
  for (guint g = 0; g < groups->len; g++)
    {
      GArray *group = groups->pdata[g];
      shepard_engine *engine = engine_for (engines->layers, group, &self->gpus, error);
      if (engine == NULL)
        {
          _shepard_field_engines_clear (engines);
          return FALSE;
        }
      g_ptr_array_add (engines->engines, engine);
      for (guint f = 0; f < group->len; f++)
        {
          guint index = g_array_index (group, guint, f);
          engines->fields[index] = (ShepardGridExportField) {
            .engine = engine,
            .field = f,
            .name = ((const ShepardPointLayer *) engines->layers->pdata[index])->field_name,
          };
        }
    }
  return TRUE;
}
