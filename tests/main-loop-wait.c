/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "main-loop-wait.h"

gboolean
wait_until (Condition condition, gpointer data)
{
  gint64 end = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (!condition (data))
    {
      if (g_get_monotonic_time () > end)
        return FALSE;
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
    }
  return TRUE;
}

void
let_frames_pass (int milliseconds)
{
  gint64 end = g_get_monotonic_time () + milliseconds * 1000;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (500);
    }
}

gboolean
is_set (gpointer data)
{
  return *(gpointer *) data != NULL;
}
