/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's GPU paths, as a user with an NVIDIA card meets them: the preview through CUDA-OpenGL interop, its
 * pixels, hover, the fallback when a copy fails at draw time, an export on CUDA, memory over 500 parameter changes,
 * and each choice of GPUs in Preferences (interop from the display's GPU, host memory from any other). Run on the GPU
 * machine by tools/gpu-window-check.sh (NVIDIA's GLX under Xvfb); elsewhere the engine runs on the CPU and the GPU
 * cases skip, saying why, while the memory case still checks the resident size. */
#include <gdal.h>
#include <glib/gstdio.h>
#include <epoxy/gl.h>
#include <gtk/gtk.h>
#include <math.h>

#ifdef SHEPARD_TEST_CUDA_RUNTIME
#include <cuda_runtime_api.h>
#endif

#include "shepard-export-dialog.h"
#include "shepard-render-private.h"
#include "shepard-window.h"
#include "ui-test-support.h"

/* On the CPU each change waits for the refined grid (150 ms after the hand stops): fewer changes there keep the
 * suite's time in bounds, and still show whether memory grows with them. */
#define GPU_PARAMETER_CHANGES 500
#define CPU_PARAMETER_CHANGES 150
#define WARM_UP_CHANGES 50
/* Resident memory may move with the allocator's arenas, never grow with the number of changes. */
#define RSS_GROWTH_ALLOWED 0.05
/* The device grids come from a pool and are reused: GPU memory in use must not move beyond the driver's rounding. */
#define GPU_GROWTH_ALLOWED_BYTES (2 << 20)

static ShepardWindow *window;

/* TRUE on a CUDA engine; otherwise marks the case skipped with the engine's own description, which says why. */
static gboolean
need_cuda_engine (void)
{
  ShepardDocument *document = shepard_window_get_document (window);

  if (shepard_document_get_cuda_device (document) >= 0)
    return TRUE;
  g_autofree char *reason = g_strdup_printf ("the engine runs on the CPU here (%s)",
                                             shepard_document_get_backend (document));
  g_test_skip (reason);
  return FALSE;
}

static void
change_parameters (int step)
{
  shepard_params params;

  shepard_window_get_params (window, &params);
  /* AIDW's middle level between two values that keep the levels ordered; every step is a real change. */
  params.alpha[2] = step % 2 == 0 ? 2.25 : 2.75;
  shepard_window_set_params (window, &params);
  g_assert_true (wait_until (is_settled, window));
}

/* The values of the surface drawn now, wherever they are. */
static float *
surface_values (ShepardSurface *surface)
{
  g_autoptr (GError) error = NULL;

  float *values = shepard_surface_copy_plane (surface, SHEPARD_PLANE_VALUES, &error);
  g_assert_no_error (error);
  return values;
}

/* The same grid from an independent float64 CPU engine: every cell within 1e-5 relative. */
static void
assert_equals_cpu_reference (const shepard_params *params, const shepard_grid *grid, const double *values,
                             const float *values_f32)
{
  const ShepardPointLayer *points = shepard_document_get_points (shepard_window_get_document (window));
  size_t cells = grid->width * grid->height;
  g_autofree double *reference = g_new (double, cells);
  shepard_outputs outputs = { .values = reference };
  shepard_error error = { 0 };
  double worst = 0;

  shepard_engine *engine = shepard_engine_new (SHEPARD_BACKEND_CPU, SHEPARD_PRECISION_FLOAT64, 0, &error);
  g_assert_nonnull (engine);
  g_assert_cmpint (shepard_engine_set_points (engine, points->x, points->y, points->z, points->count, &error), ==,
                   SHEPARD_OK);
  g_assert_cmpint (shepard_engine_interpolate_grid (engine, params, grid, &outputs, NULL, NULL, &error), ==,
                   SHEPARD_OK);
  shepard_engine_free (engine);
  for (size_t i = 0; i < cells; i++)
    {
      double value = values != NULL ? values[i] : values_f32[i];
      worst = MAX (worst, fabs (value - reference[i]) / MAX (fabs (reference[i]), 1e-30));
    }
  g_test_message ("%zu × %zu cells: largest difference from the float64 CPU engine %.2e relative", grid->width,
                  grid->height, worst);
  g_assert_cmpfloat (worst, <=, 1e-5);
}

static void
test_open (void)
{
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  let_frames_pass (300);
  g_test_message ("engine: %s", shepard_document_get_backend (shepard_window_get_document (window)));
  g_test_message ("status bar: %s", gtk_label_get_text (window_child (window, "backend_label")));
}

/* GTK 4.8 asks for a 3.2 core context and the NVIDIA driver reports exactly what it is asked for (Mesa reports its
 * newest version): so the map must draw on 3.2. A second context asking for more shows where the version comes from. */
static void
test_gl_contexts (void)
{
  assert_map_gl_context (window);

  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_autoptr (GError) error = NULL;
  g_autoptr (GdkGLContext) context = gdk_surface_create_gl_context (surface, &error);
  int major = 0, minor = 0;

  g_assert_no_error (error);
  gdk_gl_context_set_required_version (context, 4, 1);
  if (gdk_gl_context_realize (context, &error))
    {
      gdk_gl_context_make_current (context);
      g_test_message ("a context that asks for 4.1 gets %s", glGetString (GL_VERSION));
      gdk_gl_context_clear_current ();
    }
  else
    g_test_message ("a context that asks for 4.1 is refused: %s", error->message);
  GtkGLArea *area = GTK_GL_AREA (shepard_window_get_map_view (window));
  gdk_gl_context_get_version (gtk_gl_area_get_context (area), &major, &minor);
  g_assert_cmpint (major * 10 + minor, >=, 32);
  g_assert_null (gtk_gl_area_get_error (area));
}

static void
test_interop (void)
{
  if (!need_cuda_engine ())
    return;
  ShepardMapView *view = shepard_window_get_map_view (window);
  const char *reason = NULL;
  gboolean interop = shepard_map_view_get_interop (view, &reason);

  if (!interop)
    g_test_message ("interop is off: %s", reason);
  g_assert_true (interop);
  g_assert_true (shepard_preview_get_keeps_on_gpu (shepard_window_get_preview (window)));
  g_assert_nonnull (strstr (gtk_label_get_text (window_child (window, "backend_label")),
                            "preview through CUDA–OpenGL interop"));
  ShepardSurface *surface = shepard_window_get_surface (window);
  g_assert_nonnull (surface->device_grid);
  g_assert_null (surface->values);
}

static void
test_pixel_and_values (void)
{
  if (!need_cuda_engine ())
    return;
  ShepardSurface *surface = shepard_window_get_surface (window);
  g_autofree float *values = surface_values (surface);

  assert_window_pixel_matches_surface (window, values, "shepard-window-gpu.png");
  assert_equals_cpu_reference (&surface->params, &surface->grid, NULL, values);
}

static void
test_hover (void)
{
  if (!need_cuda_engine ())
    return;
  ShepardMapView *view = shepard_window_get_map_view (window);
  ShepardSurface *surface = shepard_window_get_surface (window);
  size_t col = surface->grid.width / 3, row = surface->grid.height / 2;
  double x = surface->grid.x_min + (col + 0.5) * surface->grid.dx;
  double y = surface->grid.y_max - (row + 0.5) * surface->grid.dy;
  double wx, wy, read_x, read_y, value, alpha;
  float cell_value, cell_alpha;
  shepard_error error = { 0 };

  g_assert_nonnull (surface->device_grid);
  shepard_map_view_map_to_widget (view, x, y, &wx, &wy);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "motion", wx, wy);
  const char *text = gtk_label_get_text (window_child (window, "cursor_label"));
  g_test_message ("status: %s", text);
  read_zinc_status (text, &read_x, &read_y, &value, &alpha);
  /* Whole metres. */
  assert_near (read_x, x, 0.5);
  assert_near (read_y, y, 0.5);
  g_assert_cmpint (shepard_device_grid_read (surface->device_grid, row * surface->grid.width + col, 1, &cell_value,
                                             &cell_alpha, &error),
                   ==, SHEPARD_OK);
  g_test_message ("device grid cell (%zu, %zu): %.6g, α %.6g", col, row, cell_value, cell_alpha);
  /* The label shows 4 significant digits of the value and 3 decimals of α. */
  assert_near (value, cell_value, fabs (cell_value) * 5e-4);
  assert_near (alpha, cell_alpha, 5e-4);
  g_signal_emit_by_name (find_controller (GTK_WIDGET (view), GTK_TYPE_EVENT_CONTROLLER_MOTION), "leave");
}

/* A copy into the texture that fails while a frame is drawn: the frame still shows the surface (through host memory),
 * the status bar says so with the reason in its tooltip, later surfaces come to the host, and nothing else breaks. */
static void
test_copy_failure_fallback (void)
{
  if (!need_cuda_engine ())
    return;
  ShepardMapView *view = shepard_window_get_map_view (window);
  ShepardDocument *document = shepard_window_get_document (window);
  GtkLabel *backend_label = window_child (window, "backend_label");
  const char *reason = NULL;

  _shepard_render_fail_next_interop_copy ();
  change_parameters (1);
  let_frames_pass (300);
  g_assert_false (shepard_map_view_get_interop (view, &reason));
  g_test_message ("after the failed copy: %s; tooltip: %s", gtk_label_get_text (backend_label),
                  gtk_widget_get_tooltip_text (GTK_WIDGET (backend_label)));
  g_assert_nonnull (reason);
  g_assert_nonnull (strstr (reason, "a failure a test asked for"));
  g_assert_nonnull (strstr (gtk_label_get_text (backend_label), "preview copied through host memory"));
  g_assert_nonnull (strstr (gtk_widget_get_tooltip_text (GTK_WIDGET (backend_label)), reason));
  g_assert_false (shepard_preview_get_keeps_on_gpu (shepard_window_get_preview (window)));
  g_assert_null (gtk_gl_area_get_error (GTK_GL_AREA (view)));
  /* The frame whose copy failed was drawn from host memory. */
  {
    g_autofree float *values = surface_values (shepard_window_get_surface (window));
    assert_window_pixel_matches_surface (window, values, "shepard-window-gpu-fallback.png");
  }

  /* The window goes on working: the next surface comes to the host and is drawn. */
  change_parameters (2);
  ShepardSurface *surface = shepard_window_get_surface (window);
  g_assert_null (surface->device_grid);
  g_assert_nonnull (surface->values);
  assert_window_pixel_matches_surface (window, surface->values, "shepard-window-gpu-fallback.png");

  /* And interop comes back when asked for again. */
  shepard_map_view_set_cuda_device (view, shepard_document_get_cuda_device (document));
  g_assert_true (shepard_map_view_get_interop (view, NULL));
  change_parameters (3);
  g_assert_nonnull (shepard_window_get_surface (window)->device_grid);
  g_assert_nonnull (strstr (gtk_label_get_text (backend_label), "preview through CUDA–OpenGL interop"));
}

static void
test_export_on_cuda (void)
{
  if (!need_cuda_engine ())
    return;
  g_autofree char *folder = g_dir_make_tmp ("shepard-ui-gpu-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (folder, "zinc.tif", NULL);
  ShepardExportDialog *dialog = shepard_window_new_export_dialog (window);
  ShepardDocument *document = shepard_window_get_document (window);
  shepard_params params;
  int state = 0;

  g_object_ref (dialog);
  g_signal_connect (dialog, "finished", G_CALLBACK (on_export_finished), &state);
  shepard_export_dialog_set_path (dialog, path);
  shepard_export_dialog_start (dialog);
  g_assert_true (wait_until (is_nonzero, &state));
  g_assert_cmpint (state, ==, 1);
  g_object_unref (dialog);
  const char *message = shepard_window_get_message (window);
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, path));
  g_autofree char *on_engine = g_strdup_printf (" on %s", shepard_document_get_backend (document));
  g_assert_nonnull (strstr (message, on_engine));
  g_assert_true (g_str_has_prefix (shepard_document_get_backend (document), "CUDA"));

  GDALAllRegister ();
  GDALDatasetH dataset = GDALOpen (path, GA_ReadOnly);
  double transform[6];
  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALGetGeoTransform (dataset, transform), ==, CE_None);
  shepard_grid grid = { .x_min = transform[0], .y_max = transform[3], .dx = transform[1], .dy = -transform[5],
                        .width = (size_t) GDALGetRasterXSize (dataset),
                        .height = (size_t) GDALGetRasterYSize (dataset) };
  g_autofree double *values = g_new (double, grid.width * grid.height);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, 1), GF_Read, 0, 0, (int) grid.width, (int) grid.height,
                                 values, (int) grid.width, (int) grid.height, GDT_Float64, 0, 0),
                   ==, CE_None);
  GDALClose (dataset);
  shepard_window_get_params (window, &params);
  assert_equals_cpu_reference (&params, &grid, values, NULL);
  g_assert_cmpint (g_remove (path), ==, 0);
  g_assert_cmpint (g_rmdir (folder), ==, 0);
}

/* Bytes of GPU memory in use on the engine's device (by any process), or -1 without a CUDA engine. */
static double
gpu_used_bytes (void)
{
#ifdef SHEPARD_TEST_CUDA_RUNTIME
  int device = shepard_document_get_cuda_device (shepard_window_get_document (window));
  size_t free_bytes = 0, total_bytes = 0;

  if (device < 0)
    return -1;
  g_assert_cmpint (cudaSetDevice (device), ==, cudaSuccess);
  g_assert_cmpint (cudaMemGetInfo (&free_bytes, &total_bytes), ==, cudaSuccess);
  return (double) (total_bytes - free_bytes);
#else
  return -1;
#endif
}

static void
test_memory_flat (void)
{
#ifdef __SANITIZE_ADDRESS__
  /* Its quarantine and shadow memory make the resident size a measure of AddressSanitizer, not of the window (as in
   * test-window-memory); the GPU's memory is checked where there is a GPU, which the sanitized build never has. */
  g_test_skip ("AddressSanitizer keeps freed memory in quarantine: resident memory says nothing here");
  return;
#endif
  double rss_start = 0, gpu_start = 0;
  gboolean on_gpu = shepard_document_get_cuda_device (shepard_window_get_document (window)) >= 0;
  int changes = on_gpu ? GPU_PARAMETER_CHANGES : CPU_PARAMETER_CHANGES;

  for (int step = 1; step <= changes; step++)
    {
      change_parameters (step);
      /* Each surface is drawn before the next change, as when a hand moves a slider. */
      g_main_context_iteration (NULL, FALSE);
      if (step == WARM_UP_CHANGES)
        {
          let_frames_pass (100);
          rss_start = resident_bytes ();
          gpu_start = gpu_used_bytes ();
        }
      if (step % 50 == 0)
        g_test_message ("after %d changes: resident %.1f MiB, GPU memory in use %.1f MiB", step,
                        resident_bytes () / 1048576, gpu_used_bytes () / 1048576);
    }
  let_frames_pass (100);
  double rss_end = resident_bytes (), gpu_end = gpu_used_bytes ();
  g_test_message ("changes %d to %d: resident %.1f → %.1f MiB (%+.2f %%), GPU memory in use %.1f → %.1f MiB",
                  WARM_UP_CHANGES, changes, rss_start / 1048576, rss_end / 1048576, 100 * (rss_end / rss_start - 1),
                  gpu_start / 1048576, gpu_end / 1048576);
  g_assert_cmpfloat (rss_end, <=, rss_start * (1 + RSS_GROWTH_ALLOWED));
  if (gpu_start < 0)
    g_test_message ("GPU memory not checked: the engine runs on the CPU here (%s)",
                    shepard_document_get_backend (shepard_window_get_document (window)));
  else
    g_assert_cmpfloat (gpu_end - gpu_start, <=, GPU_GROWTH_ALLOWED_BYTES);
}

/* The CUDA device of the map's GL context: the GPU that drives the display (-1: none). */
static int
display_gpu (void)
{
  gtk_gl_area_make_current (GTK_GL_AREA (shepard_window_get_map_view (window)));
  return shepard_render_gl_cuda_device ();
}

/* What issue 16 asks of a choice: the engine on the GPUs chosen, with the display's GPU first where it is among them,
 * since the preview stays on the engine's first GPU and only the display's reaches the map through interop ("all"
 * then names each GPU). The order changes no result. */
static void
expected_engine_gpus (const shepard_gpu_set *chosen, int display, int count, shepard_gpu_set *engine)
{
  shepard_gpu_set every = { 0 };
  const shepard_gpu_set *listed = chosen;
  gboolean display_listed = FALSE;

  *engine = *chosen;
  if (count < 2 || display < 0 || (chosen->count == 0 && display == 0))
    return;
  if (chosen->count == 0)
    {
      for (int ordinal = 0; ordinal < count; ordinal++)
        every.ordinals[every.count++] = ordinal;
      listed = &every;
    }
  for (size_t i = 0; i < listed->count; i++)
    display_listed = display_listed || listed->ordinals[i] == display;
  if (!display_listed)
    return;
  engine->count = 0;
  engine->ordinals[engine->count++] = display;
  for (size_t i = 0; i < listed->count; i++)
    if (listed->ordinals[i] != display)
      engine->ordinals[engine->count++] = listed->ordinals[i];
}

typedef struct {
  const char *gpus;       /* the engine's, as the document reports them */
  ShepardSurface *before; /* the surface shown before the change, NULL where the engine stays */
} EngineChange;

static gboolean
engine_changed (gpointer data)
{
  EngineChange *change = data;
  g_autofree char *gpus = shepard_document_get_gpus (shepard_window_get_document (window));
  return g_strcmp0 (gpus, change->gpus) == 0 && is_settled (window)
         && shepard_window_get_surface (window) != change->before;
}

/* The backend label names each GPU of the engine, and how many there are where they are of one model. */
static void
assert_label_names_gpus (const char *label, const shepard_gpu_set *engine, int count)
{
  size_t n = engine->count > 0 ? engine->count : (size_t) count;
  char first[256], name[256];
  gboolean one_model = TRUE;

  for (size_t i = 0; i < n; i++)
    {
      int ordinal = engine->count > 0 ? engine->ordinals[i] : (int) i;
      g_assert_true (shepard_gpu_name (ordinal, name, sizeof name));
      g_assert_nonnull (strstr (label, name));
      if (i == 0)
        g_strlcpy (first, name, sizeof first);
      one_model = one_model && strcmp (first, name) == 0;
    }
  g_autofree char *times = g_strdup_printf (" x %zu", n);
  if (n == 1)
    g_assert_null (strstr (label, " x "));
  else if (one_model)
    g_assert_nonnull (strstr (label, times));
}

/* Preferences' GPU choice followed by the real window: "all", each GPU alone and, with two or more, every GPU in the
 * reverse order. Where the display's GPU is among those chosen, the preview is computed there and reaches the map
 * through interop; otherwise it runs on the engine's first GPU and is copied through host memory, and the status bar
 * says so and why. Ends on "all". */
static void
test_preferences_gpus (void)
{
  if (!need_cuda_engine ())
    return;
  g_autoptr (GSettings) settings = new_settings ();
  ShepardDocument *document = shepard_window_get_document (window);
  ShepardMapView *view = shepard_window_get_map_view (window);
  GtkLabel *backend_label = window_child (window, "backend_label");
  int count = shepard_gpu_count (), display = display_gpu ();
  g_autoptr (GPtrArray) choices = g_ptr_array_new_with_free_func (g_free);

  g_test_message ("%d GPU(s); the GL context (%s) runs on CUDA device %d", count,
                  (const char *) glGetString (GL_RENDERER), display);
  for (int ordinal = 0; ordinal < count; ordinal++)
    g_ptr_array_add (choices, g_strdup_printf ("%d", ordinal));
  if (count >= 2)
    {
      GString *reverse = g_string_new (NULL);
      for (int ordinal = count - 1; ordinal >= 0; ordinal--)
        g_string_append_printf (reverse, "%s%d", reverse->len > 0 ? "," : "", ordinal);
      g_ptr_array_add (choices, g_string_free (reverse, FALSE));
    }
  g_ptr_array_add (choices, g_strdup ("all"));

  for (guint step = 0; step < choices->len; step++)
    {
      const char *choice = choices->pdata[step];
      shepard_gpu_set chosen, engine;
      char engine_gpus[SHEPARD_MAX_GPUS * 8];
      shepard_error parse_error = { 0 };

      g_assert_cmpint (shepard_gpu_set_parse (choice, &chosen, &parse_error), ==, SHEPARD_OK);
      expected_engine_gpus (&chosen, display, count, &engine);
      shepard_gpu_set_format (&engine, engine_gpus, sizeof engine_gpus);
      g_autofree char *current = shepard_document_get_gpus (document);
      g_autoptr (ShepardSurface) before = shepard_surface_ref (shepard_window_get_surface (window));
      gboolean moves = strcmp (current, engine_gpus) != 0;

      /* As the Preferences dialog writes it; the window follows the key. */
      g_settings_set_string (settings, "gpus", choice);
      g_assert_true (wait_until (engine_changed, &(EngineChange) { engine_gpus, moves ? before : NULL }));
      g_assert_true (shepard_window_get_document (window) == document);
      change_parameters ((int) step + 1);

      int preview_gpu = engine.count > 0 ? engine.ordinals[0] : 0;
      gboolean display_chosen = FALSE;
      for (size_t i = 0; i < chosen.count; i++)
        display_chosen = display_chosen || chosen.ordinals[i] == display;
      display_chosen = display >= 0 && (display_chosen || (chosen.count == 0 && display < count));
      const char *reason = NULL;
      gboolean interop = shepard_map_view_get_interop (view, &reason);
      const char *label = gtk_label_get_text (backend_label);
      const char *tooltip = gtk_widget_get_tooltip_text (GTK_WIDGET (backend_label));
      ShepardSurface *surface = shepard_window_get_surface (window);
      g_test_message ("GPUs chosen \"%s\": engine on \"%s\", preview on CUDA device %d, display on CUDA device %d "
                      "(%s the set): interop %s%s%s; surface in %s memory", choice, engine_gpus,
                      shepard_document_get_cuda_device (document), display, display_chosen ? "in" : "not in",
                      interop ? "on" : "off", reason != NULL ? ", because: " : "", reason != NULL ? reason : "",
                      surface->device_grid != NULL ? "device" : "host");
      g_test_message ("status bar: %s; tooltip: %s", label, tooltip != NULL ? tooltip : "none");

      g_assert_cmpint (shepard_document_get_cuda_device (document), ==, preview_gpu);
      g_assert_true (g_str_has_prefix (label, "Engine: CUDA: "));
      assert_label_names_gpus (label, &engine, count);
      g_assert_cmpint (interop, ==, display_chosen);
      g_assert_cmpint (shepard_preview_get_keeps_on_gpu (shepard_window_get_preview (window)), ==, display_chosen);
      if (display_chosen)
        {
          g_assert_null (reason);
          g_assert_nonnull (strstr (label, "preview through CUDA–OpenGL interop"));
          g_assert_nonnull (surface->device_grid);
          g_assert_null (surface->values);
        }
      else
        {
          g_assert_nonnull (reason);
          if (display >= 0)
            {
              g_autofree char *elsewhere = g_strdup_printf ("not on CUDA device %d", preview_gpu);
              g_assert_nonnull (strstr (reason, elsewhere));
            }
          g_assert_nonnull (strstr (label, "preview copied through host memory"));
          g_assert_nonnull (tooltip);
          g_assert_nonnull (strstr (tooltip, reason));
          g_assert_null (surface->device_grid);
          g_assert_nonnull (surface->values);
        }

      g_autofree float *values = surface_values (surface);
      g_autofree char *screenshot = g_strdup_printf ("shepard-window-gpus-%s.png", choice);
      g_strdelimit (screenshot, ",", '-');
      assert_window_pixel_matches_surface (window, values, screenshot);
      g_assert_null (gtk_gl_area_get_error (GTK_GL_AREA (view)));
      gtk_gl_area_make_current (GTK_GL_AREA (view));
      g_assert_cmphex (glGetError (), ==, GL_NO_ERROR);
    }
  g_autofree char *restored = g_settings_get_string (settings, "gpus");
  g_assert_cmpstr (restored, ==, "all");
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  window = present_test_window ();

  g_test_add_func ("/ui/gpu/open", test_open);
  g_test_add_func ("/ui/gpu/gl-contexts", test_gl_contexts);
  g_test_add_func ("/ui/gpu/interop", test_interop);
  g_test_add_func ("/ui/gpu/pixel-and-values", test_pixel_and_values);
  g_test_add_func ("/ui/gpu/hover", test_hover);
  g_test_add_func ("/ui/gpu/copy-failure-fallback", test_copy_failure_fallback);
  g_test_add_func ("/ui/gpu/export-on-cuda", test_export_on_cuda);
  g_test_add_func ("/ui/gpu/memory-flat", test_memory_flat);
  g_test_add_func ("/ui/gpu/preferences-gpus", test_preferences_gpus);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
