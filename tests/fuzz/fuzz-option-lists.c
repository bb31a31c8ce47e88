/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The NAME=VALUE lists of -oo and -co. The whole input is the export dialog's creation-option text (words separated
 * by blanks); each of its lines is also one -oo/-co value of the command line. What is accepted becomes the creation
 * options of a GeoTIFF, a COG and a PNG (with the defaults added and GDAL's check) and the open options of a small
 * CSV layer in memory, which is then read. */
#include <cpl_string.h>
#include <cpl_vsi.h>
#include <math.h>
#include <string.h>

#include "fuzz-support.h"
#include "option-parser.h"
#include "point-layer.h"
#include "raster-format.h"
#include "shepard-app-error.h"

#define POINTS_PATH "/vsimem/fuzz-option-lists/points.csv"
/* The lines of the file, header included: HEADERS=NO reads it as a row. */
#define POINTS_LINES 5

static gboolean
is_name_value (const char *word)
{
  const char *equals = strchr (word, '=');

  return equals != NULL && equals != word;
}

/* The dialog's parser, against a count of its words made here. */
static void
check_dialog_text (const char *text)
{
  g_autoptr (GError) error = NULL;
  g_auto (GStrv) options = shepard_raster_creation_options_parse (text, &error);
  g_auto (GStrv) words = g_strsplit_set (text, " \t\n", -1);
  guint n_words = 0;
  gboolean all_name_values = TRUE;

  for (char **word = words; *word != NULL; word++)
    if (**word != '\0')
      {
        n_words++;
        all_name_values = all_name_values && is_name_value (*word);
      }
  if (options == NULL)
    {
      SHEPARD_FUZZ_CHECK (g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT) && !all_name_values,
                          "\"%s\" refused, yet every word is NAME=VALUE", text);
      return;
    }
  SHEPARD_FUZZ_CHECK (all_name_values && g_strv_length (options) == n_words,
                      "\"%s\" gave %u options from %u words", text, g_strv_length (options), n_words);
  for (char **option = options; *option != NULL; option++)
    SHEPARD_FUZZ_CHECK (is_name_value (*option) && strpbrk (*option, " \t\n") == NULL,
                        "\"%s\" gave the option \"%s\"", text, *option);
}

/* The command line's lists: one value per line, each as -oo and -co take it. */
static char **
collect_line_options (const char *text)
{
  g_auto (GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();

  for (char **line = lines; *line != NULL; line++)
    {
      g_autoptr (GError) error = NULL;
      const char *values[] = { *line };
      gboolean added = shepard_option_add_name_value (builder, "-co NAME=VALUE", values, &error);
      SHEPARD_FUZZ_CHECK (added == is_name_value (*line), "-co \"%s\" %s", *line, added ? "taken" : "refused");
    }
  return g_strv_builder_end (builder);
}

static void
check_creation_options (const char *driver_name, const char *const *given)
{
  ShepardRasterFormat format = {
    .driver_name = driver_name,
    .data_type = GDT_Float32,
    .creation_options = given,
  };
  g_auto (GStrv) options = shepard_raster_format_creation_options (&format);
  guint n_given = g_strv_length ((char **) given);

  SHEPARD_FUZZ_CHECK (g_strv_length (options) >= n_given, "%s: options lost", driver_name);
  for (guint i = 0; i < n_given; i++)
    SHEPARD_FUZZ_CHECK (strcmp (options[i], given[i]) == 0, "%s: \"%s\" became \"%s\"", driver_name, given[i],
                        options[i]);
  gboolean geotiff = strcmp (driver_name, "GTiff") == 0, cog = strcmp (driver_name, "COG") == 0;
  if (geotiff)
    SHEPARD_FUZZ_CHECK (CSLFetchNameValue (options, "TILED") != NULL, "GTiff written without a TILED option");
  if (geotiff || cog)
    SHEPARD_FUZZ_CHECK (CSLFetchNameValue (options, "COMPRESS") != NULL, "%s written without a COMPRESS option",
                        driver_name);
  else
    SHEPARD_FUZZ_CHECK (g_strv_length (options) == n_given, "%s given defaults", driver_name);

  format.creation_options = (const char *const *) options;
  g_autoptr (GError) error = NULL;
  GDALDriverH driver = shepard_raster_format_find_driver (&format, &error);
  SHEPARD_FUZZ_CHECK ((driver != NULL) == (error == NULL), "%s: a driver and an error, or neither", driver_name);
  if (driver == NULL)
    SHEPARD_FUZZ_CHECK (g_error_matches (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_FORMAT),
                        "%s: refused outside the format domain: %s", driver_name, error->message);
}

static void
check_open_options (const char *const *given)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (ShepardPointLayer) points = shepard_point_layer_read (POINTS_PATH, NULL, "z", given, NULL, NULL, &error);

  if (points == NULL)
    {
      SHEPARD_FUZZ_CHECK (error != NULL && error->domain == SHEPARD_APP_ERROR && error->message[0] != '\0',
                          "the layer was refused without a message of ours");
      return;
    }
  SHEPARD_FUZZ_CHECK (points->count >= 1 && points->count <= POINTS_LINES, "%zu points read from %d lines",
                      points->count, POINTS_LINES);
  for (size_t i = 0; i < points->count; i++)
    SHEPARD_FUZZ_CHECK (isfinite (points->x[i]) && isfinite (points->y[i]) && isfinite (points->z[i]),
                        "point %zu is (%g, %g, %g)", i, points->x[i], points->y[i], points->z[i]);
}

int
LLVMFuzzerInitialize (int *argc, char ***argv)
{
  static const char points[] = "x,y,z,label\n0,0,1.5,a\n10,0,2.5,b\n0,10,NA,c\n5,5,4,d\n";

  shepard_fuzz_init ();
  VSILFILE *file = VSIFileFromMemBuffer (POINTS_PATH, (GByte *) points, sizeof points - 1, FALSE);
  VSIFCloseL (file);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data, size_t size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  static const char *const drivers[] = { "GTiff", "COG", "PNG" };

  check_dialog_text (text);
  g_auto (GStrv) given = collect_line_options (text);
  for (size_t i = 0; i < G_N_ELEMENTS (drivers); i++)
    check_creation_options (drivers[i], (const char *const *) given);
  check_open_options ((const char *const *) given);
  return 0;
}
