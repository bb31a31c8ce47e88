/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "shepard-distributions.h"
#include "shepard-preview.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_INSTRUMENTS (shepard_instruments_get_type ())
G_DECLARE_FINAL_TYPE (ShepardInstruments, shepard_instruments, SHEPARD, INSTRUMENTS, GObject)

/* The figures that go with a preview's surfaces, for a window that explores and teaches: they follow the hand as the
 * surface does, but never ahead of it and never hold it back.
 * - "distributions" (no arguments): how R and alpha spread over the cells of every AIDW surface (coarse or fine),
 *   computed in a worker thread without the engine; shepard_instruments_get_distributions.
 * - "explained" (ShepardExplanation *): why the pinned point gets its value, once the full surface of new parameters
 *   (or points) is in, or when the pin moves.
 * - "cross-validated" (ShepardCrossValidation *): leave-one-out with the surface's parameters, once per parameter
 *   set and set of points, after the full surface and the explanation.
 * - "comparison-ready" (ShepardSurface *): the full surface minus the same grid computed with other parameters
 *   (IDW against AIDW), while a comparison is asked for.
 * - "failed" (const char *what, const char *message): one of them could not be computed ("cross-validation",
 *   "explanation", "comparison", "distributions").
 * The engine serves one call at a time: every piece of engine work is dropped when the preview starts a new request
 * ("requested"), so the preview never waits for more than the engine's cancel (~50 ms). */
ShepardInstruments *shepard_instruments_new (ShepardPreview *preview);

/* Pins a query point (map units) to explain; NaN unpins. */
void shepard_instruments_set_pin (ShepardInstruments *self, double x, double y);
gboolean shepard_instruments_get_pin (ShepardInstruments *self, double *x, double *y);

/* Whether to cross-validate at all ("cross-validation-enabled", TRUE by default). */
void shepard_instruments_set_cross_validation_enabled (ShepardInstruments *self, gboolean enabled);
gboolean shepard_instruments_get_cross_validation_enabled (ShepardInstruments *self);
/* "busy": a full surface is awaited or some figure is being computed. */
gboolean shepard_instruments_get_busy (ShepardInstruments *self);
/* "cross-validating": a cross-validation runs now. */
gboolean shepard_instruments_get_cross_validating (ShepardInstruments *self);

/* Compares each full surface with the same grid under other (NULL: stop comparing). */
void shepard_instruments_set_comparison (ShepardInstruments *self, const shepard_params *other);

/* The latest of each, NULL (or FALSE) before one (or for IDW: no distributions). */
ShepardCrossValidation *shepard_instruments_get_cross_validation (ShepardInstruments *self);
ShepardExplanation *shepard_instruments_get_explanation (ShepardInstruments *self);
gboolean shepard_instruments_get_distributions (ShepardInstruments *self, ShepardDistributions *distributions);
ShepardSurface *shepard_instruments_get_comparison (ShepardInstruments *self);

G_END_DECLS
