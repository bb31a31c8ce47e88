/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rank-scan.h"

#include "hull-merge.h"
#include "rank-share.h"

static void
combine_counts (MPI_Comm comm, ShepardLayerScan *scan)
{
  g_autofree unsigned long long *counts = g_new (unsigned long long, scan->n_fields);

  for (size_t f = 0; f < scan->n_fields; f++)
    counts[f] = scan->fields[f].n;
  MPI_Allreduce (MPI_IN_PLACE, counts, (int) scan->n_fields, MPI_UNSIGNED_LONG_LONG, MPI_SUM, comm);
  for (size_t f = 0; f < scan->n_fields; f++)
    scan->fields[f].n = (size_t) counts[f];
}

/* The least x, y and z, and the greatest negated, in one reduction. */
static void
combine_extents (MPI_Comm comm, ShepardLayerScan *scan)
{
  enum { PER_FIELD = 6 };
  g_autofree double *least = g_new (double, PER_FIELD * scan->n_fields);

  for (size_t f = 0; f < scan->n_fields; f++)
    {
      const ShepardFieldExtent *extent = &scan->fields[f];
      double *field = &least[PER_FIELD * f];
      field[0] = extent->x_min, field[1] = extent->y_min, field[2] = extent->z_min;
      field[3] = -extent->x_max, field[4] = -extent->y_max, field[5] = -extent->z_max;
    }
  MPI_Allreduce (MPI_IN_PLACE, least, (int) (PER_FIELD * scan->n_fields), MPI_DOUBLE, MPI_MIN, comm);
  for (size_t f = 0; f < scan->n_fields; f++)
    {
      ShepardFieldExtent *extent = &scan->fields[f];
      const double *field = &least[PER_FIELD * f];
      extent->x_min = field[0], extent->y_min = field[1], extent->z_min = field[2];
      extent->x_max = -field[3], extent->y_max = -field[4], extent->z_max = -field[5];
    }
}

/* Every rank's doubles of mine, in the order of the ranks, into a new array in *all; returns how many. */
static size_t
gather_doubles (MPI_Comm comm, const GArray *mine, double **all)
{
  int size, count = (int) mine->len, total = 0;

  MPI_Comm_size (comm, &size);
  g_autofree int *counts = g_new (int, size);
  g_autofree int *offsets = g_new (int, size);
  MPI_Allgather (&count, 1, MPI_INT, counts, 1, MPI_INT, comm);
  for (int rank = 0; rank < size; rank++)
    {
      offsets[rank] = total;
      total += counts[rank];
    }
  *all = g_new (double, MAX (total, 1));
  MPI_Allgatherv (mine->data, count, MPI_DOUBLE, *all, counts, offsets, MPI_DOUBLE, comm);
  return (size_t) total;
}

/* The hull of every rank's hull vertices: the layer's, whichever rank read which strip. */
static void
combine_hull (MPI_Comm comm, ShepardFieldExtent *extent)
{
  g_autofree double *x = NULL, *y = NULL;
  size_t n = gather_doubles (comm, extent->hull_x, &x);

  gather_doubles (comm, extent->hull_y, &y);
  g_autofree shepard_hull_point *vertices = g_new (shepard_hull_point, MAX (n, 1));
  for (size_t i = 0; i < n; i++)
    vertices[i] = (shepard_hull_point) { x[i], y[i] };
  g_array_set_size (extent->hull_x, 0);
  g_array_set_size (extent->hull_y, 0);
  shepard_hull_merge (extent->hull_x, extent->hull_y, vertices, n);
}

/* Rank 0's names: it read strip 0, as a scan of the whole layer names it. */
static void
take_names_of_rank_0 (MPI_Comm comm, ShepardLayerScan *scan)
{
  int rank;

  MPI_Comm_rank (comm, &rank);
  if (rank != 0)
    {
      g_clear_pointer (&scan->crs_wkt, g_free);
      g_clear_pointer (&scan->layer_name, g_free);
      for (size_t f = 0; f < scan->n_fields; f++)
        g_clear_pointer (&scan->field_names[f], g_free);
    }
  shepard_rank_share_string (comm, &scan->crs_wkt);
  shepard_rank_share_string (comm, &scan->layer_name);
  for (size_t f = 0; f < scan->n_fields; f++)
    shepard_rank_share_string (comm, &scan->field_names[f]);
}

void
shepard_rank_scan_combine (MPI_Comm comm, ShepardLayerScan *scan)
{
  combine_counts (comm, scan);
  combine_extents (comm, scan);
  for (size_t f = 0; f < scan->n_fields; f++)
    combine_hull (comm, &scan->fields[f]);
  MPI_Allreduce (MPI_IN_PLACE, scan->same, (int) (scan->n_fields * scan->n_fields), MPI_INT, MPI_LAND, comm);
  take_names_of_rank_0 (comm, scan);
}
