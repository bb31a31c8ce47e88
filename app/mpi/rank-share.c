/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rank-share.h"

#include "point-layer.h"
#include "shepard-app-error.h"

/* MPI counts are ints: larger arrays go in pieces. */
#define DOUBLES_PER_BROADCAST ((size_t) 1 << 28)

static int
rank_of (MPI_Comm comm)
{
  int rank;

  MPI_Comm_rank (comm, &rank);
  return rank;
}

gboolean
shepard_rank_share_outcome (MPI_Comm comm, gboolean succeeded, GError **error)
{
  int outcome = succeeded;

  MPI_Bcast (&outcome, 1, MPI_INT, 0, comm);
  if (!outcome && rank_of (comm) != 0)
    g_set_error_literal (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_ENGINE, "rank 0 failed");
  return outcome != 0;
}

static void
share_size (MPI_Comm comm, size_t *size)
{
  unsigned long long value = *size;

  MPI_Bcast (&value, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  *size = (size_t) value;
}

void
shepard_rank_share_string (MPI_Comm comm, char **text)
{
  gboolean root = rank_of (comm) == 0;
  size_t length = root && *text != NULL ? strlen (*text) + 1 : 0;

  share_size (comm, &length);
  if (!root)
    *text = length > 0 ? g_malloc (length) : NULL;
  if (length > 0)
    MPI_Bcast (*text, (int) length, MPI_CHAR, 0, comm);
}

/* n doubles from rank 0; the other ranks get a new array in *values. */
static void
share_doubles (MPI_Comm comm, double **values, size_t n)
{
  if (rank_of (comm) != 0)
    *values = g_new (double, MAX (n, 1));
  for (size_t first = 0; first < n; first += DOUBLES_PER_BROADCAST)
    MPI_Bcast (*values + first, (int) MIN (DOUBLES_PER_BROADCAST, n - first), MPI_DOUBLE, 0, comm);
}

void
shepard_rank_share_fields (MPI_Comm comm, GPtrArray **fields)
{
  gboolean root = rank_of (comm) == 0;
  size_t n_fields = root ? (*fields)->len : 0;

  share_size (comm, &n_fields);
  if (!root)
    *fields = g_ptr_array_new_with_free_func ((GDestroyNotify) shepard_point_layer_free);
  for (size_t f = 0; f < n_fields; f++)
    {
      ShepardPointLayer *points = root ? g_ptr_array_index (*fields, f) : g_new0 (ShepardPointLayer, 1);
      share_size (comm, &points->count);
      share_doubles (comm, &points->x, points->count);
      share_doubles (comm, &points->y, points->count);
      share_doubles (comm, &points->z, points->count);
      shepard_rank_share_string (comm, &points->crs_wkt);
      shepard_rank_share_string (comm, &points->source);
      shepard_rank_share_string (comm, &points->layer_name);
      shepard_rank_share_string (comm, &points->field_name);
      if (!root)
        g_ptr_array_add (*fields, points);
    }
}
