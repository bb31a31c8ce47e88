/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Reads what the user typed into spin_button as GtkSpinButton::input would, but tells why an entry is refused
 * rather than reading it as 0 or clamping it: a number written with '.' or the locale's decimal separator, rounded to
 * the button's digits (what the entry will show is what is used), within the adjustment's bounds. On a refusal,
 * returns FALSE and *message (free with g_free) names the control by its mnemonic label, says what is wrong and
 * which value is kept. */
gboolean shepard_spin_entry_read (GtkSpinButton *spin_button, double *value, char **message);

/* A number as typed, with '.' or the locale's decimal separator and spaces around it; FALSE for an empty entry or
 * anything else. For an entry that reads its text its own way (an input handler), with the same rules. */
gboolean shepard_spin_entry_parse (const char *text, double *value);

/* Shows message (NULL: none) in the spin button's error label under it, and marks the button invalid for assistive
 * technologies while there is one. */
void shepard_spin_entry_show_error (GtkSpinButton *spin_button, GtkLabel *error_label, const char *message);

/* Fits a spin button of distances to a layer extent_size across (positive, finite): steps of a hundredth of it,
 * rounded down to a power of ten, and a thousandth as the last decimal shown. Returns the step. */
double shepard_spin_entry_fit_distance (GtkSpinButton *spin_button, double extent_size);

G_END_DECLS
