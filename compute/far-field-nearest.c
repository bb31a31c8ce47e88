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

/* Squared distances from (x, y) to the n candidates: dx * dx + dy * dy, rounded as a search of every point rounds
 * them. */
FAR_FIELD_VECTOR_CLONES static void
candidate_distances (const double *candidate_x, const double *candidate_y, size_t n, double x, double y,
                     double *distance2)
{
  for (size_t c = 0; c < n; c++)
    {
      double dx = candidate_x[c] - x, dy = candidate_y[c] - y;
      distance2[c] = dx * dx + dy * dy;
    }
}

/* Up to RANKED_MAX kept candidates are ranked (rank_nearest), more go through a heap (heap_nearest): ranking takes
 * count^2 comparisons but no branch, while a heap's branches go one way or the other at random. */
enum { RANKED_MAX = 64, RANK_LANES = 8 };
/* RANK_LANES values or counts: one AVX-512 register, two AVX ones, or four SSE2 ones, as the CPU has. */
typedef double rank_values __attribute__ ((vector_size (RANK_LANES * sizeof (double))));
typedef int64_t rank_counts __attribute__ ((vector_size (RANK_LANES * sizeof (int64_t))));

/* The k smallest of value[0 .. count) in ascending order into d2, their candidates into nearest_index: a value's
 * place is the number of values below it and of equal ones before it. Counted for RANK_LANES values at once, which
 * value[count ..] pads with infinities. */
FAR_FIELD_VECTOR_CLONES static void
rank_nearest (const double *value, const size_t *candidate, size_t count, size_t k, double *d2, size_t *nearest_index)
{
  double ranked[RANKED_MAX + 1]; /* places k and on: the values left out */
  size_t ranked_candidate[RANKED_MAX + 1];
  for (size_t first = 0; first < count; first += RANK_LANES)
    {
      const double *v = value + first;
      rank_values lanes;
      memcpy (&lanes, v, sizeof lanes);
      rank_counts below = { 0 }, not_above = { 0 };
      for (size_t j = 0; j < count; j++)
        {
          rank_values other = (rank_values) { 0 } + value[j];
          below -= other < lanes; /* a true comparison is -1 in each lane */
          not_above -= other <= lanes;
        }
      for (size_t lane = 0; lane < RANK_LANES && first + lane < count; lane++)
        {
          size_t place = (size_t) below[lane];
          if (not_above[lane] - below[lane] > 1) /* equal values: rarely */
            for (size_t j = 0; j < first + lane; j++)
              place += value[j] == v[lane];
          place = place < k ? place : k;
          ranked[place] = v[lane];
          ranked_candidate[place] = candidate[first + lane];
        }
    }
  memcpy (d2, ranked, k * sizeof *d2);
  memcpy (nearest_index, ranked_candidate, k * sizeof *nearest_index);
}

/* The same for more values: the k smallest in a max-heap, the others offered to its top, then the nearest first and
 * the others in the heap's order. value and candidate are overwritten. */
static void
heap_nearest (double *value, size_t *candidate, size_t count, size_t k, double *d2, size_t *nearest_index)
{
  for (size_t root = k / 2; root-- > 0;)
    sift_down (value, candidate, k, root);
  for (size_t w = k; w < count; w++)
    if (value[w] < value[0])
      {
        value[0] = value[w];
        candidate[0] = candidate[w];
        sift_down (value, candidate, k, 0);
      }
  size_t nearest = 0;
  for (size_t w = 1; w < k; w++)
    nearest = value[w] < value[nearest] ? w : nearest;
  double nearest_d2 = value[nearest];
  value[nearest] = value[0];
  value[0] = nearest_d2;
  memcpy (d2, value, k * sizeof *d2);
  memcpy (nearest_index, candidate, k * sizeof *nearest_index); /* the same k, in another order */
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

  /* The candidates: every point within reach of the box, hence of each query, in tree order. A node wholly within
   * reach (its centre's distance to the box plus its radius: the distance to a box grows no faster than the point
   * moves) is counted and copied whole, without a test of each point; so where the queries are many cells apart beside
   * the points, a search refused for holding too many gives up at once, before its leaves are looked at. */
  double candidate_x[SHEPARD_FAR_FIELD_NEAREST_MAX], candidate_y[SHEPARD_FAR_FIELD_NEAREST_MAX];
  size_t n_candidates = 0, stack[2 * 64 + 2], depth = 0;
  stack[depth++] = 0;
  while (depth > 0)
    {
      size_t index = stack[--depth];
      const far_node *node = &far_field->nodes[index];
      double centre = sqrt (far_field_box_distance2 (box_x_min, box_y_min, box_x_max, box_y_max, node->cx, node->cy));
      if (centre - node->radius * (1.0 + 1e-6) > reach)
        continue;
      if ((centre + node->radius) * (1.0 + 1e-6) <= reach)
        {
          size_t size = node->end - node->begin;
          if (size > SHEPARD_FAR_FIELD_NEAREST_MAX - n_candidates)
            return false;
          memcpy (candidate_x + n_candidates, far_field->x + node->begin, size * sizeof *candidate_x);
          memcpy (candidate_y + n_candidates, far_field->y + node->begin, size * sizeof *candidate_y);
          n_candidates += size;
          continue;
        }
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
  double bound = sqrt (best[k - 1]), distance2[SHEPARD_FAR_FIELD_NEAREST_MAX];
  double within[SHEPARD_FAR_FIELD_NEAREST_MAX + RANK_LANES];
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
            double distance2_c = (candidate_x[c] - x[q]) * (candidate_x[c] - x[q])
                                 + (candidate_y[c] - y[q]) * (candidate_y[c] - y[q]);
            limit2 = distance2_c > limit2 ? distance2_c : limit2;
          }
      candidate_distances (candidate_x, candidate_y, n_candidates, x[q], y[q], distance2);
      size_t n_within = 0;
      for (size_t c = 0; c < n_candidates; c++)
        {
          within[n_within] = distance2[c];
          within_index[n_within] = c;
          n_within += distance2[c] <= limit2;
        }
      if (n_within < k)
        return false; /* only if rounding went far beyond its allowance */
      if (n_within <= RANKED_MAX)
        {
          for (size_t w = n_within; w % RANK_LANES != 0; w++)
            within[w] = INFINITY;
          rank_nearest (within, within_index, n_within, k, d2 + q * k, nearest_index);
        }
      else
        heap_nearest (within, within_index, n_within, k, d2 + q * k, nearest_index);
    }
  return true;
}
