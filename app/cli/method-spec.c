/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "method-spec.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "shepard-app-error.h"

typedef gboolean (*OptionParser) (const char *name, const char *value, shepard_params *params, GError **error);

typedef struct {
  const char *name;
  OptionParser parse;
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
parse_count (const char *name, const char *text, int *result, GError **error)
{
  guint64 value = 0;

  if (!g_ascii_string_to_unsigned (text, 10, 1, SHEPARD_MAX_NEIGHBORS, &value, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs a whole number from 1 to %d, not \"%s\"", name, SHEPARD_MAX_NEIGHBORS,
                   text);
      return FALSE;
    }
  *result = (int) value;
  return TRUE;
}

static gboolean
parse_power (const char *name, const char *value, shepard_params *params, GError **error)
{
  return parse_real (name, value, &params->power, error);
}

static gboolean
parse_k (const char *name, const char *value, shepard_params *params, GError **error)
{
  return parse_count (name, value, &params->k, error);
}

static gboolean
parse_r_min (const char *name, const char *value, shepard_params *params, GError **error)
{
  return parse_real (name, value, &params->r_min, error);
}

static gboolean
parse_r_max (const char *name, const char *value, shepard_params *params, GError **error)
{
  return parse_real (name, value, &params->r_max, error);
}

static gboolean
parse_neighbors (const char *name, const char *value, shepard_params *params, GError **error)
{
  if (g_ascii_strcasecmp (value, "all") == 0)
    {
      params->neighbors = SHEPARD_NEIGHBORS_ALL;
      return TRUE;
    }
  if (!parse_count (name, value, &params->neighbors, NULL))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "method option %s needs \"all\" or a whole number from 1 to %d, not \"%s\"", name,
                   SHEPARD_MAX_NEIGHBORS, value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
parse_alpha (const char *name, const char *value, shepard_params *params, GError **error)
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
  memcpy (params->alpha, alpha, sizeof alpha);
  return TRUE;
}

static gboolean
parse_area (const char *name, const char *value, shepard_params *params, GError **error)
{
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
parse_rexp (const char *name, const char *value, shepard_params *params, GError **error)
{
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

static const MethodOption idw_options[] = {
  { "power", parse_power },
  { "neighbors", parse_neighbors },
};

static const MethodOption aidw_options[] = {
  { "k", parse_k },
  { "alpha", parse_alpha },
  { "rmin", parse_r_min },
  { "rmax", parse_r_max },
  { "area", parse_area },
  { "neighbors", parse_neighbors },
  { "rexp", parse_rexp },
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
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", method->options[i].name);
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

gboolean
shepard_method_spec_parse (const char *spec, shepard_params *params, GError **error)
{
  g_return_val_if_fail (spec != NULL, FALSE);
  g_return_val_if_fail (params != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  g_auto (GStrv) parts = g_strsplit (spec, ":", -1);
  const Method *method = find_method (parts[0] != NULL ? parts[0] : "", error);
  if (method == NULL)
    return FALSE;

  shepard_params parsed;
  method->init (&parsed);
  g_autoptr (GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

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
      if (!g_hash_table_add (seen, (gpointer) option->name))
        {
          g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                       "method option %s is given twice in \"%s\"; give it once", option->name, spec);
          return FALSE;
        }
      if (!option->parse (option->name, equals + 1, &parsed, error))
        return FALSE;
    }

  shepard_error engine_error = { 0 };
  if (shepard_params_validate (&parsed, &engine_error) != SHEPARD_OK)
    {
      shepard_app_error_set_from_engine (error, &engine_error);
      return FALSE;
    }
  *params = parsed;
  return TRUE;
}

/* Whether two doubles are the same number, telling -0 from 0 (a parse gives back what was written, sign and all). */
static gboolean
same_number (double a, double b)
{
  return a == b && signbit (a) == signbit (b);
}

/* The fewest significant digits that read back to exactly value: %.17g always does, shorter often. */
static void
append_number (GString *text, double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  for (int digits = 1; digits <= 17; digits++)
    {
      char format[8];
      g_snprintf (format, sizeof format, "%%.%dg", digits);
      g_ascii_formatd (buffer, sizeof buffer, format, value);
      if (same_number (g_ascii_strtod (buffer, NULL), value))
        break;
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
append_neighbors (GString *text, int neighbors)
{
  if (neighbors != SHEPARD_NEIGHBORS_ALL)
    g_string_append_printf (text, ":neighbors=%d", neighbors);
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
  append_neighbors (text, params->neighbors);
  if (params->rexp == SHEPARD_REXP_KNN)
    g_string_append (text, ":rexp=knn");
}

char *
shepard_method_spec_format (const shepard_params *params)
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
      append_neighbors (text, params->neighbors);
    }
  return g_string_free (text, FALSE);
}
