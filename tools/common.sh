# SPDX-License-Identifier: GPL-3.0-or-later
# shellcheck shell=bash
# Sourced by the scripts in tools/: moves to the repository root and finds nvcc where the CUDA toolkit installs it.

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit

if [[ -d /usr/local/cuda/bin && ":$PATH:" != *:/usr/local/cuda/bin:* ]]; then
  PATH="/usr/local/cuda/bin:$PATH"
  export PATH
fi

# configure_build DIR [MESON_OPTION...]: sets up a meson build directory, or reconfigures an existing one so that
# changed options and a newly installed compiler are picked up.
configure_build() {
  local build_dir=$1
  shift
  if [[ -f "$build_dir/meson-private/coredata.dat" ]]; then
    meson setup --reconfigure "$@" "$build_dir"
  else
    meson setup "$@" "$build_dir"
  fi
}
