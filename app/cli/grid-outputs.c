/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-outputs.h"

#include "file-identity.h"
#include "shepard-app-error.h"

gboolean
shepard_grid_check_outputs_are_not_source (const ShepardGridOptions *options, GError **error)
{
  g_return_val_if_fail (options != NULL, FALSE);

  const struct {
    const char *path;
    const char *what;
  } outputs[] = {
    { options->destination, "the output DST" },
    { options->alpha_path, "the output of --alpha-out" },
    { options->r_path, "the output of --r-out" },
    { options->r_obs_path, "the output of --robs-out" },
  };

  for (size_t i = 0; i < G_N_ELEMENTS (outputs); i++)
    if (outputs[i].path != NULL && shepard_paths_name_same_file (outputs[i].path, options->source))
      {
        g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_SAME_FILE,
                     "%s \"%s\" is the input SRC: give another output file name", outputs[i].what, outputs[i].path);
        return FALSE;
      }
  return TRUE;
}

ShepardGridExport
shepard_grid_export_request (const ShepardGridOptions *options, const char *driver_name,
                             ShepardGridExportField *unstarted)
{
  guint n_fields = g_strv_length (options->value_fields);

  return (ShepardGridExport) {
    .value_path = options->destination,
    .alpha_path = options->alpha_path,
    .r_path = options->r_path,
    .r_obs_path = options->r_obs_path,
    .extra_bands = options->extra_bands,
    .format = {
      .driver_name = driver_name != NULL ? driver_name : options->format,
      .data_type = options->float64 ? GDT_Float64 : GDT_Float32,
      .has_nodata = options->has_nodata,
      .nodata = options->nodata,
      .creation_options = (const char *const *) options->creation_options,
    },
    .fields = n_fields > 1 ? unstarted : NULL,
    .n_fields = n_fields > 1 ? n_fields : 0,
  };
}
