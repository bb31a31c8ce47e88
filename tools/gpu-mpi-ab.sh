#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs on the GPU machine: the programs of two commits alternating through tools/gpu-mpi-check.sh, so that a change's
# numbers come from the same machine and minutes as the code before it.
#   tools/gpu-mpi-ab.sh OLD_PROGRAMS [LAST_PART]
# OLD_PROGRAMS: a programs.tar.xz that tools/gpu-mpi-build.sh made at the other commit (copy it from
# build-gpu-mpi/carry/ before building the new one, into a git-ignored folder that the call carries); the new programs
# are those carried in build-gpu-mpi/carry/. Make the calls that gpu-mpi-build.sh prints for every part but the last,
# then this one with LAST_PART (it unpacks it before the first run). Each round runs the new programs, then the old,
# through `gpu-mpi-check.sh run` with the SHEPARD_MPI_CHECK_* variables given (SHEPARD_MPI_CHECK_STEPS=grid for the
# GPU exports, mpi for shepard-grid-mpi); it prints each run's table and leaves $OUT/new1.tar.gz, old1.tar.gz, ...
# (its log, table, and every run's output and arrivals). Environment: SHEPARD_MPI_AB_ROUNDS (2).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

if [[ $# -lt 1 || $# -gt 2 || ! -f "$1" ]]; then
  echo "usage: $0 OLD_PROGRAMS [LAST_PART] (OLD_PROGRAMS: a programs.tar.xz of tools/gpu-mpi-build.sh)" >&2
  exit 2
fi
packed=build-gpu-mpi/carry/programs.tar.xz
out=${OUT:-/tmp/gpu-mpi-ab-out}
scratch=$(mktemp -d /tmp/gpu-mpi-ab-XXXXXX)
trap 'cp "$scratch/new.tar.xz" "$packed"; rm -rf "$scratch"' EXIT
cp "$packed" "$scratch/new.tar.xz"
cp "$1" "$scratch/old.tar.xz"
part=${2-}
failed=0
for ((round = 1; round <= ${SHEPARD_MPI_AB_ROUNDS:-2}; round++)); do
  for which in new old; do
    cp "$scratch/$which.tar.xz" "$packed"
    echo "=== $which programs, round $round"
    run_out=$scratch/$which$round
    mkdir -p "$run_out"
    # shellcheck disable=SC2086 # no part after the first run
    OUT=$run_out tools/gpu-mpi-check.sh run $part >/dev/null 2>&1 || failed=1
    part=
    cat "$run_out/summary.txt"
    mkdir -p "$out"
    tar -czf "$out/$which$round.tar.gz" -C "$run_out" .
  done
done
exit "$failed"
