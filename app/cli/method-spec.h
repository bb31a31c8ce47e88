/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* The value a raster gets where a cell has no data (nodata=V of a method specification). Not an engine parameter:
 * the engine writes NaN there, and the writer puts this value in its place. */
typedef struct {
  gboolean is_set; /* FALSE: the specification gives none (-a_nodata or the default applies) */
  double value;    /* any number, NaN included ("nan") */
} ShepardMethodNodata;

/* Parses a method specification into validated parameters, with gdal_grid's names and meanings:
 *   idw[:power=2]NEIGHBOURHOOD
 *   aidw[:k=15][:alpha=1.5,2,2.5,3,3.5][:rmin=0][:rmax=2][:area=bbox|hull|A][:rexp=nearest|knn]NEIGHBOURHOOD
 *   NEIGHBOURHOOD: [:smoothing=0][:radius=R | :radius1=R1:radius2=R2[:angle=0]][:max_points=all|N][:min_points=0]
 *                  [:max_points_per_quadrant=0][:min_points_per_quadrant=0][:summation=auto|exact|farfield]
 *                  [:tolerance=1e-6][:nodata=V]
 * neighbors=all|N is a synonym of max_points. tolerance is the far field's (shepard_params.tolerance); it is taken
 * and kept with summation=exact too, where it has no effect, so that every valid parameter set formats. Names are case-insensitive; every option has the default shown; an
 * unknown name fails naming the known ones, and options that cannot go together (radius with radius1, radius1
 * without radius2, angle without the ellipse, min_points above max_points...) fail naming them.
 * On failure params is left untouched and error is SHEPARD_APP_ERROR_INVALID_PARAMETER. */
gboolean shepard_method_spec_parse (const char *spec, shepard_params *params, GError **error);

/* As shepard_method_spec_parse, with nodata=V into nodata (not NULL; is_set FALSE when the specification has none). */
gboolean shepard_method_spec_parse_with_nodata (const char *spec, shepard_params *params, ShepardMethodNodata *nodata,
                                                GError **error);

/* As shepard_method_spec_parse, for a cross-validation, which weighs every pair exactly whatever the summation
 * (shepard_engine_cross_validate): summation=auto|exact are taken, summation=farfield and tolerance=T are refused
 * with a message that says so and asks to drop them. */
gboolean shepard_method_spec_parse_for_cross_validation (const char *spec, shepard_params *params, GError **error);

/* The shortest specification that shepard_method_spec_parse reads back to the same parameters: the fields the method
 * uses (IDW: power; AIDW: all but power; area only with SHEPARD_AREA_GIVEN; both: the neighbourhood, a circle as
 * radius, an ellipse as radius1, radius2 and angle; summation and tolerance), every number exactly, options at their defaults left out.
 * Valid parameters give a specification that parses; free with g_free. */
char *shepard_method_spec_format (const shepard_params *params);

/* The same, ending with :nodata=V when nodata is set (NULL: none). */
char *shepard_method_spec_format_with_nodata (const shepard_params *params, const ShepardMethodNodata *nodata);

G_END_DECLS
