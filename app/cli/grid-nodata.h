/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

#include "grid-command-line.h"
#include "method-spec.h"
#include "raster-format.h"

G_BEGIN_DECLS

/* shepard-grid's nodata, from the values of every field [value_min, value_max]: nodata=V of -a, else -a_nodata,
 * else a default that no value reaches. A nodata value the user gives is written as given, as gdal_grid does, even
 * where interpolated values could reach it: then a warning says so on stderr (unless quiet). Sets format's
 * has_nodata and nodata; fails when -a and -a_nodata give two values. */
gboolean shepard_grid_choose_nodata (const ShepardGridOptions *options, const ShepardMethodNodata *method_nodata,
                                     double value_min, double value_max, ShepardRasterFormat *format,
                                     GError **error);

/* GDAL clamps what a Float32 band cannot hold to its largest value, which would change the values unsaid: fails
 * (asking for -ot Float64) where the values reach beyond it. */
gboolean shepard_grid_check_values_fit (GDALDataType data_type, double value_min, double value_max, GError **error);

G_END_DECLS
