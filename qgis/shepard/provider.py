# SPDX-License-Identifier: GPL-3.0-or-later
"""The "Shepard" Processing provider: its algorithms and its setting, the folder of Shepard's command-line tools."""

import os

from qgis.core import QgsProcessingProvider
from qgis.PyQt.QtCore import QCoreApplication
from qgis.PyQt.QtGui import QIcon

from .adaptive_idw import AdaptiveIdwAlgorithm
from .cross_validation import CrossValidationAlgorithm
from .idw import IdwAlgorithm
from .tools import SHEPARD_FOLDER


class ShepardProvider(QgsProcessingProvider):
    def id(self):
        return "shepard"

    def name(self):
        return "Shepard"

    def longName(self):  # noqa: N802 (QGIS's interface)
        return QCoreApplication.translate("Shepard", "Shepard (IDW and adaptive IDW)")

    def icon(self):
        return QIcon(os.path.join(os.path.dirname(__file__), "icon.svg"))

    def load(self):
        from processing.core.ProcessingConfig import ProcessingConfig, Setting

        ProcessingConfig.settingIcons[self.name()] = self.icon()
        ProcessingConfig.addSetting(Setting(
            self.name(), SHEPARD_FOLDER,
            QCoreApplication.translate("Shepard", "Shepard folder (holds shepard-grid and shepard-cv; empty: PATH)"),
            "", valuetype=Setting.FOLDER))
        ProcessingConfig.readSettings()
        self.refreshAlgorithms()
        return True

    def unload(self):
        from processing.core.ProcessingConfig import ProcessingConfig

        ProcessingConfig.removeSetting(SHEPARD_FOLDER)

    def loadAlgorithms(self):  # noqa: N802
        for algorithm in (IdwAlgorithm(), AdaptiveIdwAlgorithm(), CrossValidationAlgorithm()):
            self.addAlgorithm(algorithm)

    def supportsNonFileBasedOutput(self):  # noqa: N802
        # The tools write files: QGIS hands them file names, also for temporary outputs.
        return False

    def defaultRasterFileExtension(self):  # noqa: N802
        return "tif"

    def defaultVectorFileExtension(self, hasGeometry=True):  # noqa: N802
        return "gpkg"
