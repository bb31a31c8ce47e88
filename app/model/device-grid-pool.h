/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Device grids for previews kept on the GPU, reused from frame to frame: a new allocation per frame costs time, and
 * freeing GPU memory waits for the whole device, which would stall the main thread behind the worker's kernels.
 * Thread-safe and reference counted: surfaces that hold a grid hold the pool too. */
typedef struct _ShepardDeviceGridPool ShepardDeviceGridPool;

ShepardDeviceGridPool *shepard_device_grid_pool_new (void);
ShepardDeviceGridPool *shepard_device_grid_pool_ref (ShepardDeviceGridPool *pool);
/* The last reference frees the grids kept. */
void shepard_device_grid_pool_unref (ShepardDeviceGridPool *pool);

/* A kept grid, or a new one in engine's device memory; NULL with the engine's error. */
shepard_device_grid *shepard_device_grid_pool_take (ShepardDeviceGridPool *pool, shepard_engine *engine,
                                                    shepard_error *error);
/* How many grids given back are kept; beyond those they are freed. Enough for what may hold one at a time: the
 * surface on screen and the one the view draws until the next, a grid being computed and one on its way back, and
 * the surface whose distributions are computed (one at most, shepard-distributions-feed), plus a spare. */
#define SHEPARD_DEVICE_GRID_POOL_KEPT 6

/* Keeps grid for a later take (SHEPARD_DEVICE_GRID_POOL_KEPT at most; beyond those it is freed). */
void shepard_device_grid_pool_give_back (ShepardDeviceGridPool *pool, shepard_device_grid *grid);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardDeviceGridPool, shepard_device_grid_pool_unref)

G_END_DECLS
