/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_NEIGHBOURHOOD_SECTION (shepard_neighbourhood_section_get_type ())
G_DECLARE_FINAL_TYPE (ShepardNeighbourhoodSection, shepard_neighbourhood_section, SHEPARD, NEIGHBOURHOOD_SECTION,
                      GtkWidget)

/* Which points weigh in at each cell, with gdal_grid's options: the search radius (none, a circle or an ellipse),
 * max points (all or the N nearest), min points, max and min points per quadrant, and the smoothing. "changed" (no
 * arguments) as the parameter panel's: once per edit, once per set_params or bind_settings that changes anything.
 * Options the engine refuses together (min points above max points, ...) show the engine's message in the section.
 * "shape-shown" is TRUE while the radius or angle is being edited (a control of the search shape has the focus, or
 * changed moments ago) and a radius is set: the map then draws the search shape. */
GtkWidget *shepard_neighbourhood_section_new (void);

/* Writes neighbors, radius1, radius2, angle, min_points, max_points_per_quadrant, min_points_per_quadrant and smoothing
 * of params; leaves the rest. A circle is radius1 = radius2 at angle 0. */
void shepard_neighbourhood_section_get_params (ShepardNeighbourhoodSection *self, shepard_params *params);
/* The radius and N controls keep their values when params does not use them (no radius, all points). */
void shepard_neighbourhood_section_set_params (ShepardNeighbourhoodSection *self, const shepard_params *params);
/* The engine's defaults (no radius, all points, no minimum, no quadrant limits, no smoothing), with the template's
 * radius and N for the next time they are chosen. */
void shepard_neighbourhood_section_reset (ShepardNeighbourhoodSection *self);

/* The layer's map unit (metres_per_unit as shepard_coordinate_transform_get_metres_per_unit: 1 m, 0.3048 ft, 0 for
 * degrees, < 0 unknown) written beside the distances, and the longer side of its extent, which sets their steps and
 * decimals. While no radius is in use, the radius controls also take a quarter of that side, a radius that suits the
 * layer the next time one is chosen. */
void shepard_neighbourhood_section_set_units (ShepardNeighbourhoodSection *self, double metres_per_unit,
                                              double extent_size);
const char *shepard_neighbourhood_section_get_unit (ShepardNeighbourhoodSection *self);

/* Keeps search-shape, radius, radius-1, radius-2, angle, neighbourhood, neighbours, min-points,
 * max-points-per-quadrant, min-points-per-quadrant and smoothing in settings; the section takes the stored values. */
void shepard_neighbourhood_section_bind_settings (ShepardNeighbourhoodSection *self, GSettings *settings);

gboolean shepard_neighbourhood_section_get_shape_shown (ShepardNeighbourhoodSection *self);
/* The engine's message on the section's options, or NULL when it takes them. */
const char *shepard_neighbourhood_section_get_validation_message (ShepardNeighbourhoodSection *self);

/* Lines the section's row labels up with the others in labels (shepard_label_column_share). */
void shepard_neighbourhood_section_align_labels (ShepardNeighbourhoodSection *self, GtkSizeGroup *labels);

G_END_DECLS
