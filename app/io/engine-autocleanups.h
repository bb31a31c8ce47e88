/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "shepard-engine.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (shepard_engine, shepard_engine_free)
