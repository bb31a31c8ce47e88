/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cpl_string.h>
#include <gdal.h>
#include <ogr_api.h>
#include <glib.h>

/* GDAL handles are opaque pointers, so they take g_auto (not g_autoptr). */
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (GDALDatasetH, GDALClose, NULL)
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRFeatureH, OGR_F_Destroy, NULL)

typedef char **ShepardCslList;
G_DEFINE_AUTO_CLEANUP_FREE_FUNC (ShepardCslList, CSLDestroy, NULL)
