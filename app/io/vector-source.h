/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "gdal-error-trap.h"

G_BEGIN_DECLS

/* Opening a vector file and picking one of its layers, as the readers of point, context and cutline layers do. Each
 * words its own messages: only it knows what the layer is for. */

/* Opens source as a vector dataset with the driver's open_options (NULL: none); trap, pushed by the caller, catches
 * GDAL's messages. NULL on failure, with *reason set to why as a clause to write into a sentence (without the full
 * stop GDAL's messages end with, or not); free it with g_free. */
GDALDatasetH shepard_vector_source_open (const char *source, const char *const *open_options,
                                         const ShepardGdalErrorTrap *trap, char **reason);

/* The layer named wanted, else the one at index wanted (a 0-based decimal number); the first layer when wanted is
 * NULL. NULL when the dataset has no such layer, or no layer at all. */
OGRLayerH shepard_vector_source_find_layer (GDALDatasetH dataset, const char *wanted);

/* The names of the dataset's layers, each between open_quote and close_quote, separated by ", ", for a message that
 * tells which layers there are. Free with g_free. */
char *shepard_vector_source_layer_names (GDALDatasetH dataset, const char *open_quote, const char *close_quote);

G_END_DECLS
