/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-export-dialog.h"

#include "grid-export.h"
#include "raster-format.h"

G_BEGIN_DECLS

/* The rows of extent_dropdown and size_dropdown, in the template's order. */
enum {
  EXTENT_DATA,
  EXTENT_VIEW,
  EXTENT_CUSTOM,
};

enum {
  SIZE_BY_RESOLUTION,
  SIZE_BY_CELLS,
};

struct _ShepardExportDialog
{
  GtkWindow parent_instance;

  /* Template widgets */
  GtkWidget *form;
  GtkEntry *path_entry, *options_entry;
  GtkLabel *options_label;
  GtkSpinButton *margin_spin;
  GtkWidget *margin_caption, *margin_box;
  GtkDropDown *format_dropdown, *type_dropdown, *extent_dropdown, *size_dropdown;
  GtkWidget *extent_grid;
  GtkSpinButton *x_min_spin, *x_max_spin, *y_min_spin, *y_max_spin;
  GtkStack *size_stack;
  GtkSpinButton *resolution_spin, *width_spin, *height_spin;
  GtkLabel *size_label, *error_label;
  GtkCheckButton *alpha_check, *r_check, *r_obs_check;
  GtkDropDown *planes_dropdown;
  GtkListBox *fields_list;
  GtkProgressBar *progress_bar;
  GtkWidget *export_button;

  /* Owned */
  ShepardDocument *document;
  GSettings *settings; /* NULL: nothing is remembered */
  char **creation_options; /* what options_entry holds, once valid */
  gboolean options_valid;
  shepard_params params;
  double data_bounds[4]; /* the points' bounding box; the data extent adds margin_spin's margin */
  GPtrArray *formats; /* of ShepardWritableFormat, in the order of format_dropdown */
  GCancellable *cancellable;
  char *report;
  gint64 started; /* monotonic time the running export began */
  char *value_path;
  char *plane_paths[3]; /* alpha, R, r_obs beside the value raster, when written so */
  ShepardGridExportPlanes extra_bands;

  /* What the map showed when the dialog opened: it is modal, so the view cannot move meanwhile. */
  double view_extent[4];
  gboolean has_view_extent;
  /* The last valid grid, to start the other size mode from. */
  shepard_grid grid;
  gboolean grid_valid;
  gboolean updating;
};

const char *_shepard_export_dialog_chosen_driver (ShepardExportDialog *self);
ShepardSampleType _shepard_export_dialog_chosen_sample_type (ShepardExportDialog *self);

/* shepard-export-dialog-choices.c: the choices remembered in settings (NULL: none), written after an export that
 * succeeded and read when a dialog opens; the folder a first export goes to. */
void _shepard_export_dialog_remember_choices (ShepardExportDialog *self);
void _shepard_export_dialog_restore_choices (ShepardExportDialog *self);
char *_shepard_export_dialog_default_folder (GSettings *settings);

/* shepard-export-dialog-fields.c: the layer's numeric fields as check boxes, the map's field checked (at least one stays
 * checked), and the fields checked, in the layer's order (g_strfreev). */
void _shepard_export_dialog_fill_fields (ShepardExportDialog *self);
char **_shepard_export_dialog_chosen_fields (ShepardExportDialog *self);

G_END_DECLS
