/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "shepard-wheel-guard.h"

G_BEGIN_DECLS

/* The guard's answer to a scroll of dy sent to control: TRUE when it scrolled scroller itself and control must not
 * see the event. Separate so that tests can ask it without synthesising events. */
gboolean _shepard_wheel_guard_handle (GtkScrolledWindow *scroller, GtkWidget *control, double dy, GdkScrollUnit unit);

G_END_DECLS
