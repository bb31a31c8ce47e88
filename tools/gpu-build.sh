#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs here (Debian 12 with nvcc) and prepares what tools/gpu-check.sh runs on the GPU test machine (Ubuntu 24.04 with
# the NVIDIA driver and nvcc, but no GLib, libepoxy or GL loaders): builds build-gpu/ with the CUDA backend for sm_90
# only (what travels to that machine is limited to 64 MiB), the engine's tests, render/ and its GL and interop tests
# (GLib and libepoxy suffice: no GTK, no GDAL) and the benchmarks (CUDA, preview, cross-validation, optimiser); copies the
# programs gpu-check.sh runs into build-gpu/carry/ (packed) and the Debian runtime packages they need (GLib, libepoxy,
# the GLVND EGL loaders) into .gpu-debs/.
# Both are git-ignored, so the device tool takes them only when named in its carry list; the last line printed says
# how to call it.
# Usage: tools/gpu-build.sh    (SHEPARD_STAGE_DEBS: the package staging script, default ../shared/gpu/stage-debs.sh)
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_dir=build-gpu
carry_dir=$build_dir/carry
# The programs are staged here, then packed into $carry_dir/programs.tar.xz: each one links the engine with its
# device code, and unpacked they come close to what can travel.
stage_dir=$build_dir/programs
debs_dir=.gpu-debs
stage_debs=${SHEPARD_STAGE_DEBS:-../shared/gpu/stage-debs.sh}
transfer_limit=$((64 * 1024 * 1024))

if ! command -v nvcc >/dev/null; then
  echo "gpu-build: nvcc is neither on PATH nor in /usr/local/cuda/bin; the GPU build needs the CUDA toolkit." >&2
  exit 1
fi

# From scratch every time: meson 1.0 records no header dependencies for .cu files, so a changed header would leave
# stale device code behind.
rm -rf "$build_dir"
# -Dgui=disabled leaves out GTK only: render/ is built whenever GLib and libepoxy are found.
configure_build "$build_dir" -Dcuda=enabled -Dapp=disabled -Dgui=disabled -Dgpu_archs=90 -Dbenchmarks=true
ninja -C "$build_dir"

# Host debug sections are dropped to keep the transfer small; the device code keeps its line information, which is
# what compute-sanitizer reports kernel lines from.
rm -rf "$carry_dir" "$stage_dir"
mkdir -p "$carry_dir" "$stage_dir/tests" "$stage_dir/bench"
while IFS= read -r -d '' program; do
  strip --strip-debug -o "$stage_dir/tests/${program##*/}" "$program"
done < <(find "$build_dir/tests" -path "$build_dir/tests/bench" -prune -o -type f -name 'test-*' -perm -u+x -print0)
if [[ -z "$(ls -A "$stage_dir/tests")" ]]; then
  echo "gpu-build: no test program was built in $build_dir/tests: the engine's tests need GLib (libglib2.0-dev)." >&2
  exit 1
fi
if [[ ! -x "$build_dir/tests/render/test-interop" ]]; then
  echo "gpu-build: $build_dir/tests/render/test-interop was not built: render/ needs GLib and libepoxy" \
    "(libepoxy-dev); see the 'Shepard' summary above." >&2
  exit 1
fi
for program in shepard-bench-cuda shepard-bench-cuda-far-field shepard-bench-multi-gpu shepard-bench-preview \
  shepard-bench-cv; do
  if [[ ! -x "$build_dir/tests/bench/$program" ]]; then
    echo "gpu-build: $build_dir/tests/bench/$program was not built; see the 'Shepard' summary above." >&2
    exit 1
  fi
done
for program in "$build_dir/tests/bench/shepard-bench-cuda" "$build_dir/tests/bench/shepard-bench-cuda-far-field" \
  "$build_dir/tests/bench/shepard-bench-multi-gpu" "$build_dir/tests/bench/shepard-bench-preview" \
  "$build_dir/tests/bench/shepard-bench-cv" "$build_dir/tests/bench/shepard-bench-optimise" \
  "$build_dir/tests/bench/cdp/cdp-idw-check"; do
  if [[ -x "$program" ]]; then
    strip --strip-debug -o "$stage_dir/bench/${program##*/}" "$program"
  fi
done
# Every program carries the same device code (about 14 MB): one xz stream (a single thread) with xz -9's 64 MiB
# dictionary stores it about once, 68 MiB of separate blocks becoming about 6 MiB, in about 3 minutes.
XZ_OPT="-9 -T1" tar -cJf "$carry_dir/programs.tar.xz" -C "$stage_dir" tests bench

# GLib for every test program; libepoxy and the GLVND EGL loader for render/'s tests and the preview benchmark; NLopt
# when a staged program links it (the optimiser's tests).
extra_debs=()
if readelf -d "$stage_dir"/tests/* "$stage_dir"/bench/* 2>/dev/null | grep 'NEEDED.*\[libnlopt\.so' >/dev/null; then
  extra_debs+=(libnlopt0)
fi
staged=true
for package in libglib2.0-0 libepoxy0 libegl1 "${extra_debs[@]}"; do
  if ! compgen -G "$debs_dir/${package}_*.deb" >/dev/null; then
    staged=false
  fi
done
if [[ "$staged" == true ]]; then
  echo "gpu-build: the runtime packages are already in $debs_dir/ (delete it to fetch them again)."
else
  if [[ ! -x "$stage_debs" ]]; then
    echo "gpu-build: $stage_debs is missing; set SHEPARD_STAGE_DEBS to the package staging script." >&2
    exit 1
  fi
  echo "gpu-build: fetching the Debian runtime packages into $debs_dir/"
  "$stage_debs" "$debs_dir" "${extra_debs[@]}"
fi

# What the device tool sends: the working tree (tracked files and untracked ones git does not ignore) and the carry.
tree_bytes=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null |
  awk '{ total += $1 } END { print total + 0 }')
carry_bytes=$(du -sb "$carry_dir" "$debs_dir" | awk '{ total += $1 } END { print total + 0 }')
mib() { awk -v bytes="$1" 'BEGIN { printf "%.1f MiB", bytes / 1048576 }'; }

echo
du -sh "$build_dir"
du -sh "$stage_dir" "$carry_dir" "$debs_dir"
ls -l "$stage_dir/tests" "$stage_dir/bench"
echo "gpu-build: the working tree ($(mib "$tree_bytes")) and the carry ($(mib "$carry_bytes")) make" \
  "$(mib $((tree_bytes + carry_bytes))) of the $(mib "$transfer_limit") that can travel."
if ((tree_bytes + carry_bytes > transfer_limit)); then
  echo "gpu-build: that is too much for the device tool: build for fewer architectures or carry fewer programs." >&2
  exit 1
fi
echo "gpu-build: device tool: run command 'tools/gpu-check.sh', carry [\"$carry_dir\", \"$debs_dir\"], timeout_s 600."
