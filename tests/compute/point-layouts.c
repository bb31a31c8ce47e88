/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "point-layouts.h"

#include <glib.h>
#include <math.h>

#include "seeded-random.h"

const char *
point_layout_name (point_layout layout)
{
  switch (layout)
    {
    case POINT_LAYOUT_UNIFORM:
      return "uniform";
    case POINT_LAYOUT_CLUSTERS:
      return "clusters";
    case POINT_LAYOUT_DUPLICATES:
      return "duplicates";
    case POINT_LAYOUT_UTM:
      return "utm";
    case POINT_LAYOUT_CLUSTER_OUTLIERS:
      return "cluster-outliers";
    }
  g_assert_not_reached ();
}

point_set *
point_set_new_empty (size_t count)
{
  point_set *points = g_new0 (point_set, 1);
  points->count = count;
  points->x = g_new0 (double, count);
  points->y = g_new0 (double, count);
  points->z = g_new0 (double, count);
  return points;
}

void
point_set_free (point_set *points)
{
  g_free (points->x);
  g_free (points->y);
  g_free (points->z);
  g_free (points);
}

/* A smooth surface with noise, positive and of order 100, over the unit square. */
static double
field_value (seeded_random *random, double u, double v)
{
  return 50.0 + 30.0 * sin (5.0 * u) * cos (4.0 * v) + 10.0 * seeded_random_uniform (random);
}

point_set *
point_set_new (point_layout layout, size_t count, uint64_t seed)
{
  enum { CLUSTER_COUNT = 5 };
  const double width = 1000.0, height = 700.0;
  seeded_random random;
  seeded_random_init (&random, seed);
  point_set *points = point_set_new_empty (count);

  double centre_x[CLUSTER_COUNT], centre_y[CLUSTER_COUNT], spread[CLUSTER_COUNT];
  for (int c = 0; c < CLUSTER_COUNT; c++)
    {
      centre_x[c] = seeded_random_range (&random, 0.1 * width, 0.9 * width);
      centre_y[c] = seeded_random_range (&random, 0.1 * height, 0.9 * height);
      spread[c] = width * pow (10.0, seeded_random_range (&random, -3.0, -1.0));
    }

  for (size_t i = 0; i < count; i++)
    {
      double x = 0.0, y = 0.0;
      switch (layout)
        {
        case POINT_LAYOUT_UNIFORM:
          x = seeded_random_range (&random, 0.0, width);
          y = seeded_random_range (&random, 0.0, height);
          break;
        case POINT_LAYOUT_CLUSTERS:
          {
            uint32_t c = seeded_random_below (&random, CLUSTER_COUNT);
            x = centre_x[c] + spread[c] * seeded_random_normal (&random);
            y = centre_y[c] + spread[c] * seeded_random_normal (&random);
          }
          break;
        case POINT_LAYOUT_DUPLICATES:
          if (i > 0 && seeded_random_uniform (&random) < 0.35)
            {
              size_t original = seeded_random_below (&random, (uint32_t) i);
              x = points->x[original];
              y = points->y[original];
            }
          else
            {
              x = seeded_random_range (&random, 0.0, width);
              y = seeded_random_range (&random, 0.0, height);
            }
          break;
        case POINT_LAYOUT_UTM:
          x = 500000.0 + seeded_random_range (&random, 0.0, 2000.0);
          y = 5000000.0 + seeded_random_range (&random, 0.0, 3000.0);
          break;
        case POINT_LAYOUT_CLUSTER_OUTLIERS:
          if (seeded_random_uniform (&random) < 0.95)
            {
              x = 300.0 + 0.01 * seeded_random_normal (&random);
              y = 300.0 + 0.01 * seeded_random_normal (&random);
            }
          else
            {
              x = seeded_random_range (&random, 0.0, width);
              y = seeded_random_range (&random, 0.0, height);
            }
          break;
        }
      points->x[i] = x;
      points->y[i] = y;
      double u = layout == POINT_LAYOUT_UTM ? (x - 500000.0) / 2000.0 : x / width;
      double v = layout == POINT_LAYOUT_UTM ? (y - 5000000.0) / 3000.0 : y / height;
      points->z[i] = field_value (&random, u, v);
    }
  return points;
}
