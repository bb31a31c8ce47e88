/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "method-spec.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "shepard-app-error.h"

/* What a specification sets: the engine's parameters and the raster's nodata value. */
typedef struct {
  shepard_params params;
  ShepardMethodNodata nodata;
} ParsedSpec;

typedef gboolean (*OptionParser) (const char *name, const char *value, ParsedSpec *parsed, GError **error);

typedef struct {
  const char *name;
  OptionParser parse;
  const char *synonym_of; /* the option this name is another name of; NULL */
} MethodOption;

static gboolean
parse_real (const char *name, const char *text, double *result, GError **error)
{
  char *end = NULL;

  errno = 0;
  double value = g_ascii_strtod (text, &end);
  /* A subnormal number sets ERANGE too, yet is what was written: only an overflow or an underflow to zero fails. */
  gboolean out_of_range = errno != 0 && !(errno == ERANGE && value != 0.0);
  if (end == text || *end != '\0' || out_of_range || !isfinite (value))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a number, not \"%s\"", name, text);
      return FALSE;
    }
  *result = value;
  return TRUE;
}

static gboolean
parse_whole (const char *name, const char *text, int lowest, int highest, int *result, GError **error)
{
  guint64 value = 0;

  if (!g_ascii_string_to_unsigned (text, 10, (guint64) lowest, (guint64) highest, &value, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a whole number from %d to %d, not \"%s\"", name, lowest, highest, text);
      return FALSE;
    }
  *result = (int) value;
  return TRUE;
}

static gboolean
parse_count (const char *name, const char *text, int *result, GError **error)
{
  return parse_whole (name, text, 1, SHEPARD_MAX_NEIGHBORS, result, error);
}

static gboolean
parse_power (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_real (name, value, &parsed->params.power, error);
}

static gboolean
parse_k (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_count (name, value, &parsed->params.k, error);
}

static gboolean
parse_r_min (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_real (name, value, &parsed->params.r_min, error);
}

static gboolean
parse_r_max (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_real (name, value, &parsed->params.r_max, error);
}

static gboolean
parse_max_points (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  if (g_ascii_strcasecmp (value, "all") == 0)
    {
      parsed->params.neighbors = SHEPARD_NEIGHBORS_ALL;
      return TRUE;
    }
  if (!parse_count (name, value, &parsed->params.neighbors, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs \"all\" or a whole number from 1 to %d, not \"%s\"", name,
                   SHEPARD_MAX_NEIGHBORS, value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_smoothing (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  double smoothing;

  if (!parse_real (name, value, &smoothing, error))
    return FALSE;
  if (smoothing < 0.0)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a distance of 0 or more in map units, not \"%s\"", name, value);
      return FALSE;
    }
  parsed->params.smoothing = smoothing;
  return TRUE;
}

/* A search distance: above zero, in map units. */
static gboolean
parse_distance (const char *name, const char *text, double *result, GError **error)
{
  double distance;

  if (!parse_real (name, text, &distance, error))
    return FALSE;
  if (!(distance > 0.0))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a distance above 0 in map units, not \"%s\": give a larger %s, or leave "
                   "it out to search every point",
                   name, text, name);
      return FALSE;
    }
  *result = distance;
  return TRUE;
}

static gboolean
parse_radius (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  double radius;

  if (!parse_distance (name, value, &radius, error))
    return FALSE;
  parsed->params.radius1 = parsed->params.radius2 = radius;
  return TRUE;
}

static gboolean
parse_radius1 (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_distance (name, value, &parsed->params.radius1, error);
}

static gboolean
parse_radius2 (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_distance (name, value, &parsed->params.radius2, error);
}

static gboolean
parse_angle (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_real (name, value, &parsed->params.angle, error);
}

static gboolean
parse_min_points (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_whole (name, value, 0, G_MAXINT, &parsed->params.min_points, error);
}

static gboolean
parse_max_points_per_quadrant (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_whole (name, value, 0, SHEPARD_MAX_NEIGHBORS, &parsed->params.max_points_per_quadrant, error);
}

static gboolean
parse_min_points_per_quadrant (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  return parse_whole (name, value, 0, SHEPARD_MAX_NEIGHBORS, &parsed->params.min_points_per_quadrant, error);
}

/* Any number, as GDAL takes a nodata value: "nan" too. */
static gboolean
parse_nodata (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  double nodata;

  if (g_ascii_strcasecmp (value, "nan") == 0)
    nodata = NAN;
  else if (!parse_real (name, value, &nodata, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a number (or nan), not \"%s\"", name, value);
      return FALSE;
    }
  parsed->nodata = (ShepardMethodNodata) { .is_set = TRUE, .value = nodata };
  return TRUE;
}

static gboolean
parse_alpha (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  g_auto (GStrv) levels = g_strsplit (value, ",", -1);

  if (g_strv_length (levels) != SHEPARD_AIDW_LEVELS)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs %d comma-separated numbers (alpha1,...,alpha5), not \"%s\"", name,
                   SHEPARD_AIDW_LEVELS, value);
      return FALSE;
    }
  double alpha[SHEPARD_AIDW_LEVELS];
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    if (!parse_real (name, levels[level], &alpha[level], error))
      return FALSE;
  memcpy (parsed->params.alpha, alpha, sizeof alpha);
  return TRUE;
}

static gboolean
parse_area (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  shepard_params *params = &parsed->params;

  if (g_ascii_strcasecmp (value, "bbox") == 0)
    {
      params->area_mode = SHEPARD_AREA_BOUNDING_BOX;
      return TRUE;
    }
  if (g_ascii_strcasecmp (value, "hull") == 0)
    {
      params->area_mode = SHEPARD_AREA_CONVEX_HULL;
      return TRUE;
    }
  if (!parse_real (name, value, &params->area, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs \"bbox\", \"hull\" or an area in squared map units, not \"%s\"", name,
                   value);
      return FALSE;
    }
  params->area_mode = SHEPARD_AREA_GIVEN;
  return TRUE;
}

static gboolean
parse_rexp (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  shepard_params *params = &parsed->params;

  if (g_ascii_strcasecmp (value, "nearest") == 0)
    params->rexp = SHEPARD_REXP_NEAREST;
  else if (g_ascii_strcasecmp (value, "knn") == 0)
    params->rexp = SHEPARD_REXP_KNN;
  else
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs \"nearest\" (the distance to the nearest neighbour, the papers' r_exp) "
                   "or \"knn\" (the mean distance to the k nearest), not \"%s\"", name, value);
      return FALSE;
    }
  return TRUE;
}

static const struct {
  const char *word;
  shepard_summation summation;
} summation_words[] = {
  { "auto", SHEPARD_SUMMATION_AUTO },
  { "exact", SHEPARD_SUMMATION_EXACT },
  { "farfield", SHEPARD_SUMMATION_FAR_FIELD },
};

static gboolean
parse_summation (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  for (size_t i = 0; i < G_N_ELEMENTS (summation_words); i++)
    if (g_ascii_strcasecmp (value, summation_words[i].word) == 0)
      {
        parsed->params.summation = summation_words[i].summation;
        return TRUE;
      }
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "method option %s needs \"auto\" (the far field where it costs less), \"exact\" (every pair) or "
               "\"farfield\" (the far field wherever it applies), not \"%s\"", name, value);
  return FALSE;
}

/* Checked here rather than left to the engine, so that the message names the option as it was written. */
static gboolean
parse_tolerance (const char *name, const char *value, ParsedSpec *parsed, GError **error)
{
  double tolerance;

  if (!parse_real (name, value, &tolerance, error))
    return FALSE;
  if (!(tolerance >= SHEPARD_FAR_FIELD_TOLERANCE_MIN && tolerance <= SHEPARD_FAR_FIELD_TOLERANCE_MAX))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a number from %g to %g (a share of each field's value range), not \"%s\"",
                   name, SHEPARD_FAR_FIELD_TOLERANCE_MIN, SHEPARD_FAR_FIELD_TOLERANCE_MAX, value);
      return FALSE;
    }
  parsed->params.tolerance = tolerance;
  return TRUE;
}

/* gdal_grid's neighbourhood options, which both methods take; neighbors is our older name of max_points. Then how the
 * sums over all points are made, and the raster's nodata value. */
#define COMMON_OPTIONS                                                                                               \
  { "smoothing", parse_smoothing, NULL }, { "radius", parse_radius, NULL }, { "radius1", parse_radius1, NULL },      \
    { "radius2", parse_radius2, NULL }, { "angle", parse_angle, NULL }, { "max_points", parse_max_points, NULL },    \
    { "neighbors", parse_max_points, "max_points" }, { "min_points", parse_min_points, NULL },                       \
    { "max_points_per_quadrant", parse_max_points_per_quadrant, NULL },                                              \
    { "min_points_per_quadrant", parse_min_points_per_quadrant, NULL }, { "summation", parse_summation, NULL },      \
    { "tolerance", parse_tolerance, NULL }, { "nodata", parse_nodata, NULL }

static const MethodOption idw_options[] = {
  { "power", parse_power, NULL },
  COMMON_OPTIONS,
};

static const MethodOption aidw_options[] = {
  { "k", parse_k, NULL },
  { "alpha", parse_alpha, NULL },
  { "rmin", parse_r_min, NULL },
  { "rmax", parse_r_max, NULL },
  { "area", parse_area, NULL },
  { "rexp", parse_rexp, NULL },
  COMMON_OPTIONS,
};

typedef struct {
  const char *name;
  void (*init) (shepard_params *params);
  const MethodOption *options;
  size_t n_options;
} Method;

static const Method methods[] = {
  { "idw", shepard_params_init_idw, idw_options, G_N_ELEMENTS (idw_options) },
  { "aidw", shepard_params_init_aidw, aidw_options, G_N_ELEMENTS (aidw_options) },
};

static char *
join_option_names (const Method *method)
{
  GString *names = g_string_new (NULL);

  for (size_t i = 0; i < method->n_options; i++)
    if (method->options[i].synonym_of == NULL)
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", method->options[i].name);
  return g_string_free (names, FALSE);
}

static const Method *
find_method (const char *name, GError **error)
{
  for (size_t i = 0; i < G_N_ELEMENTS (methods); i++)
    if (g_ascii_strcasecmp (name, methods[i].name) == 0)
      return &methods[i];

  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "unknown method \"%s\": use idw or aidw, e.g. idw:power=2 or aidw:k=15", name);
  return NULL;
}

static const MethodOption *
find_option (const Method *method, const char *name, GError **error)
{
  for (size_t i = 0; i < method->n_options; i++)
    if (g_ascii_strcasecmp (name, method->options[i].name) == 0)
      return &method->options[i];

  g_autofree char *known = join_option_names (method);
  g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
               "unknown option \"%s\" for method %s; its options are %s", name, method->name, known);
  return NULL;
}

static const char *
option_key (const MethodOption *option)
{
  return option->synonym_of != NULL ? option->synonym_of : option->name;
}

static gboolean G_GNUC_PRINTF (2, 3)
refuse (GError **error, const char *format, ...)
{
  va_list arguments;

  va_start (arguments, format);
  g_autofree char *message = g_strdup_vprintf (format, arguments);
  va_end (arguments);
  g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER, message);
  return FALSE;
}

/* What options say together, in gdal_grid's terms, before the engine checks the numbers. */
static gboolean
check_combination (GHashTable *seen, const shepard_params *params, GError **error)
{
  gboolean radius = g_hash_table_contains (seen, "radius");
  gboolean radius1 = g_hash_table_contains (seen, "radius1"), radius2 = g_hash_table_contains (seen, "radius2");
  gboolean max_points = g_hash_table_contains (seen, "max_points");

  if (radius && (radius1 || radius2))
    return refuse (error, "radius (a search circle) and %s (a search ellipse) exclude each other: give radius=R, or "
                   "radius1=R1:radius2=R2[:angle=A]",
                   radius1 ? "radius1" : "radius2");
  if (radius1 != radius2)
    return refuse (error, "%s needs %s: the search ellipse takes both semi-axes (radius1=R1:radius2=R2), a circle "
                   "radius=R",
                   radius1 ? "radius1" : "radius2", radius1 ? "radius2" : "radius1");
  if (g_hash_table_contains (seen, "angle") && !radius1)
    return refuse (error, "angle turns the search ellipse of radius1 and radius2: give radius1=R1:radius2=R2 too, or "
                   "leave angle out");
  if (max_points && params->neighbors != SHEPARD_NEIGHBORS_ALL && params->min_points > params->neighbors)
    return refuse (error, "min_points=%d is larger than max_points=%d, so no cell could get a value: lower min_points "
                   "or raise max_points",
                   params->min_points, params->neighbors);
  if (params->max_points_per_quadrant > 0 && params->min_points_per_quadrant > params->max_points_per_quadrant)
    return refuse (error, "min_points_per_quadrant=%d is larger than max_points_per_quadrant=%d, so no cell could get "
                   "a value: lower min_points_per_quadrant or raise max_points_per_quadrant",
                   params->min_points_per_quadrant, params->max_points_per_quadrant);
  return TRUE;
}

/* Parses spec into parsed; seen (a set of option names) gets the name of every option spec gives, a synonym's under
 * the name it stands for. */
static gboolean
parse_spec (const char *spec, ParsedSpec *parsed, GHashTable *seen, GError **error)
{
  g_auto (GStrv) parts = g_strsplit (spec, ":", -1);
  const Method *method = find_method (parts[0] != NULL ? parts[0] : "", error);
  if (method == NULL)
    return FALSE;

  *parsed = (ParsedSpec) { 0 };
  method->init (&parsed->params);

  for (size_t i = 1; parts[i] != NULL; i++)
    {
      const char *equals = strchr (parts[i], '=');
      if (equals == NULL || equals == parts[i] || equals[1] == '\0')
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "method option \"%s\" must be written NAME=VALUE, e.g. %s", parts[i],
                       method == &methods[0] ? "idw:power=3" : "aidw:k=10");
          return FALSE;
        }
      g_autofree char *name = g_strndup (parts[i], (gsize) (equals - parts[i]));
      const MethodOption *option = find_option (method, name, error);
      if (option == NULL)
        return FALSE;
      if (!g_hash_table_add (seen, (gpointer) option_key (option)))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "method option %s is given twice in \"%s\"; give it once", option_key (option), spec);
          return FALSE;
        }
      if (!option->parse (option->name, equals + 1, parsed, error))
        return FALSE;
    }
  if (!check_combination (seen, &parsed->params, error))
    return FALSE;

  shepard_error engine_error = { 0 };
  if (shepard_params_validate (&parsed->params, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  return TRUE;
}

gboolean
shepard_method_spec_parse_with_nodata (const char *spec, shepard_params *params, ShepardMethodNodata *nodata,
                                       GError **error)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (params != NULL && nodata != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ParsedSpec parsed;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  if (!parse_spec (spec, &parsed, seen, error))
    return FALSE;
  *params = parsed.params;
  *nodata = parsed.nodata;
  return TRUE;
}

gboolean
shepard_method_spec_parse (const char *spec, shepard_params *params, GError **error)
{
  ShepardMethodNodata nodata;

  return shepard_method_spec_parse_with_nodata (spec, params, &nodata, error);
}

gboolean
shepard_method_spec_parse_for_cross_validation (const char *spec, shepard_params *params, GError **error)
{
  g_return_val_if_fail (spec != NULL && params != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  ParsedSpec parsed;
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  if (!parse_spec (spec, &parsed, seen, error))
    return FALSE;
  /* Taken in silence, either would have the user believe the errors measured are those of a far-field surface. */
  gboolean far_field = parsed.params.summation == SHEPARD_SUMMATION_FAR_FIELD;
  gboolean tolerance = g_hash_table_contains (seen, "tolerance");
  if (far_field || tolerance)
    {
      gboolean both = far_field && tolerance;
      return refuse (error, "method %s %s not apply to cross-validation, which weighs every pair exactly: drop %s "
                     "from the method",
                     both ? "options summation=farfield and tolerance"
                          : far_field ? "option summation=farfield" : "option tolerance",
                     both ? "do" : "does", both ? "them" : "it");
    }
  /* Cross-validation writes no raster: a nodata value would be taken for something it sets. */
  if (parsed.nodata.is_set)
    return refuse (error, "method option nodata sets the value of a raster's empty cells, and cross-validation "
                   "writes no raster: drop it from the method");
  *params = parsed.params;
  return TRUE;
}

/* Whether two doubles are the same number, telling -0 from 0 (a parse gives back what was written, sign and all). */
static gboolean
same_number (double a, double b)
{
  return a == b && signbit (a) == signbit (b);
}

/* The fewest significant digits that read back to exactly value: %.17g always does, shorter often. A whole number
 * below 10^17 is written out (150, not 1.5e+02): more digits still read back to it. */
static void
append_number (GString *text, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];
  char format[8];
  int digits = 1;

  for (; digits <= 17; digits++)
    {
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (same_number (g_ascii_strtod (buffer, NULL), value))
        break;
    }
  const char *exponent = strchr (buffer, 'e');
  int power_of_ten = exponent != NULL ? atoi (exponent + 1) : 0;
  if (exponent != NULL && power_of_ten >= digits && power_of_ten < 17)
    {
      g_snprintf (format, sizeof format, "%%.%dg", power_of_ten + 1);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
    }
  g_string_append (text, buffer);
}

static void
append_real_option (GString *text, const char *name, double value)
{
  g_string_append_printf (text, ":%s=", name);
  append_number (text, value);
}

static void
append_count_option (GString *text, const char *name, int value)
{
  if (value != 0)
    g_string_append_printf (text, ":%s=%d", name, value);
}

static void
append_aidw_options (GString *text, const shepard_params *params, const shepard_params *defaults)
{
  if (params->k != defaults->k)
    g_string_append_printf (text, ":k=%d", params->k);

  gboolean default_alpha = TRUE;
  for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
    default_alpha = default_alpha && same_number (params->alpha[level], defaults->alpha[level]);
  if (!default_alpha)
    {
      g_string_append (text, ":alpha=");
      for (int level = 0; level < SHEPARD_AIDW_LEVELS; level++)
        {
          if (level > 0)
            g_string_append_c (text, ',');
          append_number (text, params->alpha[level]);
        }
    }
  if (!same_number (params->r_min, defaults->r_min))
    append_real_option (text, "rmin", params->r_min);
  if (!same_number (params->r_max, defaults->r_max))
    append_real_option (text, "rmax", params->r_max);
  if (params->area_mode == SHEPARD_AREA_CONVEX_HULL)
    g_string_append (text, ":area=hull");
  else if (params->area_mode == SHEPARD_AREA_GIVEN)
    append_real_option (text, "area", params->area);
  if (params->rexp == SHEPARD_REXP_KNN)
    g_string_append (text, ":rexp=knn");
}

static void
append_neighbourhood_options (GString *text, const shepard_params *params)
{
  if (!same_number (params->smoothing, 0.0))
    append_real_option (text, "smoothing", params->smoothing);
  if (params->radius1 > 0.0 && params->radius1 == params->radius2 && same_number (params->angle, 0.0))
    append_real_option (text, "radius", params->radius1);
  else if (params->radius1 > 0.0)
    {
      append_real_option (text, "radius1", params->radius1);
      append_real_option (text, "radius2", params->radius2);
      if (!same_number (params->angle, 0.0))
        append_real_option (text, "angle", params->angle);
    }
  append_count_option (text, "max_points", params->neighbors);
  append_count_option (text, "min_points", params->min_points);
  append_count_option (text, "max_points_per_quadrant", params->max_points_per_quadrant);
  append_count_option (text, "min_points_per_quadrant", params->min_points_per_quadrant);
}

static void
append_summation_options (GString *text, const shepard_params *params)
{
  for (size_t i = 0; i < G_N_ELEMENTS (summation_words); i++)
    if (params->summation != SHEPARD_SUMMATION_AUTO && params->summation == summation_words[i].summation)
      g_string_append_printf (text, ":summation=%s", summation_words[i].word);
  if (!same_number (params->tolerance, SHEPARD_FAR_FIELD_TOLERANCE))
    append_real_option (text, "tolerance", params->tolerance);
}

char *
shepard_method_spec_format_with_nodata (const shepard_params *params, const ShepardMethodNodata *nodata)
{
  g_return_val_if_fail (params != NULL, NULL);

  shepard_params defaults;
  GString *text = g_string_new (NULL);

  if (params->method == SHEPARD_METHOD_AIDW)
    {
      shepard_params_init_aidw (&defaults);
      g_string_append (text, "aidw");
      append_aidw_options (text, params, &defaults);
    }
  else
    {
      shepard_params_init_idw (&defaults);
      g_string_append (text, "idw");
      if (!same_number (params->power, defaults.power))
        append_real_option (text, "power", params->power);
    }
  append_neighbourhood_options (text, params);
  append_summation_options (text, params);
  if (nodata != NULL && nodata->is_set)
    {
      if (isnan (nodata->value))
        g_string_append (text, ":nodata=nan");
      else
        append_real_option (text, "nodata", nodata->value);
    }
  return g_string_free (text, FALSE);
}

char *
shepard_method_spec_format (const shepard_params *params)
{
  return shepard_method_spec_format_with_nodata (params, NULL);
}
