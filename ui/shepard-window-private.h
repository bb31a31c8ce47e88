/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-cv-panel.h"
#include "shepard-display-panel.h"
#include "shepard-explain-panel.h"
#include "shepard-instruments.h"
#include "shepard-layer-panel.h"
#include "shepard-legend.h"
#include "shepard-map-overlay.h"
#include "shepard-parameter-panel.h"
#include "shepard-scale-bar.h"
#include "shepard-search-shape-overlay.h"
#include "shepard-status-bar.h"
#include "shepard-window.h"

G_BEGIN_DECLS

struct _ShepardWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkScrolledWindow *side_scroller;
  GtkWidget *side_panel;
  ShepardLayerPanel *layer_panel;
  ShepardParameterPanel *parameter_panel;
  ShepardDisplayPanel *display_panel;
  GtkStack *view_stack;
  ShepardMapView *map_view;
  ShepardMapOverlay *map_overlay;
  ShepardSearchShapeOverlay *search_shape_overlay;
  ShepardLegend *legend;
  ShepardScaleBar *scale_bar;
  GtkLabel *stale_label;
  GtkLabel *map_note_label;
  GtkLabel *sandbox_hint_label;
  GtkSpinner *busy_spinner;
  GtkImage *busy_still;             /* the busy sign where the engine is the CPU's: it draws no frames */
  ShepardStatusBar *status_bar;
  GtkPaned *map_paned;
  GtkWidget *instruments_box;
  GtkStack *instrument_stack;
  ShepardCvPanel *cv_panel;
  ShepardExplainPanel *explain_panel;

  /* Owned */
  GSettings *settings;
  ShepardDocument *document;
  ShepardPreview *preview;
  char *path;
  GCancellable *load_cancellable;
  GCancellable *gpus_cancellable;  /* the engine's change of GPUs under way, or NULL */
  guint busy_sign_source;
  gboolean message_from_compute;
  gboolean message_is_advice;      /* the info bar shows the preview's slow-layer advice */
  GtkWidget *use_nearest_button;   /* the info bar's, shown with that advice (borrowed) */
  guint follow_view_source;        /* the preview follows the view at the next idle */
  double preview_extent[4];        /* what the preview was last asked to cover, and at how many cells */
  guint preview_cells;
  ShepardInstruments *instruments;
  GCancellable *optimise_cancellable;
  gboolean disposed; /* late callbacks of work cancelled by dispose find the panels gone */
  ShepardOptimiseResult optimised; /* the last optimiser result, until applied or discarded */
  gssize selected_point;           /* emphasised on the map and in the cross-validation panel, or -1 */
  GtkPopover *value_popover;       /* the sandbox's value entry, while it shows */
  GPtrArray *context_layers;       /* ShepardContextLayer, in the point layer's CRS; NULL: none yet */
  gboolean instruments_managed;    /* the window keeps the instruments' width until the user drags the handle */
  gboolean placing_instruments;
  int instruments_paned_max;
};

/* What the map shows (the surface drop-down's rows). */
typedef enum {
  SHEPARD_WINDOW_SURFACE_VALUES,
  SHEPARD_WINDOW_SURFACE_ALPHA,
  SHEPARD_WINDOW_SURFACE_R,
  SHEPARD_WINDOW_SURFACE_R_OBS,
  SHEPARD_WINDOW_SURFACE_DIFFERENCE,
} ShepardWindowSurface;

/* shepard-window.c: brings the map, the legend and the dots' colours in line with the surface shown. */
void _shepard_window_update_display (ShepardWindow *self);
/* The parameters of the other method the difference surface compares with (IDW <-> AIDW, the panel's values). */
void _shepard_window_other_method (ShepardWindow *self, shepard_params *other);
/* shepard-window.c: shows self->document (a new layer or sandbox) in every part of the window. */
void _shepard_window_show_document (ShepardWindow *self);
/* shepard-window.c: interpolates again with the panel's parameters (after the points changed). */
void _shepard_window_recompute (ShepardWindow *self);
/* shepard-window.c: the document's engine in the status bar and the map's interop, and the preview started afresh on
 * it (after the engine moved to other GPUs). */
void _shepard_window_show_engine (ShepardWindow *self);

/* shepard-window-gpus.c: Preferences (win.preferences, Ctrl+comma) and the GPUs of its "gpus" setting, on which each
 * layer loads and to which the document's engine moves when the choice changes; choice: the setting, "all" without
 * the app's settings or for one that names no GPUs, with the GPU that drives the display first where it is chosen. */
void _shepard_window_class_gpus_init (ShepardWindowClass *klass);
void _shepard_window_gpus_init (ShepardWindow *self);
void _shepard_window_gpus_show_document (ShepardWindow *self);
void _shepard_window_gpus_dispose (ShepardWindow *self);
char *_shepard_window_gpus_choice (ShepardWindow *self);

/* shepard-window-instruments.c: cross-validation, explanation, distributions and the optimiser, wired to their
 * panels, the map and the overlay. */
void _shepard_window_class_instruments_init (ShepardWindowClass *klass);
void _shepard_window_instruments_init (ShepardWindow *self);
void _shepard_window_instruments_params_changed (ShepardWindow *self, const shepard_params *params);
void _shepard_window_instruments_show_document (ShepardWindow *self);
void _shepard_window_instruments_dispose (ShepardWindow *self);
/* The dots' own colours: residuals while the residual map is on. */
void _shepard_window_update_point_colors (ShepardWindow *self);

/* shepard-window-sandbox.c: the classroom sandbox (its actions, adding, moving, editing and removing points). */
void _shepard_window_class_sandbox_init (ShepardWindowClass *klass);
void _shepard_window_sandbox_init (ShepardWindow *self);
void _shepard_window_sandbox_show_document (ShepardWindow *self);
void _shepard_window_sandbox_dispose (ShepardWindow *self);

/* shepard-window-neighbourhood.c: the search shape drawn on the map while the Neighbourhood section edits it, and
 * the section's unit and steps from each layer (metres_per_unit as shepard_coordinate_transform_get_metres_per_unit
 * gives it, -1 without a CRS). */
void _shepard_window_neighbourhood_init (ShepardWindow *self);
void _shepard_window_neighbourhood_show_document (ShepardWindow *self, double metres_per_unit);

/* shepard-window-mask.c: the Mask section's choice as the document's mask, built again for each layer and each edit
 * of a sandbox's points (show_document goes before the sandbox's, whose edits interpolate). */
void _shepard_window_mask_init (ShepardWindow *self);
void _shepard_window_mask_show_document (ShepardWindow *self);

/* shepard-window-context.c: the context layers' actions, and their lines read again into a new layer's CRS. */
void _shepard_window_class_context_init (ShepardWindowClass *klass);
void _shepard_window_context_init (ShepardWindow *self);
void _shepard_window_context_show_document (ShepardWindow *self);

/* shepard-window-message.c: the info bar (shepard_window_show_message) and the preview's slow-layer advice in it, with
 * a button that takes the advised neighbourhood. message_init after the preview is made. */
void _shepard_window_class_message_init (ShepardWindowClass *klass);
void _shepard_window_message_init (ShepardWindow *self);
void _shepard_window_hide_message (ShepardWindow *self);

/* shepard-window-busy.c: the header bar's busy sign, shown while the window is busy (shepard_window_is_busy) beyond a
 * moment: still where the CPU does the work, spinning where a GPU does. _shepard_window_update_busy after the busy state
 * changed (a layer read or done, the preview busy or idle). */
void _shepard_window_busy_init (ShepardWindow *self);
void _shepard_window_update_busy (ShepardWindow *self);
void _shepard_window_busy_dispose (ShepardWindow *self);
/* Whether the document's engine computes on a GPU (its grids and its leave-one-out): signs of its work may spin then;
 * on the CPU a spinner's frames would take the cores the work runs on. */
gboolean _shepard_window_engine_on_gpu (ShepardWindow *self);

/* shepard-window-actions.c: the window's actions (open, export, fit, reset, help) with their keys, and opening a dropped
 * file. */
void _shepard_window_class_actions_init (ShepardWindowClass *klass);
void _shepard_window_actions_init (ShepardWindow *self);

/* A file chooser for a vector layer (shepard-window-actions.c): filter_name over the extensions of the formats OGR
 * reads most, and all files. The caller connects "response" and shows it. */
GtkFileChooserNative *_shepard_window_new_layer_chooser (ShepardWindow *self, const char *title,
                                                         const char *accept_label, const char *filter_name);

G_END_DECLS
