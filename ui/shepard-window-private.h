/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-layer-panel.h"
#include "shepard-legend.h"
#include "shepard-parameter-panel.h"
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
  GtkGrid *display_grid;
  GtkDropDown *ramp_dropdown;
  GtkSwitch *hillshade_switch;
  GtkStack *view_stack;
  ShepardMapView *map_view;
  ShepardLegend *legend;
  GtkLabel *stale_label;
  GtkSpinner *busy_spinner;
  ShepardStatusBar *status_bar;

  /* Owned */
  GSettings *settings;
  ShepardDocument *document;
  ShepardPreview *preview;
  char *path;
  GCancellable *load_cancellable;
  guint busy_spinner_source;
  gboolean message_from_compute;
};

/* shepard-window-actions.c: the window's actions (open, export, fit, reset) with their keys, and opening a dropped
 * file. */
void _shepard_window_class_actions_init (ShepardWindowClass *klass);
void _shepard_window_actions_init (ShepardWindow *self);

G_END_DECLS
