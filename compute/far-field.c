/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "far-field.h"

#include "cpu-weighting.h"
#include "far-field-tree.h"
#include "engine-private.h"
#include "parallel.h"

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
build_subtree (tree_point *points, size_t begin, size_t end, far_node *nodes, size_t index);

/* Node `index` over points [begin, end): its centre and radius; where it is no leaf, its points split at the median
 * of the longer side (true then). */
static bool
set_node (tree_point *points, size_t begin, size_t end, far_node *nodes, size_t index)
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
    return false;
  select_rank (points + begin, count, count / 2, y_max - y_min > x_max - x_min);
  return true;
}

/* How many nodes build_subtree makes over count points: the layout depends on the count alone. */
static size_t
subtree_nodes (size_t count)
{
  return count <= FAR_FIELD_LEAF_POINTS ? 1 : 1 + subtree_nodes (count / 2) + subtree_nodes (count - count / 2);
}

static size_t
build_subtree (tree_point *points, size_t begin, size_t end, far_node *nodes, size_t index)
{
  if (!set_node (points, begin, end, nodes, index))
    return index + 1;
  size_t middle = begin + (end - begin) / 2;
  size_t second = build_subtree (points, begin, middle, nodes, index + 1);
  nodes[index].second_child = second;
  return build_subtree (points, middle, end, nodes, second);
}

/* The most levels built before the workers take the subtrees below. */
#define FAR_FIELD_TOP_LEVELS_MAX 8

/* A subtree left to a worker: its points and its root's index. */
typedef struct {
  size_t begin, end, index;
} subtree_task;

/* The top `depth` levels of build_subtree's tree, here; below them, the subtrees are listed in tasks (at most 2^depth)
 * with the indices build_subtree would give them. Returns the next free node index, as build_subtree. */
typedef struct {
  subtree_task tasks[1 << FAR_FIELD_TOP_LEVELS_MAX];
  size_t n_tasks;
  size_t top[1 << FAR_FIELD_TOP_LEVELS_MAX]; /* the top levels' nodes, parents before children */
  size_t n_top;
} tree_top;

static size_t
build_top (tree_point *points, size_t begin, size_t end, far_node *nodes, size_t index, int depth, tree_top *top)
{
  if (depth == 0)
    {
      top->tasks[top->n_tasks++] = (subtree_task) { begin, end, index };
      return index + subtree_nodes (end - begin);
    }
  top->top[top->n_top++] = index;
  if (!set_node (points, begin, end, nodes, index))
    return index + 1;
  size_t middle = begin + (end - begin) / 2;
  size_t second = build_top (points, begin, middle, nodes, index + 1, depth - 1, top);
  nodes[index].second_child = second;
  return build_top (points, middle, end, nodes, second, depth - 1, top);
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

static void
binomials (double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1])
{
  for (int j = 0; j <= FAR_FIELD_ORDER_MAX; j++)
    {
      binomial[j][0] = binomial[j][j] = 1.0;
      for (int a = 1; a < j; a++)
        binomial[j][a] = binomial[j - 1][a - 1] + binomial[j - 1][a];
    }
}

/* Node i's spread and moments: a leaf's from its points, a parent's from its children's (made before). */
static void
node_moments (shepard_far_field *far_field, size_t i, const double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1])
{
  const far_node *node = &far_field->nodes[i];
  size_t n_slots = far_field->n_slots;
  node_spread (far_field, i);
  if (node->second_child == 0)
    {
      leaf_moments (far_field, i);
      return;
    }
  memset (far_field->moments + i * n_slots * 2 * FAR_FIELD_TERMS_MAX, 0,
          n_slots * 2 * FAR_FIELD_TERMS_MAX * sizeof (double));
  shift_child_moments (far_field, i, i + 1, binomial);
  shift_child_moments (far_field, i, node->second_child, binomial);
}

/* The moments of nodes [first, end), a whole subtree: children follow their parent, so going backwards meets them
 * first. */
static void
moments_of_nodes (shepard_far_field *far_field, size_t first, size_t end)
{
  double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1];
  binomials (binomial);
  for (size_t i = end; i-- > first;)
    node_moments (far_field, i, binomial);
}

/* The workers' part of a build: the subtrees below the top levels, then (moments) their moments. */
typedef struct {
  shepard_far_field *far_field;
  tree_point *points;
  const subtree_task *tasks;
  bool moments;
} build_job;

static bool
build_subtrees (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  build_job *job = context;
  for (size_t t = begin; t < end; t++)
    {
      const subtree_task *task = &job->tasks[t];
      if (job->moments)
        moments_of_nodes (job->far_field, task->index, task->index + subtree_nodes (task->end - task->begin));
      else
        build_subtree (job->points, task->begin, task->end, job->far_field->nodes, task->index);
    }
  return true;
}

/* Levels built before the workers take the subtrees below: 2^levels subtrees, a few per thread. */
static int
top_levels (int threads)
{
  int levels = 0;
  while (levels < FAR_FIELD_TOP_LEVELS_MAX && (1 << levels) < 4 * threads)
    levels++;
  return threads > 1 ? levels : 0;
}

shepard_status
shepard_far_field_new (const shepard_point_set *points, int threads, shepard_far_field **far_field,
                       shepard_error *error)
{
  if (threads <= 0)
    threads = shepard_cpu_count ();
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
  /* The same tree as build_subtree alone makes, to the bit: the top levels here, each subtree below on a worker. */
  tree_top *top = malloc (sizeof *top);
  if (!top)
    {
      free (tree_points);
      shepard_far_field_free (built);
      return shepard_fail (error, SHEPARD_ERROR_OUT_OF_MEMORY, "Not enough memory for the far-field tree.");
    }
  top->n_tasks = top->n_top = 0;
  built->n_nodes = build_top (tree_points, 0, n, built->nodes, 0, top_levels (threads), top);
  build_job job = { built, tree_points, top->tasks, false };
  shepard_status status = shepard_parallel_for (threads, top->n_tasks, 1, build_subtrees, &job, NULL, NULL, NULL,
                                                error);
  if (status != SHEPARD_OK)
    {
      free (top);
      free (tree_points);
      shepard_far_field_free (built);
      return status;
    }
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
  job.moments = true;
  status = shepard_parallel_for (threads, top->n_tasks, 1, build_subtrees, &job, NULL, NULL, NULL, error);
  if (status == SHEPARD_OK)
    {
      /* The top levels' moments from their children's: children before parents. */
      double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1];
      binomials (binomial);
      for (size_t t = top->n_top; t-- > 0;)
        node_moments (built, top->top[t], binomial);
    }
  free (top);
  if (status != SHEPARD_OK)
    {
      shepard_far_field_free (built);
      return status;
    }
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

/* The waiting nodes, each to the order the raised sum_low allows (never higher than the walk found). */
static void
sum_far_list (const shepard_far_field *far_field, tile_state *state, far_list *list)
{
  raise_sum_low (state);
  for (size_t i = 0; i < list->count; i++)
    {
      const far_entry *entry = &list->entry[i];
      int order = entry->order;
      if (order > FAR_FIELD_ORDER_MIN)
        {
          int lowered = far_field_accept_order (&state->bounds, (double) far_field->n,
                                                far_field->nodes[entry->index].radius,
                                                far_field->spread + entry->index * FAR_FIELD_SPREADS, entry->distance2);
          order = lowered >= 0 && lowered < order ? lowered : order;
        }
      if (entry->subtile != WHOLE_TILE)
        sum_far_node (far_field, state, entry->index, order, (size_t) entry->subtile * SUBTILE_QUERIES,
                      SUBTILE_QUERIES);
      else
        for (size_t block = 0; block < state->n_blocks; block++)
          sum_far_node (far_field, state, entry->index, order, block * BLOCK_QUERIES, BLOCK_QUERIES);
    }
  state->far_summed = state->far_summed || list->count > 0;
  list->count = 0;
}

static void
far_list_add (const shepard_far_field *far_field, tile_state *state, far_list *list, far_entry entry)
{
  if (list->count == FAR_LIST_MAX)
    sum_far_list (far_field, state, list);
  list->entry[list->count++] = entry;
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
          far_list_add (far_field, state, far, (far_entry) { index, order, (int) subtile, distance2 });
          size_t first = subtile * SUBTILE_QUERIES;
          work->far_terms += state->count - first < SUBTILE_QUERIES ? state->count - first : SUBTILE_QUERIES;
        }
    }
}

void
shepard_far_field_sums (const shepard_far_field *far_field, const shepard_far_field_tile *tile, double tolerance,
                        size_t n_fields, double *sum_w, double *sum_wz, shepard_far_field_work *work)
{
  /* About 95 KB (and 30 KB more in sum_far_node): on the stack, so that a call cannot fail. */
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
          far_list_add (far_field, state, far, (far_entry) { index, order, WHOLE_TILE, distance2 });
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
  sum_far_list (far_field, state, far);
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
      work->tiles++;
    }
}
