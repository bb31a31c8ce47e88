/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <ogr_api.h>

G_BEGIN_DECLS

/* Which fields of a layer hold the values to interpolate: numbers, or text whose cells are mostly numbers. */

/* Whether field index holds numbers: a numeric type, or a text column most of whose cells that are not empty or
 * marked missing parse as numbers (text-number.h; reads the whole layer). */
gboolean shepard_value_field_holds_numbers (OGRLayerH layer, int index);

/* The index of the field named wanted; -1 with SHEPARD_APP_ERROR_NO_FIELD, naming the layer's numeric fields, when
 * there is none or it does not hold numbers. */
int shepard_value_field_find (OGRLayerH layer, const char *wanted, GError **error);

G_END_DECLS
