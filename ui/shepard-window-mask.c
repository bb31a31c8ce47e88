/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Mask section's choice made into the document's mask (app/io/grid-mask), which every preview surface and export
 * then takes: built again when the choice, the layer or a sandbox's points change. */
#include "shepard-window-private.h"

#include "grid-mask.h"

/* The document's new mask from the section's choice; a choice that cannot be made (a cutline of lines, points with no
 * hull) is told in the section and masks nothing. */
static void
build_mask (ShepardWindow *self)
{
  ShepardMaskSection *section = shepard_parameter_panel_get_mask_section (self->parameter_panel);
  const ShepardPointLayer *points = shepard_document_get_points (self->document);
  g_autoptr (ShepardGridMask) mask = shepard_grid_mask_new ();
  g_autoptr (GError) error = NULL;
  gboolean built = TRUE;

  /* An empty sandbox has no surface to mask yet. */
  switch (points->count > 0 ? shepard_mask_section_get_kind (section) : SHEPARD_MASK_NONE)
    {
    case SHEPARD_MASK_DISTANCE:
      built = shepard_grid_mask_add_distance (mask, points->x, points->y, points->count,
                                              shepard_mask_section_get_distance (section), &error);
      break;
    case SHEPARD_MASK_HULL:
      built = shepard_grid_mask_add_hull (mask, points->x, points->y, points->count, &error);
      break;
    case SHEPARD_MASK_CUTLINE:
      built = shepard_grid_mask_add_cutline (mask, shepard_mask_section_get_cutline_path (section),
                                             shepard_mask_section_get_cutline_layer (section), points->crs_wkt,
                                             &error);
      break;
    case SHEPARD_MASK_NONE:
      break;
    }
  shepard_mask_section_set_error (section, built ? NULL : error->message);
  shepard_document_set_mask (self->document, built ? g_steal_pointer (&mask) : NULL);
}

static void
on_mask_chosen (ShepardWindow *self)
{
  if (self->document == NULL)
    return;
  build_mask (self);
  _shepard_window_recompute (self);
}

void
_shepard_window_mask_init (ShepardWindow *self)
{
  g_signal_connect_object (shepard_parameter_panel_get_mask_section (self->parameter_panel), "changed",
                           G_CALLBACK (on_mask_chosen), self, G_CONNECT_SWAPPED);
}

void
_shepard_window_mask_show_document (ShepardWindow *self)
{
  build_mask (self);
  /* Before the sandbox's handler, which interpolates the edited points: the mask of their distance or hull first. */
  if (shepard_document_is_sandbox (self->document))
    g_signal_connect_object (self->document, "points-changed", G_CALLBACK (build_mask), self, G_CONNECT_SWAPPED);
}
