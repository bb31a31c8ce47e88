/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-bench-window: frame times inside the real window. A parameter change (AIDW's α3) goes into ShepardWindow
 * exactly as a slider puts it there; the time runs until the end of the first frame that shows the changed surface,
 * as GTK's frame clock paints it: its "after-paint", once the frame's GL work has finished (glFinish on the context
 * GTK painted with). Where the frame clock also learns when the frame was presented (a compositing window manager
 * reports it; bare Xvfb has none), that time is printed too. The window's own scheduler decides coarse first and
 * fine when the hand stops; both frames are timed. Each configuration runs through CUDA-OpenGL interop and, on the
 * same frames, through host memory (interop switched off), side by side.
 * Configurations: 100K points with AIDW over the 15 nearest (goal: <= 16 ms) and 1M points with AIDW over all points
 * (coarse and fine frame; issue 15's goal: <= 33 ms for a 1024^2 frame through interop), at the window's default
 * preview (384 cells) and at 1024 cells. The changes come 50 ms after the window settles, as a hand that drags a
 * slider: the instruments' leave-one-out (on, as by default) starts behind a change only where it takes no longer
 * than a frame, and otherwise once the hand rests (shepard-instruments.h).
 * With --far-field, on a CPU engine: all-points AIDW and IDW summed as the engine chooses (summation auto: the far
 * field for a large layer) beside the brute force (exact), and AIDW over the 15 nearest for the cost of its kNN
 * search; the brute force with one change (a 256^2 grid of 1M points takes a minute or two on 2 cores), and only at
 * previews up to 256 cells. Issue 15's goal: a 256^2 preview of 1M points in <= 150 ms on the CPU.
 * Run by hand or by tools/gpu-window-check.sh on the GPU machine, never by meson test:
 *   shepard-bench-window [--sizes 100,1000] [--changes N] [--previews 384,1024] [--far-field]
 * Without a CUDA engine it says so and exits 0, unless --sizes is given (then it times the CPU engine). */
#include "bench-data.h"
#include "bench-support.h"
#include "shepard-parameter-panel.h"
#include "shepard-window.h"

#include <epoxy/gl.h>
#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#define DEFAULT_CHANGES 20
#define WARM_UP_CHANGES 2
#define WAIT_SECONDS 60
#define BRUTE_FORCE_WAIT_SECONDS 600
#define BRUTE_FORCE_MAX_PREVIEW 256
#define CPU_GOAL_PREVIEW 256
#define CPU_GOAL_MS 150.0
#define MAX_LIST 8
#define LOCAL_NEIGHBORS 15
#define GOAL_SIZE_K 100
#define GOAL_FRAME_MS 16.0
#define LIVE_GOAL_SIZE_K 1000
#define LIVE_GOAL_PREVIEW 1024
#define LIVE_GOAL_MS 33.0
#define POINT_SEED 0x5eed1e55ULL
#define IDLE_BETWEEN_CHANGES_MS 50

typedef struct {
  ShepardWindow *window;
  ShepardMapView *view;
  GdkFrameClock *clock;
  size_t full_long_side;
  int wait_seconds;

  /* The change being timed. */
  double target_alpha3;
  gint64 changed_at;
  gint64 render_frame;     /* frame in which the map view drew the target surface; -1: none yet */
  gboolean render_full;
  size_t render_side;
  double render_seconds;   /* the engine's time for that surface */
  gint64 render_at;        /* monotonic µs when the map view began drawing it */
  gint64 fine_delivered;   /* when the window first held the fine surface */
  gint64 fine_drawn, fine_painted; /* the map view drew it; the frame's paint ended (before glFinish) */
  gint64 coarse_done, fine_done; /* monotonic µs at the end of the frame; 0: not yet */
  gint64 coarse_frame, fine_frame;
  size_t coarse_side;
  double coarse_seconds, fine_seconds;
} Probe;

/* Milliseconds of one configuration's timed changes, from the change. */
typedef struct {
  double coarse_ms[64], fine_ms[64], compute_ms[64], coarse_compute_ms[64], fine_presented_ms[64];
  double delivered_ms[64], drawn_ms[64], painted_ms[64];
  double coarse_side[64];
  int coarse_count, fine_count, presented_count;
} Series;

/* How a configuration weighs: the parameters the window is given, and the row's name. */
typedef struct {
  const char *name;
  shepard_method method;
  int neighbors;
  shepard_summation summation;
} Weighting;

static const Weighting local_aidw = { "AIDW, 15 nearest", SHEPARD_METHOD_AIDW, LOCAL_NEIGHBORS,
                                      SHEPARD_SUMMATION_AUTO };
static const Weighting all_points_aidw = { "AIDW, all points", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL,
                                           SHEPARD_SUMMATION_AUTO };
/* --far-field: auto (the far field where the engine takes it) beside the brute force. */
static const Weighting far_field_weightings[] = {
  { "AIDW, all, auto", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, SHEPARD_SUMMATION_AUTO },
  { "AIDW, all, exact", SHEPARD_METHOD_AIDW, SHEPARD_NEIGHBORS_ALL, SHEPARD_SUMMATION_EXACT },
  { "IDW, all, auto", SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL, SHEPARD_SUMMATION_AUTO },
  { "IDW, all, exact", SHEPARD_METHOD_IDW, SHEPARD_NEIGHBORS_ALL, SHEPARD_SUMMATION_EXACT },
};

static gboolean
on_render (GtkGLArea *area, GdkGLContext *context, Probe *probe)
{
  ShepardSurface *surface = shepard_window_get_surface (probe->window);

  if (probe->changed_at != 0 && surface != NULL && surface->params.alpha[2] == probe->target_alpha3)
    {
      probe->render_frame = gdk_frame_clock_get_frame_counter (probe->clock);
      probe->render_side = MAX (surface->grid.width, surface->grid.height);
      probe->render_full = probe->render_side >= probe->full_long_side;
      probe->render_seconds = surface->seconds;
      probe->render_at = g_get_monotonic_time ();
    }
  return FALSE; /* the map view's own handler draws */
}

static void
on_after_paint (GdkFrameClock *clock, Probe *probe)
{
  if (probe->render_frame < 0 || probe->render_frame != gdk_frame_clock_get_frame_counter (clock))
    return;
  gint64 painted = g_get_monotonic_time ();
  /* GTK leaves the context it painted the window with current; its work is done when glFinish returns. */
  if (gdk_gl_context_get_current () != NULL)
    glFinish ();
  gint64 now = g_get_monotonic_time ();
  if (probe->render_full)
    {
      probe->fine_drawn = probe->render_at;
      probe->fine_painted = painted;
      probe->fine_done = now;
      probe->fine_frame = probe->render_frame;
      probe->fine_seconds = probe->render_seconds;
    }
  else if (probe->coarse_done == 0)
    {
      probe->coarse_done = now;
      probe->coarse_frame = probe->render_frame;
      probe->coarse_side = probe->render_side;
      probe->coarse_seconds = probe->render_seconds;
    }
  probe->render_frame = -1;
}

static gboolean
run_until (gboolean (*done) (Probe *), Probe *probe)
{
  gint64 end = g_get_monotonic_time () + (gint64) probe->wait_seconds * G_USEC_PER_SEC;

  while (!done (probe))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (100);
    }
  return TRUE;
}

/* Also notes when the fine surface reached the window (polled every 0.1 ms). */
static gboolean
fine_frame_done (Probe *probe)
{
  ShepardSurface *surface = shepard_window_get_surface (probe->window);

  if (probe->fine_delivered == 0 && surface != NULL && surface->params.alpha[2] == probe->target_alpha3
      && MAX (surface->grid.width, surface->grid.height) >= probe->full_long_side)
    probe->fine_delivered = g_get_monotonic_time ();
  return probe->fine_done != 0;
}

static gboolean
window_settled (Probe *probe)
{
  return !shepard_window_is_busy (probe->window) && shepard_window_get_surface (probe->window) != NULL;
}

static void
idle_for (int milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;
  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (200);
    }
}

/* Presentation time of a painted frame, when the frame clock learned it; 0 otherwise. */
static gint64
presented_at (Probe *probe, gint64 frame)
{
  GdkFrameTimings *timings = gdk_frame_clock_get_timings (probe->clock, frame);
  return timings != NULL && gdk_frame_timings_get_complete (timings) ? gdk_frame_timings_get_presentation_time (timings)
                                                                      : 0;
}

static void
time_change (Probe *probe, Series *series, gboolean record)
{
  shepard_params params;

  /* From whatever the last change left, so that each is one: the next configuration's first too, whatever the count
   * of changes before it */
  shepard_window_get_params (probe->window, &params);
  params.alpha[2] = probe->target_alpha3 = params.alpha[2] == 2.25 ? 2.75 : 2.25;
  /* IDW ignores alpha3, which still marks the surface: its power changes with it */
  if (params.method == SHEPARD_METHOD_IDW)
    params.power = probe->target_alpha3 - 0.25;
  probe->render_frame = -1;
  probe->coarse_done = probe->fine_done = probe->fine_delivered = 0;
  probe->changed_at = g_get_monotonic_time ();
  shepard_window_set_params (probe->window, &params);
  if (!run_until (fine_frame_done, probe))
    {
      fprintf (stderr, "shepard-bench-window: no frame showed the change within %d s\n", probe->wait_seconds);
      exit (1);
    }
  gint64 changed_at = probe->changed_at;
  probe->changed_at = 0;
  run_until (window_settled, probe);
  idle_for (IDLE_BETWEEN_CHANGES_MS);
  if (!record)
    return;
  if (probe->coarse_done != 0)
    {
      series->coarse_side[series->coarse_count] = (double) probe->coarse_side;
      series->coarse_compute_ms[series->coarse_count] = probe->coarse_seconds * 1e3;
      series->coarse_ms[series->coarse_count++] = (probe->coarse_done - changed_at) / 1e3;
    }
  series->compute_ms[series->fine_count] = probe->fine_seconds * 1e3;
  series->delivered_ms[series->fine_count] = (probe->fine_delivered - changed_at) / 1e3;
  series->drawn_ms[series->fine_count] = (probe->fine_drawn - changed_at) / 1e3;
  series->painted_ms[series->fine_count] = (probe->fine_painted - changed_at) / 1e3;
  series->fine_ms[series->fine_count++] = (probe->fine_done - changed_at) / 1e3;
  gint64 presented = presented_at (probe, probe->fine_frame);
  if (presented > 0)
    series->fine_presented_ms[series->presented_count++] = (presented - changed_at) / 1e3;
}

static double
largest (double *values, int count)
{
  if (count == 0)
    return NAN;
  qsort (values, (size_t) count, sizeof *values, bench_compare_doubles);
  return values[count - 1];
}

static void
format_ms (char *text, size_t size, double value)
{
  if (isnan (value))
    snprintf (text, size, "%s", "—");
  else
    snprintf (text, size, "%.1f", value);
}

static gboolean
set_interop (Probe *probe, gboolean interop)
{
  ShepardDocument *document = shepard_window_get_document (probe->window);
  int device = shepard_document_get_cuda_device (document);

  shepard_map_view_set_cuda_device (probe->view, interop ? device : -1);
  return shepard_map_view_get_interop (probe->view, NULL) == interop;
}

/* The brute force over all points of a large layer on the CPU takes a minute or more a grid: timed once. */
static void
run_configuration (Probe *probe, int size_k, const Weighting *weighting, int preview, int changes, gboolean on_gpu)
{
  ShepardParameterPanel *panel = SHEPARD_PARAMETER_PANEL (gtk_widget_get_template_child (GTK_WIDGET (probe->window),
                                                                                         SHEPARD_TYPE_WINDOW,
                                                                                         "parameter_panel"));
  shepard_params params;

  gboolean local = weighting->neighbors != SHEPARD_NEIGHBORS_ALL;
  gboolean brute_force_on_cpu = !on_gpu && !local && weighting->summation == SHEPARD_SUMMATION_EXACT;
  int warm_up = brute_force_on_cpu ? 0 : WARM_UP_CHANGES;

  if (brute_force_on_cpu)
    changes = 1;
  probe->wait_seconds = brute_force_on_cpu ? BRUTE_FORCE_WAIT_SECONDS : WAIT_SECONDS;
  if (weighting->method == SHEPARD_METHOD_IDW)
    shepard_params_init_idw (&params);
  else
    shepard_params_init_aidw (&params);
  params.neighbors = weighting->neighbors;
  params.summation = weighting->summation;
  shepard_parameter_panel_set_preview_cells (panel, (guint) preview);
  shepard_window_set_params (probe->window, &params);
  probe->full_long_side = (size_t) preview;
  run_until (window_settled, probe);

  for (int path = 0; path < (on_gpu ? 2 : 1); path++)
    {
      gboolean interop = on_gpu && path == 0;
      Series series = { 0 };
      char coarse[32], fine[32], fine_worst[32], compute[32], coarse_compute[32], presented[32];
      char delivered[32], drawn[32], painted[32], coarse_side[32];

      if (on_gpu && !set_interop (probe, interop))
        {
          const char *reason = NULL;
          shepard_map_view_get_interop (probe->view, &reason);
          fprintf (stderr, "shepard-bench-window: interop could not be switched %s: %s\n", interop ? "on" : "off",
                   reason ? reason : "no reason given");
          exit (1);
        }
      /* The first changes after a switch (or a new size) allocate; they are not timed. */
      for (int step = 0; step < warm_up + changes; step++)
        time_change (probe, &series, step >= warm_up);
      ShepardSurface *surface = shepard_window_get_surface (probe->window);
      format_ms (coarse, sizeof coarse, bench_median (series.coarse_ms, series.coarse_count));
      format_ms (fine, sizeof fine, bench_median (series.fine_ms, series.fine_count));
      format_ms (fine_worst, sizeof fine_worst, largest (series.fine_ms, series.fine_count));
      format_ms (compute, sizeof compute, bench_median (series.compute_ms, series.fine_count));
      format_ms (coarse_compute, sizeof coarse_compute, bench_median (series.coarse_compute_ms, series.coarse_count));
      format_ms (presented, sizeof presented, bench_median (series.fine_presented_ms, series.presented_count));
      format_ms (delivered, sizeof delivered, bench_median (series.delivered_ms, series.fine_count));
      format_ms (drawn, sizeof drawn, bench_median (series.drawn_ms, series.fine_count));
      format_ms (painted, sizeof painted, bench_median (series.painted_ms, series.fine_count));
      if (series.coarse_count > 0)
        snprintf (coarse_side, sizeof coarse_side, "%.0f", bench_median (series.coarse_side, series.coarse_count));
      else
        snprintf (coarse_side, sizeof coarse_side, "%s", "—");
      printf ("%5dK  %-16s %4zu x %-4zu %-15s %6s %6s %6s %7s | %7s %7s %7s %7s %7s | %7s\n", size_k,
              weighting->name, surface->grid.width, surface->grid.height,
              !on_gpu ? "CPU engine" : interop ? "CUDA-GL interop" : "host copy", coarse_side, coarse_compute,
              compute, coarse, delivered, drawn, painted, fine, fine_worst, presented);
      if (!on_gpu && !local && preview == CPU_GOAL_PREVIEW && weighting->summation == SHEPARD_SUMMATION_AUTO)
        printf ("        goal: a %d^2 preview of 1M points in <= %.0f ms on the CPU: %s (the drawn %d^2 frame %s ms "
                "after the change, the engine's part %s ms)\n",
                CPU_GOAL_PREVIEW, CPU_GOAL_MS, bench_median (series.fine_ms, series.fine_count) <= CPU_GOAL_MS ? "met"
                                                                                                       : "NOT met",
                CPU_GOAL_PREVIEW, fine, compute);
      fflush (stdout);
      if (on_gpu && interop && local && size_k == GOAL_SIZE_K)
        printf ("        goal: a change to the drawn frame in <= %.0f ms at 100K points, 15 nearest: %s (median "
                "%s ms)\n",
                GOAL_FRAME_MS, bench_median (series.fine_ms, series.fine_count) <= GOAL_FRAME_MS ? "met" : "NOT met",
                fine);
      if (on_gpu && interop && !local && size_k == LIVE_GOAL_SIZE_K && preview == LIVE_GOAL_PREVIEW
          && weighting->method == SHEPARD_METHOD_AIDW && weighting->summation == SHEPARD_SUMMATION_AUTO)
        printf ("        goal: a change to the drawn %d^2 frame in <= %.0f ms at 1M points, all points: %s (median "
                "%s ms)\n",
                LIVE_GOAL_PREVIEW, LIVE_GOAL_MS,
                bench_median (series.fine_ms, series.fine_count) <= LIVE_GOAL_MS ? "met" : "NOT met", fine);
    }
  if (on_gpu)
    set_interop (probe, TRUE);
}

static void
open_layer (Probe *probe, int size_k, const char *folder)
{
  bench_points points;
  g_autofree char *name = g_strdup_printf ("points-%dk.csv", size_k);
  g_autofree char *path = g_build_filename (folder, name, NULL);
  size_t n = (size_t) size_k * 1024;

  if (!bench_points_generate (&points, n, POINT_SEED + (unsigned long long) size_k)
      || !bench_points_write_csv (&points, path))
    {
      fprintf (stderr, "shepard-bench-window: cannot write %zu points to %s\n", n, path);
      exit (2);
    }
  bench_points_free (&points);
  bench_say ("opening %s", path);
  g_autoptr (GFile) file = g_file_new_for_path (path);
  shepard_window_open (probe->window, file, "z");
  /* The advice for a layer too slow for the live preview is a message too, but no failure. */
  const char *message = run_until (window_settled, probe) ? shepard_window_get_message (probe->window) : "timed out";
  if (message != NULL
      && g_strcmp0 (message, shepard_preview_get_slow_advice (shepard_window_get_preview (probe->window))) == 0)
    bench_say ("the window advises: %s", message);
  else if (message != NULL)
    {
      fprintf (stderr, "shepard-bench-window: %s did not open: %s\n", path, message);
      exit (1);
    }
  g_remove (path);
}

static gboolean
parse_list (const char *text, int max, int *values, int *count)
{
  return bench_parse_sizes (text, max, values, MAX_LIST, count);
}

int
main (int argc, char **argv)
{
  int sizes[MAX_LIST] = { 100, 1000 }, n_sizes = 2, previews[MAX_LIST] = { 384, 1024 }, n_previews = 2;
  int changes = DEFAULT_CHANGES;
  gboolean sizes_given = FALSE, far_field = FALSE;

  bench_start ("shepard-bench-window");
  for (int i = 1; i < argc; i++)
    {
      if (g_str_equal (argv[i], "--sizes") && i + 1 < argc && parse_list (argv[i + 1], 16384, sizes, &n_sizes))
        sizes_given = TRUE, i++;
      else if (g_str_equal (argv[i], "--far-field"))
        far_field = TRUE;
      else if (g_str_equal (argv[i], "--previews") && i + 1 < argc
               && parse_list (argv[i + 1], 2048, previews, &n_previews))
        i++;
      else if (g_str_equal (argv[i], "--changes") && i + 1 < argc && atoi (argv[i + 1]) > 0
               && atoi (argv[i + 1]) <= 64)
        changes = atoi (argv[++i]);
      else
        {
          fprintf (stderr, "usage: shepard-bench-window [--sizes 100,1000] [--changes 1..64] [--previews 384,1024] "
                           "[--far-field]\n");
          return 2;
        }
    }
  if (!gtk_init_check ())
    {
      printf ("shepard-bench-window: no display (DISPLAY is unset or cannot be opened)\n");
      return 0;
    }

  Probe probe = { .render_frame = -1, .wait_seconds = WAIT_SECONDS };
  probe.window = shepard_window_new (NULL);
  probe.view = shepard_window_get_map_view (probe.window);
  gtk_window_set_default_size (GTK_WINDOW (probe.window), 1180, 760);
  gtk_window_present (GTK_WINDOW (probe.window));
  g_signal_connect (probe.view, "render", G_CALLBACK (on_render), &probe);
  g_autofree char *folder = g_dir_make_tmp ("shepard-bench-window-XXXXXX", NULL);

  gboolean header = FALSE;
  for (int s = 0; s < n_sizes; s++)
    {
      open_layer (&probe, sizes[s], folder);
      ShepardDocument *document = shepard_window_get_document (probe.window);
      gboolean on_gpu = shepard_document_get_cuda_device (document) >= 0;
      if (!on_gpu && !sizes_given)
        {
          printf ("shepard-bench-window: the engine runs on the CPU (%s); give --sizes to time it anyway\n",
                  shepard_document_get_backend (document));
          break;
        }
      if (!header)
        {
          probe.clock = gtk_widget_get_frame_clock (GTK_WIDGET (probe.view));
          g_signal_connect (probe.clock, "after-paint", G_CALLBACK (on_after_paint), &probe);
          GdkGLContext *context = gtk_gl_area_get_context (GTK_GL_AREA (probe.view));
          gdk_gl_context_make_current (context);
          printf ("engine: %s\nmap: %s, %s\n", shepard_document_get_backend (document), glGetString (GL_RENDERER),
                  glGetString (GL_VERSION));
          printf ("medians of %d changes, in ms. eng.c, eng.f: the engine's own time for the coarse and the fine grid."
                  " From the parameter change:\n  coarse: the end of the frame that shows the coarse grid;"
                  " then for the fine grid: delivered: the window holds it;\n  drawn: the map view starts drawing"
                  " it; painted: GTK's frame clock ends that frame's paint (after-paint);\n  fine: that frame's GL"
                  " work has finished (glFinish); presented: when the frame clock reports it (not under Xvfb).\n"
                  "  The fine grid is computed before the change returns when the last one took <= 8 ms (scaled to the\n"
                  "  cells), by a worker at once when <= 30 ms, else after a coarse one, 150 ms after the hand stops.\n"
                  "  c.side: the coarse grid's longer side, as the preview's cost model chose it.\n",
                  changes);
          printf ("%6s  %-16s %-11s %-15s %6s %6s %6s %7s | %7s %7s %7s %7s %7s | %7s\n", "points", "method",
                  "preview", "path", "c.side", "eng.c", "eng.f", "coarse", "deliver", "drawn", "painted", "fine", "max",
                  "present");
          header = TRUE;
        }
      for (int p = 0; p < n_previews; p++)
        {
          run_configuration (&probe, sizes[s], &local_aidw, previews[p], changes, on_gpu);
          if (far_field && !on_gpu)
            for (size_t w = 0; w < G_N_ELEMENTS (far_field_weightings); w++)
              {
                if (far_field_weightings[w].summation == SHEPARD_SUMMATION_EXACT
                    && previews[p] > BRUTE_FORCE_MAX_PREVIEW)
                  continue;
                run_configuration (&probe, sizes[s], &far_field_weightings[w], previews[p], changes, on_gpu);
              }
          /* The CPU's brute force over all points of a large layer would take minutes a frame. */
          else if (on_gpu || sizes[s] <= 10)
            run_configuration (&probe, sizes[s], &all_points_aidw, previews[p], changes, on_gpu);
        }
    }
  g_rmdir (folder);
  gtk_window_destroy (GTK_WINDOW (probe.window));
  return 0;
}
