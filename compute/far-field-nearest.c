/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The k nearest data points of a tile of queries, from one search of the far field's tree (shepard_far_field_nearest):
 * AIDW's r_obs and each query's nearest distance, where the far field sums a grid. */
#include "far-field.h"

#include "far-field-tree.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Offers d2 to the k smallest so far, ascending in best[0 .. k). */
static inline void
offer_nearest (double *best, size_t k, double d2)
{
  if (!(d2 < best[k - 1]))
    return;
  size_t j = k - 1;
  for (; j > 0 && best[j - 1] > d2; j--)
    best[j] = best[j - 1];
  best[j] = d2;
}

/* Restores the max-heap of value[0 .. count) (with its points in index) below root. */
static inline void
sift_down (double *value, size_t *index, size_t count, size_t root)
{
  for (;;)
    {
      size_t largest = root, left = 2 * root + 1, right = left + 1;
      if (left < count && value[left] > value[largest])
        largest = left;
      if (right < count && value[right] > value[largest])
        largest = right;
      if (largest == root)
        return;
      double swap_value = value[root];
      value[root] = value[largest];
      value[largest] = swap_value;
      size_t swap_index = index[root];
      index[root] = index[largest];
      index[largest] = swap_index;
      root = largest;
    }
}

/* The squared distances from (qx, qy) to some k points, the nearest the walk meets first: best[k - 1] bounds the
 * k-th nearest distance from above. Subtrees that cannot hold a nearer point are passed over. */
static void
bound_nearest (const shepard_far_field *far_field, double qx, double qy, size_t k, double *best)
{
  for (size_t j = 0; j < k; j++)
    best[j] = INFINITY;
  size_t stack[2 * 64 + 2], depth = 0;
  stack[depth++] = 0;
  while (depth > 0)
    {
      const far_node *node = &far_field->nodes[stack[--depth]];
      double dx = qx - node->cx, dy = qy - node->cy, gap = sqrt (dx * dx + dy * dy) - node->radius;
      if (gap > 0.0 && gap * gap >= best[k - 1])
        continue;
      if (node->second_child == 0)
        {
          for (size_t i = node->begin; i < node->end; i++)
            offer_nearest (best, k, (far_field->x[i] - qx) * (far_field->x[i] - qx)
                                        + (far_field->y[i] - qy) * (far_field->y[i] - qy));
          continue;
        }
      size_t first = (size_t) (node - far_field->nodes) + 1, second = node->second_child;
      const far_node *a = &far_field->nodes[first], *b = &far_field->nodes[second];
      double da = (qx - a->cx) * (qx - a->cx) + (qy - a->cy) * (qy - a->cy);
      double db = (qx - b->cx) * (qx - b->cx) + (qy - b->cy) * (qy - b->cy);
      /* the nearer child first: it tightens the bound before the other is looked at */
      stack[depth++] = da <= db ? second : first;
      stack[depth++] = da <= db ? first : second;
    }
}

bool
shepard_far_field_nearest (const shepard_far_field *far_field, size_t count, const double *x, const double *y,
                           size_t k, double *d2)
{
  double box_x_min = x[0], box_x_max = x[0], box_y_min = y[0], box_y_max = y[0];
  for (size_t q = 1; q < count; q++)
    {
      box_x_min = fmin (box_x_min, x[q]);
      box_x_max = fmax (box_x_max, x[q]);
      box_y_min = fmin (box_y_min, y[q]);
      box_y_max = fmax (box_y_max, y[q]);
    }
  /* Every query's k-th nearest distance is at most reach: the k points found for the query nearest the box's centre
   * lie within its bound plus the distance between the two queries. */
  double centre_x = 0.5 * (box_x_min + box_x_max), centre_y = 0.5 * (box_y_min + box_y_max);
  size_t pivot = 0;
  for (size_t q = 1; q < count; q++)
    if (fabs (x[q] - centre_x) + fabs (y[q] - centre_y) < fabs (x[pivot] - centre_x) + fabs (y[pivot] - centre_y))
      pivot = q;
  double best[SHEPARD_MAX_NEIGHBORS];
  if (k == 0 || k > SHEPARD_MAX_NEIGHBORS)
    return k == 0;
  bound_nearest (far_field, x[pivot], y[pivot], k, best);
  double spread = 0.0;
  for (size_t q = 0; q < count; q++)
    spread = fmax (spread, (x[q] - x[pivot]) * (x[q] - x[pivot]) + (y[q] - y[pivot]) * (y[q] - y[pivot]));
  /* a millionth more covers every rounding of the distances compared */
  double reach = (sqrt (best[k - 1]) + sqrt (spread)) * (1.0 + 1e-6), reach2 = reach * reach;

  /* The candidates: every point within reach of the box, hence of each query. */
  double candidate_x[SHEPARD_FAR_FIELD_NEAREST_MAX], candidate_y[SHEPARD_FAR_FIELD_NEAREST_MAX];
  size_t n_candidates = 0, stack[2 * 64 + 2], depth = 0;
  stack[depth++] = 0;
  while (depth > 0)
    {
      size_t index = stack[--depth];
      const far_node *node = &far_field->nodes[index];
      double gap = sqrt (far_field_box_distance2 (box_x_min, box_y_min, box_x_max, box_y_max, node->cx, node->cy))
                   - node->radius * (1.0 + 1e-6);
      if (gap > reach)
        continue;
      if (node->second_child != 0)
        {
          stack[depth++] = node->second_child;
          stack[depth++] = index + 1;
          continue;
        }
      for (size_t i = node->begin; i < node->end; i++)
        {
          double px = far_field->x[i], py = far_field->y[i];
          if (far_field_box_distance2 (box_x_min, box_y_min, box_x_max, box_y_max, px, py) > reach2)
            continue;
          if (n_candidates == SHEPARD_FAR_FIELD_NEAREST_MAX)
            return false;
          candidate_x[n_candidates] = px;
          candidate_y[n_candidates++] = py;
        }
    }

  /* Each query's k-th nearest distance is at most the farthest of the previous query's k nearest from it (the first
   * query's: its distance to the pivot plus the pivot's bound). The candidates within that are kept (without
   * branches), then the k nearest of them; at least k are kept. */
  double bound = sqrt (best[k - 1]), within[SHEPARD_FAR_FIELD_NEAREST_MAX];
  size_t within_index[SHEPARD_FAR_FIELD_NEAREST_MAX], nearest_index[SHEPARD_MAX_NEIGHBORS];
  for (size_t q = 0; q < count; q++)
    {
      double limit2 = 0.0;
      if (q == 0)
        {
          double to_pivot = sqrt ((x[0] - x[pivot]) * (x[0] - x[pivot]) + (y[0] - y[pivot]) * (y[0] - y[pivot]));
          double limit = (bound + to_pivot) * (1.0 + 1e-6);
          limit2 = limit * limit;
        }
      else
        for (size_t j = 0; j < k; j++)
          {
            size_t c = nearest_index[j];
            limit2 = fmax (limit2, (candidate_x[c] - x[q]) * (candidate_x[c] - x[q])
                                       + (candidate_y[c] - y[q]) * (candidate_y[c] - y[q]));
          }
      size_t n_within = 0;
      for (size_t c = 0; c < n_candidates; c++)
        {
          double distance2 = (candidate_x[c] - x[q]) * (candidate_x[c] - x[q])
                             + (candidate_y[c] - y[q]) * (candidate_y[c] - y[q]);
          within[n_within] = distance2;
          within_index[n_within] = c;
          n_within += distance2 <= limit2;
        }
      if (n_within < k)
        return false; /* only if rounding went far beyond its allowance */
      /* the k nearest in a max-heap, the others offered to its top, then the nearest first */
      for (size_t root = k / 2; root-- > 0;)
        sift_down (within, within_index, k, root);
      for (size_t w = k; w < n_within; w++)
        if (within[w] < within[0])
          {
            within[0] = within[w];
            within_index[0] = within_index[w];
            sift_down (within, within_index, k, 0);
          }
      size_t nearest = 0;
      for (size_t w = 1; w < k; w++)
        nearest = within[w] < within[nearest] ? w : nearest;
      double nearest_d2 = within[nearest];
      within[nearest] = within[0];
      within[0] = nearest_d2;
      memcpy (d2 + q * k, within, k * sizeof *d2);
      memcpy (nearest_index, within_index, k * sizeof *nearest_index);
    }
  return true;
}
