# SPDX-License-Identifier: GPL-3.0-or-later
"""IDW: inverse distance weighting with one power everywhere (shepard-grid -a idw)."""

from .grid_algorithm import GRID_HELP, GridAlgorithm
from .method_parameters import add_idw_parameters, idw_method


class IdwAlgorithm(GridAlgorithm):
    def name(self):
        return "idw"

    def displayName(self):  # noqa: N802 (QGIS's interface)
        return self.tr("IDW")

    def shortHelpString(self):  # noqa: N802
        return self.tr(
            "<p>Interpolates a numeric field of a point layer into a raster by inverse distance weighting: the value "
            "of a cell is Σ wᵢzᵢ / Σ wᵢ with wᵢ = dᵢ^−p, over all points or the neighbourhood the options set.</p>"
        ) + self.tr(GRID_HELP)

    def add_method_parameters(self):
        add_idw_parameters(self)

    def method(self, parameters, context):
        return idw_method(self, parameters, context)
