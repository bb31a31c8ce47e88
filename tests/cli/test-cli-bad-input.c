/* SPDX-License-Identifier: GPL-3.0-or-later */
/* shepard-grid on bad input, and cancelled: a non-zero exit, one line on stderr that names the problem, and the
 * output directory exactly as it was (no output, no temporary file, an existing file untouched). */
#include "cli-harness.h"
#include "cli-points.h"

#include <gdal.h>
#include <gio/gio.h>
#include <signal.h>
#include <string.h>

#define ERROR_PREFIX "shepard-grid:"

/* Inputs shared by every case, made once. Their names avoid the words the messages are searched for. */
static char *fixtures_directory;

static const char *
fixtures (void)
{
  if (fixtures_directory != NULL)
    return fixtures_directory;

  fixtures_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *csv = cli_source_path ("data/meuse.csv");
  g_autoptr (CliPoints) meuse = cli_points_read_csv (csv, "zinc");
  g_autofree char *meuse_path = g_build_filename (fixtures_directory, "meuse.gpkg", NULL);
  cli_points_write_gpkg_layer (meuse, meuse_path, "meuse", "zinc", CLI_GEOMETRY_POINTS);

  g_autofree char *roads_path = g_build_filename (fixtures_directory, "roads.gpkg", NULL);
  cli_points_write_gpkg_layer (meuse, roads_path, "roads", "zinc", CLI_GEOMETRY_LINES);

  g_autoptr (CliPoints) none = cli_points_new (0);
  g_autofree char *planned_path = g_build_filename (fixtures_directory, "planned.gpkg", NULL);
  cli_points_write_gpkg_layer (none, planned_path, "planned", "zinc", CLI_GEOMETRY_POINTS);

  g_autoptr (CliPoints) unmeasured = cli_points_new (12);
  g_autoptr (CliPoints) transect = cli_points_new (20);
  for (gsize i = 0; i < unmeasured->n; i++)
    {
      unmeasured->x[i] = meuse->x[i];
      unmeasured->y[i] = meuse->y[i];
      unmeasured->z[i] = NAN;
    }
  for (gsize i = 0; i < transect->n; i++)
    {
      transect->x[i] = 180000.0 + 37.0 * i;
      transect->y[i] = 331000.0;
      transect->z[i] = 100.0 + i;
    }
  g_autofree char *unmeasured_path = g_build_filename (fixtures_directory, "unmeasured.gpkg", NULL);
  g_autofree char *transect_path = g_build_filename (fixtures_directory, "transect.gpkg", NULL);
  cli_points_write_gpkg_layer (unmeasured, unmeasured_path, "unmeasured", "zinc", CLI_GEOMETRY_POINTS);
  cli_points_write_gpkg_layer (transect, transect_path, "transect", "zinc", CLI_GEOMETRY_POINTS);

  g_autoptr (CliPoints) one = cli_points_new (1);
  one->x[0] = 180033.0;
  one->y[0] = 331071.0;
  one->z[0] = 42.5;
  g_autofree char *one_path = g_build_filename (fixtures_directory, "one.gpkg", NULL);
  cli_points_write_gpkg_layer (one, one_path, "one", "zinc", CLI_GEOMETRY_POINTS);

  return fixtures_directory;
}

/* A real, small GeoTIFF: what a previous run would have left. */
static void
write_existing_raster (const char *path)
{
  GDALDatasetH dataset = GDALCreate (GDALGetDriverByName ("GTiff"), path, 4, 3, 1, GDT_Float32, NULL);
  float values[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 };
  double geotransform[6] = { 180000, 10, 0, 331000, 0, -10 };

  g_assert_nonnull (dataset);
  g_assert_cmpint (GDALSetGeoTransform (dataset, geotransform), ==, CE_None);
  g_assert_cmpint (GDALRasterIO (GDALGetRasterBand (dataset, 1), GF_Write, 0, 0, 4, 3, values, 4, 3, GDT_Float32, 0,
                                 0),
                   ==, CE_None);
  GDALClose (dataset);
}

static void
copy_file (const char *from, const char *to)
{
  g_autoptr (GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  g_file_get_contents (from, &contents, &length, &error);
  g_assert_no_error (error);
  g_file_set_contents (to, contents, length, &error);
  g_assert_no_error (error);
}

/* Every file of a directory by name, with its bytes. */
static GHashTable *
snapshot_directory (const char *path)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GDir) dir = g_dir_open (path, 0, &error);
  GHashTable *snapshot = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bytes_unref);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = g_build_filename (path, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_file_get_contents (file, &contents, &length, &error);
      g_assert_no_error (error);
      g_hash_table_insert (snapshot, g_strdup (name), g_bytes_new_take (g_steal_pointer (&contents), length));
    }
  return snapshot;
}

static void
assert_directory_unchanged (const char *path, GHashTable *before)
{
  g_autoptr (GHashTable) after = snapshot_directory (path);
  g_autofree char *listing = scratch_directory_list (path);
  GHashTableIter iter;
  gpointer name, contents;

  g_test_message ("output directory after the run: [%s]", listing);
  g_assert_cmpuint (g_hash_table_size (after), ==, g_hash_table_size (before));
  g_hash_table_iter_init (&iter, before);
  while (g_hash_table_iter_next (&iter, &name, &contents))
    {
      GBytes *contents_after = g_hash_table_lookup (after, name);
      g_assert_nonnull (contents_after);
      g_assert_true (g_bytes_equal (contents, contents_after));
    }
}

/* The whole of stderr is one line "shepard-grid: <reason>" whose reason matches pattern (case-insensitive). */
static void
assert_one_error_line (const char *standard_error, const char *pattern)
{
  g_test_message ("stderr: %s", standard_error);
  g_assert_true (g_str_has_prefix (standard_error, ERROR_PREFIX));
  g_assert_true (g_str_has_suffix (standard_error, "\n"));

  const char *newline = strchr (standard_error, '\n');
  g_assert_true (newline[1] == '\0');
  g_autofree char *reason = g_strndup (standard_error + strlen (ERROR_PREFIX),
                                       newline - standard_error - strlen (ERROR_PREFIX));
  g_assert_cmpuint (strlen (g_strstrip (reason)), >, 0);
  if (!g_regex_match_simple (pattern, reason, G_REGEX_CASELESS, 0))
    g_test_message ("the message does not match /%s/", pattern);
  g_assert_true (g_regex_match_simple (pattern, reason, G_REGEX_CASELESS, 0));
}

enum { MAX_CASE_ARGS = 16 };

typedef struct {
  const char *name;
  const char *source;   /* a fixture, or meuse.csv: the bundled sample */
  const char *output;   /* in the case's output directory; NULL: result.tif */
  const char *existing; /* a file (a small GeoTIFF) in the output directory before the run, NULL for none */
  gboolean output_is_source;
  const char *pattern;  /* what the message must say, a case-insensitive regular expression */
  const char *args[MAX_CASE_ARGS]; /* "{out}" at the start of an argument stands for the output directory */
} BadInputCase;

#define ONE_POINT_GRID "-txe", "179900", "180100", "-tye", "330900", "331100", "-outsize", "10", "10"
#define COLLINEAR_GRID "-txe", "179900", "180800", "-tye", "330500", "331500", "-outsize", "10", "10"

static const BadInputCase bad_input_cases[] = {
  { "missing-file", "does-not-exist.csv", .pattern = "does-not-exist", .args = { "-zfield", "zinc" } },
  { "no-such-layer", "meuse.gpkg", .pattern = "no_such_layer", .args = { "-l", "no_such_layer", "-zfield", "zinc" } },
  { "no-such-field", "meuse.csv", .pattern = "nickel", .args = { "-zfield", "nickel" } },
  { "text-field", "meuse.csv", .pattern = "landuse", .args = { "-zfield", "landuse" } },
  /* Found by fuzz-command-line: an empty list used to pass as a field and crash the read. */
  { "empty-field-list", "meuse.csv", .pattern = "-zfield needs field names", .args = { "-zfield", "" } },
  { "empty-layer", "planned.gpkg", .pattern = "empty|no (usable |valid )?points?\\b|no features|0 points",
    .args = { "-zfield", "zinc" } },
  { "all-values-null", "unmeasured.gpkg", .pattern = "null|no (usable|valid)|no points|skipped",
    .args = { "-zfield", "zinc" } },
  { "non-point-geometry", "roads.gpkg", .pattern = "geometr|line", .args = { "-zfield", "zinc" } },
  { "one-point-aidw", "one.gpkg", .pattern = "area", .args = { "-zfield", "zinc", "-a", "aidw", ONE_POINT_GRID } },
  { "collinear-aidw", "transect.gpkg", .pattern = "area|collinear|line",
    .args = { "-zfield", "zinc", "-a", "aidw", "--alpha-out", "{out}/alpha.tif", COLLINEAR_GRID } },
  { "k-zero", "meuse.csv", .pattern = "\\bk\\b", .args = { "-zfield", "zinc", "-a", "aidw:k=0" } },
  { "negative-alpha", "meuse.csv", .pattern = "alpha|α",
    .args = { "-zfield", "zinc", "-a", "aidw:alpha=-1.5,2,2.5,3,3.5" } },
  { "alpha-count", "meuse.csv", .pattern = "alpha|α", .args = { "-zfield", "zinc", "-a", "aidw:alpha=1.5,2,2.5" } },
  { "rmax-equals-rmin", "meuse.csv", .pattern = "r_?max|r_?min",
    .args = { "-zfield", "zinc", "-a", "aidw:rmin=1:rmax=1" } },
  { "rmax-below-rmin", "meuse.csv", .pattern = "r_?max|r_?min",
    .args = { "-zfield", "zinc", "-a", "aidw:rmin=1.5:rmax=0.5" } },
  { "negative-power", "meuse.csv", .pattern = "power", .args = { "-zfield", "zinc", "-a", "idw:power=-1" } },
  { "zero-neighbors", "meuse.csv", .pattern = "neighbo", .args = { "-zfield", "zinc", "-a", "idw:neighbors=0" } },
  { "zero-size", "meuse.csv", .pattern = "size|width|zero", .args = { "-zfield", "zinc", "-outsize", "0", "10" } },
  { "zero-width-extent", "meuse.csv", .pattern = "txe|extent|x_?min|x_?max|width|empty",
    .args = { "-zfield", "zinc", "-txe", "180000", "180000", "-tye", "330000", "331000" } },
  { "outsize-and-resolution", "meuse.csv", .pattern = "outsize|-tr\\b|resolution",
    .args = { "-zfield", "zinc", "-outsize", "10", "10", "-tr", "5", "5" } },
  { "unsupported-output-type", "meuse.csv", .pattern = "int16|-ot|type",
    .args = { "-zfield", "zinc", "-ot", "Int16" } },
  { "output-directory-missing", "meuse.csv", "missing-directory/result.tif",
    .pattern = "missing-directory|director|creat|writ", .args = { "-zfield", "zinc" } },
  { "output-parent-is-file", "meuse.csv", "regular-file/result.tif", "regular-file",
    .pattern = "regular-file|director|creat|writ", .args = { "-zfield", "zinc" } },
  { "output-equals-input", "meuse.csv", .output_is_source = TRUE, .pattern = "same|input|overwrit",
    .args = { "-zfield", "zinc" } },
  { "existing-output-kept", "meuse.csv", "result.tif", "result.tif", .pattern = "nickel",
    .args = { "-zfield", "nickel" } },
  { "unknown-driver", "meuse.csv", .pattern = "NOPE", .args = { "-zfield", "zinc", "-of", "NOPE" } },
  { "unknown-method", "meuse.csv", .pattern = "kriging", .args = { "-zfield", "zinc", "-a", "kriging" } },
  { "unknown-method-key", "meuse.csv", .pattern = "smoothness.*its options are power, smoothing",
    .args = { "-zfield", "zinc", "-a", "idw:smoothness=0" } },
  /* gdal_grid's neighbourhood options (issue 14): each message names the option and what to do. */
  { "radius-zero", "meuse.csv", .pattern = "radius needs a distance above 0",
    .args = { "-zfield", "zinc", "-a", "idw:radius=0" } },
  { "radius-negative", "meuse.csv", .pattern = "radius needs a distance above 0.*\"-100\"",
    .args = { "-zfield", "zinc", "-a", "aidw:radius=-100" } },
  { "min-points-above-max-points", "meuse.csv", .pattern = "min_points=13 is larger than max_points=12.*lower",
    .args = { "-zfield", "zinc", "-a", "idw:max_points=12:min_points=13" } },
  { "angle-without-ellipse", "meuse.csv", .pattern = "angle.*radius1.*radius2",
    .args = { "-zfield", "zinc", "-a", "idw:angle=30" } },
  { "radius1-without-radius2", "meuse.csv", .pattern = "radius1 needs radius2",
    .args = { "-zfield", "zinc", "-a", "idw:radius1=300:angle=30" } },
  { "radius-with-radius1", "meuse.csv", .pattern = "radius.*and radius1.*exclude each other",
    .args = { "-zfield", "zinc", "-a", "idw:radius=300:radius1=300:radius2=200" } },
  { "quadrant-min-above-max", "meuse.csv", .pattern = "min_points_per_quadrant=3 is larger than "
                                                      "max_points_per_quadrant=2",
    .args = { "-zfield", "zinc", "-a", "idw:max_points_per_quadrant=2:min_points_per_quadrant=3" } },
  { "unknown-field-in-list", "meuse.csv", .pattern = "no field \"nickel\".*numeric fields are.*\"zinc\"",
    .args = { "-zfield", "zinc,nickel,cadmium" } },
  { "text-field-in-list", "meuse.csv", .pattern = "landuse", .args = { "-zfield", "zinc,landuse" } },
  { "field-twice-in-list", "meuse.csv", .pattern = "zinc.*twice", .args = { "-zfield", "zinc,cadmium,zinc" } },
  { "empty-field-in-list", "meuse.csv", .pattern = "-zfield.*commas", .args = { "-zfield", "zinc,,cadmium" } },
  { "tap-without-tr", "meuse.csv", .pattern = "-tap.*-tr", .args = { "-zfield", "zinc", "-tap" } },
  { "nodata-twice-different", "meuse.csv", .pattern = "nodata=-1 and -a_nodata -2 differ",
    .args = { "-zfield", "zinc", "-a", "idw:nodata=-1", "-a_nodata", "-2" } },
  { "unknown-option", "meuse.csv", .pattern = "frobnicate", .args = { "-zfield", "zinc", "--frobnicate" } },
  { "missing-zfield", "meuse.csv", .pattern = "zfield", .args = { "-a", "idw" } },
  { "r-out-with-idw", "meuse.csv", .pattern = "^ *R .*only for AIDW.*aidw method",
    .args = { "-zfield", "zinc", "-a", "idw", "--r-out", "{out}/r.tif" } },
  { "robs-out-with-idw", "meuse.csv", "result.tif", "result.tif", .pattern = "^ *r_obs .*only for AIDW.*aidw method",
    .args = { "-zfield", "zinc", "--robs-out", "{out}/robs.tif" } },
  { "extra-band-r-with-idw", "meuse.csv", .pattern = "^ *R .*only for AIDW.*aidw method",
    .args = { "-zfield", "zinc", "-a", "idw:power=3", "--extra-bands", "alpha,r" } },
  { "extra-band-unknown", "meuse.csv", .pattern = "\\bbeta\\b",
    .args = { "-zfield", "zinc", "--extra-bands", "alpha,beta" } },
  { "extra-band-twice", "meuse.csv", .pattern = "twice",
    .args = { "-zfield", "zinc", "-a", "aidw", "--extra-bands", "robs,alpha,ROBS" } },
  { "extra-bands-empty", "meuse.csv", .pattern = "--extra-bands", .args = { "-zfield", "zinc", "--extra-bands", "" } },
  { "extra-bands-one-band-format", "meuse.csv", "result.asc", "result.asc", .pattern = "AAIGrid.*3 bands",
    .args = { "-zfield", "zinc", "-a", "aidw", "-of", "AAIGrid", "--extra-bands", "alpha,robs" } },
  { "extra-bands-png", "meuse.csv", "result.png", .pattern = "PNG",
    .args = { "-zfield", "zinc", "-a", "aidw", "-of", "PNG", "--extra-bands", "alpha" } },
  { "r-out-equals-output", "meuse.csv", "result.tif", "result.tif", .pattern = "R raster.*is also the value raster",
    .args = { "-zfield", "zinc", "-a", "aidw", "--r-out", "{out}/result.tif" } },
  { "robs-out-equals-alpha-out", "meuse.csv", .pattern = "r_obs raster.*is also the alpha raster",
    .args = { "-zfield", "zinc", "-a", "aidw", "--alpha-out", "{out}/planes.tif", "--robs-out", "{out}/planes.tif" } },
  { "collinear-r-out", "transect.gpkg", "result.tif", "result.tif", .pattern = "area|collinear|line",
    .args = { "-zfield", "zinc", "-a", "aidw", "--r-out", "{out}/r.tif", COLLINEAR_GRID } },
};

static char *
case_source (const BadInputCase *bad_input, const char *output_directory)
{
  if (bad_input->output_is_source)
    {
      g_autofree char *sample = cli_source_path ("data/meuse.csv");
      g_autofree char *projection = cli_source_path ("data/meuse.prj");
      g_autofree char *projection_copy = g_build_filename (output_directory, "meuse.prj", NULL);
      char *source = g_build_filename (output_directory, "meuse.csv", NULL);

      copy_file (sample, source);
      copy_file (projection, projection_copy);
      return source;
    }
  if (g_strcmp0 (bad_input->source, "meuse.csv") == 0)
    return cli_source_path ("data/meuse.csv");
  return g_build_filename (fixtures (), bad_input->source, NULL);
}

static void
test_bad_input (gconstpointer data)
{
  const BadInputCase *bad_input = data;
  g_autofree char *output_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *source = case_source (bad_input, output_directory);
  g_autofree char *output = bad_input->output_is_source
                              ? g_strdup (source)
                              : g_build_filename (output_directory,
                                                  bad_input->output != NULL ? bad_input->output : "result.tif", NULL);
  g_autoptr (GPtrArray) args = g_ptr_array_new_with_free_func (g_free);

  if (bad_input->existing != NULL)
    {
      g_autofree char *existing = g_build_filename (output_directory, bad_input->existing, NULL);
      write_existing_raster (existing);
    }
  g_autoptr (GHashTable) before = snapshot_directory (output_directory);

  for (gsize i = 0; i < MAX_CASE_ARGS && bad_input->args[i] != NULL; i++)
    {
      const char *arg = bad_input->args[i];
      if (g_str_has_prefix (arg, "{out}"))
        g_ptr_array_add (args, g_strconcat (output_directory, arg + strlen ("{out}"), NULL));
      else
        g_ptr_array_add (args, g_strdup (arg));
    }
  g_ptr_array_add (args, g_strdup ("-q"));
  g_ptr_array_add (args, g_strdup (source));
  g_ptr_array_add (args, g_strdup (output));
  g_ptr_array_add (args, NULL);

  g_autoptr (CliRun) run = cli_run ((const char *const *) args->pdata);

  g_assert_true (run->exited);
  /* 1 (failure) or 2 (bad command line) exactly: a sanitizer's or a crash's status must not pass for a clean error. */
  if (run->exit_code != 1 && run->exit_code != 2)
    g_error ("expected exit status 1 or 2, got %d", run->exit_code);
  assert_one_error_line (run->standard_error, bad_input->pattern);
  assert_directory_unchanged (output_directory, before);
  scratch_directory_remove (output_directory);
}

/* 200,000 random points: a 2048 x 2048 grid over all of them is minutes of work, never done before the signal. */
static const char *
large_fixture (void)
{
  static char *path;

  if (path == NULL)
    {
      path = g_build_filename (fixtures (), "large.gpkg", NULL);
      cli_points_write_random_gpkg (path, 200000, 20240521);
    }
  return path;
}

typedef struct {
  gboolean existing_output; /* a raster at DST (and at every plane's file) before the run */
  gboolean planes;          /* AIDW with every plane as a band of DST and in a raster of its own */
} CancelCase;

static void
test_cancel (gconstpointer data)
{
  const CancelCase *cancel = data;
  const char *source = large_fixture ();
  g_autofree char *output_directory = scratch_directory_new ("shepard-cli-XXXXXX");
  g_autofree char *output = g_build_filename (output_directory, "result.tif", NULL);
  g_autofree char *alpha_output = g_build_filename (output_directory, "alpha.tif", NULL);
  g_autofree char *r_output = g_build_filename (output_directory, "r.tif", NULL);
  g_autofree char *r_obs_output = g_build_filename (output_directory, "robs.tif", NULL);

  if (cancel->existing_output)
    {
      write_existing_raster (output);
      if (cancel->planes)
        {
          write_existing_raster (alpha_output);
          write_existing_raster (r_output);
          write_existing_raster (r_obs_output);
        }
    }
  g_autoptr (GHashTable) before = snapshot_directory (output_directory);

  const char *args[] = { "-zfield", "zinc", "-a", "idw:power=2", "-outsize", "2048", "2048", source, output, NULL };
  const char *plane_args[] = { "-zfield", "zinc", "-a", "aidw", "-outsize", "2048", "2048", "--extra-bands",
                               "alpha,r,robs", "--alpha-out", alpha_output, "--r-out", r_output, "--robs-out",
                               r_obs_output, source, output, NULL };
  g_autoptr (CliInterruptedRun) run = cli_run_interrupted (cancel->planes ? plane_args : args, 0.5);

  g_assert_true (run->ended);
  g_assert_true (run->exited);
  g_assert_cmpint (run->exit_code, !=, 0);

  /* Without -q the report and the progress bar come first; the one error line ends stderr. */
  const char *message = run->standard_error;
  if (!g_str_has_prefix (message, ERROR_PREFIX))
    {
      message = strstr (message, "\n" ERROR_PREFIX);
      g_assert_nonnull (message);
      message++;
    }
  assert_one_error_line (message, "cancel|interrupt");
  assert_directory_unchanged (output_directory, before);
  scratch_directory_remove (output_directory);
}

int
main (int argc, char **argv)
{
  cli_harness_init (&argc, &argv);
  GDALAllRegister ();

  for (gsize i = 0; i < G_N_ELEMENTS (bad_input_cases); i++)
    {
      g_autofree char *path = g_strconcat ("/cli/bad-input/", bad_input_cases[i].name, NULL);
      g_test_add_data_func (path, &bad_input_cases[i], test_bad_input);
    }
  static const CancelCase cancel = { FALSE, FALSE }, cancel_existing = { TRUE, FALSE };
  static const CancelCase cancel_planes = { TRUE, TRUE };
  g_test_add_data_func ("/cli/bad-input/cancel", &cancel, test_cancel);
  g_test_add_data_func ("/cli/bad-input/cancel-keeps-existing-output", &cancel_existing, test_cancel);
  g_test_add_data_func ("/cli/bad-input/cancel-keeps-existing-planes", &cancel_planes, test_cancel);

  int status = g_test_run ();
  if (fixtures_directory != NULL)
    scratch_directory_remove (fixtures_directory);
  return status;
}
