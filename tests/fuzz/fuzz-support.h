/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <stddef.h>
#include <stdint.h>

G_BEGIN_DECLS

/* libFuzzer's entry points, which each target defines. */
int LLVMFuzzerInitialize (int *argc, char ***argv);
int LLVMFuzzerTestOneInput (const uint8_t *data, size_t size);

/* Once, before the first input: GLib's allocations go straight to malloc, so that AddressSanitizer sees each block;
 * GLib criticals and warnings abort, so that a precondition our code breaks is a finding; GDAL is registered and
 * quiet. */
void shepard_fuzz_init (void);

/* Stops the run with the input saved as a crash when an invariant does not hold: what broke goes to stderr. */
#define SHEPARD_FUZZ_CHECK(condition, ...)                                                                            \
  do                                                                                                                  \
    {                                                                                                                 \
      if (!(condition))                                                                                               \
        shepard_fuzz_fail (__FILE__, __LINE__, #condition, __VA_ARGS__);                                              \
    }                                                                                                                 \
  while (0)

G_NORETURN void shepard_fuzz_fail (const char *file, int line, const char *condition, const char *format, ...)
  G_GNUC_PRINTF (4, 5);

/* The input as a command line: program, then the words between NUL bytes and newlines (empty words kept, one
 * trailing separator ignored). NULL-terminated; argc gets the count; g_strfreev. */
char **shepard_fuzz_split_words (const uint8_t *data, size_t size, const char *program, int *argc);

/* Whether a and b hold the same bits, as a parse that gives back what was written must (-0 is not 0). */
gboolean shepard_fuzz_same_double (double a, double b);

G_END_DECLS
