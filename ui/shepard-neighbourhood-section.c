/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-neighbourhood-section.h"

#include <math.h>

#include "shepard-change-batch.h"
#include "shepard-label-column.h"
#include "shepard-spin-entry.h"

/* The search shape stays on the map this long after its last change once its controls have lost the focus: long
 * enough to see where a typed value or a click on the spin's arrows took it. */
#define SHAPE_LINGER_MS 1500

/* The rows of the drop-downs, in the template's order. */
enum {
  SHAPE_NONE,
  SHAPE_CIRCLE,
  SHAPE_ELLIPSE,
};

enum {
  NEIGHBOURHOOD_ALL,
  NEIGHBOURHOOD_NEAREST,
};

typedef enum {
  SPIN_RADIUS,
  SPIN_RADIUS1,
  SPIN_RADIUS2,
  SPIN_ANGLE,
  SPIN_NEIGHBORS,
  SPIN_MIN_POINTS,
  SPIN_MAX_PER_QUADRANT,
  SPIN_MIN_PER_QUADRANT,
  SPIN_SMOOTHING,
  N_SPINS
} Spin;

/* The controls that change the search shape drawn on the map. */
static const Spin shape_spins[] = { SPIN_RADIUS, SPIN_RADIUS1, SPIN_RADIUS2, SPIN_ANGLE };

struct _ShepardNeighbourhoodSection
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *grid; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkDropDown *shape_dropdown, *neighbors_dropdown;
  GtkSpinButton *spins[N_SPINS];
  GtkLabel *spin_errors[N_SPINS];
  GtkLabel *radius_unit, *radius1_unit, *radius2_unit, *smoothing_unit;
  GtkLabel *validation_label;

  char *unit;
  double default_radius, default_neighbors;
  ShepardChangeBatch batch;
  guint shape_focus;   /* shape controls holding the focus (0 or 1) */
  guint linger_source; /* keeps the shape shown a moment after a change */
  gboolean shape_shown;
};

G_DEFINE_FINAL_TYPE (ShepardNeighbourhoodSection, shepard_neighbourhood_section, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_SHAPE_SHOWN,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

enum {
  SIGNAL_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

GtkWidget *
shepard_neighbourhood_section_new (void)
{
  return g_object_new (SHEPARD_TYPE_NEIGHBOURHOOD_SECTION, NULL);
}

static void
show_spin_error (ShepardNeighbourhoodSection *self, Spin spin, const char *message)
{
  shepard_spin_entry_show_error (self->spins[spin], self->spin_errors[spin], message);
}

/* The row of a spin button: its label (column 0), the box that holds it and the refusal under it. */
static void
set_row_visible (ShepardNeighbourhoodSection *self, Spin spin, gboolean visible)
{
  GtkWidget *box = gtk_widget_get_parent (GTK_WIDGET (self->spins[spin]));
  g_autoptr (GList) labels = gtk_widget_list_mnemonic_labels (GTK_WIDGET (self->spins[spin]));

  gtk_widget_set_visible (box, visible);
  for (GList *l = labels; l != NULL; l = l->next)
    gtk_widget_set_visible (l->data, visible);
  if (!visible)
    show_spin_error (self, spin, NULL);
}

static guint
selected_shape (ShepardNeighbourhoodSection *self)
{
  return gtk_drop_down_get_selected (self->shape_dropdown);
}

static void
update_rows (ShepardNeighbourhoodSection *self)
{
  guint shape = selected_shape (self);

  set_row_visible (self, SPIN_RADIUS, shape == SHAPE_CIRCLE);
  set_row_visible (self, SPIN_RADIUS1, shape == SHAPE_ELLIPSE);
  set_row_visible (self, SPIN_RADIUS2, shape == SHAPE_ELLIPSE);
  set_row_visible (self, SPIN_ANGLE, shape == SHAPE_ELLIPSE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->spins[SPIN_NEIGHBORS]),
                            gtk_drop_down_get_selected (self->neighbors_dropdown) == NEIGHBOURHOOD_NEAREST);
}

static void
set_shape_shown (ShepardNeighbourhoodSection *self, gboolean shown)
{
  shown = shown && selected_shape (self) != SHAPE_NONE;
  if (shown == self->shape_shown)
    return;
  self->shape_shown = shown;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SHAPE_SHOWN]);
}

static gboolean
end_linger (gpointer data)
{
  ShepardNeighbourhoodSection *self = data;

  self->linger_source = 0;
  set_shape_shown (self, self->shape_focus > 0);
  return G_SOURCE_REMOVE;
}

static void
linger_shape (ShepardNeighbourhoodSection *self)
{
  g_clear_handle_id (&self->linger_source, g_source_remove);
  self->linger_source = g_timeout_add (SHAPE_LINGER_MS, end_linger, self);
}

static void
on_shape_focus_enter (ShepardNeighbourhoodSection *self)
{
  self->shape_focus = 1;
  set_shape_shown (self, TRUE);
}

static void
on_shape_focus_leave (ShepardNeighbourhoodSection *self)
{
  self->shape_focus = 0;
  linger_shape (self);
}

/* The engine's own check of these options, on otherwise default parameters, so that the message is about them. */
static void
update_validation (ShepardNeighbourhoodSection *self)
{
  shepard_params params;
  shepard_error error = { 0 };

  shepard_params_init_idw (&params);
  shepard_neighbourhood_section_get_params (self, &params);
  gboolean valid = shepard_params_validate (&params, &error) == SHEPARD_OK;
  gtk_label_set_text (self->validation_label, valid ? "" : error.message);
  gtk_widget_set_visible (GTK_WIDGET (self->validation_label), !valid);
}

static gboolean
is_shape_spin (ShepardNeighbourhoodSection *self, GtkAdjustment *adjustment)
{
  for (gsize i = 0; i < G_N_ELEMENTS (shape_spins); i++)
    if (gtk_spin_button_get_adjustment (self->spins[shape_spins[i]]) == adjustment)
      return TRUE;
  return FALSE;
}

static void
on_value_changed (ShepardNeighbourhoodSection *self, GtkAdjustment *adjustment)
{
  for (Spin spin = 0; spin < N_SPINS; spin++)
    if (gtk_spin_button_get_adjustment (self->spins[spin]) == adjustment)
      show_spin_error (self, spin, NULL);
  /* A set_params or a stored setting moves no hand: only the user's edits show the shape. */
  if (is_shape_spin (self, adjustment) && self->batch.depth == 0)
    {
      set_shape_shown (self, TRUE);
      linger_shape (self);
    }
  update_validation (self);
  shepard_change_batch_note (&self->batch);
}

static void
on_selection_changed (ShepardNeighbourhoodSection *self, GParamSpec *pspec, GtkDropDown *dropdown)
{
  update_rows (self);
  if (dropdown == self->shape_dropdown)
    {
      if (self->batch.depth == 0)
        linger_shape (self);
      set_shape_shown (self, self->batch.depth == 0 || self->shape_shown);
    }
  update_validation (self);
  shepard_change_batch_note (&self->batch);
}

/* GtkSpinButton reads an entry that is not a number as 0 and clamps one out of range (both silently); the section
 * says why it keeps the last value instead. */
static int
on_spin_input (ShepardNeighbourhoodSection *self, double *new_value, GtkSpinButton *spin_button)
{
  g_autofree char *message = NULL;
  Spin spin = 0;
  double value = 0.0;

  while (spin < N_SPINS && self->spins[spin] != spin_button)
    spin++;
  g_assert (spin < N_SPINS);
  if (!shepard_spin_entry_read (spin_button, &value, &message))
    {
      show_spin_error (self, spin, message);
      return GTK_INPUT_ERROR;
    }
  *new_value = value;
  return TRUE;
}

void
shepard_neighbourhood_section_get_params (ShepardNeighbourhoodSection *self, shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));
  g_return_if_fail (params != NULL);

  switch (selected_shape (self))
    {
    case SHAPE_CIRCLE:
      params->radius1 = params->radius2 = gtk_spin_button_get_value (self->spins[SPIN_RADIUS]);
      params->angle = 0.0;
      break;
    case SHAPE_ELLIPSE:
      params->radius1 = gtk_spin_button_get_value (self->spins[SPIN_RADIUS1]);
      params->radius2 = gtk_spin_button_get_value (self->spins[SPIN_RADIUS2]);
      params->angle = gtk_spin_button_get_value (self->spins[SPIN_ANGLE]);
      break;
    default:
      params->radius1 = params->radius2 = params->angle = 0.0;
      break;
    }
  params->neighbors = gtk_drop_down_get_selected (self->neighbors_dropdown) == NEIGHBOURHOOD_NEAREST
                        ? gtk_spin_button_get_value_as_int (self->spins[SPIN_NEIGHBORS])
                        : SHEPARD_NEIGHBORS_ALL;
  params->min_points = gtk_spin_button_get_value_as_int (self->spins[SPIN_MIN_POINTS]);
  params->max_points_per_quadrant = gtk_spin_button_get_value_as_int (self->spins[SPIN_MAX_PER_QUADRANT]);
  params->min_points_per_quadrant = gtk_spin_button_get_value_as_int (self->spins[SPIN_MIN_PER_QUADRANT]);
  params->smoothing = gtk_spin_button_get_value (self->spins[SPIN_SMOOTHING]);
}

void
shepard_neighbourhood_section_set_params (ShepardNeighbourhoodSection *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));
  g_return_if_fail (params != NULL);

  shepard_change_batch_begin (&self->batch);
  for (Spin spin = 0; spin < N_SPINS; spin++)
    show_spin_error (self, spin, NULL);
  if (params->radius1 <= 0.0)
    gtk_drop_down_set_selected (self->shape_dropdown, SHAPE_NONE);
  else if (params->radius1 == params->radius2)
    {
      gtk_spin_button_set_value (self->spins[SPIN_RADIUS], params->radius1);
      gtk_drop_down_set_selected (self->shape_dropdown, SHAPE_CIRCLE);
    }
  else
    {
      gtk_spin_button_set_value (self->spins[SPIN_RADIUS1], params->radius1);
      gtk_spin_button_set_value (self->spins[SPIN_RADIUS2], params->radius2);
      gtk_spin_button_set_value (self->spins[SPIN_ANGLE], params->angle);
      gtk_drop_down_set_selected (self->shape_dropdown, SHAPE_ELLIPSE);
    }
  gtk_drop_down_set_selected (self->neighbors_dropdown,
                              params->neighbors == SHEPARD_NEIGHBORS_ALL ? NEIGHBOURHOOD_ALL : NEIGHBOURHOOD_NEAREST);
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
    gtk_spin_button_set_value (self->spins[SPIN_NEIGHBORS], params->neighbors);
  gtk_spin_button_set_value (self->spins[SPIN_MIN_POINTS], params->min_points);
  gtk_spin_button_set_value (self->spins[SPIN_MAX_PER_QUADRANT], params->max_points_per_quadrant);
  gtk_spin_button_set_value (self->spins[SPIN_MIN_PER_QUADRANT], params->min_points_per_quadrant);
  gtk_spin_button_set_value (self->spins[SPIN_SMOOTHING], params->smoothing);
  shepard_change_batch_end (&self->batch);
}

void
shepard_neighbourhood_section_reset (ShepardNeighbourhoodSection *self)
{
  shepard_params params;

  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));

  shepard_params_init_idw (&params);
  shepard_change_batch_begin (&self->batch);
  shepard_neighbourhood_section_set_params (self, &params);
  for (Spin spin = SPIN_RADIUS; spin <= SPIN_RADIUS2; spin++)
    gtk_spin_button_set_value (self->spins[spin], self->default_radius);
  gtk_spin_button_set_value (self->spins[SPIN_ANGLE], 0.0);
  gtk_spin_button_set_value (self->spins[SPIN_NEIGHBORS], self->default_neighbors);
  shepard_change_batch_end (&self->batch);
}

static const char *
unit_symbol (double metres_per_unit)
{
  if (metres_per_unit == 0.0)
    return "°";
  if (fabs (metres_per_unit - 1.0) < 1e-9)
    return "m";
  if (fabs (metres_per_unit - 1000.0) < 1e-6)
    return "km";
  if (fabs (metres_per_unit - 0.3048) < 1e-9)
    return "ft";
  if (fabs (metres_per_unit - 1200.0 / 3937.0) < 1e-9)
    return "US ft";
  return "map units";
}

void
shepard_neighbourhood_section_set_units (ShepardNeighbourhoodSection *self, double metres_per_unit,
                                         double extent_size)
{
  static const Spin distances[] = { SPIN_RADIUS, SPIN_RADIUS1, SPIN_RADIUS2, SPIN_SMOOTHING };
  GtkLabel *unit_labels[] = { self->radius_unit, self->radius1_unit, self->radius2_unit, self->smoothing_unit };

  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));

  g_free (self->unit);
  self->unit = g_strdup (unit_symbol (metres_per_unit));
  for (gsize i = 0; i < G_N_ELEMENTS (unit_labels); i++)
    gtk_label_set_text (unit_labels[i], self->unit);
  if (!(extent_size > 0.0) || !isfinite (extent_size))
    return;

  double step = 0.0;
  shepard_change_batch_begin (&self->batch);
  for (gsize i = 0; i < G_N_ELEMENTS (distances); i++)
    step = shepard_spin_entry_fit_distance (self->spins[distances[i]], extent_size);
  if (selected_shape (self) == SHAPE_NONE)
    {
      double quarter = round (extent_size / 4.0 / step) * step;
      for (Spin spin = SPIN_RADIUS; spin <= SPIN_RADIUS2; spin++)
        gtk_spin_button_set_value (self->spins[spin], quarter);
    }
  shepard_change_batch_end (&self->batch);
}

const char *
shepard_neighbourhood_section_get_unit (ShepardNeighbourhoodSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self), NULL);
  return self->unit;
}

void
shepard_neighbourhood_section_bind_settings (ShepardNeighbourhoodSection *self, GSettings *settings)
{
  static const struct {
    Spin spin;
    const char *key;
  } spin_keys[] = {
    { SPIN_RADIUS, "radius" },
    { SPIN_RADIUS1, "radius-1" },
    { SPIN_RADIUS2, "radius-2" },
    { SPIN_ANGLE, "angle" },
    { SPIN_NEIGHBORS, "neighbours" },
    { SPIN_MIN_POINTS, "min-points" },
    { SPIN_MAX_PER_QUADRANT, "max-points-per-quadrant" },
    { SPIN_MIN_PER_QUADRANT, "min-points-per-quadrant" },
    { SPIN_SMOOTHING, "smoothing" },
  };

  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  shepard_change_batch_begin (&self->batch);
  for (gsize i = 0; i < G_N_ELEMENTS (spin_keys); i++)
    g_settings_bind (settings, spin_keys[i].key, gtk_spin_button_get_adjustment (self->spins[spin_keys[i].spin]),
                     "value", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "search-shape", self->shape_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "neighbourhood", self->neighbors_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  shepard_change_batch_end (&self->batch);
}

gboolean
shepard_neighbourhood_section_get_shape_shown (ShepardNeighbourhoodSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self), FALSE);
  return self->shape_shown;
}

const char *
shepard_neighbourhood_section_get_validation_message (ShepardNeighbourhoodSection *self)
{
  g_return_val_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self), NULL);
  return gtk_widget_get_visible (GTK_WIDGET (self->validation_label)) ? gtk_label_get_text (self->validation_label)
                                                                        : NULL;
}

void
shepard_neighbourhood_section_align_labels (ShepardNeighbourhoodSection *self, GtkSizeGroup *labels)
{
  g_return_if_fail (SHEPARD_IS_NEIGHBOURHOOD_SECTION (self));
  shepard_label_column_share (GTK_GRID (self->grid), labels);
}

static void
watch_focus (ShepardNeighbourhoodSection *self, GtkWidget *widget)
{
  GtkEventController *focus = gtk_event_controller_focus_new ();

  g_signal_connect_swapped (focus, "enter", G_CALLBACK (on_shape_focus_enter), self);
  g_signal_connect_swapped (focus, "leave", G_CALLBACK (on_shape_focus_leave), self);
  gtk_widget_add_controller (widget, focus);
}

static void
shepard_neighbourhood_section_get_property (GObject *object, guint prop_id, GValue *value, GParamSpec *pspec)
{
  ShepardNeighbourhoodSection *self = SHEPARD_NEIGHBOURHOOD_SECTION (object);

  switch (prop_id)
    {
    case PROP_SHAPE_SHOWN:
      g_value_set_boolean (value, self->shape_shown);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
shepard_neighbourhood_section_dispose (GObject *object)
{
  ShepardNeighbourhoodSection *self = SHEPARD_NEIGHBOURHOOD_SECTION (object);

  g_clear_handle_id (&self->linger_source, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_NEIGHBOURHOOD_SECTION);
  G_OBJECT_CLASS (shepard_neighbourhood_section_parent_class)->dispose (object);
}

static void
shepard_neighbourhood_section_finalize (GObject *object)
{
  g_free (SHEPARD_NEIGHBOURHOOD_SECTION (object)->unit);
  G_OBJECT_CLASS (shepard_neighbourhood_section_parent_class)->finalize (object);
}

static void
bind_child_at (GtkWidgetClass *widget_class, const char *name, gssize offset)
{
  gtk_widget_class_bind_template_child_full (widget_class, name, FALSE, offset);
}

static void
shepard_neighbourhood_section_class_init (ShepardNeighbourhoodSectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const spin_ids[N_SPINS][2] = {
    [SPIN_RADIUS] = { "radius_spin", "radius_error" },
    [SPIN_RADIUS1] = { "radius1_spin", "radius1_error" },
    [SPIN_RADIUS2] = { "radius2_spin", "radius2_error" },
    [SPIN_ANGLE] = { "angle_spin", "angle_error" },
    [SPIN_NEIGHBORS] = { "neighbors_spin", "neighbors_error" },
    [SPIN_MIN_POINTS] = { "min_points_spin", "min_points_error" },
    [SPIN_MAX_PER_QUADRANT] = { "max_per_quadrant_spin", "max_per_quadrant_error" },
    [SPIN_MIN_PER_QUADRANT] = { "min_per_quadrant_spin", "min_per_quadrant_error" },
    [SPIN_SMOOTHING] = { "smoothing_spin", "smoothing_error" },
  };

  object_class->get_property = shepard_neighbourhood_section_get_property;
  object_class->dispose = shepard_neighbourhood_section_dispose;
  object_class->finalize = shepard_neighbourhood_section_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/shepard/Shepard/ui/shepard-neighbourhood-section.ui");
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, grid);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, shape_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, neighbors_dropdown);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, radius_unit);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, radius1_unit);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, radius2_unit);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, smoothing_unit);
  gtk_widget_class_bind_template_child (widget_class, ShepardNeighbourhoodSection, validation_label);
  for (Spin spin = 0; spin < N_SPINS; spin++)
    {
      bind_child_at (widget_class, spin_ids[spin][0],
                     G_STRUCT_OFFSET (ShepardNeighbourhoodSection, spins) + spin * sizeof (GtkSpinButton *));
      bind_child_at (widget_class, spin_ids[spin][1],
                     G_STRUCT_OFFSET (ShepardNeighbourhoodSection, spin_errors) + spin * sizeof (GtkLabel *));
    }
  gtk_widget_class_bind_template_callback (widget_class, on_value_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_selection_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_spin_input);

  properties[PROP_SHAPE_SHOWN] = g_param_spec_boolean ("shape-shown", NULL, NULL, FALSE,
                                                       G_PARAM_READABLE | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);
  signals[SIGNAL_CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL,
                                          NULL, G_TYPE_NONE, 0);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
}

static void
shepard_neighbourhood_section_init (ShepardNeighbourhoodSection *self)
{
  shepard_change_batch_init (&self->batch, self, signals[SIGNAL_CHANGED]);
  gtk_widget_init_template (GTK_WIDGET (self));
  self->unit = g_strdup ("m");
  self->default_radius = gtk_spin_button_get_value (self->spins[SPIN_RADIUS]);
  self->default_neighbors = gtk_spin_button_get_value (self->spins[SPIN_NEIGHBORS]);
  watch_focus (self, GTK_WIDGET (self->shape_dropdown));
  for (gsize i = 0; i < G_N_ELEMENTS (shape_spins); i++)
    watch_focus (self, GTK_WIDGET (self->spins[shape_spins[i]]));
  update_rows (self);
}
