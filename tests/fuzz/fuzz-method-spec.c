/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The method string of -a: whatever parses must format to a string that parses back to the same parameters and
 * nodata value, and format again to the same string. The input is the string (up to its first NUL byte). */
#include <math.h>
#include <string.h>

#include "fuzz-support.h"
#include "method-spec.h"
#include "shepard-app-error.h"

#define SAME_INT(field) (a->field == b->field)
#define SAME_DOUBLE(field) shepard_fuzz_same_double (a->field, b->field)

/* Field by field and bit by bit, every field of the contract: a field that the parser sets and the formatter leaves
 * out differs here, and so does a number written with too few digits. */
static gboolean
same_params (const shepard_params *a, const shepard_params *b)
{
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    if (!SAME_DOUBLE (alpha[level]))
      return FALSE;
  return SAME_INT (method) && SAME_DOUBLE (power) && SAME_INT (k) && SAME_DOUBLE (r_min) && SAME_DOUBLE (r_max)
         && SAME_INT (area_mode) && SAME_DOUBLE (area) && SAME_INT (neighbors) && SAME_INT (rexp)
         && SAME_DOUBLE (smoothing) && SAME_DOUBLE (radius1) && SAME_DOUBLE (radius2) && SAME_DOUBLE (angle)
         && SAME_INT (min_points) && SAME_INT (max_points_per_quadrant) && SAME_INT (min_points_per_quadrant)
         && SAME_INT (summation) && SAME_DOUBLE (tolerance);
}

/* NaN is one value to a nodata option ("nan"), whatever its bits. */
static gboolean
same_nodata (const ShepardMethodNodata *a, const ShepardMethodNodata *b)
{
  return SAME_INT (is_set)
         && (!a->is_set || (isnan (a->value) && isnan (b->value)) || shepard_fuzz_same_double (a->value, b->value));
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  shepard_fuzz_init ();
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *spec = g_strndup ((const char *) data, size);
  g_autoptr (GError) error = NULL;
  shepard_params parsed;
  ShepardMethodNodata nodata;

  if (!shepard_method_spec_parse_with_nodata (spec, &parsed, &nodata, &error))
    {
      SHEPARD_FUZZ_CHECK (error != NULL && error->domain == SHEPARD_APP_ERROR && error->message[0] != '\0',
                          "\"%s\" was refused without a message of ours", spec);
      return 0;
    }
  SHEPARD_FUZZ_CHECK (error == NULL, "\"%s\" parsed and set an error: %s", spec, error->message);

  g_autofree char *formatted = shepard_method_spec_format_with_nodata (&parsed, &nodata);
  g_autoptr (GError) reparse_error = NULL;
  shepard_params reparsed;
  ShepardMethodNodata renodata;
  SHEPARD_FUZZ_CHECK (shepard_method_spec_parse_with_nodata (formatted, &reparsed, &renodata, &reparse_error),
                      "\"%s\" parsed, but its formatted \"%s\" does not: %s", spec, formatted,
                      reparse_error->message);
  SHEPARD_FUZZ_CHECK (same_params (&parsed, &reparsed), "\"%s\" and its formatted \"%s\" give different parameters",
                      spec, formatted);
  SHEPARD_FUZZ_CHECK (same_nodata (&nodata, &renodata), "\"%s\" and its formatted \"%s\" give different nodata values",
                      spec, formatted);
  SHEPARD_FUZZ_CHECK (shepard_params_equal (&parsed, &reparsed),
                      "shepard_params_equal tells \"%s\" from its formatted \"%s\"", spec, formatted);
  g_autofree char *reformatted = shepard_method_spec_format_with_nodata (&reparsed, &renodata);
  SHEPARD_FUZZ_CHECK (strcmp (formatted, reformatted) == 0, "\"%s\" formats to \"%s\", then to \"%s\"", spec,
                      formatted, reformatted);
  return 0;
}
