/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-preview.h"

G_BEGIN_DECLS

/* For the tests: the expected time of a full grid under which it is computed on the calling thread (the rest of it
 * is how long it may wait for a cancelled job to give the engine up), and under which it comes without a coarse grid
 * first (0, 0: always coarse first, then fine after the pause). */
void _shepard_preview_set_budgets (ShepardPreview *self, double sync_seconds, double fast_seconds);

G_END_DECLS
