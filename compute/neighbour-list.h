/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The nearest points found so far by a search through the even grid (even-grid.c, neighbourhood.c). */
#ifndef SHEPARD_NEIGHBOUR_LIST_H
#define SHEPARD_NEIGHBOUR_LIST_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* The k nearest so far, as (squared distance, index) pairs with ties broken by index so results are stable: a sorted
 * list for small k, a bounded max-heap (largest on top) beyond. */
typedef struct {
  double *d2;
  size_t *index;
  size_t size, capacity;
} neighbour_heap;

static inline bool
heap_before (double d2_a, size_t index_a, double d2_b, size_t index_b)
{
  return d2_a < d2_b || (d2_a == d2_b && index_a < index_b);
}

static inline void
heap_sift_down (neighbour_heap *heap, size_t at, size_t size)
{
  for (;;)
    {
      size_t largest = at, left = 2 * at + 1, right = left + 1;
      if (left < size && heap_before (heap->d2[largest], heap->index[largest], heap->d2[left], heap->index[left]))
        largest = left;
      if (right < size && heap_before (heap->d2[largest], heap->index[largest], heap->d2[right], heap->index[right]))
        largest = right;
      if (largest == at)
        return;
      double d = heap->d2[at];
      size_t i = heap->index[at];
      heap->d2[at] = heap->d2[largest];
      heap->index[at] = heap->index[largest];
      heap->d2[largest] = d;
      heap->index[largest] = i;
      at = largest;
    }
}

static inline void
heap_offer (neighbour_heap *heap, double d2, size_t index)
{
  if (heap->size < heap->capacity)
    {
      size_t at = heap->size++;
      while (at > 0)
        {
          size_t parent = (at - 1) / 2;
          if (!heap_before (heap->d2[parent], heap->index[parent], d2, index))
            break;
          heap->d2[at] = heap->d2[parent];
          heap->index[at] = heap->index[parent];
          at = parent;
        }
      heap->d2[at] = d2;
      heap->index[at] = index;
      return;
    }
  if (!heap_before (d2, index, heap->d2[0], heap->index[0]))
    return;
  heap->d2[0] = d2;
  heap->index[0] = index;
  heap_sift_down (heap, 0, heap->size);
}

static inline void
heap_sort_ascending (neighbour_heap *heap)
{
  for (size_t end = heap->size; end > 1; end--)
    {
      double d = heap->d2[0];
      size_t i = heap->index[0];
      heap->d2[0] = heap->d2[end - 1];
      heap->index[0] = heap->index[end - 1];
      heap->d2[end - 1] = d;
      heap->index[end - 1] = i;
      heap_sift_down (heap, 0, end - 1);
    }
}

/* Up to this many neighbours the list is kept sorted by insertion, which beats the heap's unpredictable branches. */
#define SORTED_LIST_MAX 64

static inline void
sorted_offer (neighbour_heap *list, double d2, size_t index)
{
  size_t at = list->size;
  if (at == list->capacity)
    {
      if (!heap_before (d2, index, list->d2[at - 1], list->index[at - 1]))
        return;
      at--;
    }
  else
    list->size++;
  while (at > 0 && heap_before (d2, index, list->d2[at - 1], list->index[at - 1]))
    {
      list->d2[at] = list->d2[at - 1];
      list->index[at] = list->index[at - 1];
      at--;
    }
  list->d2[at] = d2;
  list->index[at] = index;
}

/* Offers a point to a list of either kind, by its capacity. */
static inline void
neighbour_offer (neighbour_heap *list, double d2, size_t index)
{
  if (list->capacity <= SORTED_LIST_MAX)
    sorted_offer (list, d2, index);
  else
    heap_offer (list, d2, index);
}

/* The largest kept entry: the last of a sorted list, the top of a heap. */
static inline double
neighbour_last_d2 (const neighbour_heap *list)
{
  return list->capacity <= SORTED_LIST_MAX ? list->d2[list->size - 1] : list->d2[0];
}

/* The squared distance beyond which no point can enter the list: its last entry once full, +inf before. */
static inline double
neighbour_reject_above (const neighbour_heap *list)
{
  return list->size == list->capacity ? neighbour_last_d2 (list) : INFINITY;
}

/* Puts a list of either kind in ascending order. */
static inline void
neighbour_sort (neighbour_heap *list)
{
  if (list->capacity > SORTED_LIST_MAX)
    heap_sort_ascending (list);
}

#endif
