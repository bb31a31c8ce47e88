#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# shepard-grid-mpi under mpirun -np 3, writing DST and the rasters of --alpha-out and --robs-out: rank 1 killed with
# SIGKILL mid-run, then mpirun itself sent SIGINT (Ctrl-C) mid-run. Each time: a non-zero exit, the existing outputs
# untouched and nothing left beside them.
# Usage: test-grid-mpi-kill.sh SHEPARD_GRID_MPI SOURCE_ROOT (TAP output).
set -u
tool=$1
source_root=$2
if ! command -v mpirun >/dev/null; then
  echo "1..0 # SKIP mpirun is not installed (apt-get install openmpi-bin)"
  exit 0
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
directory=$(mktemp -d)
trap 'rm -rf "$directory"' EXIT
echo "1..2"

# Starts a run long enough to be stopped (a few seconds on 2 cores); waits until rank 0 has staged its directory.
start_run() {
  for output in out alpha robs; do
    echo "the old $output" >"$directory/$output.vrt"
  done
  mpirun --oversubscribe -np 3 "$tool" -q --tile-size 64 --backend cpu -zfield zinc -a aidw:summation=exact \
    -outsize 3000 2000 --alpha-out "$directory/alpha.vrt" --robs-out "$directory/robs.vrt" \
    "$source_root/data/meuse.csv" "$directory/out.vrt" >"$directory/log" 2>&1 &
  run_pid=$!
  for _ in $(seq 100); do
    compgen -G "$directory/.out.vrt.shepard-mpi-*/out.tiles/tile-*" >/dev/null && return 0
    sleep 0.1
  done
}

check_nothing_left() {
  local name=$1 status=$2
  local left
  left=$(ls -A "$directory" | grep -v '^log$' | tr '\n' ' ')
  if [[ $status -ne 0 && "$left" == "alpha.vrt out.vrt robs.vrt " && "$(cat "$directory/out.vrt")" == "the old out"
        && "$(cat "$directory/alpha.vrt")" == "the old alpha" && "$(cat "$directory/robs.vrt")" == "the old robs" ]]; then
    echo "ok - $name"
  else
    echo "not ok - $name: exit $status, left: $left"
    sed 's/^/# /' "$directory/log"
  fi
}

start_run
for pid in $(pgrep -P "$run_pid"); do
  if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1'; then
    kill -9 "$pid"
  fi
done
wait "$run_pid"
check_nothing_left "a rank killed with SIGKILL leaves nothing" $?

start_run
kill -INT "$run_pid"
wait "$run_pid"
check_nothing_left "Ctrl-C to mpirun leaves nothing" $?
