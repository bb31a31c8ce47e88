/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-summation-section.h"

#include <math.h>
#include <string.h>

#include "shepard-change-batch.h"
#include "shepard-label-column.h"
#include "shepard-spin-entry.h"

/* The rows of the drop-down, in the template's order (and the settings' values). */
enum {
  SUMMATION_AUTO,
  SUMMATION_EXACT,
  SUMMATION_FAR_FIELD,
};

struct _ShepardSummationSection
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkDropDown *summation_dropdown;
  GtkSpinButton *tolerance_spin;
  GtkLabel *tolerance_error;
  GtkLabel *exact_note;

  gboolean far_field_applies; /* to the weighting last shown */
  ShepardChangeBatch batch;
};

G_DEFINE_FINAL_TYPE (ShepardSummationSection, shepard_summation_section, GTK_TYPE_WIDGET)

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_summation_section_new (void)
{
  return g_object_new (SHEPARD_TYPE_SUMMATION_SECTION, NULL);
}

char *
shepard_summation_format_tolerance (double tolerance)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  g_ascii_formatd (text, sizeof text, "%.6g", tolerance);

  /* "1e-06" as "1e-6": the exponent's padding only makes it harder to read. */
  GString *readable = g_string_new (text);
  char *exponent = strchr (readable->str, 'e');
  if (exponent != NULL)
    {
      gsize digits = (gsize) (exponent - readable->str) + 2;
      while (readable->str[digits] == '0' && readable->str[digits + 1] != '\0')
        g_string_erase (readable, (gssize) digits, 1);
    }
  return g_string_free (readable, FALSE);
}

/* The tolerance of an exponent, to 6 significant digits: 10^log10 (t) gives t back only nearly, and what the entry
 * shows is what the engine gets. */
static double
tolerance_of_exponent (double exponent)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (text, sizeof text, "%.6g", pow (10.0, exponent));
  return CLAMP (g_ascii_strtod (text, NULL), SHEPARD_FAR_FIELD_TOLERANCE_MIN, SHEPARD_FAR_FIELD_TOLERANCE_MAX);
}

static double
exponent_of_tolerance (double tolerance)
{
  return CLAMP (log10 (tolerance), log10 (SHEPARD_FAR_FIELD_TOLERANCE_MIN), log10 (SHEPARD_FAR_FIELD_TOLERANCE_MAX));
}

static double
current_tolerance (ShepardSummationSection *self)
{
  return tolerance_of_exponent (gtk_spin_button_get_value (self->tolerance_spin));
}

static void
show_error (ShepardSummationSection *self, const char *message)
{
  shepard_spin_entry_show_error (self->tolerance_spin, self->tolerance_error, message);
}

static void
update_controls (ShepardSummationSection *self)
{
  guint selected = gtk_drop_down_get_selected (self->summation_dropdown);

  gtk_widget_set_sensitive (GTK_WIDGET (self->tolerance_spin), selected != SUMMATION_EXACT);
  gtk_widget_set_visible (GTK_WIDGET (self->exact_note), selected != SUMMATION_EXACT && !self->far_field_applies);
}

static void
on_summation_changed (ShepardSummationSection *self)
{
  update_controls (self);
  shepard_change_batch_note (&self->batch);
}

static void
on_tolerance_changed (ShepardSummationSection *self)
{
  show_error (self, NULL);
  shepard_change_batch_note (&self->batch);
}

static gboolean
on_tolerance_output (ShepardSummationSection *self, GtkSpinButton *spin_button)
{
  g_autofree char *text = shepard_summation_format_tolerance (current_tolerance (self));

  if (strcmp (gtk_editable_get_text (GTK_EDITABLE (spin_button)), text) != 0)
    gtk_editable_set_text (GTK_EDITABLE (spin_button), text);
  return TRUE;
}

/* The entry holds the tolerance, the adjustment its exponent. A tolerance out of range gets the engine's own
 * message, checked on otherwise default parameters so that it is about the tolerance. */
static int
on_tolerance_input (ShepardSummationSection *self, double *new_value, GtkSpinButton *spin_button)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (spin_button));
  g_autofree char *typed = g_strstrip (g_strdup (text));
  g_autofree char *kept = shepard_summation_format_tolerance (current_tolerance (self));
  shepard_params params;
  shepard_error error = { 0 };

  shepard_params_init_idw (&params);
  if (!shepard_spin_entry_parse (text, &params.tolerance))
    {
      g_autofree char *message = typed[0] == '\0'
                                   ? g_strdup_printf ("Tolerance: the entry is empty; kept %s", kept)
                                   : g_strdup_printf ("Tolerance: “%s” is not a number; kept %s", typed, kept);
      show_error (self, message);
      return GTK_INPUT_ERROR;
    }
  if (shepard_params_validate (&params, &error) != SHEPARD_OK)
    {
      show_error (self, error.message);
      return GTK_INPUT_ERROR;
    }
  *new_value = exponent_of_tolerance (params.tolerance);
  return TRUE;
}

void
shepard_summation_section_get_params (ShepardSummationSection *self, shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_SUMMATION_SECTION (self));
  g_return_if_fail (params != NULL);

  switch (gtk_drop_down_get_selected (self->summation_dropdown))
    {
    case SUMMATION_EXACT:
      params->summation = SHEPARD_SUMMATION_EXACT;
      break;
    case SUMMATION_FAR_FIELD:
      params->summation = SHEPARD_SUMMATION_FAR_FIELD;
      break;
    default:
      params->summation = SHEPARD_SUMMATION_AUTO;
      break;
    }
  params->tolerance = current_tolerance (self);
}

void
shepard_summation_section_set_params (ShepardSummationSection *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_SUMMATION_SECTION (self));
  g_return_if_fail (params != NULL);

  shepard_change_batch_begin (&self->batch);
  show_error (self, NULL);
  gtk_drop_down_set_selected (self->summation_dropdown,
                              params->summation == SHEPARD_SUMMATION_EXACT       ? SUMMATION_EXACT
                              : params->summation == SHEPARD_SUMMATION_FAR_FIELD ? SUMMATION_FAR_FIELD
                                                                                 : SUMMATION_AUTO);
  if (params->tolerance >= SHEPARD_FAR_FIELD_TOLERANCE_MIN && params->tolerance <= SHEPARD_FAR_FIELD_TOLERANCE_MAX)
    gtk_spin_button_set_value (self->tolerance_spin, exponent_of_tolerance (params->tolerance));
  shepard_change_batch_end (&self->batch);
}

void
shepard_summation_section_show_weighting (ShepardSummationSection *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_SUMMATION_SECTION (self));
  g_return_if_fail (params != NULL);

  /* The window's powers stay far below SHEPARD_FAR_FIELD_MAX_POWER: only the neighbourhood can rule it out. */
  self->far_field_applies = shepard_params_weight_all_points (params) && params->smoothing == 0.0;
  update_controls (self);
}

const char *
shepard_summation_section_get_note (ShepardSummationSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_SUMMATION_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->exact_note)) ? gtk_label_get_text (self->exact_note) : NULL;
}

const char *
shepard_summation_section_get_error (ShepardSummationSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_SUMMATION_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->tolerance_error)) ? gtk_label_get_text (self->tolerance_error)
                                                                       : NULL;
}

/* The settings keep the tolerance itself; the adjustment holds its exponent. */
static gboolean
tolerance_from_setting (GValue *value, GVariant *variant, gpointer user_data)
{
  g_value_set_double (value, exponent_of_tolerance (g_variant_get_double (variant)));
  return TRUE;
}

static GVariant *
tolerance_to_setting (const GValue *value, const GVariantType *expected_type, gpointer user_data)
{
  return g_variant_new_double (tolerance_of_exponent (g_value_get_double (value)));
}

void
shepard_summation_section_bind_settings (ShepardSummationSection *self, GSettings *settings)
{
  g_return_if_fail (SHEPARD_IS_SUMMATION_SECTION (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  shepard_change_batch_begin (&self->batch);
  g_settings_bind (settings, "summation", self->summation_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "far-field-tolerance", gtk_spin_button_get_adjustment (self->tolerance_spin),
                                "value", G_SETTINGS_BIND_DEFAULT, tolerance_from_setting, tolerance_to_setting, NULL,
                                NULL);
  shepard_change_batch_end (&self->batch);
}

void
shepard_summation_section_align_labels (ShepardSummationSection *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_SUMMATION_SECTION (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
}

static void
shepard_summation_section_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_SUMMATION_SECTION);
  G_OBJECT_CLASS (shepard_summation_section_parent_class)->dispose (object);
}

static void
shepard_summation_section_class_init (ShepardSummationSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_summation_section_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-summation-section.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardSummationSection, grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardSummationSection, summation_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardSummationSection, tolerance_spin);
  gtk_widget_class_bind_template_child (widget_class, ShepardSummationSection, tolerance_error);
  gtk_widget_class_bind_template_child (widget_class, ShepardSummationSection, exact_note);
  gtk_widget_class_bind_template_callback (widget_class, on_summation_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_input);
  gtk_widget_class_bind_template_callback (widget_class, on_tolerance_output);

  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_summation_section_init (ShepardSummationSection *self)
{
  shepard_change_batch_init (&self->batch, self, signals[SIGNAL_CHANGED]);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->far_field_applies = TRUE;

  /* The promise and where it holds, with the engine's own limit. */
  g_autofree char *promise = g_strdup_printf (
    "How each cell's sums over all the points are made. Exact weighs every pair. Far field sums distant groups of "
    "points from their moments and keeps every cell within tolerance × the field's value range (largest − smallest) "
    "of the exact value. It applies where all points are weighed, without smoothing, with powers up to %g; "
    "Explain and cross-validation stay exact. Automatic takes the far field where it is expected to be faster.",
    SHEPARD_FAR_FIELD_MAX_POWER);
  g_autofree char *tolerance = g_strdup_printf (
    "The far field's largest error at any cell, as a share of the field's value range: 1e-6 keeps every cell within "
    "a millionth of the range of the exact value. From %g to %g; the arrows step by a factor of ten.",
    SHEPARD_FAR_FIELD_TOLERANCE_MIN, SHEPARD_FAR_FIELD_TOLERANCE_MAX);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->summation_dropdown), promise);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->tolerance_spin), tolerance);
  /* The template set the value before it connected "output". */
  on_tolerance_output (self, self->tolerance_spin);
  update_controls (self);
}
