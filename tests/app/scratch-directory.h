/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The directories the writers' tests write into, and what a run leaves in them. */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A new empty directory under the system's temporary directory, named after a g_dir_make_tmp template. */
char *scratch_directory_new (const char *name_template);

/* Removes path and everything below it. */
void scratch_directory_remove (const char *path);

/* The directory's entries, sorted, hidden ones included, joined by spaces: what a run leaves behind. */
char *scratch_directory_list (const char *path);

G_END_DECLS
