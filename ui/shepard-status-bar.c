/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-status-bar.h"

#include <math.h>
#include <string.h>

#include "coordinate-transform.h"
#include "shepard-summation-section.h"

struct _ShepardStatusBar
{
  GtkWidget parent_instance;

  /* Template widgets */
  GtkWidget *box; /* the one child, bound so that gtk_widget_dispose_template unparents it */
  GtkLabel *backend_label, *time_label, *cursor_label;

  /* Owned */
  ShepardCoordinateTransform *coordinates; /* NULL without a CRS or one OGR cannot take to WGS 84 */
  char *engine;    /* the engine line without the summation; NULL before set_engine */
  char *summation; /* how the latest surface was summed, "far field (1e-6)"; NULL: no surface, or not summed */
};

G_DEFINE_FINAL_TYPE (ShepardStatusBar, shepard_status_bar, GTK_TYPE_WIDGET)

GtkWidget *
shepard_status_bar_new (void)
{
  return g_object_new (SHEPARD_TYPE_STATUS_BAR, NULL);
}

static void
update_engine_line (ShepardStatusBar *self)
{
  g_autofree char *text = self->summation != NULL ? g_strdup_printf ("%s · %s", self->engine, self->summation)
                                                  : g_strdup (self->engine);

  gtk_label_set_text (self->backend_label, text);
}

void
shepard_status_bar_set_engine (ShepardStatusBar *self, const char *engine, const char *fallback_reason,
                               gboolean on_gpu, gboolean interop, const char *interop_failure)
{
  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));
  g_return_if_fail (engine != NULL);

  g_autoptr (GString) tooltip = g_string_new (NULL);
  g_autofree char *text = on_gpu ? g_strdup_printf ("Engine: %s · preview %s", engine,
                                                    interop ? "through CUDA–OpenGL interop"
                                                            : "copied through host memory")
                                 : g_strdup_printf ("Engine: %s", engine);

  if (fallback_reason != NULL)
    g_string_append_printf (tooltip, "The engine runs on the CPU: %s", fallback_reason);
  if (interop_failure != NULL)
    g_string_append_printf (tooltip, "%sCUDA–OpenGL interop is off: %s", tooltip->len > 0 ? "\n" : "",
                            interop_failure);
  g_free (self->engine);
  self->engine = g_steal_pointer (&text);
  update_engine_line (self);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->backend_label), tooltip->len > 0 ? tooltip->str : NULL);
}

void
shepard_status_bar_set_surface (ShepardStatusBar *self, const ShepardSurface *surface)
{
  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));
  g_return_if_fail (surface != NULL);

  g_autofree char *text = g_strdup_printf ("%zu × %zu cells in %.*f ms", surface->grid.width, surface->grid.height,
                                           surface->seconds < 0.01 ? 1 : 0, surface->seconds * 1000.0);
  gtk_label_set_text (self->time_label, text);

  g_clear_pointer (&self->summation, g_free);
  if (surface->summation == SHEPARD_SUMMATION_FAR_FIELD)
    {
      g_autofree char *tolerance = shepard_summation_format_tolerance (surface->params.tolerance);
      self->summation = g_strdup_printf ("far field (%s)", tolerance);
    }
  else if (surface->summation == SHEPARD_SUMMATION_EXACT)
    self->summation = g_strdup ("exact");
  if (self->engine != NULL)
    update_engine_line (self);
}

void
shepard_status_bar_clear_surface (ShepardStatusBar *self)
{
  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));
  gtk_label_set_text (self->time_label, "");
  g_clear_pointer (&self->summation, g_free);
  if (self->engine != NULL)
    update_engine_line (self);
}

void
shepard_status_bar_set_crs (ShepardStatusBar *self, const char *crs_wkt)
{
  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));

  g_clear_pointer (&self->coordinates, shepard_coordinate_transform_free);
  /* A layer without a CRS, or with one PROJ cannot place, still shows its own coordinates. */
  if (crs_wkt != NULL)
    self->coordinates = shepard_coordinate_transform_new (crs_wkt, NULL);
}

/* 179800.4 as "179 800" (thin spaces between thousands, as SI writes them). */
static char *
format_grouped (double value, int decimals)
{
  g_autofree char *plain = g_strdup_printf ("%.*f", decimals, fabs (value));
  const char *point = strchr (plain, '.');
  size_t digits = point != NULL ? (size_t) (point - plain) : strlen (plain);
  GString *text = g_string_new (value < 0 && strspn (plain, "0.") != strlen (plain) ? "−" : "");

  for (size_t i = 0; i < digits; i++)
    {
      if (i > 0 && (digits - i) % 3 == 0)
        g_string_append (text, "\u2009");
      g_string_append_c (text, plain[i]);
    }
  if (point != NULL)
    g_string_append (text, point);
  return g_string_free (text, FALSE);
}

char *
shepard_status_bar_format_position (ShepardStatusBar *self, double x, double y)
{
  g_return_val_if_fail (SHEPARD_IS_STATUS_BAR (self), NULL);

  if (self->coordinates == NULL)
    {
      g_autofree char *x_text = format_grouped (x, 2), *y_text = format_grouped (y, 2);
      return g_strdup_printf ("%s, %s", x_text, y_text);
    }
  gboolean geographic = shepard_coordinate_transform_is_geographic (self->coordinates);
  /* Whole metres (or feet) are finer than a pointer can aim at this zoom; degrees need five decimals for a metre. */
  int decimals = geographic ? 5 : 0;
  g_autofree char *x_text = format_grouped (x, decimals), *y_text = format_grouped (y, decimals);
  g_autofree char *position = g_strdup_printf ("%s, %s (%s)", x_text, y_text,
                                               shepard_coordinate_transform_get_crs_name (self->coordinates));
  double latitude, longitude;
  if (geographic
      || !shepard_coordinate_transform_to_lat_lon (self->coordinates, x, y, &latitude, &longitude))
    return g_steal_pointer (&position);
  g_autofree char *lat_lon = shepard_coordinate_transform_format_lat_lon (latitude, longitude, 5);
  return g_strdup_printf ("%s · %s", position, lat_lon);
}

void
shepard_status_bar_set_pointer (ShepardStatusBar *self, double x, double y, const ShepardSurface *surface,
                                const char *field)
{
  double value, alpha;
  g_autofree char *text = NULL;

  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));

  g_autofree char *position = shepard_status_bar_format_position (self, x, y);
  if (surface != NULL && shepard_surface_lookup (surface, x, y, &value, &alpha))
    /* No data: too few points in the neighbourhood, or masked. */
    text = isfinite (value) ? g_strdup_printf ("%s   %s %.4g   α %.3f", position, field, value, alpha)
                            : g_strdup_printf ("%s   %s no data", position, field);
  else
    text = g_strdup (position);
  gtk_label_set_text (self->cursor_label, text);
}

void
shepard_status_bar_clear_pointer (ShepardStatusBar *self)
{
  g_return_if_fail (SHEPARD_IS_STATUS_BAR (self));
  gtk_label_set_text (self->cursor_label, "");
}

static void
shepard_status_bar_finalize (GObject *object)
{
  ShepardStatusBar *self = SHEPARD_STATUS_BAR (object);

  g_free (self->engine);
  g_free (self->summation);
  G_OBJECT_CLASS (shepard_status_bar_parent_class)->finalize (object);
}

static void
shepard_status_bar_dispose (GObject *object)
{
  g_clear_pointer (&SHEPARD_STATUS_BAR (object)->coordinates, shepard_coordinate_transform_free);
  gtk_widget_dispose_template (GTK_WIDGET (object), SHEPARD_TYPE_STATUS_BAR);
  G_OBJECT_CLASS (shepard_status_bar_parent_class)->dispose (object);
}

static void
shepard_status_bar_class_init (ShepardStatusBarClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  G_OBJECT_CLASS (klass)->dispose = shepard_status_bar_dispose;
  G_OBJECT_CLASS (klass)->finalize = shepard_status_bar_finalize;
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-status-bar.ui");
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_bind_template_child (widget_class, ShepardStatusBar, box);
  gtk_widget_class_bind_template_child (widget_class, ShepardStatusBar, backend_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardStatusBar, time_label);
  gtk_widget_class_bind_template_child (widget_class, ShepardStatusBar, cursor_label);
}

static void
shepard_status_bar_init (ShepardStatusBar *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
