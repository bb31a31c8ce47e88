/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "shepard-distributions.h"
#include "shepard-surface.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_DISTRIBUTIONS_FEED (shepard_distributions_feed_get_type ())
G_DECLARE_FINAL_TYPE (ShepardDistributionsFeed, shepard_distributions_feed, SHEPARD, DISTRIBUTIONS_FEED, GObject)

/* How R and alpha spread over the cells of a preview's AIDW surfaces (shepard-distributions.h), computed in a worker
 * thread without the engine, so that the figures follow the hand at a bounded cost:
 * - at most one computation in flight; the latest surface waits meanwhile, replacing any older one;
 * - a coarse surface that had to wait is skipped when its full grid is still to come (it is computed at once only
 *   when nothing is in flight, so that the figures keep up with a hand that does not stop);
 * - a computation whose request has been overtaken reads nothing;
 * - a surface in host memory is read in place, one on the GPU is copied back under its device lock.
 * "changed" (no arguments): new distributions, or none (an IDW surface); "failed" (const char *message). */
ShepardDistributionsFeed *shepard_distributions_feed_new (void);

/* A surface of the current request; final: its full grid. */
void shepard_distributions_feed_push (ShepardDistributionsFeed *self, ShepardSurface *surface, gboolean final);
/* A new request: what is in flight or waiting belongs to an older one. */
void shepard_distributions_feed_drop (ShepardDistributionsFeed *self);
/* The request's full grid will not come: the coarse surface waiting for it is computed after all. */
void shepard_distributions_feed_settle (ShepardDistributionsFeed *self);
/* Drops everything and forgets the distributions known (another document), without a word. */
void shepard_distributions_feed_forget (ShepardDistributionsFeed *self);

/* The latest distributions; FALSE before any or after an IDW surface. */
gboolean shepard_distributions_feed_get (ShepardDistributionsFeed *self, ShepardDistributions *distributions);
/* "busy": a computation is in flight or a surface waits for one. */
gboolean shepard_distributions_feed_get_busy (ShepardDistributionsFeed *self);

G_END_DECLS
