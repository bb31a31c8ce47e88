#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Measures the desktop application's resident memory on the bundled meuse layer and on a layer of a million random
# points (a GeoPackage over meuse's area in EPSG:28992, made once with ogr2ogr into the build folder), each in a window
# of its own on a private Xvfb with Mesa's GL: the figures README's "Live preview" section gives. Prints VmRSS and the
# anonymous part of it (smaps_rollup) 20 s and 40 s after the window opens, and a screenshot path per layer.
# Usage: tools/measure-window-memory.sh [BUILD_DIR]   (default build; needs Xvfb, ogr2ogr and ImageMagick's import)
set -euo pipefail

build_dir=${1:-build}
app=$build_dir/ui/shepard
if [[ ! -x "$app" ]]; then
  echo "measure-window-memory: $app is not built; run ninja -C $build_dir first." >&2
  exit 1
fi
for tool in Xvfb ogr2ogr import python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "measure-window-memory: $tool is missing (packages xvfb, gdal-bin, imagemagick, python3)." >&2
    exit 1
  fi
done

million=$build_dir/million-points.gpkg
if [[ ! -s "$million" ]]; then
  csv=$(mktemp --suffix=.csv)
  python3 - "$csv" <<'PY'
import random
import sys

random.seed(13)
with open(sys.argv[1], 'w', encoding='ascii') as out:
    out.write('x,y,zinc\n')
    for _ in range(1_000_000):
        x = random.uniform(178605, 181390)
        y = random.uniform(329714, 333611)
        out.write(f'{x:.2f},{y:.2f},{random.uniform(100, 1800):.1f}\n')
PY
  ogr2ogr -q -f GPKG -a_srs EPSG:28992 -nln points -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y \
    -oo AUTODETECT_TYPE=YES "$million" "$csv"
  rm -f "$csv"
fi

display=:$((50 + RANDOM % 40))
Xvfb "$display" -screen 0 1400x900x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" 2>/dev/null || true' EXIT
sleep 1

export GSETTINGS_SCHEMA_DIR=$build_dir/ui GSETTINGS_BACKEND=memory LIBGL_ALWAYS_SOFTWARE=1 GDK_BACKEND=x11
for layer in data/meuse.csv "$million"; do
  DISPLAY=$display "$app" --field zinc "$layer" >/dev/null 2>&1 &
  pid=$!
  elapsed=0
  for at in 20 40; do
    sleep $((at - elapsed))
    elapsed=$at
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$pid/status")
    anonymous=$(awk '/^Anonymous/ { print $2 }' "/proc/$pid/smaps_rollup")
    printf '%-40s after %2d s: resident %4d MB, anonymous %4d MB\n' "${layer##*/}" "$at" $((rss / 1024)) \
      $((anonymous / 1024))
  done
  shot=$build_dir/memory-$(basename "${layer%.*}").png
  DISPLAY=$display import -window root "$shot"
  echo "screenshot: $shot"
  kill "$pid"
  wait "$pid" 2>/dev/null || true
done
