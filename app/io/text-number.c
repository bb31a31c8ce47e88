/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "text-number.h"

#include <string.h>

static const char *const missing_marks[] = { "na", "n/a", "#n/a", "nan", "null", "none", "nil", "-", "." };

ShepardTextNumber
shepard_text_number_parse (const char *text, double *value)
{
  g_autofree char *trimmed = g_strstrip (g_strdup (text != NULL ? text : ""));

  if (trimmed[0] == '\0')
    return SHEPARD_TEXT_EMPTY;
  for (size_t i = 0; i < G_N_ELEMENTS (missing_marks); i++)
    if (g_ascii_strcasecmp (trimmed, missing_marks[i]) == 0)
      return SHEPARD_TEXT_MISSING;
  char *end = NULL;
  double number = g_ascii_strtod (trimmed, &end);
  /* strtod also takes "inf" and hexadecimal; a value column means decimal numbers, finite or marked missing. */
  if (end == trimmed || *end != '\0' || strpbrk (trimmed, "xXiInN") != NULL)
    return SHEPARD_TEXT_UNPARSABLE;
  *value = number;
  return SHEPARD_TEXT_NUMBER;
}
