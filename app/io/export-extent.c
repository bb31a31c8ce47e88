/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "export-extent.h"

#include <math.h>

#include "shepard-app-error.h"

#define SIGNIFICANT_DIGITS 6

gboolean
shepard_export_extent (const double bounds[4], double margin_percent, double extent[4], GError **error)
{
  g_return_val_if_fail (bounds != NULL && extent != NULL, FALSE);

  if (!isfinite (margin_percent) || margin_percent < 0.0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the margin must be a percentage of 0 or more, not %g", margin_percent);
      return FALSE;
    }
  double margin = MAX (bounds[2] - bounds[0], bounds[3] - bounds[1]) * margin_percent / 100.0;
  double grown[4] = { bounds[0] - margin, bounds[1] - margin, bounds[2] + margin, bounds[3] + margin };
  /* Finite points can lie more than the largest double apart, and a large margin can take the box past it. */
  if (!isfinite (grown[2] - grown[0]) || !isfinite (grown[3] - grown[1]))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the points' box (x %.10g to %.10g, y %.10g to %.10g) grown by %g%% is too large to compute with: "
                   "give the raster's extent%s",
                   bounds[0], bounds[2], bounds[1], bounds[3], margin_percent,
                   margin_percent > 0.0 ? " or a smaller margin" : "");
      return FALSE;
    }
  if (!(grown[2] > grown[0]) || !(grown[3] > grown[1]))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_DEGENERATE_AREA,
                   "the points span no area (x %.10g to %.10g, y %.10g to %.10g): give the raster's extent, or a "
                   "margin when they lie on a line",
                   bounds[0], bounds[2], bounds[1], bounds[3]);
      return FALSE;
    }
  for (int i = 0; i < 4; i++)
    extent[i] = grown[i];
  return TRUE;
}

static gboolean
shows_exactly (double value, int decimals)
{
  double scaled = value * pow (10.0, decimals);

  return fabs (scaled - round (scaled)) <= 1e-6;
}

int
shepard_export_decimals (const double *coordinates, size_t n, double cell_size)
{
  g_return_val_if_fail (coordinates != NULL || n == 0, 0);
  g_return_val_if_fail (isfinite (cell_size) && cell_size > 0.0, 0);

  int most = MAX (0, SIGNIFICANT_DIGITS - 1 - (int) floor (log10 (cell_size)));
  int cell_decimals = 0;
  while (cell_decimals < most && !shows_exactly (cell_size, cell_decimals))
    cell_decimals++;
  int decimals = 0;
  for (size_t i = 0; i < n; i++)
    while (decimals < cell_decimals && !shows_exactly (coordinates[i], decimals))
      decimals++;
  return decimals;
}
