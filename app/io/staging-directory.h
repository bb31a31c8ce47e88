/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* A hidden private directory beside a target file, where the file and its side-car files are written whole before
 * commit moves them onto the target: until then an existing target is never touched, and freeing an uncommitted
 * staging directory (failure, cancel) removes every file written into it. */
typedef struct _ShepardStagingDirectory ShepardStagingDirectory;

/* what names the target in the error ("the raster": "cannot write the raster \"PATH\" ..."; NULL: the path alone).
 * Fails with SHEPARD_APP_ERROR_WRITE when the target's directory cannot be written. */
ShepardStagingDirectory *shepard_staging_directory_new (const char *target_path, const char *what, GError **error);

/* Where to write the target: inside the staging directory, under the target's own file name, so that the names of
 * side-car files come out right. */
const char *shepard_staging_directory_get_path (const ShepardStagingDirectory *staging);

/* Moves every file written onto the target's directory, the side-car files first so that the target, last, appears
 * whole. Then, when the target existed as staging began, removes those of stale_side_cars (file names beside the
 * target, NULL-terminated, may be NULL) that were not written: the old target's side-car would otherwise describe
 * the new one. When it did not exist, a file beside it under a side-car's name is another file's (a Shapefile's .prj
 * beside a new CSV): commit then fails and moves nothing. */
gboolean shepard_staging_directory_commit (ShepardStagingDirectory *staging, const char *const *stale_side_cars,
                                           GError **error);

/* Unless committed, removes the directory and every file written into it. */
void shepard_staging_directory_free (ShepardStagingDirectory *staging);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ShepardStagingDirectory, shepard_staging_directory_free)

G_END_DECLS
