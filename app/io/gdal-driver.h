/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gdal.h>
#include <glib.h>

G_BEGIN_DECLS

/* Whether the driver declares a capability (GDAL_DCAP_RASTER, GDAL_DCAP_CREATE...) as true: drivers write "YES", but
 * a value CPLTestBool reads as false ("NO", "FALSE") declares it absent. */
gboolean shepard_gdal_driver_has_capability (GDALDriverH driver, const char *capability);

G_END_DECLS
