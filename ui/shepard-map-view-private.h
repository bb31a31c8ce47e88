/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-map-view.h"

G_BEGIN_DECLS

struct _ShepardMapView
{
  GtkGLArea parent_instance;

  /* Owned */
  ShepardRenderer *renderer;
  ShepardView view;
  ShepardSurface *surface;
  gboolean surface_dirty;
  /* A surface of a wider extent, drawn under the surface and around it: what a zoomed view keeps showing beyond the
   * part it asked for while that part follows the view. */
  ShepardSurface *backdrop;
  gboolean backdrop_dirty;
  GArray *point_x, *point_y, *point_z;
  gboolean points_dirty;
  GArray *context_x, *context_y, *context_strip_start; /* every context layer's strips, one after another */
  gboolean context_dirty;
  double bounds[4];
  gboolean has_bounds;
  gboolean fit_pending;
  ShepardColorRamp ramp;
  double range_min, range_max;
  gboolean hillshade;
  double opacity;              /* the surface's, over the backdrop and under the points */
  guint n_classes;             /* 0: continuous */
  double breaks[SHEPARD_RENDER_MAX_CLASSES + 1];
  double drag_center_x, drag_center_y;
  double pointer_x, pointer_y;
  shepard_plane plane;         /* which plane of the surface is drawn */
  gboolean editing;            /* drags that start on a point move it rather than the map */
  gssize dragged_point;        /* the point being moved, or -1 */
  gboolean point_colors_dirty;
  GArray *point_colors;        /* values of the dots' own colours, empty: by z */
  ShepardColorRamp point_ramp;
  double point_min, point_max;
  gssize highlight;

  int cuda_device;        /* -1: the engine runs on the CPU */
  gboolean interop;       /* the renderer copies device grids on the GPU */
  char *interop_failure;  /* why interop is off, when it was tried */
  guint interop_notify_idle; /* the notification of "interop" held back until the frame being drawn is done */
};

enum {
  SIGNAL_CURSOR_MOVED,
  SIGNAL_CURSOR_LEFT,
  SIGNAL_CLICKED,
  SIGNAL_POINT_CLICKED,
  SIGNAL_POINT_DRAGGED,
  SIGNAL_DELETE_REQUESTED,
  SIGNAL_VIEW_CHANGED,
  N_SIGNALS
};

/* The keyboard's zoom factor and pan step (a fraction of the view). */
#define SHEPARD_MAP_VIEW_KEY_ZOOM 2.0
#define SHEPARD_MAP_VIEW_KEY_PAN 0.1

extern guint _shepard_map_view_signals[N_SIGNALS];

/* shepard-map-view.c: tells "view-changed" and redraws. */
void _shepard_map_view_view_changed (ShepardMapView *self);
/* Whether surfaces on the GPU reach the texture through interop, with the reason when not; during_render: called while
 * GTK draws, when the notification must wait for the main loop. */
void _shepard_map_view_set_interop (ShepardMapView *self, gboolean interop, const char *failure,
                                    gboolean during_render);

/* shepard-map-view-surfaces.c: the surface and the backdrop into the renderer, with the GL context current. */
gboolean _shepard_map_view_upload_surface (ShepardMapView *self, GError **error);
void _shepard_map_view_upload_backdrop (ShepardMapView *self);

/* shepard-map-view-input.c: the pointer and keyboard: drag to pan (or move a dot while editing), the wheel and + / −
 * to zoom, the arrows to pan, Home or 0 to fit, clicks, Delete. */
void _shepard_map_view_class_input_init (GtkWidgetClass *widget_class);
void _shepard_map_view_input_init (ShepardMapView *self);

G_END_DECLS
