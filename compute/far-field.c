/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Summing over the far field's tree (far-field.h): tiles of queries walk it, taking nodes from their moments where the
 * bound allows and their points one by one where not. The tree is built in far-field-build.c. */
#include "far-field.h"

#include "cpu-weighting.h"
#include "far-field-tree.h"
#include "engine-private.h"

#include <math.h>
#include <stdlib.h>

/* The summing loops for the best vector unit and fused multiply-add the CPU has, picked when the program loads. */
#define FAR_FIELD_CLONES FAR_FIELD_VECTOR_CLONES FAR_FIELD_FUSED
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define FAR_FIELD_FUSED __attribute__ ((optimize ("fp-contract=fast")))
#else
#define FAR_FIELD_FUSED
#endif

double
shepard_far_field_truncation_bound (double rho, double alpha, int order)
{
  if (!(rho > 0.0) || alpha == 0.0)
    return 0.0;
  return far_field_series_tail (rho, alpha, order, far_field_first_left_out (alpha, order)) * pow (1.0 + rho, alpha);
}

/* A tile's queries go in sub-tiles of this many neighbours (one AVX-512 vector of doubles). The tile's walk and its
 * list of far nodes are shared, but a leaf too near the tile's box is tested again for each sub-tile: summed from its
 * moments for the sub-tiles far enough from it, point by point for the others only. So where the tile's box is
 * large beside the leaves (many points per cell), each query weighs one by one the points near its own sub-tile
 * rather than all those near the tile's box. */
enum { SUBTILE_QUERIES = 8, SUBTILES_MAX = SHEPARD_FAR_FIELD_TILE_MAX / SUBTILE_QUERIES };
/* Nodes the whole tile takes are summed in blocks of this many queries (whole sub-tiles), whose sums stay in
 * registers while the moments stream past. */
enum { BLOCK_QUERIES = 32 };
/* Leaves are tested for sub-tiles only where their radius is below this share of the longer side of the tile's box:
 * a sub-tile lies farther from a leaf than the tile's box by less than the box's diagonal, so that hardly any
 * sub-tile accepts a leaf much wider than the box that the tile rejected (in shepard-bench-far-field --engine at 100K
 * points over 1024^2, leaves about as wide as the boxes, testing every leaf cost 3 % and saved nothing). */
#define SUBTILE_LEAF_RADIUS 0.5

typedef struct {
  double x_min, y_min, x_max, y_max;
} query_box;

typedef struct {
  size_t count, n_slots;
  size_t n_subtiles; /* sub-tile b: queries [b SUBTILE_QUERIES, (b + 1) SUBTILE_QUERIES) */
  size_t n_blocks;   /* block b: queries [b BLOCK_QUERIES, (b + 1) BLOCK_QUERIES) */
  query_box box, subtile_box[SUBTILES_MAX];
  double subtile_radius; /* leaves below this radius are tested for sub-tiles (SUBTILE_LEAF_RADIUS) */
  far_field_tile_bounds bounds;
  /* per query, sub-tile after sub-tile (see prepare_tile): source[q] is its index in the caller's tile */
  size_t source[SHEPARD_FAR_FIELD_TILE_MAX];
  double x[SHEPARD_FAR_FIELD_TILE_MAX], y[SHEPARD_FAR_FIELD_TILE_MAX], nearest_d2[SHEPARD_FAR_FIELD_TILE_MAX];
  double s[SHEPARD_FAR_FIELD_TILE_MAX];                  /* alpha / 2 */
  double inverse_nearest_d2[SHEPARD_FAR_FIELD_TILE_MAX];
  int whole_power; /* shepard_whole_power_of every query's exponent where all have the same, else 0 */
  bool far_summed;  /* the sums hold a far node's part: no longer exact */
  /* The absolute test's budget (far_field_accept_order), in units of half_epsilon times a query's whole sum of weights,
   * as spent so far: leaf_share[b] by the leaves summed from their moments for sub-tile b alone, whole_share by the
   * nodes taken by the whole tile and summed before the last of them were found (far_list_add). */
  double leaf_share[SUBTILES_MAX];
  double whole_share;
  double pair_coefficient[FAR_FIELD_TERMS_MAX][SHEPARD_FAR_FIELD_TILE_MAX]; /* c_j c_l, twice for j < l */
  double sums[SHEPARD_MAX_FIELDS + 1][SHEPARD_FAR_FIELD_TILE_MAX]; /* per slot */
} tile_state;

/* Adds the sums of queries [first, first + lanes) over the node's moments (n_slots and lanes constants where inlined,
 * so that the sums stay in registers). */
static inline __attribute__ ((always_inline)) void
sum_moments (tile_state *state, const double *moments, size_t n_slots, size_t lanes, int order, size_t first,
             const double power_re[][BLOCK_QUERIES], const double power_im[][BLOCK_QUERIES],
             const double modulus[][BLOCK_QUERIES], const double *factor)
{
  double sums[SHEPARD_MAX_FIELDS + 1][BLOCK_QUERIES];
  for (size_t slot = 0; slot < n_slots; slot++)
    for (size_t l = 0; l < lanes; l++)
      sums[slot][l] = 0.0;
  /* sum_{j<=l} 2 Re(c_j c_l |v|^2j conj(v)^(l-j) M_jl) (once for j = l), Re(conj(v)^m M) = Re v^m Re M
   * + Im v^m Im M */
  size_t t = 0;
  for (int k = 0; k <= order; k++)
    for (int j = 0; 2 * j <= k; j++, t++)
      {
        const double *coefficient = state->pair_coefficient[t] + first, *mod = modulus[j];
        const double *p_re = power_re[k - 2 * j], *p_im = power_im[k - 2 * j];
        double a[BLOCK_QUERIES], b[BLOCK_QUERIES];
        for (size_t l = 0; l < lanes; l++)
          {
            double scale = coefficient[l] * mod[l];
            a[l] = scale * p_re[l];
            b[l] = scale * p_im[l];
          }
        for (size_t slot = 0; slot < n_slots; slot++)
          {
            double m_re = moments[slot * 2 * FAR_FIELD_TERMS_MAX + t], m_im = moments[slot * 2 * FAR_FIELD_TERMS_MAX + FAR_FIELD_TERMS_MAX + t];
            for (size_t l = 0; l < lanes; l++)
              sums[slot][l] += a[l] * m_re + b[l] * m_im;
          }
      }
  for (size_t slot = 0; slot < n_slots; slot++)
    for (size_t l = 0; l < lanes; l++)
      state->sums[slot][first + l] += factor[l] * sums[slot][l];
}

/* The node's part of the sums of queries [first, first + lanes) (a block or a sub-tile) from its moments to the
 * given order. Loops run over the queries, so that they vectorise. */
FAR_FIELD_CLONES static void
sum_far_node (const shepard_far_field *far_field, tile_state *state, size_t index, int order, size_t first,
              size_t lanes)
{
  const far_node *node = &far_field->nodes[index];
  const double *moments = far_field->moments + index * far_field->n_slots * 2 * FAR_FIELD_TERMS_MAX;
  double radius = node->radius > 0.0 ? node->radius : 1.0;
  const double *qx = state->x + first, *qy = state->y + first;
  /* v = radius / r = radius conj(r) / |r|^2, |v| <= rho < 1; powers v^m and |v|^2j */
  double power_re[FAR_FIELD_ORDER_MAX + 1][BLOCK_QUERIES], power_im[FAR_FIELD_ORDER_MAX + 1][BLOCK_QUERIES];
  double modulus[FAR_FIELD_ORDER_MAX / 2 + 1][BLOCK_QUERIES], factor[BLOCK_QUERIES];
  for (size_t q = 0; q < lanes; q++)
    {
      double r_re = qx[q] - node->cx, r_im = qy[q] - node->cy;
      double inverse_r2 = 1.0 / (r_re * r_re + r_im * r_im); /* one division where three would do */
      power_re[0][q] = 1.0;
      power_im[0][q] = 0.0;
      power_re[1][q] = radius * r_re * inverse_r2;
      power_im[1][q] = -radius * r_im * inverse_r2;
      modulus[0][q] = 1.0;
      factor[q] = state->nearest_d2[first + q] * inverse_r2;
    }
  /* (nearest / |r|)^alpha: at most (1 + rho)^alpha, as the nearest point is no farther than this node's */
  for (size_t q = 0; q < lanes; q++)
    factor[q] = far_field_power (factor[q], state->s[first + q]);
  for (int m = 2; m <= order; m++)
    for (size_t q = 0; q < lanes; q++)
      {
        power_re[m][q] = power_re[m - 1][q] * power_re[1][q] - power_im[m - 1][q] * power_im[1][q];
        power_im[m][q] = power_re[m - 1][q] * power_im[1][q] + power_im[m - 1][q] * power_re[1][q];
      }
  for (int j = 1; 2 * j <= order; j++)
    for (size_t q = 0; q < lanes; q++)
      modulus[j][q] = modulus[j - 1][q] * (power_re[1][q] * power_re[1][q] + power_im[1][q] * power_im[1][q]);
  size_t n_slots = state->n_slots;
  if (lanes == BLOCK_QUERIES && n_slots == 2)
    sum_moments (state, moments, 2, BLOCK_QUERIES, order, first, power_re, power_im, modulus, factor);
  else if (lanes == BLOCK_QUERIES)
    sum_moments (state, moments, n_slots, BLOCK_QUERIES, order, first, power_re, power_im, modulus, factor);
  else if (n_slots == 2)
    sum_moments (state, moments, 2, SUBTILE_QUERIES, order, first, power_re, power_im, modulus, factor);
  else
    sum_moments (state, moments, n_slots, SUBTILE_QUERIES, order, first, power_re, power_im, modulus, factor);
}

/* A leaf's points weighed one by one for queries [first, first + count) (whole sub-tiles), point after point, so
 * that the loops over the queries vectorise and each query's sums stay apart. */
FAR_FIELD_CLONES static void
sum_leaf (const shepard_far_field *far_field, tile_state *state, const far_node *node, size_t first, size_t count)
{
  size_t n_fields = state->n_slots - 1;
  int whole_power = state->whole_power;
  const double *qx = state->x + first, *qy = state->y + first, *s = state->s + first;
  const double *nearest_d2 = state->nearest_d2 + first, *inverse_nearest_d2 = state->inverse_nearest_d2 + first;
  double *sum_w = state->sums[0] + first;
  for (size_t i = node->begin; i < node->end; i++)
    {
      double x = far_field->x[i], y = far_field->y[i], w[SHEPARD_FAR_FIELD_TILE_MAX];
      if (whole_power > 0)
        for (size_t q = 0; q < count; q++)
          w[q] = shepard_relative_weight ((x - qx[q]) * (x - qx[q]) + (y - qy[q]) * (y - qy[q]), nearest_d2[q], -s[q],
                                          whole_power);
      else
        /* (nearest_d2 / d2)^s with a multiplication for the division (as accurate: the ratio to an ulp) */
        for (size_t q = 0; q < count; q++)
          w[q] = far_field_exp (-s[q] * far_field_log (((x - qx[q]) * (x - qx[q]) + (y - qy[q]) * (y - qy[q]))
                                                       * inverse_nearest_d2[q]));
      for (size_t q = 0; q < count; q++)
        sum_w[q] += w[q];
      for (size_t f = 0; f < n_fields; f++)
        {
          double z = far_field->z[f * far_field->n + i], *sum_wz = state->sums[1 + f] + first;
          for (size_t q = 0; q < count; q++)
            sum_wz[q] += w[q] * z;
        }
    }
}

/* By comparisons, which compile to min and max instructions where fmin and fmax are calls into libm. */
static inline void
box_add (query_box *box, double x, double y)
{
  box->x_min = x < box->x_min ? x : box->x_min;
  box->x_max = x > box->x_max ? x : box->x_max;
  box->y_min = y < box->y_min ? y : box->y_min;
  box->y_max = y > box->y_max ? y : box->y_max;
}

/* Puts the tile's queries order[begin, end) in groups of SUBTILE_QUERIES neighbours, every group whole but the last:
 * halves (in whole groups) along the longer side of their box, and so on. */
static void
group_queries (const shepard_far_field_tile *tile, size_t *order, size_t begin, size_t end)
{
  size_t groups = (end - begin + SUBTILE_QUERIES - 1) / SUBTILE_QUERIES;
  if (groups <= 1)
    return;
  query_box box = { INFINITY, INFINITY, -INFINITY, -INFINITY };
  for (size_t i = begin; i < end; i++)
    box_add (&box, tile->x[order[i]], tile->y[order[i]]);
  const double *key = box.y_max - box.y_min > box.x_max - box.x_min ? tile->y : tile->x;
  for (size_t i = begin + 1; i < end; i++) /* insertion: a tile is small, and often in order already */
    {
      size_t moved = order[i], j = i;
      for (; j > begin && key[order[j - 1]] > key[moved]; j--)
        order[j] = order[j - 1];
      order[j] = moved;
    }
  size_t middle = begin + (groups + 1) / 2 * SUBTILE_QUERIES;
  group_queries (tile, order, begin, middle);
  group_queries (tile, order, middle, end);
}

/* The tile's queries grouped in sub-tiles, and these in blocks: the last sub-tile padded with copies of its first
 * query, the last block with copies of the tile's first (the copies' sums are never read). */
static void
prepare_tile (const shepard_far_field_tile *tile, double tolerance, size_t n_fields, tile_state *state)
{
  size_t order[SHEPARD_FAR_FIELD_TILE_MAX];
  for (size_t q = 0; q < tile->count; q++)
    order[q] = q;
  group_queries (tile, order, 0, tile->count);
  state->count = tile->count;
  state->n_subtiles = (tile->count + SUBTILE_QUERIES - 1) / SUBTILE_QUERIES;
  state->n_blocks = (tile->count + BLOCK_QUERIES - 1) / BLOCK_QUERIES;
  state->n_slots = n_fields + 1;
  const query_box empty = { INFINITY, INFINITY, -INFINITY, -INFINITY };
  state->box = empty;
  double alpha_max = 0.0, alpha_min = INFINITY, nearest2_max = 0.0;
  for (size_t q = 0; q < state->n_blocks * BLOCK_QUERIES; q++)
    {
      size_t subtile = q / SUBTILE_QUERIES, from = order[0];
      if (q < tile->count)
        from = order[q];
      else if (subtile < state->n_subtiles)
        from = order[subtile * SUBTILE_QUERIES];
      if (subtile < state->n_subtiles)
        {
          if (q % SUBTILE_QUERIES == 0)
            state->subtile_box[subtile] = empty;
          box_add (&state->subtile_box[subtile], tile->x[from], tile->y[from]);
          box_add (&state->box, tile->x[from], tile->y[from]);
        }
      state->source[q] = from;
      state->x[q] = tile->x[from];
      state->y[q] = tile->y[from];
      state->nearest_d2[q] = tile->nearest_d2[from];
      state->inverse_nearest_d2[q] = 1.0 / state->nearest_d2[q];
      nearest2_max = state->nearest_d2[q] > nearest2_max ? state->nearest_d2[q] : nearest2_max;
      double s = -tile->exponent[from];
      state->s[q] = s;
      int whole_power = shepard_whole_power_of (tile->exponent[from]);
      state->whole_power = q == 0 || state->whole_power == whole_power ? whole_power : 0;
      alpha_max = 2.0 * s > alpha_max ? 2.0 * s : alpha_max;
      alpha_min = 2.0 * s < alpha_min ? 2.0 * s : alpha_min;
      double c[FAR_FIELD_ORDER_MAX + 1];
      c[0] = 1.0;
      for (int j = 0; j < FAR_FIELD_ORDER_MAX; j++)
        c[j + 1] = c[j] * (s + j) / (j + 1);
      size_t t = 0;
      for (int k = 0; k <= FAR_FIELD_ORDER_MAX; k++)
        for (int j = 0; 2 * j <= k; j++, t++)
          state->pair_coefficient[t][q] = c[j] * c[k - j] * (2 * j < k ? 2.0 : 1.0);
      for (size_t slot = 0; slot < state->n_slots; slot++)
        state->sums[slot][q] = 0.0;
    }
  double side = state->box.x_max - state->box.x_min > state->box.y_max - state->box.y_min
                    ? state->box.x_max - state->box.x_min
                    : state->box.y_max - state->box.y_min;
  state->subtile_radius = state->n_subtiles > 1 ? SUBTILE_LEAF_RADIUS * side : 0.0;
  far_field_tile_bounds_init (&state->bounds, tolerance, alpha_min, alpha_max, sqrt (nearest2_max));
  state->far_summed = false;
  for (size_t subtile = 0; subtile < state->n_subtiles; subtile++)
    state->leaf_share[subtile] = 0.0;
  state->whole_share = 0.0;
}

/* Nodes accepted by the walk wait here until the tile's leaves are summed: their exact sums raise the tile's sum_low,
 * which may lower the order each node needs. An entry serves the whole tile, or one sub-tile. */
enum { FAR_LIST_MAX = 512, WHOLE_TILE = -1 };

typedef struct {
  size_t index;
  int order;
  int subtile; /* or WHOLE_TILE */
  double distance2; /* from the node's centre to the box of the queries it serves */
} far_entry;

typedef struct {
  size_t count;
  far_entry entry[FAR_LIST_MAX];
} far_list;

/* sum_low from the sums so far while they are exact: every point in them summed one by one, before any far node. */
static void
raise_sum_low (tile_state *state)
{
  if (state->far_summed)
    return;
  double low = INFINITY;
  for (size_t q = 0; q < state->count; q++)
    low = fmin (low, far_field_query_sum_low (&state->bounds, state->nearest_d2[q], state->s[q], state->sums[0][q]));
  if (low > state->bounds.sum_low)
    state->bounds.sum_low = low;
}

static double
box_distance2 (const query_box *box, const far_node *node)
{
  return far_field_box_distance2 (box->x_min, box->y_min, box->x_max, box->y_max, node->cx, node->cy);
}

/* Every order a node may be summed to: FAR_FIELD_ORDER_MIN, + FAR_FIELD_ORDER_STEP, ... FAR_FIELD_ORDER_MAX. */
enum { ORDER_CHOICES = (FAR_FIELD_ORDER_MAX - FAR_FIELD_ORDER_MIN) / FAR_FIELD_ORDER_STEP + 1 };

static int
order_of_choice (int choice)
{
  return FAR_FIELD_ORDER_MIN + choice * FAR_FIELD_ORDER_STEP;
}

/* The share n_node / n of the absolute test's budget that far_field_accept_order gives a node. */
static double
node_share (const shepard_far_field *far_field, size_t index)
{
  const far_node *node = &far_field->nodes[index];
  return (double) (node->end - node->begin) / (double) far_field->n;
}

/* The order far_field_accept_order allows a waiting node with the raised sum_low (never higher than the walk found). */
static int
lowered_order (const shepard_far_field *far_field, const tile_state *state, const far_entry *entry)
{
  if (entry->order <= FAR_FIELD_ORDER_MIN)
    return entry->order;
  int lowered = far_field_accept_order (&state->bounds, (double) far_field->n, far_field->nodes[entry->index].radius,
                                        far_field->spread + entry->index * FAR_FIELD_SPREADS, entry->distance2);
  return lowered >= 0 && lowered < entry->order ? lowered : entry->order;
}

/* A whole-tile node's truncation error at each order, added in absolute value over its points (far_field_accept_order's
 * bound), in units of half_epsilon times the whole sum of weights of any query of the tile: 0 where the relative test
 * holds (that error counts against the other half of epsilon), INFINITY where the bound diverges. */
static void
order_errors (const shepard_far_field *far_field, const tile_state *state, const far_entry *entry,
              double error[ORDER_CHOICES])
{
  const far_node *node = &far_field->nodes[entry->index];
  const double *spread = far_field->spread + entry->index * FAR_FIELD_SPREADS;
  const far_field_tile_bounds *bounds = &state->bounds;
  double distance = sqrt (entry->distance2), rho = node->radius / distance;
  double relative_share = bounds->half_epsilon * exp (-far_field_relative_log (bounds, rho, spread)) * (1.0 - 1e-12);
  /* n_node (lambda / distance)^alpha / S_low / half_epsilon: at most e^700, which no truncation brings within the
   * budget (1 at most) */
  double absolute_log = far_field_absolute_log (bounds, (double) (node->end - node->begin), distance)
                        - log (bounds->half_epsilon);
  double absolute_factor = exp (absolute_log < 700.0 ? absolute_log : 700.0) * (1.0 + 1e-12);
  double rho_power = pow (rho, FAR_FIELD_ORDER_MIN + 1), rho_step = pow (rho, FAR_FIELD_ORDER_STEP);
  for (int choice = 0; choice < ORDER_CHOICES; choice++, rho_power *= rho_step)
    {
      double truncation = far_field_point_truncation (bounds, rho, rho_power, spread, order_of_choice (choice));
      error[choice] = truncation <= relative_share ? 0.0 : truncation * absolute_factor;
    }
}

/* A step down a node's orders, from choice `from` to a cheaper one with more error: `added` error. */
typedef struct {
  double added;
  unsigned entry;
  unsigned char from, to;
} order_step;

/* Steps are taken in rough order of their error added per unit of cost saved: by the binary exponent of that ratio,
 * from 2^-STEP_EXPONENT_LOW (and below) up. */
enum { STEP_EXPONENT_LOW = 80, STEP_BUCKETS = 100 };

static int
step_bucket (double ratio)
{
  int exponent;
  frexp (ratio, &exponent);
  exponent += STEP_EXPONENT_LOW;
  /* ratio <= 0: a step that costs less and errs no more comes first */
  return ratio <= 0.0 || exponent < 0 ? 0 : exponent >= STEP_BUCKETS ? STEP_BUCKETS - 1 : exponent;
}

/* The whole-tile nodes' orders, chosen together. far_field_accept_order gives each node its share n_node / n of the
 * absolute test's budget, but a distant node spends little of its share even at the lowest order, while a node near
 * the tile, holding few points, needs a high order to stay within its own. Here the nodes share the budget left by
 * the sub-tiles' leaves (the most any sub-tile's took) and the nodes summed before: from the orders of the shares per
 * node, the steps down that add the least error per unit of cost saved are taken first (each node's steps along the
 * lower convex hull of its cost against its error, so in their order), as long as the errors added stay within the
 * budget. */
static void
share_budget (const shepard_far_field *far_field, const tile_state *state, const far_list *list, int *order)
{
  double error[ORDER_CHOICES], cost[ORDER_CHOICES];
  int choice[FAR_LIST_MAX];
  size_t entry_of[FAR_LIST_MAX], count = 0, n_steps = 0;
  order_step steps[FAR_LIST_MAX * (ORDER_CHOICES - 1)];
  unsigned short bucket_of[FAR_LIST_MAX * (ORDER_CHOICES - 1)];
  size_t bucket_start[STEP_BUCKETS + 1] = { 0 };
  for (int c = 0; c < ORDER_CHOICES; c++) /* per query: the powers of v, then per term its factor and each slot's sum */
    cost[c] = (double) FAR_FIELD_TERMS_OF_ORDER (order_of_choice (c)) * (double) (state->n_slots + 2)
              + 4.0 * order_of_choice (c);
  double budget = 1.0 - state->whole_share;
  for (size_t subtile = 0; subtile < state->n_subtiles; subtile++)
    budget = fmin (budget, 1.0 - state->whole_share - state->leaf_share[subtile]);
  for (size_t i = 0; i < list->count; i++)
    {
      const far_entry *entry = &list->entry[i];
      if (entry->subtile != WHOLE_TILE || order[i] < FAR_FIELD_ORDER_MIN)
        continue; /* a sub-tile's, or exact (radius 0) */
      int k = (order[i] - FAR_FIELD_ORDER_MIN) / FAR_FIELD_ORDER_STEP;
      if (k == 0)
        {
          budget -= node_share (far_field, entry->index);
          continue;
        }
      order_errors (far_field, state, entry, error);
      choice[count] = k;
      budget -= error[k];
      while (k > 0)
        {
          int next = -1;
          double ratio = INFINITY;
          for (int c = 0; c < k; c++)
            {
              double r = (error[c] - error[k]) / (cost[k] - cost[c]);
              if (r <= ratio)
                {
                  ratio = r;
                  next = c;
                }
            }
          if (next < 0 || !(ratio < INFINITY))
            break;
          bucket_of[n_steps] = (unsigned short) step_bucket (ratio);
          bucket_start[bucket_of[n_steps] + 1]++;
          steps[n_steps++] = (order_step) { error[next] - error[k], (unsigned) count, (unsigned char) k,
                                            (unsigned char) next };
          k = next;
        }
      entry_of[count++] = i;
    }
  if (n_steps == 0 || !(budget > 0.0))
    return;
  for (int b = 0; b < STEP_BUCKETS; b++)
    bucket_start[b + 1] += bucket_start[b];
  unsigned short sorted[FAR_LIST_MAX * (ORDER_CHOICES - 1)];
  for (size_t s = 0; s < n_steps; s++) /* a node's steps stay in their order */
    sorted[bucket_start[bucket_of[s]]++] = (unsigned short) s;
  for (size_t t = 0; t < n_steps; t++)
    {
      const order_step *step = &steps[sorted[t]];
      if (choice[step->entry] != step->from || !(step->added <= budget))
        continue; /* after a step that did not fit, or one that does not */
      budget -= step->added;
      choice[step->entry] = step->to;
    }
  for (size_t i = 0; i < count; i++)
    order[entry_of[i]] = order_of_choice (choice[i]);
}

/* The waiting nodes, each to the order the raised sum_low allows; after the walk (last), the whole tile's nodes to
 * the orders that share_budget finds. */
static void
sum_far_list (const shepard_far_field *far_field, tile_state *state, far_list *list, bool last,
              shepard_far_field_work *work)
{
  raise_sum_low (state);
  int order[FAR_LIST_MAX];
  for (size_t i = 0; i < list->count; i++)
    order[i] = lowered_order (far_field, state, &list->entry[i]);
  if (last)
    share_budget (far_field, state, list, order);
  for (size_t i = 0; i < list->count; i++)
    {
      const far_entry *entry = &list->entry[i];
      size_t terms = FAR_FIELD_TERMS_OF_ORDER (order[i]);
      if (entry->subtile != WHOLE_TILE)
        {
          size_t first = (size_t) entry->subtile * SUBTILE_QUERIES;
          size_t queries = state->count - first < SUBTILE_QUERIES ? state->count - first : SUBTILE_QUERIES;
          sum_far_node (far_field, state, entry->index, order[i], first, SUBTILE_QUERIES);
          work->moment_terms += terms * queries;
        }
      else
        {
          for (size_t block = 0; block < state->n_blocks; block++)
            sum_far_node (far_field, state, entry->index, order[i], block * BLOCK_QUERIES, BLOCK_QUERIES);
          work->moment_terms += terms * state->count;
          if (!last)
            state->whole_share += node_share (far_field, entry->index);
        }
    }
  state->far_summed = state->far_summed || list->count > 0;
  list->count = 0;
}

static void
far_list_add (const shepard_far_field *far_field, tile_state *state, far_list *list, far_entry entry,
              shepard_far_field_work *work)
{
  if (list->count == FAR_LIST_MAX)
    sum_far_list (far_field, state, list, false, work);
  list->entry[list->count++] = entry;
  if (entry.subtile != WHOLE_TILE)
    state->leaf_share[entry.subtile] += node_share (far_field, entry.index);
}

/* A leaf too near the tile's box: each sub-tile takes it from its moments where its own box is far enough, to the
 * order found with the error share at the tile's distance where there is one (far_field_error_share), else point by
 * point, neighbouring sub-tiles in one pass. */
static void
near_leaf (const shepard_far_field *far_field, tile_state *state, far_list *far, size_t index,
           shepard_far_field_work *work)
{
  const far_node *node = &far_field->nodes[index];
  const double *spread = far_field->spread + index * FAR_FIELD_SPREADS;
  double n = (double) far_field->n, share = 0.0;
  bool subtiles = node->radius < state->subtile_radius;
  if (subtiles)
    {
      double distance = sqrt (box_distance2 (&state->box, node));
      if (distance > 0.0)
        share = far_field_error_share (&state->bounds, n, node->radius / distance, spread, distance);
    }
  size_t run = 0; /* the first sub-tile of those waiting to be summed point by point */
  for (size_t subtile = 0; subtile <= state->n_subtiles; subtile++)
    {
      int order = -1;
      double distance2 = 0.0;
      if (subtiles && subtile < state->n_subtiles)
        {
          distance2 = box_distance2 (&state->subtile_box[subtile], node);
          order = share > 0.0 ? far_field_order_for_share (&state->bounds, node->radius / sqrt (distance2), spread,
                                                           share)
                              : far_field_accept_order (&state->bounds, n, node->radius, spread, distance2);
        }
      if (order < 0 && subtile < state->n_subtiles)
        continue;
      if (subtile > run)
        {
          size_t first = run * SUBTILE_QUERIES, last = subtile * SUBTILE_QUERIES;
          sum_leaf (far_field, state, node, first, last - first);
          work->direct_pairs += (node->end - node->begin) * ((last < state->count ? last : state->count) - first);
        }
      run = subtile + 1;
      if (subtile < state->n_subtiles)
        {
          far_list_add (far_field, state, far, (far_entry) { index, order, (int) subtile, distance2 }, work);
          size_t first = subtile * SUBTILE_QUERIES;
          work->far_terms += state->count - first < SUBTILE_QUERIES ? state->count - first : SUBTILE_QUERIES;
        }
    }
}

void
shepard_far_field_sums (const shepard_far_field *far_field, const shepard_far_field_tile *tile, double tolerance,
                        size_t n_fields, double *sum_w, double *sum_wz, shepard_far_field_work *work)
{
  /* About 110 KB (and 30 KB more in sum_far_node, 60 KB in share_budget): on the stack, so that a call cannot fail. */
  tile_state tile_state_storage, *state = &tile_state_storage;
  far_list far_storage, *far = &far_storage;
  shepard_far_field_work done = { 0 };
  prepare_tile (tile, tolerance, n_fields, state);
  far->count = 0;
  size_t stack[2 * 64 + 2], depth = 0;
  stack[depth++] = 0;
  while (depth > 0)
    {
      size_t index = stack[--depth];
      const far_node *node = &far_field->nodes[index];
      double distance2 = box_distance2 (&state->box, node);
      int order = far_field_accept_order (&state->bounds, (double) far_field->n, node->radius,
                                          far_field->spread + index * FAR_FIELD_SPREADS, distance2);
      if (order >= 0)
        {
          far_list_add (far_field, state, far, (far_entry) { index, order, WHOLE_TILE, distance2 }, &done);
          done.far_terms += state->count;
        }
      else if (node->second_child == 0)
        near_leaf (far_field, state, far, index, &done);
      else
        {
          stack[depth++] = node->second_child;
          stack[depth++] = index + 1;
        }
    }
  sum_far_list (far_field, state, far, true, &done);
  for (size_t q = 0; q < tile->count; q++)
    {
      size_t to = state->source[q];
      double s0 = state->sums[0][q];
      sum_w[to] = s0;
      for (size_t f = 0; f < n_fields; f++)
        sum_wz[to * n_fields + f] = state->sums[1 + f][q] + far_field->z_min[f] * s0;
    }
  if (work)
    {
      work->far_terms += done.far_terms;
      work->direct_pairs += done.direct_pairs;
      work->moment_terms += done.moment_terms;
      work->tiles++;
    }
}
