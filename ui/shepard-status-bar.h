/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-surface.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_STATUS_BAR (shepard_status_bar_get_type ())
G_DECLARE_FINAL_TYPE (ShepardStatusBar, shepard_status_bar, SHEPARD, STATUS_BAR, GtkWidget)

/* The line under the map: which engine computes and how its grids reach the screen, how long the last grid took, and
 * the value under the pointer. Each stays short; the reasons behind a fallback go in the engine's tooltip. */
GtkWidget *shepard_status_bar_new (void);

/* engine: a short name ("CUDA: NVIDIA H200", "CPU, 2 threads, float32 AVX2"); fallback_reason: why it is not on the
 * GPU, or NULL; on_gpu: the engine is CUDA, in which case interop says whether previews reach the screen through
 * CUDA-OpenGL interop, and interop_failure why not (or NULL). */
void shepard_status_bar_set_engine (ShepardStatusBar *self, const char *engine, const char *fallback_reason,
                                    gboolean on_gpu, gboolean interop, const char *interop_failure);
/* The surface's size and time, and on the engine's line how it was summed: "· far field (1e-6)" or "· exact". */
void shepard_status_bar_set_surface (ShepardStatusBar *self, const ShepardSurface *surface);
void shepard_status_bar_clear_surface (ShepardStatusBar *self);
/* The layer's CRS (WKT; NULL: none): the pointer's position is then shown in it, named, and as latitude and
 * longitude on WGS 84. */
void shepard_status_bar_set_crs (ShepardStatusBar *self, const char *crs_wkt);
/* "179 800, 330 100 (EPSG:28992) · 50.96011°N 5.74018°E" for map position (x, y); g_free. */
char *shepard_status_bar_format_position (ShepardStatusBar *self, double x, double y);
/* The pointer at (x, y) of the map, over surface (NULL: none yet) of field. */
void shepard_status_bar_set_pointer (ShepardStatusBar *self, double x, double y, const ShepardSurface *surface,
                                     const char *field);
void shepard_status_bar_clear_pointer (ShepardStatusBar *self);

G_END_DECLS
