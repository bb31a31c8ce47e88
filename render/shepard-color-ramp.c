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

/* diverging: ColorBrewer's RdBu with 11 classes, reversed so that negative is blue, and its near-white middle (#f7f7f7)
 * made white so that a range symmetric about 0 draws 0 as white. */
static const ShepardRampStop diverging_stops[] = {
  { 0.0f, 0x05 / 255.0f, 0x30 / 255.0f, 0x61 / 255.0f },
  { 0.1f, 0x21 / 255.0f, 0x66 / 255.0f, 0xac / 255.0f },
  { 0.2f, 0x43 / 255.0f, 0x93 / 255.0f, 0xc3 / 255.0f },
  { 0.3f, 0x92 / 255.0f, 0xc5 / 255.0f, 0xde / 255.0f },
  { 0.4f, 0xd1 / 255.0f, 0xe5 / 255.0f, 0xf0 / 255.0f },
  { 0.5f, 1.0f, 1.0f, 1.0f },
  { 0.6f, 0xfd / 255.0f, 0xdb / 255.0f, 0xc7 / 255.0f },
  { 0.7f, 0xf4 / 255.0f, 0xa5 / 255.0f, 0x82 / 255.0f },
  { 0.8f, 0xd6 / 255.0f, 0x60 / 255.0f, 0x4d / 255.0f },
  { 0.9f, 0xb2 / 255.0f, 0x18 / 255.0f, 0x2b / 255.0f },
  { 1.0f, 0x67 / 255.0f, 0x00 / 255.0f, 0x1f / 255.0f },
};

/* plasma: matplotlib's 256-entry table at the nine evenly spaced entries 0, 32, 64, 96, 128, 159, 191, 223 and 255;
 * linear interpolation between them stays within 6 levels of 255 of the table. */
static const ShepardRampStop plasma_stops[] = {
  { 0.000f, 0.050383f, 0.029803f, 0.527975f },
  { 0.125f, 0.299855f, 0.009561f, 0.631624f },
  { 0.250f, 0.494877f, 0.011990f, 0.657865f },
  { 0.375f, 0.665129f, 0.138566f, 0.585582f },
  { 0.500f, 0.798216f, 0.280197f, 0.469538f },
  { 0.625f, 0.898984f, 0.420392f, 0.363047f },
  { 0.750f, 0.971835f, 0.580382f, 0.254931f },
  { 0.875f, 0.993482f, 0.765499f, 0.156891f },
  { 1.000f, 0.940015f, 0.975158f, 0.131326f },
};

/* magma, inferno and cividis: viridisLite's nine evenly spaced colours, as viridis. */
static const ShepardRampStop magma_stops[] = {
  { 0.000f, 0x00 / 255.0f, 0x00 / 255.0f, 0x04 / 255.0f },
  { 0.125f, 0x1d / 255.0f, 0x11 / 255.0f, 0x47 / 255.0f },
  { 0.250f, 0x51 / 255.0f, 0x12 / 255.0f, 0x7c / 255.0f },
  { 0.375f, 0x82 / 255.0f, 0x26 / 255.0f, 0x81 / 255.0f },
  { 0.500f, 0xb6 / 255.0f, 0x36 / 255.0f, 0x79 / 255.0f },
  { 0.625f, 0xe6 / 255.0f, 0x51 / 255.0f, 0x64 / 255.0f },
  { 0.750f, 0xfb / 255.0f, 0x88 / 255.0f, 0x61 / 255.0f },
  { 0.875f, 0xfe / 255.0f, 0xc2 / 255.0f, 0x87 / 255.0f },
  { 1.000f, 0xfc / 255.0f, 0xfd / 255.0f, 0xbf / 255.0f },
};

static const ShepardRampStop inferno_stops[] = {
  { 0.000f, 0x00 / 255.0f, 0x00 / 255.0f, 0x04 / 255.0f },
  { 0.125f, 0x1f / 255.0f, 0x0c / 255.0f, 0x48 / 255.0f },
  { 0.250f, 0x55 / 255.0f, 0x0f / 255.0f, 0x6d / 255.0f },
  { 0.375f, 0x88 / 255.0f, 0x22 / 255.0f, 0x6a / 255.0f },
  { 0.500f, 0xba / 255.0f, 0x36 / 255.0f, 0x55 / 255.0f },
  { 0.625f, 0xe3 / 255.0f, 0x59 / 255.0f, 0x32 / 255.0f },
  { 0.750f, 0xf9 / 255.0f, 0x8c / 255.0f, 0x0a / 255.0f },
  { 0.875f, 0xf9 / 255.0f, 0xc9 / 255.0f, 0x32 / 255.0f },
  { 1.000f, 0xfc / 255.0f, 0xff / 255.0f, 0xa4 / 255.0f },
};

static const ShepardRampStop cividis_stops[] = {
  { 0.000f, 0x00 / 255.0f, 0x20 / 255.0f, 0x4d / 255.0f },
  { 0.125f, 0x00 / 255.0f, 0x33 / 255.0f, 0x6f / 255.0f },
  { 0.250f, 0x39 / 255.0f, 0x48 / 255.0f, 0x6b / 255.0f },
  { 0.375f, 0x57 / 255.0f, 0x5d / 255.0f, 0x6d / 255.0f },
  { 0.500f, 0x70 / 255.0f, 0x71 / 255.0f, 0x73 / 255.0f },
  { 0.625f, 0x8a / 255.0f, 0x87 / 255.0f, 0x79 / 255.0f },
  { 0.750f, 0xa6 / 255.0f, 0x9d / 255.0f, 0x75 / 255.0f },
  { 0.875f, 0xc4 / 255.0f, 0xb5 / 255.0f, 0x6c / 255.0f },
  { 1.000f, 0xff / 255.0f, 0xea / 255.0f, 0x46 / 255.0f },
};

/* brown-teal: ColorBrewer's BrBG with 11 classes (brown negative, teal positive), its middle made white as the
 * diverging ramp's. */
static const ShepardRampStop brbg_stops[] = {
  { 0.000f, 0x54 / 255.0f, 0x30 / 255.0f, 0x05 / 255.0f },
  { 0.100f, 0x8c / 255.0f, 0x51 / 255.0f, 0x0a / 255.0f },
  { 0.200f, 0xbf / 255.0f, 0x81 / 255.0f, 0x2d / 255.0f },
  { 0.300f, 0xdf / 255.0f, 0xc2 / 255.0f, 0x7d / 255.0f },
  { 0.400f, 0xf6 / 255.0f, 0xe8 / 255.0f, 0xc3 / 255.0f },
  { 0.500f, 0xff / 255.0f, 0xff / 255.0f, 0xff / 255.0f },
  { 0.600f, 0xc7 / 255.0f, 0xea / 255.0f, 0xe5 / 255.0f },
  { 0.700f, 0x80 / 255.0f, 0xcd / 255.0f, 0xc1 / 255.0f },
  { 0.800f, 0x35 / 255.0f, 0x97 / 255.0f, 0x8f / 255.0f },
  { 0.900f, 0x01 / 255.0f, 0x66 / 255.0f, 0x5e / 255.0f },
  { 1.000f, 0x00 / 255.0f, 0x3c / 255.0f, 0x30 / 255.0f },
};

static const struct {
  const char *name;
  const ShepardRampStop *stops;
  guint n_stops;
} ramps[SHEPARD_COLOR_RAMP_COUNT] = {
  [SHEPARD_COLOR_RAMP_VIRIDIS] = { "viridis", viridis_stops, G_N_ELEMENTS (viridis_stops) },
  [SHEPARD_COLOR_RAMP_TERRAIN] = { "terrain", terrain_stops, G_N_ELEMENTS (terrain_stops) },
  [SHEPARD_COLOR_RAMP_GRAYSCALE] = { "grayscale", grayscale_stops, G_N_ELEMENTS (grayscale_stops) },
  [SHEPARD_COLOR_RAMP_DIVERGING] = { "diverging", diverging_stops, G_N_ELEMENTS (diverging_stops) },
  [SHEPARD_COLOR_RAMP_PLASMA] = { "plasma", plasma_stops, G_N_ELEMENTS (plasma_stops) },
  [SHEPARD_COLOR_RAMP_MAGMA] = { "magma", magma_stops, G_N_ELEMENTS (magma_stops) },
  [SHEPARD_COLOR_RAMP_INFERNO] = { "inferno", inferno_stops, G_N_ELEMENTS (inferno_stops) },
  [SHEPARD_COLOR_RAMP_CIVIDIS] = { "cividis", cividis_stops, G_N_ELEMENTS (cividis_stops) },
  [SHEPARD_COLOR_RAMP_BROWN_TEAL] = { "brown-teal", brbg_stops, G_N_ELEMENTS (brbg_stops) },
};

G_STATIC_ASSERT (G_N_ELEMENTS (viridis_stops) <= SHEPARD_RAMP_MAX_STOPS);
G_STATIC_ASSERT (G_N_ELEMENTS (terrain_stops) <= SHEPARD_RAMP_MAX_STOPS);
G_STATIC_ASSERT (G_N_ELEMENTS (diverging_stops) <= SHEPARD_RAMP_MAX_STOPS);
G_STATIC_ASSERT (G_N_ELEMENTS (plasma_stops) <= SHEPARD_RAMP_MAX_STOPS);
G_STATIC_ASSERT (G_N_ELEMENTS (brbg_stops) <= SHEPARD_RAMP_MAX_STOPS);

static ShepardColorRamp
base_of (ShepardColorRamp ramp)
{
  return (ShepardColorRamp) (ramp & ~SHEPARD_COLOR_RAMP_REVERSED);
}

static gboolean
ramp_is_valid (ShepardColorRamp ramp)
{
  return (int) ramp >= 0 && (int) base_of (ramp) < SHEPARD_COLOR_RAMP_COUNT;
}

gboolean
shepard_color_ramp_is_valid (ShepardColorRamp ramp)
{
  return ramp_is_valid (ramp);
}

/* The reversed ramps' stops, mirrored once: the shaders search rising positions. */
static ShepardRampStop reversed_stops[SHEPARD_COLOR_RAMP_COUNT][SHEPARD_RAMP_MAX_STOPS];

static void
mirror_ramps (void)
{
  for (int r = 0; r < SHEPARD_COLOR_RAMP_COUNT; r++)
    for (guint i = 0; i < ramps[r].n_stops; i++)
      {
        reversed_stops[r][i] = ramps[r].stops[ramps[r].n_stops - 1 - i];
        reversed_stops[r][i].t = 1.0f - reversed_stops[r][i].t;
      }
}

const ShepardRampStop *
_shepard_color_ramp_get_stops (ShepardColorRamp ramp, guint *n_stops)
{
  static gsize mirrored = 0;
  ShepardColorRamp base = base_of (ramp);

  g_assert (ramp_is_valid (ramp));
  *n_stops = ramps[base].n_stops;
  if (!(ramp & SHEPARD_COLOR_RAMP_REVERSED))
    return ramps[base].stops;
  if (g_once_init_enter (&mirrored))
    {
      mirror_ramps ();
      g_once_init_leave (&mirrored, 1);
    }
  return reversed_stops[base];
}

const char *
shepard_color_ramp_to_string (ShepardColorRamp ramp)
{
  g_return_val_if_fail (ramp_is_valid (ramp), NULL);
  return ramps[base_of (ramp)].name;
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

  guint n_stops;
  const ShepardRampStop *stops = _shepard_color_ramp_get_stops (ramp, &n_stops);

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

guint
shepard_color_classes_find (const double *breaks, guint n_classes, double value)
{
  g_return_val_if_fail (breaks != NULL && n_classes > 0, 0);

  guint index = 0;
  /* The same search as the grid's fragment shader: the last class whose lower break the value reaches. */
  for (guint i = 1; i < n_classes; i++)
    if (value >= breaks[i])
      index = i;
  return index;
}

gboolean
shepard_color_ramp_color_for_class (ShepardColorRamp ramp, double value, const double *breaks, guint n_classes,
                                    float rgb[3])
{
  g_return_val_if_fail (ramp_is_valid (ramp), FALSE);
  g_return_val_if_fail (breaks != NULL && n_classes > 0, FALSE);
  g_return_val_if_fail (rgb != NULL, FALSE);

  if (!isfinite (value))
    return FALSE;
  shepard_color_ramp_evaluate (ramp, (shepard_color_classes_find (breaks, n_classes, value) + 0.5) / n_classes, rgb);
  return TRUE;
}
