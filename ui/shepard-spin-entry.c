/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-spin-entry.h"

#include <locale.h>
#include <math.h>
#include <string.h>

/* The row's label names the field in messages, so that they read as the panel does. */
static char *
spin_name (GtkSpinButton *spin)
{
  g_autoptr (GList) labels = gtk_widget_list_mnemonic_labels (GTK_WIDGET (spin));

  g_assert (labels != NULL);
  return g_strdup (gtk_label_get_text (labels->data));
}

/* A number as typed, with '.' or the locale's decimal separator (GTK writes the value with the latter); spaces
 * around it are allowed, anything else after it is not. */
gboolean
shepard_spin_entry_parse (const char *text, double *value)
{
  const char *separator = localeconv ()->decimal_point;
  g_autofree char *copy = g_strstrip (g_strdup (text));
  char *end;

  if (copy[0] == '\0')
    return FALSE;
  if (separator != NULL && strcmp (separator, ".") != 0 && strchr (copy, '.') == NULL)
    {
      g_auto (GStrv) parts = g_strsplit (copy, separator, -1);
      g_free (copy);
      copy = g_strjoinv (".", parts);
    }
  *value = g_ascii_strtod (copy, &end);
  return *end == '\0' && end != copy && isfinite (*value);
}

gboolean
shepard_spin_entry_read (GtkSpinButton *spin_button, double *value, char **message)
{
  g_return_val_if_fail (GTK_IS_SPIN_BUTTON (spin_button), FALSE);
  g_return_val_if_fail (value != NULL && message != NULL, FALSE);

  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin_button));
  GtkAdjustment *adjustment = gtk_spin_button_get_adjustment (spin_button);
  double lower = gtk_adjustment_get_lower (adjustment), upper = gtk_adjustment_get_upper (adjustment);
  int digits = (int) gtk_spin_button_get_digits (spin_button);
  g_autofree char *name = spin_name (spin_button);
  g_autofree char *typed = g_strstrip (g_strdup (text));
  g_autofree char *kept = g_strdup_printf ("%.*f", digits, gtk_adjustment_get_value (adjustment));
  double number = 0.0;

  *message = NULL;
  if (!shepard_spin_entry_parse (text, &number))
    {
      if (typed[0] == '\0')
        *message = g_strdup_printf ("%s: the entry is empty; kept %s", name, kept);
      else
        *message = g_strdup_printf ("%s: “%s” is not a number; kept %s", name, typed, kept);
      return FALSE;
    }
  /* What the entry will show once formatted is what the engine gets: 2.5 in k is not 2 on screen and 3 in use. */
  double scale = pow (10.0, digits);
  number = round (number * scale) / scale;
  if (number < lower)
    *message = g_strdup_printf ("%s: %s is below the smallest allowed, %g; kept %s", name, typed, lower, kept);
  else if (number > upper)
    *message = g_strdup_printf ("%s: %s is above the largest allowed, %g; kept %s", name, typed, upper, kept);
  if (*message != NULL)
    return FALSE;
  *value = number;
  return TRUE;
}

void
shepard_spin_entry_show_error (GtkSpinButton *spin_button, GtkLabel *error_label, const char *message)
{
  gtk_label_set_text (error_label, message != NULL ? message : "");
  gtk_widget_set_visible (GTK_WIDGET (error_label), message != NULL);
  gtk_accessible_update_state (GTK_ACCESSIBLE (spin_button), GTK_ACCESSIBLE_STATE_INVALID,
                               message != NULL ? GTK_ACCESSIBLE_INVALID_TRUE : GTK_ACCESSIBLE_INVALID_FALSE, -1);
}

double
shepard_spin_entry_fit_distance (GtkSpinButton *spin_button, double extent_size)
{
  g_return_val_if_fail (GTK_IS_SPIN_BUTTON (spin_button), 0.0);
  g_return_val_if_fail (extent_size > 0.0 && isfinite (extent_size), 0.0);

  double step = pow (10.0, floor (log10 (extent_size / 100.0)));
  gtk_spin_button_set_digits (spin_button, (guint) CLAMP (-floor (log10 (extent_size / 1000.0)), 0, 8));
  gtk_spin_button_set_increments (spin_button, step, 10 * step);
  return step;
}
