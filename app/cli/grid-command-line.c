/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "grid-command-line.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "option-parser.h"

/* What the options say together, checked once all are read. */
typedef struct {
  ShepardGridOptions *options;
  gboolean has_x_extent, has_y_extent, has_size, has_margin;
} ParseState;

static gboolean
parse_number (const char *text, double *result)
{
  char *end = NULL;

  errno = 0;
  *result = g_ascii_strtod (text, &end);
  return end != text && *end == '\0' && errno == 0;
}

static gboolean
parse_finite_numbers (const char *synopsis, const char *const *values, double *first, double *second,
                      GError **error)
{
  if (!parse_number (values[0], first) || !isfinite (*first))
    return shepard_usage_error (error, "%s needs numbers, not \"%s\"", synopsis, values[0]);
  if (!parse_number (values[1], second) || !isfinite (*second))
    return shepard_usage_error (error, "%s needs numbers, not \"%s\"", synopsis, values[1]);
  return TRUE;
}

static gboolean
handle_x_extent (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ParseState *state = target;
  ShepardGridOptions *options = state->options;

  if (!parse_finite_numbers (synopsis, values, &options->x_min, &options->x_max, error))
    return FALSE;
  if (!(options->x_min < options->x_max))
    return shepard_usage_error (error, "%s needs XMIN below XMAX, not %s and %s", synopsis, values[0], values[1]);
  state->has_x_extent = TRUE;
  return TRUE;
}

static gboolean
handle_y_extent (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ParseState *state = target;
  ShepardGridOptions *options = state->options;

  if (!parse_finite_numbers (synopsis, values, &options->y_min, &options->y_max, error))
    return FALSE;
  if (!(options->y_min < options->y_max))
    return shepard_usage_error (error, "%s needs YMIN below YMAX, not %s and %s", synopsis, values[0], values[1]);
  state->has_y_extent = TRUE;
  return TRUE;
}

static gboolean
handle_size (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ParseState *state = target;
  guint64 width = 0, height = 0;

  if (!g_ascii_string_to_unsigned (values[0], 10, 1, G_MAXINT, &width, NULL)
      || !g_ascii_string_to_unsigned (values[1], 10, 1, G_MAXINT, &height, NULL))
    return shepard_usage_error (error, "%s needs whole numbers from 1 to %d, not %s and %s", synopsis, G_MAXINT,
                                values[0], values[1]);
  state->options->width = (size_t) width;
  state->options->height = (size_t) height;
  state->has_size = TRUE;
  return TRUE;
}

static gboolean
handle_resolution (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ShepardGridOptions *options = target;

  if (!parse_finite_numbers (synopsis, values, &options->x_resolution, &options->y_resolution, error))
    return FALSE;
  if (!(options->x_resolution > 0.0) || !(options->y_resolution > 0.0))
    return shepard_usage_error (error, "%s needs cell sizes above zero, not %s and %s", synopsis, values[0],
                                values[1]);
  options->has_resolution = TRUE;
  return TRUE;
}

static gboolean
handle_margin (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ParseState *state = target;
  double margin;

  if (!parse_number (values[0], &margin) || !isfinite (margin) || margin < 0.0)
    return shepard_usage_error (error, "%s needs a percentage of 0 or more, not \"%s\"", synopsis, values[0]);
  state->options->margin_percent = margin;
  state->has_margin = TRUE;
  return TRUE;
}

static gboolean
handle_data_type (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  gboolean *float64 = target;

  if (g_ascii_strcasecmp (values[0], "Float32") == 0)
    *float64 = FALSE;
  else if (g_ascii_strcasecmp (values[0], "Float64") == 0)
    *float64 = TRUE;
  else
    return shepard_usage_error (error, "%s: the type must be Float32 or Float64, not \"%s\"", synopsis, values[0]);
  return TRUE;
}

static gboolean
handle_nodata (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  ShepardGridOptions *options = target;

  if (!parse_number (values[0], &options->nodata))
    return shepard_usage_error (error, "%s needs a number (or nan), not \"%s\"", synopsis, values[0]);
  options->has_nodata = TRUE;
  return TRUE;
}

static gboolean
handle_extra_bands (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  static const struct {
    const char *name;
    ShepardGridExportPlanes plane;
  } names[] = {
    { "alpha", SHEPARD_GRID_EXPORT_ALPHA },
    { "r", SHEPARD_GRID_EXPORT_R },
    { "robs", SHEPARD_GRID_EXPORT_R_OBS },
  };
  ShepardGridExportPlanes *extra_bands = target;
  g_auto (GStrv) items = g_strsplit (values[0], ",", -1);
  ShepardGridExportPlanes planes = 0;

  if (items[0] == NULL)
    return shepard_usage_error (error, "%s needs a comma list of alpha, r and robs", synopsis);
  for (char **item = items; *item != NULL; item++)
    {
      ShepardGridExportPlanes plane = 0;
      for (size_t i = 0; i < G_N_ELEMENTS (names); i++)
        if (g_ascii_strcasecmp (*item, names[i].name) == 0)
          plane = names[i].plane;
      if (plane == 0)
        return shepard_usage_error (error, "%s: each band must be alpha, r or robs, not \"%s\"", synopsis, *item);
      if ((planes & plane) != 0)
        return shepard_usage_error (error, "%s names %s twice: give each band once", synopsis, *item);
      planes |= plane;
    }
  *extra_bands = planes;
  return TRUE;
}

static gboolean
handle_mask_distance (gpointer target, const char *synopsis, const char *const *values, GError **error)
{
  double *distance = target;

  if (!parse_number (values[0], distance) || !isfinite (*distance) || !(*distance > 0.0))
    return shepard_usage_error (error, "%s needs a distance above zero in map units, not \"%s\"", synopsis,
                                values[0]);
  return TRUE;
}

/* -zfield a,b,c: one band per field, each field once. */
static gboolean
split_value_fields (ShepardGridOptions *options, GError **error)
{
  g_auto (GStrv) names = g_strsplit (options->value_field, ",", -1);

  /* An empty list splits into no names at all, which every later step takes for a field given. */
  if (names[0] == NULL)
    return shepard_usage_error (error, "-zfield needs field names separated by commas, not \"\"");
  for (char **name = names; *name != NULL; name++)
    {
      if (**name == '\0')
        return shepard_usage_error (error, "-zfield needs field names separated by commas, not \"%s\"",
                                    options->value_field);
      for (char **earlier = names; earlier < name; earlier++)
        if (strcmp (*earlier, *name) == 0)
          return shepard_usage_error (error, "-zfield names \"%s\" twice: give each field once", *name);
    }
  if (g_strv_length (names) > SHEPARD_MAX_FIELDS)
    return shepard_usage_error (error, "-zfield names %u fields: give at most %d", g_strv_length (names),
                                SHEPARD_MAX_FIELDS);
  options->value_fields = g_steal_pointer (&names);
  return TRUE;
}

static gboolean
add_operand (gpointer target, const char *operand, GError **error)
{
  ShepardGridOptions *options = target;

  if (options->source == NULL)
    options->source = g_strdup (operand);
  else if (options->destination == NULL)
    options->destination = g_strdup (operand);
  else
    return shepard_usage_error (error, "unexpected argument \"%s\": give one SRC and one DST", operand);
  return TRUE;
}

static gboolean
check_combination (const ParseState *state, GError **error)
{
  ShepardGridOptions *options = state->options;

  if (options->source == NULL || options->destination == NULL)
    return shepard_usage_error (error,
                                "give the point layer SRC and the raster DST to write (shepard-grid --help shows how)");
  if (options->value_field == NULL)
    return shepard_usage_error (error, "-zfield FIELD is missing: name the numeric field to interpolate");
  if (options->target_aligned && !options->has_resolution)
    return shepard_usage_error (error, "-tap aligns the extent to multiples of the cell size: give -tr XRES YRES too");
  if (state->has_x_extent != state->has_y_extent)
    return shepard_usage_error (error, "-txe XMIN XMAX and -tye YMIN YMAX go together: give both or neither");
  if (state->has_margin && state->has_x_extent)
    return shepard_usage_error (error, "--margin grows the points' bounding box, -txe and -tye replace it: give one "
                                       "of them");
  if (state->has_size && options->has_resolution)
    return shepard_usage_error (error, "-outsize W H and -tr XRES YRES exclude each other: give one of them");
  if (options->cutline_layer != NULL && options->cutline == NULL)
    return shepard_usage_error (error, "-cl LAYER names a layer of the cutline: give -cutline FILE too");
  if (!shepard_option_check_gpus_backend (options->gpus, options->backend, error))
    return FALSE;
  return split_value_fields (options, error);
}

gboolean
shepard_grid_options_parse (ShepardGridOptions *options, int argc, const char *const *argv, GError **error)
{
  g_return_val_if_fail (options != NULL && argv != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  *options = (ShepardGridOptions) {
    .method = g_strdup ("idw"),
    .width = SHEPARD_GRID_DEFAULT_SIZE,
    .height = SHEPARD_GRID_DEFAULT_SIZE,
    .format = g_strdup ("GTiff"),
    .backend = SHEPARD_BACKEND_AUTO,
  };
  ParseState state = { .options = options };
  g_autoptr (GStrvBuilder) open_options = g_strv_builder_new ();
  g_autoptr (GStrvBuilder) creation_options = g_strv_builder_new ();
  const ShepardOption option_table[] = {
    { "-l", 1, "-l LAYER", shepard_option_store_string, &options->layer, NULL },
    { "-zfield", 1, "-zfield FIELD[,FIELD...]", shepard_option_store_string, &options->value_field, NULL },
    { "-oo", 1, "-oo NAME=VALUE", shepard_option_add_name_value, open_options, NULL },
    { "-a", 1, "-a METHOD", shepard_option_store_string, &options->method, NULL },
    { "-txe", 2, "-txe XMIN XMAX", handle_x_extent, &state, NULL },
    { "-tye", 2, "-tye YMIN YMAX", handle_y_extent, &state, NULL },
    { "--margin", 1, "--margin PERCENT", handle_margin, &state, NULL },
    { "-outsize", 2, "-outsize W H", handle_size, &state, NULL },
    { "-tr", 2, "-tr XRES YRES", handle_resolution, options, NULL },
    { "-tap", 0, "-tap", shepard_option_set_flag, &options->target_aligned, NULL },
    { "-of", 1, "-of FORMAT", shepard_option_store_string, &options->format, NULL },
    { "-co", 1, "-co NAME=VALUE", shepard_option_add_name_value, creation_options, NULL },
    { "-ot", 1, "-ot Float32|Float64", handle_data_type, &options->float64, NULL },
    { "-a_nodata", 1, "-a_nodata V", handle_nodata, options, NULL },
    { "--backend", 1, "--backend auto|cpu|cuda", shepard_option_store_backend, &options->backend, NULL },
    { "--gpus", 1, "--gpus all|LIST", shepard_option_store_gpus, &options->gpus, NULL },
    { "--alpha-out", 1, "--alpha-out FILE", shepard_option_store_string, &options->alpha_path, NULL },
    { "--r-out", 1, "--r-out FILE", shepard_option_store_string, &options->r_path, NULL },
    { "--robs-out", 1, "--robs-out FILE", shepard_option_store_string, &options->r_obs_path, NULL },
    { "--extra-bands", 1, "--extra-bands LIST", handle_extra_bands, &options->extra_bands, NULL },
    { "--mask-distance", 1, "--mask-distance D", handle_mask_distance, &options->mask_distance, NULL },
    { "--mask-hull", 0, "--mask-hull", shepard_option_set_flag, &options->mask_hull, NULL },
    { "-cutline", 1, "-cutline FILE", shepard_option_store_string, &options->cutline, NULL },
    { "-cl", 1, "-cl LAYER", shepard_option_store_string, &options->cutline_layer, NULL },
    { "-q", 0, "-q", shepard_option_set_flag, &options->quiet, NULL },
  };

  gboolean parsed = shepard_option_parse ("shepard-grid", option_table, G_N_ELEMENTS (option_table), argc, argv,
                                          add_operand, options, &options->help, error);
  if (parsed && !options->help)
    parsed = check_combination (&state, error);
  options->has_extent = state.has_x_extent && state.has_y_extent;
  options->open_options = g_strv_builder_end (open_options);
  options->creation_options = g_strv_builder_end (creation_options);
  return parsed;
}

void
shepard_grid_options_clear (ShepardGridOptions *options)
{
  g_clear_pointer (&options->source, g_free);
  g_clear_pointer (&options->destination, g_free);
  g_clear_pointer (&options->layer, g_free);
  g_clear_pointer (&options->value_field, g_free);
  g_clear_pointer (&options->value_fields, g_strfreev);
  g_clear_pointer (&options->open_options, g_strfreev);
  g_clear_pointer (&options->method, g_free);
  g_clear_pointer (&options->format, g_free);
  g_clear_pointer (&options->creation_options, g_strfreev);
  g_clear_pointer (&options->gpus, g_free);
  g_clear_pointer (&options->alpha_path, g_free);
  g_clear_pointer (&options->r_path, g_free);
  g_clear_pointer (&options->r_obs_path, g_free);
  g_clear_pointer (&options->cutline, g_free);
  g_clear_pointer (&options->cutline_layer, g_free);
}

const char *
shepard_grid_usage (void)
{
  return "Usage: shepard-grid [-l LAYER] -zfield FIELD[,FIELD...] [-oo NAME=VALUE]... [-a METHOD]\n"
         "                    [-txe XMIN XMAX -tye YMIN YMAX | --margin PERCENT]\n"
         "                    [-outsize W H | -tr XRES YRES [-tap]]\n"
         "                    [-of FORMAT] [-co NAME=VALUE]... [-ot Float32|Float64] [-a_nodata V]\n"
         "                    [--backend auto|cpu|cuda] [--gpus all|LIST] [--extra-bands LIST]\n"
         "                    [--alpha-out FILE] [--r-out FILE] [--robs-out FILE]\n"
         "                    [--mask-distance D] [--mask-hull] [-cutline FILE [-cl LAYER]] [-q] SRC DST\n"
         "METHOD: idw[:power=2]NEIGHBOURHOOD\n"
         "        aidw[:k=15][:alpha=1.5,2,2.5,3,3.5][:rmin=0][:rmax=2][:area=bbox|hull|A][:rexp=nearest|knn]\n"
         "            NEIGHBOURHOOD\n"
         "NEIGHBOURHOOD (gdal_grid's names): [:smoothing=0][:radius=R | :radius1=R1:radius2=R2[:angle=0]]\n"
         "        [:max_points=all|N][:min_points=0][:max_points_per_quadrant=0][:min_points_per_quadrant=0]\n"
         "        [:summation=auto|exact|farfield][:tolerance=1e-6][:nodata=V]\n"
         "\n"
         "Interpolates the numeric field FIELD of a point layer SRC (any vector source GDAL reads) into the\n"
         "raster DST with inverse distance weighting (idw) or adaptive IDW (aidw, Mei et al. 2016).\n"
         "\n"
         "  -l LAYER             layer name or 0-based index (default: the first layer)\n"
         "  -zfield FIELD,...    the numeric field to interpolate; several give one band each, in that order,\n"
         "                       described by the field's name (a row without a value in a field is skipped\n"
         "                       for that field only)\n"
         "  -oo NAME=VALUE       open option of the input driver; for CSV the coordinate columns are found by\n"
         "                       name (X_POSSIBLE_NAMES, Y_POSSIBLE_NAMES) and types detected (AUTODETECT_TYPE)\n"
         "  -a METHOD            interpolation method and its parameters (default: idw)\n"
         "                       area is AIDW's study area: bbox (default), hull, or a value in squared units;\n"
         "                       rexp is what r_obs is compared with: nearest (default, the papers' expected\n"
         "                       nearest-neighbour distance) or knn (the expected mean distance to the k nearest);\n"
         "                       the neighbourhood weighs the max_points (neighbors=N: the same) nearest points\n"
         "                       within radius (or the ellipse radius1, radius2 turned by angle degrees\n"
         "                       counter-clockwise), at most max_points_per_quadrant in each quadrant; fewer than\n"
         "                       min_points (or min_points_per_quadrant in a quadrant) give nodata; smoothing S\n"
         "                       weighs by (d^2 + S^2)^(-p/2); nodata=V is the value of cells without data;\n"
         "                       summation: with all points and no smoothing, farfield sums far points from a\n"
         "                       tree, every cell within tolerance x the field's value range of the exact value,\n"
         "                       exact weighs every pair, auto (default) takes the cheaper on the CPU\n"
         "  -txe, -tye           extent of the raster (default: the points' bounding box)\n"
         "  --margin PERCENT     grow the points' bounding box on every side by PERCENT of its longer side\n"
         "                       (default: 0, the box itself; the desktop app's Margin (%) is the same)\n"
         "  -outsize W H         raster size in cells (default: 256 256)\n"
         "  -tr XRES YRES        cell size instead of -outsize\n"
         "  -tap                 with -tr: grow the extent outwards to multiples of the cell size (as gdalwarp)\n"
         "  -of FORMAT           GDAL raster driver (default: GTiff)\n"
         "  -co NAME=VALUE       creation option of the output driver; GTiff is written with TILED=YES,\n"
         "                       COMPRESS=DEFLATE and PREDICTOR=3, COG with COMPRESS=DEFLATE and PREDICTOR=YES,\n"
         "                       both compressed on every core (NUM_THREADS=ALL_CPUS), unless -co gives\n"
         "                       those keys (a -co COMPRESS drops the default PREDICTOR)\n"
         "  -ot TYPE             Float32 (default, fast single-precision path) or Float64 (double precision)\n"
         "  -a_nodata V          nodata value of cells without data, recorded on every band (nodata=V of -a\n"
         "                       is the same; default: -9999, or the data type's lowest value when the\n"
         "                       fields' values reach -9999)\n"
         "  --backend B          auto (default: CUDA when a GPU is present, else the CPU), cpu or cuda\n"
         "  --gpus all|LIST      the CUDA devices to spread the work over: all (default) or their numbers\n"
         "                       separated by commas, as CUDA numbers them (0,1); with cuda a GPU that is not\n"
         "                       there is an error, with auto the CPU runs instead and says why\n"
         "  --extra-bands LIST   add to DST, after the values in band 1, a band for each of a comma list of\n"
         "                       alpha, r and robs, always in that order; the bands are described by FIELD,\n"
         "                       \"alpha\", \"R\" and \"r_obs\"\n"
         "  --alpha-out FILE     also write the power of every cell to FILE: AIDW's adaptive alpha (IDW's p)\n"
         "  --r-out FILE         also write AIDW's density ratio R = r_obs / r_exp of every cell (aidw only)\n"
         "  --robs-out FILE      also write AIDW's r_obs, the mean distance of every cell to its k nearest\n"
         "                       points in map units (aidw only)\n"
         "  --mask-distance D    nodata where the nearest data point is farther than D (map units) from the\n"
         "                       cell's centre\n"
         "  --mask-hull          nodata where the cell's centre lies outside the points' convex hull\n"
         "  -cutline FILE        nodata where the cell's centre lies outside the polygons of FILE (any vector\n"
         "                       source OGR reads), reprojected into the points' CRS when theirs differs\n"
         "  -cl LAYER            the cutline's layer, by name or 0-based index (default: its first layer)\n"
         "                       (the masks combine: a cell keeps its value only where each keeps it; every\n"
         "                       band is masked)\n"
         "  -q                   quiet: no progress bar nor report\n"
         "\n"
         "Grid nodes are cell centres, as with gdal_grid. Every raster carries in its metadata where it comes\n"
         "from (SHEPARD_SOURCE, _LAYER, _FIELD, _OPEN_OPTIONS, _POINTS, _METHOD, _ENGINE, _VERSION; gdalinfo\n"
         "shows them). Ctrl-C cancels and leaves no output.\n"
         "Exit status: 0 done, 1 failed, 2 wrong command line or parameters, 128+N stopped by signal N.\n";
}
