# SPDX-License-Identifier: GPL-3.0-or-later
"""The Shepard plugin: a Processing provider that runs the shepard-grid and shepard-cv command lines."""


def classFactory(iface):  # noqa: N802 (the name QGIS looks for)
    from .plugin import ShepardPlugin

    return ShepardPlugin()
