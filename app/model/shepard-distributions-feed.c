/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-distributions-feed.h"

#include <math.h>

struct _ShepardDistributionsFeed
{
  GObject parent_instance;

  guint generation;          /* bumped by every request: results of older ones are dropped */
  gboolean in_flight;
  GCancellable *cancellable; /* of the computation in flight, cancelled when its request is overtaken */
  ShepardSurface *waiting;
  gboolean waiting_final;
  ShepardDistributions distributions;
  gboolean known;
  gboolean busy;
};

G_DEFINE_FINAL_TYPE (ShepardDistributionsFeed, shepard_distributions_feed, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_CHANGED,
  SIGNAL_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

typedef struct {
  ShepardSurface *surface;
  guint generation;
  ShepardDistributions distributions;
} Computation;

static void
computation_free (gpointer data)
{
  Computation *computation = data;

  shepard_surface_unref (computation->surface);
  g_free (computation);
}

ShepardDistributionsFeed *
shepard_distributions_feed_new (void)
{
  return g_object_new (SHEPARD_TYPE_DISTRIBUTIONS_FEED, NULL);
}

static void
update_busy (ShepardDistributionsFeed *self)
{
  gboolean busy = self->in_flight || self->waiting != NULL;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* A plane to read: in place in host memory, else copied from the GPU into *copy. */
static const float *
read_plane (ShepardSurface *surface, shepard_plane plane, float **copy, GError **error)
{
  if (surface->device_grid == NULL)
    return plane == SHEPARD_PLANE_ALPHA ? surface->alpha : surface->r_obs;
  *copy = shepard_surface_copy_plane (surface, plane, error);
  return *copy;
}

static void
computation_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  Computation *computation = task_data;
  ShepardSurface *surface = computation->surface;
  g_autofree float *alpha_copy = NULL, *r_obs_copy = NULL;
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    return;
  const float *alpha = read_plane (surface, SHEPARD_PLANE_ALPHA, &alpha_copy, &error);
  if (alpha == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  if (g_task_return_error_if_cancelled (task))
    return;
  const float *r_obs = read_plane (surface, SHEPARD_PLANE_R_OBS, &r_obs_copy, &error);
  if (r_obs == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  g_task_return_boolean (task, shepard_distributions_compute (&surface->params, alpha, r_obs, surface->r_exp,
                                                              surface->grid.width * surface->grid.height,
                                                              &computation->distributions));
}

static void start (ShepardDistributionsFeed *self, ShepardSurface *surface);

static void
on_computed (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardDistributionsFeed *self = SHEPARD_DISTRIBUTIONS_FEED (source);
  Computation *computation = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean computed = g_task_propagate_boolean (G_TASK (result), &error);

  self->in_flight = FALSE;
  g_clear_object (&self->cancellable);
  if (computation->generation == self->generation
      && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      if (error != NULL)
        g_signal_emit (self, signals[SIGNAL_FAILED], 0, error->message);
      else
        {
          self->known = computed;
          self->distributions = computation->distributions;
          g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
        }
    }
  if (self->waiting != NULL && self->waiting_final)
    {
      g_autoptr (ShepardSurface) next = g_steal_pointer (&self->waiting);
      start (self, next);
    }
  update_busy (self);
}

static void
start (ShepardDistributionsFeed *self, ShepardSurface *surface)
{
  Computation *computation = g_new0 (Computation, 1);

  computation->surface = shepard_surface_ref (surface);
  computation->generation = self->generation;
  self->in_flight = TRUE;
  self->cancellable = g_cancellable_new ();
  g_autoptr (GTask) task = g_task_new (self, self->cancellable, on_computed, NULL);
  g_task_set_source_tag (task, start);
  g_task_set_task_data (task, computation, computation_free);
  g_task_run_in_thread (task, computation_thread);
}

void
shepard_distributions_feed_push (ShepardDistributionsFeed *self, ShepardSurface *surface, gboolean final)
{
  g_return_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self));
  g_return_if_fail (surface != NULL);

  g_clear_pointer (&self->waiting, shepard_surface_unref);
  if (surface->params.method != SHEPARD_METHOD_AIDW || !isfinite (surface->r_exp))
    {
      self->known = FALSE;
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
  else if (self->in_flight)
    {
      self->waiting = shepard_surface_ref (surface);
      self->waiting_final = final;
    }
  else
    start (self, surface);
  update_busy (self);
}

void
shepard_distributions_feed_drop (ShepardDistributionsFeed *self)
{
  g_return_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self));

  self->generation++;
  if (self->cancellable != NULL)
    g_cancellable_cancel (self->cancellable);
  g_clear_pointer (&self->waiting, shepard_surface_unref);
  update_busy (self);
}

void
shepard_distributions_feed_settle (ShepardDistributionsFeed *self)
{
  g_return_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self));

  if (self->waiting == NULL)
    return;
  self->waiting_final = TRUE;
  if (!self->in_flight)
    {
      g_autoptr (ShepardSurface) next = g_steal_pointer (&self->waiting);
      start (self, next);
    }
  update_busy (self);
}

void
shepard_distributions_feed_forget (ShepardDistributionsFeed *self)
{
  g_return_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self));

  shepard_distributions_feed_drop (self);
  self->known = FALSE;
}

gboolean
shepard_distributions_feed_get (ShepardDistributionsFeed *self, ShepardDistributions *distributions)
{
  g_return_val_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self), FALSE);

  if (self->known && distributions != NULL)
    *distributions = self->distributions;
  return self->known;
}

gboolean
shepard_distributions_feed_get_busy (ShepardDistributionsFeed *self)
{
  g_return_val_if_fail (SHEPARD_IS_DISTRIBUTIONS_FEED (self), FALSE);
  return self->busy;
}

static void
shepard_distributions_feed_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardDistributionsFeed *self = SHEPARD_DISTRIBUTIONS_FEED (object);

  switch (prop_id)
    {
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_distributions_feed_dispose (GObject *object)
{
  ShepardDistributionsFeed *self = SHEPARD_DISTRIBUTIONS_FEED (object);

  g_clear_pointer (&self->waiting, shepard_surface_unref);
  g_clear_object (&self->cancellable);
  G_OBJECT_CLASS (shepard_distributions_feed_parent_class)->dispose (object);
}

static void
shepard_distributions_feed_class_init (ShepardDistributionsFeedClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = shepard_distributions_feed_get_property;
  object_class->dispose = shepard_distributions_feed_dispose;

  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
shepard_distributions_feed_init (ShepardDistributionsFeed *self)
{
}
