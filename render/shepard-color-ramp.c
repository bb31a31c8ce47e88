/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-render-private.h"

#include <math.h>
#include <string.h>

/* viridis: the nine evenly spaced colours of viridisLite's viridis(9), which linear interpolation follows to within
 * a few levels of 255. */
static const ShepardRampStop viridis_stops[] = {
  { 0.000f, 0x44 / 255.0f, 0x01 / 255.0f, 0x54 / 255.0f },
  { 0.125f, 0x47 / 255.0f, 0x2c / 255.0f, 0x7a / 255.0f },
  { 0.250f, 0x3b / 255.0f, 0x51 / 255.0f, 0x8b / 255.0f },
  { 0.375f, 0x2c / 255.0f, 0x71 / 255.0f, 0x8e / 255.0f },
  { 0.500f, 0x21 / 255.0f, 0x90 / 255.0f, 0x8d / 255.0f },
  { 0.625f, 0x27 / 255.0f, 0xad / 255.0f, 0x81 / 255.0f },
  { 0.750f, 0x5c / 255.0f, 0xc8 / 255.0f, 0x63 / 255.0f },
  { 0.875f, 0xaa / 255.0f, 0xdc / 255.0f, 0x32 / 255.0f },
  { 1.000f, 0xfd / 255.0f, 0xe7 / 255.0f, 0x25 / 255.0f },
};

/* terrain: matplotlib's control points (sea blue, green lowland, sand, brown, snow). */
static const ShepardRampStop terrain_stops[] = {
  { 0.00f, 0.2f, 0.2f, 0.6f },
  { 0.15f, 0.0f, 0.6f, 1.0f },
  { 0.25f, 0.0f, 0.8f, 0.4f },
  { 0.50f, 1.0f, 1.0f, 0.6f },
  { 0.75f, 0.5f, 0.36f, 0.33f },
  { 1.00f, 1.0f, 1.0f, 1.0f },
};

static const ShepardRampStop grayscale_stops[] = {
  { 0.0f, 0.0f, 0.0f, 0.0f },
  { 1.0f, 1.0f, 1.0f, 1.0f },
};

static const struct {
  const char *name;
  const ShepardRampStop *stops;
  guint n_stops;
} ramps[SHEPARD_COLOR_RAMP_COUNT] = {
  [SHEPARD_COLOR_RAMP_VIRIDIS] = { "viridis", viridis_stops, G_N_ELEMENTS (viridis_stops) },
  [SHEPARD_COLOR_RAMP_TERRAIN] = { "terrain", terrain_stops, G_N_ELEMENTS (terrain_stops) },
  [SHEPARD_COLOR_RAMP_GRAYSCALE] = { "grayscale", grayscale_stops, G_N_ELEMENTS (grayscale_stops) },
};

G_STATIC_ASSERT (G_N_ELEMENTS (viridis_stops) <= SHEPARD_RAMP_MAX_STOPS);
G_STATIC_ASSERT (G_N_ELEMENTS (terrain_stops) <= SHEPARD_RAMP_MAX_STOPS);

static gboolean
ramp_is_valid (ShepardColorRamp ramp)
{
  return (int) ramp >= 0 && (int) ramp < SHEPARD_COLOR_RAMP_COUNT;
}

const ShepardRampStop *
_shepard_color_ramp_get_stops (ShepardColorRamp ramp, guint *n_stops)
{
  g_assert (ramp_is_valid (ramp));
  *n_stops = ramps[ramp].n_stops;
  return ramps[ramp].stops;
}

const char *
shepard_color_ramp_to_string (ShepardColorRamp ramp)
{
  g_return_val_if_fail (ramp_is_valid (ramp), NULL);
  return ramps[ramp].name;
}

gboolean
shepard_color_ramp_from_string (const char *name, ShepardColorRamp *ramp)
{
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (ramp != NULL, FALSE);

  for (int i = 0; i < SHEPARD_COLOR_RAMP_COUNT; i++)
    {
      if (strcmp (name, ramps[i].name) == 0)
        {
          *ramp = (ShepardColorRamp) i;
          return TRUE;
        }
    }
  return FALSE;
}

void
shepard_color_ramp_evaluate (ShepardColorRamp ramp, double t, float rgb[3])
{
  g_return_if_fail (ramp_is_valid (ramp));
  g_return_if_fail (rgb != NULL);

  const ShepardRampStop *stops = ramps[ramp].stops;
  guint n_stops = ramps[ramp].n_stops;

  t = isnan (t) ? 0.5 : CLAMP (t, 0.0, 1.0);
  /* The same search and interpolation as ramp() in the fragment shader (shepard-renderer.c). */
  rgb[0] = stops[0].r;
  rgb[1] = stops[0].g;
  rgb[2] = stops[0].b;
  for (guint i = 1; i < n_stops; i++)
    {
      const ShepardRampStop *a = &stops[i - 1];
      const ShepardRampStop *b = &stops[i];

      if (t >= a->t && t <= b->t)
        {
          double f = (t - a->t) / (b->t - a->t);

          rgb[0] = (float) (a->r + (b->r - a->r) * f);
          rgb[1] = (float) (a->g + (b->g - a->g) * f);
          rgb[2] = (float) (a->b + (b->b - a->b) * f);
          break;
        }
    }
}

gboolean
shepard_color_ramp_color_for_value (ShepardColorRamp ramp, double value, double min, double max, float rgb[3])
{
  g_return_val_if_fail (ramp_is_valid (ramp), FALSE);
  g_return_val_if_fail (rgb != NULL, FALSE);

  if (!isfinite (value))
    return FALSE;
  shepard_color_ramp_evaluate (ramp, max > min ? (value - min) / (max - min) : 0.5, rgb);
  return TRUE;
}
