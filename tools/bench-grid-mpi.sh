#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Benchmark of shepard-grid-mpi: local AIDW (aidw:max_points=16) of a synthetic point layer (a FlatGeobuf with its
# spatial index, made once in the cache directory) over a square raster, with 1, 2 and 4 ranks on this machine:
# wall time, the tiles and the peak memory of each rank. Per-rank memory should fall as ranks grow: each reads only
# its tiles' points and a halo around them, and the ranks of a node share its memory (smaller tiles and scan strips).
# Usage: tools/bench-grid-mpi.sh [POINTS [CELLS [RANKS...]]]   (defaults: 10000000 16384 1 2 4)
# Environment: BUILD (default build), CACHE (default ${XDG_CACHE_HOME:-~/.cache}/shepard-bench), METHOD, TILE (a
# --tile-size; default: shepard-grid-mpi's own), COMPARE (another build directory, such as an older commit's: each
# rank count runs it first, then BUILD, one line each).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
points=${1:-10000000}
cells=${2:-16384}
shift $(($# > 2 ? 2 : $#))
ranks=("${@:-1 2 4}")
# shellcheck disable=SC2206
ranks=(${ranks[*]})
root=$PWD
builds=(${COMPARE:+"$COMPARE"} "${BUILD:-$root/build}")
method=${METHOD:-aidw:max_points=16}
tile_option=(${TILE:+--tile-size "$TILE"})
cache=${CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/shepard-bench}
layer=$cache/points-$points.fgb
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

for build in "${builds[@]}"; do
  [[ -x $build/app/shepard-grid-mpi ]] ||
    { echo "bench-grid-mpi: $build/app/shepard-grid-mpi is not built (OpenMPI missing? see tools/install-deps.sh)" >&2; exit 1; }
done
mkdir -p "$cache"
if [[ ! -f $layer ]]; then
  echo "Making $layer: $points points over 100 km x 100 km, values from a smooth surface ..."
  synthetic_points_csv "$points" >"$layer.csv"
  ogr2ogr -f FlatGeobuf -lco SPATIAL_INDEX=YES -a_srs EPSG:28992 -oo X_POSSIBLE_NAMES=x -oo Y_POSSIBLE_NAMES=y \
    -oo AUTODETECT_TYPE=YES "$layer" "$layer.csv"
  rm -f "$layer.csv"
fi

output=$(mktemp -d)
trap 'rm -rf "$output"' EXIT
echo "shepard-grid-mpi: $points points ($layer), $method over ${cells}x$cells cells, ${TILE:+tiles of $TILE, }CPU backend"
echo "$(nproc) cores: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)"
printf '%6s %10s %6s  %-28s %s\n' ranks 'wall (s)' tile build 'peak memory per rank (MB)'
for n in "${ranks[@]}"; do
  for build in "${builds[@]}"; do
    rm -rf "${output:?}"/*
    start=$(date +%s.%N)
    log=$(mpirun --oversubscribe -np "$n" "$build/app/shepard-grid-mpi" --backend cpu "${tile_option[@]}" \
      -zfield value -a "$method" -outsize "$cells" "$cells" "$layer" "$output/out.vrt" 2>&1) ||
      { echo "$log" >&2; exit 1; }
    end=$(date +%s.%N)
    memory=$(grep -o 'Peak memory per rank (MB):.*' <<<"$log" | cut -d: -f2)
    tile=$(grep -o 'tiles of [0-9]*' <<<"$log" | cut -d' ' -f3)
    printf '%6s %10.1f %6s  %-28s%s\n' "$n" "$(echo "$end - $start" | bc)" "$tile" "$(basename "$(dirname "$build")")/$(basename "$build")" "$memory"
  done
done
