/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "rank-place.h"

#include "shepard-app-error.h"

void
shepard_rank_place_init (ShepardRankPlace *place, MPI_Comm comm)
{
  MPI_Comm node;

  MPI_Comm_rank (comm, &place->rank);
  MPI_Comm_size (comm, &place->size);
  MPI_Comm_split_type (comm, MPI_COMM_TYPE_SHARED, place->rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank (node, &place->local_rank);
  MPI_Comm_size (node, &place->local_size);
  MPI_Comm_free (&node);
  MPI_Allreduce (&place->local_size, &place->busiest_node_size, 1, MPI_INT, MPI_MAX, comm);
}

gboolean
shepard_rank_place_choose_engine (const ShepardRankPlace *place, shepard_backend backend,
                                  shepard_precision precision, const char *gpus_text, ShepardEngineChoice *choice,
                                  GError **error)
{
  shepard_gpu_set chosen = { 0 };
  shepard_error engine_error = { 0 };

  if (gpus_text != NULL && shepard_gpu_set_parse (gpus_text, &chosen, &engine_error) != SHEPARD_OK)
    {
      g_set_error (error, SHEPARD_APP_ERROR, SHEPARD_APP_ERROR_USAGE, "--gpus all|LIST: %s", engine_error.message);
      return FALSE;
    }
  int visible = shepard_gpu_count ();
  size_t n_gpus = chosen.count > 0 ? chosen.count : (size_t) MAX (visible, 0);
  *choice = (ShepardEngineChoice) { .backend = backend, .precision = precision };
  if (backend != SHEPARD_BACKEND_CPU && n_gpus > 0)
    {
      size_t pick = (size_t) place->local_rank % n_gpus;
      choice->gpus.count = 1;
      choice->gpus.ordinals[0] = chosen.count > 0 ? chosen.ordinals[pick] : (int) pick;
      return TRUE;
    }
  choice->threads = MAX (1, (int) g_get_num_processors () / MAX (place->local_size, 1));
  return TRUE;
}
