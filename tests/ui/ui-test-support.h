/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What the window tests share: waiting on the main loop, the sample's path, and reaching widgets' insides. */
#ifndef SHEPARD_UI_TEST_SUPPORT_H
#define SHEPARD_UI_TEST_SUPPORT_H

#include <gtk/gtk.h>

#include "main-loop-wait.h"
#include "shepard-export-dialog.h"
#include "shepard-window.h"

/* Conditions on a ShepardWindow: idle with a surface; idle with a message shown. */
gboolean is_settled (gpointer data);
gboolean has_message (gpointer data);
/* Condition on an int: set to non-zero. */
gboolean is_nonzero (gpointer data);

const char *meuse_path (void);
/* Where a test run keeps a screenshot called name: a folder of its own under the build tree (SHEPARD_TEST_RUN), as
 * runs of one program on other GL contexts go in parallel and would otherwise write the same file at once. */
char *screenshot_path (const char *name);

/* The widget's first event controller of type (borrowed). */
gpointer find_controller (GtkWidget *widget, GType type);
gpointer dialog_child (ShepardExportDialog *dialog, const char *name);

/* "finished" handler: *state becomes 1 when the raster was written, 2 when not. */
void on_export_finished (ShepardExportDialog *dialog, gboolean written, int *state);

/* A new window without an application, at the size the window tests' pixel positions assume, presented. */
ShepardWindow *present_test_window (void);

gpointer window_child (ShepardWindow *window, const char *name);
void assert_near (double actual, double expected, double tolerance);

/* What the screen shows: the window drawn by its own renderer, GL view included. */
GdkTexture *capture_window (ShepardWindow *window);

typedef struct {
  guchar *data;
  int width, height;
  gsize stride;
} Pixels;

void pixels_from_texture (GdkTexture *texture, Pixels *pixels);
void pixel_rgb (const Pixels *pixels, int x, int y, int rgb[3]);

/* The cell of the window's surface, among those whose value in values lies in [lowest, highest], that lies far from
 * every data dot and whose 5 x 5 neighbourhood spans the least: where no rounding of the cell's position can move the
 * colour. FALSE when none qualifies. */
gboolean pick_smooth_cell (ShepardWindow *window, const float *values, double lowest, double highest,
                           size_t *row, size_t *col);

/* Picks a cell far from every data dot, where the surface is smooth enough that no rounding of the cell's position
 * can move the colour, and asserts that the window shows the ramp's colour of values (the surface's grid, as the
 * engine computed it) there. Saves the window as screenshot_name in G_TEST_BUILDDIR for a look by eye. */
void assert_window_pixel_matches_surface (ShepardWindow *window, const float *values, const char *screenshot_name);

/* The map's GL context is the one SHEPARD_TEST_EXPECT_GL names ("3.2": desktop 3.2; "es3.0": OpenGL ES 3.0); skips
 * when the variable is unset. Logs the driver's version string. */
void assert_map_gl_context (ShepardWindow *window);

/* The engine asked for grid on its own (NULL cancellable), waited for. */
ShepardSurface *interpolate_and_wait (ShepardDocument *document, const shepard_params *params,
                                      const shepard_grid *grid);

/* Reads the status bar's pointer read-out of meuse's zinc, "181 234, 331 456 (EPSG:28992) · 50.99°N 5.73°E   zinc
 * 412.3   α 2.105" (whole metres, thin spaces between thousands), asserting its form. */
void read_zinc_status (const char *text, double *x, double *y, double *value, double *alpha);

/* Activates what widget's shortcuts (its class's key bindings) bind to keyval without modifiers, as a key press that
 * reaches widget does: GTK 4.8 cannot make key events. Fails the test when nothing binds it. */
void press_key (GtkWidget *widget, guint keyval);
/* The same with modifiers (GDK_CONTROL_MASK...). */
void press_keys (GtkWidget *widget, guint keyval, GdkModifierType modifiers);

/* The app's settings (the tests' memory backend). */
GSettings *new_settings (void);
/* A signal handler that counts its emissions into *count. */
void count_signal (gpointer instance, int *count);
/* What the user does: types text into spin, then presses Enter or leaves the field (both end in
 * gtk_spin_button_update). */
void enter_text (GtkSpinButton *spin, const char *text);

/* This process's resident size in bytes (/proc/self/statm). */
double resident_bytes (void);

#endif
