/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-explanation.h"

G_DEFINE_BOXED_TYPE (ShepardExplanation, shepard_explanation, shepard_explanation_ref, shepard_explanation_unref)

/* A list beyond this is no longer read by anyone: the rest line sums it up. */
#define MOST_LISTED 64
#define FEWEST_LISTED 12

ShepardExplanation *
shepard_explanation_new (const shepard_params *params, double x, double y, size_t capacity)
{
  ShepardExplanation *explanation = g_atomic_rc_box_new0 (ShepardExplanation);

  explanation->params = *params;
  explanation->x = x;
  explanation->y = y;
  explanation->listed = g_new0 (shepard_contribution, MAX (capacity, 1));
  return explanation;
}

ShepardExplanation *
shepard_explanation_ref (ShepardExplanation *explanation)
{
  return g_atomic_rc_box_acquire (explanation);
}

static void
explanation_clear (gpointer data)
{
  ShepardExplanation *explanation = data;

  g_free (explanation->listed);
}

void
shepard_explanation_unref (ShepardExplanation *explanation)
{
  g_atomic_rc_box_release_full (explanation, explanation_clear);
}

size_t
shepard_explanation_capacity_for (const shepard_params *params)
{
  size_t capacity = FEWEST_LISTED;

  if (params->method == SHEPARD_METHOD_AIDW)
    capacity = MAX (capacity, (size_t) params->k);
  if (params->neighbors != SHEPARD_NEIGHBORS_ALL)
    capacity = MAX (capacity, (size_t) params->neighbors);
  return MIN (capacity, (size_t) MOST_LISTED);
}
