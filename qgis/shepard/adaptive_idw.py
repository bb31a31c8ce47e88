# SPDX-License-Identifier: GPL-3.0-or-later
"""Adaptive IDW: the power follows the local point density (shepard-grid -a aidw, Mei et al. 2016)."""

from .grid_algorithm import GRID_HELP, GridAlgorithm
from .method_parameters import add_aidw_parameters, aidw_method


class AdaptiveIdwAlgorithm(GridAlgorithm):
    def name(self):
        return "adaptiveidw"

    def displayName(self):  # noqa: N802 (QGIS's interface)
        return self.tr("Adaptive IDW")

    def shortHelpString(self):  # noqa: N802
        return self.tr(
            "<p>Interpolates a numeric field of a point layer into a raster by adaptive inverse distance weighting "
            "(AIDW, Mei, Xu and Xu 2016). Around each cell, r_obs, the mean distance to its k nearest points, is "
            "compared with r_exp, the distance expected of the points spread evenly over the study area; the ratio "
            "R = r_obs / r_exp goes through a cosine between Rmin and Rmax and picks the power α from the five "
            "levels α1 (dense) to α5 (sparse). The neighbourhood options restrict only the weighting; r_obs still "
            "comes from the k nearest points.</p>"
        ) + self.tr(GRID_HELP)

    def add_method_parameters(self):
        add_aidw_parameters(self)

    def method(self, parameters, context):
        return aidw_method(self, parameters, context)
