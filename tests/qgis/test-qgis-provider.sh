#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs test-qgis-provider.py with the Python that QGIS's modules belong to (the first python3 on PATH may be another,
# e.g. pyenv's); where there is none, QGIS is not installed and the test is skipped (TAP).
# Usage: test-qgis-provider.sh SHEPARD_GRID SHEPARD_CV
# The provider is imported from the source tree: leave no __pycache__ there.
export PYTHONDONTWRITEBYTECODE=1
for candidate in python3 /usr/bin/python3; do
  if "$candidate" -c 'import qgis.core, osgeo.gdal, numpy' 2>/dev/null; then
    exec "$candidate" "$(dirname "${BASH_SOURCE[0]}")/test-qgis-provider.py" "$@"
  fi
done
echo "1..0 # SKIP QGIS is not installed: no python3 imports qgis.core, osgeo.gdal and numpy (apt-get install qgis python3-qgis python3-gdal python3-numpy)"
