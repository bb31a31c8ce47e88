/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Neighbourhood section's ties to the map: the search shape drawn while it is edited; and the layer's unit and size
 * in the sections that take distances (Neighbourhood, Mask). */
#include "shepard-window-private.h"

static void
update_search_shape (ShepardWindow *self)
{
  ShepardNeighbourhoodSection *section = shepard_parameter_panel_get_neighbourhood_section (self->parameter_panel);
  shepard_params params;

  shepard_parameter_panel_get_params (self->parameter_panel, &params);
  shepard_search_shape_overlay_set_shape (self->search_shape_overlay, params.radius1, params.radius2, params.angle);
  shepard_search_shape_overlay_set_shown (self->search_shape_overlay,
                                          self->document != NULL
                                            && shepard_neighbourhood_section_get_shape_shown (section));
}

void
_shepard_window_neighbourhood_init (ShepardWindow *self)
{
  ShepardNeighbourhoodSection *section = shepard_parameter_panel_get_neighbourhood_section (self->parameter_panel);

  shepard_search_shape_overlay_set_map_view (self->search_shape_overlay, self->map_view);
  g_signal_connect_object (section, "notify::shape-shown", G_CALLBACK (update_search_shape), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (section, "changed", G_CALLBACK (update_search_shape), self, G_CONNECT_SWAPPED);
}

void
_shepard_window_neighbourhood_show_document (ShepardWindow *self, double metres_per_unit)
{
  ShepardNeighbourhoodSection *section = shepard_parameter_panel_get_neighbourhood_section (self->parameter_panel);
  double extent[4];

  shepard_document_get_extent (self->document, extent);
  double size = MAX (extent[2] - extent[0], extent[3] - extent[1]);
  shepard_neighbourhood_section_set_units (section, metres_per_unit, size);
  shepard_mask_section_set_units (shepard_parameter_panel_get_mask_section (self->parameter_panel),
                                  shepard_neighbourhood_section_get_unit (section), size);
  update_search_shape (self);
}
