/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-window.h"
#include "shepard-window-private.h"

#include <math.h>
#include <string.h>

#include "coordinate-transform.h"
#include "shepard-label-column.h"
#include "shepard-wheel-guard.h"

G_DEFINE_FINAL_TYPE (ShepardWindow, shepard_window, GTK_TYPE_APPLICATION_WINDOW)

ShepardWindow *
shepard_window_new (GtkApplication *application)
{
  return g_object_new (SHEPARD_TYPE_WINDOW, "application", application, NULL);
}

ShepardDocument *
shepard_window_get_document (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return self->document;
}

ShepardSurface *
shepard_window_get_surface (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return shepard_preview_get_surface (self->preview);
}

ShepardPreview *
shepard_window_get_preview (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return self->preview;
}

ShepardInstruments *
shepard_window_get_instruments (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return self->instruments;
}

gboolean
shepard_window_is_busy (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), FALSE);
  return shepard_preview_get_busy (self->preview) || self->load_cancellable != NULL;
}

ShepardMapView *
shepard_window_get_map_view (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return self->map_view;
}

ShepardColorRamp
shepard_window_get_ramp (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), SHEPARD_COLOR_RAMP_VIRIDIS);
  return shepard_display_panel_get_ramp (self->display_panel);
}

void
shepard_window_get_params (ShepardWindow *self, shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  shepard_parameter_panel_get_params (self->parameter_panel, params);
}

void
shepard_window_set_params (ShepardWindow *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  shepard_parameter_panel_set_params (self->parameter_panel, params);
}

/* What the map shows of the layer, at the screen's resolution: the whole extent while all the points are in view. */
static void
request_preview (ShepardWindow *self, const shepard_params *params)
{
  guint long_side = shepard_parameter_panel_get_preview_cells (self->parameter_panel);
  double visible[4], extent[4];

  if (shepard_map_view_get_visible_extent (self->map_view, &visible[0], &visible[1], &visible[2], &visible[3]))
    shepard_preview_extent_for_view (self->preview, visible, shepard_map_view_get_pixel_size (self->map_view),
                                     long_side, extent, &self->preview_cells);
  else
    {
      shepard_document_get_extent (self->document, extent);
      self->preview_cells = long_side;
    }
  memcpy (self->preview_extent, extent, sizeof extent);
  shepard_preview_request_extent (self->preview, params, extent, self->preview_cells);
}

/* Once per frame at most, however many motion events a drag brings: the part in view, unless it is the one asked
 * for already. */
static gboolean
follow_view (gpointer data)
{
  ShepardWindow *self = data;
  guint long_side = shepard_parameter_panel_get_preview_cells (self->parameter_panel);
  double visible[4], extent[4];
  guint cells;
  shepard_params params;

  self->follow_view_source = 0;
  if (self->document == NULL || shepard_document_get_points (self->document)->count == 0
      || shepard_preview_get_invalid_reason (self->preview) != NULL
      || !shepard_map_view_get_visible_extent (self->map_view, &visible[0], &visible[1], &visible[2], &visible[3]))
    return G_SOURCE_REMOVE;
  shepard_preview_extent_for_view (self->preview, visible, shepard_map_view_get_pixel_size (self->map_view),
                                   long_side, extent, &cells);
  if (cells == self->preview_cells && memcmp (extent, self->preview_extent, sizeof extent) == 0)
    return G_SOURCE_REMOVE;
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  request_preview (self, &params);
  return G_SOURCE_REMOVE;
}

static void
on_view_changed (ShepardWindow *self)
{
  /* The map still moves while the window is taken down (its size goes). */
  if (self->follow_view_source == 0 && !self->disposed)
    /* Before the next frame is drawn (GTK draws at G_PRIORITY_HIGH_IDLE + 20), after the events that moved the map. */
    self->follow_view_source = g_idle_add_full (G_PRIORITY_HIGH_IDLE + 10, follow_view, self, NULL);
}

static void
on_parameters_changed (ShepardWindow *self)
{
  shepard_params params;

  if (self->document == NULL)
    return;
  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  /* An empty sandbox has nothing to interpolate yet: its hint says how to start. */
  if (shepard_document_get_points (self->document)->count > 0)
    request_preview (self, &params);
  _shepard_window_instruments_params_changed (self, &params);
}

static void
on_surface_ready (ShepardWindow *self, ShepardSurface *surface, gboolean final, ShepardPreview *preview)
{
  _shepard_window_update_display (self);
  shepard_status_bar_set_surface (self->status_bar, surface);
  if (self->message_from_compute)
    _shepard_window_hide_message (self);
}

void
_shepard_window_recompute (ShepardWindow *self)
{
  on_parameters_changed (self);
}

void
_shepard_window_other_method (ShepardWindow *self, shepard_params *other)
{
  shepard_parameter_panel_get_params (self->parameter_panel, other);
  other->method = other->method == SHEPARD_METHOD_AIDW ? SHEPARD_METHOD_IDW : SHEPARD_METHOD_AIDW;
}

static void
on_preview_failed (ShepardWindow *self, const char *message, ShepardPreview *preview)
{
  g_autofree char *text = g_strdup_printf ("Cannot interpolate: %s", message);

  shepard_window_show_message (self, GTK_MESSAGE_ERROR, text);
  self->message_from_compute = TRUE;
}

/* Parameters the engine refuses keep the last surface on screen, dimmed and marked as out of date; nothing that
 * would use them (Export) is offered until they are valid again. */
static void
update_stale (ShepardWindow *self)
{
  const char *reason = shepard_preview_get_invalid_reason (self->preview);

  gtk_widget_set_opacity (GTK_WIDGET (self->map_view), reason != NULL ? 0.35 : 1.0);
  if (reason != NULL)
    {
      g_autofree char *text = g_strdup_printf ("Out of date: %s", reason);
      gtk_label_set_text (self->stale_label, text);
    }
  gtk_widget_set_visible (GTK_WIDGET (self->stale_label), reason != NULL);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", self->document != NULL && reason == NULL);
}

static void
on_display_changed (ShepardWindow *self)
{
  shepard_map_view_set_hillshade (self->map_view, shepard_display_panel_get_hillshade (self->display_panel));
  shepard_map_view_set_opacity (self->map_view, shepard_display_panel_get_opacity (self->display_panel));
  if (self->document == NULL)
    {
      shepard_map_view_set_ramp (self->map_view, shepard_window_get_ramp (self));
      shepard_legend_set_ramp (self->legend, shepard_window_get_ramp (self));
      return;
    }
  _shepard_window_update_display (self);
}

static void
update_engine_line (ShepardWindow *self)
{
  const char *interop_failure = NULL;
  gboolean interop = shepard_map_view_get_interop (self->map_view, &interop_failure);

  if (self->document == NULL)
    return;
  shepard_status_bar_set_engine (self->status_bar, shepard_document_get_engine_name (self->document),
                                 shepard_document_get_engine_fallback_reason (self->document),
                                 shepard_document_get_cuda_device (self->document) >= 0, interop, interop_failure);
}

/* The status bar reads positions in the layer's CRS and as latitude and longitude; the scale bar measures in its
 * unit. Returns the metres in the unit (0: degrees; -1: unknown). */
static double
show_coordinates (ShepardWindow *self, const char *crs_wkt)
{
  g_autoptr (ShepardCoordinateTransform) crs = crs_wkt != NULL ? shepard_coordinate_transform_new (crs_wkt, NULL)
                                                                : NULL;
  double metres_per_unit = crs != NULL ? shepard_coordinate_transform_get_metres_per_unit (crs) : -1;

  shepard_status_bar_set_crs (self->status_bar, crs_wkt);
  shepard_scale_bar_set_metres_per_unit (self->scale_bar, metres_per_unit);
  gtk_widget_set_visible (GTK_WIDGET (self->scale_bar), TRUE);
  return metres_per_unit;
}

void
_shepard_window_show_document (ShepardWindow *self)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  g_autofree char *basename = g_path_get_basename (points->source);
  g_autofree char *title = g_strdup_printf ("%s — %s", basename, points->field_name);
  double x_min, y_min, x_max, y_max;

  gtk_window_set_title (GTK_WINDOW (self), title);
  shepard_layer_panel_show (self->layer_panel, self->document);
  shepard_status_bar_clear_surface (self->status_bar);
  shepard_preview_set_document (self->preview, self->document);
  /* Whether interop works is known once the view has tried it on this device; the preview follows "interop". */
  shepard_map_view_set_cuda_device (self->map_view, shepard_document_get_cuda_device (self->document));
  update_engine_line (self);

  shepard_document_get_bounds (self->document, &x_min, &y_min, &x_max, &y_max);
  shepard_map_view_clear (self->map_view);
  shepard_map_view_set_points (self->map_view, points->x, points->y, points->z, points->count, x_min, y_min, x_max,
                               y_max);
  double metres_per_unit = show_coordinates (self, points->crs_wkt);
  gtk_widget_set_visible (GTK_WIDGET (self->legend), TRUE);
  gtk_widget_set_sensitive (self->side_panel, TRUE);
  gtk_widget_set_sensitive (self->instruments_box, TRUE);
  gtk_stack_set_visible_child_name (self->view_stack, "map");
  if (self->settings != NULL && !shepard_document_is_sandbox (self->document))
    g_settings_set_string (self->settings, "last-field", points->field_name);
  _shepard_window_instruments_show_document (self);
  _shepard_window_mask_show_document (self);
  _shepard_window_sandbox_show_document (self);
  _shepard_window_context_show_document (self);
  _shepard_window_neighbourhood_show_document (self, metres_per_unit);
  _shepard_window_update_display (self);
  update_stale (self);
  on_parameters_changed (self);
  _shepard_window_gpus_show_document (self);
}

void
_shepard_window_show_engine (ShepardWindow *self)
{
  shepard_map_view_set_cuda_device (self->map_view, shepard_document_get_cuda_device (self->document));
  update_engine_line (self);
  /* The rates measured on the engine before are not this one's. */
  shepard_preview_set_document (self->preview, self->document);
  on_parameters_changed (self);
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_load_finish (result, &error);

  if (document == NULL && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->load_cancellable);
  if (document == NULL)
    /* The layer already open stays open: nothing is lost. */
    shepard_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
  else
    {
      _shepard_window_hide_message (self);
      g_set_object (&self->document, document);
      g_free (self->path);
      self->path = g_strdup (shepard_document_get_points (document)->source);
      _shepard_window_show_document (self);
    }
  _shepard_window_update_busy (self);
  g_object_unref (self);
}

static void
load (ShepardWindow *self, const char *path, const char *field)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  g_autofree char *gpus = _shepard_window_gpus_choice (self);
  shepard_document_load_on_gpus_async (path, field, gpus, self->load_cancellable, on_load_done,
                                       g_object_ref (self));
  _shepard_window_update_busy (self);
}

void
shepard_window_open (ShepardWindow *self, GFile *file, const char *field)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  g_return_if_fail (G_IS_FILE (file));

  g_autofree char *path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *text = g_strdup_printf ("Cannot open “%s”: only local files can be read. Copy it to this "
                                               "computer first.",
                                               uri);
      shepard_window_show_message (self, GTK_MESSAGE_ERROR, text);
      return;
    }
  g_autofree char *remembered = self->settings != NULL ? g_settings_get_string (self->settings, "last-field") : NULL;
  load (self, path, field != NULL ? field : (remembered != NULL && remembered[0] != '\0' ? remembered : NULL));
}

static void
on_field_chosen (ShepardWindow *self, const char *field)
{
  if (self->path != NULL)
    load (self, self->path, field);
}

static void
on_cursor_moved (ShepardWindow *self, double x, double y, ShepardMapView *view)
{
  if (self->document != NULL)
    shepard_status_bar_set_pointer (self->status_bar, x, y, shepard_preview_get_surface (self->preview),
                                    shepard_document_get_points (self->document)->field_name);
}

static void
on_cursor_left (ShepardWindow *self, ShepardMapView *view)
{
  shepard_status_bar_clear_pointer (self->status_bar);
}

/* GtkPaned would start the map at its natural width (a few pixels) and give the instruments the rest: the
 * instruments keep the width they need and the map takes everything else, until the user drags the handle (a move
 * of the handle while the paned keeps its size). */
#define INSTRUMENTS_WIDTH 400

static int
max_position_of (GtkPaned *paned)
{
  int max_position;

  g_object_get (paned, "max-position", &max_position, NULL);
  return max_position;
}

static void
on_map_paned_max_position (ShepardWindow *self, GParamSpec *pspec, GtkPaned *paned)
{
  int max_position = max_position_of (paned);

  /* max-position already leaves the instruments their minimum width: the position comes from the whole width. */
  int width = gtk_widget_get_width (GTK_WIDGET (paned));

  self->instruments_paned_max = max_position;
  if (!self->instruments_managed || width <= 2 * INSTRUMENTS_WIDTH)
    return;
  self->placing_instruments = TRUE;
  gtk_paned_set_position (paned, MIN (width - INSTRUMENTS_WIDTH, max_position));
  self->placing_instruments = FALSE;
}

static void
on_map_paned_position (ShepardWindow *self, GParamSpec *pspec, GtkPaned *paned)
{
  if (!self->placing_instruments && max_position_of (paned) == self->instruments_paned_max
      && gtk_widget_get_width (GTK_WIDGET (paned)) > 2 * INSTRUMENTS_WIDTH)
    self->instruments_managed = FALSE;
}

static gboolean
shepard_window_close_request (GtkWindow *window)
{
  ShepardWindow *self = SHEPARD_WINDOW (window);

  if (self->settings != NULL)
    {
      int width, height;
      gtk_window_get_default_size (window, &width, &height);
      g_settings_set (self->settings, "window-size", "(ii)", width, height);
      g_settings_set_boolean (self->settings, "window-maximized", gtk_window_is_maximized (window));
    }
  return GTK_WINDOW_CLASS (shepard_window_parent_class)->close_request (window);
}

static void
shepard_window_dispose (GObject *object)
{
  ShepardWindow *self = SHEPARD_WINDOW (object);

  self->disposed = TRUE;
  _shepard_window_instruments_dispose (self);
  _shepard_window_sandbox_dispose (self);
  _shepard_window_gpus_dispose (self);
  if (self->preview != NULL)
    shepard_preview_cancel (self->preview);
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  _shepard_window_busy_dispose (self);
  g_clear_handle_id (&self->follow_view_source, g_source_remove);
  /* GtkWindow takes its child and titlebar down itself; the template's widgets need no unparenting here. */
  G_OBJECT_CLASS (shepard_window_parent_class)->dispose (object);
}

static void
shepard_window_finalize (GObject *object)
{
  ShepardWindow *self = SHEPARD_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->instruments);
  g_clear_object (&self->preview);
  g_clear_object (&self->document);
  g_clear_object (&self->load_cancellable);
  g_clear_pointer (&self->context_layers, g_ptr_array_unref);
  g_free (self->path);
  G_OBJECT_CLASS (shepard_window_parent_class)->finalize (object);
}

static void
shepard_window_class_init (ShepardWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = shepard_window_dispose;
  object_class->finalize = shepard_window_finalize;
  GTK_WINDOW_CLASS (klass)->close_request = shepard_window_close_request;

  g_type_ensure (SHEPARD_TYPE_MAP_VIEW);
  g_type_ensure (SHEPARD_TYPE_PARAMETER_PANEL);
  g_type_ensure (SHEPARD_TYPE_LEGEND);
  g_type_ensure (SHEPARD_TYPE_DISPLAY_PANEL);
  g_type_ensure (SHEPARD_TYPE_SCALE_BAR);
  g_type_ensure (SHEPARD_TYPE_LAYER_PANEL);
  g_type_ensure (SHEPARD_TYPE_STATUS_BAR);
  g_type_ensure (SHEPARD_TYPE_MAP_OVERLAY);
  g_type_ensure (SHEPARD_TYPE_SEARCH_SHAPE_OVERLAY);
  g_type_ensure (SHEPARD_TYPE_CV_PANEL);
  g_type_ensure (SHEPARD_TYPE_EXPLAIN_PANEL);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, ShepardWindow, name)
  BIND (info_bar);
  BIND (info_label);
  BIND (side_scroller);
  BIND (side_panel);
  BIND (layer_panel);
  BIND (parameter_panel);
  BIND (display_panel);
  BIND (scale_bar);
  BIND (view_stack);
  BIND (map_view);
  BIND (map_overlay);
  BIND (search_shape_overlay);
  BIND (legend);
  BIND (stale_label);
  BIND (map_note_label);
  BIND (sandbox_hint_label);
  BIND (busy_spinner);
  BIND (busy_still);
  BIND (status_bar);
  BIND (map_paned);
  BIND (instruments_box);
  BIND (instrument_stack);
  BIND (cv_panel);
  BIND (explain_panel);
#undef BIND
  gtk_widget_class_bind_template_callback (widget_class, on_parameters_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_display_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_field_chosen);
  gtk_widget_class_bind_template_callback (widget_class, on_cursor_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_cursor_left);

  _shepard_window_class_actions_init (klass);
  _shepard_window_class_message_init (klass);
  _shepard_window_class_instruments_init (klass);
  _shepard_window_class_sandbox_init (klass);
  _shepard_window_class_context_init (klass);
  _shepard_window_class_gpus_init (klass);
}

static void
bind_settings (ShepardWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = NULL;
  int width, height;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, SHEPARD_APPLICATION_ID, TRUE);
  /* Run from the build tree without the schema installed, the app still works; it only forgets. */
  if (schema == NULL)
    return;
  self->settings = g_settings_new_full (schema, NULL, NULL);
  g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));
  shepard_parameter_panel_bind_settings (self->parameter_panel, self->settings);
  shepard_display_panel_bind_settings (self->display_panel, self->settings);
}

static void
shepard_window_init (ShepardWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  _shepard_window_actions_init (self);
  _shepard_window_busy_init (self);
  shepard_wheel_guard_attach (self->side_scroller);
  g_autoptr (GtkSizeGroup) labels = gtk_size_group_new (GTK_SIZE_GROUP_HORIZONTAL);
  shepard_layer_panel_align_labels (self->layer_panel, labels);
  shepard_parameter_panel_align_labels (self->parameter_panel, labels);
  shepard_display_panel_align_labels (self->display_panel, labels);
  shepard_scale_bar_set_map_view (self->scale_bar, self->map_view);

  /* The preview follows the panel; whether its surfaces stay on the GPU follows what the map view can draw. */
  self->preview = shepard_preview_new ();
  g_signal_connect_object (self->preview, "surface-ready", G_CALLBACK (on_surface_ready), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->preview, "failed", G_CALLBACK (on_preview_failed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->preview, "notify::busy", G_CALLBACK (_shepard_window_update_busy), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->preview, "notify::invalid-reason", G_CALLBACK (update_stale), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_view, "view-changed", G_CALLBACK (on_view_changed), self, G_CONNECT_SWAPPED);
  _shepard_window_message_init (self);
  g_object_bind_property (self->map_view, "interop", self->preview, "display-interop", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (self->map_view, "notify::interop", G_CALLBACK (update_engine_line), self,
                           G_CONNECT_SWAPPED);
  self->selected_point = -1;
  self->instruments_managed = TRUE;
  g_signal_connect_object (self->map_paned, "notify::max-position", G_CALLBACK (on_map_paned_max_position), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (self->map_paned, "notify::position", G_CALLBACK (on_map_paned_position), self,
                           G_CONNECT_SWAPPED);
  shepard_map_overlay_set_map_view (self->map_overlay, self->map_view);
  _shepard_window_instruments_init (self);
  _shepard_window_sandbox_init (self);
  _shepard_window_context_init (self);
  _shepard_window_neighbourhood_init (self);
  _shepard_window_mask_init (self);

  bind_settings (self);
  _shepard_window_gpus_init (self);
  on_display_changed (self);
  update_stale (self);
}
