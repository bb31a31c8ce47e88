/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-instruments.h"

#include <math.h>

#include "shepard-comparison.h"
#include "shepard-distributions-feed.h"
#include "shepard-work-pacing.h"

/* The engine work of the instruments, in the order it is done for a surface: the difference first (what the map
 * shows in difference mode), then the explanation (one query), then the cross-validation (the whole layer). */
typedef enum {
  WORK_NONE,
  WORK_COMPARISON,
  WORK_EXPLANATION,
  WORK_CROSS_VALIDATION,
} Work;

static const char *const work_names[] = { NULL, "comparison", "explanation", "cross-validation" };

/* What a figure was last asked for: it is not asked again for the same, even when it failed. */
typedef struct {
  gboolean set;
  shepard_params params;
  double x, y; /* the explanation's pin */
  guint points_generation;
} Asked;

struct _ShepardInstruments
{
  GObject parent_instance;

  /* Owned */
  ShepardPreview *preview;
  ShepardDocument *document;
  /* The latest surface delivered, what the figures follow. settled: nothing more comes for its request (its full
   * grid, or the request gave up); current: no newer request is out without a surface yet. */
  ShepardSurface *surface;
  gboolean surface_settled;
  gboolean surface_current;
  gboolean awaiting_surface; /* a request's full grid is still to come */

  /* One piece of engine work at a time; its result counts only while it is the running one. */
  Work running;
  guint running_serial;
  guint serial;
  GCancellable *running_cancellable;
  guint in_flight; /* engine jobs not back yet, dropped ones included */

  gboolean pinned;
  double pin_x, pin_y;
  gboolean cross_validation_enabled;
  gboolean cross_validating;
  /* A slow leave-one-out waits for the hand to rest: started at every surface and cancelled by the next change, it
   * held each frame back until it gave the engine up (up to 45 ms of 1M points over all of them on an H200). */
  ShepardWorkPacing cross_validation_pacing;
  gboolean busy;

  Asked explanation_asked, validation_asked;
  ShepardCrossValidation *validation;
  ShepardExplanation *explanation;
  ShepardComparison *comparison;
  ShepardDistributionsFeed *distributions;
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

typedef struct {
  ShepardInstruments *instruments;
  guint serial;
  Work work;
  guint points_generation; /* of the points when it started */
  shepard_grid grid;       /* the comparison's */
} Job;

static void
update_busy (ShepardInstruments *self)
{
  gboolean busy = self->awaiting_surface || self->in_flight > 0
                  || shepard_work_pacing_waiting (&self->cross_validation_pacing)
                  || shepard_distributions_feed_get_busy (self->distributions);

  if (busy == self->busy)
    return;
  self->busy = busy;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
set_cross_validating (ShepardInstruments *self, gboolean cross_validating)
{
  if (self->cross_validating == cross_validating)
    return;
  self->cross_validating = cross_validating;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CROSS_VALIDATING]);
}

static Job *
job_start (ShepardInstruments *self, Work work)
{
  Job *job = g_new0 (Job, 1);

  job->instruments = g_object_ref (self);
  job->serial = ++self->serial;
  job->work = work;
  job->points_generation = shepard_document_get_points_generation (self->document);
  self->running = work;
  self->running_serial = job->serial;
  g_clear_object (&self->running_cancellable);
  self->running_cancellable = g_cancellable_new ();
  self->in_flight++;
  set_cross_validating (self, work == WORK_CROSS_VALIDATION);
  update_busy (self);
  return job;
}

/* Whether the job's result counts (it is still the running one); the engine is then free for the next work. */
static gboolean
job_end (Job *job)
{
  ShepardInstruments *self = job->instruments;
  gboolean current = job->serial == self->running_serial;

  self->in_flight--;
  if (current)
    {
      self->running = WORK_NONE;
      self->running_serial = 0;
      g_clear_object (&self->running_cancellable);
      set_cross_validating (self, FALSE);
    }
  return current;
}

static void
job_free (Job *job)
{
  g_object_unref (job->instruments);
  g_free (job);
}

/* A cancel is no failure worth a word. */
static void
report_failure (ShepardInstruments *self, Work work, const GError *error)
{
  if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_signal_emit (self, signals[SIGNAL_FAILED], 0, work_names[work], error->message);
}

/* Cancels the running work if it is of that kind (WORK_NONE: any): it was never done, so it is asked again when
 * needed. */
static void
drop_running (ShepardInstruments *self, Work work)
{
  if (self->running == WORK_NONE || (work != WORK_NONE && self->running != work))
    return;
  g_cancellable_cancel (self->running_cancellable);
  g_clear_object (&self->running_cancellable);
  if (self->running == WORK_EXPLANATION)
    self->explanation_asked.set = FALSE;
  else if (self->running == WORK_CROSS_VALIDATION)
    {
      self->validation_asked.set = FALSE;
      shepard_work_pacing_dropped (&self->cross_validation_pacing);
    }
  self->running = WORK_NONE;
  self->running_serial = 0;
  set_cross_validating (self, FALSE);
}

static gboolean
explanation_asked (ShepardInstruments *self, guint points_generation)
{
  const Asked *asked = &self->explanation_asked;
  return asked->set && shepard_params_equal (&asked->params, &self->surface->params) && asked->x == self->pin_x
         && asked->y == self->pin_y && asked->points_generation == points_generation;
}

static gboolean
validation_asked (ShepardInstruments *self, guint points_generation)
{
  const Asked *asked = &self->validation_asked;
  return asked->set && shepard_params_equal (&asked->params, &self->surface->params)
         && asked->points_generation == points_generation;
}

static void run_comparison (ShepardInstruments *self);
static void run_explanation (ShepardInstruments *self);
static void run_cross_validation (ShepardInstruments *self);
static void advance (ShepardInstruments *self);

/* The hand has rested: a waiting leave-one-out may start. */
static gboolean
on_rested (gpointer data)
{
  ShepardInstruments *self = data;

  advance (self);
  update_busy (self);
  return G_SOURCE_REMOVE;
}

/* Starts the next piece of engine work the latest surface needs, when the engine is the instruments' to use. */
static void
advance (ShepardInstruments *self)
{
  g_autoptr (GError) error = NULL;

  if (self->running != WORK_NONE || self->document == NULL || self->surface == NULL || !self->surface_current)
    return;
  guint points_generation = shepard_document_get_points_generation (self->document);
  switch (shepard_comparison_update (self->comparison, self->surface, points_generation, &error))
    {
    case SHEPARD_COMPARISON_MADE:
      g_signal_emit (self, signals[SIGNAL_COMPARISON_READY], 0, shepard_comparison_get_difference (self->comparison));
      /* A handler may have changed what is asked for. */
      advance (self);
      return;
    case SHEPARD_COMPARISON_FAILED:
      report_failure (self, WORK_COMPARISON, error);
      advance (self);
      return;
    case SHEPARD_COMPARISON_NEEDS_OTHER:
      run_comparison (self);
      return;
    case SHEPARD_COMPARISON_IDLE:
      break;
    }
  if (self->pinned && !explanation_asked (self, points_generation))
    run_explanation (self);
  else if (self->surface_settled && self->cross_validation_enabled && !validation_asked (self, points_generation)
           && !shepard_work_pacing_must_wait (&self->cross_validation_pacing))
    run_cross_validation (self);
}

static void
on_compared (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Job *job = user_data;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) other = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result, &error);

  if (job_end (job))
    {
      if (other != NULL)
        shepard_comparison_keep_other (self->comparison, other, job->points_generation);
      else
        {
          if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
            shepard_comparison_note_failure (self->comparison, &job->grid, job->points_generation);
          report_failure (self, WORK_COMPARISON, error);
        }
      advance (self);
    }
  update_busy (self);
  job_free (job);
}

static void
run_comparison (ShepardInstruments *self)
{
  Job *job = job_start (self, WORK_COMPARISON);

  job->grid = self->surface->grid;
  shepard_document_interpolate_async (self->document, shepard_comparison_get_other (self->comparison), &job->grid,
                                      SHEPARD_SURFACE_IN_HOST_MEMORY, self->running_cancellable, on_compared, job);
}

static void
on_explained (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Job *job = user_data;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardExplanation) explanation = shepard_document_explain_finish (SHEPARD_DOCUMENT (source), result,
                                                                                 &error);

  if (job_end (job))
    {
      if (explanation != NULL)
        {
          g_clear_pointer (&self->explanation, shepard_explanation_unref);
          self->explanation = shepard_explanation_ref (explanation);
          g_signal_emit (self, signals[SIGNAL_EXPLAINED], 0, explanation);
        }
      else
        report_failure (self, WORK_EXPLANATION, error);
      advance (self);
    }
  update_busy (self);
  job_free (job);
}

static void
run_explanation (ShepardInstruments *self)
{
  Job *job = job_start (self, WORK_EXPLANATION);

  self->explanation_asked = (Asked) { TRUE, self->surface->params, self->pin_x, self->pin_y, job->points_generation };
  shepard_document_explain_async (self->document, &self->surface->params, self->pin_x, self->pin_y,
                                  self->running_cancellable, on_explained, job);
}

static void
on_cross_validated (GObject *source, GAsyncResult *result, gpointer user_data)
{
  Job *job = user_data;
  ShepardInstruments *self = job->instruments;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardCrossValidation) validation = shepard_document_cross_validate_finish (SHEPARD_DOCUMENT (source),
                                                                                          result, &error);

  if (job_end (job))
    {
      if (validation != NULL)
        {
          shepard_work_pacing_finished (&self->cross_validation_pacing, validation->seconds);
          g_clear_pointer (&self->validation, shepard_cross_validation_unref);
          self->validation = shepard_cross_validation_ref (validation);
          g_signal_emit (self, signals[SIGNAL_CROSS_VALIDATED], 0, validation);
        }
      else
        report_failure (self, WORK_CROSS_VALIDATION, error);
      advance (self);
    }
  update_busy (self);
  job_free (job);
}

static void
run_cross_validation (ShepardInstruments *self)
{
  Job *job = job_start (self, WORK_CROSS_VALIDATION);

  shepard_work_pacing_started (&self->cross_validation_pacing);
  self->validation_asked = (Asked) { TRUE, self->surface->params, NAN, NAN, job->points_generation };
  shepard_document_cross_validate_async (self->document, &self->surface->params, SHEPARD_FOLDS_LEAVE_ONE_OUT, 0,
                                         self->running_cancellable, on_cross_validated, job);
}

/* Before the preview touches the engine: the work of the older parameters gives way. The other surface of a
 * comparison does not depend on them, and carries on; nor does work for the very parameters requested (a request
 * that only follows the view), which would only start again once the surface came. */
static void
on_requested (ShepardInstruments *self, ShepardPreview *preview)
{
  const shepard_params *requested = shepard_preview_get_requested_params (preview);

  if (!shepard_params_equal (&self->explanation_asked.params, requested))
    drop_running (self, WORK_EXPLANATION);
  if (!shepard_params_equal (&self->validation_asked.params, requested))
    drop_running (self, WORK_CROSS_VALIDATION);
  shepard_distributions_feed_drop (self->distributions);
  shepard_work_pacing_requested (&self->cross_validation_pacing);
  self->awaiting_surface = TRUE;
  self->surface_current = FALSE;
  update_busy (self);
}

static void
on_surface_ready (ShepardInstruments *self, ShepardSurface *surface, gboolean final, ShepardPreview *preview)
{
  shepard_distributions_feed_push (self->distributions, surface, final);
  g_clear_pointer (&self->surface, shepard_surface_unref);
  self->surface = shepard_surface_ref (surface);
  self->surface_settled = final;
  self->surface_current = TRUE;
  if (final)
    self->awaiting_surface = FALSE;
  advance (self);
  update_busy (self);
}

/* The request gave up ("failed", "dropped"): the last surface delivered stays the one shown, and the figures follow
 * it. */
static void
on_request_ended (ShepardInstruments *self)
{
  self->awaiting_surface = FALSE;
  self->surface_current = TRUE;
  self->surface_settled = TRUE;
  shepard_distributions_feed_settle (self->distributions);
  advance (self);
  update_busy (self);
}

static void
on_preview_failed (ShepardInstruments *self, const char *message, ShepardPreview *preview)
{
  on_request_ended (self);
}

static void
on_preview_dropped (ShepardInstruments *self, ShepardPreview *preview)
{
  on_request_ended (self);
}

static void
on_distributions_changed (ShepardInstruments *self, ShepardDistributionsFeed *feed)
{
  g_signal_emit (self, signals[SIGNAL_DISTRIBUTIONS], 0);
}

static void
on_distributions_busy (ShepardInstruments *self, GParamSpec *pspec, ShepardDistributionsFeed *feed)
{
  update_busy (self);
}

static void
on_distributions_failed (ShepardInstruments *self, const char *message, ShepardDistributionsFeed *feed)
{
  g_signal_emit (self, signals[SIGNAL_FAILED], 0, "distributions", message);
}

static void
forget (ShepardInstruments *self)
{
  drop_running (self, WORK_NONE);
  shepard_work_pacing_stop (&self->cross_validation_pacing, TRUE);
  self->awaiting_surface = FALSE;
  g_clear_pointer (&self->surface, shepard_surface_unref);
  g_clear_pointer (&self->validation, shepard_cross_validation_unref);
  g_clear_pointer (&self->explanation, shepard_explanation_unref);
  self->explanation_asked.set = FALSE;
  self->validation_asked.set = FALSE;
  shepard_comparison_forget (self->comparison);
  shepard_distributions_feed_forget (self->distributions);
  update_busy (self);
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
  g_signal_connect_object (preview, "dropped", G_CALLBACK (on_preview_dropped), self, G_CONNECT_SWAPPED);
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
  drop_running (self, WORK_EXPLANATION);
  advance (self);
  update_busy (self);
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
  if (enabled)
    advance (self);
  else
    {
      drop_running (self, WORK_CROSS_VALIDATION);
      shepard_work_pacing_stop (&self->cross_validation_pacing, FALSE);
    }
  update_busy (self);
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

  if (!shepard_comparison_set_other (self->comparison, other))
    return;
  drop_running (self, WORK_COMPARISON);
  advance (self);
  update_busy (self);
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
  return shepard_distributions_feed_get (self->distributions, distributions);
}

ShepardSurface *
shepard_instruments_get_comparison (ShepardInstruments *self)
{
  g_return_val_if_fail (SHEPARD_IS_INSTRUMENTS (self), NULL);
  return shepard_comparison_get_difference (self->comparison);
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

  if (self->distributions != NULL)
    forget (self);
  g_clear_object (&self->distributions);
  g_clear_pointer (&self->comparison, shepard_comparison_free);
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
  self->comparison = shepard_comparison_new ();
  shepard_work_pacing_init (&self->cross_validation_pacing, on_rested, self);
  self->distributions = shepard_distributions_feed_new ();
  g_signal_connect_object (self->distributions, "changed", G_CALLBACK (on_distributions_changed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->distributions, "failed", G_CALLBACK (on_distributions_failed), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->distributions, "notify::busy", G_CALLBACK (on_distributions_busy), self,
                           G_CONNECT_SWAPPED);
}
