/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Sets the C library's allocator up for a long-running window, before any thread starts: memory freed in large blocks
 * goes back to the system at once, and worker threads share a few arenas. A no-op off glibc. */
void shepard_tune_memory (void);

G_END_DECLS
