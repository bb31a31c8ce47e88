/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The GPUs a user may choose: their text form ("all", "0,1") and what this machine has. */
#include "engine-internal.h"
#include "engine-private.h"
#include "shepard-compute-config.h"

#if SHEPARD_HAVE_CUDA
#include "cuda-backend.h"
#endif

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

shepard_status
shepard_gpu_set_parse (const char *text, shepard_gpu_set *set, shepard_error *error)
{
  set->count = 0;
  if (!text || !strcmp (text, "all"))
    return SHEPARD_OK;
  const char *cursor = text;
  for (;;)
    {
      char *after = NULL;
      errno = 0;
      long ordinal = *cursor >= '0' && *cursor <= '9' ? strtol (cursor, &after, 10) : -1;
      if (ordinal < 0 || errno != 0 || ordinal >= 1000000 || (*after != ',' && *after != '\0'))
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT,
                             "\"%s\" is not a choice of GPUs: give \"all\" or GPU numbers separated by commas, such "
                             "as \"0\" or \"0,1\".", text);
      for (size_t i = 0; i < set->count; i++)
        if (set->ordinals[i] == (int) ordinal)
          return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "GPU %ld is named twice in \"%s\".", ordinal,
                               text);
      if (set->count == SHEPARD_MAX_GPUS)
        return shepard_fail (error, SHEPARD_ERROR_INVALID_ARGUMENT, "At most %d GPUs can be chosen.",
                             SHEPARD_MAX_GPUS);
      set->ordinals[set->count++] = (int) ordinal;
      if (*after == '\0')
        return SHEPARD_OK;
      cursor = after + 1;
    }
}

void
shepard_gpu_set_format (const shepard_gpu_set *set, char *text, size_t size)
{
  if (size == 0)
    return;
  if (!set || set->count == 0)
    {
      snprintf (text, size, "all");
      return;
    }
  size_t length = 0;
  text[0] = '\0';
  for (size_t i = 0; i < set->count; i++)
    {
      char number[16];
      int written = snprintf (number, sizeof number, "%s%d", i > 0 ? "," : "", set->ordinals[i]);
      if (written < 0 || length + (size_t) written >= size)
        return;
      memcpy (text + length, number, (size_t) written + 1);
      length += (size_t) written;
    }
}

int
shepard_gpu_count (void)
{
#if SHEPARD_HAVE_CUDA
  return shepard_cuda_device_count ();
#else
  return 0;
#endif
}

void
shepard_gpus_start (const shepard_gpu_set *gpus)
{
#if SHEPARD_HAVE_CUDA
  shepard_gpu_group_start_contexts (gpus);
#else
  (void) gpus;
#endif
}

bool
shepard_gpu_name (int ordinal, char *name, size_t size)
{
#if SHEPARD_HAVE_CUDA
  return shepard_cuda_device_describe (ordinal, name, size);
#else
  (void) ordinal;
  (void) name;
  (void) size;
  return false;
#endif
}
