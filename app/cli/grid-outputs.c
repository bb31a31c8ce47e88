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
