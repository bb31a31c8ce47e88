/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "scratch-directory.h"

#include <glib/gstdio.h>

char *
scratch_directory_new (const char *name_template)
{
  g_autoptr (GError) error = NULL;
  char *path = g_dir_make_tmp (name_template, &error);

  g_assert_no_error (error);
  return path;
}

void
scratch_directory_remove (const char *path)
{
  /* A link to a directory would otherwise have what it points to emptied. */
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr (GDir) listing = g_dir_open (path, 0, NULL);
      const char *name;
      while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);
          scratch_directory_remove (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

static int
compare_names (gconstpointer a, gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

char *
scratch_directory_list (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) listing = g_dir_open (path, 0, &error);
  g_autoptr (GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  g_assert_no_error (error);
  for (const char *name = g_dir_read_name (listing); name != NULL; name = g_dir_read_name (listing))
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  g_ptr_array_add (names, NULL);
  return g_strjoinv (" ", (char **) names->pdata);
}
