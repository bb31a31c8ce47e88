/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The layer scan that shepard-grid-mpi's ranks share (app/mpi/rank-scan.h), under mpirun -np 3 --oversubscribe: on
 * every rank the parts combined equal one scan of the whole layer (points, extents and hull vertices bit for bit,
 * fields sharing their points, names) with many strips, with a rank whose strips hold no point and with a hull that
 * doubles would get wrong; a field with no usable point fails alike. Run without arguments it starts itself under
 * mpirun and passes on its TAP (it skips without mpirun); under mpirun it runs with --rank. */
#include <gdal.h>
#include <glib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "layer-scan.h"
#include "rank-scan.h"
#include "rank-share.h"
#include "shepard-app-error.h"

#define RANKS "3"

typedef struct {
  const char *name;
  void (*write) (FILE *file); /* the rows of a CSV of x, y and fields a, b, c */
  size_t points_per_strip;
  gboolean fails; /* field b has no usable point */
} Case;

/* 2000 points, b without a value in every 7th row (its own points), c where a is (the same points). */
static void
write_many_strips (FILE *file)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (3);

  for (int i = 0; i < 2000; i++)
    {
      double x = g_rand_double_range (random, 0, 1000), y = g_rand_double_range (random, 0, 1000);
      if (i % 7 == 0)
        fprintf (file, "%.17g,%.17g,%d,,%d\n", x, y, i, -i);
      else
        fprintf (file, "%.17g,%.17g,%d,%d,%d\n", x, y, i, 2 * i, -i);
    }
}

/* Points near y 0 and y 100 only: of three strips, the middle one (rank 1's) holds none. */
static void
write_empty_middle (FILE *file)
{
  g_autoptr (GRand) random = g_rand_new_with_seed (5);

  for (int i = 0; i < 300; i++)
    fprintf (file, "%.17g,%.17g,%d,%d,%d\n", g_rand_double_range (random, 0, 100),
             (i % 2 == 0 ? 0.0 : 99.0) + g_rand_double (random), i, i, i);
}

/* Shewchuk's example: a grid of points a unit in the last place apart near (0.5, 0.5) and points far along the
 * diagonal through it, where turns computed in doubles take the wrong side. */
static void
write_near_degenerate (FILE *file)
{
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++)
      fprintf (file, "%.17g,%.17g,%d,%d,%d\n", 0.5 + ldexp (i, -53), 0.5 + ldexp (j, -53), i, j, i + j);
  for (int k = 1; k <= 8; k++)
    fprintf (file, "%.17g,%.17g,%d,%d,%d\n", 3.0 * k, 3.0 * k, k, k, k);
}

/* b has values only in rows without a geometry. */
static void
write_no_usable_point (FILE *file)
{
  for (int i = 0; i < 50; i++)
    fprintf (file, "%d,%d,%d,,%d\n", i, i % 10, i, i);
  fprintf (file, ",,1,2,3\n");
}

static const Case cases[] = {
  { "many-strips", write_many_strips, 97, FALSE },
  { "rank-without-points", write_empty_middle, (size_t) 1 << 20, FALSE },
  { "near-degenerate-hull", write_near_degenerate, 50, FALSE },
  { "no-usable-point", write_no_usable_point, 7, TRUE },
};

static char *
case_path (const char *directory, const Case *test_case)
{
  g_autofree char *name = g_strconcat (test_case->name, ".csv", NULL);
  return g_build_filename (directory, name, NULL);
}

static void
write_case (const char *directory, const Case *test_case)
{
  g_autofree char *path = case_path (directory, test_case);
  FILE *file = fopen (path, "w");

  g_assert_nonnull (file);
  fputs ("x,y,a,b,c\n", file);
  test_case->write (file);
  g_assert_cmpint (fclose (file), ==, 0);
}

/* Says why a differs from b, on this rank. */
static gboolean
same_text (int rank, const char *what, const char *a, const char *b)
{
  if (g_strcmp0 (a, b) == 0)
    return TRUE;
  printf ("# rank %d: %s \"%s\", one scan \"%s\"\n", rank, what, a, b);
  return FALSE;
}

static gboolean
same_doubles (int rank, const char *what, size_t field, const GArray *a, const GArray *b)
{
  if (a->len == b->len && memcmp (a->data, b->data, a->len * sizeof (double)) == 0)
    return TRUE;
  printf ("# rank %d: field %zu: %s differ (%u values, one scan %u)\n", rank, field, what, a->len, b->len);
  return FALSE;
}

static gboolean
same_field (int rank, size_t f, const ShepardFieldExtent *a, const ShepardFieldExtent *b)
{
  const double box_a[6] = { a->x_min, a->y_min, a->x_max, a->y_max, a->z_min, a->z_max };
  const double box_b[6] = { b->x_min, b->y_min, b->x_max, b->y_max, b->z_min, b->z_max };
  gboolean same = TRUE;

  if (a->n != b->n || memcmp (box_a, box_b, sizeof box_a) != 0)
    {
      printf ("# rank %d: field %zu: %zu points in [%g, %g] x [%g, %g], one scan %zu in [%g, %g] x [%g, %g]\n", rank,
              f, a->n, a->x_min, a->x_max, a->y_min, a->y_max, b->n, b->x_min, b->x_max, b->y_min, b->y_max);
      same = FALSE;
    }
  return same && same_doubles (rank, "hull x", f, a->hull_x, b->hull_x)
         && same_doubles (rank, "hull y", f, a->hull_y, b->hull_y);
}

static gboolean
same_scan (int rank, const ShepardLayerScan *combined, const ShepardLayerScan *whole)
{
  gboolean same = combined->n_fields == whole->n_fields && same_text (rank, "CRS", combined->crs_wkt, whole->crs_wkt)
                  && same_text (rank, "layer", combined->layer_name, whole->layer_name);

  for (size_t f = 0; same && f < whole->n_fields; f++)
    same = same_field (rank, f, &combined->fields[f], &whole->fields[f])
           && same_text (rank, "field", combined->field_names[f], whole->field_names[f])
           && combined->leader_of[f] == whole->leader_of[f];
  return same;
}

/* Scans the case's layer in parts, one a rank, and compares on every rank the parts combined with one scan of the
 * whole layer. */
static gboolean
check_case (const char *directory, const Case *test_case, int rank, int size)
{
  const char *const fields[] = { "a", "b", "c", NULL };
  g_autofree char *path = case_path (directory, test_case);
  const ShepardLayerSource source = { .source = path, .value_fields = fields };
  g_autoptr (GError) whole_error = NULL, combined_error = NULL;

  g_autoptr (ShepardLayerScan) whole = shepard_layer_scan_part (&source, test_case->points_per_strip, 0, 1, NULL,
                                                                 NULL, &whole_error);
  g_assert_no_error (whole_error);
  g_autoptr (ShepardLayerScan) combined = shepard_layer_scan_part (&source, test_case->points_per_strip,
                                                                    (size_t) rank, (size_t) size, NULL, NULL,
                                                                    &combined_error);
  g_assert_no_error (combined_error);
  gboolean part_empty = combined->fields[0].n == 0;
  shepard_rank_scan_combine (MPI_COMM_WORLD, combined);
  gboolean whole_finished = shepard_layer_scan_finish (whole, path, &whole_error);
  gboolean combined_finished = shepard_layer_scan_finish (combined, path, &combined_error);
  if (test_case->fails)
    {
      g_assert_false (whole_finished);
      g_assert_false (combined_finished);
      g_assert_error (combined_error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_NO_POINTS);
      return same_text (rank, "error", combined_error->message, whole_error->message);
    }
  g_assert_no_error (whole_error);
  g_assert_no_error (combined_error);
  if (g_str_equal (test_case->name, "rank-without-points") && rank == 1 && !part_empty)
    {
      printf ("# rank 1 has points: the case tests nothing\n");
      return FALSE;
    }
  return same_scan (rank, combined, whole);
}

static int
run_rank (void)
{
  int rank, size, failed = 0;

  MPI_Init (NULL, NULL);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  GDALAllRegister ();
  g_autofree char *directory = NULL;
  if (rank == 0)
    {
      g_autoptr (GError) error = NULL;
      directory = g_dir_make_tmp ("test-rank-scan-XXXXXX", &error);
      g_assert_no_error (error);
      for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
        write_case (directory, &cases[c]);
      printf ("1..%zu\n", G_N_ELEMENTS (cases));
    }
  shepard_rank_share_string (MPI_COMM_WORLD, &directory);
  for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      int mine = check_case (directory, &cases[c], rank, size), all = 0;
      fflush (stdout);
      MPI_Allreduce (&mine, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
      failed += !all;
      if (rank == 0)
        printf ("%s %zu - %s\n", all ? "ok" : "not ok", c + 1, cases[c].name);
    }
  MPI_Barrier (MPI_COMM_WORLD);
  if (rank == 0)
    {
      for (size_t c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autofree char *path = case_path (directory, &cases[c]);
          g_unlink (path);
        }
      g_rmdir (directory);
    }
  GDALDestroyDriverManager ();
  MPI_Finalize ();
  return failed == 0 ? 0 : 1;
}

/* Starts this program under mpirun, its ranks' output as this test's. */
static int
run_under_mpirun (const char *self)
{
  g_autofree char *mpirun = g_find_program_in_path ("mpirun");
  g_autoptr (GPtrArray) argv = g_ptr_array_new ();
  g_autoptr (GError) error = NULL;
  int status = 0;

  if (mpirun == NULL)
    {
      printf ("1..0 # SKIP mpirun is not installed (apt-get install openmpi-bin)\n");
      return 0;
    }
  g_ptr_array_add (argv, mpirun);
  g_ptr_array_add (argv, "--oversubscribe");
  if (geteuid () == 0)
    g_ptr_array_add (argv, "--allow-run-as-root");
  g_ptr_array_add (argv, "-np");
  g_ptr_array_add (argv, RANKS);
  g_ptr_array_add (argv, (gpointer) self);
  g_ptr_array_add (argv, "--rank");
  g_ptr_array_add (argv, NULL);
  if (!g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, NULL, NULL, &status, &error))
    {
      printf ("Bail out! %s does not start: %s\n", mpirun, error->message);
      return 1;
    }
  return WIFEXITED (status) ? WEXITSTATUS (status) : 1;
}

int
main (int argc, char **argv)
{
  if (argc > 1 && g_str_equal (argv[1], "--rank"))
    return run_rank ();
  return run_under_mpirun (argv[0]);
}
