/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <ogr_api.h>
#include <ogr_srs_api.h>

G_BEGIN_DECLS

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (OGRCoordinateTransformationH, OCTDestroyCoordinateTransformation, NULL)

/* The transformation of a vector layer's geometries into the points' CRS (target_crs_wkt: any definition
 * OSRSetFromUserInput takes), with x as easting or longitude on both sides whatever axis order the CRSs' authorities
 * define. NULL without an error when none is needed: the CRSs are the same, or either is unknown. described: how
 * messages name the layer to the user ("the cutline “banks.gpkg”"). Fails with SHEPARD_APP_ERROR_GEOMETRY. */
OGRCoordinateTransformationH shepard_layer_reprojection_new (OGRLayerH layer, const char *target_crs_wkt,
                                                             const char *described, GError **error);

G_END_DECLS
