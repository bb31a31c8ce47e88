/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Which cells of the grid keep their value, as shepard-grid's --mask-distance, --mask-hull and -cutline choose. */
typedef enum {
  SHEPARD_MASK_NONE,
  SHEPARD_MASK_DISTANCE, /* cells farther than distance from the nearest data point have no data */
  SHEPARD_MASK_HULL,     /* cells outside the points' convex hull have no data */
  SHEPARD_MASK_CUTLINE,  /* cells outside the polygons of cutline_path (layer cutline_layer) have no data */
} ShepardMaskKind;

#define SHEPARD_TYPE_MASK_SECTION (shepard_mask_section_get_type ())
G_DECLARE_FINAL_TYPE (ShepardMaskSection, shepard_mask_section, SHEPARD, MASK_SECTION, GtkWidget)

/* The mask of the preview and the export: None, Distance to nearest point (with its distance, in map units), Convex
 * hull, or Cutline (a polygon layer chosen with a file chooser, and optionally its layer's name). "changed" (no
 * arguments) once per choice the user makes, and once per set_* or bind_settings that changes anything. A cutline
 * is chosen only once its file is: Cutline without a file reads as None. */
GtkWidget *shepard_mask_section_new (void);

ShepardMaskKind shepard_mask_section_get_kind (ShepardMaskSection *self);
double shepard_mask_section_get_distance (ShepardMaskSection *self);
/* NULL unless a file was chosen; the layer NULL for the file's first layer. */
const char *shepard_mask_section_get_cutline_path (ShepardMaskSection *self);
const char *shepard_mask_section_get_cutline_layer (ShepardMaskSection *self);

void shepard_mask_section_set_mask (ShepardMaskSection *self, ShepardMaskKind kind, double distance,
                                    const char *cutline_path, const char *cutline_layer);
/* The map unit written beside the distance ("m", "°"), and the layer's longer side, which sets its steps. */
void shepard_mask_section_set_units (ShepardMaskSection *self, const char *unit, double extent_size);
/* Why the mask cannot be made (a cutline that is not polygons, ...), shown under the section; NULL clears it. */
void shepard_mask_section_set_error (ShepardMaskSection *self, const char *message);
const char *shepard_mask_section_get_error (ShepardMaskSection *self);

/* Keeps mask, mask-distance, cutline and cutline-layer in settings. */
void shepard_mask_section_bind_settings (ShepardMaskSection *self, GSettings *settings);

void shepard_mask_section_align_labels (ShepardMaskSection *self, GtkSizeGroup *labels);

G_END_DECLS
