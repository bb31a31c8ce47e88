#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs here (Debian 12 with nvcc) and prepares what tools/gpu-window-check.sh runs on the GPU machine (Ubuntu 24.04 with
# the NVIDIA driver, but no X server, GTK, GDAL or GLib): the whole application built with CUDA for sm_90 in
# build-gpu-window/, the programs that prove it there packed into build-gpu-window/carry/ (the desktop application,
# shepard-grid, the window, render and command-line tests, the window frame-time benchmark, the compiled GSettings
# schema), and the Debian packages they need to open a window there (their libraries, Xvfb with GLX, fonts, icons, GDAL
# and PROJ data) in .gpu-window-debs/part1, part2, ...: each part fits one device call beside the working tree.
# Both are git-ignored, so the device tool takes them only when named in carry. The last lines printed say which calls
# to make, back to back (the machine keeps what the earlier calls unpacked only while it stays warm).
# Usage: tools/gpu-window-build.sh
#   (SHEPARD_STAGE_WINDOW_DEBS: the package staging script, default ../shared/gpu/stage-window-debs.sh)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_dir=build-gpu-window
carry_dir=$build_dir/carry
stage_dir=$build_dir/programs
debs_dir=.gpu-window-debs
stage_debs=${SHEPARD_STAGE_WINDOW_DEBS:-../shared/gpu/stage-window-debs.sh}
# What one call may carry besides the working tree and, in the last call, the programs.
part_limit=$((54 * 1024 * 1024))

if ! command -v nvcc >/dev/null; then
  echo "gpu-window-build: nvcc is neither on PATH nor in /usr/local/cuda/bin; the GPU build needs the CUDA toolkit." >&2
  exit 1
fi

configure_build "$build_dir" -Dcuda=enabled -Dgpu_archs=90 -Dbuildtype=debugoptimized -Dbenchmarks=true
programs=(ui/shepard app/shepard-grid tests/ui/test-window-gpu tests/ui/test-window-instruments tests/ui/test-mask
  tests/ui/test-neighbourhood tests/ui/test-window-state tests/render/test-renderer tests/render/test-interop
  tests/cli/test-cli-cuda tests/bench/shepard-bench-window)
ninja -C "$build_dir" "${programs[@]}" ui/gschemas.compiled

rm -rf "$carry_dir" "$stage_dir"
mkdir -p "$carry_dir" "$stage_dir"
for program in "${programs[@]}"; do
  strip --strip-debug -o "$stage_dir/${program##*/}" "$build_dir/$program"
done
cp "$build_dir/ui/gschemas.compiled" "$stage_dir/"
# One xz stream with -9's 64 MiB dictionary stores the device code the programs share about once (gpu-build.sh).
XZ_OPT="-9 -T1" tar -cJf "$carry_dir/programs.tar.xz" -C "$stage_dir" .

# Every library of the largest program (the window test links GTK, GDAL, libepoxy and the engine), and what a window
# needs around it.
if ! compgen -G "$debs_dir/part1/*.deb" >/dev/null; then
  if [[ ! -x "$stage_debs" ]]; then
    echo "gpu-window-build: $stage_debs is missing; set SHEPARD_STAGE_WINDOW_DEBS to the staging script." >&2
    exit 1
  fi
  rm -rf "$debs_dir" "$debs_dir.staged"
  "$stage_debs" "$build_dir/tests/ui/test-window-gpu" "$debs_dir.staged"
  pack_parts "$debs_dir.staged" "$debs_dir" "$part_limit"
  rm -rf "$debs_dir.staged"
else
  echo "gpu-window-build: the packages are already in $debs_dir/ (delete it to fetch them again)."
fi

# GTK loads its SVG icons through gdk-pixbuf's SVG loader, which the staging script does not list; without it every
# icon is a warning, and a warning ends a GLib test program.
parts=$(find "$debs_dir" -mindepth 1 -maxdepth 1 -name 'part*' | sort -V)
last=$(echo "$parts" | tail -1)
if ! compgen -G "$debs_dir/part*/librsvg2-common_*.deb" >/dev/null; then
  (cd "$last" && apt-get download librsvg2-2 librsvg2-common >/dev/null)
fi

print_part_calls gpu-window-build tools/gpu-window-check.sh "$debs_dir" "$carry_dir"
