/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The window's resident memory stays flat while a hand works it: after a warm-up, 1,000 parameter changes and 100
 * zooms on meuse leave it within 10 % of where it was. Surfaces of changing sizes (the preview's coarse and fine
 * grids, and a zoomed view's own) come and go all the while; what they leave behind shows here. */
#include <gtk/gtk.h>

#include "memory-tuning.h"
#include "shepard-map-view.h"
#include "shepard-parameter-panel.h"
#include "ui-test-support.h"

#define WARM_UP_CHANGES 100
#define CHANGES 1000
#define ZOOMS 100
/* Every so many changes the hand stops and the refined surface arrives; in between, changes come faster than the
 * preview answers, and most of them are overtaken. */
#define CHANGES_PER_PAUSE 10
#define RSS_GROWTH_ALLOWED 0.10
/* Fine surfaces of a million cells (the preview's longer side goes up to 2,048), of a few megabytes each: the sizes
 * whose coming and going leaves an allocator's arenas fragmented. */
#define PREVIEW_CELLS 1024

static ShepardWindow *window;

static void
change_parameters (int step)
{
  shepard_params params;

  shepard_window_get_params (window, &params);
  /* Power and α3 over values that keep AIDW's levels in order; every step is a real change. */
  params.power = 1.5 + 0.05 * (step % 20);
  params.alpha[2] = 2.1 + 0.04 * (step % 20);
  shepard_window_set_params (window, &params);
  if (step % CHANGES_PER_PAUSE == 0)
    g_assert_true (wait_until (is_settled, window));
  else
    let_frames_pass (16);
}

/* In by a quarter, out again, each step waiting for the view's surface; a hundred of them from start to end. */
static void
zoom (int step)
{
  ShepardMapView *map_view = window_child (window, "map_view");

  shepard_map_view_zoom (map_view, step % 2 == 0 ? 1.25 : 0.8);
  let_frames_pass (50);
  g_assert_true (wait_until (is_settled, window));
}

static void
work (int changes, int zooms)
{
  for (int step = 1; step <= changes; step++)
    {
      change_parameters (step);
      if (zooms > 0 && step % (changes / zooms) == 0)
        zoom (step / (changes / zooms));
    }
  g_assert_true (wait_until (is_settled, window));
  let_frames_pass (300);
}

static void
test_memory_flat (void)
{
#ifdef __SANITIZE_ADDRESS__
  /* Its quarantine and shadow memory make the resident size a measure of AddressSanitizer, not of the window. */
  g_test_skip ("AddressSanitizer keeps freed memory in quarantine: resident memory says nothing here");
  return;
#endif
  g_autoptr (GFile) file = g_file_new_for_path (meuse_path ());

  shepard_window_open (window, file, "zinc");
  g_assert_true (wait_until (is_settled, window));
  shepard_parameter_panel_set_preview_cells (window_child (window, "parameter_panel"), PREVIEW_CELLS);
  g_assert_true (wait_until (is_settled, window));

  work (WARM_UP_CHANGES, WARM_UP_CHANGES * ZOOMS / CHANGES);
  double warm = resident_bytes ();
  g_test_message ("after the warm-up (%d changes): resident %.1f MiB", WARM_UP_CHANGES, warm / 1048576);

  gint64 start = g_get_monotonic_time ();
  for (int part = 1; part <= 10; part++)
    {
      work (CHANGES / 10, ZOOMS / 10);
      g_test_message ("after %d changes and %d zooms: resident %.1f MiB", part * CHANGES / 10, part * ZOOMS / 10,
                      resident_bytes () / 1048576);
    }
  double end = resident_bytes ();
  g_test_message ("%d changes and %d zooms in %.0f s: resident %.1f → %.1f MiB (%+.1f %%)", CHANGES, ZOOMS,
                  (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC, warm / 1048576, end / 1048576,
                  100 * (end / warm - 1));
  g_assert_cmpfloat (end, <=, warm * (1 + RSS_GROWTH_ALLOWED));
}

int
main (int argc, char *argv[])
{
  /* As the application's main() does. */
  shepard_tune_memory ();
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_print ("1..0 # SKIP no display\n");
      return 0;
    }
  window = present_test_window ();

  g_test_add_func ("/ui/memory/flat", test_memory_flat);
  int status = g_test_run ();
  gtk_window_destroy (GTK_WINDOW (window));
  return status;
}
