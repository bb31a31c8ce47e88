/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-window.h"

#include <math.h>

#include "shepard-export-dialog.h"

#define APPLICATION_ID "io.github.shepard.Shepard"
/* The first answer to a change comes from a grid this many times coarser, the full one once the hand stops; unless
 * the full grid took at most FAST_FULL_SECONDS last time, when it comes straight away (a coarse frame would only
 * flicker). */
#define COARSE_DIVISOR 4
#define REFINE_DELAY_MS 150
#define FAST_FULL_SECONDS 0.03
#define EXTENT_MARGIN 0.05

struct _ShepardWindow
{
  GtkApplicationWindow parent_instance;

  /* Template widgets */
  GtkInfoBar *info_bar;
  GtkLabel *info_label;
  GtkWidget *panel;
  GtkLabel *file_label, *layer_label, *count_label, *skipped_label, *crs_label;
  GtkDropDown *field_dropdown, *method_dropdown, *area_dropdown, *neighbors_dropdown, *ramp_dropdown;
  GtkSpinButton *power_spin, *k_spin, *rmin_spin, *rmax_spin, *area_spin, *neighbors_spin, *resolution_spin;
  GtkRange *alpha_scales[SHEPARD_AIDW_LEVELS];
  GtkDrawingArea *alpha_plot, *legend;
  GtkSwitch *hillshade_switch;
  GtkStack *view_stack;
  ShepardMapView *map_view;
  GtkSpinner *busy_spinner;
  GtkLabel *backend_label, *time_label, *cursor_label;

  /* Owned */
  GSettings *settings;
  ShepardDocument *document;
  char *path;
  ShepardSurface *surface;
  GCancellable *load_cancellable;
  GCancellable *compute_cancellable;
  guint generation;
  size_t shown_cells;
  guint refine_source;
  guint computes_in_flight;
  /* Seconds the last full-resolution grid took, for over the N nearest [0] and over all points [1]; < 0: unknown. */
  double full_seconds[2];
  gboolean message_from_compute;
  gboolean updating_panel;
};

G_DEFINE_FINAL_TYPE (ShepardWindow, shepard_window, GTK_TYPE_APPLICATION_WINDOW)

typedef struct {
  ShepardWindow *window;
  guint generation;
  gboolean full;
} ComputeRequest;

static void request_compute (ShepardWindow *self);

ShepardWindow *
shepard_window_new (GtkApplication *application)
{
  return g_object_new (SHEPARD_TYPE_WINDOW, "application", application, NULL);
}

void
shepard_window_show_message (ShepardWindow *self, GtkMessageType type, const char *message)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  g_return_if_fail (message != NULL);

  gtk_info_bar_set_message_type (self->info_bar, type);
  gtk_label_set_text (self->info_label, message);
  gtk_info_bar_set_revealed (self->info_bar, TRUE);
  self->message_from_compute = FALSE;
}

const char *
shepard_window_get_message (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), NULL);
  return gtk_info_bar_get_revealed (self->info_bar) ? gtk_label_get_text (self->info_label) : NULL;
}

static void
hide_message (ShepardWindow *self)
{
  gtk_info_bar_set_revealed (self->info_bar, FALSE);
  self->message_from_compute = FALSE;
}

static void
on_info_bar_response (ShepardWindow *self, int response, GtkInfoBar *info_bar)
{
  hide_message (self);
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
  return self->surface;
}

gboolean
shepard_window_is_busy (ShepardWindow *self)
{
  g_return_val_if_fail (SHEPARD_IS_WINDOW (self), FALSE);
  return self->computes_in_flight > 0 || self->refine_source != 0 || self->load_cancellable != NULL;
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
  return (ShepardColorRamp) gtk_drop_down_get_selected (self->ramp_dropdown);
}

void
shepard_window_get_params (ShepardWindow *self, shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));

  if (gtk_drop_down_get_selected (self->method_dropdown) == 1)
    shepard_params_init_aidw (params);
  else
    shepard_params_init_idw (params);
  params->power = gtk_spin_button_get_value (self->power_spin);
  params->k = gtk_spin_button_get_value_as_int (self->k_spin);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    params->alpha[i] = gtk_range_get_value (self->alpha_scales[i]);
  params->r_min = gtk_spin_button_get_value (self->rmin_spin);
  params->r_max = gtk_spin_button_get_value (self->rmax_spin);
  switch (gtk_drop_down_get_selected (self->area_dropdown))
    {
    case 1:
      params->area_mode = SHEPARD_AREA_CONVEX_HULL;
      break;
    case 2:
      params->area_mode = SHEPARD_AREA_GIVEN;
      break;
    default:
      params->area_mode = SHEPARD_AREA_BOUNDING_BOX;
      break;
    }
  params->area = gtk_spin_button_get_value (self->area_spin);
  params->neighbors = gtk_drop_down_get_selected (self->neighbors_dropdown) == 1
                        ? gtk_spin_button_get_value_as_int (self->neighbors_spin)
                        : SHEPARD_NEIGHBORS_ALL;
}

void
shepard_window_set_params (ShepardWindow *self, const shepard_params *params)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  g_return_if_fail (params != NULL);

  /* One recomputation for the whole set, not one per widget. */
  self->updating_panel = TRUE;
  gtk_drop_down_set_selected (self->method_dropdown, params->method == SHEPARD_METHOD_AIDW ? 1 : 0);
  gtk_spin_button_set_value (self->power_spin, params->power);
  gtk_spin_button_set_value (self->k_spin, params->k);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    gtk_range_set_value (self->alpha_scales[i], params->alpha[i]);
  gtk_spin_button_set_value (self->rmin_spin, params->r_min);
  gtk_spin_button_set_value (self->rmax_spin, params->r_max);
  gtk_drop_down_set_selected (self->area_dropdown, params->area_mode == SHEPARD_AREA_CONVEX_HULL ? 1
                                                   : params->area_mode == SHEPARD_AREA_GIVEN   ? 2
                                                                                               : 0);
  if (params->area_mode == SHEPARD_AREA_GIVEN)
    gtk_spin_button_set_value (self->area_spin, params->area);
  gtk_drop_down_set_selected (self->neighbors_dropdown, params->neighbors == SHEPARD_NEIGHBORS_ALL ? 0 : 1);
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
    gtk_spin_button_set_value (self->neighbors_spin, params->neighbors);
  self->updating_panel = FALSE;
  request_compute (self);
}

void
shepard_window_get_extent (ShepardWindow *self, double *x_min, double *y_min, double *x_max, double *y_max)
{
  g_return_if_fail (SHEPARD_IS_WINDOW (self));
  g_return_if_fail (self->document != NULL);

  double x0, y0, x1, y1;
  shepard_document_get_bounds (self->document, &x0, &y0, &x1, &y1);
  /* One point, or points on a line, still get an area to draw. */
  double side = MAX (MAX (x1 - x0, y1 - y0), 1.0);
  double margin = side * EXTENT_MARGIN;
  *x_min = x0 - margin;
  *x_max = x1 + margin;
  *y_min = y0 - margin;
  *y_max = y1 + margin;
}

static void
preview_grid (ShepardWindow *self, size_t long_side, shepard_grid *grid)
{
  double x_min, y_min, x_max, y_max;

  shepard_window_get_extent (self, &x_min, &y_min, &x_max, &y_max);
  double width = x_max - x_min, height = y_max - y_min;
  double cell = MAX (width, height) / (double) long_side;
  grid->x_min = x_min;
  grid->y_max = y_max;
  grid->dx = cell;
  grid->dy = cell;
  grid->width = MAX ((size_t) ceil (width / cell - 1e-9), 1);
  grid->height = MAX ((size_t) ceil (height / cell - 1e-9), 1);
}

static void
update_busy (ShepardWindow *self)
{
  gboolean busy = shepard_window_is_busy (self);

  gtk_spinner_set_spinning (self->busy_spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), busy);
}

static void
on_compute_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ComputeRequest *request = user_data;
  ShepardWindow *self = request->window;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardSurface) surface = shepard_document_interpolate_finish (SHEPARD_DOCUMENT (source), result,
                                                                            &error);
  gboolean current = request->generation == self->generation && SHEPARD_DOCUMENT (source) == self->document;

  self->computes_in_flight--;
  update_busy (self);
  if (surface == NULL)
    {
      if (current && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_autofree char *text = g_strdup_printf ("Cannot interpolate: %s", error->message);
          shepard_window_show_message (self, GTK_MESSAGE_ERROR, text);
          self->message_from_compute = TRUE;
        }
    }
  else if (current && surface->grid.width * surface->grid.height >= self->shown_cells)
    {
      self->shown_cells = surface->grid.width * surface->grid.height;
      g_clear_pointer (&self->surface, shepard_surface_unref);
      self->surface = shepard_surface_ref (surface);
      shepard_map_view_set_surface (self->map_view, surface);
      if (request->full)
        self->full_seconds[surface->params.neighbors == SHEPARD_NEIGHBORS_ALL] = surface->seconds;
      g_autofree char *time = g_strdup_printf ("%zu × %zu cells in %.*f ms", surface->grid.width,
                                               surface->grid.height, surface->seconds < 0.01 ? 1 : 0,
                                               surface->seconds * 1000.0);
      gtk_label_set_text (self->time_label, time);
      if (self->message_from_compute)
        hide_message (self);
    }
  g_object_unref (self);
  g_free (request);
}

static void
start_compute (ShepardWindow *self, gboolean full)
{
  shepard_params params;
  shepard_grid grid;
  size_t cells = (size_t) gtk_spin_button_get_value_as_int (self->resolution_spin);

  if (!full)
    cells = MAX (cells / COARSE_DIVISOR, 32);
  shepard_window_get_params (self, &params);
  preview_grid (self, cells, &grid);

  ComputeRequest *request = g_new0 (ComputeRequest, 1);
  request->window = g_object_ref (self);
  request->generation = self->generation;
  request->full = full;
  self->computes_in_flight++;
  shepard_document_interpolate_async (self->document, &params, &grid, self->compute_cancellable, on_compute_done,
                                      request);
  update_busy (self);
}

static gboolean
refine (gpointer data)
{
  ShepardWindow *self = data;

  self->refine_source = 0;
  start_compute (self, TRUE);
  return G_SOURCE_REMOVE;
}

static void
update_sensitivity (ShepardWindow *self)
{
  gboolean aidw = gtk_drop_down_get_selected (self->method_dropdown) == 1;

  gtk_widget_set_sensitive (GTK_WIDGET (self->power_spin), !aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->k_spin), aidw);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    gtk_widget_set_sensitive (GTK_WIDGET (self->alpha_scales[i]), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->alpha_plot), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rmin_spin), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->rmax_spin), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->area_dropdown), aidw);
  gtk_widget_set_sensitive (GTK_WIDGET (self->area_spin),
                            aidw && gtk_drop_down_get_selected (self->area_dropdown) == 2);
  gtk_widget_set_sensitive (GTK_WIDGET (self->neighbors_spin),
                            gtk_drop_down_get_selected (self->neighbors_dropdown) == 1);
}

static void
request_compute (ShepardWindow *self)
{
  update_sensitivity (self);
  gtk_widget_queue_draw (GTK_WIDGET (self->alpha_plot));
  if (self->document == NULL || self->updating_panel)
    return;

  g_cancellable_cancel (self->compute_cancellable);
  g_clear_object (&self->compute_cancellable);
  self->compute_cancellable = g_cancellable_new ();
  self->generation++;
  self->shown_cells = 0;
  g_clear_handle_id (&self->refine_source, g_source_remove);
  shepard_params params;
  shepard_window_get_params (self, &params);
  double full_seconds = self->full_seconds[params.neighbors == SHEPARD_NEIGHBORS_ALL];
  if (full_seconds >= 0 && full_seconds <= FAST_FULL_SECONDS)
    start_compute (self, TRUE);
  else
    {
      start_compute (self, FALSE);
      self->refine_source = g_timeout_add (REFINE_DELAY_MS, refine, self);
    }
  update_busy (self);
}

static void
on_parameter_changed (ShepardWindow *self)
{
  request_compute (self);
}

static void
on_display_changed (ShepardWindow *self)
{
  shepard_map_view_set_ramp (self->map_view, shepard_window_get_ramp (self));
  shepard_map_view_set_hillshade (self->map_view, gtk_switch_get_active (self->hillshade_switch));
  gtk_widget_queue_draw (GTK_WIDGET (self->legend));
}

/* The engine, and how its grids reach the screen. */
static void
update_backend_label (ShepardWindow *self)
{
  const char *failure = NULL;
  gboolean interop = shepard_map_view_get_interop (self->map_view, &failure);
  g_autofree char *text = NULL;

  if (self->document == NULL)
    return;
  if (shepard_document_get_cuda_device (self->document) < 0)
    text = g_strdup_printf ("Engine: %s", shepard_document_get_backend (self->document));
  else
    text = g_strdup_printf ("Engine: %s · preview %s", shepard_document_get_backend (self->document),
                            interop ? "through CUDA–OpenGL interop" : "copied through host memory");
  gtk_label_set_text (self->backend_label, text);
  if (failure != NULL)
    {
      g_autofree char *tooltip = g_strdup_printf ("CUDA–OpenGL interop is off: %s", failure);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->backend_label), tooltip);
    }
  else
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->backend_label), NULL);
}

static void
on_interop_changed (ShepardWindow *self, ShepardMapView *view)
{
  if (self->document == NULL)
    return;
  gboolean interop = shepard_map_view_get_interop (view, NULL)
                     && shepard_document_get_cuda_device (self->document) >= 0;
  shepard_document_set_keep_on_gpu (self->document, interop);
  update_backend_label (self);
}

static void
show_document (ShepardWindow *self)
{
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  g_autofree char *basename = g_path_get_basename (points->source);
  g_autofree char *count = g_strdup_printf ("%zu", points->count);
  g_autofree char *skipped = shepard_point_layer_describe_skipped (points);
  double x_min, y_min, x_max, y_max;

  gtk_label_set_text (self->file_label, basename);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->file_label), points->source);
  gtk_label_set_text (self->layer_label, points->layer_name);
  gtk_label_set_text (self->count_label, count);
  gtk_label_set_text (self->skipped_label, skipped != NULL ? skipped : "none");
  gtk_label_set_text (self->crs_label, shepard_document_get_crs_name (self->document));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->crs_label), shepard_document_get_crs_name (self->document));

  self->updating_panel = TRUE;
  const char *const *fields = shepard_document_get_numeric_fields (self->document);
  g_autoptr (GtkStringList) model = gtk_string_list_new (fields);
  gtk_drop_down_set_model (self->field_dropdown, G_LIST_MODEL (model));
  for (guint i = 0; fields[i] != NULL; i++)
    if (g_strcmp0 (fields[i], points->field_name) == 0)
      gtk_drop_down_set_selected (self->field_dropdown, i);
  self->updating_panel = FALSE;

  gtk_label_set_text (self->time_label, "");
  self->full_seconds[0] = self->full_seconds[1] = -1.0;
  /* Updates the engine line and where the grids are kept (on_interop_changed). */
  shepard_map_view_set_cuda_device (self->map_view, shepard_document_get_cuda_device (self->document));
  update_backend_label (self);
  g_autofree char *title = g_strdup_printf ("%s — %s", basename, points->field_name);
  gtk_window_set_title (GTK_WINDOW (self), title);

  shepard_document_get_bounds (self->document, &x_min, &y_min, &x_max, &y_max);
  shepard_map_view_clear (self->map_view);
  shepard_map_view_set_points (self->map_view, points->x, points->y, points->z, points->count, x_min, y_min, x_max,
                               y_max);
  shepard_map_view_set_range (self->map_view, shepard_document_get_value_min (self->document),
                              shepard_document_get_value_max (self->document));
  gtk_widget_set_visible (GTK_WIDGET (self->legend), TRUE);
  gtk_widget_queue_draw (GTK_WIDGET (self->legend));
  gtk_widget_set_sensitive (self->panel, TRUE);
  gtk_stack_set_visible_child_name (self->view_stack, "map");
  g_clear_pointer (&self->surface, shepard_surface_unref);
  if (self->settings != NULL)
    g_settings_set_string (self->settings, "last-field", points->field_name);
  request_compute (self);
}

static void
on_load_done (GObject *source, GAsyncResult *result, gpointer user_data)
{
  ShepardWindow *self = user_data;
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardDocument) document = shepard_document_load_finish (result, &error);

  if (document == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_clear_object (&self->load_cancellable);
          /* The layer already open stays open: nothing is lost. */
          shepard_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
        }
      update_busy (self);
      g_object_unref (self);
      return;
    }
  g_clear_object (&self->load_cancellable);
  hide_message (self);
  g_set_object (&self->document, document);
  g_free (self->path);
  self->path = g_strdup (shepard_document_get_points (document)->source);
  show_document (self);
  update_busy (self);
  g_object_unref (self);
}

static void
load (ShepardWindow *self, const char *path, const char *field)
{
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_object (&self->load_cancellable);
  self->load_cancellable = g_cancellable_new ();
  shepard_document_load_async (path, field, self->load_cancellable, on_load_done, g_object_ref (self));
  update_busy (self);
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
on_field_changed (ShepardWindow *self)
{
  GtkStringObject *item = gtk_drop_down_get_selected_item (self->field_dropdown);

  if (self->updating_panel || item == NULL || self->path == NULL)
    return;
  load (self, self->path, gtk_string_object_get_string (item));
}

static void
on_open_response (GtkNativeDialog *dialog, int response, ShepardWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr (GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      shepard_window_open (self, file, NULL);
    }
  g_object_unref (dialog);
}

static void
open_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);
  GtkFileChooserNative *dialog = gtk_file_chooser_native_new ("Open Point Layer", GTK_WINDOW (self),
                                                              GTK_FILE_CHOOSER_ACTION_OPEN, "_Open", "_Cancel");
  GtkFileFilter *layers = gtk_file_filter_new ();
  GtkFileFilter *all = gtk_file_filter_new ();

  gtk_file_filter_set_name (layers, "Point layers");
  for (const char *const *suffix = (const char *const[]) { "csv", "gpkg", "shp", "geojson", "json", "fgb", "gml",
                                                           "kml", "sqlite", NULL };
       *suffix != NULL; suffix++)
    gtk_file_filter_add_suffix (layers, *suffix);
  gtk_file_filter_set_name (all, "All files");
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), layers);
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  g_object_unref (layers);
  g_object_unref (all);
  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
export_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  ShepardWindow *self = SHEPARD_WINDOW (widget);

  if (self->document == NULL)
    return;
  gtk_window_present (GTK_WINDOW (shepard_export_dialog_new (self)));
}

static void
fit_action (GtkWidget *widget, const char *action_name, GVariant *parameter)
{
  shepard_map_view_fit (SHEPARD_WINDOW (widget)->map_view);
}

static gboolean
on_drop (GtkDropTarget *target, const GValue *value, double x, double y, ShepardWindow *self)
{
  if (!G_VALUE_HOLDS (value, G_TYPE_FILE))
    return FALSE;
  shepard_window_open (self, g_value_get_object (value), NULL);
  return TRUE;
}

static void
on_cursor_moved (ShepardWindow *self, double x, double y, ShepardMapView *view)
{
  double value, alpha;

  if (self->surface == NULL)
    return;
  const char *field = shepard_document_get_points (self->document)->field_name;
  if (shepard_surface_lookup (self->surface, x, y, &value, &alpha))
    {
      g_autofree char *text = g_strdup_printf ("x %.2f   y %.2f   %s %.4g   α %.3f", x, y, field, value, alpha);
      gtk_label_set_text (self->cursor_label, text);
    }
  else
    {
      g_autofree char *text = g_strdup_printf ("x %.2f   y %.2f", x, y);
      gtk_label_set_text (self->cursor_label, text);
    }
}

static void
on_cursor_left (ShepardWindow *self, ShepardMapView *view)
{
  gtk_label_set_text (self->cursor_label, "");
}

static void
foreground_color (GtkWidget *widget, GdkRGBA *color)
{
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), color);
}

static void
draw_alpha_plot (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  ShepardWindow *self = data;
  double alpha[SHEPARD_AIDW_LEVELS], top = -INFINITY, bottom = INFINITY;
  GdkRGBA fg;
  const double left = 30, right = 6, upper = 6, lower = 16;
  double plot_w = width - left - right, plot_h = height - upper - lower;

  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      alpha[i] = gtk_range_get_value (self->alpha_scales[i]);
      top = MAX (top, alpha[i]);
      bottom = MIN (bottom, alpha[i]);
    }
  top = ceil (top + 0.01);
  bottom = MAX (floor (bottom - 0.01), 0);
  foreground_color (GTK_WIDGET (area), &fg);

  cairo_set_line_width (cr, 1);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.25 * fg.alpha);
  for (int i = 0; i <= 10; i += 2)
    {
      double x = left + plot_w * i / 10.0;
      cairo_move_to (cr, round (x) + 0.5, upper);
      cairo_line_to (cr, round (x) + 0.5, upper + plot_h);
    }
  cairo_stroke (cr);
  cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, 0.7 * fg.alpha);
  cairo_rectangle (cr, left + 0.5, upper + 0.5, plot_w - 1, plot_h - 1);
  cairo_stroke (cr);

  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  char text[32];
  int tw, th;
  g_snprintf (text, sizeof text, "%.0f", top);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, left - 4 - tw, upper - 2);
  pango_cairo_show_layout (cr, layout);
  g_snprintf (text, sizeof text, "%.0f", bottom);
  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, left - 4 - tw, upper + plot_h - th + 2);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_text (layout, "0", -1);
  cairo_move_to (cr, left, upper + plot_h + 1);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_text (layout, "1", -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, left + plot_w - tw, upper + plot_h + 1);
  pango_cairo_show_layout (cr, layout);
  pango_layout_set_text (layout, "μ", -1);
  pango_layout_get_pixel_size (layout, &tw, &th);
  cairo_move_to (cr, left + plot_w / 2 - tw / 2.0, upper + plot_h + 1);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);

  GdkRGBA accent;
  if (!gtk_style_context_lookup_color (gtk_widget_get_style_context (GTK_WIDGET (area)), "accent_color", &accent))
    gdk_rgba_parse (&accent, "#3584e4");
  gdk_cairo_set_source_rgba (cr, &accent);
  cairo_set_line_width (cr, 2);
  for (int i = 0; i <= 200; i++)
    {
      double mu = i / 200.0;
      double a = shepard_aidw_alpha (mu, alpha);
      double x = left + plot_w * mu, y = upper + plot_h * (1 - (a - bottom) / (top - bottom));
      if (i == 0)
        cairo_move_to (cr, x, y);
      else
        cairo_line_to (cr, x, y);
    }
  cairo_stroke (cr);
}

static void
draw_legend (GtkDrawingArea *area, cairo_t *cr, int width, int height, gpointer data)
{
  ShepardWindow *self = data;
  ShepardColorRamp ramp = shepard_window_get_ramp (self);
  const double bar_x = 10, bar_w = 16, pad = 10;
  double bar_h = height - 2 * pad;

  if (self->document == NULL)
    return;
  double min = shepard_document_get_value_min (self->document), max = shepard_document_get_value_max (self->document);

  cairo_set_source_rgba (cr, 0.1, 0.1, 0.12, 0.72);
  cairo_new_sub_path (cr);
  cairo_arc (cr, width - 8, 8, 8, -G_PI / 2, 0);
  cairo_arc (cr, width - 8, height - 8, 8, 0, G_PI / 2);
  cairo_arc (cr, 8, height - 8, 8, G_PI / 2, G_PI);
  cairo_arc (cr, 8, 8, 8, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
  cairo_fill (cr);

  cairo_pattern_t *gradient = cairo_pattern_create_linear (0, pad + bar_h, 0, pad);
  for (int i = 0; i <= 16; i++)
    {
      float rgb[3];
      shepard_color_ramp_evaluate (ramp, i / 16.0, rgb);
      cairo_pattern_add_color_stop_rgb (gradient, i / 16.0, rgb[0], rgb[1], rgb[2]);
    }
  cairo_set_source (cr, gradient);
  cairo_rectangle (cr, bar_x, pad, bar_w, bar_h);
  cairo_fill (cr);
  cairo_pattern_destroy (gradient);

  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (area), NULL);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 8");
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  cairo_set_source_rgb (cr, 1, 1, 1);
  for (int i = 0; i <= 4; i++)
    {
      char text[32];
      int tw, th;
      g_snprintf (text, sizeof text, "%.4g", min + (max - min) * i / 4.0);
      pango_layout_set_text (layout, text, -1);
      pango_layout_get_pixel_size (layout, &tw, &th);
      double y = pad + bar_h * (1 - i / 4.0);
      cairo_move_to (cr, bar_x + bar_w + 6, CLAMP (y - th / 2.0, 2, height - th - 2));
      pango_cairo_show_layout (cr, layout);
    }
  g_object_unref (layout);
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

  if (self->compute_cancellable != NULL)
    g_cancellable_cancel (self->compute_cancellable);
  if (self->load_cancellable != NULL)
    g_cancellable_cancel (self->load_cancellable);
  g_clear_handle_id (&self->refine_source, g_source_remove);
  /* GtkWindow takes its child and titlebar down itself; the template's widgets need no unparenting here. */
  G_OBJECT_CLASS (shepard_window_parent_class)->dispose (object);
}

static void
shepard_window_finalize (GObject *object)
{
  ShepardWindow *self = SHEPARD_WINDOW (object);

  g_clear_object (&self->settings);
  g_clear_object (&self->document);
  g_clear_object (&self->compute_cancellable);
  g_clear_object (&self->load_cancellable);
  g_clear_pointer (&self->surface, shepard_surface_unref);
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
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/shepard/Shepard/ui/shepard-window.ui");
#define BIND(name) gtk_widget_class_bind_template_child (widget_class, ShepardWindow, name)
  BIND (info_bar);
  BIND (info_label);
  BIND (panel);
  BIND (file_label);
  BIND (layer_label);
  BIND (count_label);
  BIND (skipped_label);
  BIND (crs_label);
  BIND (field_dropdown);
  BIND (method_dropdown);
  BIND (area_dropdown);
  BIND (neighbors_dropdown);
  BIND (ramp_dropdown);
  BIND (power_spin);
  BIND (k_spin);
  BIND (rmin_spin);
  BIND (rmax_spin);
  BIND (area_spin);
  BIND (neighbors_spin);
  BIND (resolution_spin);
  BIND (alpha_plot);
  BIND (legend);
  BIND (hillshade_switch);
  BIND (view_stack);
  BIND (map_view);
  BIND (busy_spinner);
  BIND (backend_label);
  BIND (time_label);
  BIND (cursor_label);
#undef BIND
  gtk_widget_class_bind_template_child_full (widget_class, "alpha1_scale", FALSE,
                                             G_STRUCT_OFFSET (ShepardWindow, alpha_scales[0]));
  gtk_widget_class_bind_template_child_full (widget_class, "alpha2_scale", FALSE,
                                             G_STRUCT_OFFSET (ShepardWindow, alpha_scales[1]));
  gtk_widget_class_bind_template_child_full (widget_class, "alpha3_scale", FALSE,
                                             G_STRUCT_OFFSET (ShepardWindow, alpha_scales[2]));
  gtk_widget_class_bind_template_child_full (widget_class, "alpha4_scale", FALSE,
                                             G_STRUCT_OFFSET (ShepardWindow, alpha_scales[3]));
  gtk_widget_class_bind_template_child_full (widget_class, "alpha5_scale", FALSE,
                                             G_STRUCT_OFFSET (ShepardWindow, alpha_scales[4]));
  gtk_widget_class_bind_template_callback (widget_class, on_parameter_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_display_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_field_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_info_bar_response);
  gtk_widget_class_bind_template_callback (widget_class, on_cursor_moved);
  gtk_widget_class_bind_template_callback (widget_class, on_cursor_left);
  gtk_widget_class_bind_template_callback (widget_class, on_interop_changed);

  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.fit", NULL, fit_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "win.fit", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, 0, "win.fit", NULL);
}

static void
bind_settings (ShepardWindow *self)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr (GSettingsSchema) schema = source != NULL ? g_settings_schema_source_lookup (source, APPLICATION_ID, TRUE)
                                                      : NULL;
  int width, height;

  /* Run from the build tree without the schema installed, the app still works; it only forgets. */
  if (schema == NULL)
    return;
  self->settings = g_settings_new_full (schema, NULL, NULL);
  g_settings_get (self->settings, "window-size", "(ii)", &width, &height);
  gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  g_settings_bind (self->settings, "method", self->method_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "power", gtk_spin_button_get_adjustment (self->power_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "k", gtk_spin_button_get_adjustment (self->k_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  for (int i = 0; i < SHEPARD_AIDW_LEVELS; i++)
    {
      char key[16];
      g_snprintf (key, sizeof key, "alpha-%d", i + 1);
      g_settings_bind (self->settings, key, gtk_range_get_adjustment (self->alpha_scales[i]), "value",
                       G_SETTINGS_BIND_DEFAULT);
    }
  g_settings_bind (self->settings, "r-min", gtk_spin_button_get_adjustment (self->rmin_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "r-max", gtk_spin_button_get_adjustment (self->rmax_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "area-mode", self->area_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "area", gtk_spin_button_get_adjustment (self->area_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "neighbourhood", self->neighbors_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "neighbours", gtk_spin_button_get_adjustment (self->neighbors_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "preview-cells", gtk_spin_button_get_adjustment (self->resolution_spin), "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "color-ramp", self->ramp_dropdown, "selected", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "hillshade", self->hillshade_switch, "active", G_SETTINGS_BIND_DEFAULT);
}

static void
shepard_window_init (ShepardWindow *self)
{
  GtkDropTarget *drop = gtk_drop_target_new (G_TYPE_FILE, GDK_ACTION_COPY);

  gtk_widget_init_template (GTK_WIDGET (self));
  self->full_seconds[0] = self->full_seconds[1] = -1.0;
  gtk_drawing_area_set_draw_func (self->alpha_plot, draw_alpha_plot, self, NULL);
  gtk_drawing_area_set_draw_func (self->legend, draw_legend, self, NULL);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));
  gtk_widget_set_visible (GTK_WIDGET (self->busy_spinner), FALSE);

  self->updating_panel = TRUE;
  /* Adaptive IDW is the method this tool is about; GSettings may say otherwise below. */
  gtk_drop_down_set_selected (self->method_dropdown, 1);
  bind_settings (self);
  self->updating_panel = FALSE;
  on_display_changed (self);
  update_sensitivity (self);
}
