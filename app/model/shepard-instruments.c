/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-instruments.h"

#include <math.h>
#include <string.h>

/* The kinds of engine work, each with its own cancellable: a new pin drops only the old explanation. */
typedef enum {
  WORK_EXPLANATION,
  WORK_CROSS_VALIDATION,
  WORK_COMPARISON,
  N_WORKS
} Work;

static const char *const work_names[N_WORKS] = { "explanation", "cross-validation", "comparison" };

struct _ShepardInstruments
{
  GObject parent_instance;

  /* Owned */
  ShepardPreview *preview;
  ShepardDocument *document;
  GCancellable *cancellables[N_WORKS];
  guint generation;              /* bumped by every request of the preview: results of older ones are dropped */
  guint distributions_generation; /* bumped by every surface */
  ShepardSurface *surface;       /* the last full surface, what engine work follows */
  gboolean awaiting_surface;     /* a request is out: work waits for its full surface rather than use the old one */
  gboolean pinned;
  double pin_x, pin_y;
  gboolean cross_validation_enabled;
  gboolean cross_validating;
  guint in_flight;               /* jobs started and not yet back, of any request */
  gboolean busy;
  gboolean comparing;
  shepard_params other;

  ShepardCrossValidation *validation;
  ShepardExplanation *explanation;
  ShepardSurface *comparison;
  ShepardDistributions distributions;
  gboolean has_distributions;
  shepard_params distributions_params;
  size_t distributions_cells;
};

G_DEFINE_FINAL_TYPE (ShepardInstruments, shepard_instruments, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_CROSS_VALIDATION_ENABLED,
  PROP_CROSS_VALIDATING,
  PROP_BUSY,
  N_PROPS
};

enum {
  SIGNAL_DISTRIBUTIONS,
  SIGNAL_EXPLAINED,
  SIGNAL_CROSS_VALIDATED,
  SIGNAL_COMPARISON_READY,
  SIGNAL_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/* What a piece of work was started for; its result counts only if nothing newer started since. */
typedef struct {
  ShepardInstruments *instruments;
  guint generation;
  Work work;
  gboolean chain; /* an explanation of a new surface: the cross-validation follows it */
} Job;

/* Busy while a request's full surface is awaited or any job is out. */
static void
update_busy (ShepardInstruments *self)
{
  gboolean busy = self->awaiting_surface || self->in_flight > 0;

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static Job *
job_new (ShepardInstruments *self, Work work)
{
  Job *job = g_new0 (Job, 1);

  job->instruments = g_object_ref (self);
  job->generation = self->generation;
  job->work = work;
  self->in_flight++;
  update_busy (self);
  return job;
}

static void
job_free (Job *job)
{
  ShepardInstruments *self = job->instruments;

  self->in_flight--;
  update_busy (self);
  g_object_unref (self);
  g_free (job);
}

static GCancellable *
restart_work (ShepardInstruments *self, Work work)
{
  if (self->cancellables[work] != NULL)
    g_cancellable_cancel (self->cancellables[work]);
  g_clear_object (&self->cancellables[work]);
  self->cancellables[work] = g_cancellable_new ();
  return self->cancellables[work];
}

static void
cancel_work (ShepardInstruments *self)
{
  for (Work work = 0; work < N_WORKS; work++)
    {
      if (self->cancellables[work] != NULL)
        g_cancellable_cancel (self->cancellables[work]);
      g_clear_object (&self->cancellables[work]);
    }
}

static void
set_cross_validating (ShepardInstruments *self, gboolean cross_validating)
{
  if (self->cross_validating == cross_validating)
    return;
  self->cross_validating = cross_validating;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CROSS_VALIDATING]);
}

/* A result of the current request, or one to drop; a cancel is not a failure worth a word. */
static gboolean
job_is_current (Job *job, const GError *error)
{
  ShepardInstruments *self = job->instruments;
  gboolean current = job->generation == self->generation;

  if (current && error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[SIGNAL_FAILED], 0, work_names[job->work], error->message);
  return current && error == NULL;
}

static void run_cross_validation (ShepardInstruments *self);
static void run_comparison (ShepardInstruments *self);

static void
on_explained (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Job *job = user_data;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardExplanation) explanation = shepard_document_explain_finish (SHEPARD_DOCUMENT (source), result,
                                                                                 &error);

  if (job_is_current (job, error) && self->pinned && explanation->x == self->pin_x && explanation->y == self->pin_y)
    {
      g_clear_pointer (&self->explanation, shepard_explanation_unref);
      self->explanation = shepard_explanation_ref (explanation);
      g_signal_emit (self, signals[SIGNAL_EXPLAINED], 0, explanation);
    }
  if (job->chain && job->generation == self->generation)
    run_cross_validation (self);
  job_free (job);
}

static void
run_explanation (ShepardInstruments *self)
{
  if (!self->pinned || self->surface == NULL || self->document == NULL)
    {
      run_cross_validation (self);
      return;
    }
  GCancellable *cancellable = restart_work (self, WORK_EXPLANATION);
  Job *job = job_new (self, WORK_EXPLANATION);
  job->chain = TRUE;
  shepard_document_explain_async (self->document, &self->surface->params, self->pin_x, self->pin_y, cancellable,
                                  on_explained, job);
}

static void
on_cross_validated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Job *job = user_data;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardCrossValidation) validation = shepard_document_cross_validate_finish (SHEPARD_DOCUMENT (source),
                                                                                          result, &error);

  if (job->generation == self->generation)
    set_cross_validating (self, FALSE);
  if (job_is_current (job, error))
    {
      g_clear_pointer (&self->validation, shepard_cross_validation_unref);
      self->validation = shepard_cross_validation_ref (validation);
      g_signal_emit (self, signals[SIGNAL_CROSS_VALIDATED], 0, validation);
    }
  if (job->generation == self->generation)
    run_comparison (self);
  job_free (job);
}

static gboolean
validation_is_current (ShepardInstruments *self)
{
  return self->validation != NULL && shepard_params_equal (&self->validation->params, &self->surface->params)
         && self->validation->points_generation == shepard_document_get_points_generation (self->document);
}

static void
run_cross_validation (ShepardInstruments *self)
{
  if (!self->cross_validation_enabled || self->surface == NULL || self->document == NULL
      || validation_is_current (self))
    {
      run_comparison (self);
      return;
    }
  GCancellable *cancellable = restart_work (self, WORK_CROSS_VALIDATION);
  set_cross_validating (self, TRUE);
  shepard_document_cross_validate_async (self->document, &self->surface->params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0,
                                         cancellable, on_cross_validated, job_new (self, WORK_CROSS_VALIDATION));
}

typedef struct {
  Job *job;
  ShepardSurface *surface;
} ComparisonJob;

static void
on_compared (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ComparisonJob *comparison_job = user_data;
  Job *job = comparison_job->job;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) other = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result, &error);
  g_autoptr (ShepardSurface) surface = comparison_job->surface;

  g_free (comparison_job);
  if (!job_is_current (job, error) || !self->comparing)
    {
      job_free (job);
      return;
    }
  g_autofree float *values = shepard_surface_copy_plane (surface, SHEPARD_PLANE_VALUES, &error);
  if (values == NULL)
    {
      g_signal_emit (self, signals[SIGNAL_FAILED], 0, work_names[WORK_COMPARISON], error->message);
      job_free (job);
      return;
    }
  size_t cells = surface->grid.width * surface->grid.height;
  g_autofree double *difference = g_new (double, cells);
  for (size_t i = 0; i < cells; i++)
    difference[i] = (double) values[i] - (double) other->values[i];
  g_clear_pointer (&self->comparison, shepard_surface_unref);
  self->comparison = shepard_surface_new_from_host (&surface->grid, &surface->params, difference, NULL, NULL, NAN,
                                                    surface->seconds + other->seconds);
  g_signal_emit (self, signals[SIGNAL_COMPARISON_READY], 0, self->comparison);
  job_free (job);
}

static void
run_comparison (ShepardInstruments *self)
{
  if (!self->comparing || self->surface == NULL || self->document == NULL)
    return;
  GCancellable *cancellable = restart_work (self, WORK_COMPARISON);
  ComparisonJob *comparison_job = g_new0 (ComparisonJob, 1);
  comparison_job->job = job_new (self, WORK_COMPARISON);
  comparison_job->surface = shepard_surface_ref (self->surface);
  shepard_document_interpolate_async (self->document, &self->other, &self->surface->grid,
                                      SHEPARD_SURFACE_IN_HOST_MEMORY, cancellable, on_compared, comparison_job);
}

typedef struct {
  ShepardSurface *surface;
  ShepardDistributions distributions;
} DistributionsTask;

static void
distributions_task_free (gpointer data)
{
  DistributionsTask *task_data = data;

  shepard_surface_unref (task_data->surface);
  g_free (task_data);
}

/* Off the main thread: a surface on the GPU is read back first (a few MB for a fine grid). */
static void
distributions_thread (GTask *task, gpointer source_object, gpointer task_data, GCancellable *cancellable)
{
  DistributionsTask *distributions_task = task_data;
  ShepardSurface *surface = distributions_task->surface;
  GError *error = NULL;
  g_autofree float *alpha = shepard_surface_copy_plane (surface, SHEPARD_PLANE_ALPHA, &error);
  g_autofree float *r_obs = alpha != NULL ? shepard_surface_copy_plane (surface, SHEPARD_PLANE_R_OBS, &error) : NULL;

  if (r_obs == NULL)
    {
      g_task_return_error (task, error);
      return;
    }
  gboolean computed = shepard_distributions_compute (&surface->params, alpha, r_obs, surface->r_exp,
                                                     surface->grid.width * surface->grid.height,
                                                     &distributions_task->distributions);
  g_task_return_boolean (task, computed);
}

static void
on_distributions (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardInstruments *self = SHEPARD_INSTRUMENTS (source);
  guint generation = GPOINTER_TO_UINT (user_data);
  DistributionsTask *task_data = g_task_get_task_data (G_TASK (result));
  g_autoptr (GError) error = NULL;
  gboolean computed = g_task_propagate_boolean (G_TASK (result), &error);
  size_t cells = task_data->surface->grid.width * task_data->surface->grid.height;

  self->in_flight--;
  update_busy (self);
  /* A coarse grid's figures that come after the fine grid's of the same request would be a step back. */
  if (generation != self->distributions_generation
      || (shepard_params_equal (&task_data->surface->params, &self->distributions_params) && cells < self->distributions_cells))
    return;
  if (error != NULL)
    {
      g_signal_emit (self, signals[SIGNAL_FAILED], 0, "distributions", error->message);
      return;
    }
  self->has_distributions = computed;
  self->distributions = task_data->distributions;
  self->distributions_params = task_data->surface->params;
  self->distributions_cells = cells;
  g_signal_emit (self, signals[SIGNAL_DISTRIBUTIONS], 0);
}

static void
run_distributions (ShepardInstruments *self, ShepardSurface *surface)
{
  self->distributions_generation++;
  if (surface->params.method != SHEPARD_METHOD_AIDW || !isfinite (surface->r_exp))
    {
      self->has_distributions = FALSE;
      self->distributions_cells = 0;
      g_signal_emit (self, signals[SIGNAL_DISTRIBUTIONS], 0);
      return;
    }
  DistributionsTask *task_data = g_new0 (DistributionsTask, 1);
  task_data->surface = shepard_surface_ref (surface);
  self->in_flight++;
  update_busy (self);
  g_autoptr (GTask) task = g_task_new (self, NULL, on_distributions,
                                       GUINT_TO_POINTER (self->distributions_generation));
  g_task_set_task_data (task, task_data, distributions_task_free);
  g_task_run_in_thread (task, distributions_thread);
}

static void
on_requested (ShepardInstruments *self, ShepardPreview *preview)
{
  self->awaiting_surface = TRUE;
  self->generation++;
  cancel_work (self);
  set_cross_validating (self, FALSE);
  update_busy (self);
}

/* The request gave no surface: nothing waits for it any more. */
static void
on_preview_failed (ShepardInstruments *self, const char *message, ShepardPreview *preview)
{
  self->awaiting_surface = FALSE;
  update_busy (self);
}

static void
on_surface_ready (ShepardInstruments *self, ShepardSurface *surface, gboolean final, ShepardPreview *preview)
{
  run_distributions (self, surface);
  if (!final)
    return;
  self->awaiting_surface = FALSE;
  update_busy (self);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  self->surface = shepard_surface_ref (surface);
  run_explanation (self);
}

static void
forget (ShepardInstruments *self)
{
  self->awaiting_surface = FALSE;
  update_busy (self);
  self->generation++;
  self->distributions_generation++;
  cancel_work (self);
  set_cross_validating (self, FALSE);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  g_clear_pointer (&self->validation, shepard_cross_validation_unref);
  g_clear_pointer (&self->explanation, shepard_explanation_unref);
  g_clear_pointer (&self->comparison, shepard_surface_unref);
  self->has_distributions = FALSE;
  self->distributions_cells = 0;
}

static void
on_document_changed (ShepardInstruments *self, GParamSpec *pspec, ShepardPreview *preview)
{
  ShepardDocument *document = shepard_preview_get_document (preview);

  if (document == self->document)
    return;
  forget (self);
  g_set_object (&self->document, document);
}

ShepardInstruments *
shepard_instruments_new (ShepardPreview *preview)
{
  g_return_val_if_fail (SHEPARD_IS_PREVIEW (preview), NULL);

  ShepardInstruments *self = g_object_new (SHEPARD_TYPE_INSTRUMENTS, NULL);
  self->preview = g_object_ref (preview);
  self->document = shepard_preview_get_document (preview);
  if (self->document != NULL)
    g_object_ref (self->document);
  g_signal_connect_object (preview, "requested", G_CALLBACK (on_requested), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (preview, "surface-ready", G_CALLBACK (on_surface_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (preview, "failed", G_CALLBACK (on_preview_failed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (preview, "notify::document", G_CALLBACK (on_document_changed), self, G_CONNECT_SWAPPED);
  return self;
}

void
shepard_instruments_set_pin (ShepardInstruments *self, double x, double y)
{
  g_return_if_fail (SHEPARD_IS_INSTRUMENTS (self));

  gboolean pinned = isfinite (x) && isfinite (y);
  if (pinned == self->pinned && (!pinned || (x == self->pin_x && y == self->pin_y)))
    return;
  self->pinned = pinned;
  self->pin_x = pinned ? x : NAN;
  self->pin_y = pinned ? y : NAN;
  g_clear_pointer (&self->explanation, shepard_explanation_unref);
  if (!pinned)
    {
      if (self->cancellables[WORK_EXPLANATION] != NULL)
        g_cancellable_cancel (self->cancellables[WORK_EXPLANATION]);
      return;
    }
  if (self->surface == NULL || self->document == NULL || self->awaiting_surface)
    return;
  /* Only the explanation: what follows it in the chain is already under way or done for this surface. */
  GCancellable *cancellable = restart_work (self, WORK_EXPLANATION);
  shepard_document_explain_async (self->document, &self->surface->params, x, y, cancellable, on_explained,
                                  job_new (self, WORK_EXPLANATION));
}

gboolean
shepard_instruments_get_pin (ShepardInstruments *self, double *x, double *y)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), FALSE);
  if (x != NULL)
    *x = self->pin_x;
  if (y != NULL)
    *y = self->pin_y;
  return self->pinned;
}

void
shepard_instruments_set_cross_validation_enabled (ShepardInstruments *self, gboolean enabled)
{
  g_return_if_fail (SHEPARD_IS_INSTRUMENTS (self));

  enabled = !!enabled;
  if (enabled == self->cross_validation_enabled)
    return;
  self->cross_validation_enabled = enabled;
  if (!enabled && self->cancellables[WORK_CROSS_VALIDATION] != NULL)
    {
      g_cancellable_cancel (self->cancellables[WORK_CROSS_VALIDATION]);
      set_cross_validating (self, FALSE);
    }
  else if (enabled && self->surface != NULL && !self->awaiting_surface && !validation_is_current (self))
    {
      self->generation++;
      cancel_work (self);
      run_cross_validation (self);
    }
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CROSS_VALIDATION_ENABLED]);
}

gboolean
shepard_instruments_get_cross_validation_enabled (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), FALSE);
  return self->cross_validation_enabled;
}

gboolean
shepard_instruments_get_busy (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), FALSE);
  return self->busy;
}

gboolean
shepard_instruments_get_cross_validating (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), FALSE);
  return self->cross_validating;
}

void
shepard_instruments_set_comparison (ShepardInstruments *self, const shepard_params *other)
{
  g_return_if_fail (SHEPARD_IS_INSTRUMENTS (self));

  if (other == NULL)
    {
      self->comparing = FALSE;
      if (self->cancellables[WORK_COMPARISON] != NULL)
        g_cancellable_cancel (self->cancellables[WORK_COMPARISON]);
      g_clear_pointer (&self->comparison, shepard_surface_unref);
      return;
    }
  if (self->comparing && shepard_params_equal (other, &self->other))
    return;
  self->comparing = TRUE;
  self->other = *other;
  g_clear_pointer (&self->comparison, shepard_surface_unref);
  if (!self->awaiting_surface)
    run_comparison (self);
}

ShepardCrossValidation *
shepard_instruments_get_cross_validation (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), NULL);
  return self->validation;
}

ShepardExplanation *
shepard_instruments_get_explanation (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), NULL);
  return self->explanation;
}

gboolean
shepard_instruments_get_distributions (ShepardInstruments *self, ShepardDistributions *distributions)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), FALSE);
  if (self->has_distributions && distributions != NULL)
    *distributions = self->distributions;
  return self->has_distributions;
}

ShepardSurface *
shepard_instruments_get_comparison (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), NULL);
  return self->comparison;
}

static void
shepard_instruments_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardInstruments *self = SHEPARD_INSTRUMENTS (object);

  switch (prop_id)
    {
    case PROP_CROSS_VALIDATION_ENABLED:
      g_value_set_boolean (value, self->cross_validation_enabled);
      break;
    case PROP_CROSS_VALIDATING:
      g_value_set_boolean (value, self->cross_validating);
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, self->busy);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_instruments_set_property (GObject *object, guint prop_id, const GValue *value, GParamSpec *pspec)
{
  ShepardInstruments *self = SHEPARD_INSTRUMENTS (object);

  switch (prop_id)
    {
    case PROP_CROSS_VALIDATION_ENABLED:
      shepard_instruments_set_cross_validation_enabled (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_instruments_dispose (GObject *object)
{
  ShepardInstruments *self = SHEPARD_INSTRUMENTS (object);

  forget (self);
  g_clear_object (&self->document);
  g_clear_object (&self->preview);
  G_OBJECT_CLASS (shepard_instruments_parent_class)->dispose (object);
}

static void
shepard_instruments_class_init (ShepardInstrumentsClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = shepard_instruments_get_property;
  object_class->set_property = shepard_instruments_set_property;
  object_class->dispose = shepard_instruments_dispose;

  properties[PROP_CROSS_VALIDATION_ENABLED] = g_param_spec_boolean ("cross-validation-enabled", NULL, NULL, TRUE,
                                                                    G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY
                                                                      | G_PARAM_STATIC_STRINGS);
  properties[PROP_CROSS_VALIDATING] = g_param_spec_boolean ("cross-validating", NULL, NULL, FALSE,
                                                            G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] = g_param_spec_boolean ("busy", NULL, NULL, FALSE, G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  signals[SIGNAL_DISTRIBUTIONS] = g_signal_new ("distributions", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                NULL, NULL, NULL, G_TYPE_NONE, 0);
  signals[SIGNAL_EXPLAINED] = g_signal_new ("explained", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                            NULL, G_TYPE_NONE, 1,
                                            SHEPARD_TYPE_EXPLANATION | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_CROSS_VALIDATED] = g_signal_new ("cross-validated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                                  NULL, NULL, NULL, G_TYPE_NONE, 1,
                                                  SHEPARD_TYPE_CROSS_VALIDATION | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_COMPARISON_READY] = g_signal_new ("comparison-ready", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                                   0, NULL, NULL, NULL, G_TYPE_NONE, 1,
                                                   SHEPARD_TYPE_SURFACE | G_SIGNAL_TYPE_STATIC_SCOPE);
  signals[SIGNAL_FAILED] = g_signal_new ("failed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                         G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
shepard_instruments_init (ShepardInstruments *self)
{
  self->cross_validation_enabled = TRUE;
  self->pin_x = NAN;
  self->pin_y = NAN;
}
