/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "gdal-driver.h"

#include <cpl_string.h>

gboolean
shepard_gdal_driver_has_capability (GDALDriverH driver, const char *capability)
{
  g_return_val_if_fail (driver != NULL && capability != NULL, FALSE);

  const char *value = GDALGetMetadataItem (driver, capability, NULL);

  return value != NULL && CPLTestBool (value);
}
