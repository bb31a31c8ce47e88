/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "far-field.h"

#include "cpu-weighting.h"
#include "far-field-tree.h"
#include "engine-private.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The summing loops for the best vector unit and fused multiply-add the CPU has, picked when the program loads. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define FAR_FIELD_CLONES                                                                                              \
  __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default"), optimize ("fp-contract=fast")))
#else
#define FAR_FIELD_CLONES
#endif

double
shepard_far_field_truncation_bound (double rho, double alpha, int order)
{
  if (!(rho > 0.0) || alpha == 0.0)
    return 0.0;
  return far_field_series_tail (rho, alpha, order, far_field_first_left_out (alpha, order)) * pow (1.0 + rho, alpha);
}

/* --- Building --- */

typedef struct {
  double x, y;
  size_t index;
} tree_point;

static double
point_key (const tree_point *point, int axis)
{
  return axis ? point->y : point->x;
}

static void
swap_points (tree_point *a, tree_point *b)
{
  tree_point t = *a;
  *a = *b;
  *b = t;
}

/* Puts the point of rank `rank` (by the axis coordinate) at its place, smaller ones before and larger ones after.
 * Three-way partitions, so that many equal keys (duplicates, points on a line) cost no more than distinct ones. */
static void
select_rank (tree_point *points, size_t count, size_t rank, int axis)
{
  size_t low = 0, high = count; /* the rank lies in [low, high) */
  uint64_t state = 0x9e3779b97f4a7c15u;
  while (high - low > 1)
    {
      state = state * 6364136223846793005u + 1442695040888963407u;
      double pivot = point_key (&points[low + (size_t) ((state >> 33) % (high - low))], axis);
      size_t less = low, i = low, greater = high;
      while (i < greater)
        {
          double key = point_key (&points[i], axis);
          if (key < pivot)
            swap_points (&points[less++], &points[i++]);
          else if (key > pivot)
            swap_points (&points[i], &points[--greater]);
          else
            i++;
        }
      if (rank < less)
        high = less;
      else if (rank >= greater)
        low = greater;
      else
        return;
    }
}

static void
node_extent (const tree_point *points, size_t count, double *x_min, double *y_min, double *x_max, double *y_max)
{
  *x_min = *x_max = points[0].x;
  *y_min = *y_max = points[0].y;
  for (size_t i = 1; i < count; i++)
    {
      *x_min = fmin (*x_min, points[i].x);
      *x_max = fmax (*x_max, points[i].x);
      *y_min = fmin (*y_min, points[i].y);
      *y_max = fmax (*y_max, points[i].y);
    }
}

/* Node `index` over points [begin, end) and, below it, its subtree depth first (a node's first child follows it), split
 * at the median of the longer side. Returns the next free node index. Median splits halve the count, so the
 * recursion is at most log2(n) deep. */
static size_t
build_subtree (tree_point *points, size_t begin, size_t end, far_node *nodes, size_t index)
{
  far_node *node = &nodes[index];
  size_t count = end - begin;
  double x_min, y_min, x_max, y_max;
  node_extent (points + begin, count, &x_min, &y_min, &x_max, &y_max);
  node->cx = 0.5 * x_min + 0.5 * x_max;
  node->cy = 0.5 * y_min + 0.5 * y_max;
  double r2 = 0.0;
  for (size_t i = begin; i < end; i++)
    {
      double dx = points[i].x - node->cx, dy = points[i].y - node->cy;
      r2 = fmax (r2, dx * dx + dy * dy);
    }
  node->radius = sqrt (r2);
  node->begin = begin;
  node->end = end;
  node->second_child = 0;
  if (count <= FAR_FIELD_LEAF_POINTS)
    return index + 1;
  size_t middle = begin + count / 2;
  select_rank (points + begin, count, count / 2, y_max - y_min > x_max - x_min);
  size_t second = build_subtree (points, begin, middle, nodes, index + 1);
  nodes[index].second_child = second;
  return build_subtree (points, middle, end, nodes, second);
}

/* Where moment (j, l), j <= l, is stored. */
static size_t
term_index (int j, int l)
{
  int k = j + l;
  return (k > 0 ? FAR_FIELD_TERMS_OF_ORDER (k - 1) : 0) + (size_t) j;
}

static double
normalising_radius (const far_node *node)
{
  return node->radius > 0.0 ? node->radius : 1.0; /* a radius of 0: every d_i is 0 */
}

static void
node_spread (shepard_far_field *far_field, size_t index)
{
  const far_node *node = &far_field->nodes[index];
  double radius = normalising_radius (node), *spread = far_field->spread + index * FAR_FIELD_SPREADS;
  memset (spread, 0, FAR_FIELD_SPREADS * sizeof *spread);
  for (size_t i = node->begin; i < node->end; i++)
    {
      double dx = (far_field->x[i] - node->cx) / radius, dy = (far_field->y[i] - node->cy) / radius;
      double distance = fmin (1.0, sqrt (dx * dx + dy * dy)), distance_power = 1.0;
      for (int k = 0; k < FAR_FIELD_SPREADS; k++, distance_power *= distance)
        spread[k] += distance_power;
    }
  for (int k = 0; k < FAR_FIELD_SPREADS; k++)
    spread[k] /= (double) (node->end - node->begin);
}

/* A leaf's moments from its points. */
static void
leaf_moments (shepard_far_field *far_field, size_t index)
{
  const far_node *node = &far_field->nodes[index];
  size_t n_slots = far_field->n_slots;
  double *moments = far_field->moments + index * n_slots * 2 * FAR_FIELD_TERMS_MAX;
  memset (moments, 0, n_slots * 2 * FAR_FIELD_TERMS_MAX * sizeof *moments);
  double radius = normalising_radius (node);
  for (size_t i = node->begin; i < node->end; i++)
    {
      double power_re[FAR_FIELD_ORDER_MAX + 1], power_im[FAR_FIELD_ORDER_MAX + 1], product_re[FAR_FIELD_TERMS_MAX], product_im[FAR_FIELD_TERMS_MAX];
      double t_re = (far_field->x[i] - node->cx) / radius, t_im = (far_field->y[i] - node->cy) / radius;
      power_re[0] = 1.0;
      power_im[0] = 0.0;
      for (int m = 1; m <= FAR_FIELD_ORDER_MAX; m++)
        {
          power_re[m] = power_re[m - 1] * t_re - power_im[m - 1] * t_im;
          power_im[m] = power_re[m - 1] * t_im + power_im[m - 1] * t_re;
        }
      size_t t = 0;
      for (int k = 0; k <= FAR_FIELD_ORDER_MAX; k++)
        for (int j = 0; 2 * j <= k; j++, t++)
          {
            int l = k - j; /* t^j conj(t)^l */
            product_re[t] = power_re[j] * power_re[l] + power_im[j] * power_im[l];
            product_im[t] = power_im[j] * power_re[l] - power_re[j] * power_im[l];
          }
      for (size_t s = 0; s < n_slots; s++)
        {
          double w = s == 0 ? 1.0 : far_field->z[(s - 1) * far_field->n + i];
          double *re = moments + s * 2 * FAR_FIELD_TERMS_MAX, *im = re + FAR_FIELD_TERMS_MAX;
          for (size_t u = 0; u < FAR_FIELD_TERMS_MAX; u++)
            {
              re[u] += w * product_re[u];
              im[u] += w * product_im[u];
            }
        }
    }
}

/* Adds a child's moments, moved to its parent's centre and radius, to the parent's: with u = (child centre - parent
 * centre) / parent radius and sigma = child radius / parent radius, sum_i w (sigma d + u)^j conj(sigma d + u)^l is
 * sum_{a<=j, b<=l} C(j,a) C(l,b) u^(j-a) conj(u)^(l-b) sigma^(a+b) M_ab, done as two one-sided shifts. */
static void
shift_child_moments (shepard_far_field *far_field, size_t parent, size_t child,
                     const double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1])
{
  const far_node *to = &far_field->nodes[parent], *from = &far_field->nodes[child];
  double radius = normalising_radius (to), sigma = normalising_radius (from) / radius;
  double complex u = ((from->cx - to->cx) + I * (from->cy - to->cy)) / radius;
  double complex u_power[FAR_FIELD_ORDER_MAX + 1], u_conj_power[FAR_FIELD_ORDER_MAX + 1];
  double sigma_power[FAR_FIELD_ORDER_MAX + 1];
  u_power[0] = u_conj_power[0] = 1.0;
  sigma_power[0] = 1.0;
  for (int m = 1; m <= FAR_FIELD_ORDER_MAX; m++)
    {
      u_power[m] = u_power[m - 1] * u;
      u_conj_power[m] = conj (u_power[m]);
      sigma_power[m] = sigma_power[m - 1] * sigma;
    }
  size_t n_slots = far_field->n_slots;
  for (size_t s = 0; s < n_slots; s++)
    {
      const double *child_re = far_field->moments + (child * n_slots + s) * 2 * FAR_FIELD_TERMS_MAX;
      const double *child_im = child_re + FAR_FIELD_TERMS_MAX;
      double *parent_re = far_field->moments + (parent * n_slots + s) * 2 * FAR_FIELD_TERMS_MAX;
      double *parent_im = parent_re + FAR_FIELD_TERMS_MAX;
      double complex scaled[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1], half[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1];
      for (int a = 0; a <= FAR_FIELD_ORDER_MAX; a++)
        for (int b = 0; a + b <= FAR_FIELD_ORDER_MAX; b++)
          {
            size_t t = a <= b ? term_index (a, b) : term_index (b, a);
            double complex m = child_re[t] + I * (a <= b ? child_im[t] : -child_im[t]);
            scaled[a][b] = sigma_power[a + b] * m;
          }
      for (int j = 0; j <= FAR_FIELD_ORDER_MAX; j++)
        for (int b = 0; j + b <= FAR_FIELD_ORDER_MAX; b++)
          {
            double complex sum = 0.0;
            for (int a = 0; a <= j; a++)
              sum += binomial[j][a] * u_power[j - a] * scaled[a][b];
            half[j][b] = sum;
          }
      for (int j = 0; 2 * j <= FAR_FIELD_ORDER_MAX; j++)
        for (int l = j; j + l <= FAR_FIELD_ORDER_MAX; l++)
          {
            double complex sum = 0.0;
            for (int b = 0; b <= l; b++)
              sum += binomial[l][b] * u_conj_power[l - b] * half[j][b];
            size_t t = term_index (j, l);
            parent_re[t] += creal (sum);
            parent_im[t] += cimag (sum);
          }
    }
}

/* Every node's moments: leaves from their points, then each parent from its children (children follow their parent,
 * so going backwards meets them first). */
static void
all_moments (shepard_far_field *far_field)
{
  double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1];
  for (int j = 0; j <= FAR_FIELD_ORDER_MAX; j++)
    {
      binomial[j][0] = binomial[j][j] = 1.0;
      for (int a = 1; a < j; a++)
        binomial[j][a] = binomial[j - 1][a - 1] + binomial[j - 1][a];
    }
  size_t n_slots = far_field->n_slots;
  for (size_t i = far_field->n_nodes; i-- > 0;)
    {
      const far_node *node = &far_field->nodes[i];
      node_spread (far_field, i);
      if (node->second_child == 0)
        {
          leaf_moments (far_field, i);
          continue;
        }
      memset (far_field->moments + i * n_slots * 2 * FAR_FIELD_TERMS_MAX, 0, n_slots * 2 * FAR_FIELD_TERMS_MAX * sizeof (double));
      shift_child_moments (far_field, i, i + 1, binomial);
      shift_child_moments (far_field, i, node->second_child, binomial);
    }
}

shepard_status
shepard_far_field_new (const shepard_point_set *points, shepard_far_field **far_field, shepard_error *error)
{
  *far_field = NULL;
  size_t n = points->n, n_fields = points->n_fields;
  if (n == 0)
    return shepard_fail (error, SHEPARD_ERROR_NO_POINTS, "The far-field summation needs at least one data point.");
  size_t node_capacity = 2 * (n / (FAR_FIELD_LEAF_POINTS / 2) + 1), moment_count;
  if (!shepard_size_mul (node_capacity, (n_fields + 1) * 2 * FAR_FIELD_TERMS_MAX, &moment_count)
      || !shepard_size_mul (n, n_fields + 2, &(size_t){ 0 }))
    return shepard_fail (error, SHEPARD_ERROR_SIZE_OVERFLOW, "Too many points for the far-field summation.");

  shepard_far_field *built = calloc (1, sizeof *built);
  tree_point *tree_points = malloc (n * sizeof *tree_points);
  if (built)
    {
      built->n = n;
      built->n_fields = n_fields;
      built->n_slots = n_fields + 1;
      built->x = malloc (n * sizeof *built->x);
      built->y = malloc (n * sizeof *built->y);
      built->z = malloc (n * n_fields * sizeof *built->z);
      built->z_min = malloc (n_fields * sizeof *built->z_min);
      built->nodes = malloc (node_capacity * sizeof *built->nodes);
      built->moments = malloc (moment_count * sizeof *built->moments);
      built->spread = malloc (node_capacity * FAR_FIELD_SPREADS * sizeof *built->spread);
    }
  if (!built || !tree_points || !built->x || !built->y || !built->z || !built->z_min || !built->nodes
      || !built->moments || !built->spread)
    {
      free (tree_points);
      shepard_far_field_free (built);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY,
                           "Not enough memory for the far-field tree of %zu points; choose exact summation.", n);
    }

  for (size_t i = 0; i < n; i++)
    tree_points[i] = (tree_point) { points->x[i], points->y[i], i };
  built->n_nodes = build_subtree (tree_points, 0, n, built->nodes, 0);
  for (size_t f = 0; f < n_fields; f++)
    {
      const double *z = points->z + f * points->n_padded;
      double z_min = z[0];
      for (size_t i = 1; i < n; i++)
        z_min = fmin (z_min, z[i]);
      built->z_min[f] = z_min;
      for (size_t i = 0; i < n; i++)
        built->z[f * n + i] = z[tree_points[i].index] - z_min;
    }
  for (size_t i = 0; i < n; i++)
    {
      built->x[i] = tree_points[i].x;
      built->y[i] = tree_points[i].y;
    }
  free (tree_points);
  all_moments (built);
  *far_field = built;
  return SHEPARD_OK;
}

void
shepard_far_field_free (shepard_far_field *far_field)
{
  if (!far_field)
    return;
  free (far_field->x);
  free (far_field->y);
  free (far_field->z);
  free (far_field->z_min);
  free (far_field->nodes);
  free (far_field->moments);
  free (far_field->spread);
  free (far_field);
}

size_t
shepard_far_field_size (const shepard_far_field *far_field)
{
  return sizeof *far_field + far_field->n * (far_field->n_fields + 2) * sizeof (double)
         + far_field->n_nodes
               * (sizeof (far_node) + (far_field->n_slots * 2 * FAR_FIELD_TERMS_MAX + FAR_FIELD_SPREADS) * sizeof (double));
}

/* --- Summing --- */

/* A block of queries whose sums sum_far_node keeps in registers while it walks a node's moments. */
enum { LANES = 32 };

typedef struct {
  size_t count, n_slots;
  size_t padded_count; /* count rounded up to whole blocks of LANES, the extra queries copies of the first */
  double box_x_min, box_y_min, box_x_max, box_y_max;
  far_field_tile_bounds bounds;
  /* per query */
  double x[SHEPARD_FAR_FIELD_TILE_MAX], y[SHEPARD_FAR_FIELD_TILE_MAX], nearest_d2[SHEPARD_FAR_FIELD_TILE_MAX];
  double s[SHEPARD_FAR_FIELD_TILE_MAX];                  /* alpha / 2 */
  double inverse_nearest_d2[SHEPARD_FAR_FIELD_TILE_MAX];
  int whole_power; /* shepard_whole_power_of every query's exponent where all have the same, else 0 */
  bool far_summed;  /* the sums hold a far node's part: no longer exact */
  double pair_coefficient[FAR_FIELD_TERMS_MAX][SHEPARD_FAR_FIELD_TILE_MAX]; /* c_j c_l, twice for j < l */
  double sums[SHEPARD_MAX_FIELDS + 1][SHEPARD_FAR_FIELD_TILE_MAX]; /* per slot */
} tile_state;

/* Adds one block's sums over the node's moments (n_slots a constant where inlined, so the sums stay in registers). */
static inline __attribute__ ((always_inline)) void
sum_moments_block (const tile_state *state, const double *moments, size_t n_slots, int order, size_t block,
                   const double power_re[][SHEPARD_FAR_FIELD_TILE_MAX],
                   const double power_im[][SHEPARD_FAR_FIELD_TILE_MAX],
                   const double modulus[][SHEPARD_FAR_FIELD_TILE_MAX], double sums[][LANES])
{
  for (size_t slot = 0; slot < n_slots; slot++)
    for (size_t l = 0; l < LANES; l++)
      sums[slot][l] = 0.0;
  /* sum_{j<=l} 2 Re(c_j c_l |v|^2j conj(v)^(l-j) M_jl) (once for j = l), Re(conj(v)^m M) = Re v^m Re M
   * + Im v^m Im M */
  size_t t = 0;
  for (int k = 0; k <= order; k++)
    for (int j = 0; 2 * j <= k; j++, t++)
      {
        const double *coefficient = state->pair_coefficient[t] + block, *mod = modulus[j] + block;
        const double *p_re = power_re[k - 2 * j] + block, *p_im = power_im[k - 2 * j] + block;
        double a[LANES], b[LANES];
        for (size_t l = 0; l < LANES; l++)
          {
            double scale = coefficient[l] * mod[l];
            a[l] = scale * p_re[l];
            b[l] = scale * p_im[l];
          }
        for (size_t slot = 0; slot < n_slots; slot++)
          {
            double m_re = moments[slot * 2 * FAR_FIELD_TERMS_MAX + t], m_im = moments[slot * 2 * FAR_FIELD_TERMS_MAX + FAR_FIELD_TERMS_MAX + t];
            for (size_t l = 0; l < LANES; l++)
              sums[slot][l] += a[l] * m_re + b[l] * m_im;
          }
      }
}

/* The node's part of every query's sums from its moments. Loops run over the queries (padded to whole blocks by
 * prepare_tile), so that they vectorise. */
FAR_FIELD_CLONES static void
sum_far_node (const shepard_far_field *far_field, tile_state *state, size_t index, int order)
{
  const far_node *node = &far_field->nodes[index];
  const double *moments = far_field->moments + index * far_field->n_slots * 2 * FAR_FIELD_TERMS_MAX;
  double radius = node->radius > 0.0 ? node->radius : 1.0;
  size_t padded = state->padded_count;
  /* v = radius / r = radius conj(r) / |r|^2, |v| <= rho < 1; powers v^m and |v|^2j */
  double power_re[FAR_FIELD_ORDER_MAX + 1][SHEPARD_FAR_FIELD_TILE_MAX], power_im[FAR_FIELD_ORDER_MAX + 1][SHEPARD_FAR_FIELD_TILE_MAX];
  double modulus[FAR_FIELD_ORDER_MAX / 2 + 1][SHEPARD_FAR_FIELD_TILE_MAX], factor[SHEPARD_FAR_FIELD_TILE_MAX];
  for (size_t q = 0; q < padded; q++)
    {
      double r_re = state->x[q] - node->cx, r_im = state->y[q] - node->cy;
      double inverse_r2 = 1.0 / (r_re * r_re + r_im * r_im); /* one division where three would do */
      power_re[0][q] = 1.0;
      power_im[0][q] = 0.0;
      power_re[1][q] = radius * r_re * inverse_r2;
      power_im[1][q] = -radius * r_im * inverse_r2;
      modulus[0][q] = 1.0;
      factor[q] = state->nearest_d2[q] * inverse_r2;
    }
  /* (nearest / |r|)^alpha: at most (1 + rho)^alpha, as the nearest point is no farther than this node's */
  for (size_t q = 0; q < padded; q++)
    factor[q] = far_field_power (factor[q], state->s[q]);
  for (int m = 2; m <= order; m++)
    for (size_t q = 0; q < padded; q++)
      {
        power_re[m][q] = power_re[m - 1][q] * power_re[1][q] - power_im[m - 1][q] * power_im[1][q];
        power_im[m][q] = power_re[m - 1][q] * power_im[1][q] + power_im[m - 1][q] * power_re[1][q];
      }
  for (int j = 1; 2 * j <= order; j++)
    for (size_t q = 0; q < padded; q++)
      modulus[j][q] = modulus[j - 1][q] * (power_re[1][q] * power_re[1][q] + power_im[1][q] * power_im[1][q]);
  size_t n_slots = state->n_slots;
  for (size_t block = 0; block < padded; block += LANES)
    {
      double sums[SHEPARD_MAX_FIELDS + 1][LANES];
      if (n_slots == 2)
        sum_moments_block (state, moments, 2, order, block, power_re, power_im, modulus, sums);
      else
        sum_moments_block (state, moments, n_slots, order, block, power_re, power_im, modulus, sums);
      for (size_t slot = 0; slot < n_slots; slot++)
        for (size_t l = 0; l < LANES; l++)
          state->sums[slot][block + l] += factor[block + l] * sums[slot][l];
    }
}

/* A leaf's points weighed one by one for every query, point after point, so that the loops over the queries
 * vectorise and each query's sums stay apart. */
FAR_FIELD_CLONES static void
sum_leaf (const shepard_far_field *far_field, tile_state *state, const far_node *node)
{
  size_t padded = state->padded_count, n_fields = state->n_slots - 1;
  int whole_power = state->whole_power;
  for (size_t i = node->begin; i < node->end; i++)
    {
      double x = far_field->x[i], y = far_field->y[i], w[SHEPARD_FAR_FIELD_TILE_MAX];
      if (whole_power > 0)
        for (size_t q = 0; q < padded; q++)
          w[q] = shepard_relative_weight ((x - state->x[q]) * (x - state->x[q]) + (y - state->y[q]) * (y - state->y[q]),
                                          state->nearest_d2[q], -state->s[q], whole_power);
      else
        /* (nearest_d2 / d2)^s with a multiplication for the division (as accurate: the ratio to an ulp) */
        for (size_t q = 0; q < padded; q++)
          w[q] = far_field_exp (-state->s[q] * far_field_log (((x - state->x[q]) * (x - state->x[q])
                                                               + (y - state->y[q]) * (y - state->y[q]))
                                                              * state->inverse_nearest_d2[q]));
      for (size_t q = 0; q < padded; q++)
        state->sums[0][q] += w[q];
      for (size_t f = 0; f < n_fields; f++)
        {
          double z = far_field->z[f * far_field->n + i];
          for (size_t q = 0; q < padded; q++)
            state->sums[1 + f][q] += w[q] * z;
        }
    }
}

static void
prepare_tile (const shepard_far_field_tile *tile, double tolerance, size_t n_fields, tile_state *state)
{
  state->count = tile->count;
  state->padded_count = (tile->count + LANES - 1) / LANES * LANES;
  state->n_slots = n_fields + 1;
  state->box_x_min = state->box_x_max = tile->x[0];
  state->box_y_min = state->box_y_max = tile->y[0];
  double alpha_max = 0.0, alpha_min = INFINITY, nearest2_max = 0.0;
  for (size_t q = 0; q < state->padded_count; q++)
    {
      size_t from = q < tile->count ? q : 0;
      state->x[q] = tile->x[from];
      state->y[q] = tile->y[from];
      state->nearest_d2[q] = tile->nearest_d2[from];
      state->inverse_nearest_d2[q] = 1.0 / state->nearest_d2[q];
      nearest2_max = fmax (nearest2_max, state->nearest_d2[q]);
      state->box_x_min = fmin (state->box_x_min, state->x[q]);
      state->box_x_max = fmax (state->box_x_max, state->x[q]);
      state->box_y_min = fmin (state->box_y_min, state->y[q]);
      state->box_y_max = fmax (state->box_y_max, state->y[q]);
      double s = -tile->exponent[from];
      state->s[q] = s;
      int whole_power = shepard_whole_power_of (tile->exponent[from]);
      state->whole_power = q == 0 || state->whole_power == whole_power ? whole_power : 0;
      alpha_max = fmax (alpha_max, 2.0 * s);
      alpha_min = fmin (alpha_min, 2.0 * s);
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
  far_field_tile_bounds_init (&state->bounds, tolerance, alpha_min, alpha_max, sqrt (nearest2_max));
  state->far_summed = false;
}

/* Nodes accepted by the walk wait here until the tile's leaves are summed: their exact sums raise the tile's sum_low,
 * which may lower the order each node needs. */
enum { FAR_LIST_MAX = 256 };

typedef struct {
  size_t count;
  size_t index[FAR_LIST_MAX];
  int order[FAR_LIST_MAX];
  double distance2[FAR_LIST_MAX];
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

/* The waiting nodes, each to the order the raised sum_low allows (never higher than the walk found). */
static void
sum_far_list (const shepard_far_field *far_field, tile_state *state, far_list *list)
{
  raise_sum_low (state);
  for (size_t i = 0; i < list->count; i++)
    {
      size_t index = list->index[i];
      int order = list->order[i];
      if (order > FAR_FIELD_ORDER_MIN)
        {
          int lowered = far_field_accept_order (&state->bounds, (double) far_field->n, far_field->nodes[index].radius,
                                                far_field->spread + index * FAR_FIELD_SPREADS, list->distance2[i]);
          order = lowered >= 0 && lowered < order ? lowered : order;
        }
      sum_far_node (far_field, state, index, order);
    }
  state->far_summed = state->far_summed || list->count > 0;
  list->count = 0;
}

void
shepard_far_field_sums (const shepard_far_field *far_field, const shepard_far_field_tile *tile, double tolerance,
                        size_t n_fields, double *sum_w, double *sum_wz, shepard_far_field_work *work)
{
  /* About 90 KB (and 40 KB more in sum_far_node): on the stack, so that a call cannot fail. */
  tile_state tile_state_storage, *state = &tile_state_storage;
  far_list far_storage, *far = &far_storage;
  prepare_tile (tile, tolerance, n_fields, state);
  far->count = 0;
  uint64_t far_nodes = 0, direct_points = 0;
  size_t stack[2 * 64 + 2], depth = 0;
  stack[depth++] = 0;
  while (depth > 0)
    {
      size_t index = stack[--depth];
      const far_node *node = &far_field->nodes[index];
      double distance2 = far_field_box_distance2 (state->box_x_min, state->box_y_min, state->box_x_max, state->box_y_max,
                                        node->cx, node->cy);
      int order = far_field_accept_order (&state->bounds, (double) far_field->n, node->radius,
                                          far_field->spread + index * FAR_FIELD_SPREADS, distance2);
      if (order >= 0)
        {
          if (far->count == FAR_LIST_MAX)
            sum_far_list (far_field, state, far);
          far->index[far->count] = index;
          far->order[far->count] = order;
          far->distance2[far->count++] = distance2;
          far_nodes++;
        }
      else if (node->second_child == 0)
        {
          sum_leaf (far_field, state, node);
          direct_points += node->end - node->begin;
        }
      else
        {
          stack[depth++] = node->second_child;
          stack[depth++] = index + 1;
        }
    }
  sum_far_list (far_field, state, far);
  for (size_t q = 0; q < tile->count; q++)
    {
      double s0 = state->sums[0][q];
      sum_w[q] = s0;
      for (size_t f = 0; f < n_fields; f++)
        sum_wz[q * n_fields + f] = state->sums[1 + f][q] + far_field->z_min[f] * s0;
    }
  if (work)
    {
      work->far_terms += far_nodes * tile->count;
      work->direct_pairs += direct_points * tile->count;
      work->tiles++;
    }
}
