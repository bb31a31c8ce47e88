/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "field-engines.h"

#include "engine-autocleanups.h"
#include "point-layer.h"
#include "shepard-app-error.h"

static shepard_engine *
start_engine (const ShepardPointLayer *const *group, size_t n_group, shepard_backend backend,
              shepard_precision precision, const shepard_gpu_set *gpus, GError **error)
{
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new_on_gpus (backend, precision, 0, gpus, &engine_error);
  g_autofree const double **values = g_new (const double *, n_group);

  for (size_t f = 0; f < n_group; f++)
    values[f] = group[f]->z;
  if (engine == NULL
      || shepard_engine_set_points_fields (engine, group[0]->x, group[0]->y, values, n_group, group[0]->count,
                                           &engine_error)
           != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  return g_steal_pointer (&engine);
}

gboolean
shepard_field_engines_init (ShepardFieldEngines *self, GPtrArray *fields, shepard_backend backend,
                            shepard_precision precision, const shepard_gpu_set *gpus, GError **error)
{
  g_return_val_if_fail (self != NULL && fields != NULL && fields->len > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *self = (ShepardFieldEngines) {
    .engines = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_engine_free),
    .fields = g_new0 (ShepardGridExportField, fields->len),
    .n_fields = fields->len,
  };
  g_autofree const ShepardPointLayer **group = g_new (const ShepardPointLayer *, fields->len);
  for (guint first = 0; first < fields->len; first++)
    {
      if (self->fields[first].engine != NULL)
        continue;
      const ShepardPointLayer *leader = g_ptr_array_index (fields, first);
      g_autofree guint *members = g_new (guint, fields->len);
      size_t n_group = 0;
      for (guint f = first; f < fields->len; f++)
        if (self->fields[f].engine == NULL && shepard_point_layer_same_points (leader, g_ptr_array_index (fields, f)))
          {
            members[n_group] = f;
            group[n_group++] = g_ptr_array_index (fields, f);
          }
      shepard_engine *engine = start_engine (group, n_group, backend, precision, gpus, error);
      if (engine == NULL)
        {
          shepard_field_engines_clear (self);
          return FALSE;
        }
      g_ptr_array_add (self->engines, engine);
      for (size_t member = 0; member < n_group; member++)
        self->fields[members[member]] = (ShepardGridExportField) { engine, member, group[member]->field_name };
    }
  return TRUE;
}

void
shepard_field_engines_clear (ShepardFieldEngines *self)
{
  g_clear_pointer (&self->engines, g_ptr_array_unref);
  g_clear_pointer (&self->fields, g_free);
  self->n_fields = 0;
}
