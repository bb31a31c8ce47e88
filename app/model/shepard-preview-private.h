/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-preview.h"

G_BEGIN_DECLS

/* For the tests: the expected time of a full grid under which it is computed on the calling thread (the rest of it
 * is how long it may wait for a cancelled job to give the engine up), and under which it comes without a coarse grid
 * first (0, 0: always coarse first, then fine after the pause). */
void _shepard_preview_set_budgets (ShepardPreview *self, double sync_seconds, double fast_seconds);
/* The time a coarse grid is chosen to fit, and the measured rate of one kind of weighting, as if a grid had shown it
 * (pairs as the preview counts them: cells x points by brute force, or cells x neighbours; through the far field,
 * steps: cells x (log2 (points) + 15) + 0.25 x points). */
void _shepard_preview_set_frame_budget (ShepardPreview *self, double seconds);
void _shepard_preview_set_pairs_per_second (ShepardPreview *self, gboolean all_points, double pairs_per_second);
void _shepard_preview_set_far_field_rate (ShepardPreview *self, double steps_per_second);

G_END_DECLS
