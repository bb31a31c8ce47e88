/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "layer-scan.h"

#include <math.h>

#include "point-layer.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"

ShepardLayerScan *
shepard_layer_scan_new (size_t n_fields)
{
  ShepardLayerScan *scan = g_new0 (ShepardLayerScan, 1);

  scan->n_fields = n_fields;
  scan->fields = g_new0 (ShepardFieldExtent, n_fields);
  scan->leader_of = g_new0 (guint, n_fields);
  for (size_t f = 0; f < n_fields; f++)
    {
      scan->fields[f] = (ShepardFieldExtent) {
        .x_min = INFINITY, .y_min = INFINITY, .x_max = -INFINITY, .y_max = -INFINITY,
        .z_min = INFINITY, .z_max = -INFINITY,
        .hull_x = g_array_new (FALSE, FALSE, sizeof (double)),
        .hull_y = g_array_new (FALSE, FALSE, sizeof (double)),
      };
      scan->leader_of[f] = (guint) f;
    }
  return scan;
}

void
shepard_layer_scan_free (ShepardLayerScan *scan)
{
  if (scan == NULL)
    return;
  for (size_t f = 0; f < scan->n_fields; f++)
    {
      g_array_unref (scan->fields[f].hull_x);
      g_array_unref (scan->fields[f].hull_y);
    }
  g_free (scan->fields);
  g_free (scan->leader_of);
  g_free (scan->crs_wkt);
  g_free (scan->layer_name);
  g_strfreev (scan->field_names);
  g_free (scan);
}

typedef struct {
  double x, y;
} Vertex;

static int
compare_vertices (gconstpointer a, gconstpointer b)
{
  const Vertex *p = a, *q = b;

  if (p->x != q->x)
    return p->x < q->x ? -1 : 1;
  return p->y < q->y ? -1 : p->y > q->y;
}

static double
cross (const Vertex *o, const Vertex *a, const Vertex *b)
{
  return (a->x - o->x) * (b->y - o->y) - (a->y - o->y) * (b->x - o->x);
}

/* Replaces the field's hull vertices by those of the hull of them and n more points (Andrew's monotone chain). A
 * vertex of the whole layer's hull is a vertex of the hull of any of its subsets that holds it, so hulls of strips
 * merged one by one end as the layer's. */
static void
merge_hull (ShepardFieldExtent *extent, const double *x, const double *y, size_t n)
{
  size_t total = extent->hull_x->len + n;
  if (total == 0)
    return;
  g_autofree Vertex *points = g_new (Vertex, total);
  g_autofree Vertex *hull = g_new (Vertex, 2 * total + 1);
  size_t count = 0;

  for (guint i = 0; i < extent->hull_x->len; i++)
    points[i] = (Vertex) { g_array_index (extent->hull_x, double, i), g_array_index (extent->hull_y, double, i) };
  for (size_t i = 0; i < n; i++)
    points[extent->hull_x->len + i] = (Vertex) { x[i], y[i] };
  qsort (points, total, sizeof *points, compare_vertices);
  for (size_t i = 0; i < total; i++)
    {
      while (count >= 2 && cross (&hull[count - 2], &hull[count - 1], &points[i]) <= 0.0)
        count--;
      hull[count++] = points[i];
    }
  for (size_t i = total - 1, lower = count + 1; i-- > 0;)
    {
      while (count >= lower && cross (&hull[count - 2], &hull[count - 1], &points[i]) <= 0.0)
        count--;
      hull[count++] = points[i];
    }
  count = total > 1 ? count - 1 : total;
  g_array_set_size (extent->hull_x, 0);
  g_array_set_size (extent->hull_y, 0);
  for (size_t i = 0; i < count; i++)
    {
      g_array_append_val (extent->hull_x, hull[i].x);
      g_array_append_val (extent->hull_y, hull[i].y);
    }
}

/* Adds a strip's points of one field, those in [y_low, y_high) (y_high included for the last strip): a point on the
 * edge between two strips is read by both and counted by one. */
static void
add_strip (ShepardFieldExtent *extent, const ShepardPointLayer *points, double y_low, double y_high, gboolean last)
{
  g_autoptr (GArray) kept_x = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr (GArray) kept_y = g_array_new (FALSE, FALSE, sizeof (double));

  for (size_t i = 0; i < points->count; i++)
    {
      double x = points->x[i], y = points->y[i], z = points->z[i];
      if (y < y_low || (last ? y > y_high : y >= y_high))
        continue;
      extent->n++;
      extent->x_min = MIN (extent->x_min, x);
      extent->x_max = MAX (extent->x_max, x);
      extent->y_min = MIN (extent->y_min, y);
      extent->y_max = MAX (extent->y_max, y);
      extent->z_min = MIN (extent->z_min, z);
      extent->z_max = MAX (extent->z_max, z);
      g_array_append_val (kept_x, x);
      g_array_append_val (kept_y, y);
    }
  merge_hull (extent, (const double *) kept_x->data, (const double *) kept_y->data, kept_x->len);
}

ShepardLayerScan *
shepard_layer_scan (const char *source, const char *layer, const char *const *value_fields,
                    const char *const *open_options, size_t points_per_strip, GDALProgressFunc progress,
                    void *progress_data, GError **error)
{
  g_return_val_if_fail (source != NULL && value_fields != NULL && value_fields[0] != NULL, NULL);
  g_return_val_if_fail (points_per_strip > 0, NULL);

  double layer_extent[4];
  gint64 feature_count = 0;
  if (!shepard_point_layer_get_extent (source, layer, open_options, layer_extent, &feature_count, error))
    return NULL;
  size_t n_strips = feature_count > 0 ? MAX ((size_t) 1, ((size_t) feature_count + points_per_strip - 1)
                                                           / points_per_strip)
                                      : 1;
  g_autoptr (ShepardLayerScan) scan = shepard_layer_scan_new (g_strv_length ((char **) value_fields));
  size_t n_fields = scan->n_fields;
  /* same[f * n_fields + g]: fields f and g have a value in the same rows of every strip so far. */
  g_autofree gboolean *same = g_new (gboolean, n_fields * n_fields);
  for (size_t i = 0; i < n_fields * n_fields; i++)
    same[i] = TRUE;
  double height = layer_extent[3] - layer_extent[1];
  /* OGR's filter keeps points on its edges; widened a little, no rounding of the driver's can lose one. */
  double margin = MAX (1e-9 * MAX (height, layer_extent[2] - layer_extent[0]), 1e-300);

  for (size_t strip = 0; strip < n_strips; strip++)
    {
      gboolean last = strip + 1 == n_strips;
      double y_low = strip == 0 ? layer_extent[1] : layer_extent[1] + height * (double) strip / (double) n_strips;
      double y_high = last ? layer_extent[3] : layer_extent[1] + height * (double) (strip + 1) / (double) n_strips;
      const double rect[4] = { layer_extent[0] - margin, y_low - margin, layer_extent[2] + margin, y_high + margin };
      ShepardScaledProgress strip_progress = {
        .progress = progress != NULL ? progress : GDALDummyProgress,
        .progress_data = progress_data,
        .start = (double) strip / (double) n_strips,
        .span = 1.0 / (double) n_strips,
      };
      g_autoptr (GPtrArray) fields = shepard_point_layer_read_fields_in_rect (source, layer, value_fields,
                                                                              open_options, rect,
                                                                              shepard_scaled_progress_report,
                                                                              &strip_progress, error);
      if (fields == NULL)
        return NULL;
      for (size_t f = 0; f < scan->n_fields; f++)
        {
          const ShepardPointLayer *points = g_ptr_array_index (fields, f);
          add_strip (&scan->fields[f], points, strip == 0 ? -INFINITY : y_low, last ? INFINITY : y_high, last);
          for (size_t g = 0; g < f; g++)
            same[f * n_fields + g] = same[f * n_fields + g]
                                     && shepard_point_layer_same_points (points, g_ptr_array_index (fields, g));
        }
      if (strip == 0)
        {
          const ShepardPointLayer *first = g_ptr_array_index (fields, 0);
          scan->crs_wkt = g_strdup (first->crs_wkt);
          scan->layer_name = g_strdup (first->layer_name);
          scan->field_names = g_new0 (char *, scan->n_fields + 1);
          for (size_t f = 0; f < scan->n_fields; f++)
            scan->field_names[f] = g_strdup (((const ShepardPointLayer *) g_ptr_array_index (fields, f))->field_name);
        }
    }
  for (size_t f = 0; f < scan->n_fields; f++)
    {
      for (size_t g = 0; g < f && scan->leader_of[f] == f; g++)
        if (scan->leader_of[g] == g && same[f * n_fields + g])
          scan->leader_of[f] = (guint) g;
      if (scan->fields[f].n == 0)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS,
                       "layer \"%s\" of \"%s\" has no usable point: it needs Point features with a finite \"%s\"",
                       scan->layer_name, source, scan->field_names[f]);
          return NULL;
        }
    }
  return g_steal_pointer (&scan);
}

void
shepard_layer_scan_bounds (const ShepardLayerScan *scan, double bounds[4])
{
  bounds[0] = bounds[1] = INFINITY;
  bounds[2] = bounds[3] = -INFINITY;
  for (size_t f = 0; f < scan->n_fields; f++)
    {
      bounds[0] = MIN (bounds[0], scan->fields[f].x_min);
      bounds[1] = MIN (bounds[1], scan->fields[f].y_min);
      bounds[2] = MAX (bounds[2], scan->fields[f].x_max);
      bounds[3] = MAX (bounds[3], scan->fields[f].y_max);
    }
}

void
shepard_layer_scan_group_extent (const ShepardLayerScan *scan, guint leader, shepard_layer_extent *whole)
{
  const ShepardFieldExtent *extent = &scan->fields[leader];
  size_t member = 0;

  *whole = (shepard_layer_extent) {
    .n = extent->n,
    .x_min = extent->x_min, .y_min = extent->y_min, .x_max = extent->x_max, .y_max = extent->y_max,
    .hull_x = (const double *) extent->hull_x->data,
    .hull_y = (const double *) extent->hull_y->data,
    .hull_count = extent->hull_x->len,
  };
  for (size_t f = 0; f < scan->n_fields; f++)
    if (scan->leader_of[f] == leader)
      {
        whole->z_min[member] = scan->fields[f].z_min;
        whole->z_max[member++] = scan->fields[f].z_max;
      }
}
