/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* What a text cell of a value column holds: spreadsheets and R write missing values as empty cells or as "NA". */
typedef enum {
  SHEPARD_TEXT_NUMBER,     /* a number, in C syntax ("12.5", "-3e2"), surrounding blanks aside */
  SHEPARD_TEXT_EMPTY,      /* nothing but blanks */
  SHEPARD_TEXT_MISSING,    /* a missing-value mark: NA, N/A, #N/A, NaN, null, None, nil, "-", "." (any case) */
  SHEPARD_TEXT_UNPARSABLE, /* anything else ("abc", "12 m", "1,5") */
} ShepardTextNumber;

/* Reads text (NULL: empty) as a value cell; value gets the number when it is one. */
ShepardTextNumber shepard_text_number_parse (const char *text, double *value);

G_END_DECLS
