/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "engine-private.h"

#include <stdarg.h>
#include <stdio.h>

shepard_status
shepard_fail (shepard_error *error, shepard_status code, const char *format, ...)
{
  if (error != NULL)
    {
      va_list args;
      va_start (args, format);
      error->code = code;
      vsnprintf (error->message, sizeof error->message, format, args);
      va_end (args);
    }
  return code;
}

const char *
shepard_status_name (shepard_status status)
{
  switch (status)
    {
    case SHEPARD_OK: return "ok";
    case SHEPARD_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case SHEPARD_ERROR_NO_POINTS: return "no points";
    case SHEPARD_ERROR_DEGENERATE_AREA: return "degenerate study area";
    case SHEPARD_ERROR_SIZE_OVERFLOW: return "size overflow";
    case SHEPARD_ERROR_OUT_OF_MEMORY: return "out of memory";
    case SHEPARD_ERROR_CANCELLED: return "cancelled";
    case SHEPARD_ERROR_NO_DEVICE: return "no device";
    case SHEPARD_ERROR_DEVICE: return "device error";
    case SHEPARD_ERROR_INTERNAL: return "internal error";
    }
  return "unknown status";
}
