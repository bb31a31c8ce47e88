/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "shepard-distributions.h"
#include "shepard-preview.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_INSTRUMENTS (shepard_instruments_get_type ())
G_DECLARE_FINAL_TYPE (ShepardInstruments, shepard_instruments, SHEPARD, INSTRUMENTS, GObject)

/* The figures that go with a preview's surfaces, for a window that explores and teaches: they follow the hand as the
 * surface does, each from the first surface of a change (coarse or full), never ahead of it and never holding it
 * back.
 * - "comparison-ready" (ShepardSurface *): while a comparison is asked for, each surface minus the same grid computed
 *   with the other parameters (IDW against AIDW). It is what the map shows then, so it comes first: the other
 *   surface of a grid is computed once (per other parameters, grid and points) and every later surface's difference
 *   comes with it, at once.
 * - "explained" (ShepardExplanation *): why the pinned point gets its value, with each change's parameters (one
 *   query), the points' edits and each move of the pin.
 * - "cross-validated" (ShepardCrossValidation *): leave-one-out with the surface's parameters, once per parameter
 *   set and set of points, after the change's full surface, its difference and its explanation. Where the last one
 *   took over SHEPARD_WORK_PACING_LIVE_SECONDS, the next waits until no request has come for SHEPARD_PREVIEW_REST_MS
 *   (shepard-work-pacing.h): a dragged slider keeps the engine for its frames, and the figure comes once the hand
 *   rests.
 * - "distributions" (no arguments): how R and alpha spread over the cells of the AIDW surfaces, computed in a worker
 *   thread without the engine (shepard-distributions-feed.h); shepard_instruments_get_distributions.
 * - "failed" (const char *what, const char *message): one of them could not be computed ("cross-validation",
 *   "explanation", "comparison", "distributions").
 * The engine serves one call at a time, and the instruments give it one piece of work at a time. A new request of
 * the preview ("requested") cancels the explanation and the cross-validation in flight before the preview touches
 * the engine; a cancelled job gives the engine up at the engine's next cancel check (every ~5 ms of its work; a CPU
 * leave-one-out's set-up, some 25 ms at 1M points on 2 cores, is not cut short), which the preview's in-line grid
 * waits for within its frame budget and then goes first (a slower grid's worker goes next).
 * So the figures delay a surface by at most one cancel check. The other surface of a comparison is not cancelled by a
 * request: it does not depend on it. */
ShepardInstruments *shepard_instruments_new (ShepardPreview *preview);

/* Pins a query point (map units) to explain; NaN unpins. */
void shepard_instruments_set_pin (ShepardInstruments *self, double x, double y);
gboolean shepard_instruments_get_pin (ShepardInstruments *self, double *x, double *y);

/* Whether to cross-validate at all ("cross-validation-enabled", TRUE by default). Turned on, it catches up with the
 * surface shown; the other figures are left as they are. */
void shepard_instruments_set_cross_validation_enabled (ShepardInstruments *self, gboolean enabled);
gboolean shepard_instruments_get_cross_validation_enabled (ShepardInstruments *self);
/* "busy": a full surface is awaited or some figure is being computed. */
gboolean shepard_instruments_get_busy (ShepardInstruments *self);
/* "cross-validating": a cross-validation runs now. */
gboolean shepard_instruments_get_cross_validating (ShepardInstruments *self);

/* Compares each surface with the same grid under other (NULL: stop comparing). */
void shepard_instruments_set_comparison (ShepardInstruments *self, const shepard_params *other);

/* The latest of each, NULL (or FALSE) before one (or for IDW: no distributions). */
ShepardCrossValidation *shepard_instruments_get_cross_validation (ShepardInstruments *self);
ShepardExplanation *shepard_instruments_get_explanation (ShepardInstruments *self);
gboolean shepard_instruments_get_distributions (ShepardInstruments *self, ShepardDistributions *distributions);
ShepardSurface *shepard_instruments_get_comparison (ShepardInstruments *self);

G_END_DECLS
