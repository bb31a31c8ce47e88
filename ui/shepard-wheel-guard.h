/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Turning the wheel over a slider or spin button inside scroller scrolls scroller unless that control has the
 * keyboard focus: only a control the user chose (by clicking or tabbing into it) takes the wheel. Guards the controls
 * the scroller's content holds when it is called. */
void shepard_wheel_guard_attach (GtkScrolledWindow *scroller);

G_END_DECLS
