#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the Debian 12 packages that building and testing Shepard need; does nothing when all are there.
# nvcc is optional and not installed here: the build uses it when it is on PATH or in /usr/local/cuda/bin.
# Usage: tools/install-deps.sh [--dry-run]   (--dry-run prints what it would run and changes nothing)
set -euo pipefail

packages=(
  meson ninja-build pkg-config gcc g++
  libglib2.0-dev libgtk-4-dev libepoxy-dev libgdal-dev gdal-bin libnlopt-dev libjson-glib-dev
  xvfb xauth libgl1-mesa-dri
  desktop-file-utils appstream
  # libFuzzer and the sanitizers' runtimes for tests/fuzz (tools/fuzz.sh); clang alone only recommends the runtimes.
  clang libclang-rt-dev
  # shepard-grid-mpi and its tests (mpirun).
  openmpi-bin libopenmpi-dev
  # The QGIS Processing provider's tests (tests/qgis): qgis_process, PyQGIS, and GDAL's Python for the read-back.
  qgis python3-qgis python3-gdal python3-numpy
)

dry_run=false
case "${1-}" in
  '') ;;
  --dry-run) dry_run=true ;;
  *)
    echo "usage: $0 [--dry-run]" >&2
    exit 2
    ;;
esac

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  echo "install-deps: this is not a Debian system (no dpkg-query or apt-get)." >&2
  echo "install-deps: install these packages (or your system's equivalents) by hand: ${packages[*]}" >&2
  exit 1
fi

missing=()
for package in "${packages[@]}"; do
  if [[ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" != 'install ok installed' ]]; then
    missing+=("$package")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages are installed."
  exit 0
fi
echo "install-deps: missing: ${missing[*]}"

as_root=()
if ((EUID != 0)); then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: not root and sudo is not installed; as root, run: apt-get install ${missing[*]}" >&2
    exit 1
  fi
  # In CI nobody can type a password: fail at once instead of waiting for one.
  if [[ "${CI-}" == true ]]; then
    as_root=(sudo -n)
  else
    as_root=(sudo)
  fi
fi

apt=("${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get)
commands=(
  "${apt[*]} update"
  "${apt[*]} install -y --no-install-recommends ${missing[*]}"
)
if [[ "$dry_run" == true ]]; then
  printf 'install-deps: would run: %s\n' "${commands[@]}"
  exit 0
fi

"${apt[@]}" update
"${apt[@]}" install -y --no-install-recommends "${missing[@]}"
