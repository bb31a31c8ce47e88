/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-nodata.h"

#include <float.h>
#include <math.h>
#include <stdio.h>

#include "shepard-app-error.h"

gboolean
shepard_grid_choose_nodata (const ShepardGridOptions *options, const ShepardMethodNodata *method_nodata,
                            double value_min, double value_max, ShepardRasterFormat *format, GError **error)
{
  gboolean same = method_nodata->value == options->nodata || (isnan (method_nodata->value) && isnan (options->nodata));
  if (method_nodata->is_set && options->has_nodata && !same)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the method's nodata=%g and -a_nodata %g differ: give the nodata value once", method_nodata->value,
                   options->nodata);
      return FALSE;
    }
  format->has_nodata = TRUE;
  if (method_nodata->is_set || options->has_nodata)
    {
      format->nodata = method_nodata->is_set ? method_nodata->value : options->nodata;
      if (!options->quiet && value_min <= format->nodata && format->nodata <= value_max)
        fprintf (stderr, "Warning: the nodata value %.10g lies within the values (%.10g to %.10g): a cell that "
                 "interpolates to it reads as nodata\n", format->nodata, value_min, value_max);
    }
  else
    format->nodata = shepard_raster_default_nodata (format->data_type, value_min, value_max);
  return TRUE;
}

gboolean
shepard_grid_check_values_fit (GDALDataType data_type, double value_min, double value_max, GError **error)
{
  if (data_type == GDT_Float32 && (value_min < -FLT_MAX || value_max > FLT_MAX))
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_INVALID_PARAMETER,
                   "the values reach %.10g, beyond what a Float32 raster holds (%g): give -ot Float64",
                   value_min < -FLT_MAX ? value_min : value_max, (double) FLT_MAX);
      return FALSE;
    }
  return TRUE;
}
