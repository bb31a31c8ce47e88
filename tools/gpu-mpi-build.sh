#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs here (Debian 12 with nvcc, GDAL and OpenMPI) and prepares what tools/gpu-mpi-check.sh runs on the GPU machine
# (Ubuntu 24.04 with the NVIDIA driver, but no GDAL, OpenMPI or GLib): shepard-grid and shepard-grid-mpi built with CUDA
# for sm_90 in build-gpu-mpi/ with the raster comparer, packed into build-gpu-mpi/carry/programs.tar.xz, and the
# Debian packages they need there in .gpu-mpi-debs/part1, part2, ...: every library they and OpenMPI's and PMIx's
# components load, mpirun (orterun), ogr2ogr, OpenMPI's help files, GDAL's and PROJ's data. Each part fits one device
# call beside the working tree. Both are git-ignored, so the device tool takes them only when named in carry; the last
# lines printed say which calls to make, back to back (the machine keeps what earlier calls unpacked while it stays
# warm).
# Usage: tools/gpu-mpi-build.sh [--prove-here]
#   --prove-here: then unpacks the parts into a scratch directory and runs tools/gpu-mpi-check.sh there on the CPU
#   (small sizes), under `env -i` and in a mount namespace that hides this machine's OpenMPI, PMIx, GDAL and PROJ
#   files, so that a library, component or data file missing from the parts shows up here, not on the device.
# Environment: SHEPARD_STAGE_DEBS (the package download script, default ../shared/gpu/stage-debs.sh).
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

build_dir=build-gpu-mpi
carry_dir=$build_dir/carry
stage_dir=$build_dir/programs
debs_dir=.gpu-mpi-debs
stage_debs=${SHEPARD_STAGE_DEBS:-../shared/gpu/stage-debs.sh}
# What one call may carry besides the working tree and, in the last call, the programs.
part_limit=$((54 * 1024 * 1024))
programs=(app/shepard-grid app/shepard-grid-mpi tests/cli/raster-compare)
multiarch=/usr/lib/x86_64-linux-gnu
# What the staged programs run or load besides their own libraries: mpirun and its daemon, OpenMPI's and PMIx's
# components (each dlopened, with libraries of its own), ogr2ogr for the synthetic layer.
runtime_files=(/usr/bin/orterun /usr/bin/orted /usr/bin/ogr2ogr "$multiarch"/openmpi/lib/openmpi3/*.so
  "$multiarch"/pmix2/lib/pmix/*.so)
# Packages of programs and data rather than libraries: mpirun and orted, OpenMPI's help files and settings, ogr2ogr,
# GDAL's and PROJ's data.
data_packages=(openmpi-bin openmpi-common gdal-bin gdal-data proj-data)
# The GPU machine's own (newer) C and C++ runtimes serve Debian's programs.
base_packages='^(libc6|libgcc-s1|libstdc\+\+6|gcc-12-base)$'

prove_here=false
case "${1-}" in
  --prove-here) prove_here=true ;;
  "") ;;
  *) echo "usage: $0 [--prove-here]" >&2; exit 2 ;;
esac

if ! command -v nvcc >/dev/null; then
  echo "gpu-mpi-build: nvcc is neither on PATH nor in /usr/local/cuda/bin; the GPU build needs the CUDA toolkit." >&2
  exit 1
fi
for file in "${runtime_files[@]}"; do
  if [[ ! -e "$file" ]]; then
    echo "gpu-mpi-build: $file is missing: install openmpi-bin and gdal-bin (tools/install-deps.sh)." >&2
    exit 1
  fi
done

# From scratch: meson 1.0 records no header dependencies for .cu files (gpu-build.sh).
rm -rf "$build_dir"
configure_build "$build_dir" -Dcuda=enabled -Dgpu_archs=90 -Dgui=disabled -Dbuildtype=debugoptimized \
  -Dbenchmarks=false
ninja -C "$build_dir" "${programs[@]}"

rm -rf "$carry_dir" "$stage_dir"
mkdir -p "$carry_dir" "$stage_dir"
for program in "${programs[@]}"; do
  strip --strip-debug -o "$stage_dir/${program##*/}" "$build_dir/$program"
done
# One xz stream with -9's 64 MiB dictionary stores the device code the programs share about once (gpu-build.sh).
XZ_OPT="-9 -T1" tar -cJf "$carry_dir/programs.tar.xz" -C "$stage_dir" .

if compgen -G "$debs_dir/part1/*.deb" >/dev/null; then
  echo "gpu-mpi-build: the packages are already in $debs_dir/ (delete it to fetch them again)."
else
  if [[ ! -x "$stage_debs" ]]; then
    echo "gpu-mpi-build: $stage_debs is missing; set SHEPARD_STAGE_DEBS to the package download script." >&2
    exit 1
  fi
  # The packages that own every library the programs and runtime files load, as this machine resolves them.
  libraries=$(for file in "${programs[@]/#/$build_dir/}" "${runtime_files[@]}"; do ldd "$file"; done |
    awk '$3 ~ /^\// { print $3 }' | sort -u)
  library_packages=$(for library in $libraries; do
    dpkg -S "$(readlink -f "$library")" 2>/dev/null || dpkg -S "$library"
  done | cut -d: -f1 | sort -u)
  # shellcheck disable=SC2086 # one package a word
  packages=$(printf '%s\n' $library_packages "${data_packages[@]}" | sort -u | grep -vE "$base_packages")
  rm -rf "$debs_dir" "$debs_dir.staged"
  echo "gpu-mpi-build: fetching $(wc -w <<<"$packages") Debian packages into $debs_dir/"
  # shellcheck disable=SC2086 # one package a word
  "$stage_debs" "$debs_dir.staged" $packages >/dev/null
  pack_parts "$debs_dir.staged" "$debs_dir" "$part_limit"
  rm -rf "$debs_dir.staged"
fi

if [[ "$prove_here" == true ]]; then
  scratch=$(mktemp -d /tmp/shepard-mpi-prove-XXXXXX)
  trap 'rm -rf "$scratch"' EXIT
  for part in "$debs_dir"/part*; do
    SHEPARD_MPI_ROOT=$scratch/root tools/gpu-mpi-check.sh unpack "$part" >/dev/null
  done
  hidden=("$multiarch/openmpi" "$multiarch/pmix2" /usr/share/openmpi /etc/openmpi /usr/share/gdal /usr/share/proj)
  echo "gpu-mpi-build: proving the staging here on the CPU, with ${hidden[*]} hidden"
  # shellcheck disable=SC2016 # expanded inside the namespace
  SCRATCH=$scratch unshare --map-root-user --mount bash -c 'for dir in "$@"; do mount -t tmpfs none "$dir"; done
    exec env -i PATH=/usr/bin:/bin HOME="$SCRATCH" OUT="$SCRATCH/out" SHEPARD_MPI_ROOT="$SCRATCH/root" \
      SHEPARD_MPI_WORK="$SCRATCH/work" \
      SHEPARD_MPI_CHECK_BACKEND=cpu SHEPARD_MPI_CHECK_POINTS=20000 SHEPARD_MPI_CHECK_GRID=256 \
      SHEPARD_MPI_CHECK_EXPORT=1024 SHEPARD_MPI_CHECK_MPI_GRID=512 tools/gpu-mpi-check.sh run' \
    prove "${hidden[@]}" ||
    { echo "gpu-mpi-build: the staging failed its proof here (above)." >&2; exit 1; }
fi

print_part_calls gpu-mpi-build tools/gpu-mpi-check.sh "$debs_dir" "$carry_dir"
