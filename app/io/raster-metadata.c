/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "raster-metadata.h"

static void
add (GStrvBuilder *metadata, const char *name, const char *value)
{
  g_autofree char *item = g_strdup_printf ("SHEPARD_%s=%s", name, value);

  /* A value is one line of metadata: a layer name with a line break must not start another item. */
  g_strv_builder_add (metadata, g_strdelimit (item, "\r\n", ' '));
}

char **
shepard_raster_metadata_new (const ShepardRasterProvenance *provenance)
{
  g_return_val_if_fail (provenance != NULL && provenance->engine != NULL, NULL);
  g_return_val_if_fail (provenance->layer != NULL && provenance->field != NULL && provenance->method != NULL, NULL);

  g_autoptr (GStrvBuilder) metadata = g_strv_builder_new ();
  g_autofree char *points = g_strdup_printf ("%zu", provenance->n_points);
  /* CUDA computes in float32 whatever was asked (compute/engine.c); the CPU in the precision asked. */
  gboolean cuda = shepard_engine_backend (provenance->engine) == SHEPARD_BACKEND_CUDA;
  g_autofree char *engine = g_strdup_printf (
    "%s %s", cuda ? "cuda" : "cpu",
    cuda || provenance->precision == SHEPARD_PRECISION_FLOAT32 ? "float32" : "float64");

  /* A file named relative to where the tool ran means nothing once the raster moves; a connection stays as given. */
  g_autofree char *source = provenance->source != NULL && g_file_test (provenance->source, G_FILE_TEST_EXISTS)
                              ? g_canonicalize_filename (provenance->source, NULL)
                              : g_strdup (provenance->source);
  if (source != NULL)
    add (metadata, "SOURCE", source);
  add (metadata, "LAYER", provenance->layer);
  add (metadata, "FIELD", provenance->field);
  if (provenance->open_options != NULL && provenance->open_options[0] != NULL)
    {
      g_autofree char *options = g_strjoinv (" ", (char **) provenance->open_options);
      add (metadata, "OPEN_OPTIONS", options);
    }
  add (metadata, "POINTS", points);
  add (metadata, "METHOD", provenance->method);
  if (provenance->mask != NULL && provenance->mask[0] != '\0')
    add (metadata, "MASK", provenance->mask);
  add (metadata, "ENGINE", engine);
  add (metadata, "ENGINE_DESCRIPTION", shepard_engine_describe (provenance->engine));
  add (metadata, "VERSION", SHEPARD_VERSION);
  return g_strv_builder_end (metadata);
}
