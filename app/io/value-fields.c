/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "value-fields.h"

#include "shepard-app-error.h"
#include "text-number.h"

static gboolean
is_numeric_field_type (OGRFieldType type)
{
  return type == OFTInteger || type == OFTInteger64 || type == OFTReal;
}

/* A text column is a value column when most of its cells that are not empty or marked missing are numbers: one "abc"
 * among numbers, or R's "NA", does not make a column of numbers text (QGIS #43286, #51826). Reads the whole layer. */
static gboolean
text_field_holds_numbers (OGRLayerH layer, int index)
{
  size_t numbers = 0, unparsable = 0;

  OGR_L_ResetReading (layer);
  for (OGRFeatureH feature; (feature = OGR_L_GetNextFeature (layer)) != NULL; OGR_F_Destroy (feature))
    {
      double value;
      if (!OGR_F_IsFieldSetAndNotNull (feature, index))
        continue;
      switch (shepard_text_number_parse (OGR_F_GetFieldAsString (feature, index), &value))
        {
        case SHEPARD_TEXT_NUMBER:
          numbers++;
          break;
        case SHEPARD_TEXT_UNPARSABLE:
          unparsable++;
          break;
        case SHEPARD_TEXT_EMPTY:
        case SHEPARD_TEXT_MISSING:
          break;
        }
    }
  OGR_L_ResetReading (layer);
  return numbers > 0 && numbers > unparsable;
}

gboolean
shepard_value_field_holds_numbers (OGRLayerH layer, int index)
{
  OGRFieldType type = OGR_Fld_GetType (OGR_FD_GetFieldDefn (OGR_L_GetLayerDefn (layer), index));

  return is_numeric_field_type (type) || (type == OFTString && text_field_holds_numbers (layer, index));
}

static char *
list_numeric_fields (OGRLayerH layer)
{
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);
  GString *names = g_string_new (NULL);

  for (int i = 0; i < OGR_FD_GetFieldCount (definition); i++)
    if (shepard_value_field_holds_numbers (layer, i))
      g_string_append_printf (names, "%s\"%s\"", names->len > 0 ? ", " : "",
                              OGR_Fld_GetNameRef (OGR_FD_GetFieldDefn (definition, i)));
  if (names->len == 0)
    g_string_append (names, "none");
  return g_string_free (names, FALSE);
}

int
shepard_value_field_find (OGRLayerH layer, const char *wanted, GError **error)
{
  OGRFeatureDefnH definition = OGR_L_GetLayerDefn (layer);
  int index = OGR_FD_GetFieldIndex (definition, wanted);

  if (index < 0)
    {
      g_autofree char *numeric = list_numeric_fields (layer);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD,
                   "layer \"%s\" has no field \"%s\": its numeric fields are %s", OGR_L_GetName (layer), wanted,
                   numeric);
      return -1;
    }
  if (!shepard_value_field_holds_numbers (layer, index))
    {
      OGRFieldType type = OGR_Fld_GetType (OGR_FD_GetFieldDefn (definition, index));
      g_autofree char *numeric = list_numeric_fields (layer);
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_FIELD,
                   "field \"%s\" of layer \"%s\" holds %s, not numbers: choose one of its numeric fields, %s", wanted,
                   OGR_L_GetName (layer), type == OFTString ? "text (most of its cells)" : OGR_GetFieldTypeName (type),
                   numeric);
      return -1;
    }
  return index;
}
