/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cpl_error.h>
#include <glib.h>

G_BEGIN_DECLS

/* Collects the messages GDAL raises on this thread between push and pop instead of printing them, so that the
 * reason of a failure ends up in a GError. */
typedef struct {
  char *failure_message; /* the last CE_Failure or CE_Fatal */
  char *warning_message; /* the last CE_Warning */
} ShepardGdalErrorTrap;

#define SHEPARD_GDAL_ERROR_TRAP_INIT { NULL, NULL }

void shepard_gdal_error_trap_push (ShepardGdalErrorTrap *trap);
void shepard_gdal_error_trap_pop (ShepardGdalErrorTrap *trap);

/* Forgets what was collected so far (the trap stays installed). */
void shepard_gdal_error_trap_clear (ShepardGdalErrorTrap *trap);

gboolean shepard_gdal_error_trap_has_failure (const ShepardGdalErrorTrap *trap);

/* The last failure, else the last warning, else fallback. */
const char *shepard_gdal_error_trap_reason (const ShepardGdalErrorTrap *trap, const char *fallback);

/* g_auto (ShepardGdalErrorTrap) trap = SHEPARD_GDAL_ERROR_TRAP_INIT; then push at once: leaving the scope pops. */
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (ShepardGdalErrorTrap, shepard_gdal_error_trap_pop)

G_END_DECLS
