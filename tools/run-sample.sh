#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds Shepard in build/ and grids the bundled meuse sample (zinc, adaptive IDW) with the
# command-line tool into build/sample/, then shows the raster's statistics.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

./tools/install-deps.sh
configure_build build
ninja -C build

grid_tool=build/app/shepard-grid
if [[ ! -x "$grid_tool" ]]; then
  echo "run-sample: $grid_tool was not built; the 'Shepard' summary of meson setup above says which part is off." >&2
  exit 1
fi

output_dir=build/sample
output="$output_dir/meuse-zinc-aidw.tif"
mkdir -p "$output_dir"
"$grid_tool" -zfield zinc -a aidw data/meuse.csv "$output"
gdalinfo -stats "$output"
echo "run-sample: wrote $PWD/$output"
