/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The raster's extent and size, from -txe/-tye/--margin, -tap and -outsize/-tr to the grid, as shepard-grid plans
 * it (shepard_grid_plan), and the preview's grid over the points' box, as the window plans it. The input's first
 * line is the points' bounding box "XMIN YMIN XMAX YMAX" (meuse's when it is not four finite numbers in order); the
 * other words (split on NUL bytes and newlines) follow "-zfield z in.csv out.tif" on the command line. Whatever is
 * accepted must give a grid of finite, positive cells whose edges are finite. */
#include <math.h>
#include <string.h>

#include "export-extent.h"
#include "fuzz-support.h"
#include "grid-command-line.h"
#include "grid-extent.h"
#include "grid-plan.h"

#define PREVIEW_LONG_SIDE 512

static const double meuse_bounds[4] = { 178605.0, 329714.0, 181390.0, 333611.0 };

/* The bounds read from the first line; returns where the command-line words start. */
static size_t
read_bounds (const uint8_t *data, size_t size, double bounds[4])
{
  const uint8_t *newline = memchr (data, '\n', size);
  size_t line_length = newline != NULL ? (size_t) (newline - data) : size;
  g_autofree char *line = g_strndup ((const char *) data, line_length);
  g_auto (GStrv) numbers = g_strsplit (line, " ", -1);
  gboolean valid = g_strv_length (numbers) == 4;

  for (int i = 0; valid && i < 4; i++)
    {
      char *end = NULL;
      bounds[i] = g_ascii_strtod (numbers[i], &end);
      valid = end != numbers[i] && *end == '\0' && isfinite (bounds[i]);
    }
  if (!valid || !(bounds[0] <= bounds[2]) || !(bounds[1] <= bounds[3]))
    memcpy (bounds, meuse_bounds, sizeof meuse_bounds);
  return newline != NULL ? line_length + 1 : size;
}

/* edges_fit: whether the grid's box is narrower than the largest double; a preview of points spread wider than that
 * has finite cells but edges that overflow, and the engine refuses it with a message (shepard_engine_check_grid). */
static void
check_grid (const char *what, const shepard_grid *grid, bool edges_fit)
{
  double x_max = grid->x_min + (double) grid->width * grid->dx;
  double y_min = grid->y_max - (double) grid->height * grid->dy;

  SHEPARD_FUZZ_CHECK (grid->width >= 1 && grid->width <= SHEPARD_GRID_MAX_SIZE && grid->height >= 1
                        && grid->height <= SHEPARD_GRID_MAX_SIZE,
                      "%s: %zu x %zu cells", what, grid->width, grid->height);
  SHEPARD_FUZZ_CHECK (isfinite (grid->dx) && grid->dx > 0.0 && isfinite (grid->dy) && grid->dy > 0.0,
                      "%s: cells of %g x %g", what, grid->dx, grid->dy);
  SHEPARD_FUZZ_CHECK (isfinite (grid->x_min) && isfinite (grid->y_max)
                        && (!edges_fit || (isfinite (x_max) && isfinite (y_min))),
                      "%s: edges x %g..%g, y %g..%g", what, grid->x_min, x_max, y_min, grid->y_max);
}

/* shepard-grid's grid, planned by the function it calls. */
static void
plan_export_grid (const ShepardGridOptions *options, const double bounds[4])
{
  double extent[4];
  shepard_grid grid;
  g_autoptr (GError) error = NULL;

  if (!shepard_grid_plan (options, bounds, extent, &grid, &error))
    return;
  SHEPARD_FUZZ_CHECK (isfinite (extent[0]) && isfinite (extent[1]) && isfinite (extent[2]) && isfinite (extent[3]),
                      "box %g %g %g %g grown by %g%% to %g %g %g %g", bounds[0], bounds[1], bounds[2], bounds[3],
                      options->margin_percent, extent[0], extent[1], extent[2], extent[3]);
  check_grid ("export", &grid, true);
  SHEPARD_FUZZ_CHECK (grid.x_min == extent[0] && grid.y_max == extent[3], "the grid moved the extent's corner");
  const double corners[4] = { extent[0], extent[2], extent[1], extent[3] };
  int decimals = shepard_export_decimals (corners, G_N_ELEMENTS (corners), MIN (grid.dx, grid.dy));
  SHEPARD_FUZZ_CHECK (decimals >= 0, "%d decimals", decimals);
  double geotransform[6];
  shepard_grid_geotransform (&grid, geotransform);

  if (options->target_aligned)
    {
      ShepardGridOptions unaligned_options = *options;
      unaligned_options.target_aligned = FALSE;
      double unaligned[4];
      shepard_grid unaligned_grid;
      g_autoptr (GError) unaligned_error = NULL;
      /* Without -tap the smaller extent can leave no cell of -tr: then there is nothing to compare. */
      if (!shepard_grid_plan (&unaligned_options, bounds, unaligned, &unaligned_grid, &unaligned_error))
        return;
      SHEPARD_FUZZ_CHECK (extent[0] <= unaligned[0] && extent[1] <= unaligned[1] && extent[2] >= unaligned[2]
                            && extent[3] >= unaligned[3],
                          "-tap shrank x %g..%g, y %g..%g to x %g..%g, y %g..%g", unaligned[0], unaligned[2],
                          unaligned[1], unaligned[3], extent[0], extent[2], extent[1], extent[3]);
    }
}

static void
plan_preview_grid (const double bounds[4])
{
  double extent[4];
  shepard_grid grid;

  shepard_extent_of_points (bounds[0], bounds[1], bounds[2], bounds[3], extent);
  shepard_grid_for_preview (extent, PREVIEW_LONG_SIDE, &grid);
  check_grid ("preview", &grid, isfinite (extent[2] - extent[0]) && isfinite (extent[3] - extent[1]));
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  shepard_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  double bounds[4];
  size_t words_start = read_bounds (data, size, bounds);
  int n_words = 0;
  g_auto (GStrv) words = shepard_fuzz_split_words (data + words_start, size - words_start, "shepard-grid", &n_words);
  const char *fixed[] = { "-zfield", "z", "in.csv", "out.tif" };
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();

  g_ptr_array_add (argv, words[0]);
  for (size_t i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (argv, (gpointer) fixed[i]);
  for (int i = 1; i < n_words; i++)
    g_ptr_array_add (argv, words[i]);
  g_ptr_array_add (argv, NULL);

  g_auto (ShepardGridOptions) options = { 0 };
  g_autoptr (GError) error = NULL;
  if (shepard_grid_options_parse (&options, (int) argv->len - 1, (const char *const *) argv->pdata, &error)
      && !options.help)
    plan_export_grid (&options, bounds);
  plan_preview_grid (bounds);
  return 0;
}
