/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "vector-source.h"

#include <string.h>

GDALDatasetH
shepard_vector_source_open (const char *source, const char *const *open_options, const ShepardGdalErrorTrap *trap,
                            char **reason)
{
  g_return_val_if_fail (source != NULL && trap != NULL && reason != NULL, NULL);

  GDALDatasetH dataset = GDALOpenEx (source, GDAL_OF_VECTOR | GDAL_OF_VERBOSE_ERROR, NULL, open_options, NULL);
  if (dataset == NULL)
    {
      *reason = g_strdup (shepard_gdal_error_trap_reason (trap, "GDAL does not recognise its format"));
      if (g_str_has_suffix (*reason, "."))
        (*reason)[strlen (*reason) - 1] = '\0';
    }
  return dataset;
}

OGRLayerH
shepard_vector_source_find_layer (GDALDatasetH dataset, const char *wanted)
{
  g_return_val_if_fail (dataset != NULL, NULL);

  int count = GDALDatasetGetLayerCount (dataset);
  if (count == 0)
    return NULL;
  if (wanted == NULL)
    return GDALDatasetGetLayer (dataset, 0);
  OGRLayerH layer = GDALDatasetGetLayerByName (dataset, wanted);
  guint64 index = 0;
  if (layer == NULL && g_ascii_string_to_unsigned (wanted, 10, 0, (guint64) count - 1, &index, NULL))
    layer = GDALDatasetGetLayer (dataset, (int) index);
  return layer;
}

char *
shepard_vector_source_layer_names (GDALDatasetH dataset, const char *open_quote, const char *close_quote)
{
  g_return_val_if_fail (dataset != NULL && open_quote != NULL && close_quote != NULL, NULL);

  GString *names = g_string_new (NULL);
  for (int i = 0; i < GDALDatasetGetLayerCount (dataset); i++)
    g_string_append_printf (names, "%s%s%s%s", i > 0 ? ", " : "", open_quote,
                            OGR_L_GetName (GDALDatasetGetLayer (dataset, i)), close_quote);
  return g_string_free (names, FALSE);
}
