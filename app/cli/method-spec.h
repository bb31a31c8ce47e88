/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Parses a method specification into validated parameters:
 *   idw[:power=2][:neighbors=all|N]
 *   aidw[:k=15][:alpha=1.5,2,2.5,3,3.5][:rmin=0][:rmax=2][:area=bbox|hull|A][:neighbors=all|N][:rexp=nearest|knn]
 * Names are case-insensitive; every option has the default shown; an unknown name fails naming the known ones.
 * On failure params is left untouched and error is SHEPARD_APP_ERROR_INVALID_PARAMETER. */
gboolean shepard_method_spec_parse (const char *spec, shepard_params *params, GError **error);

/* The shortest specification that shepard_method_spec_parse reads back to the same parameters: the fields the method
 * uses (IDW: power and neighbors; AIDW: all but power; area only with SHEPARD_AREA_GIVEN), every number exactly,
 * options at their defaults left out. Valid parameters give a specification that parses; free with g_free. */
char *shepard_method_spec_format (const shepard_params *params);

G_END_DECLS
