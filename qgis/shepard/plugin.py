# SPDX-License-Identifier: GPL-3.0-or-later
"""Registers the Shepard provider with Processing, in the desktop application and in qgis_process alike."""

from qgis.core import QgsApplication

from .provider import ShepardProvider


class ShepardPlugin:
    def __init__(self):
        self.provider = None

    def initProcessing(self):  # noqa: N802 (QGIS's plugin interface)
        # qgis_process calls only this; the desktop application calls initGui, which comes here too.
        if self.provider is None:
            self.provider = ShepardProvider()
            QgsApplication.processingRegistry().addProvider(self.provider)

    def initGui(self):  # noqa: N802
        self.initProcessing()

    def unload(self):
        if self.provider is not None:
            QgsApplication.processingRegistry().removeProvider(self.provider)
            self.provider = None
