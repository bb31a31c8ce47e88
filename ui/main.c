/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gi18n.h>

#include "memory-tuning.h"
#include "shepard-application.h"

int
main (int argc, char *argv[])
{
  shepard_tune_memory ();
  g_autoptr (ShepardApplication) application = shepard_application_new ();

  return g_application_run (G_APPLICATION (application), argc, argv);
}
