/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "shepard-app-error.h"

G_DEFINE_QUARK (shepard-app-error-quark, shepard_app_error)

static ShepardAppError
app_error_code_for_status (shepard_status status)
{
  switch (status)
    {
    case SHEPARD_ERROR_INVALID_ARGUMENT:
      return SHEPARD_APP_ERROR_INVALID_PARAMETER;
    case SHEPARD_ERROR_NO_POINTS:
      return SHEPARD_APP_ERROR_NO_POINTS;
    case SHEPARD_ERROR_DEGENERATE_AREA:
      return SHEPARD_APP_ERROR_DEGENERATE_AREA;
    case SHEPARD_ERROR_CANCELLED:
      return SHEPARD_APP_ERROR_CANCELLED;
    case SHEPARD_ERROR_NO_DEVICE:
      return SHEPARD_APP_ERROR_NO_DEVICE;
    case SHEPARD_OK:
    case SHEPARD_ERROR_SIZE_OVERFLOW:
    case SHEPARD_ERROR_OUT_OF_MEMORY:
    case SHEPARD_ERROR_DEVICE:
    case SHEPARD_ERROR_INTERNAL:
    default:
      return SHEPARD_APP_ERROR_ENGINE;
    }
}

void
shepard_app_error_set_from_engine (GError **error, const shepard_error *engine_error)
{
  g_return_if_fail (engine_error != NULL);

  const char *message = engine_error->message[0] != '\0' ? engine_error->message
                                                         : shepard_status_name (engine_error->code);
  g_set_error_literal (error, SHEPARD_APP_ERROR, app_error_code_for_status (engine_error->code), message);
}
