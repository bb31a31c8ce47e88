/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define SHEPARD_TYPE_APPLICATION (shepard_application_get_type ())
G_DECLARE_FINAL_TYPE (ShepardApplication, shepard_application, SHEPARD, APPLICATION, GtkApplication)

ShepardApplication *shepard_application_new (void);

G_END_DECLS
