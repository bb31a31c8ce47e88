# SPDX-License-Identifier: GPL-3.0-or-later
"""Where Shepard's command-line tools are: the provider's "Shepard folder" setting, else PATH."""

import os
import shutil

from qgis.core import QgsProcessingException
from qgis.PyQt.QtCore import QCoreApplication

# The name under which Processing stores the setting (Processing/Configuration/SHEPARD_FOLDER).
SHEPARD_FOLDER = "SHEPARD_FOLDER"


def _tr(text):
    return QCoreApplication.translate("Shepard", text)


def _configured_folder():
    # Imported here: the processing plugin is there whenever Processing runs an algorithm, not necessarily at import.
    from processing.core.ProcessingConfig import ProcessingConfig

    folder = ProcessingConfig.getSetting(SHEPARD_FOLDER)
    return str(folder).strip() if folder else ""


def _executable_name(tool):
    return tool + ".exe" if os.name == "nt" else tool


def find_tool(tool):
    """Returns the path of TOOL (shepard-grid, shepard-cv) or raises a QgsProcessingException saying what to do."""
    name = _executable_name(tool)
    folder = _configured_folder()
    if folder:
        path = os.path.join(folder, name)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        raise QgsProcessingException(
            _tr("{tool} was not found in the Shepard folder {folder}: set the folder that holds Shepard's "
                "command-line tools in Processing options (Providers > Shepard), or clear it to use PATH").format(
                tool=tool, folder=folder))
    path = shutil.which(name)
    if path is None:
        raise QgsProcessingException(
            _tr("{tool} was not found: install Shepard or set the Shepard folder in Processing options").format(
                tool=tool))
    return path
