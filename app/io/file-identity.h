/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* TRUE when both paths name one existing file (through symbolic or hard links), or, when one does not exist, when
 * they are the same path once made absolute and rid of "." and "..". */
gboolean shepard_paths_name_same_file (const char *first, const char *second);

G_END_DECLS
