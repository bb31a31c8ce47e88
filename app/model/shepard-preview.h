/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "shepard-document.h"
#include "shepard-surface.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_PREVIEW (shepard_preview_get_type ())
G_DECLARE_FINAL_TYPE (ShepardPreview, shepard_preview, SHEPARD, PREVIEW, GObject)

/* Turns parameter changes into surfaces of a document, for a view that follows the hand:
 * - a grid known to take a few milliseconds is computed at once, so that the next frame shows it (waiting, within
 *   that budget, for work on the engine that the change cancelled to give it up);
 * - a slower one comes first from a coarse grid, then in full once the hand has been still for a moment; a full grid of
 *   a few tens of milliseconds comes at once, without the coarse one (it would only flicker). The coarse grid is the
 *   largest, up to a quarter of the full one along each side, expected within a frame budget of about 100 ms: the
 *   cost is estimated as cells x points (all points by brute force), cells x (log2 (points) + 15) + 0.25 x points (all
 *   points through the far field, where the engine takes it: shepard_document_get_summation) or cells x neighbours
 *   (N nearest) over the rate measured on the document's last grid of the same kind (a conservative one per backend
 *   before the first);
 * - a surface of an older request never arrives after one of a newer request, nor a coarse one after a fine one;
 * - the surfaces stay on the GPU when the document computes on one and the display draws through CUDA-OpenGL interop.
 * "requested" (no arguments) comes first with each request of valid parameters, before any engine work, so that other
 * users of the engine can give it up (cancelled, they let an in-line grid go first); "surface-ready" (ShepardSurface
 * *surface, gboolean final) brings each surface; final: the full grid of the latest request. "failed" (const char
 * *message) says why the latest request gave no surface. "dropped" (no arguments): the latest request will deliver
 * nothing more although its full grid had not come, and no new request follows at once (it was cancelled, or the
 * parameters that came next were refused); the last surface delivered stays the one shown. A change of document
 * drops everything too, and says so through "notify::document". */
ShepardPreview *shepard_preview_new (void);

/* How long the hand has been still when it is taken to rest: the full grid after a coarse one comes then, and so does
 * slow background work on the engine (shepard-work-pacing.h). */
#define SHEPARD_PREVIEW_REST_MS 150

/* The document to interpolate (NULL: none). Whatever was pending for the previous one is dropped; the surface and the
 * measured times are forgotten. */
void shepard_preview_set_document (ShepardPreview *self, ShepardDocument *document);
ShepardDocument *shepard_preview_get_document (ShepardPreview *self);

/* Whether the display draws surfaces kept on the GPU through CUDA-OpenGL interop ("display-interop"). Requests made
 * from then on keep their surfaces on the GPU when the document's engine is on one. */
void shepard_preview_set_display_interop (ShepardPreview *self, gboolean display_interop);
gboolean shepard_preview_get_display_interop (ShepardPreview *self);
gboolean shepard_preview_get_keeps_on_gpu (ShepardPreview *self);

/* Interpolates the document's extent with params, long_side cells along the longer side in full. Parameters the
 * engine refuses compute nothing: "invalid-reason" says why, and the surface shown is stale until a valid request. */
void shepard_preview_request (ShepardPreview *self, const shepard_params *params, guint long_side);
/* As shepard_preview_request, over extent {x_min, y_min, x_max, y_max} (the part of the document's extent a zoomed
 * view shows, say): the grid covers exactly that extent, long_side cells along its longer side in full. */
void shepard_preview_request_extent (ShepardPreview *self, const shepard_params *params, const double extent[4],
                                     guint long_side);
/* What to request for a view that shows visible {x_min, y_min, x_max, y_max} at pixel_size map units per device
 * pixel: while it shows all the points (or none of the document's extent), the whole extent at long_side cells;
 * zoomed in, the part of the extent in view, with cells no larger than the whole extent's and down to one per device
 * pixel, at most long_side along the longer side. */
void shepard_preview_extent_for_view (ShepardPreview *self, const double visible[4], double pixel_size,
                                      guint long_side, double extent[4], guint *cells);
/* Drops every pending computation: no surface is emitted for them ("dropped" says so when one was pending). */
void shepard_preview_cancel (ShepardPreview *self);

/* The last surface delivered, NULL before one. */
ShepardSurface *shepard_preview_get_surface (ShepardPreview *self);
/* "busy": a computation is pending or waits for the hand to stop. */
gboolean shepard_preview_get_busy (ShepardPreview *self);
/* The parameters of the latest valid request: during "requested", those of the request being made (a request that
 * only moves the view has the same parameters as the one before). */
const shepard_params *shepard_preview_get_requested_params (ShepardPreview *self);
/* "invalid-reason": why the last request's parameters were refused, NULL while they are valid. */
const char *shepard_preview_get_invalid_reason (ShepardPreview *self);

/* "slow-advice": set from the moment of a request whose all-points weighting cannot give even a 32-cell coarse grid
 * within the frame budget, with what to do ("All-points weighting of 1,000,000 points is slow on the CPU: use the 32
 * nearest neighbourhood"); NULL otherwise. The neighbourhood it advises is shepard_preview_get_advised_neighbors. */
const char *shepard_preview_get_slow_advice (ShepardPreview *self);
guint shepard_preview_get_advised_neighbors (void);

/* The grid a request over the document's extent with long_side cells computes in full, and the largest it computes
 * first (coarse; the frame budget may choose a smaller one). */
void shepard_preview_get_grid (ShepardPreview *self, guint long_side, gboolean coarse, shepard_grid *grid);

G_END_DECLS
