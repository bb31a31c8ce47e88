#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds Shepard in build/ and opens the desktop application on the bundled meuse sample
# (zinc). Without a display it grids the sample with the command-line tool instead and shows the raster's statistics.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

./tools/install-deps.sh
configure_build build
ninja -C build

app=build/ui/shepard
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" && -x "$app" ]]; then
  # The schema compiled in the build tree lets the app remember its parameters without being installed.
  exec env GSETTINGS_SCHEMA_DIR=build/ui "$app" --field zinc data/meuse.csv
fi

grid_tool=build/app/shepard-grid
if [[ ! -x "$grid_tool" ]]; then
  echo "run-sample: $grid_tool was not built; the 'Shepard' summary of meson setup above says which part is off." >&2
  exit 1
fi
if [[ ! -x "$app" ]]; then
  echo "run-sample: the desktop application was not built (see the 'Shepard' summary above); using the command line."
else
  echo "run-sample: no display (DISPLAY and WAYLAND_DISPLAY are unset); gridding the sample with the command line."
fi
output_dir=build/sample
output="$output_dir/meuse-zinc-aidw.tif"
mkdir -p "$output_dir"
"$grid_tool" -zfield zinc -a aidw data/meuse.csv "$output"
gdalinfo -stats "$output"
echo "run-sample: wrote $PWD/$output"
