/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_BEGIN_DECLS

/* Stores the option's values (n_values words; with accepts_value, values[0] is NULL when the next word was not
 * taken) in target. synopsis is how the option is written, for the messages. */
typedef gboolean (*ShepardOptionHandler) (gpointer target, const char *synopsis, const char *const *values,
                                          GError **error);

/* One option of a command line, in the manner of GOptionEntry: handle gets target. */
typedef struct {
  const char *name;
  int n_values;
  const char *synopsis;
  ShepardOptionHandler handle;
  gpointer target;
  /* NULL: n_values words always follow. Else one optional value, taken only when this says the next word is one. */
  gboolean (*accepts_value) (const char *word);
} ShepardOption;

/* Takes a word that is no option, or fails with shepard_usage_error. */
typedef gboolean (*ShepardOperandHandler) (gpointer target, const char *operand, GError **error);

/* Sets SHEPARD_APP_ERROR_USAGE; returns FALSE. */
gboolean shepard_usage_error (GError **error, const char *format, ...) G_GNUC_PRINTF (2, 3);

/* Reads argv (argv[0] is program) against the n_options options, giving the other words to add_operand. With
 * --help or -h anywhere, reads nothing else and sets *help. Stops at the first mistake, with SHEPARD_APP_ERROR_USAGE;
 * an unknown option's message names program. */
gboolean shepard_option_parse (const char *program, const ShepardOption *options, size_t n_options, int argc,
                               const char *const *argv, ShepardOperandHandler add_operand, gpointer operand_target,
                               gboolean *help, GError **error);

/* Handlers for the usual kinds of option. */

/* target: a char *, replaced by a copy of the value. */
gboolean shepard_option_store_string (gpointer target, const char *synopsis, const char *const *values,
                                      GError **error);

/* target: a gboolean, set by an option without value. */
gboolean shepard_option_set_flag (gpointer target, const char *synopsis, const char *const *values, GError **error);

/* target: a GStrvBuilder, given the value when it is NAME=VALUE. */
gboolean shepard_option_add_name_value (gpointer target, const char *synopsis, const char *const *values,
                                        GError **error);

/* target: a shepard_backend, from auto, cpu or cuda. */
gboolean shepard_option_store_backend (gpointer target, const char *synopsis, const char *const *values,
                                       GError **error);

/* "all" or GPU numbers separated by commas ("0,1") into set; otherwise SHEPARD_APP_ERROR_USAGE with the engine's
 * message after synopsis. */
gboolean shepard_option_parse_gpus (const char *synopsis, const char *text, shepard_gpu_set *set, GError **error);

/* target: a char *, replaced by a copy of the value once shepard_option_parse_gpus takes it. */
gboolean shepard_option_store_gpus (gpointer target, const char *synopsis, const char *const *values,
                                    GError **error);

/* --gpus (NULL: not given) chooses CUDA devices: a usage error with --backend cpu, which has none to choose. */
gboolean shepard_option_check_gpus_backend (const char *gpus, shepard_backend backend, GError **error);

G_END_DECLS
