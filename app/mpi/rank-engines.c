/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rank-engines.h"

#include "engine-autocleanups.h"
#include "point-layer.h"
#include "shepard-app-error.h"

static shepard_engine *
start_engine (GPtrArray *fields, const guint *members, size_t n_members, const shepard_layer_extent *whole,
              const ShepardEngineChoice *choice, GError **error)
{
  shepard_error engine_error = { 0 };
  g_autoptr (shepard_engine) engine = shepard_engine_new_on_gpus (choice->backend, choice->precision,
                                                                  choice->threads, &choice->gpus, &engine_error);
  const ShepardPointLayer *leader = g_ptr_array_index (fields, members[0]);
  g_autofree const double **values = g_new (const double *, n_members);

  for (size_t m = 0; m < n_members; m++)
    values[m] = ((const ShepardPointLayer *) g_ptr_array_index (fields, members[m]))->z;
  shepard_status status = SHEPARD_ERROR_INTERNAL;
  if (engine != NULL && whole == NULL)
    status = shepard_engine_set_points_fields (engine, leader->x, leader->y, values, n_members, leader->count,
                                               &engine_error);
  else if (engine != NULL)
    status = shepard_engine_set_points_part (engine, leader->x, leader->y, values, n_members, leader->count, whole,
                                             &engine_error);
  if (status != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return NULL;
    }
  return g_steal_pointer (&engine);
}

gboolean
shepard_rank_engines_init (ShepardFieldEngines *self, GPtrArray *fields, const ShepardLayerScan *scan,
                           const ShepardEngineChoice *choice, GError **error)
{
  g_return_val_if_fail (self != NULL && fields != NULL && fields->len > 0 && choice != NULL, FALSE);
  g_return_val_if_fail (scan == NULL || scan->n_fields == fields->len, FALSE);

  *self = (ShepardFieldEngines) {
    .engines = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_engine_free),
    .fields = g_new0 (ShepardGridExportField, fields->len),
    .n_fields = fields->len,
  };
  g_autofree guint *leader_of = g_new (guint, fields->len);
  for (guint f = 0; f < fields->len; f++)
    {
      leader_of[f] = f;
      if (scan != NULL)
        leader_of[f] = scan->leader_of[f];
      else
        for (guint g = 0; g < f && leader_of[f] == f; g++)
          if (leader_of[g] == g
              && shepard_point_layer_same_points (g_ptr_array_index (fields, f), g_ptr_array_index (fields, g)))
            leader_of[f] = g;
    }
  g_autofree guint *members = g_new (guint, fields->len);
  for (guint leader = 0; leader < fields->len; leader++)
    {
      if (leader_of[leader] != leader)
        continue;
      size_t n_members = 0;
      for (guint f = leader; f < fields->len; f++)
        if (leader_of[f] == leader)
          members[n_members++] = f;
      shepard_layer_extent whole;
      if (scan != NULL)
        shepard_layer_scan_group_extent (scan, leader, &whole);
      shepard_engine *engine = start_engine (fields, members, n_members, scan != NULL ? &whole : NULL, choice, error);
      if (engine == NULL)
        {
          shepard_field_engines_clear (self);
          return FALSE;
        }
      g_ptr_array_add (self->engines, engine);
      for (size_t m = 0; m < n_members; m++)
        self->fields[members[m]] = (ShepardGridExportField) {
          engine, m, ((const ShepardPointLayer *) g_ptr_array_index (fields, members[m]))->field_name
        };
    }
  return TRUE;
}
