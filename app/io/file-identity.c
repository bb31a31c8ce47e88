/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "file-identity.h"

#include <glib/gstdio.h>

gboolean
shepard_paths_name_same_file (const char *first, const char *second)
{
  g_return_val_if_fail (first != NULL && second != NULL, FALSE);

  GStatBuf first_status, second_status;
  if (g_stat (first, &first_status) == 0 && g_stat (second, &second_status) == 0)
    return first_status.st_dev == second_status.st_dev && first_status.st_ino == second_status.st_ino;
  g_autofree char *first_canonical = g_canonicalize_filename (first, NULL);
  g_autofree char *second_canonical = g_canonicalize_filename (second, NULL);
  return g_strcmp0 (first_canonical, second_canonical) == 0;
}
