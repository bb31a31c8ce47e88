/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "staging-directory.h"

#include <errno.h>
#include <glib/gstdio.h>

#include "shepard-app-error.h"

struct _ShepardStagingDirectory {
  char *directory;
  char *path;             /* directory / the target's file name */
  char *target_directory;
  char *target_name;
  gboolean target_existed; /* when staging began: only then are the files beside the target its own */
  gboolean committed;
};

ShepardStagingDirectory *
shepard_staging_directory_new (const char *target_path, const char *what, GError **error)
{
  g_return_val_if_fail (target_path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  g_autofree char *target_directory = g_path_get_dirname (target_path);
  g_autofree char *target_name = g_path_get_basename (target_path);
  g_autofree char *hidden_name = g_strdup_printf (".%s.shepard-XXXXXX", target_name);
  g_autofree char *directory = g_build_filename (target_directory, hidden_name, NULL);

  if (g_mkdtemp_full (directory, 0700) == NULL)
    {
      int saved_errno = errno;
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                   "cannot write %s%s\"%s\" in the directory \"%s\": %s; choose a directory you can write to",
                   what != NULL ? what : "", what != NULL ? " " : "", target_path, target_directory,
                   g_strerror (saved_errno));
      return NULL;
    }
  ShepardStagingDirectory *staging = g_new0 (ShepardStagingDirectory, 1);
  staging->target_existed = g_file_test (target_path, G_FILE_TEST_EXISTS);
  staging->path = g_build_filename (directory, target_name, NULL);
  staging->directory = g_steal_pointer (&directory);
  staging->target_directory = g_steal_pointer (&target_directory);
  staging->target_name = g_steal_pointer (&target_name);
  return staging;
}

const char *
shepard_staging_directory_get_path (const ShepardStagingDirectory *staging)
{
  g_return_val_if_fail (staging != NULL, NULL);

  return staging->path;
}

static GPtrArray *
list_directory (const char *directory, GError **error)
{
  g_autoptr (GDir) listing = g_dir_open (directory, 0, error);
  if (listing == NULL)
    return NULL;

  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  for (const char *name = g_dir_read_name (listing); name != NULL; name = g_dir_read_name (listing))
    g_ptr_array_add (names, g_strdup (name));
  return names;
}

static gboolean
move_into_target_directory (const ShepardStagingDirectory *staging, const char *name, GError **error)
{
  g_autofree char *from = g_build_filename (staging->directory, name, NULL);
  g_autofree char *to = g_build_filename (staging->target_directory, name, NULL);

  if (g_rename (from, to) != 0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE, "cannot move \"%s\" onto \"%s\": %s", from,
                   to, g_strerror (errno));
      return FALSE;
    }
  return TRUE;
}

static gboolean
names_contain (GPtrArray *names, const char *wanted)
{
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), wanted) == 0)
      return TRUE;
  return FALSE;
}

gboolean
shepard_staging_directory_commit (ShepardStagingDirectory *staging, const char *const *stale_side_cars,
                                  GError **error)
{
  g_return_val_if_fail (staging != NULL && !staging->committed, FALSE);

  g_autoptr (GPtrArray) names = list_directory (staging->directory, error);
  if (names == NULL)
    return FALSE;
  if (!staging->target_existed)
    for (guint i = 0; i < names->len; i++)
      {
        const char *name = g_ptr_array_index (names, i);
        g_autofree char *beside = g_build_filename (staging->target_directory, name, NULL);
        if (g_strcmp0 (name, staging->target_name) != 0 && g_file_test (beside, G_FILE_TEST_EXISTS))
          {
            g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_WRITE,
                         "\"%s\" would replace \"%s\", which belongs to another file: choose another name for "
                         "\"%s\"", staging->target_name, beside, staging->target_name);
            return FALSE;
          }
      }
  for (guint i = 0; i < names->len; i++)
    if (g_strcmp0 (g_ptr_array_index (names, i), staging->target_name) != 0
        && !move_into_target_directory (staging, g_ptr_array_index (names, i), error))
      return FALSE;
  if (!move_into_target_directory (staging, staging->target_name, error))
    return FALSE;

  for (size_t i = 0; staging->target_existed && stale_side_cars != NULL && stale_side_cars[i] != NULL; i++)
    if (!names_contain (names, stale_side_cars[i]))
      {
        g_autofree char *stale = g_build_filename (staging->target_directory, stale_side_cars[i], NULL);
        g_unlink (stale);
      }
  g_rmdir (staging->directory);
  staging->committed = TRUE;
  return TRUE;
}

void
shepard_staging_directory_free (ShepardStagingDirectory *staging)
{
  if (staging == NULL)
    return;

  if (!staging->committed)
    {
      g_autoptr (GPtrArray) names = list_directory (staging->directory, NULL);
      for (guint i = 0; names != NULL && i < names->len; i++)
        {
          g_autofree char *path = g_build_filename (staging->directory, g_ptr_array_index (names, i), NULL);
          g_unlink (path);
        }
      g_rmdir (staging->directory);
    }
  g_free (staging->directory);
  g_free (staging->path);
  g_free (staging->target_directory);
  g_free (staging->target_name);
  g_free (staging);
}
