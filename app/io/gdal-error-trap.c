/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "gdal-error-trap.h"

static void CPL_STDCALL
trap_error_handler (CPLErr error_class, CPLErrorNum error_number, const char *message)
{
  ShepardGdalErrorTrap *trap = CPLGetErrorHandlerUserData ();

  if (error_class == CE_Failure || error_class == CE_Fatal)
    {
      g_free (trap->failure_message);
      trap->failure_message = g_strdup (message);
    }
  else if (error_class == CE_Warning)
    {
      g_free (trap->warning_message);
      trap->warning_message = g_strdup (message);
    }
}

void
shepard_gdal_error_trap_push (ShepardGdalErrorTrap *trap)
{
  g_return_if_fail (trap != NULL);

  *trap = (ShepardGdalErrorTrap) SHEPARD_GDAL_ERROR_TRAP_INIT;
  CPLPushErrorHandlerEx (trap_error_handler, trap);
}

void
shepard_gdal_error_trap_pop (ShepardGdalErrorTrap *trap)
{
  g_return_if_fail (trap != NULL);

  CPLPopErrorHandler ();
  shepard_gdal_error_trap_clear (trap);
}

void
shepard_gdal_error_trap_clear (ShepardGdalErrorTrap *trap)
{
  g_return_if_fail (trap != NULL);

  g_clear_pointer (&trap->failure_message, g_free);
  g_clear_pointer (&trap->warning_message, g_free);
}

gboolean
shepard_gdal_error_trap_has_failure (const ShepardGdalErrorTrap *trap)
{
  return trap->failure_message != NULL;
}

const char *
shepard_gdal_error_trap_reason (const ShepardGdalErrorTrap *trap, const char *fallback)
{
  if (trap->failure_message != NULL)
    return trap->failure_message;
  if (trap->warning_message != NULL)
    return trap->warning_message;
  return fallback;
}
