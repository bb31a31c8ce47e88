/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "layer-scan.h"

#include <math.h>

#include "hull-merge.h"
#include "point-layer.h"
#include "scaled-progress.h"
#include "shepard-app-error.h"

/* An empty scan of n_fields fields, to be filled. */
static ShepardLayerScan *
layer_scan_new (size_t n_fields)
{
  ShepardLayerScan *scan = g_new0 (ShepardLayerScan, 1);

  scan->n_fields = n_fields;
  scan->fields = g_new0 (ShepardFieldExtent, n_fields);
  scan->same = g_new (gboolean, n_fields * n_fields);
  for (size_t i = 0; i < n_fields * n_fields; i++)
    scan->same[i] = TRUE;
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
  g_free (scan->same);
  g_free (scan->leader_of);
  g_free (scan->crs_wkt);
  g_free (scan->layer_name);
  g_strfreev (scan->field_names);
  g_free (scan);
}

/* How a scan cuts the layer into strips across y. */
typedef struct {
  double extent[4]; /* the layer's, as its driver knows it */
  double margin;    /* OGR's filter keeps points on its edges; widened a little, no rounding of the driver's can lose
                       one */
  size_t count;
} Strips;

static gboolean
plan_strips (const ShepardLayerSource *source, size_t points_per_strip, size_t min_strips, Strips *strips,
             GError **error)
{
  gint64 feature_count = 0;

  if (!shepard_point_layer_get_extent (source->source, source->layer, source->open_options, strips->extent,
                                       &feature_count, error))
    return FALSE;
  size_t by_points = feature_count > 0 ? ((size_t) feature_count + points_per_strip - 1) / points_per_strip : 1;
  strips->count = MAX (by_points, min_strips);
  strips->margin = MAX (1e-9 * MAX (strips->extent[3] - strips->extent[1], strips->extent[2] - strips->extent[0]),
                        1e-300);
  return TRUE;
}

/* Adds a strip's points of one field, those in [y_low, y_high) (y_high included for the last strip): a point on the
 * edge between two strips is read by both and counted by one. */
static void
add_field_strip (ShepardFieldExtent *extent, const ShepardPointLayer *points, double y_low, double y_high,
                 gboolean last)
{
  g_autoptr (GArray) kept = g_array_sized_new (FALSE, FALSE, sizeof (shepard_hull_point), (guint) points->count);

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
      g_array_append_val (kept, ((shepard_hull_point) { x, y }));
    }
  shepard_hull_point *candidates = (shepard_hull_point *) kept->data;
  shepard_hull_merge (extent->hull_x, extent->hull_y, candidates,
                      shepard_convex_hull_drop_interior (candidates, kept->len));
}

/* The names as the layer spells them: every strip gives the same. */
static void
take_names (ShepardLayerScan *scan, GPtrArray *fields)
{
  const ShepardPointLayer *first = g_ptr_array_index (fields, 0);

  scan->crs_wkt = g_strdup (first->crs_wkt);
  scan->layer_name = g_strdup (first->layer_name);
  scan->field_names = g_new0 (char *, scan->n_fields + 1);
  for (size_t f = 0; f < scan->n_fields; f++)
    scan->field_names[f] = g_strdup (((const ShepardPointLayer *) g_ptr_array_index (fields, f))->field_name);
}

/* Reads strip number strip and adds its points to scan. */
static gboolean
add_strip (ShepardLayerScan *scan, const ShepardLayerSource *source, const Strips *strips, size_t strip,
           ShepardScaledProgress *progress, GError **error)
{
  const double *extent = strips->extent;
  double height = extent[3] - extent[1];
  gboolean last = strip + 1 == strips->count;
  double y_low = strip == 0 ? extent[1] : extent[1] + height * (double) strip / (double) strips->count;
  double y_high = last ? extent[3] : extent[1] + height * (double) (strip + 1) / (double) strips->count;
  const double rect[4] = { extent[0] - strips->margin, y_low - strips->margin, extent[2] + strips->margin,
                           y_high + strips->margin };
  g_autoptr (GPtrArray) fields = shepard_point_layer_read_fields_in_rect (source->source, source->layer,
                                                                          source->value_fields, source->open_options,
                                                                          rect, shepard_scaled_progress_report,
                                                                          progress, error);
  if (fields == NULL)
    return FALSE;
  size_t n_fields = scan->n_fields;
  for (size_t f = 0; f < n_fields; f++)
    {
      const ShepardPointLayer *points = g_ptr_array_index (fields, f);
      add_field_strip (&scan->fields[f], points, strip == 0 ? -INFINITY : y_low, last ? INFINITY : y_high, last);
      for (size_t g = 0; g < f; g++)
        scan->same[f * n_fields + g] = scan->same[f * n_fields + g]
                                       && shepard_point_layer_same_points (points, g_ptr_array_index (fields, g));
    }
  if (scan->field_names == NULL)
    take_names (scan, fields);
  return TRUE;
}

ShepardLayerScan *
shepard_layer_scan_part (const ShepardLayerSource *source, size_t points_per_strip, size_t part, size_t n_parts,
                         GDALProgressFunc progress, void *progress_data, GError **error)
{
  g_return_val_if_fail (source != NULL && source->source != NULL, NULL);
  g_return_val_if_fail (source->value_fields != NULL && source->value_fields[0] != NULL, NULL);
  g_return_val_if_fail (points_per_strip > 0 && part < n_parts, NULL);

  Strips strips;
  if (!plan_strips (source, points_per_strip, n_parts, &strips, error))
    return NULL;
  g_autoptr (ShepardLayerScan) scan = layer_scan_new (g_strv_length ((char **) source->value_fields));
  size_t n_mine = (strips.count - part + n_parts - 1) / n_parts;
  for (size_t k = 0; k < n_mine; k++)
    {
      ShepardScaledProgress strip_progress = {
        .progress = progress != NULL ? progress : GDALDummyProgress,
        .progress_data = progress_data,
        .start = (double) k / (double) n_mine,
        .span = 1.0 / (double) n_mine,
      };
      if (!add_strip (scan, source, &strips, part + k * n_parts, &strip_progress, error))
        return NULL;
    }
  return g_steal_pointer (&scan);
}

gboolean
shepard_layer_scan_finish (ShepardLayerScan *scan, const char *source, GError **error)
{
  size_t n_fields = scan->n_fields;

  for (size_t f = 0; f < n_fields; f++)
    {
      for (size_t g = 0; g < f && scan->leader_of[f] == f; g++)
        if (scan->leader_of[g] == g && scan->same[f * n_fields + g])
          scan->leader_of[f] = (guint) g;
      if (scan->fields[f].n == 0)
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS,
                       "layer \"%s\" of \"%s\" has no usable point: it needs Point features with a finite \"%s\"",
                       scan->layer_name, source, scan->field_names[f]);
          return FALSE;
        }
    }
  return TRUE;
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
