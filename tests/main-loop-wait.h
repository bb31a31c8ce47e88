/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Waiting on the default main loop, for the tests of objects that deliver through it (app/model, ui/). GLib only. */
#pragma once

#include <glib.h>

/* Generous: software GL under Xvfb on 2 cores, and sanitized builds; the usual wait is a few seconds at most. */
#define WAIT_SECONDS 60

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until condition holds; FALSE after WAIT_SECONDS. */
gboolean wait_until (Condition condition, gpointer data);
/* Runs the main loop for this long, whatever happens meanwhile. */
void let_frames_pass (int milliseconds);
/* Condition on a pointer: set. */
gboolean is_set (gpointer data);
