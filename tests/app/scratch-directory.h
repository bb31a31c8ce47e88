/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The directories the tests that write files write into, and what a run leaves in them: for the writers' tests here
 * and the command-line tests of tests/cli. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A new empty directory under the system's temporary directory, named after a g_dir_make_tmp template. */
char *scratch_directory_new (const char *name_template);

/* Removes path and everything below it; a symbolic link is removed itself, never followed. */
void scratch_directory_remove (const char *path);

/* The directory's entries, sorted, hidden ones included, joined by spaces ("" when empty): what a run leaves
 * behind. Fails the test when the directory cannot be read. */
char *scratch_directory_list (const char *path);

G_END_DECLS
