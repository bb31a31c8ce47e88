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

# pack_parts SOURCE_DIR PARTS_DIR LIMIT_BYTES: moves the .deb files of SOURCE_DIR into PARTS_DIR/part1, part2, ...,
# none over LIMIT_BYTES, so that each part travels in one device call. Largest first, each into the first part with
# room: few parts, so few calls.
pack_parts() {
  local source_dir=$1 parts_dir=$2 limit=$3 deb size candidate used
  mkdir -p "$parts_dir/part1"
  while IFS= read -r deb; do
    size=$(stat -c %s "$deb")
    if ((size > limit)); then
      echo "pack_parts: $deb ($size bytes) is larger than a part ($limit bytes)." >&2
      return 1
    fi
    for ((candidate = 1; ; candidate++)); do
      mkdir -p "$parts_dir/part$candidate"
      used=$(du -sb "$parts_dir/part$candidate" | cut -f1)
      if ((used + size <= limit)); then
        mv "$deb" "$parts_dir/part$candidate/"
        break
      fi
    done
  done < <(find "$source_dir" -name '*.deb' -printf '%s %p\n' | sort -rn | cut -d' ' -f2-)
}

# print_part_calls NAME CHECK_SCRIPT PARTS_DIR CARRY_DIR: prints the device calls to make back to back: "CHECK_SCRIPT
# unpack PART" for each part of PARTS_DIR but the last, then "CHECK_SCRIPT run LAST_PART" carrying the last part and
# CARRY_DIR. Fails when that last call would carry more than the device tool takes beside the working tree.
print_part_calls() {
  local name=$1 check_script=$2 parts_dir=$3 carry_dir=$4 transfer_limit=$((64 * 1024 * 1024))
  local parts last tree_bytes carry_bytes last_bytes part
  parts=$(find "$parts_dir" -mindepth 1 -maxdepth 1 -name 'part*' | sort -V)
  last=$(echo "$parts" | tail -1)
  tree_bytes=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null |
    awk '{ total += $1 } END { print total + 0 }')
  carry_bytes=$(du -sb "$carry_dir" | cut -f1)
  last_bytes=$(du -sb "$last" | cut -f1)
  # shellcheck disable=SC2086 # one part a word
  du -sh $parts "$carry_dir"
  if ((tree_bytes + carry_bytes + last_bytes > transfer_limit)); then
    echo "$name: the last call would carry $(mib $((tree_bytes + carry_bytes + last_bytes))) with the working tree," \
      "more than $(mib "$transfer_limit"): lower part_limit." >&2
    return 1
  fi
  echo "$name: make these device calls back to back, timeout_s 600:"
  for part in $parts; do
    if [[ "$part" != "$last" ]]; then
      echo "  command '$check_script unpack $part', carry [\"$part\"]"
    fi
  done
  echo "  command '$check_script run $last', carry [\"$last\", \"$carry_dir\"]"
}

# mib BYTES: the size in MiB, one decimal.
mib() {
  awk -v bytes="$1" 'BEGIN { printf "%.1f MiB", bytes / 1048576 }'
}

# synthetic_points_csv N: prints a CSV (x,y,value) of N points spread evenly over 100 km x 100 km, their values from a
# smooth surface plus noise; the same points every time with the same awk (mawk's and gawk's generators differ).
synthetic_points_csv() {
  awk -v n="$1" 'BEGIN { srand(16); print "x,y,value";
    for (i = 0; i < n; i++) { x = rand() * 100000; y = rand() * 100000;
      printf "%.3f,%.3f,%.4f\n", x, y, 100 + 50 * sin(x / 7000) * cos(y / 9000) + 10 * rand() } }'
}
