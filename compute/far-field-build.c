/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The far field's tree (far-field.h): the points split at medians into a balanced binary tree whose nodes carry their
 * centre, radius and complex moments; the top levels are built here, the subtrees below (and their moments) on the
 * engine's threads, giving the tree a single thread gives, to the bit. Summing over it is in far-field.c. */
#include "far-field.h"

#include "far-field-tree.h"
#include "engine-private.h"
#include "parallel.h"
#include "progress-span.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* By comparisons, which compile to min and max instructions where fmin and fmax are calls into libm (the points are
 * finite). */
static void
node_extent (const tree_point *points, size_t count, double *x_min, double *y_min, double *x_max, double *y_max)
{
  double low_x = points[0].x, high_x = points[0].x, low_y = points[0].y, high_y = points[0].y;
  for (size_t i = 1; i < count; i++)
    {
      double x = points[i].x, y = points[i].y;
      low_x = x < low_x ? x : low_x;
      high_x = x > high_x ? x : high_x;
      low_y = y < low_y ? y : low_y;
      high_y = y > high_y ? y : high_y;
    }
  *x_min = low_x;
  *x_max = high_x;
  *y_min = low_y;
  *y_max = high_y;
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
      double dx = points[i].x - node->cx, dy = points[i].y - node->cy, d2 = dx * dx + dy * dy;
      r2 = d2 > r2 ? d2 : r2;
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
 * with the indices build_subtree would give them. */
typedef struct {
  subtree_task tasks[1 << FAR_FIELD_TOP_LEVELS_MAX];
  size_t n_tasks;
  size_t top[1 << FAR_FIELD_TOP_LEVELS_MAX]; /* the top levels' nodes, parents before children */
  size_t n_top;
} tree_top;

/* The nodes of one of the top levels, each over points of its own. */
typedef struct {
  tree_point *points;
  far_node *nodes;
  const subtree_task *level;
  bool *split;
} top_level_job;

static bool
set_top_nodes (void *context, size_t begin, size_t end, int worker, shepard_error *error)
{
  (void) worker;
  (void) error;
  top_level_job *job = context;
  for (size_t i = begin; i < end; i++)
    job->split[i] = set_node (job->points, job->level[i].begin, job->level[i].end, job->nodes, job->level[i].index);
  return true;
}

/* Builds the top `depth` levels level by level, the nodes of a level side by side on the threads (each splits points
 * of its own), so that only the root's split is left to one thread: on 32 threads the top levels are 7, each a pass
 * over every point. The nodes get build_subtree's indices (a node's second child follows its first child's subtree,
 * whose size its points' count alone sets), so that the tree is the one a single thread builds. */
static shepard_status
build_top (tree_point *points, size_t n, far_node *nodes, int depth, int threads, tree_top *top, shepard_error *error)
{
  subtree_task level[1 << FAR_FIELD_TOP_LEVELS_MAX], next[1 << FAR_FIELD_TOP_LEVELS_MAX];
  bool split[1 << FAR_FIELD_TOP_LEVELS_MAX];
  size_t count = 1;
  level[0] = (subtree_task) { 0, n, 0 };
  for (int d = 0; d < depth && count > 0; d++)
    {
      top_level_job job = { points, nodes, level, split };
      shepard_status status = shepard_parallel_for (threads, count, 1, set_top_nodes, &job, NULL, NULL, NULL, error);
      if (status != SHEPARD_OK)
        return status;
      size_t next_count = 0;
      for (size_t i = 0; i < count; i++)
        {
          top->top[top->n_top++] = level[i].index;
          if (!split[i])
            continue;
          size_t middle = level[i].begin + (level[i].end - level[i].begin) / 2;
          size_t second = level[i].index + 1 + subtree_nodes (middle - level[i].begin);
          nodes[level[i].index].second_child = second;
          next[next_count++] = (subtree_task) { level[i].begin, middle, level[i].index + 1 };
          next[next_count++] = (subtree_task) { middle, level[i].end, second };
        }
      memcpy (level, next, next_count * sizeof *next);
      count = next_count;
    }
  for (size_t i = 0; i < count; i++)
    top->tasks[top->n_tasks++] = level[i];
  return SHEPARD_OK;
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

/* Points whose spreads are summed side by side: the powers of one point depend on each other, those of SPREAD_LANES
 * points do not, so that the loops vectorise. */
enum { SPREAD_LANES = 8 };

FAR_FIELD_VECTOR_CLONES static void
node_spread (shepard_far_field *far_field, size_t index)
{
  const far_node *node = &far_field->nodes[index];
  double radius = normalising_radius (node), *spread = far_field->spread + index * FAR_FIELD_SPREADS;
  double sums[FAR_FIELD_SPREADS][SPREAD_LANES] = { { 0.0 } };
  for (size_t first = node->begin; first < node->end; first += SPREAD_LANES)
    {
      size_t lanes = node->end - first < SPREAD_LANES ? node->end - first : SPREAD_LANES;
      double distance[SPREAD_LANES], distance_power[SPREAD_LANES];
      for (size_t l = 0; l < SPREAD_LANES; l++)
        {
          size_t i = first + (l < lanes ? l : 0);
          double dx = (far_field->x[i] - node->cx) / radius, dy = (far_field->y[i] - node->cy) / radius;
          double root = sqrt (dx * dx + dy * dy);
          distance[l] = root < 1.0 ? root : 1.0;
          distance_power[l] = l < lanes ? 1.0 : 0.0; /* a lane past the node's last point adds nothing */
        }
      for (int k = 0; k < FAR_FIELD_SPREADS; k++)
        for (size_t l = 0; l < SPREAD_LANES; l++)
          {
            sums[k][l] += distance_power[l];
            distance_power[l] *= distance[l];
          }
    }
  for (int k = 0; k < FAR_FIELD_SPREADS; k++)
    {
      double sum = 0.0;
      for (size_t l = 0; l < SPREAD_LANES; l++)
        sum += sums[k][l];
      spread[k] = sum / (double) (node->end - node->begin);
    }
}

/* A leaf's moments from its points. */
FAR_FIELD_VECTOR_CLONES static void
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
 * sum_{a<=j, b<=l} C(j,a) C(l,b) u^(j-a) conj(u)^(l-b) sigma^(a+b) M_ab, done as two one-sided shifts. Real and
 * imaginary parts apart, and the innermost loops over a contiguous index, so that they vectorise; each sum is taken in
 * the same order, with the same products, as complex arithmetic would. */
FAR_FIELD_VECTOR_CLONES static void
shift_child_moments (shepard_far_field *far_field, size_t parent, size_t child,
                     const double binomial[FAR_FIELD_ORDER_MAX + 1][FAR_FIELD_ORDER_MAX + 1])
{
  enum { P = FAR_FIELD_ORDER_MAX, N = FAR_FIELD_ORDER_MAX + 1 };
  const far_node *to = &far_field->nodes[parent], *from = &far_field->nodes[child];
  double radius = normalising_radius (to), sigma = normalising_radius (from) / radius;
  double u_re = (from->cx - to->cx) / radius, u_im = (from->cy - to->cy) / radius;
  double power_re[N], power_im[N], sigma_power[N];
  power_re[0] = 1.0;
  power_im[0] = 0.0;
  sigma_power[0] = 1.0;
  for (int m = 1; m <= P; m++)
    {
      power_re[m] = power_re[m - 1] * u_re - power_im[m - 1] * u_im;
      power_im[m] = power_re[m - 1] * u_im + power_im[m - 1] * u_re;
      sigma_power[m] = sigma_power[m - 1] * sigma;
    }
  /* first[j][a] = C(j,a) u^(j-a); second[b][l] = C(l,b) conj(u)^(l-b), zero where b > l */
  double first_re[N][N], first_im[N][N], second_re[N][N] = { { 0.0 } }, second_im[N][N] = { { 0.0 } };
  for (int j = 0; j <= P; j++)
    for (int a = 0; a <= j; a++)
      {
        first_re[j][a] = binomial[j][a] * power_re[j - a];
        first_im[j][a] = binomial[j][a] * power_im[j - a];
        second_re[a][j] = binomial[j][a] * power_re[j - a];
        second_im[a][j] = binomial[j][a] * -power_im[j - a];
      }
  size_t n_slots = far_field->n_slots;
  for (size_t s = 0; s < n_slots; s++)
    {
      const double *child_re = far_field->moments + (child * n_slots + s) * 2 * FAR_FIELD_TERMS_MAX;
      const double *child_im = child_re + FAR_FIELD_TERMS_MAX;
      double *parent_re = far_field->moments + (parent * n_slots + s) * 2 * FAR_FIELD_TERMS_MAX;
      double *parent_im = parent_re + FAR_FIELD_TERMS_MAX;
      double scaled_re[N][N] = { { 0.0 } }, scaled_im[N][N] = { { 0.0 } };
      for (int a = 0; a <= P; a++)
        for (int b = 0; a + b <= P; b++)
          {
            size_t t = a <= b ? term_index (a, b) : term_index (b, a);
            scaled_re[a][b] = sigma_power[a + b] * child_re[t];
            scaled_im[a][b] = sigma_power[a + b] * (a <= b ? child_im[t] : -child_im[t]);
          }
      /* half[j][b] = sum_a first[j][a] scaled[a][b], for j + b <= P */
      double half_re[N][N], half_im[N][N];
      for (int j = 0; j <= P; j++)
        {
          for (int b = 0; j + b <= P; b++)
            half_re[j][b] = half_im[j][b] = 0.0;
          for (int a = 0; a <= j; a++)
            {
              double f_re = first_re[j][a], f_im = first_im[j][a];
              for (int b = 0; j + b <= P; b++)
                {
                  double re = f_re * scaled_re[a][b] - f_im * scaled_im[a][b];
                  double im = f_re * scaled_im[a][b] + f_im * scaled_re[a][b];
                  half_re[j][b] += re;
                  half_im[j][b] += im;
                }
            }
        }
      /* sum_b second[b][l] half[j][b], for j <= l and j + l <= P */
      for (int j = 0; 2 * j <= P; j++)
        {
          double sum_re[N] = { 0.0 }, sum_im[N] = { 0.0 };
          for (int b = 0; j + b <= P; b++)
            {
              double h_re = half_re[j][b], h_im = half_im[j][b];
              for (int l = j; j + l <= P; l++)
                {
                  double re = second_re[b][l] * h_re - second_im[b][l] * h_im;
                  double im = second_re[b][l] * h_im + second_im[b][l] * h_re;
                  sum_re[l] += re;
                  sum_im[l] += im;
                }
            }
          for (int l = j; j + l <= P; l++)
            {
              size_t t = term_index (j, l);
              parent_re[t] += sum_re[l];
              parent_im[t] += sum_im[l];
            }
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

/* The build's progress: the tree's share of it, the moments taking the rest (on 2 cores, 0.33 s of 1.0 s at 1M
 * points, 1.8 s of 5.2 s at 4M). */
#define FAR_FIELD_TREE_SHARE 0.35
#define FAR_FIELD_BUILD_MESSAGE "Building the far-field tree"

/* Levels built before the workers take the subtrees below: 2^levels subtrees, a few per thread. Smaller subtrees
 * would answer a cancel sooner, but the levels on top report nothing and their first levels keep threads waiting (when
 * the root was built on one thread with the rest of the top levels, at 4M points on 2 cores, subtrees of 2^17 points
 * took the build from 4.1 s to 4.7 s and its longest stretch without a report from 0.5 s to 0.8 s). */
static int
top_levels (int threads)
{
  int levels = 0;
  while (levels < FAR_FIELD_TOP_LEVELS_MAX && (1 << levels) < 4 * threads)
    levels++;
  return threads > 1 ? levels : 0;
}

shepard_status
shepard_far_field_new (const shepard_point_set *points, int threads, shepard_progress_fn progress,
                       void *progress_data, shepard_far_field **far_field, shepard_error *error)
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
  built->n_nodes = subtree_nodes (n);
  build_job job = { built, tree_points, top->tasks, false };
  shepard_progress_span whole = shepard_progress_span_whole (progress, progress_data);
  shepard_progress_span stage = shepard_progress_span_part (&whole, 0.0, FAR_FIELD_TREE_SHARE);
  shepard_status status = build_top (tree_points, n, built->nodes, top_levels (threads), threads, top, error);
  if (status == SHEPARD_OK)
    status = shepard_parallel_for (threads, top->n_tasks, 1, build_subtrees, &job, shepard_progress_span_fn (&stage),
                                   &stage, FAR_FIELD_BUILD_MESSAGE, error);
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
  stage = shepard_progress_span_part (&whole, FAR_FIELD_TREE_SHARE, 1.0);
  status = shepard_parallel_for (threads, top->n_tasks, 1, build_subtrees, &job, shepard_progress_span_fn (&stage),
                                 &stage, FAR_FIELD_BUILD_MESSAGE, error);
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
