/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

#define SHEPARD_TYPE_SUMMATION_SECTION (shepard_summation_section_get_type ())
G_DECLARE_FINAL_TYPE (ShepardSummationSection, shepard_summation_section, SHEPARD, SUMMATION_SECTION, GtkWidget)

/* How the engine makes its sums over all the points (compute/shepard-engine.h, "Far-field summation"): Automatic,
 * Exact or Far field, and the far field's tolerance (off under Exact), from SHEPARD_FAR_FIELD_TOLERANCE_MIN to _MAX;
 * a tolerance out of that range keeps the last one and shows the engine's message. "changed" (no arguments) as the
 * parameter panel's: once per edit, once per set_params or bind_settings that changes anything. */
GtkWidget *shepard_summation_section_new (void);

/* Writes summation and tolerance of params; leaves the rest. The tolerance has at most 6 significant digits. */
void shepard_summation_section_get_params (ShepardSummationSection *self, shepard_params *params);
void shepard_summation_section_set_params (ShepardSummationSection *self, const shepard_params *params);

/* The weighting of params, for the note under the controls: where the far field does not apply to it (local
 * weighting, smoothing, a power above SHEPARD_FAR_FIELD_MAX_POWER), a choice other than Exact still sums exactly, and
 * the section says why. */
void shepard_summation_section_show_weighting (ShepardSummationSection *self, const shepard_params *params);
/* The note, or NULL while none shows. */
const char *shepard_summation_section_get_note (ShepardSummationSection *self);
/* The message of the last refused tolerance, or NULL. */
const char *shepard_summation_section_get_error (ShepardSummationSection *self);

/* Keeps summation and far-field-tolerance in settings; the section takes the stored values now. */
void shepard_summation_section_bind_settings (ShepardSummationSection *self, GSettings *settings);

/* Lines the section's row labels up with the others in labels (shepard_label_column_share). */
void shepard_summation_section_align_labels (ShepardSummationSection *self, GtkSizeGroup *labels);

/* A tolerance as the section and the status bar write it: "1e-6", "2.5e-7", "0.001"; g_free. */
char *shepard_summation_format_tolerance (double tolerance);

G_END_DECLS
